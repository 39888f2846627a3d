"""What one attempt of a step observed, kept for its step record."""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_pacts.models.locator import GateSnapshot
from pytest_pacts.models.outcome import ImageMatch


@dataclass
class Attempt:
    """What one attempt of a step observed (kept for the step record)."""

    gate: GateSnapshot | None = None
    value_shown: str | None = None
    expectation_ok: bool | None = None
    gate_checks: int = 0
    notes: list[str] = field(default_factory=list)
    extracted: dict[str, str] = field(default_factory=dict)  # var → value as shown
    image: ImageMatch | None = None  # an image target's match
    image_png: bytes | None = None  # its annotated screenshot
