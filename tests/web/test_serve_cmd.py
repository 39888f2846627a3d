"""``pacts serve`` as a person runs it: a subprocess that prints its URL and token once,
answers on loopback, logs no secret, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from pytest_pacts.cli.main import main

from .conftest import Filled


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PACTS_")}


def test_serve_prints_url_and_token_once_and_stops_on_ctrl_c(
    filled: Filled, tmp_path: Path
) -> None:
    db = tmp_path / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest_pacts.cli",
            "serve",
            "--store",
            str(db),
            "--port",
            "0",
            "--project",
            str(filled.project),
            "--allowed-host",
            "pacts.example",
        ],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        for line in proc.stdout:  # the banner ends with the Ctrl-C line
            lines.append(line)
            if "Ctrl-C stops the server" in line:
                break
        banner = "".join(lines)
        url = re.search(r"at (http://127\.0\.0\.1:\d+/)", banner)
        token = re.search(r"'Authorization: Bearer <token>'\): (\S+)", banner)
        assert url and token, banner
        with httpx.Client(base_url=url.group(1), timeout=30) as client:
            assert client.get("/api/health").json()["status"] == "healthy"
            assert client.get("/", headers={"Host": "pacts.example"}).status_code == 200
            assert client.get("/", headers={"Host": "evil.example"}).status_code == 421
            assert client.post("/api/proposals/1/reject").status_code == 401
            done = client.post(
                "/api/proposals/1/reject", headers={"Authorization": f"Bearer {token.group(1)}"}
            )
            assert done.status_code == 200, done.text
            client.post("/login", data={"token": token.group(1)})
            assert client.get("/").status_code == 200
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = banner + rest
    assert proc.returncode == 0, output
    assert "pacts serve: stopped" in rest
    assert "Traceback" not in output
    assert output.count(token.group(1)) == 1, "the token is printed once and never logged"
    assert 'POST /login HTTP/1.1" 303' in rest  # the access log is on, without the token


def test_serve_refuses_a_missing_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answered before anything is served: in this process (the console script is the test
    above's), where a subprocess cost an interpreter importing the web stack."""
    for name in [k for k in os.environ if k.startswith("PACTS_")]:
        monkeypatch.delenv(name)
    capsys.readouterr()
    assert main(["serve", "--store", str(tmp_path / "no.db")]) == 3
    err = capsys.readouterr().err
    assert f"no store at {tmp_path / 'no.db'} (--store)" in err
    assert "Traceback" not in err
