"""A first run's failures name their real cause (issue 39): nothing recorded is never drift.

Small fixture pages in a real Chromium, run through the engine's front door with the real
healing ladder, as a new user's first run does.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models.outcome import RcaClass, RunRecord

from .helpers import Site, plan, run

# Two controls with one accessible name in different regions, as every list page has
# (a "Sort" combobox in two panels, an "Edit" link per row): WAI-ARIA names need not be
# unique, so a name alone can be ambiguous on a first run. (Both offer the step's option: a
# drop-down without it would not be the other's rival, docs/discovery.md, "The evidence rule".)
TWO_SORTS = """<section aria-label="Products"><h2>Products</h2>
<select aria-label="Sort"><option>Name (A to Z)</option><option>Price</option></select>
</section>
<section aria-label="Reviews"><h2>Reviews</h2>
<select aria-label="Sort"><option>Newest</option><option>Price</option></select>
</section>"""


def test_an_ambiguous_name_with_nothing_recorded_is_not_drift(tab: Page, site: Site) -> None:
    """Nothing recorded (no cache, no recipe): nothing drifted, so the root cause is the
    requirement's wording (``data_issue``), and the advice says how to name one element,
    never to accept a heal proposal (there is none on a first run)."""
    url = site.add("sorts.html", TWO_SORTS)
    record = run(tab, plan(url, ("select", "Sort", "Price")), healer=HealingLadder())
    assert record.verdict == "fail"
    assert record.rca.rca_class is not RcaClass.SELECTOR_DRIFT
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    text = render_failure(record)
    assert "selector_drift" not in text
    assert "proposal" not in record.rca.recommendation
    assert "region" in record.rca.recommendation


# Two product cards, each with an "ADD TO CART" button (text-transform on real shops), as
# shops and list apps show: the region names the card, and a region the page does not show
# is what a person must fix, not the button's name.
CARDS = """<div class="card"><h3>Backpack</h3><button>ADD TO CART</button></div>
<div class="card"><h3>Bike Light</h3><button>ADD TO CART</button></div>"""


def test_a_missing_region_is_the_headline(tab: Page, site: Site) -> None:
    """The region matches nothing on the page and the element alone is not unique: the
    failure's first words say the region was not found, not "did you mean" the element's own
    name (issue 39), and what to do says to name the region as the page shows it."""
    url = site.add("cards.html", CARDS)
    record = run(tab, plan(url, ("click", "Add to cart@Fleece Jacket")), healer=HealingLadder())
    assert record.verdict == "fail"
    step = record.failed_step
    assert step is not None and step.failure is not None
    headline = step.failure.message
    assert headline.startswith('the region "Fleece Jacket" is not on this page'), headline
    assert "did you mean" not in headline
    assert '"Add to cart" alone matches 2 elements, so the region is needed' in headline
    assert record.rca.message == headline
    text = render_failure(record)
    assert 'failure:  not_found: the region "Fleece Jacket" is not on this page' in text


# A login form as shops and admin apps write it: the server's answer to wrong credentials is
# an error box marked by its class/test id (saucedemo's `data-test="error"`, Django's
# `errornote`), and the browser refuses an empty required field itself (HTML constraint
# validation: the `invalid` event and `validationMessage`).
LOGIN = """<h1>Sign in</h1>
<form id="f" onsubmit="event.preventDefault(); check()">
  <label>Username <input id="u" required></label>
  <label>Password <input id="p" type="password" required></label>
  <button>Login</button>
</form>
<p id="stale" class="notice">Welcome back</p>
<script>
function check() {
  if (u.value === 'ada' && p.value === 'right') { location.href = 'products.html'; return; }
  const box = document.createElement('h3');
  box.setAttribute('data-test', 'error');
  box.textContent = 'Epic sadface: Username and password do not match';
  f.after(box);
}
</script>"""


def _login(tab: Page, site: Site, password: str) -> RunRecord:
    url = site.add("login.html", LOGIN)
    site.add("products.html", "<h1>Products</h1>", title="Products")
    rows = [("fill", "Username", "ada"), ("fill", "Password", password) if password else None]
    steps = [r for r in rows if r is not None]
    return run(tab, plan(url, *steps, ("click", "Login", "", "navigates_to:Products")))


def test_a_refused_login_quotes_the_page(tab: Page, site: Site) -> None:
    """The outcome failed because the page refused the input: the failure quotes what the
    page said that is new since the click (not the notice that was there before), and the
    root cause is ``data_issue``, the same on every line."""
    record = _login(tab, site, "wrong")
    step = record.failed_step
    assert step is not None and step.failure is not None
    message = step.failure.message
    assert "the page refused the input, saying" in message
    assert '"Epic sadface: Username and password do not match"' in message
    assert "Welcome back" not in message  # shown before the action: not what it said
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    text = render_failure(record)
    assert "root cause: data_issue" in text and "assertion_mismatch" not in text
    assert "Username and password do not match" in text


def test_a_field_the_browser_refused_is_quoted(tab: Page, site: Site) -> None:
    """An empty required field: the browser does not submit and says why in the field's
    ``validationMessage``; the failure quotes it with the field's label."""
    record = _login(tab, site, "")
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert "the page refused the input, saying" in step.failure.message
    assert '"Password: ' in step.failure.message  # Chromium's "Please fill out this field."
    assert record.rca.rca_class is RcaClass.DATA_ISSUE


def test_a_failed_outcome_on_a_silent_page_is_an_assertion_mismatch(tab: Page, site: Site) -> None:
    url = site.add("silent.html", "<button>Go</button>")
    record = run(tab, plan(url, ("click", "Go", "", "text_visible:Done")))
    assert record.rca.rca_class is RcaClass.ASSERTION_MISMATCH
    assert record.failed_step is not None and record.failed_step.failure is not None
    assert "the page" not in record.failed_step.failure.message.split(", but ")[0]


ECHO = """<form onsubmit="event.preventDefault();
  const m = document.createElement('p'); m.setAttribute('role', 'alert');
  m.textContent = 'The password ' + document.getElementById('p').value + ' is wrong';
  this.after(m)">
  <label>Password <input id="p" type="password"></label><button>Sign in</button></form>"""


def test_a_quoted_message_never_shows_a_secret_the_run_typed(tab: Page, site: Site) -> None:
    """Pages echo what was typed ("The password ... is wrong"): the quote masks it."""
    url = site.add("echo.html", ECHO)
    steps = [("fill", "Password", "{{env.PW}}"), ("click", "Sign in", "", "navigates_to:Home")]
    record = run(tab, plan(url, *steps), env={"PW": "hunter2-secret"})
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert '"The password *** is wrong"' in step.failure.message
    assert "hunter2-secret" not in record.model_dump_json() + render_failure(record)


# What the click on a tab shows: a table's "Drop" tab styled as dangerous (Bootstrap's
# ``text-danger`` on a link: sqlite-web's table page) and a schema block whose id is made of the name it
# shows (``id="model-Error"``: Swagger UI's models); neither is a message. The form's real
# error (``alert-danger``) is.
TABS = """<button onclick="document.getElementById('pane').hidden = false">Structure</button>
<div id="pane" hidden>
  <a href="#drop" class="nav-link text-danger">Drop</a>
  <div id="model-Error" class="model-box"><span>Error</span></div>
  <p class="alert alert-danger">Table not found</p>
</div>"""


def test_a_control_or_a_name_shown_is_not_what_the_page_said(tab: Page, site: Site) -> None:
    """Not "the page refused the input, saying 'Drop'": a control is what a person operates,
    not a message (HTML interactive content, WAI-ARIA widget roles), and an id made of the
    words the element shows names data (a schema called "Error"). Seen on sqlite-web 0.8.2
    ("Drop", a ``text-danger`` tab link) and Swagger UI 5.35.0 ("Error", ``model-Error``). The
    real message the click brought is still quoted."""
    url = site.add("tabs.html", TABS)
    record = run(tab, plan(url, ("click", "Structure", "", "text_visible:Columns")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    message = step.failure.message
    assert '"Table not found"' in message, message
    assert '"Drop"' not in message and '"Error"' not in message, message
