"""A Playwright codegen Python script read as
:class:`~pytest_pacts.recording.imported.ImportedStep` s (``pacts import``;
docs/user-guide.md, "Record a sheet"). The script is parsed (``ast``), never executed;
only the calls codegen writes are taken (``page.goto``, ``page.get_by_*(...)`` /
``page.locator(...)`` chains ending in an action, ``page.keyboard.press``,
``expect(page.get_by_text(...)).to_be_visible()``); anything else is listed with why."""

from __future__ import annotations

import ast
import re
from typing import Any

from playwright.sync_api import FrameLocator, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.recording.imported import Finder, ImportedStep, RecordingImportError

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
    if (
        isinstance(owner, ast.Call)
        and isinstance(owner.func, ast.Name)
        and owner.func.id == "expect"
    ):
        return _expectation(owner, verb, args, origin)
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
    value = _value(call, verb, action)
    if verb == "set_checked" and args and _literal(args[0]) is False:
        action = "uncheck"
    if verb == "click" and any(
        k.arg in ("modifiers", "button", "click_count") for k in call.keywords
    ):
        raise _Unmapped("a click with modifiers or another button has no action in a sheet")
    return ImportedStep(action, origin, _finder(chain), value)


def _expectation(expect: ast.Call, verb: str, args: list[ast.expr], origin: str) -> ImportedStep:
    """``expect(page.get_by_text("Thanks")).to_be_visible()`` / ``.to_contain_text("x")``
    as ``text_visible:``."""
    target = expect.args[0] if expect.args else None
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


def _value(call: ast.Call, verb: str, action: str) -> str | None:
    """The value cell of an action call: the text typed or pressed, the option chosen."""
    args = call.args
    if action in ("fill", "type", "press"):
        if not args:
            raise _Unmapped(f"{verb} without a value")
        return str(_literal(args[0]))
    if action == "select":
        given = (
            _literal(args[0])
            if args
            else next(
                (_literal(k.value) for k in call.keywords if k.arg in ("label", "value")), None
            )
        )
        if not isinstance(given, str):
            raise _Unmapped("select_option of several options or none")
        return given
    return None
