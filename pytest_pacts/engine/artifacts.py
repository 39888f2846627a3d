"""Screenshots for the reports: on failure, and of a heal with the healed element
highlighted. Taking a screenshot never fails a run: a crashed page simply has
no picture, and the path is left out."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import bounded
from pytest_pacts.engine.tracing import await_pictures

# The healed element is shown by Playwright's screenshot mask: a translucent box drawn over
# it for the picture only, in the same call (no round trips to mark and unmark the element).
HIGHLIGHT = "rgba(232, 89, 12, 0.45)"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]


class Shots:
    def __init__(self, page: Page, folder: str | None, req_id: str) -> None:
        self.page = page
        self.folder = Path(folder) if folder else None
        self.req_id = _safe(req_id)
        self.taken: dict[str, str] = {}

    def take(self, label: str, outline: PWLocator | None = None) -> str | None:
        """Save ``<req_id>-<label>.png``; ``outline``'s element is highlighted for the shot."""
        if self.folder is None:
            return None
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        mask = [outline] if outline is not None else None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            await_pictures(self.page)  # never during a step picture (engine/tracing.py)
            bounded.call(
                self.page,
                "a screenshot",
                lambda: self.page.screenshot(
                    path=str(path), timeout=5000, mask=mask, mask_color=HIGHLIGHT
                ),
            )
        except (PlaywrightError, OSError):
            return None
        self.taken[f"screenshot_{_safe(label)}"] = str(path)
        return str(path)

    def save(self, label: str, png: bytes) -> str | None:
        """Save ``png`` (made elsewhere, e.g. an annotated screenshot) as
        ``<req_id>-<label>.png``; ``None`` without a folder or when it cannot be written."""
        if self.folder is None:
            return None
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
        except OSError:
            return None
        self.taken[f"screenshot_{_safe(label)}"] = str(path)
        return str(path)
