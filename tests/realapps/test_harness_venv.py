"""The corpus harness's cached app environments (bench/realapps/harness.py)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import ensure_venv, venv_holds  # noqa: E402


def test_a_cached_environment_is_used_only_while_it_is_one_and_holds_its_pins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MLflow 2.22.5's cached environment served the 2.4.2 UI: its ``pyvenv.cfg`` had gone,
    so its Python was the base interpreter and imported the MLflow 2.4.2 installed there,
    while the build stamp still said "built". Python's venv module: without ``pyvenv.cfg``
    an interpreter is no virtual environment (``sys.prefix == sys.base_prefix``). A stamp is
    trusted only while the environment is one and its pins are installed at their versions;
    otherwise it is built again."""
    monkeypatch.setenv("PACTS_REALAPPS_CACHE", str(tmp_path))
    venv = tmp_path / "app-1.0"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    assert venv_holds(venv, [])
    assert not venv_holds(venv, ["not-installed-here==1.0"])
    assert not venv_holds(venv, [f"pytest=={pytest.__version__}"])  # the base's, not its own
    stamp = venv / (".pacts-" + hashlib.sha256(b"").hexdigest()[:16])
    stamp.touch()  # as a finished build leaves it
    assert ensure_venv("app-1.0", []) == venv  # a sound environment is not built again
    (venv / "pyvenv.cfg").unlink()
    assert not venv_holds(venv, [])
    calls: list[list[str]] = []

    def run(argv: list[str], **_kw: object) -> subprocess.CompletedProcess[bytes]:
        calls.append([str(a) for a in argv])
        if calls[-1][1:3] == ["-m", "venv"]:
            Path(calls[-1][3]).mkdir()
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr("realapps.harness.subprocess.run", run)
    ensure_venv("app-1.0", [])
    assert [c[1:3] for c in calls] == [["-m", "venv"], ["-m", "pip"]]  # built again


def test_an_app_that_fails_to_start_leaves_no_work_folder(tmp_path: Path) -> None:
    """``AppSpec.serve`` made a temporary work folder per start and removed it when the
    served app stopped, but not when the start itself failed (the server exited before
    answering, a seeding call failed): every failed start of a corpus run left a folder
    behind in the temporary directory. Its server log, which said why, goes with it, so the
    error carries the log's last lines. A real process that exits at once stands for the app."""
    from realapps.harness import AppSpec, Served, free_port, serve

    seen: list[Path] = []

    def start(version: str, workdir: Path) -> Served:
        seen.append(workdir)
        (workdir / "data.db").write_text("seeded")
        port = free_port()
        argv = [sys.executable, "-c", "raise SystemExit('no database here')"]
        return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=30)

    app = AppSpec(name="exits", kind="a server that exits at once", versions=("1.0",),
                  install=lambda version: tmp_path, start=start)  # fmt: skip
    with pytest.raises(RuntimeError, match="exited with 1") as failed, app.serve("1.0"):
        pass
    assert len(seen) == 1
    assert not seen[0].exists()
    assert "no database here" in "\n".join(failed.value.__notes__)  # the log went with it
