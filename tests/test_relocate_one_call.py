"""``relocate_element``'s one call (issue 40): a recorded CSS, test-id or role locator resolved
by the page itself, checked with its identity and, when it finds nothing, the page ranked
against the recorded fingerprint, all in one ``Frame.evaluate`` that asks nothing of
Playwright's selector engine (its first query on a new document builds its selector code,
25-100 ms: docs/benchmarks.md); the evidence rule applied to that answer in Python; the
ladder as before wherever that answer does not decide, and the call through Playwright for
every locator or page the document cannot resolve exactly as Playwright does.

In a real Chromium, on small pages; a new document of the page discover_element ran on
(its init scripts put the in-page code there), as the next release's page is met."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page

import pytest_pacts
from pytest_pacts import elements
from pytest_pacts.discovery import to_playwright
from pytest_pacts.discovery.render import page_query
from pytest_pacts.models.locator import DiscoveryResult, Locator, Region, RegionMatch, Strategy
from pytest_pacts.models.outcome import HealRung
from pytest_pacts.runtime import healing
from pytest_pacts.runtime.healing import FIND
from pytest_pacts.runtime.scripts import api_key

ONE_CALL = "the in-page check of the recorded locator"
THROUGH_PLAYWRIGHT = "the in-page 'check' call"
VERIFIED = "the in-page healing 'sameGate' call"  # through Playwright
IN_PAGE_VERIFIED = "the in-page check of a rendering"

NAV = """<nav><a href="#b" id="books" data-mark="real">Books</a>
<a href="#a" id="authors">Authors</a><a href="#p" id="publishers">Publishers</a></nav>
<main><h1>Library</h1></main>"""

# the next release drops the link's id and names it for screen readers: a recorded locator
# by id finds nothing, the link's text is unchanged
DRIFT = (
    "() => { const a = document.querySelector('#books'); a.removeAttribute('id');"
    " a.setAttribute('aria-label', 'Browse the books'); }"
)


def _url(html: str) -> str:
    return "data:text/html," + quote(html)


def _mark(page: Page, locator: Locator) -> str | None:
    return to_playwright(page, locator).get_attribute("data-mark")


@pytest.fixture
def calls(page_calls: list[str]) -> list[str]:
    """What each page call was for, in order (the suite's ``page_calls``)."""
    return page_calls


@pytest.fixture
def ranked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one call also ranks a drifted page (``elements.IN_PAGE_RANK``, the default)."""
    monkeypatch.setattr(elements, "IN_PAGE_RANK", True)


def _settled(tab: Page) -> None:
    """Three animation frames drawn: the page is settled as its change watch observes."""
    tab.evaluate(
        "() => new Promise((r) => { let n = 3;"
        " const f = () => (--n ? requestAnimationFrame(f) : r()); requestAnimationFrame(f); })"
    )


def _recorded_as(
    tab: Page, html: str, words: str, locator: Locator, then: str | None = None
) -> DiscoveryResult:
    """``words`` discovered on ``html`` (its fingerprint and alternates), recorded with
    ``locator``, then a new document of the same page or of ``then`` (discover_element's
    init scripts put the in-page code in it, as in the next release's)."""
    tab.goto(_url(html))
    found = pytest_pacts.discover_element(tab, words)
    assert found.locator is not None, found.unresolved
    tab.goto(_url(then or html))
    return found.model_copy(update={"locator": locator})


FORM = """<form id="login_form"><label>User <input data-testid="user" data-mark="real"></label>
<button type="button" data-mark="real">Sign in</button></form>
<form id="other"><label>User <input data-testid="user"></label></form>"""


@pytest.mark.parametrize(
    ("words", "locator"),
    [
        ("User@LoginForm", Locator(strategy=Strategy.CSS, confidence=0.8, css="#login_form input")),
        (
            "User@LoginForm",
            Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="user", nth=0),
        ),
        (
            "Sign in",
            Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Sign in"),
        ),
        (
            "User@LoginForm",
            Locator(
                strategy=Strategy.TEST_ID,
                confidence=0.98,
                test_id="user",
                region=Region(
                    description="LoginForm", matched_by=RegionMatch.ID_TOKEN, css="form#login_form"
                ),
            ),
        ),
    ],
)
def test_an_unchanged_page_is_one_plain_page_call(
    tab: Page, calls: list[str], words: str, locator: Locator
) -> None:
    """A CSS, test-id (with an ordinal), role and exact name, or region-scoped recorded
    locator that still finds its element: one ``Frame.evaluate``, the document resolving
    the locator itself; before, the check went through Playwright's selector engine, whose
    first query on a new document builds its selector code first."""
    recorded = _recorded_as(tab, FORM, words, locator)
    calls.clear()
    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved and same.locator == locator, same.reason
    assert calls == [ONE_CALL], calls
    assert _mark(tab, locator) == "real"


# whether this document's healing API was built (``js/realm.js``, ``built``): the reason when
# it cannot be told (no healing API here, or a dispatcher without a lazy build)
HEALING_BUILT = (
    "(key) => { const h = globalThis[key];"
    " return !h ? 'no healing API' : typeof h.built === 'function' ? h.built() : 'built at install'; }"
)


def test_an_unchanged_page_does_not_build_the_healing_api(tab: Page, ranked: None) -> None:
    """The no-drift check runs only the discovery API's code: the healing API, which
    discover_element's init script puts in every new document, is built (its modules run)
    by its first call, on a drifted page, and not at the document's first moment (before:
    at install, about 4 ms of the renderer's CPU on each document load, whether it healed
    or not: docs/benchmarks.md)."""
    key = healing._installer()[0]
    locator = Locator(strategy=Strategy.CSS, confidence=0.8, css="a#books")
    recorded = _recorded_as(tab, NAV, "Books", locator)
    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved, same.reason
    assert tab.evaluate(HEALING_BUILT, key) is False
    tab.evaluate(DRIFT)
    _settled(tab)
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real"
    assert tab.evaluate(HEALING_BUILT, key) is True


AGREEMENT = """<form id="f" aria-label="F"><div id="f2"><button>Go</button><button> Go </button>
<button aria-hidden="true">Go</button><button style="display:none">Go</button>
<span role="button">Go</span><input type="submit" value="Go"><a href="#">Go</a><a>Go</a>
<input data-testid="Q"><input data-testid="q"><input data-testid="q "></div>
<label>Name <input placeholder="Your  name"></label><label for="n2">Name</label><input id="n2">
<input aria-label="Name"><label>Name <span>*</span><input></label><input aria-labelledby="l3">
<span id="l3">Name</span><label hidden>Name<textarea></textarea></label></form>
<section id="s"><div class="c"><div class="c"><button>Go</button></div></div>
<p id="1a" class="x:y">odd id</p><p hidden>Go</p></section>
<div class="card"><h3>Tea  Pot</h3><button>Go</button></div>
<div class="card"><h3>Cup</h3><button>Go</button><style>.tea-pot{}</style></div>
<div class="card"><h4>Plate</h4><input type="submit" value="Tea pot"><button>Go</button>
<i title="Edit">e</i></div>
<a title="Edit" href="#e">e</a><a title="edit" href="#e2">e</a><b title=" Edit">e</b><img alt="Edit" src="">
<span title="Edit"><img alt="Edit " src=""></span>"""

QUERIES: list[Locator] = [
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go"),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="link", name="Go"),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go", nth=2),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="q"),
    Locator(strategy=Strategy.LABEL, confidence=0.92, label="Name"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, aria_label="Name"),
    Locator(strategy=Strategy.PLACEHOLDER, confidence=0.88, placeholder="Your name"),
    Locator(strategy=Strategy.PLACEHOLDER, confidence=0.88, placeholder="Your  name"),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="Q"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, title="Edit"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, alt="Edit"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, title="Edit",
            region=Region(description="T", matched_by=RegionMatch.TEXT, css="div.card",
                          has_text="plate")),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="x", test_id_attribute="data-qa"),
    Locator(strategy=Strategy.CSS, confidence=0.8, css="#\\31 a"),
    Locator(strategy=Strategy.CSS, confidence=0.8, css="p.x\\:y"),
    Locator(strategy=Strategy.CSS, confidence=0.8, css="div.c button", nth=0),
    Locator(strategy=Strategy.CSS, confidence=0.8, css="form > div > input:nth-of-type(2)"),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
            region=Region(description="C", matched_by=RegionMatch.CLASS_TOKEN, css="div.c")),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="q",
            region=Region(description="F", matched_by=RegionMatch.ID_TOKEN, css="#f")),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
            region=Region(description="T", matched_by=RegionMatch.TEXT, css="div.card",
                          has_text="tea pot")),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
            region=Region(description="T", matched_by=RegionMatch.HEADING, css="div",
                          heading="Cup")),
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
            region=Region(description="F", matched_by=RegionMatch.NAME, role="form", name="F")),
]  # fmt: skip


def test_the_page_resolves_what_it_takes_as_playwright_does(tab: Page) -> None:
    """Playwright's engines as the reference (``get_by_role`` with an exact name leaves out
    what is hidden from the accessibility tree and normalizes white space; ``get_by_label``
    reads ``<label>`` (wrapping or ``for``), ``aria-label`` and ``aria-labelledby``; a test
    id, an exact placeholder, title or alt text (one engine of Playwright's,
    ``getByAttributeTextSelector``) is matched exactly, case and white space included; CSS
    escapes; a chained locator searches inside each container, nested ones included; a
    container's text filter is Playwright's lax one, over its text without style sheets,
    with a submit button's value): the page's own resolution of each locator it takes finds
    the same elements."""
    tab.goto(_url(AGREEMENT))
    pytest_pacts.discover_element(tab, "Go")  # puts the in-page code in the next document
    tab.goto(_url(AGREEMENT))
    for locator in QUERIES:
        query = page_query(locator)
        assert query is not None, locator.describe()
        to_playwright(tab, locator).evaluate_all("els => { globalThis.__pw = els; }")
        mine, same = tab.evaluate(
            f"([q, key]) => {{ const els = ({FIND})(q, globalThis[key].api());"
            " return [els.length, els.length === globalThis.__pw.length"
            " && els.every((e) => globalThis.__pw.includes(e))]; }",
            [query, api_key()],
        )
        assert same, f"{locator.describe()}: {mine} in the page"


@pytest.mark.parametrize(
    "locator",
    [
        Locator(strategy=Strategy.CSS, confidence=0.8, css="button:has-text('Go')"),
        Locator(strategy=Strategy.CSS, confidence=0.8, css="text=Go"),
        Locator(strategy=Strategy.CSS, confidence=0.8, css="#f >> button"),
        Locator(strategy=Strategy.LABEL, confidence=0.92, label="User", exact=False),
        Locator(strategy=Strategy.TEXT, confidence=0.86, text="Go"),
        Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
                exact=False),
        Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Go",
                region=Region(description="S", matched_by=RegionMatch.TEXT, css="div.card",
                              has_text="Pot", innermost=True)),
        Locator(strategy=Strategy.CSS, confidence=0.8, css="#q", frame_path=("iframe#x",)),
    ],
)  # fmt: skip
def test_what_the_page_cannot_resolve_as_playwright_does_goes_through_playwright(
    locator: Locator,
) -> None:
    """Playwright's own CSS extensions, its text and loose-label engines, a loose name, a
    region's innermost container, a frame: no in-page query (the check goes through
    Playwright)."""
    assert page_query(locator) is None


SHADOW = (
    NAV
    + """<div id="host"></div><script>
document.querySelector('#host').attachShadow({mode: 'open'}).innerHTML = '<a href="#x">Books</a>';
</script>"""
)


def test_a_page_with_an_open_shadow_root_is_checked_through_playwright(
    tab: Page, calls: list[str]
) -> None:
    """Playwright's engines pierce open shadow roots, the page's ``querySelectorAll`` does
    not: on such a page the one call answers "not here" and the check goes through
    Playwright, with the answer it gave before (here: two links named Books, one in the
    shadow root, so the recorded role locator is no longer unique)."""
    locator = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="link", name="Books")
    recorded = _recorded_as(tab, NAV, "Books", locator, then=SHADOW)
    calls.clear()
    found = pytest_pacts.relocate_element(tab, recorded)
    assert calls[:2] == [ONE_CALL, THROUGH_PLAYWRIGHT], calls
    elements.IN_PAGE = False
    try:
        before = pytest_pacts.relocate_element(tab, recorded)
    finally:
        elements.IN_PAGE = True
    assert (found.locator, found.rung, found.moved) == (before.locator, before.rung, before.moved)


def test_a_drifted_relocation_is_the_one_calls_ranking_and_one_verification(
    tab: Page, calls: list[str], ranked: None
) -> None:
    """The recorded locator (by id) finds nothing: the same round trip ranked the settled
    page against the recorded fingerprint and rendered the best candidate, so the
    relocation is that call and the verification of the rendering (that it resolves to
    exactly that element, and its gate), which the page resolves itself as it resolved the
    recorded locator (a role and exact name): two plain page calls, no verification through
    Playwright's selector engine (before: its verification through Playwright, whose first query builds
    its selector code in the new document). The same element as the ladder finds (the
    gate, the alternates, then re-discovery, 4-6 calls)."""
    locator = Locator(strategy=Strategy.CSS, confidence=0.8, css="a#books")
    recorded = _recorded_as(tab, NAV, "Books", locator)
    tab.evaluate(DRIFT)
    _settled(tab)
    calls.clear()
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real" and moved.rung is HealRung.SIMILARITY
    # (a third, the gate's re-check, when the loaded machine drew the page's last frames
    # within the one call's round trip: not known settled)
    assert calls[0] == ONE_CALL and calls[-1] == IN_PAGE_VERIFIED and len(calls) <= 3, calls
    assert VERIFIED not in calls, calls
    elements.IN_PAGE = False
    try:
        before = pytest_pacts.relocate_element(tab, recorded)
    finally:
        elements.IN_PAGE = True
    assert before.locator is not None and _mark(tab, before.locator) == "real"


def test_the_evidence_rule_decides_and_it_abstains_where_it_abstained(
    tab: Page, calls: list[str], ranked: None
) -> None:
    """The one call only ranks; the threshold and margin the caller passes decide, in
    Python, as the similarity rung decides. Where its best candidate does not clear them,
    the ladder runs as before (here re-discovery finds the link by its words); where
    nothing is found again, the call abstains as the ladder did."""
    locator = Locator(strategy=Strategy.CSS, confidence=0.8, css="a#books")
    recorded = _recorded_as(tab, NAV, "Books", locator)
    tab.evaluate(DRIFT)
    _settled(tab)
    calls.clear()
    strict = pytest_pacts.relocate_element(tab, recorded, heal_margin=0.9)
    assert strict.found and strict.locator is not None, strict.reason
    assert _mark(tab, strict.locator) == "real" and strict.rung is not HealRung.SIMILARITY
    assert calls[0] == ONE_CALL and len(calls) > 2, calls
    tab.evaluate("() => document.querySelector('[data-mark=real]').remove()")
    # ranked in the call, checked in the page with the ladder after it, checked through
    # Playwright as before: the same abstention
    for in_page, rank in ((True, True), (True, False), (False, False)):
        elements.IN_PAGE, elements.IN_PAGE_RANK = in_page, rank
        try:
            gone = pytest_pacts.relocate_element(tab, recorded)
        finally:
            elements.IN_PAGE, elements.IN_PAGE_RANK = True, True
        assert not gone.found and gone.locator is None and not gone.moved
        assert "not found again" in gone.reason


def test_a_page_without_the_in_page_code_is_checked_and_healed_as_before(tab: Page) -> None:
    """A page discover_element never ran on (no init script put the in-page code in its
    documents): the one call answers "not installed", and the check and the ladder run
    call by call, with the same answer."""
    tab.goto(_url(NAV))
    recorded = pytest_pacts.discover_element(tab, "Books")
    recorded = recorded.model_copy(
        update={"locator": Locator(strategy=Strategy.CSS, confidence=0.8, css="a#books")}
    )
    other = tab.context.new_page()
    try:
        other.goto(_url(NAV))
        same = pytest_pacts.relocate_element(other, recorded)
        assert same.found and not same.moved
        other.evaluate(DRIFT)
        moved = pytest_pacts.relocate_element(other, recorded)
        assert moved.found and moved.moved and moved.locator is not None, moved.reason
        assert _mark(other, moved.locator) == "real"
    finally:
        other.close()


ROWS = """<table>
<tr id="row-a"><td>Draft A</td><td><button type="button" class="del">Delete</button></td></tr>
<tr id="row-b"><td>Draft B</td><td><button type="button" class="del" data-mark="real">Delete</button></td></tr>
</table>"""


def test_a_region_step_is_ranked_inside_its_region(
    tab: Page, calls: list[str], ranked: None
) -> None:
    """``Delete@Draft B``: the one call ranks inside the containers the page found the
    recorded locator's region in, as the similarity rung ranks inside them, so Draft A's
    button (the same words, the same classes) is never the answer; two page calls."""
    tab.goto(_url(ROWS))
    recorded = pytest_pacts.discover_element(tab, "Delete@Draft B")
    assert recorded.locator is not None and page_query(recorded.locator) is not None
    tab.goto(_url(ROWS))
    tab.evaluate(
        "() => document.querySelectorAll('.del').forEach((b) => { b.textContent = 'Remove'; })"
    )
    _settled(tab)
    calls.clear()
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real" and moved.rung is HealRung.SIMILARITY
    assert calls[0] == ONE_CALL and calls[-1] in (VERIFIED, IN_PAGE_VERIFIED), calls
    assert len(calls) <= 3, calls


def test_without_the_ranking_a_drifted_page_is_checked_in_the_page_then_healed_by_the_ladder(
    tab: Page, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the ranking in the one call (``IN_PAGE_RANK`` off, for the benchmarks that
    compare the two), the failing check is the page's own call, which the gate takes as its
    first, and the ladder finds the element as before."""
    monkeypatch.setattr(elements, "IN_PAGE_RANK", False)
    locator = Locator(strategy=Strategy.CSS, confidence=0.8, css="a#books")
    recorded = _recorded_as(tab, NAV, "Books", locator)
    tab.evaluate(DRIFT)
    _settled(tab)
    calls.clear()
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real" and moved.rung is not HealRung.SIMILARITY
    assert calls[0] == ONE_CALL and THROUGH_PLAYWRIGHT not in calls, calls


def test_the_open_documents_api_is_compiled_as_the_init_script(tab: Page) -> None:
    """V8 reuses what it compiled of a script for the renderer's later scripts of the same
    source (its compilation cache). The document open at discover_element has no init
    script: its copy of the API is now run from the init script's own text, so the page's
    next documents reuse the functions it compiled (the no-drift check compiled 87 of them
    in the next document before, 24 since: docs/benchmarks.md). Checked as the debugger
    sees it: the same script (hash and length) in the open document and the next one;
    before, the open document had no script of the init script's text."""
    session = tab.context.new_cdp_session(tab)
    parsed: list[list[tuple[str, int]]] = [[]]
    session.on("Debugger.scriptParsed", lambda e: parsed[-1].append((e["hash"], e["length"])))
    session.send("Debugger.enable")
    try:
        tab.goto(_url(NAV))
        pytest_pacts.discover_element(tab, "Books")
        parsed.append([])
        tab.goto(_url(NAV + "<p>next</p>"))
        tab.evaluate("1")
    finally:
        session.detach()
    first, then = ({s for s in doc if s[1] > 50_000} for doc in parsed)
    assert then, "the next document runs the init scripts"
    assert first & then, (first, then)
