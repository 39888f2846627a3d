"""Recordings from other tools as sheets (``pacts import``; docs/user-guide.md, "Record a
sheet"): a Chrome DevTools Recorder export (JSON, the ``@puppeteer/replay`` format) and a
Playwright codegen Python script.

Both are read into :class:`ImportedStep` s without running anything: the JSON is data, and
the script is parsed (``ast``), never executed; only the calls codegen writes are taken
(``page.goto``, ``page.get_by_*(...)`` / ``page.locator(...)`` chains ending in an action,
``page.keyboard.press``, ``expect(page.get_by_text(...)).to_be_visible()``). Then
:func:`replay` plays them once in Chromium through :meth:`Recorder.act`: each element is
found by the recording's own selectors, named by our discovery (the selectors are never
written), and acted on. A step that cannot be mapped is listed with the reason.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FrameLocator, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.errors import PactsError
from pytest_pacts.models import Action
from pytest_pacts.recording.model import RecordedStep, Recording
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.runtime import bounded
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

MAX_BYTES = 2 * 1024 * 1024  # a recording bigger than this is refused
FIND_MS = 5_000.0  # how long an imported step's element may take to appear

Finder = Callable[[Page], list[PWLocator]]


@dataclass
class ImportedStep:
    """One step of a recording: ``action`` (an :class:`Action` value, or ``expect_text``),
    how to find its element (alternatives, first that finds exactly one wins), where it was
    (``origin``: "step 3" or "line 12") for messages."""

    action: str
    origin: str
    find: Finder | None = None
    value: str | None = None


class RecordingImportError(PactsError, ValueError):
    """The recording cannot be read at all (not the format, too big)."""


def read_recording(path: Path) -> tuple[list[ImportedStep], list[str], str | None]:
    """The steps of the recording at ``path``, the steps that cannot be mapped (with why)
    and its title: a ``.json`` is a DevTools Recorder export, a ``.py`` a codegen script."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RecordingImportError(f"{path} cannot be read: {exc.strerror}") from None
    if size > MAX_BYTES:
        raise RecordingImportError(f"{path} is {size} bytes, over the {MAX_BYTES}-byte limit")
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() == ".json":
        return devtools_steps(text, path.name)
    if path.suffix.lower() == ".py":
        steps, unmapped = codegen_steps(text, path.name)
        return steps, unmapped, None
    raise RecordingImportError(
        f"{path}: give a Chrome DevTools Recorder export (.json) or a Playwright codegen "
        "Python script (.py)"
    )


# -- Chrome DevTools Recorder ------------------------------------------------------------

_ARIA = re.compile(r'^(?P<name>.*?)(?:\[role="(?P<role>[a-z]+)"\])?$', re.DOTALL)


def _devtools_selector(parts: list[str]) -> Callable[[Page], PWLocator] | None:
    """One alternative of a step's ``selectors`` (a list: one part per shadow root)."""
    if len(parts) != 1 or not isinstance(parts[0], str):
        return None  # through shadow roots part by part: the CSS alternatives pierce anyway
    selector = parts[0]
    if selector.startswith("aria/"):
        match = _ARIA.match(selector[5:])
        if match is None:
            return None
        name, role = match["name"], match["role"]
        if role:
            return lambda page: page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        return lambda page: page.get_by_label(name, exact=True)
    if selector.startswith("xpath/"):
        return lambda page: page.locator("xpath=" + selector[6:])
    if selector.startswith("pierce/"):
        return lambda page: page.locator(selector[7:])
    if selector.startswith("text/"):
        return lambda page: page.get_by_text(selector[5:], exact=True)
    return lambda page: page.locator(selector)


def devtools_steps(text: str, name: str) -> tuple[list[ImportedStep], list[str], str | None]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordingImportError(f"{name} is not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        raise RecordingImportError(
            f'{name} is not a DevTools Recorder export: it has no "steps" list'
        )
    steps: list[ImportedStep] = []
    unmapped: list[str] = []
    for n, raw in enumerate(data["steps"], start=1):
        if not isinstance(raw, dict):
            unmapped.append(f"step {n}: not an object")
            continue
        kind = str(raw.get("type", ""))
        origin = f"step {n} ({kind})"
        if kind in ("setViewport", "keyUp", "scroll", "close"):
            continue  # how the browser stood, not an action of the person's
        if raw.get("frame"):
            unmapped.append(f"{origin}: inside an iframe, which the import does not follow")
            continue
        if kind == "navigate":
            steps.append(ImportedStep("goto", origin, value=str(raw.get("url", ""))))
            continue
        if kind == "keyDown":
            steps.append(ImportedStep("press", origin, value=str(raw.get("key", ""))))
            continue
        action = {"click": "click", "change": "fill", "hover": "hover"}.get(kind)
        if action is None:
            why = {
                "doubleClick": "a double click has no action in a sheet",
                "waitForElement": "a wait for a selector has no equivalent: expect a text "
                "instead (text_visible:)",
                "waitForExpression": "a JavaScript expression is not a requirement",
                "customStep": "a custom step is the recording tool's own",
            }.get(kind, f"the step type {kind!r} is not known")
            unmapped.append(f"{origin}: {why}")
            continue
        finders = [
            f
            for alt in raw.get("selectors") or []
            if (f := _devtools_selector(alt if isinstance(alt, list) else [alt])) is not None
        ]
        if not finders:
            unmapped.append(f"{origin}: no selector the import can use")
            continue
        value = str(raw["value"]) if action == "fill" else None
        steps.append(ImportedStep(action, origin, _alternatives(finders), value))
    title = data.get("title")
    return steps, unmapped, str(title) if isinstance(title, str) else None


def _alternatives(finders: list[Callable[[Page], PWLocator]]) -> Finder:
    return lambda page: [f(page) for f in finders]


# -- Playwright codegen (Python) ---------------------------------------------------------

_LOCATOR_CALLS = frozenset(
    {"get_by_role", "get_by_text", "get_by_label", "get_by_placeholder", "get_by_alt_text",
     "get_by_title", "get_by_test_id", "locator", "filter", "nth", "frame_locator"}
)  # fmt: skip
_LOCATOR_PROPS = frozenset({"first", "last", "content_frame"})
_ACTIONS = {
    "click": "click",
    "fill": "fill",
    "type": "type",
    "press_sequentially": "type",
    "press": "press",
    "check": "check",
    "uncheck": "uncheck",
    "select_option": "select",
    "hover": "hover",
    "focus": "focus",
    "set_checked": "check",
}
_IGNORED = frozenset({"close", "set_default_timeout", "set_viewport_size", "wait_for_load_state",
                      "wait_for_url", "bring_to_front", "pause"})  # fmt: skip


class _Unmapped(Exception):
    pass


def _literal(node: ast.expr) -> object:
    """A literal argument, or ``re.compile("...", re.IGNORECASE)`` (codegen writes both)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "compile"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.args
    ):
        pattern = _literal(node.args[0])
        if not isinstance(pattern, str):
            raise _Unmapped("a pattern that is not a literal")
        flags = re.IGNORECASE if len(node.args) > 1 or node.keywords else 0
        return re.compile(pattern, flags)
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        raise _Unmapped(f"the argument {ast.unparse(node)!r} is not a literal") from None


Chain = list[tuple[str, list[object], dict[str, object]]]


def _chain(node: ast.expr, pages: set[str]) -> Chain:
    """``page.get_by_role("row", name="x").get_by_role("button")`` as calls on the page."""
    calls: Chain = []
    while True:
        if isinstance(node, ast.Name):
            if node.id not in pages:
                raise _Unmapped(f"{node.id!r} is not the recorded page (a popup or another tab)")
            return list(reversed(calls))
        if isinstance(node, ast.Attribute) and node.attr in _LOCATOR_PROPS:
            calls.append((node.attr, [], {}))
            node = node.value
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _LOCATOR_CALLS
        ):
            args = [_literal(a) for a in node.args]
            kwargs = {k.arg: _literal(k.value) for k in node.keywords if k.arg}
            for key in ("has", "has_not"):
                if key in kwargs:
                    raise _Unmapped(f"{key}= takes a locator, which the import does not follow")
            calls.append((node.func.attr, args, kwargs))
            node = node.func.value
            continue
        raise _Unmapped(f"{ast.unparse(node)!r} is not a locator codegen writes")


def _finder(chain: Chain) -> Finder:
    def find(page: Page) -> list[PWLocator]:
        current: Any = page
        for name, args, kwargs in chain:
            if name in _LOCATOR_PROPS:
                current = getattr(current, name)
            else:
                current = getattr(current, name)(*args, **kwargs)
        if isinstance(current, FrameLocator):
            raise TypeError("a frame, not an element")
        return [current]

    return find


def codegen_steps(text: str, name: str) -> tuple[list[ImportedStep], list[str]]:
    try:
        tree = ast.parse(text, filename=name)
    except SyntaxError as exc:
        raise RecordingImportError(
            f"{name} is not Python ({exc.msg} at line {exc.lineno})"
        ) from None
    pages = {"page"}
    steps: list[ImportedStep] = []
    unmapped: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.With)):
                if isinstance(stmt, ast.With) and any(
                    "expect_popup" in ast.unparse(item.context_expr) for item in stmt.items
                ):
                    unmapped.append(f"line {stmt.lineno}: opens a new page (a popup), which "
                                    "one requirement does not follow")  # fmt: skip
                    continue
                visit(stmt.body)
                continue
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                func = stmt.value.func
                if isinstance(func, ast.Attribute) and func.attr == "new_page":
                    pages.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
                continue
            if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
                continue
            try:
                step = _statement(stmt.value, pages, f"line {stmt.lineno}")
            except _Unmapped as exc:
                unmapped.append(f"line {stmt.lineno}: {exc} ({ast.unparse(stmt).strip()[:80]})")
                continue
            if step is not None:
                steps.append(step)

    visit(tree.body)
    return steps, unmapped


def _statement(call: ast.Call, pages: set[str], origin: str) -> ImportedStep | None:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    verb = func.attr
    owner = func.value
    args = call.args
    # expect(page.get_by_text("Thanks")).to_be_visible() / to_contain_text("x")
    if (
        isinstance(owner, ast.Call)
        and isinstance(owner.func, ast.Name)
        and owner.func.id == "expect"
    ):
        target = owner.args[0] if owner.args else None
        if (
            verb == "to_be_visible"
            and isinstance(target, ast.Call)
            and isinstance(target.func, ast.Attribute)
            and target.func.attr == "get_by_text"
        ):
            text = _literal(target.args[0]) if target.args else None
            if isinstance(text, str):
                return ImportedStep("expect_text", origin, value=text)
        if verb in ("to_contain_text", "to_have_text") and args:
            text = _literal(args[0])
            if isinstance(text, str):
                return ImportedStep("expect_text", origin, value=text)
        raise _Unmapped(f"the assertion {verb} is not mapped (text_visible: is)")
    if isinstance(owner, ast.Name) and owner.id in pages:
        if verb == "goto" and args:
            return ImportedStep("goto", origin, value=str(_literal(args[0])))
        if verb in _IGNORED:
            return None
        if verb in ("once", "on"):
            raise _Unmapped("an event handler (a dialog, a download) is not a step")
    if isinstance(owner, ast.Attribute) and owner.attr == "keyboard":
        if verb == "press" and args:
            return ImportedStep("press", origin, value=str(_literal(args[0])))
        raise _Unmapped(f"keyboard.{verb} names no element")
    if isinstance(owner, ast.Attribute) and owner.attr == "mouse":
        raise _Unmapped("a mouse position names no element")
    if verb in _IGNORED:
        return None
    action = _ACTIONS.get(verb)
    if action is None:
        raise _Unmapped(f"{verb} has no action in a sheet")
    chain = _chain(owner, pages)
    if not chain:
        raise _Unmapped(f"page.{verb} names no element")
    value: str | None = None
    if action in ("fill", "type", "press"):
        if not args:
            raise _Unmapped(f"{verb} without a value")
        value = str(_literal(args[0]))
    elif action == "select":
        given = (
            _literal(args[0])
            if args
            else next(
                (_literal(k.value) for k in call.keywords if k.arg in ("label", "value")), None
            )
        )
        if not isinstance(given, str):
            raise _Unmapped("select_option of several options or none")
        value = given
    if verb == "set_checked" and args and _literal(args[0]) is False:
        action = "uncheck"
    if verb == "click" and any(
        k.arg in ("modifiers", "button", "click_count") for k in call.keywords
    ):
        raise _Unmapped("a click with modifiers or another button has no action in a sheet")
    return ImportedStep(action, origin, _finder(chain), value)


# -- replay -------------------------------------------------------------------------------

_SELECT_LABEL = """(el, value) => {
  const o = [...el.options].find((x) => x.value === value || x.label === value);
  return o ? o.label || o.text : value;
}"""


def replay(
    page: Page,
    steps: list[ImportedStep],
    recorder: Recorder,
    *,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> Recording:
    """Play ``steps`` on ``page`` once, each element named by our discovery before it is
    acted on (:meth:`Recorder.act`); answers the recording, with the steps that could not
    be played listed in ``unmapped``. A step whose element is not found stops the replay
    (what follows would act on the wrong page)."""
    recording = recorder.recording
    with bounded.budget(timeout_ms):
        _replay(page, steps, recorder, recording, timeout_ms)
    recorder.stop()
    return recording


def _replay(
    page: Page,
    steps: list[ImportedStep],
    recorder: Recorder,
    recording: Recording,
    timeout_ms: float,
) -> None:
    for step in steps:
        if step.action == "goto":
            if not recording.url:
                recording.url = step.value or ""
                page.goto(recording.url, wait_until="load", timeout=timeout_ms)
                recorder.watch(page)
            else:
                url = step.value or ""
                recorder.act(page, Action.GOTO, None, url, partial(_goto, page, url, timeout_ms))
            continue
        if not recording.url:
            recording.unmapped.append(f"{step.origin}: comes before any page was opened")
            continue
        if step.action == "expect_text":
            recorder.expect_text(step.value or "")
            continue
        if step.find is None:  # a key pressed on the page itself
            key = step.value or ""
            focused = bounded.call(
                page,
                "finding the focused element",
                page.evaluate_handle,
                "() => document.activeElement && document.activeElement !== document.body "
                "? document.activeElement : null",
            ).as_element()
            recorder.act(page, Action.PRESS, focused, key, partial(page.keyboard.press, key))
            continue
        found = _find(page, step.find, timeout_ms)
        if isinstance(found, str):
            recording.unmapped.append(f"{step.origin}: {found}; the import stopped there")
            break
        locator, handle = found
        action = Action(step.action)
        value = step.value
        if action is Action.FILL and _is_select(page, handle):
            action = Action.SELECT
            value = str(
                bounded.call(page, "reading the option", handle.evaluate, _SELECT_LABEL, value)
            )
        try:
            recorder.act(
                page, action, handle, value, _performer(locator, action, value, timeout_ms)
            )
        except PlaywrightError as exc:
            recording.unmapped.append(
                f"{step.origin}: the {action.value} failed ({str(exc).splitlines()[0]}); "
                "the import stopped there"
            )
            break


def _goto(page: Page, url: str, timeout_ms: float) -> None:
    page.goto(url, wait_until="load", timeout=timeout_ms)


def _is_select(page: Page, handle: Any) -> bool:
    with suppress(PlaywrightError):
        return bool(
            bounded.call(
                page, "reading the tag", handle.evaluate, "(el) => el.tagName === 'SELECT'"
            )
        )
    return False


def _find(page: Page, finder: Finder, timeout_ms: float) -> tuple[PWLocator, Any] | str:
    """The first of the recording's selectors that finds exactly one element (waiting up
    to ``FIND_MS`` for the page to show it), or why none does."""
    try:
        options = finder(page)
    except (PlaywrightError, TypeError, ValueError) as exc:
        return f"its selector cannot be used ({str(exc).splitlines()[0]})"
    waited = 0.0
    counts: list[int] = []
    while True:
        counts = []
        for locator in options:
            try:
                count = bounded.call(page, "counting the matches", locator.count)
            except PlaywrightError:
                count = 0
            counts.append(count)
            if count == 1:
                handle = locator.element_handle(timeout=timeout_ms)
                if handle is not None:
                    return locator, handle
        if waited >= min(FIND_MS, timeout_ms):
            break
        page.wait_for_timeout(100)
        waited += 100
    if any(c > 1 for c in counts):
        return f"its selectors match {max(counts)} elements, not one"
    return "no selector of the recording finds its element on the page"


def _performer(
    locator: PWLocator, action: Action, value: str | None, timeout_ms: float
) -> Callable[[], None]:
    def perform() -> None:
        if action is Action.CLICK:
            locator.click(timeout=timeout_ms)
        elif action is Action.FILL:
            locator.fill(value or "", timeout=timeout_ms)
        elif action is Action.TYPE:
            locator.press_sequentially(value or "", timeout=timeout_ms)
        elif action is Action.PRESS:
            locator.press(value or "", timeout=timeout_ms)
        elif action is Action.SELECT:
            locator.select_option(label=value, timeout=timeout_ms)
        elif action is Action.CHECK:
            locator.check(timeout=timeout_ms)
        elif action is Action.UNCHECK:
            locator.uncheck(timeout=timeout_ms)
        elif action is Action.HOVER:
            locator.hover(timeout=timeout_ms)
        elif action is Action.FOCUS:
            locator.focus(timeout=timeout_ms)

    return perform


__all__ = [
    "ImportedStep",
    "RecordedStep",
    "RecordingImportError",
    "codegen_steps",
    "devtools_steps",
    "read_recording",
    "replay",
]
