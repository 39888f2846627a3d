"""What every ``pacts`` subcommand shares: exit codes and the error meant for a person.

Exit codes (docs/reference.md):
  0  success
  1  the command ran and found problems (invalid requirements, unresolved steps, ...)
  2  usage error (bad arguments, missing files)
  3  a store or environment problem (store unreachable, no browser)
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3


class CommandError(Exception):
    """A failure meant for a person: printed without a traceback, with an exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_PROBLEMS) -> None:
        super().__init__(message)
        self.exit_code = exit_code
