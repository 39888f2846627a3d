"""Located problems in requirement files, written for the person who has to fix them.

Every message reads ``path:sheet:row:col: what is wrong; expected ...`` for sheets and
``path:line:col: ...`` for JSON/YAML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_pacts.errors import PactsError

if TYPE_CHECKING:  # the plan cache catches these errors without loading the models
    from pytest_pacts.models import SourceRef


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a requirement file, with where it is and what would be right."""

    source: SourceRef
    message: str
    expected: str | None = None

    def __str__(self) -> str:
        text = f"{self.source.render()}: {self.message}"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


class RequirementFileError(PactsError):
    """A requirement file that cannot be planned. ``str()`` lists every problem, one a line."""

    def __init__(self, problems: list[Problem]) -> None:
        if not problems:
            raise ValueError("RequirementFileError needs at least one problem")
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def single(
        cls, source: SourceRef, message: str, expected: str | None = None
    ) -> RequirementFileError:
        return cls([Problem(source, message, expected)])


class ProblemSink:
    """Collects problems while a file is read, so one run reports them all at once."""

    MAX_PROBLEMS = 50

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, source: SourceRef, message: str, expected: str | None = None) -> None:
        if len(self.problems) < self.MAX_PROBLEMS:
            self.problems.append(Problem(source, message, expected))

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise RequirementFileError(sorted(self.problems, key=_position))


def _position(problem: Problem) -> tuple[str, int, int, str]:
    """Document order: sheet, then row or line, then column (letters or numbers)."""
    src = problem.source
    col = src.column or ""
    return (src.sheet or "", src.row or src.line or 0, len(col), col)
