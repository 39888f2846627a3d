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

from pathlib import Path

from pytest_pacts.recording.codegen import codegen_steps
from pytest_pacts.recording.devtools import devtools_steps
from pytest_pacts.recording.imported import ImportedStep, RecordingImportError
from pytest_pacts.recording.replay import replay

MAX_BYTES = 2 * 1024 * 1024  # a recording bigger than this is refused


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


__all__ = [
    "ImportedStep",
    "RecordingImportError",
    "codegen_steps",
    "devtools_steps",
    "read_recording",
    "replay",
]
