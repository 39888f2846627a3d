"""Regular expressions written in a sheet (``extract | order_id; regex=ORD-(\\d+)``), matched
with a time limit.

Python's ``re`` cannot be interrupted: a pattern with nested repetition (``(a+)+$``,
``(a|aa)+$``) on a text it almost matches backtracks for hours, and the whole session hung
with it. Sheet patterns are compiled and matched with the ``regex`` package instead (the same
syntax as ``re``, with a ``timeout`` per call): a match that runs out of time raises
:class:`PatternTimeout`, which fails that one step with the pattern, the limit and what to
change; the run goes on (docs/reference.md, "Limits").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_pacts.errors import PactsError

# ``regex`` is imported when a pattern is first compiled: collection imports this module
# for every sheet, and ``regex`` takes longer to import than the plugin's collection of a
# small file (about 0.1 s).
if TYPE_CHECKING:
    import regex

__all__ = ["MATCH_TIMEOUT_S", "MAX_SUBJECT_CHARS", "PatternTimeout", "check", "search"]

#: The longest one match of a sheet pattern may run (seconds of wall time; the ``regex``
#: package checks its clock as it backtracks, so a busy machine may overrun it a little).
MATCH_TIMEOUT_S = 1.0
#: The most characters of a text a sheet pattern is matched against (the rest is ignored).
MAX_SUBJECT_CHARS = 100_000


class PatternTimeout(PactsError):
    """A sheet pattern did not finish matching within :data:`MATCH_TIMEOUT_S`."""

    def __init__(self, pattern: str, length: int, limit_s: float = MATCH_TIMEOUT_S) -> None:
        super().__init__(
            f"the regex {pattern} did not finish matching a {length}-character text within "
            f"{limit_s:g} s (it backtracks without end: nested repetition such as "
            "(a+)+ or (a|aa)+); write it without a repetition inside a repetition, e.g. a+ "
            "instead of (a+)+, or anchor it to the text around the value"
        )
        self.pattern = pattern


@dataclass(frozen=True)
class Found:
    """The part of the text a pattern matched: its first group when it has one."""

    text: str


def check(pattern: str) -> str | None:
    """Why ``pattern`` is not a valid regular expression, or ``None`` when it is."""
    import regex

    try:
        _compiled(pattern)
    except regex.error as exc:
        return str(exc)
    return None


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern[str]:
    import regex

    return regex.compile(pattern)


def search(pattern: str, text: str, timeout_s: float = MATCH_TIMEOUT_S) -> Found | None:
    """The first match of ``pattern`` in ``text`` (its first group when it has one), or
    ``None``; raises :class:`PatternTimeout` past ``timeout_s``."""
    subject = text[:MAX_SUBJECT_CHARS]
    compiled = _compiled(pattern)
    try:
        match = compiled.search(subject, timeout=timeout_s)
    except TimeoutError:
        raise PatternTimeout(pattern, len(subject), timeout_s) from None
    if match is None:
        return None
    value = match.group(1) if compiled.groups else match.group(0)
    return Found(value or "")
