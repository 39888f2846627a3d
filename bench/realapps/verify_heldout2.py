"""Check a held-out app's truth file (truth/<app>.yaml) by hand-driving its flows with
Playwright (no pytest-pacts).

For every version, every requirement of ``flows/<app>.req.yaml`` is replayed on a fresh app,
in file order on one served instance (as a corpus run does; a flow with ``auth:`` starts
signed in, as its auth profile would leave it: the session of one sign-in per served app,
reused, since I hate money 7 accepts three logins a minute): each element step must find exactly one
element with its truth selector, and is then acted on with that selector the way a person
would (a native confirm is accepted). The steps' expected outcomes are checked loosely (text,
value, checked, title/heading, URL) so a flow that cannot be done on a version shows up too.

    .venv/bin/python bench/realapps/verify_heldout2.py APP [VERSION ...]

with APP one of dokuwiki, sqladmin, roundup, tiddlywiki, jupyter, swagger_ui, node_red, ihatemoney,
fava, radicale, pinnwand, sqlite_web, lektor, kinto, buku, reader, changedetection, doccano, jotter,
otterwiki, octoprint, calibreweb, pretix, appbuilder, marimo, maildev, locust, mitmweb, kiwitcms,
verdaccio, tensorboard, dagster, gradio, archivebox, piccolo_admin, kedro_viz, reviewboard, nocodb,
trac, directus, ghost, pretalx, djangocms, vendure, helpdesk, homebridge.
A control shown only while the pointer is on its table row or card (I hate
money's participant buttons, Radicale 3.9's collection buttons) is reached as a person does: by
pointing at the row or card first; an item of a closed Bootstrap drop- down menu by clicking its
toggle first, a field of a closed Django admin fieldset (django CMS 4.1's "Menu options") by its
"Show", and an item of a closed WAI-ARIA menu (Review Board 8's) by pointing at its opener
(`aria-haspopup`, `aria-controls`) first. A checkbox drawn by its <label> (the input hidden) is
acted on through the label, the one of the two drawn; a label that wraps its checkbox (Calibre-Web's
"Read") is one element with it, and so is a component that wraps it (TensorBoard's <mat-checkbox>,
checked through its input). A slider (marimo's) is moved with its keys, and the text an outcome
reads includes what open shadow roots draw, as the engine reads it. A drawn drop-down's option
written in the capitals the page shows (TensorBoard's "GRAPHS") is matched ignoring case when no
option has those exact words, and its `value:` is the text it shows. A widget whose truth is its
block (Gradio's slider: a number box beside its range input) is filled and read through its number
box. A covering layer the truth's `_dismiss` lists (Dagster's product tours) is closed by its own
button before a step acts, and a code editor (CodeMirror) is filled by a click in it and the keys. A
native select's `value:` is its chosen option's words or its value (Piccolo Admin's "True" is
`value="true"`), as the engine reads it. A step the truth's `_views` lists names one thing drawn
twice (Kedro-Viz's list row and flowchart box): two elements, the first drawn acted on.
"""

from __future__ import annotations

import contextlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from realapps.harness import AppSpec, load_apps, offline_launch_options  # noqa: E402


def _rows(req: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    rows = []
    for step in req["steps"]:
        parts = [p.strip() for p in step.split("|")] + ["", "", ""]
        rows.append((parts[0], parts[1], parts[2], parts[3]))
    return rows


def _env(app: AppSpec, text: str) -> str:
    return re.sub(r"\{\{env\.(\w+)\}\}", lambda m: app.env[m.group(1)], text)


# the rendered text of the page and of every open shadow root in it, as the engine reads it
# (marimo draws its widgets, tabs and sections inside shadow roots)
_RENDERED_TEXT = """() => {
  const parts = [document.body.innerText];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (!el.shadowRoot) continue;
      for (const child of el.shadowRoot.children) parts.push(child.innerText || "");
      walk(el.shadowRoot);
    }
  };
  walk(document);
  return parts.join(" ");
}"""


def _body_text(page: Page) -> str:
    return re.sub(r"\s+", " ", str(page.evaluate(_RENDERED_TEXT))).lower()


def _expect_ok(page: Page, loc: Locator | None, expected: str) -> bool:
    if not expected:
        return True
    kind, _, arg = expected.partition(":")
    want = re.sub(r"\s+", " ", arg).strip().lower()
    if kind == "text_visible":
        return want in _body_text(page)
    if kind == "text_hidden":
        return want not in _body_text(page)
    if kind == "navigates_to":
        heads = " ".join(page.locator("h1, h2, h3, h4, h5").all_inner_texts()).lower()
        return want in page.title().lower() or want in heads
    if kind == "url_contains":
        return arg in page.url
    if kind == "value" and loc is not None:
        if loc.evaluate("e => e.matches('select')"):  # its option's words, or its value
            shown = loc.evaluate("e => e.selectedOptions[0]?.textContent.trim() ?? ''")
            return arg in (loc.input_value(), shown)
        if loc.evaluate("e => e.matches('input, textarea')"):
            return loc.input_value() == arg
        if _field_inside(loc) is not None:  # a widget that holds its field (Gradio's slider)
            return _field_inside(loc).input_value() == arg  # type: ignore[union-attr]
        # a drawn drop-down (TensorBoard's Angular Material selects) shows its choice as text
        return want == re.sub(r"\s+", " ", loc.inner_text()).strip().lower()
    if kind in ("checked", "unchecked") and loc is not None:
        return _checkbox(loc).is_checked() == (kind == "checked")
    if kind == "element_visible":
        return page.get_by_text(arg, exact=False).first.is_visible()
    return True  # count, field_populated: judged by eye in the pacts runs


def _field_inside(loc: Locator) -> Locator | None:
    """The text or number field a widget's block holds, when ``loc`` is not a field itself
    (Gradio's slider: a block with a number box beside its range input, one value)."""
    if loc.evaluate("e => e.matches('input, textarea, select, [contenteditable]')"):
        return None
    field = loc.locator("input[type=number], input[type=text], input:not([type]), textarea")
    return field.first if field.count() else None


def _receives_pointer(loc: Locator) -> bool:
    """Whether the element (or something inside it) is what a click at its centre hits."""
    return bool(
        loc.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            "  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
            "  return !!hit && (hit === e || e.contains(hit)); }"
        )
    )


def _checkbox(loc: Locator) -> Locator:
    """``loc`` itself when it is a checkbox (or its label); else the native checkbox inside it
    (a component that wraps one: TensorBoard's <mat-checkbox>)."""
    if loc.evaluate("e => e.matches('input, [role=checkbox], [role=radio], label')"):
        return loc
    return loc.locator("input[type=checkbox]").first


def _act(page: Page, loc: Locator, action: str, value: str) -> None:
    if action == "click":
        loc.click()
    elif action == "fill" and loc.get_attribute("role") == "slider":
        _slide(loc, value)
    elif action == "fill" and loc.evaluate("e => e.classList.contains('CodeMirror')"):
        # a code editor (CodeMirror 5, Dagster 1.10's asset selection): typed into as a person
        # does, after a click in it (its own textarea is a zero-size proxy)
        loc.click()
        page.keyboard.type(value)
    elif action == "fill" and _field_inside(loc) is not None:
        _field_inside(loc).fill(value)  # type: ignore[union-attr]
    elif action == "fill":
        loc.fill(value)
    elif action in ("check", "uncheck"):
        box = _checkbox(loc)
        label = page.locator(f'label[for="{loc.get_attribute("id") or "-"}"]')
        if box is loc and label.count() == 1 and not _receives_pointer(loc):
            # a switch drawn over its input by its <label for> (Kedro-Viz's toggles): the
            # label, as a person clicks it (HTML: a label's activation is its control's)
            label.check() if action == "check" else label.uncheck()
        elif box is loc:
            loc.check() if action == "check" else loc.uncheck()
        elif box.is_checked() != (action == "check"):
            # a component that wraps its native checkbox (Angular Material's <mat-checkbox>):
            # its input (MDC draws it transparent over the box), or, where the input is
            # visually hidden under its <label> (the legacy release), that label
            try:
                box.click(timeout=4000)
            except PlaywrightError:
                loc.locator("label").first.click()
    elif action == "select":
        if loc.evaluate("e => e.tagName") == "SELECT":
            loc.select_option(label=value, force=True)
        else:  # a drawn drop-down (WAI-ARIA listbox): opened, its option picked by its words
            loc.click()
            option = page.get_by_role("option", name=value, exact=True)
            if not option.count():  # written as the page shows it (a list drawn in capitals)
                option = page.get_by_role("option", name=re.compile(f"^{re.escape(value)}$", re.I))
            option.first.click()
    elif action == "press":
        loc.press(value)
    elif action == "focus":
        loc.focus()
    elif action == "hover":
        loc.hover()
    elif action == "type":
        loc.press_sequentially(value)
    else:
        raise ValueError(action)


def _slide(loc: Locator, value: str) -> None:
    """A slider (WAI-ARIA: role=slider) moved with its keys as a person would: Home, then the
    right arrow until it holds ``value`` (at most 500 presses)."""
    loc.focus()
    loc.press("Home")
    for _ in range(500):
        if loc.get_attribute("aria-valuenow") == value:
            return
        loc.press("ArrowRight")
    raise ValueError(f"the slider never held {value!r}")


@dataclass(frozen=True)
class SignIn:
    """An app's sign-in as its auth profile does it, with its own selectors: open ``path``,
    fill the user and password (from the app's env), submit (a selector to click, or
    ``ENTER`` in the password box), then wait until ``ready`` shows (``url:`` a glob the
    address must match; ``None``: the load)."""

    path: str
    user: str
    password: str
    submit: str
    ready: str | None
    env: tuple[str, str]
    timeout: float | None = None
    state: Literal["attached", "visible"] = "visible"


ENTER = "Enter"
SIGN_INS: dict[str, SignIn] = {
    "dokuwiki": SignIn("doku.php?id=start&do=login", 'input[name="u"]', 'input[name="p"]',
                       '#dw__login button[type="submit"]', None,
                       ("DOKUWIKI_USER", "DOKUWIKI_PASSWORD")),
    "roundup": SignIn("", 'input[name="__login_name"]', 'input[name="__login_password"]',
                      'p.userblock input[type="submit"]', "text=Hello, admin",
                      ("ROUNDUP_USER", "ROUNDUP_PASSWORD")),
    "ihatemoney": SignIn("", "#authentication-form #id", "#authentication-form #password",
                         "#authentication-form button[type=submit]", "text=Add a new bill",
                         ("IHATEMONEY_PROJECT", "IHATEMONEY_CODE")),
    "doccano": SignIn("auth", ".v-card input[name=username]", ".v-card input[name=password]",
                      ENTER, "text=Bird sightings", ("DOCCANO_USER", "DOCCANO_PASSWORD")),
    "calibreweb": SignIn("login", "input#username", "input#password", 'button[name="submit"]',
                         "a#logout", ("CALIBREWEB_USER", "CALIBREWEB_PASSWORD")),
    "pretix": SignIn("control/login", "input#id_email", "input#id_password",
                     'button[type="submit"]', "text=Your upcoming events",
                     ("PRETIX_USER", "PRETIX_PASSWORD"), 90000),
    "appbuilder": SignIn("login/", "input#username", "input#password", 'input[type="submit"]',
                         'a[href="/logout/"]', ("APPBUILDER_USER", "APPBUILDER_PASSWORD"),
                         state="attached"),
    "kiwitcms": SignIn("accounts/login/", "input#inputUsername", "input#inputPassword",
                       'button[type="submit"]', "text=Your Test plans",
                       ("KIWITCMS_USER", "KIWITCMS_PASSWORD"), 90000),
    "archivebox": SignIn("admin/login/", "input#id_username", "input#id_password",
                         'input[type="submit"]', 'a[href="/admin/logout/"]',
                         ("ARCHIVEBOX_USER", "ARCHIVEBOX_PASSWORD")),
    "piccolo_admin": SignIn("", 'input[name="username"]', 'input[name="password"]',
                            "form button", "text=Welcome to Nursery Admin",
                            ("PICCOLO_USER", "PICCOLO_PASSWORD")),
    # 5.0.7's "Log in" is an input, 8.1's a button
    "reviewboard": SignIn("account/login/", "input#id_username", "input#id_password", ENTER,
                          "url:**/dashboard/**", ("REVIEWBOARD_USER", "REVIEWBOARD_PASSWORD")),
    "nocodb": SignIn("dashboard/#/signin", "#form_item_email", "#form_item_password",
                     'button[data-testid="nc-form-signin__submit"]',
                     '[data-testid="nc-sidebar-team-settings-btn"]',
                     ("NOCODB_USER", "NOCODB_PASSWORD"), 60000),
    "directus": SignIn("admin/login", 'input[type="email"]', 'input[type="password"]',
                       'button[type="submit"]', "url:**/admin/content**",
                       ("DIRECTUS_USER", "DIRECTUS_PASSWORD"), 60000),
    "ghost": SignIn("ghost/#/signin", 'input[type="email"]', 'input[type="password"]',
                    'button[type="submit"]', "url:**/ghost/#/dashboard**",
                    ("GHOST_USER", "GHOST_PASSWORD"), 60000),
    # 2025.2's "Log in" is no submit input
    "pretalx": SignIn("orga/login/", "input#id_login_email", "input#id_login_password",
                      'role=button[name="Log in"]', "url:**/orga/event/**",
                      ("PRETALX_USER", "PRETALX_PASSWORD"), 60000),
    "djangocms": SignIn("admin/login/", "input#id_username", "input#id_password",
                        'input[type="submit"]', "text=Site administration",
                        ("DJANGOCMS_USER", "DJANGOCMS_PASSWORD")),
    "vendure": SignIn("admin/login", "input#login_username", "input#login_password",
                      "button.login-button", "text=Latest orders",
                      ("VENDURE_USER", "VENDURE_PASSWORD"), 60000),
    # 0.5.0's "Login" is a submit input, 2.6.1's a button
    "helpdesk": SignIn("login/", "input#username", "input#password", ENTER,
                       "text=All Tickets", ("HELPDESK_USER", "HELPDESK_PASSWORD"), 60000),
    "homebridge": SignIn("login", "input#form-username", "input#form-pass",
                         "button#submit-button", "text=Update Information",
                         ("HOMEBRIDGE_USER", "HOMEBRIDGE_PASSWORD"), 60000),
}  # fmt: skip


def _sign_in(app: AppSpec, page: Page, base: str) -> None:
    """What the app's auth profile does, with its own selectors (``SIGN_INS``)."""
    how = SIGN_INS.get(app.name)
    if how is None:
        raise ValueError(f"no sign-in for {app.name}")
    page.goto(base + how.path)
    page.fill(how.user, app.env["PACTS_" + how.env[0]])
    page.fill(how.password, app.env["PACTS_" + how.env[1]])
    if how.submit == ENTER:
        page.press(how.password, "Enter")
    else:
        page.click(how.submit)
    if how.ready is None:
        page.wait_for_load_state()
    elif how.ready.startswith("url:"):
        page.wait_for_url(how.ready[4:], timeout=how.timeout)
    else:
        page.wait_for_selector(how.ready, state=how.state, timeout=how.timeout)


def verify(app: AppSpec, version: str) -> int:
    flows = yaml.safe_load(app.flows.read_text())["requirements"]
    truth = yaml.safe_load(app.truth.read_text())
    found = (truth.pop("_dismiss", None) or {}).get(version) or ()
    dismiss = (found,) if isinstance(found, str) else tuple(found)
    # steps whose one thing is drawn in two views that act alike (Kedro-Viz: a node's row in the
    # list and its box in the flowchart): their truth names both, so two elements are expected
    views = set(truth.pop("_views", None) or ())
    problems = 0
    with app.serve(version) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        signed_in: Any = None  # the session of the first sign-in, reused as a profile's is
        for req in flows:
            rid = req["req_id"]
            state = signed_in if req.get("auth") else None
            context = browser.new_context(
                viewport={"width": 1280, "height": 800}, storage_state=state
            )
            # pretix's development server renders a page in 2-25 s at load 15-20 (debug on);
            # TensorBoard's tab took 8.2 s to click at load 75 (its page's animations settle)
            slow = (
                "pretix",
                "kiwitcms",
                "tensorboard",
                "dagster",
                "nocodb",
                "directus",
                "ghost",
                "pretalx",
                "djangocms",
                "vendure",
                "helpdesk",
                "homebridge",
            )
            context.set_default_timeout(45000 if app.name in slow else 8000)
            # a Lumino app's first load (Jupyter Notebook 7) can take longer on a loaded machine
            context.set_default_navigation_timeout(60000)
            page = context.new_page()
            page.on("dialog", lambda d: d.accept())
            if req.get("auth") and signed_in is None:
                _sign_in(app, page, served.base_url)
                signed_in = context.storage_state()
            page.goto(served.base_url.rstrip("/") + req["url"])
            # a single-page app fetches what its controls depend on after the load (doccano's
            # "Start Annotation" leads to the project's kind of annotation page once it is known)
            with contextlib.suppress(PlaywrightError):
                page.wait_for_load_state("networkidle", timeout=10000)
            for n, (element, action, value, expected) in enumerate(_rows(req), start=1):
                value, expected = _env(app, value), _env(app, expected)
                loc = None
                if action == "goto":  # a path relative to the served app, as the run takes it
                    page.goto(served.base_url.rstrip("/") + value)
                if element:
                    sel = truth.get(rid, {}).get(n, {}).get(version, "<missing>")
                    if sel == "<missing>":
                        print(f"{version} {rid} step {n}: no truth entry for {element!r}")
                        problems += 1
                        break
                    if sel is None:
                        print(f"{version} {rid} step {n}: {element!r} is null here; skipped")
                        continue
                    loc = page.locator(sel)
                    with contextlib.suppress(PlaywrightError):  # a page drawn by script
                        loc.first.wait_for(state="attached", timeout=15000)
                    row = loc.first.locator("xpath=ancestor::*[self::tr or self::article][1]")
                    with contextlib.suppress(PlaywrightError):
                        if not loc.first.is_visible() and row.count() == 1:
                            row.hover()
                    # an item of a closed Bootstrap drop-down menu (Flask-AppBuilder's top bar):
                    # its toggle is clicked first, as a person opens the menu
                    toggle = loc.first.locator(
                        "xpath=ancestor::ul[contains(concat(' ', @class, ' '), ' dropdown-menu ')]"
                        "[1]/preceding-sibling::*[contains(@class, 'dropdown-toggle')][1]"
                    )
                    with contextlib.suppress(PlaywrightError):
                        if not loc.first.is_visible() and toggle.count() == 1:
                            toggle.click()
                    # a field of a closed Django admin fieldset ("Menu options (Show)", django
                    # CMS 4.1's page settings): its "Show" is clicked first, as a person does
                    shower = loc.first.locator(
                        "xpath=ancestor::fieldset[contains(concat(' ', @class, ' '),"
                        " ' collapsed ')][1]//a[contains(@class, 'collapse-toggle')]"
                    )
                    with contextlib.suppress(PlaywrightError):
                        if not loc.first.is_visible() and shower.count() == 1:
                            shower.click()
                    # an item of a closed WAI-ARIA menu whose opener names it (aria-controls,
                    # aria-haspopup; Review Board 8's Ink menus, opened by pointing at them):
                    # the opener is pointed at first, as a person opens the menu
                    with contextlib.suppress(PlaywrightError):
                        if not loc.first.is_visible():
                            menu = loc.first.evaluate(
                                "e => (e.closest('menu[id], [role=menu][id]') || {}).id || ''"
                            )
                            opener = page.locator(f'[aria-haspopup][aria-controls="{menu}"]')
                            if menu and opener.count() == 1:
                                page.mouse.move(0, 0)  # off it first: the menu opens on entering
                                opener.hover()
                    # a control in a closed region that a shown control opens and names
                    # (WAI-ARIA aria-controls: a tab's panel, a collapsed section, a side
                    # panel; django-helpdesk 2.6's "Respond" tab and "Filters" panel): that
                    # opener is clicked first, as a person opens it
                    with contextlib.suppress(PlaywrightError):
                        if not loc.first.is_visible():
                            region = loc.first.evaluate(
                                "e => { for (let n = e.parentElement; n; n = n.parentElement)"
                                "  if (n.id && document.querySelector("
                                '    `[aria-controls="${CSS.escape(n.id)}"]:not([aria-haspopup])`))'
                                "    return n.id; return ''; }"
                            )
                            opener = page.locator(
                                f'[aria-controls="{region}"]:not([aria-haspopup]):visible'
                            )
                            if region and opener.count() == 1:
                                opener.click()
                    with contextlib.suppress(PlaywrightError):
                        loc.first.wait_for(state="visible", timeout=15000)
                    # one element: a union selector may add a part of it (an icon's span)
                    # (through shadow roots: a web component's inner button is part of it),
                    # or a control's <label> (HTML: a label's activation is its control's; a
                    # label that wraps its control is the one element, the control inside it)
                    count = loc.evaluate_all(
                        "els => els.filter(e => !els.some(o => {"
                        "  if (e.control && e.control === o && !e.contains(o)) return true;"
                        "  for (let n = e.parentNode || e.host; n; n = n.parentNode || n.host)"
                        "    if (n === o) return true;"
                        "  return false; })).length"
                    )
                    if count != (2 if f"{rid}/{n}" in views else 1):
                        print(f"{version} {rid} step {n}: {sel!r} matches {count} elements")
                        problems += 1
                        break
                    if loc.count() > 1:  # acted on as a person does: the first one drawn
                        shown = [i for i in range(loc.count()) if loc.nth(i).is_visible()]
                        loc = loc.nth(shown[0] if shown else 0)
                    # a covering layer the truth lists (Dagster's product tours) is closed by
                    # its own button first, as a person does
                    for shut in dismiss:
                        for button in page.locator(shut).all():
                            with contextlib.suppress(PlaywrightError):
                                if button.is_visible():
                                    button.click(timeout=5000)
                    try:
                        _act(page, loc, action, value)
                    except PlaywrightError as exc:
                        print(f"{version} {rid} step {n}: {action} failed: {exc}".splitlines()[0])
                        problems += 1
                        break
                with contextlib.suppress(PlaywrightError):
                    page.wait_for_load_state()
                ok = False
                for _ in range(24):
                    with contextlib.suppress(PlaywrightError):
                        if _expect_ok(page, loc, expected):
                            ok = True
                            break
                    page.wait_for_timeout(250)
                if not ok:
                    print(f"{version} {rid} step {n}: expected {expected!r} does not hold")
                    problems += 1
            context.close()
            print(f"{version} {rid}: checked", flush=True)
        browser.close()
    return problems


def main(argv: list[str]) -> int:
    app = load_apps([argv[0]])[0]
    versions = argv[1:] or list(app.versions)
    total = sum(verify(app, v) for v in versions)
    print(f"{total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
