"""A Chrome DevTools Recorder export (JSON, the ``@puppeteer/replay`` format) read as
:class:`~pytest_pacts.recording.imported.ImportedStep` s, without running anything (``pacts
import``; docs/user-guide.md, "Record a sheet"). A step's ``selectors`` become locators
in the frame its ``frame`` path names (child iframe indexes from the top frame down)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.recording.imported import Finder, ImportedStep, RecordingImportError

_ARIA = re.compile(r'^(?P<name>.*?)(?:\[role="(?P<role>[a-z]+)"\])?$', re.DOTALL)


def _devtools_selector(parts: list[str]) -> Callable[[Frame], PWLocator] | None:
    """One alternative of a step's ``selectors`` (a list: one part per shadow root), as a
    locator in the step's frame."""
    if len(parts) != 1 or not isinstance(parts[0], str):
        return None  # through shadow roots part by part: the CSS alternatives pierce anyway
    selector = parts[0]
    if selector.startswith("aria/"):
        match = _ARIA.match(selector[5:])
        if match is None:
            return None
        name, role = match["name"], match["role"]
        if role:
            return lambda frame: frame.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        return lambda frame: frame.get_by_label(name, exact=True)
    if selector.startswith("xpath/"):
        return lambda frame: frame.locator("xpath=" + selector[6:])
    if selector.startswith("pierce/"):
        return lambda frame: frame.locator(selector[7:])
    if selector.startswith("text/"):
        return lambda frame: frame.get_by_text(selector[5:], exact=True)
    return lambda frame: frame.locator(selector)


def _frame(page: Page, path: list[int]) -> Frame:
    """The frame a step's ``frame`` path names: child indexes from the top frame down
    (the ``@puppeteer/replay`` format's ``frame``)."""
    frame = page.main_frame
    for index in path:
        children = frame.child_frames
        if not 0 <= index < len(children):
            raise ValueError(f"the page has no iframe {index} there")
        frame = children[index]
    return frame


_WHY_NOT = {
    "doubleClick": "a double click has no action in a sheet",
    "waitForElement": "a wait for a selector has no equivalent: expect a text instead "
    "(text_visible:)",
    "waitForExpression": "a JavaScript expression is not a requirement",
    "customStep": "a custom step is the recording tool's own",
}


def devtools_steps(text: str, name: str) -> tuple[list[ImportedStep], list[str], str | None]:
    """The steps of the export, the ones that cannot be mapped (with why), its title."""
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
        try:
            step = _step(raw, n)
        except ValueError as exc:
            unmapped.append(str(exc))
            continue
        if step is not None:
            steps.append(step)
    title = data.get("title")
    return steps, unmapped, str(title) if isinstance(title, str) else None


def _step(raw: object, n: int) -> ImportedStep | None:
    """Step ``n`` of the export; ``None`` for one that only says how the browser stood;
    ``ValueError`` (the message says why) for one that cannot be mapped."""
    if not isinstance(raw, dict):
        raise ValueError(f"step {n}: not an object")
    kind = str(raw.get("type", ""))
    origin = f"step {n} ({kind})"
    if kind in ("setViewport", "keyUp", "scroll", "close"):
        return None  # how the browser stood, not an action of the person's
    path = raw.get("frame") or []
    if not isinstance(path, list) or not all(isinstance(i, int) for i in path):
        raise ValueError(f"{origin}: its frame {path!r} is not a list of iframe indexes")
    if kind == "navigate":
        return ImportedStep("goto", origin, value=str(raw.get("url", "")))
    if kind == "keyDown":
        return ImportedStep("press", origin, value=str(raw.get("key", "")))
    action = {"click": "click", "change": "fill", "hover": "hover"}.get(kind)
    if action is None:
        raise ValueError(f"{origin}: {_WHY_NOT.get(kind, f'the step type {kind!r} is not known')}")
    finders = [
        f
        for alt in raw.get("selectors") or []
        if (f := _devtools_selector(alt if isinstance(alt, list) else [alt])) is not None
    ]
    if not finders:
        raise ValueError(f"{origin}: no selector the import can use")
    value = str(raw["value"]) if action == "fill" else None
    return ImportedStep(action, origin, _alternatives(finders, path), value)


def _alternatives(finders: list[Callable[[Frame], PWLocator]], path: list[int]) -> Finder:
    return lambda page: [f(_frame(page, path)) for f in finders]
