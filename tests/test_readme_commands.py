"""The commands the README, the demo and ``pacts init`` print work as written (issue 39:
``pacts heals list`` from the repository root said "no store", and ``pacts`` was "command
not found" until the virtual environment was activated).

The README's follow-up commands run verbatim, from a folder laid out as the repository root
after the demo (``.venv/bin/pacts``, the demo's store under ``sample_requirements/``), and
``pacts init --demo``'s "next:" line runs verbatim with the environment activated (its
``bin`` first on ``PATH``, as ``. .venv/bin/activate`` does)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from pytest_pacts.store import open_store
from tests.reports.helpers import NEW, stored_proposal

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^(\.venv/bin/pacts .+)$", text, flags=re.MULTILINE)


def _demo_prints() -> list[str]:
    script = (ROOT / "scripts" / "demo.sh").read_text(encoding="utf-8")
    store = re.search(r"^STORE=(\S+)$", script, flags=re.MULTILINE)
    assert store is not None
    echoed = re.findall(r'^echo "\s*(\.venv/bin/pacts [^"]+)"$', script, flags=re.MULTILINE)
    return [line.replace("$STORE", store.group(1)) for line in echoed]


def _run(command: str, cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PACTS_", "PYTEST_"))}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip


def test_the_readme_follow_up_commands_run_as_written(tmp_path: Path) -> None:
    commands = _readme_commands()
    assert len(commands) >= 3 and any("heals list" in c for c in commands)
    # the demo prints the same commands at its end
    assert set(commands) <= set(_demo_prints()), (commands, _demo_prints())
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "pacts").symlink_to(BIN / "pacts")
    store = tmp_path / "sample_requirements" / ".pacts" / "pacts.db"
    store.parent.mkdir(parents=True)
    assert stored_proposal(store, "REQ-LOGIN-001", NEW) == "1"
    with open_store(store) as s:
        run = s.runs.begin("demo", "REQ-LOGIN-001", plan_hash="h")
        s.runs.finish(run.id, verdict="pass", healed=True, heal_count=1)
    said: dict[str, str] = {}
    for command in commands:
        if " serve " in command:
            continue  # a server: runs until stopped
        done = _run(command, tmp_path)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "no store" not in done.stdout + done.stderr, command
        said[command] = done.stdout
    assert "REQ-LOGIN-001" in said[commands[0]]  # the list the first command printed


def test_pacts_init_next_line_runs_as_written(tmp_path: Path) -> None:
    """With the environment activated, the line ``pacts init --demo`` prints runs as is:
    the scaffold's requirements validate and pass against the bundled demo app."""
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    done = _run("pacts init proj --demo", tmp_path, path)
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("next: ")]
    assert line == "next: cd proj && pacts plan requirements/ && pytest"
    ran = _run(line.removeprefix("next: "), tmp_path, path)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "passed" in ran.stdout and "failed" not in ran.stdout
