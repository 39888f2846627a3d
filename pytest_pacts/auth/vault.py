"""Saved sessions on disk: private files, a lock per session, nothing in any report.

A session is Playwright's storage state (cookies and localStorage) after a profile's login,
saved as ``<dir>/<key>.state.json``; ``<key>.meta.json`` says which profile, account and
base URL it is for and when it was made (never a value of it). The folder is the owner's
alone (``0700``), each file too (``0600``), written atomically. It lives under ``.pacts/auth``
by default (ini ``pacts_auth_dir``), never inside a report folder; ``pacts auth clear``
deletes it.

``<key>.lock`` serialises the processes of a run (xdist workers, the controller) around one
session, so the login runs once and the others reuse what it saved (``fcntl.flock``: POSIX).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_pacts.errors import PactsError

__all__ = ["DEFAULT_AUTH_DIR", "LockTimeout", "SessionMeta", "Vault", "session_key"]

DEFAULT_AUTH_DIR = ".pacts/auth"
_DIR_MODE = 0o700
_FILE_MODE = 0o600


class LockTimeout(TimeoutError, PactsError):
    """Another process held a session's lock for longer than the wait allowed."""


def session_key(profile: str, account: int, base_url: str) -> str:
    """The file name stem of a profile's session for one account on one deployment."""
    digest = hashlib.sha256(base_url.encode()).hexdigest()[:10]
    return f"{profile}.{account}.{digest}"


@dataclass(frozen=True)
class SessionMeta:
    """What is known of a saved session without opening it (no value of it)."""

    profile: str
    account: int
    base_url: str
    created: float  # time.time() of the login
    run_id: str = ""  # the run that logged in
    failed: str = ""  # set instead of a state: the login failed in run ``run_id``
    rca: str = ""
    report: str = ""  # the failed login's report, as every report shows it (secrets masked)

    def age(self, now: float | None = None) -> float:
        return (time.time() if now is None else now) - self.created


class Vault:
    """The private folder of saved sessions."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def ensure(self) -> Path:
        """The folder, made if needed and made private (``0700``) if it was not."""
        self.root.mkdir(parents=True, exist_ok=True, mode=_DIR_MODE)
        if stat.S_IMODE(self.root.stat().st_mode) != _DIR_MODE:
            os.chmod(self.root, _DIR_MODE)
        return self.root

    def state_path(self, key: str) -> Path:
        return self.root / f"{key}.state.json"

    def _meta_path(self, key: str) -> Path:
        return self.root / f"{key}.meta.json"

    def meta(self, key: str) -> SessionMeta | None:
        try:
            raw = json.loads(self._meta_path(key).read_text(encoding="utf-8"))
            return SessionMeta(**raw)
        except (OSError, ValueError, TypeError):
            return None

    def has_state(self, key: str) -> bool:
        return self.state_path(key).is_file()

    def save(self, key: str, state: dict[str, Any], meta: SessionMeta) -> Path:
        """Keep ``state`` (Playwright's storage state) with its ``meta``; returns its path."""
        self.ensure()
        path = self.state_path(key)
        _write_private(path, json.dumps(state))
        _write_private(self._meta_path(key), json.dumps(asdict(meta)))
        return path

    def save_failure(self, key: str, meta: SessionMeta) -> None:
        """Remember that the login of ``key`` failed in a run (no state is kept)."""
        self.ensure()
        with contextlib.suppress(FileNotFoundError):
            self.state_path(key).unlink()
        _write_private(self._meta_path(key), json.dumps(asdict(meta)))

    def claim_report(self, key: str, run_id: str) -> bool:
        """True for the first caller of a run to report the failed login of ``key`` in full
        (one file made exclusively per run; every other caller of the run gets False)."""
        self.ensure()
        marker = self.root / f"{key}.{hashlib.sha256(run_id.encode()).hexdigest()[:10]}.reported"
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _FILE_MODE))
        except FileExistsError:
            return False
        return True

    @contextlib.contextmanager
    def lock(self, key: str, timeout_s: float) -> Iterator[None]:
        """Hold the lock of ``key`` across processes; :class:`LockTimeout` after
        ``timeout_s`` seconds of waiting for it."""
        self.ensure()
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: one process at a time is assumed
            yield
            return
        fd = os.open(self.root / f"{key}.lock", os.O_RDWR | os.O_CREAT, _FILE_MODE)
        try:
            deadline = time.monotonic() + timeout_s
            pause = 0.05
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockTimeout(
                            f"waited {timeout_s:.0f} s for another process's login of {key}"
                        ) from None
                    time.sleep(pause)
                    pause = min(pause * 2, 0.5)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def entries(self) -> list[tuple[str, SessionMeta]]:
        """Every saved session (or remembered failure), by key."""
        if not self.root.is_dir():
            return []
        found: list[tuple[str, SessionMeta]] = []
        for path in sorted(self.root.glob("*.meta.json")):
            key = path.name.removesuffix(".meta.json")
            meta = self.meta(key)
            if meta is not None:
                found.append((key, meta))
        return found

    def clear(self, profile: str | None = None) -> int:
        """Delete the saved sessions (of ``profile`` only, when given); returns how many."""
        removed = 0
        for key, meta in self.entries():
            if profile is not None and meta.profile != profile:
                continue
            for path in (self.state_path(key), self._meta_path(key), self.root / f"{key}.lock"):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
            removed += 1
        if profile is None and self.root.is_dir():
            for stray in self.root.iterdir():  # half-written files, orphaned locks
                if stray.is_file():
                    stray.unlink()
        return removed


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by the owner only from the start."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _FILE_MODE)
    os.fchmod(fd, _FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(part, path)
