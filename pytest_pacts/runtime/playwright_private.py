"""The one place that touches Playwright's private attributes.

Playwright's sync API (``playwright.sync_api``) wraps an async implementation that runs on
an event loop of its own while a sync call waits. A few things the runtime does need that
layer, which the public API does not offer:

- **the implementation object** (``_impl_obj``): a call sent ahead is started on it, as a
  coroutine, and read later (``bounded.send``); a sync wrapper is also re-made per access
  in places, so weak maps keyed by page use it as the page's identity;
- **the event loop** (``_loop``): a bounded call's deadline is a timer on it, and pictures
  taken in the background are tasks on it;
- **the sync runner** (``_sync``): waits, on that loop, for a coroutine started there;
- **the events a page emits** (the implementation's ``emit``): a listener that asks the driver
  for nothing (:func:`hear`).

Every such use goes through a function below, and each falls back to what works without
them (no loop: the call is made the plain sync way, unbounded by a timer; no
implementation: no call sent ahead). Those fallbacks keep a Playwright that renamed them
working, only slower and without deadlines, which no user would notice: the check
:func:`missing` (run by ``tests/runtime/test_playwright_private.py`` on a real page) says
so loudly instead, naming the Playwright version.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from collections.abc import Callable, Coroutine
from importlib import metadata
from typing import Any, TypeVar

T = TypeVar("T")

# what the runtime reads of each public object: a renamed one is reported by ``missing``
IMPL = "_impl_obj"
LOOP = "_loop"
SYNC = "_sync"


def impl(obj: object) -> Any | None:
    """The async implementation behind a sync Playwright object (a page, frame, locator, CDP
    session), or ``None``."""
    return getattr(obj, IMPL, None)


def identity(obj: object) -> object:
    """A key for ``obj`` in a weak map: its implementation object (the same for every sync
    wrapper of one page), or ``obj`` itself."""
    return getattr(obj, IMPL, obj)


def event_loop(obj: object) -> asyncio.AbstractEventLoop | None:
    """The event loop Playwright runs ``obj``'s calls on, or ``None`` (none, or closed)."""
    loop: asyncio.AbstractEventLoop | None = getattr(obj, LOOP, None)
    if loop is None or loop.is_closed():
        return None
    return loop


def run(obj: object, coroutine: Coroutine[Any, Any, T] | asyncio.Future[T]) -> T:
    """Wait for ``coroutine`` (or a task) on ``obj``'s event loop, the way a sync call waits
    (Playwright's event loop runs meanwhile)."""
    result: T = getattr(obj, SYNC)(coroutine)
    return result


def can_run(obj: object) -> bool:
    """Whether :func:`run` can wait on ``obj``."""
    return callable(getattr(obj, SYNC, None))


def test_id_attribute() -> str | None:
    """The attribute ``get_by_test_id`` reads (``Selectors.set_test_id_attribute``,
    ``data-testid`` unless set), or ``None`` when this Playwright keeps it elsewhere (then
    nothing may assume which one it is)."""
    try:
        locators = importlib.import_module("playwright._impl.locator")
        name = locators.test_id_attribute_name()
    except (ImportError, AttributeError):
        return None
    return name if isinstance(name, str) else None


# The attribute of a page's implementation holding the listeners :func:`hear` added: event ->
# [(listener, the listener as the sync API wraps it)]. Kept on the page itself, not in a map
# of this module: a listener holds its page (a monitor's method), and a map's entry would
# then keep every page alive.
_HEARD = "_pacts_heard"


def hear(page: object, event: str, listener: Callable[..., None]) -> bool:
    """Call ``listener`` with each ``event`` of ``page`` (a sync page) that Playwright's client
    receives, without asking the driver for the event; whether it could be added (False: the
    caller listens the ordinary way).

    ``page.on`` sends the driver an ``updateSubscription`` for a network event, and the driver
    then sends that event for every request of the page. A request it already sent the
    ``request`` event of is followed anyway (the driver sends every later event of a request
    the client knows: its ``response``, ``requestFinished`` or ``requestFailed``), and so is a
    navigation's: a listener that needs those events only for such requests asks for nothing.
    Heard here rather than with a listener of the page's own, so that Playwright's count of
    the page's listeners, which decides its subscriptions, does not count it. A listener's
    error is dropped (one must never raise into Playwright's dispatcher)."""
    inner = impl(page)
    wrap = getattr(page, "_wrap_handler", None)
    if inner is None or not callable(wrap) or not callable(getattr(inner, "emit", None)):
        return False
    table: dict[str, list[tuple[Any, Any]]] | None = getattr(inner, _HEARD, None)
    if table is None:
        table = {}
        original = inner.emit

        def emit(kind: Any, *args: Any) -> Any:
            for _, call in list(table.get(kind, ())):
                with contextlib.suppress(Exception):
                    call(*args)
            return original(kind, *args)

        inner.emit = emit
        setattr(inner, _HEARD, table)
    table.setdefault(event, []).append((listener, wrap(listener)))
    return True


def unhear(page: object, event: str, listener: Callable[..., None]) -> None:
    """Stop calling a listener :func:`hear` added."""
    table = getattr(impl(page), _HEARD, None)
    if isinstance(table, dict) and event in table:
        table[event] = [pair for pair in table[event] if pair[0] != listener]


# -- calls on the implementation objects: coroutines, to start on Playwright's loop ------------
# (their signatures differ from the sync API's: positional timeouts, a third ``send`` argument)


async def cdp_send(session: Any, method: str, params: dict[str, Any] | None = None) -> Any:
    """A DevTools message on ``session`` (an implementation object: ``impl(cdp_session)``)."""
    return await session.send(method, params, None)


async def new_cdp_session(page: Any) -> Any:
    """A CDP session of ``page`` (an implementation object), as an implementation object."""
    return await page.context.new_cdp_session(page)


async def bounding_box(locator: Any, timeout_ms: float) -> dict[str, float] | None:
    """``locator``'s box (an implementation object), as ``Locator.bounding_box`` gives it."""
    box: dict[str, float] | None = await locator.bounding_box(timeout_ms)
    return box


async def close_page(page: Any, reason: str) -> None:
    """Close ``page``'s context (an implementation object), or the page itself where its
    context cannot close (a browser's default context); never raises."""
    try:
        await page.context.close(reason=reason)
    except Exception:
        with contextlib.suppress(Exception):
            await page.close(run_before_unload=False, reason=reason)


# what the runtime calls on each implementation object
IMPL_METHODS = {
    "page": ("context", "close", "emit"),
    "frame": ("evaluate",),
    "locator": ("evaluate_all", "evaluate", "count", "bounding_box"),
    "cdp_session": ("send", "detach"),
}


def playwright_version() -> str:
    try:
        return metadata.version("playwright")
    except metadata.PackageNotFoundError:  # pragma: no cover - installed with us
        return "unknown"


def missing(**objects: object) -> list[str]:
    """What the runtime needs and does not find on ``objects`` (name -> a sync Playwright
    object: ``page`` needs the implementation, the loop and the sync runner, any other the
    implementation; each implementation the methods of :data:`IMPL_METHODS`), each as
    ``"page._loop"``; empty when all is there."""
    gone: list[str] = []
    for name, obj in objects.items():
        needed = (IMPL, LOOP, SYNC) if name == "page" else (IMPL,)
        gone += [f"{name}.{attr}" for attr in needed if getattr(obj, attr, None) is None]
        inner = impl(obj)
        if inner is not None:
            gone += [
                f"{name}.{IMPL}.{method}"
                for method in IMPL_METHODS.get(name, ())
                if getattr(inner, method, None) is None
            ]
    return gone


def missing_message(gone: list[str]) -> str:
    """What :func:`missing` found, for a person: which attributes, on which Playwright."""
    return (
        f"Playwright {playwright_version()} has no {', '.join(gone)}: pytest-pacts reads these "
        "private attributes of Playwright's sync API (pytest_pacts/runtime/playwright_private.py) "
        "to bound page calls and send calls ahead; without them every call is unbounded. "
        "Update that module for this Playwright version, or pin the previous one."
    )
