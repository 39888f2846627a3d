"""The suite's forked sessions (``tests/forked_sessions.py``) behave as fresh interpreters
for what the tests read of them: exit codes, stdout and stderr, the working folder, the
environment, ``sys.path``, stdin, timeouts; and they are really forked (else the suite
silently pays for fresh interpreters again)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import forked_sessions

PROBE = """
import json, os, sys
def test_probe():
    print("PROBE", json.dumps({
        "cwd": os.getcwd(), "var": os.environ.get("FORK_PROBE"), "path0": sys.path[0],
        "ppid": os.getppid(), "main": sys.modules["__main__"].__spec__.name,
    }))
"""


def _probe(result: pytest.RunResult) -> dict[str, object]:
    import json

    line = next(x for x in result.outlines if "PROBE {" in x)
    return dict(json.loads(line.partition("PROBE ")[2]))


def test_a_pytester_session_is_forked_and_sees_its_own_folder_and_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORK_PROBE", "here")
    pytester.makepyfile(test_probe=PROBE)
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    seen = _probe(result)
    assert seen["cwd"] == str(pytester.path)
    assert seen["var"] == "here"
    assert seen["path0"] == str(pytester.path)  # the folder first, as `python -m` puts it
    assert seen["main"] == "pytest.__main__"
    if os.environ.get("PACTS_TEST_FRESH_SESSIONS") == "1":  # turned off: a fresh one
        assert seen["ppid"] == os.getpid()
    else:  # a child of the server, not of this worker
        assert seen["ppid"] != os.getpid() and not forked_sessions._SERVER_OF_WORKER.broken


XDIST_PROBE = """
import json, os, sys
def _probe():
    worker = os.environ["PYTEST_XDIST_WORKER"]
    with open(f"probe-{worker}.json", "w") as out:
        json.dump({"ppid": os.getppid(), "cwd": os.getcwd(), "through": sys.stderr.write_through}, out)
def test_one():
    _probe()
def test_two():
    _probe()
"""


def test_the_xdist_workers_of_a_forked_session_are_forked_too(pytester: pytest.Pytester) -> None:
    """xdist starts each worker as ``python -u -c BOOTSTRAP`` over two pipes (execnet's
    ``popen`` gateway); in a forked session that interpreter is forked from the server as
    well (its imports done), else each worker pays for a fresh interpreter."""
    pytester.makeconftest(
        "import os\n"
        "def pytest_configure(config):\n"
        "    if not hasattr(config, 'workerinput'):\n"
        "        open('controller.pid', 'w').write(str(os.getpid()))\n"
    )
    pytester.makepyfile(test_probe=XDIST_PROBE)
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    import json

    probes = [json.loads(p.read_text()) for p in sorted(pytester.path.glob("probe-gw*.json"))]
    assert len(probes) == 2, probes  # both workers ran a test
    controller = int((pytester.path / "controller.pid").read_text())
    assert all(p["cwd"] == str(pytester.path) for p in probes)
    if os.environ.get("PACTS_TEST_FRESH_SESSIONS") == "1":  # turned off: fresh interpreters
        assert {p["ppid"] for p in probes} == {controller}
    else:  # children of the server, as the session itself is
        assert len({p["ppid"] for p in probes}) == 1
        assert probes[0]["ppid"] not in (controller, os.getpid())
    assert all(p["through"] for p in probes)  # -u: stderr written through


def test_exit_codes_stderr_and_stdin_bytes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_fail="""
        import sys
        def test_fail():
            sys.stderr.write("to stderr\\n")
            assert sys.stdin.read() == ""
            assert False
        """
    )
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "to stderr" in result.stderr.str()
    usage = pytester.runpytest_subprocess("--no-such-option")
    assert usage.ret == pytest.ExitCode.USAGE_ERROR
    assert "unrecognized arguments" in usage.stderr.str()


def test_subprocess_run_of_the_cli_captures_text_and_checks(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "usage: pacts" in done.stdout and done.stderr == ""
    with pytest.raises(subprocess.CalledProcessError) as failed:
        subprocess.run(
            [sys.executable, "-m", "pytest_pacts.cli", "no-such-command"],
            cwd=tmp_path,
            capture_output=True,
            check=True,
        )
    assert failed.value.returncode == 2 and isinstance(failed.value.stderr, bytes)


def test_a_session_past_its_timeout_is_killed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_slow="import time\ndef test_slow():\n    time.sleep(60)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_slow.py"],
            cwd=pytester.path,
            capture_output=True,
            timeout=3,
        )
