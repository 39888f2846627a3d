"""Generated pages for the healing benchmark: common UI shapes with look-alike elements.

Each page mixes ids, classes, test ids, labels and placeholders the way real apps do, and
repeats element names across cards and rows (regions tell them apart), so mutations meet
realistic neighbours.
"""

from __future__ import annotations

STYLE = (
    "<style>body{font:14px sans-serif} .card,.row{border:1px solid #ccc;margin:4px;padding:4px}"
    " label{display:block}</style>"
)


def signup() -> str:
    fields = [
        ("first-name", "First name", "text", "given-name"),
        ("last-name", "Last name", "text", "family-name"),
        ("email", "Email", "email", "email"),
        ("password", "Password", "password", "new-password"),
        ("password2", "Confirm password", "password", "new-password"),
    ]
    rows = "".join(
        f'<div class="form-row"><label for="{i}">{label}</label>'
        f'<input id="{i}" name="{i.replace("-", "_")}" type="{t}" autocomplete="{ac}" '
        f'class="input input--{t}" placeholder="{label}"></div>'
        for i, label, t, ac in fields
    )
    return (
        f'{STYLE}<main><h1>Create your account</h1><form id="signup" class="signup-form">{rows}'
        '<label for="country">Country</label><select id="country" name="country">'
        "<option>France</option><option>Japan</option><option>Peru</option></select>"
        '<label><input type="checkbox" id="terms" name="terms"> I accept the terms</label>'
        '<label><input type="checkbox" id="news" name="news"> Send me the newsletter</label>'
        '<div class="actions"><button type="submit" id="create" class="btn btn-primary" '
        'data-testid="signup-submit">Create account</button>'
        '<button type="button" id="cancel" class="btn btn-link">Cancel</button></div>'
        '</form><p>Already registered? <a href="/login" class="link">Sign in</a></p></main>'
    )


def products() -> str:
    names = ["Trail Runner", "City Bike", "Rain Jacket", "Camp Stove"]
    cards = "".join(
        f'<article class="card product" id="p{i}"><h3 class="card__title">{n}</h3>'
        f'<p class="card__price">${10 * (i + 2)}.00</p>'
        f'<button class="btn add" id="add-{i}" data-qa="add-{i}">Add to basket</button>'
        f'<a class="details" href="/product/{i}">Details</a></article>'
        for i, n in enumerate(names)
    )
    return (
        f'{STYLE}<header class="top"><a href="/" id="home" class="brand">Shop</a>'
        '<input type="search" id="q" name="q" placeholder="Search products" aria-label="Search">'
        '<button id="go" class="search-btn">Search</button>'
        '<a href="/basket" id="basket" class="basket-link" title="Basket">Basket</a></header>'
        f'<main><h1>Catalogue</h1><div class="grid">{cards}</div></main>'
    )


def settings() -> str:
    toggles = "".join(
        f'<li class="setting"><label><input type="checkbox" id="opt-{i}" name="opt_{i}" '
        f'class="toggle"> {label}</label></li>'
        for i, label in enumerate(["Dark mode", "Email alerts", "Two-factor login"])
    )
    return (
        f'{STYLE}<main><h1>Settings</h1><section aria-labelledby="prefs-h" id="prefs">'
        f'<h2 id="prefs-h">Preferences</h2><ul class="settings-list">{toggles}</ul>'
        '<label for="lang">Language</label><select id="lang" name="language" class="select">'
        "<option>English</option><option>Deutsch</option></select>"
        '<label for="bio">About you</label><textarea id="bio" name="bio" '
        'placeholder="A few words"></textarea></section>'
        '<div class="footer-actions"><button id="save" class="btn btn-primary" '
        'data-test="save-settings">Save changes</button>'
        '<button id="reset" class="btn btn-secondary">Reset</button>'
        '<a id="delete-account" class="danger" href="/delete">Delete account</a></div></main>'
    )


def table() -> str:
    people = ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    rows = "".join(
        f'<tr class="row" id="r{i}"><th scope="row"><h4>{p}</h4></th><td>{p.split()[0].lower()}'
        f'@example.org</td><td><button class="btn-edit" id="edit-{i}">Edit</button>'
        f'<button class="btn-del" id="del-{i}" data-testid="delete-{i}">Delete</button></td></tr>'
        for i, p in enumerate(people)
    )
    return (
        f'{STYLE}<main><h1>Team</h1><div class="toolbar"><button id="invite" class="btn '
        'btn-primary">Invite member</button><button id="export" class="btn">Export</button></div>'
        f'<table class="people"><tbody>{rows}</tbody></table>'
        '<nav class="pager"><a href="?p=1" id="prev" class="page-link">Previous</a>'
        '<a href="?p=3" id="next" class="page-link">Next</a></nav></main>'
    )


def checkout() -> str:
    return (
        f'{STYLE}<main><h1>Payment</h1><form id="pay" class="payment-form">'
        "<fieldset><legend>Card</legend>"
        '<label for="cc">Card number</label><input id="cc" name="cardnumber" '
        'placeholder="1234 1234 1234 1234" class="field">'
        '<label for="exp">Expiry</label><input id="exp" name="exp" placeholder="MM / YY" '
        'class="field field--short">'
        '<label for="cvc">Security code</label><input id="cvc" name="cvc" placeholder="CVC" '
        'class="field field--short"></fieldset>'
        '<label><input type="radio" name="ship" id="std" value="std"> Standard delivery</label>'
        '<label><input type="radio" name="ship" id="exp-d" value="exp"> Express delivery</label>'
        '<button type="submit" id="pay-btn" class="btn btn-primary" data-test="pay">Pay now'
        '</button><button type="button" id="back" class="btn">Back to basket</button>'
        "</form></main>"
    )


def account() -> str:
    """Containers named only by id/class (their headings say something else), and look-alike
    fields across them: three "Email" boxes, two "Password" boxes."""
    return (
        f'{STYLE}<main class="auth-page"><form id="login-form" class="auth-form">'
        "<h2>Welcome back</h2>"
        '<label for="login-email">Email</label><input id="login-email" name="email" '
        'type="email" placeholder="you@example.com" class="input">'
        '<label for="login-password">Password</label><input id="login-password" '
        'name="password" type="password" class="input">'
        '<label><input type="checkbox" name="remember"> Remember me</label>'
        '<button type="submit" class="btn btn-primary">Sign in</button>'
        '<a href="/forgot" class="link">Forgot password?</a></form>'
        '<form id="register-form" class="auth-form"><h2>New here?</h2>'
        '<label for="reg-name">Full name</label><input id="reg-name" name="name" class="input">'
        '<label for="reg-email">Email</label><input id="reg-email" name="email" type="email" '
        'placeholder="you@example.com" class="input">'
        '<label for="reg-password">Password</label><input id="reg-password" name="password" '
        'type="password" class="input">'
        '<button type="submit" class="btn btn-primary" data-testid="register">Create account'
        "</button></form></main>"
        '<footer><div class="newsletter-signup"><p>Monthly news, no spam.</p>'
        '<input type="email" name="email" placeholder="Email" aria-label="Email" class="input">'
        '<button class="btn">Subscribe</button></div></footer>'
    )


def dashboard() -> str:
    """Cards named by id whose buttons repeat word for word ("Refresh", "View all"), some
    with a test id and some with nothing of their own; two filter panels with "Apply"."""

    def card(key: str, heading: str, text: str, test_id: str = "") -> str:
        tid = f'data-testid="{test_id}" ' if test_id else ""
        return (
            f'<section id="{key}-card" class="card widget"><h3>{heading}</h3><p>{text}</p>'
            f'<button type="button" {tid}class="btn btn-sm">Refresh</button>'
            f'<a href="/{key}" class="card-link">View all</a></section>'
        )

    def panel(key: str, heading: str) -> str:
        return (
            f'<aside id="{key}-filters" class="panel"><h4>{heading}</h4>'
            f'<label for="{key}-filters-q">Search</label>'
            f'<input id="{key}-filters-q" name="q" type="search" class="input">'
            '<button type="button" class="btn">Apply</button>'
            '<button type="reset" class="btn btn-link">Clear</button></aside>'
        )

    return (
        f'{STYLE}<main id="dashboard"><h1>Overview</h1><div class="cards">'
        f"{card('billing', 'Billing', '$1,204 due on 3 May')}"
        f"{card('usage', 'This month', '82% of the plan used', 'usage-refresh')}"
        f"{card('team', 'People', '6 members, 2 pending')}</div>"
        f'<div class="filters">{panel("invoice", "Invoices")}{panel("member", "Members")}'
        "</div></main>"
    )


PAGES = {
    "gen/signup": signup,
    "gen/products": products,
    "gen/settings": settings,
    "gen/table": table,
    "gen/checkout": checkout,
    "gen/account": account,
    "gen/dashboard": dashboard,
}
