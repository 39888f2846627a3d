"""What a recording holds: rows in the sheet's own terms, and what the file must say.

A row is written as a person would write it (``Element@Region | action | value |
expected``). ``note`` is set on a row whose element text did not resolve back to exactly
the element used (or could not be named at all), with the reason: such a row is written,
marked, and counted as unverified. Secret values are kept in :attr:`Recording.secrets` for a
replay in this process only (``pacts record --verify``); the file holds ``{{env.NAME}}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Words that make a field's value a secret (its name, id, label or autocomplete hint).
SECRET_WORDS = re.compile(
    r"pass(word|wd|code|phrase)?|secret|token|api[\s_-]?key|\bpin\b|\botp\b|cvv|cvc|"
    r"\bssn\b|card[\s_-]?number|credit[\s_-]?card|private[\s_-]?key",
    re.IGNORECASE,
)


@dataclass
class RecordedStep:
    """One row. ``element`` is the ``Element@Region`` text (``None`` for a step on the page:
    ``goto``, a key pressed with nothing focused, a ``wait``)."""

    action: str
    element: str | None = None
    value: str | None = None
    expected: str | None = None
    note: str | None = None

    @property
    def verified(self) -> bool:
        return self.note is None

    def cells(self) -> tuple[str, str, str, str]:
        return (self.element or "", self.action, self.value or "", self.expected or "")

    @property
    def text(self) -> str:
        """The row as a pipe string: ``"Login | click | | navigates_to:Products"``."""
        cells = list(self.cells())
        while cells and not cells[-1]:
            cells.pop()
        return re.sub(r"\|\s+\|", "| |", " | ".join(cells)).strip()


@dataclass
class Recording:
    """A requirement recorded (or imported): its rows and what the file must tell."""

    url: str
    req_id: str = "REQ-RECORDED-001"
    title: str | None = None
    auth: str | None = None
    steps: list[RecordedStep] = field(default_factory=list)
    #: environment variables the file's ``{{env.NAME}}`` cells need -> what was typed where
    env: dict[str, str] = field(default_factory=dict)
    #: the values typed into secret fields, by variable: never written anywhere
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    #: import only: steps of the recording that could not be mapped, with the reason
    unmapped: list[str] = field(default_factory=list)

    @property
    def unverified(self) -> list[RecordedStep]:
        return [s for s in self.steps if not s.verified]


def is_secret(password_field: bool, *hints: str | None) -> bool:
    """A password field, or a field whose name, id, label or autocomplete hint looks secret."""
    return password_field or any(h and SECRET_WORDS.search(h) for h in hints)


def env_name(element: str | None, taken: dict[str, str], value: str) -> str:
    """``PASSWORD`` for "Password@Login", unique among ``taken`` unless the same value."""
    base = re.sub(r"[^A-Za-z0-9]+", "_", (element or "secret").split("@")[0].split("[")[0])
    base = base.strip("_").upper() or "SECRET"
    if base[0].isdigit():
        base = f"SECRET_{base}"
    name, n = base, 1
    while name in taken and taken[name] != value:
        n += 1
        name = f"{base}_{n}"
    return name
