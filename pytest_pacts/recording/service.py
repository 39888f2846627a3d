"""``pacts record`` and ``pacts import`` as application calls (the CLI and the tests use
these): open the page, record or replay, write the file and check that it loads, and
replay the file under pytest when asked (``--verify``).

Nothing here imports pytest: the verification runs ``python -m pytest FILE`` in a
subprocess, with the secret values typed during the recording passed in its environment
only (they are never written or printed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.contexts import ContextSetup, SessionFor
from pytest_pacts.models import Requirement, SourceRef
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.planner.errors import RequirementFileError
from pytest_pacts.planner.loader import LoaderOptions, load_file
from pytest_pacts.recording.importers import read_recording, replay
from pytest_pacts.recording.model import Recording
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.writers import file_format, write_recording
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

#: How a recording ends: called between waits, answers True to stop (the page closed,
#: Ctrl-C, a time limit: the CLI's choice), or a test's drive function.
Until = Callable[[Page], bool]


@dataclass(frozen=True)
class Written:
    path: Path
    recording: Recording


def headed_by_default() -> bool:
    """Headed when a display exists (Linux: ``DISPLAY`` or ``WAYLAND_DISPLAY``)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


@contextmanager
def recording_page(
    browser: Browser, url: str | None, *, session: SessionFor | None, auth: str | None
) -> Iterator[Page]:
    """A page in a fresh context, signed in by the auth profile ``auth`` when given."""
    requirement = Requirement(
        req_id="REQ-RECORDED", url=url or "about:blank", steps=(), auth=auth,
        source=SourceRef(path="<pacts record>"),
    )  # fmt: skip
    with ContextSetup(session=session if auth else None).page(browser, requirement) as page:
        yield page


def record(
    page: Page,
    url: str,
    recorder: Recorder,
    until: Until,
    *,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
    poll_ms: float = 200.0,
) -> Recording:
    """Open ``url`` on ``page`` and record until ``until(page)`` says stop (or the page is
    closed); answers the recording."""
    page.goto(url, wait_until="load", timeout=timeout_ms)
    recorder.start(page)
    stopped: list[int] = []
    with _ctrl_c_stops(stopped):
        while not stopped and not page.is_closed() and not until(page):
            with suppress(PlaywrightError):
                page.wait_for_timeout(poll_ms)
    return recorder.stop()


@contextmanager
def _ctrl_c_stops(stopped: list[int]) -> Iterator[None]:
    """Ctrl-C ends a recording and keeps what was done: SIGINT only sets a flag while the
    recording runs (a KeyboardInterrupt raised inside Playwright's dispatcher would leave
    the page unusable for writing the file). Only in the main thread, where signals go."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: stopped.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def import_recording(
    page: Page, source: Path, recorder: Recorder, *, timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS
) -> Recording:
    """Replay the recording at ``source`` once on ``page``, naming each element by our
    discovery; answers the sheet's recording (``unmapped`` lists what was not taken)."""
    steps, unmapped, title = read_recording(source)
    if title and not recorder.recording.title:
        recorder.recording.title = title
    recording = replay(page, steps, recorder, timeout_ms=timeout_ms)
    recording.unmapped[:0] = unmapped
    return recording


def write_checked(recording: Recording, out: Path, *, source: str) -> Written:
    """Write ``recording`` to ``out`` and load it back through the planner (templates
    unchecked: the variables are the reader's to set); a file that would not load is a
    bug, raised as :class:`RequirementFileError`."""
    file_format(out)
    write_recording(recording, out, source=source)
    load_file(out, LoaderOptions(env={}, check_env=False))
    return Written(out, recording)


def verify(
    path: Path,
    recording: Recording,
    *,
    extra_args: tuple[str, ...] = (),
    cwd: Path | None = None,
    echo: Callable[[str], None] | None = None,
) -> int:
    """Run the written file under pytest once (``python -m pytest FILE``), with the secret
    values of the recording in the environment; answers pytest's exit code."""
    env = dict(os.environ)
    env.update(recording.secrets)
    command = [sys.executable, "-m", "pytest", str(path.resolve()), "-p", "no:cacheprovider",
               "-q", *extra_args]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    say = echo or (lambda text: print(text))
    output = done.stdout + done.stderr
    for secret in recording.secrets.values():
        if secret:
            output = output.replace(secret, "***")
    say(output.rstrip())
    verdict = "passed" if done.returncode == 0 else f"failed (pytest exit {done.returncode})"
    say(f"pacts record --verify: {path} {verdict} in {time.monotonic() - started:.1f} s")
    return done.returncode


__all__ = [
    "EvidenceRule",
    "RequirementFileError",
    "Written",
    "headed_by_default",
    "import_recording",
    "record",
    "recording_page",
    "verify",
    "write_checked",
]
