"""The public surface of ``pytest_pacts`` (docs/api.md): every name imports, the error tree
has one root, importing the package stays light, and the two library entry points work in a
real Chromium."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page

import pytest_pacts
from pytest_pacts.discovery import to_playwright
from pytest_pacts.models.outcome import HealRung

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", pytest_pacts.__all__)
def test_every_public_name_imports(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from pytest_pacts import {name}", namespace)
    assert namespace[name] is getattr(pytest_pacts, name)


def test_every_public_name_is_documented() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([A-Za-z_]+)`", text, flags=re.M))
    assert documented == set(pytest_pacts.__all__), (
        "docs/api.md's tables and pytest_pacts.__all__ differ: "
        f"undocumented {sorted(set(pytest_pacts.__all__) - documented)}, "
        f"not public {sorted(documented - set(pytest_pacts.__all__))}"
    )


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        pytest_pacts.nothing_here  # noqa: B018


def test_importing_the_package_loads_neither_playwright_nor_pydantic() -> None:
    code = (
        "import sys, pytest_pacts; "
        "print(sorted(m for m in ('playwright', 'pydantic', 'pytest') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


def _package_exceptions() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(pytest_pacts.__path__, "pytest_pacts."):
        if info.name.endswith("__main__") or ".demo_app" in info.name:
            continue  # entry scripts run on import; the demo app raises to no caller
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
                and not name.startswith("_")
            ):
                found.append(value)
    return found


def test_every_exception_of_the_package_derives_from_pacts_error() -> None:
    exceptions = _package_exceptions()
    assert len(exceptions) > 20
    stray = [
        f"{e.__module__}.{e.__qualname__}"
        for e in exceptions
        if not issubclass(e, (pytest_pacts.PactsError, pytest_pacts.PactsWarning))
    ]
    assert not stray, f"not under PactsError / PactsWarning: {stray}"


def test_the_roots_keep_the_builtin_bases() -> None:
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.planner.urls import UrlError
    from pytest_pacts.scaffold.init import ScaffoldExists

    assert issubclass(pytest_pacts.PageUnresponsive, PlaywrightError)
    assert issubclass(UrlError, ValueError) and issubclass(ScaffoldExists, FileExistsError)
    assert issubclass(pytest_pacts.PactsHealWarning, UserWarning)


# -- the entry points, in a real Chromium -----------------------------------------------------

LOGIN = """<h1>Shop</h1>
<form id="login_form">
  <label>Username <input name="user"></label>
  <button type="button" id="login" data-mark="real">Log in</button>
  <button type="button" id="cancel">Cancel</button>
</form>"""


def _mark(page: Page, locator: pytest_pacts.Locator) -> str | None:
    return to_playwright(page, locator).get_attribute("data-mark")


def test_discover_element_finds_element_at_region(tab: Page) -> None:
    tab.set_content(LOGIN)
    found = pytest_pacts.discover_element(tab, "Log in@LoginForm", "click")
    assert found.ok and found.locator is not None, found.unresolved
    assert _mark(tab, found.locator) == "real"
    assert found.fingerprint is not None and found.fingerprint.accessible_name == "Log in"
    assert found.locator.region is not None  # scoped to the form the step named

    missing = pytest_pacts.discover_element(tab, "Checkout", "click")
    assert not missing.ok and missing.unresolved is not None


def test_discover_element_rejects_a_bad_step_with_a_pacts_error(tab: Page) -> None:
    tab.set_content(LOGIN)
    with pytest.raises(pytest_pacts.PactsError, match="unknown action 'clik'"):
        pytest_pacts.discover_element(tab, "Log in", "clik")


def test_relocate_element_keeps_moves_or_abstains(tab: Page) -> None:
    tab.set_content(LOGIN)
    recorded = pytest_pacts.discover_element(tab, "Log in@LoginForm")
    assert recorded.locator is not None

    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved and same.locator == recorded.locator

    # the next release renames the button and drops its id: found again by similarity
    tab.evaluate(
        """() => { const b = document.querySelector('#login');
                   b.removeAttribute('id'); b.textContent = 'Sign in'; }"""
    )
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved, moved.reason
    assert moved.locator is not None and _mark(tab, moved.locator) == "real"
    assert moved.rung is not None

    # the button is gone: the only other button is not taken for it
    tab.evaluate("() => document.querySelector('[data-mark=real]').remove()")
    gone = pytest_pacts.relocate_element(tab, recorded)
    assert not gone.found and gone.locator is None and not gone.moved
    assert "not found again" in gone.reason


def test_relocate_element_on_an_unchanged_page_is_one_page_call(
    tab: Page, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """Issue 40: the recorded locator checked, its identity included, in one round trip, with
    no animation frame waited ("stable" is Playwright's, right before it acts); the gate and
    the ladder only when it fails. No event listener is attached to the page either way
    (each costs two round trips to Playwright's driver)."""
    page_url = "data:text/html," + quote(LOGIN)
    tab.goto(page_url)
    recorded = pytest_pacts.discover_element(tab, "Log in@LoginForm")
    # a new document of the same page (the next release): discover_element left the
    # in-page API to its next documents, so the check is not sent twice (not installed, then
    # with the API's source)
    tab.goto(page_url)
    calls = request.getfixturevalue("page_calls")
    subscribed: list[str] = []
    monkeypatch.setattr(tab, "on", lambda event, _handler: subscribed.append(event))
    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved
    # the recorded role locator in its region's container resolved by the page itself, in
    # one Frame.evaluate: no selector query of Playwright's (tests/test_relocate_one_call.py)
    assert calls == ["the in-page check of the recorded locator"], calls
    assert subscribed == []
    # an element that is still there but another one now fails that check: the gate decides
    tab.evaluate("() => { document.querySelector('#login').textContent = 'Delete account'; }")
    calls.clear()
    changed = pytest_pacts.relocate_element(tab, recorded)
    assert not (changed.found and not changed.moved), changed.reason
    assert len(calls) > 1 and subscribed == []


def test_relocate_element_reads_settled_from_the_change_watch(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: on a drifted page that the change watch (js/watch.js, in every document
    since discover_element) saw drawn twice with no DOM change, the first check's failure
    is taken as settled at once instead of watching two more animation frames (17-33 ms at
    60 Hz, the floor of every drifted relocation): the check counts any quiet spell
    (``since=0``), since this call acts on nothing. The answer is the same."""
    import pytest_pacts.elements as elements

    page_url = "data:text/html," + quote(LOGIN)
    tab.goto(page_url)
    recorded = pytest_pacts.discover_element(tab, "Log in@LoginForm")
    tab.goto(page_url)
    tab.evaluate("() => document.querySelector('#login').textContent = 'Sign in'")
    tab.wait_for_timeout(100)  # a few frames drawn since the change
    seen: list[object] = []
    real = vars(elements)["find_check_and_rank"]  # imported there, not re-exported

    def spied(frame: object, find: object, check: dict[str, object], *args: object) -> object:
        seen.append(check.get("since"))
        return real(frame, find, check, *args)

    monkeypatch.setattr(elements, "find_check_and_rank", spied)
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real"
    assert seen[:1] == [0.0]


def test_relocate_element_on_a_drifted_page_neither_installs_nor_waits_for_stillness(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: on a later document of a page discover_element ran on, a relocation that
    runs the ladder finds the healing code there (discover_element added it as an init
    script, as it adds discovery's): no init script is added during the call and the
    healing source is never sent (each one more round trip, the source 180 KB to compile).
    Its re-discovery leaves "stable" to Playwright, as the ladder's own does
    (``default_rungs``): no gate collection after the scan, no animation frame watched."""
    import pytest_pacts.discovery.engine as engine
    import pytest_pacts.runtime.healing as healing

    page_url = "data:text/html," + quote(LOGIN)
    tab.goto(page_url)
    recorded = pytest_pacts.discover_element(tab, "Log in@LoginForm")
    tab.goto(page_url)
    # the next release rewords the button and renames its id: found again by its words
    tab.evaluate(
        "() => { const b = document.querySelector('#login'); b.id = 'signin';"
        " b.textContent = 'Log in now'; }"
    )
    sent_source: list[str] = []
    for name in ("_page_fn", "_elements_fn"):
        real = getattr(healing, name)

        def spied(fn: str, installed_only: bool, *a: object, _real=real, **k: object) -> str:  # type: ignore[no-untyped-def]
            if not installed_only:
                sent_source.append(fn)
            return _real(fn, installed_only, *a, **k)  # type: ignore[no-any-return]

        monkeypatch.setattr(healing, name, spied)
    scripts: list[str] = []
    monkeypatch.setattr(tab, "add_init_script", lambda *a, **k: scripts.append("added"))
    gates: list[object] = []
    real_gates = vars(engine)["gates_of"]  # imported there, not re-exported

    def gated(scan: object) -> object:
        gates.append(scan)
        return real_gates(scan)

    monkeypatch.setattr(engine, "gates_of", gated)
    moved = pytest_pacts.relocate_element(tab, recorded)
    assert moved.found and moved.moved and moved.locator is not None, moved.reason
    assert _mark(tab, moved.locator) == "real" and moved.rung is HealRung.REDISCOVERY
    assert (sent_source, scripts, gates) == ([], [], [])


def test_relocate_element_needs_a_recorded_element(tab: Page) -> None:
    tab.set_content(LOGIN)
    missing = pytest_pacts.discover_element(tab, "Checkout")
    with pytest.raises(ValueError, match="discover it instead"):
        pytest_pacts.relocate_element(tab, missing)
