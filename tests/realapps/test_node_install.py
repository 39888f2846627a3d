"""The npm apps' install (bench/realapps/apps/_node.py): bounded, made once, one at a time.

A fake ``npm`` (a shell script first on ``PATH``) stands for npm: the real one would download
hundreds of packages and build for minutes. It does what the install asks of npm in the
folder (``ci`` lays out the packages, ``rebuild`` builds the native module) and notes every
call."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.apps import _node  # noqa: E402

MARKER = "node_modules/mod/built.node"


def _fake_npm(bin_dir: Path, rebuild: str) -> Path:
    """An ``npm`` in ``bin_dir`` whose ``rebuild`` runs the shell code ``rebuild``; the
    calls are noted in ``bin_dir/calls``."""
    bin_dir.mkdir(exist_ok=True)
    npm = bin_dir / "npm"
    npm.write_text(
        "#!/bin/sh\n"
        f'echo "$1" >> "{bin_dir}/calls"\n'
        'case "$1" in\n'
        "  ci) mkdir -p node_modules/mod ;;\n"
        f"  rebuild) {rebuild} ;;\n"
        "esac\n"
    )
    npm.chmod(0o755)
    return bin_dir / "calls"


def _install(tmp_path: Path, timeout_s: float) -> Path:
    lock_file = tmp_path / "lock.json"
    lock_file.write_text('{"lockfileVersion": 3, "packages": {}}\n')
    folder: Path = _node.locked_install("app-1.0", {"private": True}, lock_file, (MARKER,),
                                        native=(("mod", timeout_s),))  # fmt: skip
    return folder


def _gone(pid: int, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PACTS_REALAPPS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setattr(_node, "BUILD_TOOLS", ("npm",), raising=False)  # no compiler needed
    monkeypatch.setattr(_node, "node_headers", lambda: tmp_path, raising=False)
    return tmp_path / "cache"


def test_a_build_past_its_time_limit_is_stopped_with_all_it_started(
    tmp_path: Path, cache: Path
) -> None:
    """A native module's build is npm, then node-gyp, make and the compilers under it. Its
    time limit stopped npm alone (``subprocess.run``'s timeout kills the one process it
    started), and the build went on without it, on a machine shared by other runs. Past its
    limit the whole process group is stopped, and the install leaves no stamp (the next run
    makes it again)."""
    sleeper = tmp_path / "sleeper"
    calls = _fake_npm(tmp_path / "bin", f'sleep 60 & echo $! > "{sleeper}"; wait')
    started = time.monotonic()
    with pytest.raises((TimeoutError, subprocess.TimeoutExpired)):
        _install(tmp_path, timeout_s=0.5)
    assert time.monotonic() - started < 20
    assert _gone(int(sleeper.read_text()), within_s=5), "the build went on after its limit"
    assert calls.read_text().split() == ["ci", "rebuild"]
    assert not (cache / "app-1.0" / ".pacts-installed").exists()


def test_an_install_is_made_once_and_a_second_run_waits_for_the_first(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two corpus runs that start the same app at once must not lay out one folder over each
    other: the second waits on the lock, says so, and finds the folder made; a run after
    them calls npm no more."""
    calls = _fake_npm(tmp_path / "bin", f"sleep 0.3; touch {MARKER}")
    first: list[Path] = []
    worker = threading.Thread(target=lambda: first.append(_install(tmp_path, 30)))
    worker.start()
    deadline = time.monotonic() + 10
    while not (calls.exists() and calls.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)  # the first holds the lock: npm has been called
    second = _install(tmp_path, 30)
    worker.join(timeout=30)
    assert first == [second] == [cache / "app-1.0"]
    assert (second / MARKER).exists() and (second / ".pacts-installed").exists()
    assert "another run is installing it; waiting" in capsys.readouterr().err
    assert _install(tmp_path, 30) == second
    assert calls.read_text().split() == ["ci", "rebuild"]  # once, for all three
