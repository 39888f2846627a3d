"""The step's time left, shared by the widget operations (each call gets what remains)."""

from __future__ import annotations

import time


class Clock:
    def __init__(self, timeout_ms: float) -> None:
        self.end = time.monotonic() + timeout_ms / 1000

    def left(self, floor: float = 100.0) -> float:
        """Milliseconds left, at least ``floor`` (a call always gets a little time)."""
        return max(floor, (self.end - time.monotonic()) * 1000)

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.end
