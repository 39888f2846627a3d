"""Never hang, survive a dead browser (issue 11 items 1 and 2): real pytest sessions whose
pages hang (served over HTTP from 127.0.0.1) or whose browser process is killed."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator

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


@pytest.fixture
def server() -> Iterator[str]:
    with serve(PAGES) as url:
        yield url


def _requirement(req_id: str, url: str, *steps: str) -> str:
    rows = "\n".join(f"  - {s}" for s in steps)
    return f"req_id: {req_id}\nurl: {url}\nsteps:\n{rows}\n"


def _runs(pytester: pytest.Pytester) -> list[tuple[str, str, str | None]]:
    with sqlite3.connect(pytester.path / "store.db") as db:
        return sorted(db.execute("SELECT req_id, status, verdict FROM runs").fetchall())


def test_a_click_handler_that_hangs_fails_and_the_next_requirement_runs(
    pytester: pytest.Pytester, server: str
) -> None:
    pytester.makefile(
        ".req.yaml",
        a_hang=_requirement("REQ-HANG", f"{server}/hang", "Go | click | | text_visible:Done"),
        b_ok=_requirement("REQ-OK", f"{server}/ok", "Save | click | | text_visible:Saved"),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    started = time.monotonic()
    result = pytester.runpytest_subprocess("-q", "--pacts-step-timeout", "2", timeout=240)
    took = time.monotonic() - started
    result.assert_outcomes(passed=1, failed=1)  # no teardown error
    text = result.stdout.str()
    assert "the page stopped responding: its main thread is busy" in text, text
    assert "got no answer within" in text, text
    assert _runs(pytester) == [
        ("REQ-HANG", "finished", "fail"),
        ("REQ-OK", "finished", "pass"),
    ]
    assert took < 120, took


def test_a_page_that_hangs_after_load_stops_discovery_not_the_session(
    pytester: pytest.Pytester, server: str
) -> None:
    pytester.makefile(
        ".req.yaml",
        a_hang=_requirement("REQ-HANG", f"{server}/hang-after-load", "Go | click"),
        b_ok=_requirement("REQ-OK", f"{server}/ok", "Save | click | | text_visible:Saved"),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    result = pytester.runpytest_subprocess("-q", "--pacts-step-timeout", "2", timeout=240)
    text = result.stdout.str()
    assert "discovery gave up: the page stopped responding" in text, text
    line = next(x for x in result.outlines if "discovery gave up" in x)
    assert "a_hang.req.yaml" in line, line  # located on the requirement's file and row
    # discovery gives up with the run's own patience: the 2 s step timeout + the 2 s margin
    # (the time it waited, measured: 4.1 s on a loaded machine)
    assert re.search(r"got no answer within 4\.[0-4] s", line), line
    result.assert_outcomes(passed=1, failed=1)
    assert "the page stopped responding" in text
    assert [r[1] for r in _runs(pytester)] == ["finished", "finished"]


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
