"""Never hang, survive a dead browser (issue 11 items 1 and 2): real pytest sessions whose
pages hang (served over HTTP from 127.0.0.1) or whose browser process is killed."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator

import pytest

from tests.loopback import serve

PAGES = {
    "/hang": "<title>Hang</title><button onclick='while (true) {}'>Go</button><p hidden>Done</p>",
    "/hang-after-load": (
        "<title>Hang</title><script>addEventListener('load', () => "
        "setTimeout(() => { while (true) {} }, 0))</script><button>Go</button>"
    ),
    "/ok": (
        "<title>Fine</title><button onclick=\"document.querySelector('p').hidden = false\">"
        "Save</button><p hidden>Saved</p>"
    ),
}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve(PAGES) as url:
        yield url


def _requirement(req_id: str, url: str, *steps: str) -> str:
    rows = "\n".join(f"  - {s}" for s in steps)
    return f"req_id: {req_id}\nurl: {url}\nsteps:\n{rows}\n"


def _runs(pytester: pytest.Pytester) -> list[tuple[str, str, str | None]]:
    with sqlite3.connect(pytester.path / "store.db") as db:
        return sorted(db.execute("SELECT req_id, status, verdict FROM runs").fetchall())


def _failure(result: pytest.RunResult, req_id: str) -> str:
    """The failure section pytest printed for ``req_id``'s test."""
    text = result.stdout.str()
    parts = re.split(r"^_{3,} (\S+) _{3,}$", text, flags=re.M)
    found = [body for head, body in zip(parts[1::2], parts[2::2], strict=True) if head == req_id]
    assert len(found) == 1, text
    return re.split(r"^={3,} ", found[0], flags=re.M)[0]


@pytest.fixture(scope="module")
def hanging(
    module_pytester: Callable[[], pytest.Pytester], server: str
) -> tuple[pytest.Pytester, pytest.RunResult, float]:
    """One session with both kinds of hanging page and a page that works after them (a
    whole session with Chromium costs several seconds of CPU; each test below ran one, with
    one hanging page and the working one each): a click handler that never returns, and a
    page that hangs once loaded (discovery opens it first)."""
    pytester = module_pytester()
    pytester.makefile(
        ".req.yaml",
        a_hang=_requirement("REQ-HANG", f"{server}/hang", "Go | click | | text_visible:Done"),
        b_hang=_requirement("REQ-HANG-LOADED", f"{server}/hang-after-load", "Go | click"),
        c_ok=_requirement("REQ-OK", f"{server}/ok", "Save | click | | text_visible:Saved"),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    started = time.monotonic()
    result = pytester.runpytest_subprocess("-q", "--pacts-step-timeout", "2", timeout=240)
    return pytester, result, time.monotonic() - started


def test_a_click_handler_that_hangs_fails_and_the_next_requirement_runs(
    hanging: tuple[pytest.Pytester, pytest.RunResult, float],
) -> None:
    pytester, result, took = hanging
    result.assert_outcomes(passed=1, failed=2)  # no teardown error
    text = _failure(result, "REQ-HANG")
    assert "the page stopped responding: its main thread is busy" in text, text
    assert "got no answer within" in text, text
    assert _runs(pytester) == [
        ("REQ-HANG", "finished", "fail"),
        ("REQ-HANG-LOADED", "finished", "fail"),
        ("REQ-OK", "finished", "pass"),
    ]
    assert took < 120, took


def test_a_page_that_hangs_after_load_stops_discovery_not_the_session(
    hanging: tuple[pytest.Pytester, pytest.RunResult, float],
) -> None:
    pytester, result, _ = hanging
    text = result.stdout.str()
    assert "discovery gave up: the page stopped responding" in text, text
    (line,) = (x for x in result.outlines if "discovery gave up" in x)
    assert "b_hang.req.yaml" in line, line  # located on the requirement's file and row
    # discovery gives up with the run's own patience: the 2 s step timeout + the 2 s margin
    # + the 0.5 s grace after the deadline (the time it waited, measured: 4.5 s at load 7)
    assert re.search(r"got no answer within (4\.[5-9]|5\.[0-4]) s", line), line
    result.assert_outcomes(passed=1, failed=2)
    assert "the page stopped responding" in _failure(result, "REQ-HANG-LOADED")
    assert [r[1] for r in _runs(pytester)] == ["finished"] * 3


KILLER = """
import os
import signal

import pytest


def _descendants(pid):
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if parent == pid:
            out.append(int(entry))
            out.extend(_descendants(int(entry)))
    return out


def _browser_processes():
    found = []
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().decode(errors="replace")
        except OSError:
            continue
        if "chrom" in cmd and "--type=" not in cmd:
            found.append(pid)
    return found


@pytest.fixture(autouse=True)
def kill_the_browser(request, page):
    if "REQ-1" in request.node.name:
        for pid in _browser_processes():
            os.kill(pid, signal.SIGKILL)
    yield
"""


def test_a_killed_browser_is_replaced_for_the_next_requirements(
    pytester: pytest.Pytester, server: str
) -> None:
    pytester.makeconftest(KILLER)
    ok = ("Save | click | | text_visible:Saved",)
    pytester.makefile(
        ".req.yaml",
        a=_requirement("REQ-1", f"{server}/ok", *ok),
        b=_requirement("REQ-2", f"{server}/ok", *ok),
        c=_requirement("REQ-3", f"{server}/ok", *ok),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    result = pytester.runpytest_subprocess("-q", "--pacts-step-timeout", "3", timeout=240)
    text = result.stdout.str()
    result.assert_outcomes(passed=2, failed=1)  # no teardown error, no setup error
    assert "env_fault" in text, text
    assert _runs(pytester) == [
        ("REQ-1", "finished", "fail"),
        ("REQ-2", "finished", "pass"),
        ("REQ-3", "finished", "pass"),
    ]
