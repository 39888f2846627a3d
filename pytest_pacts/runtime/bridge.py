"""Calls into the page: the in-page API (``scripts.py``) on a frame, a handle or a locator's
elements, each bounded (``bounded.py``), through the bridge where it can.

Calls on a locator's elements get them through the bridge (below, and docs/discovery.md,
"The bridge"): from Playwright's isolated world, where its actions resolve locators, rather
than with its selector code in the page's own world (``Locator.evaluate_all``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import weakref
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import ElementHandle, Frame, JSHandle, Selectors
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.runtime import bounded, playwright_private
from pytest_pacts.runtime.scripts import (
    NOT_INSTALLED,
    answer_expression,
    api_key,
    decoded,
    element_function,
    elements_function,
    in_realm,
    installed_element_function,
    installed_elements_function,
    installed_page_function,
    page_error,
    page_function,
)

# -- the bridge: elements resolved in Playwright's isolated world, used in the page's ------
#
# ``Locator.evaluate_all`` resolves the locator with Playwright's selector code in the page's
# own JavaScript world. Playwright builds that code (its ``InjectedScript``, 320 KB) once per
# document and world on first use, 25-55 ms, and its actions use another copy in its isolated
# "utility" world: a document the engine checks before acting got it built twice, where
# plain Playwright builds it once (docs/benchmarks.md, "Execution overhead"). In the page's
# world it also runs with the page's built-ins: a library whose ``Array.prototype.some``
# throws stops it.
#
# The bridge resolves the locator where Playwright's actions do. Two selector engines
# registered with ``content_script=True`` (``register_bridge``) run in the isolated world.
# Chained after the locator, the first dispatches an event on each element Playwright
# matched, numbered by the call; ``or``-ed after the whole query, the second dispatches the
# call's end on the document. ``Locator.count`` of that runs the query there. The call in the
# page's world (``Frame.evaluate``, which needs no selector code) is sent ahead of it and
# waits for the end (``js/watch.js``, ``installBridge``), then takes the elements heard: the
# two round trips overlap, and no selector code runs in the page's world. Used where the
# frame of the elements is known and the engines are registered with the locator's
# Playwright; otherwise, and when the elements heard are not as many as Playwright counted,
# ``evaluate_all`` as before.

BRIDGE_ENGINE = "pacts_bridge"
_BRIDGE_END = "pacts_bridge_end"
_BRIDGE_SCRIPT = """{
  queryAll(root, call) {
    root.dispatchEvent(new UIEvent('__pacts_bridge',
      { detail: Number(call), bubbles: true, composed: true }));
    return [root];
  }
}"""
_BRIDGE_END_SCRIPT = """{
  queryAll(root, call) {
    root.dispatchEvent(new UIEvent('__pacts_bridge_done',
      { detail: Number(call), bubbles: true, composed: true }));
    return [];
  }
}"""
# The element the last gate check passed, and nothing else (``kept_selector``): asked of the
# document's bridge in the page's world (js/watch.js, ``hold``), which dispatches the answer
# on that element, or on the document when it holds none under the token: then the engine
# throws (docs/engine.md, "When the page changes between the check and the action"). No
# answer at all (a context with scripts disabled runs no listener of the page's world) throws
# another error, and the action uses the plain locator.
KEPT_ENGINE = "pacts_kept"
KEPT_GONE = "__pacts_kept_gone__"
KEPT_UNHEARD = "__pacts_kept_unheard__"
_KEPT_SCRIPT = """{
  queryAll(root, token) {
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const n = Number(token);
    let found = null;
    const here = (e) => {
      if (e.detail !== n) return;
      const path = e.composedPath();
      found = path.length ? path[0] : e.target;
    };
    if (win) win.addEventListener('__pacts_kept_here', here, true);
    try {
      root.dispatchEvent(new UIEvent('__pacts_kept', { detail: n, bubbles: true, composed: true }));
    } finally {
      if (win) win.removeEventListener('__pacts_kept_here', here, true);
    }
    if (!found) throw new Error('__pacts_kept_unheard__: no answer from the page');
    if (found.nodeType !== 1) throw new Error('__pacts_kept_gone__: not in this document');
    return [found];
  }
}"""
_RELEASE = "(call) => window.dispatchEvent(new UIEvent('__pacts_bridge_done', { detail: call }))"
_BRIDGE_MISSED = "__pacts_bridge_missed__"
# how long the call in the page waits for the query's end: only ever reached when the end
# was lost (a page that stopped the event); the query itself answers well within it
_BRIDGE_WAIT_MS = 3_000
_bridge_calls = itertools.count(1)
# contexts whose Playwright has no bridge engine (found on the first try)
_unbridged: weakref.WeakSet[object] = weakref.WeakSet()


def unbridged(target: PWLocator) -> bool:
    """Whether the bridge is known not to work in ``target``'s context (its Playwright has no
    bridge engine, found on a first try): the engine's calls on elements then resolve
    locators with Playwright's selector code in the page's own world."""
    return playwright_private.identity(target.page.context) in _unbridged


def register_bridge(selectors: Selectors) -> None:
    """Register the bridge's selector engines with a Playwright instance's ``selectors``
    (before or after its contexts are made); once per instance, again is harmless."""
    engines = (
        (BRIDGE_ENGINE, _BRIDGE_SCRIPT),
        (_BRIDGE_END, _BRIDGE_END_SCRIPT),
        (KEPT_ENGINE, _KEPT_SCRIPT),
    )
    for name, script in engines:
        try:
            selectors.register(name, script, content_script=True)
        except PlaywrightError as exc:
            if "already registered" not in str(exc):
                raise


_KEEP_TOKENS = itertools.count(1)


def keep_token() -> str:
    """A fresh token for a gate check to keep its element under (a number: the page hands
    it across JavaScript worlds as an event's ``detail``)."""
    return str(next(_KEEP_TOKENS))


def kept_selector(token: str) -> str:
    """A selector that matches the element a gate check kept under ``token`` (``keep``) in
    the document it was checked in, and nothing else: resolved again at the action, as
    Playwright resolves every locator, it finds that very element or throws at once
    (:func:`kept_gone`), never an element of a document the check did not see. Playwright's
    locators re-resolve at every action, and an action retries in the new document when its
    element is detached; an ``ElementHandle`` would not, but taking one costs a round trip."""
    return f"{KEPT_ENGINE}={token}"


def kept_gone(exc: BaseException) -> bool:
    """``exc`` says the document no longer holds the element the check passed."""
    return KEPT_GONE in str(exc)


def kept_unknown(exc: BaseException) -> bool:
    """``exc`` says the kept selector cannot be used here: the locator's Playwright has no
    ``pacts_kept`` engine (``register_bridge`` was not called for it), or the page's world
    does not answer (a context with scripts disabled)."""
    return f'Unknown engine "{KEPT_ENGINE}"' in str(exc) or KEPT_UNHEARD in str(exc)


def may_keep(context: object) -> bool:
    """Whether the bridge's engines may be registered with ``context``'s Playwright: not
    known to be missing (a bridge call or a kept selector found them missing)."""
    return playwright_private.identity(context) not in _unbridged


def unkept(context: object) -> None:
    """``context``'s Playwright has no bridge engines (a kept selector found out)."""
    _unbridged.add(playwright_private.identity(context))


def _bridged(js: str) -> str:
    """``[how many elements, js(els, arg)]`` (``js``: ``(els, arg) => ...``) with the elements
    the bridge's call ``call`` handed over, once its query is done; ``_BRIDGE_MISSED`` when
    the page has no listener or the end never came."""
    return (
        "async ([call, arg]) => { const b = globalThis.__pacts_bridge;"
        f" if (!b || !(await b.wait(call, {_BRIDGE_WAIT_MS}))) return {_BRIDGE_MISSED!r};"
        " const els = b.take(call);"
        f" return [els.length, await {in_realm(js)}(els, arg)]; }}"
    )


def evaluate_on_elements(
    target: PWLocator, js: str, arg: object = None, *, frame: Frame | None, what: str
) -> object:
    """``target.evaluate_all(js, arg)`` (bounded), through the bridge when ``frame`` is
    given: the frame ``target`` belongs to and holds its elements (a locator without frame
    locators: ``render.elements_frame``); see the comment above. Errors as Playwright raises
    them."""
    bridged = _bridged_call(target, js, arg, frame) if _plain(arg) else None
    if bridged is None or frame is None:
        return bounded.call(target, what, target.evaluate_all, js, arg)
    page = frame.page
    return bounded.call(target, what, lambda: playwright_private.run(page, bridged()))


def send_on_elements(
    target: PWLocator,
    js: str,
    arg: object = None,
    *,
    frame: Frame | None,
    what: str,
    then: Callable[[Any], Any] | None = None,
) -> bounded.Sent[Any]:
    """:func:`evaluate_on_elements` sent ahead (:func:`~pytest_pacts.runtime.bounded.send`):
    both of the bridge's round trips start now, and the calls made before the answer is read
    overlap them. ``then``: applied to the answer."""
    if not _plain(arg):  # element handles cannot be sent ahead: Playwright's way, when read
        now = lambda: target.evaluate_all(js, arg)  # noqa: E731
        return bounded.send_async(target, what, None, now, then=then)
    bridged = _bridged_call(target, js, arg, frame)
    if bridged is None:
        return bounded.send(target, what, js, arg, then=then)
    return bounded.send_async(
        target, what, bridged, lambda: target.evaluate_all(js, arg), then=then
    )


def _bridged_call(
    target: PWLocator, js: str, arg: object, frame: Frame | None
) -> Callable[[], Coroutine[Any, Any, object]] | None:
    """The bridge's call on Playwright's own objects (a coroutine to run on its event loop),
    or ``None`` where the bridge cannot be used: no frame, a Playwright without the engines."""
    page = frame.page if frame is not None else None
    if frame is None or page is None or playwright_private.identity(page.context) in _unbridged:
        return None
    context = playwright_private.identity(page.context)
    call = next(_bridge_calls)
    query = target.locator(f"{BRIDGE_ENGINE}={call}").or_(frame.locator(f"{_BRIDGE_END}={call}"))
    frame_impl = playwright_private.impl(frame)
    query_impl = playwright_private.impl(query)
    target_impl = playwright_private.impl(target)
    if frame_impl is None or query_impl is None or target_impl is None:
        return None

    async def bridged() -> object:
        waiting = asyncio.ensure_future(frame_impl.evaluate(_bridged(js), [call, arg]))
        waiting.add_done_callback(_retrieved)
        await asyncio.sleep(0)  # sent first: the page waits for the query, not the reverse
        try:
            count = await query_impl.count()
        except PlaywrightError as exc:
            # the call in the page waits for an end that will not come: let it go
            with contextlib.suppress(PlaywrightError):
                await frame_impl.evaluate(_RELEASE, call)
                await waiting
            if f'Unknown engine "{BRIDGE_ENGINE}"' not in str(exc):
                raise
            _unbridged.add(context)
        else:
            answer = await waiting
            if isinstance(answer, list) and len(answer) == 2 and answer[0] == count:
                return answer[1]
        return await target_impl.evaluate_all(js, arg)

    return bridged


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # an answer nobody waits for any more is not "never retrieved"


def _plain(arg: object, depth: int = 0) -> bool:
    """Whether ``arg`` is plain data (no element or JS handle anywhere in it): only such an
    argument can go with a call sent ahead."""
    if isinstance(arg, JSHandle):
        return False
    if depth > 32:
        return True
    if isinstance(arg, dict):
        return all(_plain(v, depth + 1) for v in arg.values())
    if isinstance(arg, list | tuple):
        return all(_plain(v, depth + 1) for v in arg)
    return True


_KEPT_GONE = "__pacts_kept_gone__"


def evaluate_on_element(
    target: PWLocator,
    js: str,
    arg: object = None,
    *,
    frame: Frame | None,
    keep: str | None,
    what: str,
) -> object:
    """``js([element], arg)`` on the element a gate check kept under ``keep`` (the one it
    passed, still in the document): one ``Frame.evaluate``, with no selector code. When the
    element is gone (the page re-rendered it) or not kept, ``js(els, arg)`` on what
    ``target`` matches (:func:`evaluate_on_elements`)."""
    if frame is not None and keep is not None:
        key = api_key()
        kept = (
            f"async ([token, arg]) => {{ const d = globalThis[{key!r}];"
            " const el = d ? d.api().keptElement(token) : null;"
            f" if (!el) return {_KEPT_GONE!r}; return await {in_realm(js)}([el], arg); }}"
        )
        answer = bounded.call(frame, what, frame.evaluate, kept, [keep, arg])
        if answer != _KEPT_GONE:
            return answer
    return evaluate_on_elements(target, js, arg, frame=frame, what=what)


def call_on_elements(
    target: PWLocator, name: str, arg: object, *, frame: Frame | None = None
) -> object:
    """``target.evaluate_all`` of API function ``name``, sending the installer only if needed;
    through the bridge when ``frame`` (the frame that holds the elements) is given
    (:func:`evaluate_on_elements`).

    An exception thrown in the page is raised as :class:`PageScriptError`."""
    what = f"the in-page {name!r} call"
    try:
        installed = installed_elements_function(name, encoded=True)
        result = evaluate_on_elements(target, installed, arg, frame=frame, what=what)
        if result == NOT_INSTALLED:
            install = elements_function(name, encoded=True)
            result = bounded.call(target, what, target.evaluate_all, install, arg)
    except PlaywrightError as exc:
        raise page_error(exc, what) from exc
    return decoded(result, what)


def call_in_frame(frame: Frame, what: str, name: str, arg: object = None) -> object:
    """``frame.evaluate`` of API function ``name``, sending the installer only if the
    document does not have it yet (the engine's pages have it from their first moment:
    ``init_script``; sending the whole source again costs a few milliseconds a call)."""
    installed = installed_page_function(name, encoded=True)
    result = bounded.call(frame, what, lambda: frame.evaluate(installed, arg))
    if result == NOT_INSTALLED:
        install = page_function(name, encoded=True)
        result = bounded.call(frame, what, lambda: frame.evaluate(install, arg))
    return decoded(result, what)


def sent_in_frame(frame: Frame, what: str, name: str, arg: object = None) -> bounded.Sent[Any]:
    """:func:`call_in_frame` sent now (:func:`~pytest_pacts.runtime.bounded.send`), read
    with ``Sent.result`` (decoded, the installer sent then if the page had no copy yet).
    ``arg`` is plain data."""
    again = (NOT_INSTALLED, lambda: frame.evaluate(page_function(name, encoded=True), arg))
    return bounded.send(
        frame,
        what,
        installed_page_function(name, encoded=True),
        arg,
        again,
        lambda got: decoded(got, what),
    )


_CROSS_ORIGIN = {"same_origin": False, "selector": "", "in_regions": []}


def frame_info(parent: Frame, child: Frame, arg: object = None) -> object:
    """``frameInfo`` of ``child``'s iframe element (how ``parent`` names it, whether its
    document can be read, the regions holding it), asked from inside ``child``: its
    ``window.frameElement`` is that element when the two documents share an origin (and
    ``null`` when they do not, which answers at once). No element handle: a handle makes
    Playwright build its selector code in the page's world for the handle's preview, 25-55
    ms on each new document, and ``Frame.frame_element`` is not bounded by a page's
    deadline. The parent without the in-page code yet: through the handle, as before."""
    if not _may_share_origin(parent.url, child.url):
        return dict(_CROSS_ORIGIN)  # no call into it: a busy third-party frame cannot stall us
    key = api_key()
    answer = answer_expression("api.frameInfo(el, arg)", True)
    js = (
        "(arg) => { const el = window.frameElement; if (!el) return null;"
        f" const d = window.parent[{key!r}]; if (!d) return {NOT_INSTALLED!r};"
        f" const api = d.api(); return {answer}; }}"
    )
    what = "reading an iframe"
    try:
        result = bounded.call(child, what, child.evaluate, js, arg)
    except PlaywrightError as exc:
        raise page_error(exc, what) from exc
    if result is None:
        return dict(_CROSS_ORIGIN)
    if result != NOT_INSTALLED:
        return decoded(result, what)
    handle = bounded.call(parent, what, child.frame_element)
    try:
        return call_on_handle(parent, what, handle, "frameInfo", arg)
    finally:
        with contextlib.suppress(PlaywrightError):
            handle.dispose()


def _may_share_origin(parent_url: str, child_url: str) -> bool:
    """Whether a document at ``child_url`` may share an origin with one at ``parent_url``,
    told from the URLs alone: ``about:blank`` and ``about:srcdoc`` inherit their parent's
    origin, a ``data:`` URL has an opaque one, and otherwise scheme, host and port must be
    the same (``blob:`` URLs carry their origin inside). When in doubt: maybe."""
    try:
        child = urlsplit(child_url)
        if child.scheme in ("about", "javascript", ""):
            return True
        if child.scheme == "data":
            return False
        if child.scheme == "blob":
            child = urlsplit(child.path)
        parent = urlsplit(parent_url)
        if parent.scheme == "blob":
            parent = urlsplit(parent.path)
        if parent.scheme in ("about", ""):
            return True  # the parent's own origin is inherited from elsewhere: ask
        return (child.scheme, child.hostname, child.port) == (
            parent.scheme,
            parent.hostname,
            parent.port,
        ) or child.scheme == "file" == parent.scheme
    except ValueError:
        return True


def call_on_handle(
    owner: Frame, what: str, handle: ElementHandle, name: str, arg: object = None
) -> object:
    """``handle.evaluate`` of API function ``name`` (bounded by ``owner``'s page), sending
    the installer only if needed."""
    installed = installed_element_function(name, encoded=True)
    result = bounded.call(owner, what, handle.evaluate, installed, arg)
    if result == NOT_INSTALLED:
        install = element_function(name, encoded=True)
        result = bounded.call(owner, what, handle.evaluate, install, arg)
    return decoded(result, what)
