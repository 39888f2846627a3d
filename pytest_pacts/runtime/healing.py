"""The in-page half of healing: discovery's DOM helpers plus ``js/healing.js``, installed once.

Healing reads the page exactly as discovery does (roles, accessible names, text, action
compatibility, fingerprints), so its JavaScript is loaded *after* discovery's shared files
rather than re-implementing them. The installer pattern is discovery's (``scripts.py``): a
global keyed by a hash of the source, sent only when the page does not have it yet.
"""

from __future__ import annotations

import contextlib
import json
import weakref
from functools import cache
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, JSHandle, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.runtime import bounded, playwright_private
from pytest_pacts.runtime.bridge import evaluate_on_elements, send_on_elements, unbridged
from pytest_pacts.runtime.scripts import (
    PACKAGE,
    answer_expression,
    api_key,
    decoded,
    installer,
    modules_source,
    read_modules,
)

# discovery's modules but its API (``api.js``), then ``healing.js``
SHARED_FILES = ("dom.js", "watch.js", "actionability.js", "scan.js", "resolve.js", "find.js")
_NOT_INSTALLED = "__pacts_healing_not_installed__"


@cache
def _installer() -> tuple[str, str]:
    source = modules_source(read_modules(PACKAGE, (*SHARED_FILES, "healing.js")))
    # built by its first call: a document that never heals runs none of its modules
    # (docs/benchmarks.md, "the healing API built on its first call")
    return installer("__pacts_healing_", source, lazy=True)


# pages whose new documents get the healing API from their first moment (``install_early``)
_early: weakref.WeakSet[object] = weakref.WeakSet()


def install_early(page: Page) -> None:
    """From the page's next document on, install the healing API at the document's first
    moment (an init script), as the discovery API is (``scripts.init_script``): once a
    run heals, its later heals do not each send the whole source to a new page first. Added
    at the first heal, so a run that never heals never loads it."""
    key = playwright_private.identity(page)
    if key in _early:
        return
    _, install = _installer()
    with contextlib.suppress(PlaywrightError):
        page.add_init_script(
            f"(() => {{ try {{ {install}; }} catch (e) {{ /* on first use */ }} }})();"
        )
        _early.add(key)


def _page_fn(name: str, installed_only: bool, encoded: bool = True) -> str:
    """``encoded``: the answer as one JSON string (:func:`~pytest_pacts.runtime.scripts.decoded`);
    off for a handle (``evaluate_handle``)."""
    key, install = _installer()
    api = f"globalThis[{key!r}]" if installed_only else install
    guard = f"if (!api) return {_NOT_INSTALLED!r}; " if installed_only else ""
    guard += "api = api.api(); "
    answer = answer_expression(f"await api.{name}(arg)", encoded)
    return f"async (arg) => {{ let api = {api}; {guard}return {answer}; }}"


def _elements_fn(name: str, installed_only: bool) -> str:
    key, install = _installer()
    api = f"globalThis[{key!r}]" if installed_only else install
    guard = f"if (!api) return {_NOT_INSTALLED!r}; " if installed_only else ""
    guard += "api = api.api(); "
    answer = answer_expression(f"await api.{name}(els, arg)", True)
    return f"async (els, arg) => {{ let api = {api}; {guard}return {answer}; }}"


def pure_function(name: str) -> str:
    """``async (args) => healing.pure[name](...args)``, for the unit tests."""
    _, install = _installer()
    return (
        f"async (args) => {{ const api = {install}.api(); "
        f"return await api.pure[{name!r}](...args); }}"
    )


def call_in_frame(frame: Frame, name: str, arg: object) -> object:
    """``frame.evaluate`` of healing API function ``name`` (installer sent only if needed)."""
    what = f"the in-page healing {name!r} call"
    result = bounded.call(frame, what, lambda: frame.evaluate(_page_fn(name, True), arg))
    if result == _NOT_INSTALLED:
        result = bounded.call(frame, what, lambda: frame.evaluate(_page_fn(name, False), arg))
    return decoded(result, what)


def handle_in_frame(frame: Frame, name: str, arg: object) -> JSHandle:
    """Like :func:`call_in_frame` but returns a handle (for elements Playwright acts on)."""
    call_in_frame(frame, "settled", {"quiet_ms": 0, "timeout_ms": 0})  # installs if needed
    what = f"the in-page healing {name!r} call"
    handle = _page_fn(name, True, encoded=False)
    return bounded.call(frame, what, lambda: frame.evaluate_handle(handle, arg))


_LENGTH = "(els) => els.length"


def count_matches(owner: Page | Frame, what: str, target: PWLocator) -> int:
    """How many elements ``target`` matches, counted in the world where the engine's calls
    on elements resolve locators, so Playwright builds its selector code (25-55 ms on each
    new document) in one world only: its isolated world (``Locator.count``), where the gate's
    checks through the bridge and the actions have it built already; the page's own world
    (``Locator.evaluate_all``) where the bridge is known not to work
    (:func:`~pytest_pacts.runtime.bridge.unbridged`: a Playwright without its engines, e.g.
    a hand-written test's, whose checks ran there)."""
    if unbridged(target):
        return int(bounded.call(owner, what, target.evaluate_all, _LENGTH))
    return int(bounded.call(owner, what, target.count))


def count_sent(target: PWLocator, what: str) -> bounded.Sent[Any]:
    """:func:`count_matches` sent ahead (:func:`~pytest_pacts.runtime.bounded.send`): the
    calls made before its answer is read overlap its round trip."""
    if unbridged(target):
        return bounded.send(target, what, _LENGTH, then=int)
    impl = playwright_private.impl(target)
    return bounded.send_async(target, what, impl.count if impl is not None else None, target.count)


def sent_on_elements(
    target: PWLocator, name: str, arg: object, frame: Frame | None
) -> bounded.Sent[Any]:
    """:func:`call_on_elements` sent ahead (:func:`~pytest_pacts.runtime.bounded.send`)."""
    what = f"the in-page healing {name!r} call"
    js = _elements_fn(name, True)

    def then(answer: object) -> object:
        if answer == _NOT_INSTALLED:
            install = _elements_fn(name, False)
            answer = evaluate_on_elements(target, install, arg, frame=frame, what=what)
        return decoded(answer, what)

    return send_on_elements(target, js, arg, frame=frame, what=what, then=then)


def sent_in_frame(frame: Frame, name: str, arg: object) -> bounded.Sent[Any]:
    """:func:`call_in_frame` sent ahead (:func:`~pytest_pacts.runtime.bounded.send`)."""
    what = f"the in-page healing {name!r} call"
    again = (_NOT_INSTALLED, lambda: frame.evaluate(_page_fn(name, False), arg))
    return bounded.send(
        frame, what, _page_fn(name, True), arg, again, lambda got: decoded(got, what)
    )


def call_on_elements(target: PWLocator, name: str, arg: object, frame: Frame | None) -> object:
    """``target.evaluate_all`` of healing API function ``name``; through the bridge when
    ``frame`` (the frame that holds the elements: ``render.elements_frame``) is given."""
    what = f"the in-page healing {name!r} call"
    result = evaluate_on_elements(target, _elements_fn(name, True), arg, frame=frame, what=what)
    if result == _NOT_INSTALLED:
        install = _elements_fn(name, False)
        result = evaluate_on_elements(target, install, arg, frame=frame, what=what)
    return decoded(result, what)


# What the page answers when it cannot resolve a locator as Playwright would (``js/find.js``:
# a document with an open shadow root, a selector the browser's own CSS does not parse).
_UNSUPPORTED = "__pacts_not_resolvable_here__"

FIND = "(q, api) => api.find(q)"
"""``(find, api) => elements``: what :func:`find_check_and_rank` resolves ``find`` to in the
page (``api``: the discovery API; ``js/find.js``), or the answer that it cannot here, for the
tests and benchmarks that compare it with Playwright's resolution."""


def _find_check_and_rank_fn() -> str:
    key, _ = _installer()
    return (
        f"async (text) => {{ const d = globalThis[{api_key()!r}], h = globalThis[{key!r}];"
        f" if (!d || !h) return {_NOT_INSTALLED!r}; const api = d.api(), arg = JSON.parse(text);"
        f" const els = api.find(arg.find); if (!Array.isArray(els)) return els;"
        " const check = await api.check(els, arg.check);"
        " if (els.length === 1 || !arg.rank) return api.toJson({ check }); let rank = arg.rank;"
        " const cs = rank.region_text && els.within;"
        " if (cs && cs.length) rank = { ...rank, regions: cs };"
        " else if (rank.region_text && !arg.text_if_none) return api.toJson({ check });"
        " const heal = h.api(); const settled = await heal.settled({ timeout_ms: 0 });"
        " const ranking = settled ? heal.rank(rank) : null;"
        " const top = ranking && ranking.candidates[0];"
        " const best = top && top.score >= arg.locate.min_score ? heal.locate(arg.locate) : null;"
        " return api.toJson({ check, settled, ranking, best }); }"
    )


def find_check_and_rank(
    frame: Frame,
    find: object,
    check: object,
    rank: object,
    locate: object,
    text_if_none: bool = False,
) -> dict[str, Any] | None:
    """One ``Frame.evaluate``, no selector resolved by Playwright: the elements ``find``
    names (``render.page_query``: every element matching ``css``, or whose attribute
    ``attr`` is exactly ``value``, or that discovery's strategy ``named`` finds for ``spec``
    (a role and accessible name, a label, a placeholder); inside a ``within`` container;
    then the ``nth``), resolved by the document itself; discovery's ``check`` of them
    (``js/api.js``, argument ``check``); and,
    when they are no element or several and the page is settled as healing observes it
    (``settled``, at once), healing's ``rank`` of the page (argument ``rank``) and the
    ``locate`` of its best candidate when it scores at least ``locate["min_score"]`` (below
    it the evidence rule refuses it whatever its renderings): ``{check, settled?, ranking?,
    best?}``. A ``rank`` with the step region's words (``region_text``) is kept inside the
    containers ``find`` was looked for in (``within``), as the similarity rung keeps it
    inside the recorded locator's region; where there are none, by the region's words alone
    with ``text_if_none`` (the rung's answer when no recorded locator names another region),
    else not ranked. ``None`` when the document lacks either API (no init script put them there)
    or cannot resolve ``find`` as Playwright would (an open shadow root, a selector its CSS
    does not parse): the caller checks through Playwright instead. ``rank`` ``None``: the
    check alone."""
    what = "the in-page check of the recorded locator"
    # sent as one JSON string: Playwright's driver protocol checks a structured argument
    # value by value in this process (the fingerprint is hundreds of values: 1-2 ms of CPU)
    arg = {"find": find, "check": check, "rank": rank, "locate": locate}
    arg["text_if_none"] = text_if_none
    text = json.dumps(arg, separators=(",", ":"))
    answer = bounded.call(frame, what, frame.evaluate, _find_check_and_rank_fn(), text)
    if answer in (_NOT_INSTALLED, _UNSUPPORTED):
        return None
    found = decoded(answer, what)
    return found if isinstance(found, dict) else None


def _find_same_gate_fn() -> str:
    key, _ = _installer()
    return (
        f"async (text) => {{ const d = globalThis[{api_key()!r}], h = globalThis[{key!r}];"
        f" if (!d || !h) return {_NOT_INSTALLED!r}; const arg = JSON.parse(text);"
        " const els = d.api().find(arg.find); if (!Array.isArray(els)) return els;"
        " const heal = h.api(); return heal.toJson(await heal.sameGate(els, arg.same)); }"
    )


def find_same_gate(frame: Frame, find: object, same: object) -> dict[str, Any] | None:
    """One ``Frame.evaluate``, no selector resolved by Playwright: the elements ``find``
    names (``render.page_query``), resolved by the document itself as in
    :func:`find_check_and_rank`, then healing's ``sameGate`` of them (``js/healing.js``:
    exactly the ranked element, and the five-point gate on it). ``None`` when the document
    lacks either API or cannot resolve ``find`` as Playwright would: the caller then checks
    the rendering through Playwright."""
    what = "the in-page check of a rendering"
    text = json.dumps({"find": find, "same": same}, separators=(",", ":"))
    answer = bounded.call(frame, what, frame.evaluate, _find_same_gate_fn(), text)
    if answer in (_NOT_INSTALLED, _UNSUPPORTED):
        return None
    found = decoded(answer, what)
    return found if isinstance(found, dict) else None
