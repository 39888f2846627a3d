"""``POST /api/run``: a pytest run in a subprocess, at most one per web session.

The in-flight guard lives in this process's memory: a second launch for a session whose
run is still going is refused with ``SESSION_CONFLICT`` (a conflict between two servers,
or with a CLI run, is the store's own guard, per requirement). Each web session runs with
its own pytest-pacts session name, ``web.<session>``, so web runs and CLI runs never
collide in the store's guard either. The run records into the store the server shows
(``PACTS_STORE`` in the child's environment, so a DSN never shows on a command line).
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from pytest_pacts.web.errors import Conflict, Invalid
from pytest_pacts.web.security import TOKEN_ENV

SESSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_PATHS = 50
MAX_OUTPUT_LINES = 400
STORE_ENV = "PACTS_STORE"


@dataclass
class Launch:
    """One pytest subprocess started from the web."""

    id: str
    session: str
    store_session: str
    paths: tuple[str, ...]
    keyword: str | None
    base_url: str | None
    started_at: datetime
    process: subprocess.Popen[str]
    output: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_OUTPUT_LINES))
    finished_at: datetime | None = None
    exit_code: int | None = None

    @property
    def running(self) -> bool:
        return self.exit_code is None


@dataclass(frozen=True)
class LaunchRequest:
    """A validated ``POST /api/run`` body."""

    paths: tuple[str, ...]
    session: str = "default"
    base_url: str | None = None
    keyword: str | None = None


def validate_request(
    root: Path,
    paths: Sequence[str],
    session: str | None,
    base_url: str | None,
    keyword: str | None,
) -> LaunchRequest:
    """Check a run request; every problem is listed in one :class:`Invalid`."""
    problems: list[str] = []
    if not paths:
        problems.append(
            "paths: give at least one requirement file or folder, e.g. ['requirements/']"
        )
    if len(paths) > MAX_PATHS:
        problems.append(f"paths: at most {MAX_PATHS} paths per run, got {len(paths)}")
    base = root.resolve()
    for given in paths:
        file_part = given.split("::", 1)[0]
        candidate = Path(file_part)
        if not file_part or candidate.is_absolute() or ".." in candidate.parts:
            problems.append(
                f"paths: {given!r} must be relative to the project folder, without '..'"
            )
            continue
        try:
            resolved = (base / candidate).resolve()
            missing = not resolved.exists()
        except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop
            problems.append(f"paths: {given[:80]!r} is not a usable path ({type(exc).__name__})")
            continue
        if not resolved.is_relative_to(base):
            problems.append(f"paths: {given!r} leaves the project folder")
        elif missing:
            problems.append(f"paths: {given!r} does not exist in {base}")
    name = session or "default"
    if not SESSION_RE.match(name):
        problems.append(
            f"session: {name!r} must be 1-64 letters, digits, '.', '_' or '-', starting with a "
            "letter or digit"
        )
    if base_url is not None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            problems.append(f"base_url: {base_url!r} must be an http:// or https:// URL")
    if keyword is not None and (not keyword.strip() or len(keyword) > 500 or "\n" in keyword):
        problems.append("keyword: a pytest -k expression on one line, at most 500 characters")
    if problems:
        raise Invalid("the run request is not valid", details=problems)
    return LaunchRequest(tuple(paths), name, base_url, keyword.strip() if keyword else None)


class Launcher:
    """Starts and tracks pytest subprocesses; thread-safe.

    ``mask`` is applied to every output line kept (secrets never reach the API).
    """

    def __init__(
        self,
        root: Path,
        store_target: str,
        *,
        mask: Callable[[str], str] = lambda s: s,
        python: str = sys.executable,
    ) -> None:
        self._root = root
        self._store_target = store_target
        self._mask = mask
        self._python = python
        self._lock = threading.Lock()
        self._launches: dict[str, Launch] = {}
        self._in_flight: dict[str, str] = {}  # session -> launch id

    # long because: one lock held while the run is checked and started
    def start(self, request: LaunchRequest) -> Launch:
        """Start the run, or raise :class:`Conflict` ``SESSION_CONFLICT``."""
        with self._lock:
            holder = self._in_flight.get(request.session)
            if holder is not None:
                raise Conflict(
                    f"SESSION_CONFLICT: session {request.session!r} already has run {holder} "
                    f"in flight; wait for it (GET /api/launches/{holder}) or use another "
                    "session",
                    code="SESSION_CONFLICT",
                )
            launch_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)
            store_session = f"web.{request.session}"
            command = [
                self._python,
                "-m",
                "pytest",
                "-v",
                "-p",
                "no:cacheprovider",
                f"--pacts-session={store_session}",
                *(["--base-url", request.base_url] if request.base_url else []),
                *(["-k", request.keyword] if request.keyword else []),
                "--",
                *request.paths,
            ]
            # the run needs no write token of ours: it is not passed on
            env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
            env.update({STORE_ENV: self._store_target, "PYTHONUNBUFFERED": "1"})
            process = subprocess.Popen(
                command,
                cwd=self._root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
            launch = Launch(
                id=launch_id,
                session=request.session,
                store_session=store_session,
                paths=request.paths,
                keyword=request.keyword,
                base_url=request.base_url,
                started_at=datetime.now(UTC),
                process=process,
            )
            self._launches[launch_id] = launch
            self._in_flight[request.session] = launch_id
        threading.Thread(
            target=self._follow, args=(launch,), name=f"pacts-launch-{launch_id}", daemon=True
        ).start()
        return launch

    def _follow(self, launch: Launch) -> None:
        stream = launch.process.stdout
        assert stream is not None
        for line in stream:
            text = self._mask(line.rstrip("\n"))
            with self._lock:
                launch.output.append(text)
        code = launch.process.wait()
        with self._lock:
            launch.exit_code = code
            launch.finished_at = datetime.now(UTC)
            if self._in_flight.get(launch.session) == launch.id:
                del self._in_flight[launch.session]

    def get(self, launch_id: str) -> Launch | None:
        with self._lock:
            return self._launches.get(launch_id)

    def snapshot(self, launch: Launch) -> tuple[list[str], int | None, datetime | None]:
        """Output lines, exit code and end time, read consistently."""
        with self._lock:
            return list(launch.output), launch.exit_code, launch.finished_at

    def stop_all(self, timeout: float = 10.0) -> None:
        """Terminate every run still going (the server is stopping)."""
        with self._lock:
            running = [item for item in self._launches.values() if item.running]
        for launch in running:
            launch.process.terminate()
        for launch in running:
            try:
                launch.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                launch.process.kill()
                launch.process.wait(timeout=timeout)
