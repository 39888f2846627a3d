"""What ``pacts import`` reads from another tool's recording before replaying it: one
:class:`ImportedStep` per step (docs/user-guide.md, "Record a sheet")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.errors import PactsError

#: how to find a step's element on the page: the recording's selectors as locators, tried
#: in order (the first that finds exactly one element wins)
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
