"""The in-page half of discovery: JavaScript shipped as package data and installed once.

The files in ``js/`` are concatenated into one installer that defines the API on
``globalThis`` under a key that includes a hash of the source, so a page keeps one copy per
plugin version and a new version never talks to an old copy. The engine's pages get the
installer at each document's first moment (:func:`init_script`); a call sends only a short
function, and the installer too when a document has no copy yet (one more round trip, once
per document). A page state is read in one pass.

What the key holds is a dispatcher (``js/realm.js``): its ``api()`` is the API built in the
page's own JavaScript realm, or, from the first call that finds a JavaScript built-in the
page replaced, a second copy compiled in a fresh realm whose built-ins the page never saw.

Calls on a locator's elements get them through the bridge (below, and docs/discovery.md,
"The bridge"): from Playwright's isolated world, where its actions resolve locators, rather
than with its selector code in the page's own world (``Locator.evaluate_all``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import re
import weakref
from collections.abc import Callable, Coroutine
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import ElementHandle, Frame, JSHandle, Selectors
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import bounded
from pytest_pacts.errors import PactsError

_FILES = ("dom.js", "watch.js", "actionability.js", "scan.js", "resolve.js", "api.js")


def modules_source(files: tuple[tuple[str, str], ...]) -> str:
    """One module per file, in order: each file is the body of its own function, reads what
    it uses from earlier files through ``modules`` (its first lines say what, from which)
    and returns what later files use (its last statement); nothing else is shared. The last
    file's return value is the API, with the modules under ``__modules`` (for the unit tests
    of the pure functions)."""
    parts = ["const modules = {};"]
    for module, text in files:
        parts.append(f"modules[{module!r}] = ((modules) => {{\n{text}\n}})(modules);")
    last = files[-1][0]
    parts.append(
        f"Object.defineProperty(modules[{last!r}], '__modules', {{ value: modules }});"
        f" return modules[{last!r}];"
    )
    return "\n".join(parts)


def read_modules(package: str, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(module name, source)`` of ``names`` in ``package``'s ``js`` folder."""
    folder = resources.files(package).joinpath("js")
    return tuple(
        (name.removesuffix(".js"), folder.joinpath(name).read_text(encoding="utf-8"))
        for name in names
    )


def installer(prefix: str, source: str) -> tuple[str, str]:
    """``(key, install)`` for the API ``source`` (:func:`modules_source`) builds: ``install``
    is an expression that puts the API's dispatcher (``js/realm.js``) on ``globalThis[key]``
    unless it is there, and answers it; ``dispatcher.api()`` is the copy of the API a call
    uses (the page's realm, or a fresh one on a page that replaced a JavaScript built-in).
    ``key`` holds a hash of both, so a page keeps one copy per plugin version."""
    glue = resources.files("pytest_pacts.discovery").joinpath("js", "realm.js")
    realm = glue.read_text(encoding="utf-8")
    key = prefix + hashlib.sha256((realm + source).encode()).hexdigest()[:12]
    factory = f"(__pactsHost) => {{\n{source}\n}}"
    install = f"(globalThis[{key!r}] || (globalThis[{key!r}] = ({realm})({factory})))"
    return key, install


@cache
def _installer() -> tuple[str, str]:
    return installer(
        "__pacts_discovery_", modules_source(read_modules("pytest_pacts.discovery", _FILES))
    )


def init_script() -> str:
    """The installer as an init script (``Page.add_init_script``): the API, with its change
    watch (``js/watch.js``), installed in every new document from its first moment. The
    browser compiles the same source once per renderer and reuses it, so a document costs
    well under a millisecond, where installing on first use sends and compiles the whole
    source again for each new page (15-30 ms on its first gate check). Where it throws, the
    error stays out of the page and the API is installed on first use, as before."""
    _, install = _installer()
    return f"(() => {{ try {{ {install}; }} catch (e) {{ /* installed on first use */ }} }})();"


def kept_element_function(js: str) -> str:
    """``(els, token) => [true, js(el)]`` for the element a gate check kept under ``token``
    (``keep``), or the one element the locator matches when it is gone; ``[false, count]``
    when there is no such element. For ``Locator.evaluate_all``: one round trip, no wait."""
    key, _ = _installer()
    return (
        f"(els, token) => {{ const api = globalThis[{key!r}]; "
        "const el = (api && api.api().keptElement(token)) || (els.length === 1 ? els[0] : null); "
        f"return el ? [true, ({js})(el)] : [false, els.length]; }}"
    )


def answer_expression(call: str, encoded: bool) -> str:
    """The JavaScript that returns ``call``'s answer: as one JSON string when ``encoded``
    (:func:`decoded` reads it back)."""
    return f"api.toJson({call})" if encoded else call


# said when a replaced built-in is the likely cause: the in-page code moves to a fresh realm
# when it finds one replaced (js/realm.js), except where the page forbids compiling scripts;
# Playwright's own code in the page and the DOM's methods stay the page's
_NO_REALM = (
    " (or a DOM method, or one Playwright's own code in the page uses; the in-page code "
    "moves to a fresh realm when it finds a built-in replaced, unless the page's "
    "Content-Security-Policy forbids compiling scripts)"
)


def decoded(answer: object, what: str = "an in-page call") -> object:
    """An answer an ``encoded`` function returned: one JSON string (``js/dom.js``,
    ``toJson``), which Playwright passes on as it is, read here in one go. One that is not
    JSON (a page that replaced the string functions the serializer uses) is a
    :class:`PageScriptError` naming ``what`` answered, as an exception thrown in the page
    is."""
    if not isinstance(answer, str):
        return answer
    try:
        return json.loads(answer)
    except ValueError as exc:
        raise PageScriptError(
            f"{what} answered with text that is not JSON ({exc}); the page or a library it "
            f"loads has probably replaced a JavaScript built-in the in-page code uses{_NO_REALM}"
        ) from exc


def page_function(name: str, *, encoded: bool = False) -> str:
    """``async (arg) => api.name(arg)``, for ``Page.evaluate`` / ``Frame.evaluate``."""
    _, install = _installer()
    answer = answer_expression(f"await api.{name}(arg)", encoded)
    return f"async (arg) => {{ const api = {install}.api(); return {answer}; }}"


def module_function(module: str, name: str) -> str:
    """``async (args) => modules[module][name](...args)``: one function of one in-page
    module, for the unit tests of the pure functions (``__modules``, see
    :func:`modules_source`)."""
    _, install = _installer()
    return (
        f"async (args) => {{ const api = {install}.api(); "
        f"return await api.__modules[{module!r}][{name!r}](...args); }}"
    )


def elements_function(name: str, *, encoded: bool = False) -> str:
    """``async (elements, arg) => api.name(elements, arg)``, for ``Locator.evaluate_all``."""
    _, install = _installer()
    answer = answer_expression(f"await api.{name}(els, arg)", encoded)
    return f"async (els, arg) => {{ const api = {install}.api(); return {answer}; }}"


NOT_INSTALLED = "__pacts_not_installed__"


def installed_elements_function(name: str, *, encoded: bool = False) -> str:
    """Like :func:`elements_function` but without the installer: a short function for hot
    paths (verification, the executor's gate). Returns ``NOT_INSTALLED`` when the page has no
    copy yet (a fresh navigation); callers then retry with :func:`elements_function`."""
    key, _ = _installer()
    answer = answer_expression(f"await api.{name}(els, arg)", encoded)
    return (
        f"async (els, arg) => {{ const d = globalThis[{key!r}]; if (!d) return {NOT_INSTALLED!r}; "
        f"const api = d.api(); return {answer}; }}"
    )


def installed_page_function(name: str, *, encoded: bool = False) -> str:
    """Like :func:`page_function` without the installer (``NOT_INSTALLED`` when absent)."""
    key, _ = _installer()
    answer = answer_expression(f"await api.{name}(arg)", encoded)
    return (
        f"async (arg) => {{ const d = globalThis[{key!r}]; if (!d) return {NOT_INSTALLED!r}; "
        f"const api = d.api(); return {answer}; }}"
    )


class PageScriptError(PlaywrightError, PactsError):
    """Our in-page code threw inside the page's JavaScript world (a Playwright ``Error``, so
    every handler of browser errors still catches it): usually a page or library that
    replaced a built-in the code relies on (``Array.prototype.map``, ``JSON``, ``Map``)."""


# How a JavaScript exception thrown by the evaluated function reads in Playwright's error
# ("Frame.evaluate: TypeError: ..."); closed targets and navigations read otherwise.
_THROWN = re.compile(r"^\w+(?:\.\w+)*: (?:Uncaught )?(\w*Error|[A-Z]\w*Exception): ")


def page_error(exc: PlaywrightError, what: str) -> PlaywrightError:
    """``exc`` as a :class:`PageScriptError` with a message that says what happened when it is
    an exception thrown in the page; other errors (a closed page, a navigation) unchanged."""
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, PageScriptError) or not _THROWN.match(first):
        return exc
    thrown = first.split(": ", 1)[1]
    return PageScriptError(
        f"{what} failed inside the page's JavaScript ({thrown}); the page or a library it "
        f"loads has probably replaced a JavaScript built-in the in-page code uses{_NO_REALM}"
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
_RELEASE = "(call) => window.dispatchEvent(new UIEvent('__pacts_bridge_done', { detail: call }))"
_BRIDGE_MISSED = "__pacts_bridge_missed__"
# how long the call in the page waits for the query's end: only ever reached when the end
# was lost (a page that stopped the event); the query itself answers well within it
_BRIDGE_WAIT_MS = 3_000
_bridge_calls = itertools.count(1)
# contexts whose Playwright has no bridge engine (found on the first try)
_unbridged: weakref.WeakSet[object] = weakref.WeakSet()


def register_bridge(selectors: Selectors) -> None:
    """Register the bridge's selector engines with a Playwright instance's ``selectors``
    (before or after its contexts are made); once per instance, again is harmless."""
    for name, script in ((BRIDGE_ENGINE, _BRIDGE_SCRIPT), (_BRIDGE_END, _BRIDGE_END_SCRIPT)):
        try:
            selectors.register(name, script, content_script=True)
        except PlaywrightError as exc:
            if "already registered" not in str(exc):
                raise


def in_realm(js: str) -> str:
    """An expression for the function ``js`` (a function expression) as the in-page code's
    dispatcher runs it (``js/realm.js``, ``fn``): compiled in the fresh realm once the page
    has replaced a JavaScript built-in, else as it is."""
    key, _ = _installer()
    return f"(globalThis[{key!r}] ? globalThis[{key!r}].fn({json.dumps(js)}, ({js})) : ({js}))"


def realm_function(js: str) -> str:
    """``js`` (a function expression) as a function for ``Page.evaluate``, run by the
    in-page code's dispatcher (:func:`in_realm`): a read of the page that keeps working on a
    page that replaced JavaScript built-ins. Not for code that registers callbacks the page's
    window must run (listeners, timers: see ``js/realm.js``)."""
    return f"(...args) => {in_realm(js)}(...args)"


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
    return bounded.call(target, what, lambda: page._sync(bridged()))


def send_on_elements(
    target: PWLocator,
    js: str,
    arg: object = None,
    *,
    frame: Frame | None,
    what: str,
    then: Callable[[Any], Any] | None = None,
) -> bounded.Sent[Any]:
    """:func:`evaluate_on_elements` sent ahead (:func:`~pytest_pacts.discovery.bounded.send`):
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
    if frame is None or page is None or _key(page.context) in _unbridged:
        return None
    context = _key(page.context)
    call = next(_bridge_calls)
    query = target.locator(f"{BRIDGE_ENGINE}={call}").or_(frame.locator(f"{_BRIDGE_END}={call}"))
    frame_impl = getattr(frame, "_impl_obj", None)
    query_impl = getattr(query, "_impl_obj", None)
    target_impl = getattr(target, "_impl_obj", None)
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


def _key(owner: object) -> object:
    return getattr(owner, "_impl_obj", owner)


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
        key, _ = _installer()
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


def element_function(name: str, *, encoded: bool = False) -> str:
    """``(element, arg) => api.name(element, arg)``, for ``ElementHandle.evaluate``."""
    _, install = _installer()
    answer = answer_expression(f"api.{name}(el, arg)", encoded)
    return f"(el, arg) => {{ const api = {install}.api(); return {answer}; }}"


def installed_element_function(name: str, *, encoded: bool = False) -> str:
    """Like :func:`element_function` without the installer (``NOT_INSTALLED`` when absent)."""
    key, _ = _installer()
    answer = answer_expression(f"api.{name}(el, arg)", encoded)
    return (
        f"(el, arg) => {{ const d = globalThis[{key!r}]; if (!d) return {NOT_INSTALLED!r}; "
        f"const api = d.api(); return {answer}; }}"
    )


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
    """:func:`call_in_frame` sent now (:func:`~pytest_pacts.discovery.bounded.send`), read
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
    key, _ = _installer()
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
