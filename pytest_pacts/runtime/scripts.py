"""The in-page code: JavaScript shipped as package data, and the functions that call it.

The files in ``js/`` are concatenated into one installer that defines the API on
``globalThis`` under a key that includes a hash of the source, so a page keeps one copy per
plugin version and a new version never talks to an old copy. The engine's pages get the
installer at each document's first moment (:func:`init_script`); a call sends only a short
function, and the installer too when a document has no copy yet (one more round trip, once
per document). A page state is read in one pass.

What the key holds is a dispatcher (``js/realm.js``): its ``api()`` is the API built in the
page's own JavaScript realm, or, from the first call that finds a JavaScript built-in the
page replaced, a second copy compiled in a fresh realm whose built-ins the page never saw.

This module builds the JavaScript text of each call (no round trip); ``bridge.py`` makes the
calls, and ``healing.py`` is the healing API built the same way.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.errors import PactsError
from pytest_pacts.generated import GENERATED_NAME

# the package whose ``js/`` folder holds the in-page modules
PACKAGE = "pytest_pacts.runtime"

API_FILES = (
    "dom.js",
    "watch.js",
    "actionability.js",
    "scan.js",
    "resolve.js",
    "find.js",
    "api.js",
)


def modules_source(files: tuple[tuple[str, str], ...]) -> str:
    """One module per file, in order: each file is the body of its own function, reads what
    it uses from earlier files through ``modules`` (its first lines say what, from which)
    and returns what later files use (its last statement); nothing else is shared but
    ``PY``, the values Python defines once and the page reads (:func:`_constants`). The last
    file's return value is the API, with the modules under ``__modules``: the unit tests of
    the pure functions read it."""
    parts = [f"const PY = {json.dumps(_constants())};", "const modules = {};"]
    for module, text in files:
        parts.append(f"modules[{module!r}] = ((modules) => {{\n{text}\n}})(modules);")
    last = files[-1][0]
    parts.append(
        f"Object.defineProperty(modules[{last!r}], '__modules', {{ value: modules }});"
        f" return modules[{last!r}];"
    )
    return "\n".join(parts)


def _constants() -> dict[str, str]:
    """What the in-page code reads from Python's one definition (``PY``)."""
    return {"generatedName": GENERATED_NAME}


def read_modules(package: str, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(module name, source)`` of ``names`` in ``package``'s ``js`` folder."""
    folder = resources.files(package).joinpath("js")
    return tuple(
        (name.removesuffix(".js"), folder.joinpath(name).read_text(encoding="utf-8"))
        for name in names
    )


def installer(prefix: str, source: str, *, lazy: bool = False) -> tuple[str, str]:
    """``(key, install)`` for the API ``source`` (:func:`modules_source`) builds: ``install``
    is an expression that puts the API's dispatcher (``js/realm.js``) on ``globalThis[key]``
    unless it is there, and answers it; ``dispatcher.api()`` is the copy of the API a call
    uses (the page's realm, or a fresh one on a page that replaced a JavaScript built-in).
    ``key`` holds a hash of both, so a page keeps one copy per plugin version. ``lazy``: the
    copy is built by the first ``api()`` call, not at install (healing's: most documents
    never heal)."""
    glue = resources.files(PACKAGE).joinpath("js", "realm.js")
    realm = glue.read_text(encoding="utf-8")
    key = prefix + hashlib.sha256((realm + source).encode()).hexdigest()[:12]
    factory = f"(__pactsHost) => {{\n{source}\n}}"
    built = ", true" if lazy else ""
    install = f"(globalThis[{key!r}] || (globalThis[{key!r}] = ({realm})({factory}{built})))"
    return key, install


@cache
def _installer() -> tuple[str, str]:
    return installer("__pacts_discovery_", modules_source(read_modules(PACKAGE, API_FILES)))


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


def api_key() -> str:
    """The ``globalThis`` key the discovery API's dispatcher is installed under."""
    return _installer()[0]
