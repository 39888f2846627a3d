"""Screenshots for the reports: on failure, and before/after a heal with the
healed element outlined. Taking a screenshot never fails a run: a crashed page simply has
no picture, and the path is left out."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import bounded

_OUTLINE_ON = """(el) => { el.dataset.pactsOutline = el.style.outline || '';
  el.style.outline = '3px solid #e8590c'; el.style.outlineOffset = '2px'; }"""
_OUTLINE_OFF = """(el) => { el.style.outline = el.dataset.pactsOutline || '';
  el.style.outlineOffset = ''; delete el.dataset.pactsOutline; }"""


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]


class Shots:
    def __init__(self, page: Page, folder: str | None, req_id: str) -> None:
        self.page = page
        self.folder = Path(folder) if folder else None
        self.req_id = _safe(req_id)
        self.taken: dict[str, str] = {}

    def take(self, label: str, outline: PWLocator | None = None) -> str | None:
        """Save ``<req_id>-<label>.png``; ``outline`` is drawn around for the shot only."""
        if self.folder is None:
            return None
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        outlined = False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if outline is not None:
                try:
                    bounded.call(
                        outline, "outlining", lambda: outline.evaluate(_OUTLINE_ON, timeout=1000)
                    )
                    outlined = True
                except PlaywrightError:
                    outlined = False
            bounded.call(
                self.page,
                "a screenshot",
                lambda: self.page.screenshot(path=str(path), timeout=5000),
            )
        except (PlaywrightError, OSError):
            return None
        finally:
            if outlined and outline is not None:
                with contextlib.suppress(PlaywrightError):
                    bounded.call(
                        outline, "outlining", lambda: outline.evaluate(_OUTLINE_OFF, timeout=1000)
                    )
        self.taken[f"screenshot_{_safe(label)}"] = str(path)
        return str(path)
