"""Roundup: an issue tracker (server-rendered TAL templates, the "classic" tracker template),
served by Roundup's own WSGI handler under the standard library's ``wsgiref``, with a small
team tracker seeded through ``roundup-admin``.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.2.0 shows, and committed before any engine run on it. It took DokuWiki's place when
a fix was made for DokuWiki. Both versions are PyPI's ``roundup`` package; the drift between
them is Roundup's own classic template (2.6.0 drops the side menu's "Search" link, moves the
page title and restyles the layout).

``roundup-server`` refuses to run as root; the WSGI handler
(``roundup.cgi.wsgi_handler.RequestDispatcher``, Roundup's documented WSGI entry point)
serves the same pages without that check.
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, spawn, wait_http

VERSIONS = ("2.2.0", "2.6.0")

ADMIN = ("admin", "Harbor-Admin-2024")

SERVE_PY = textwrap.dedent(
    '''
    """Serve a Roundup tracker on 127.0.0.1 (written by bench/realapps/apps/roundup.py)."""
    import sys
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from roundup.cgi.wsgi_handler import RequestDispatcher


    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass


    home, port = sys.argv[1], int(sys.argv[2])
    app = RequestDispatcher(home)
    # one request at a time: the anydbm backend is not safe across threads
    make_server("127.0.0.1", port, app, handler_class=Quiet).serve_forever()
    '''
)

# (command arguments after ``roundup-admin -i <tracker>``), in order
SEED: tuple[tuple[str, ...], ...] = (
    ("create", "user", "username=alice", "password=Alice-Pass-2024",
     "address=alice@example.com", "realname=Alice Moreau", "roles=User"),
    ("create", "user", "username=bob", "password=Bob-Pass-2024",
     "address=bob@example.com", "realname=Bob Okafor", "roles=User"),
    ("create", "issue", "title=Login page times out on slow networks", "priority=bug",
     "status=unread"),
    ("create", "issue", "title=Export the report as CSV", "priority=feature",
     "status=chatting", "assignedto=alice"),
    ("create", "issue", "title=Typo on the pricing page", "priority=wish", "status=resolved"),
    ("create", "issue", "title=Crash when the upload is empty", "priority=urgent",
     "status=in-progress", "assignedto=bob"),
)  # fmt: skip


def _install(version: str) -> Path:
    # Roundup is an sdist whose setup.py writes its tracker templates under the installing
    # environment's prefix: a wheel pip cached while installing into another environment
    # would point there, so it is built afresh for this one
    return ensure_venv(f"roundup-{version}", ["--no-cache-dir", f"roundup=={version}"])


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    admin = str(venv / "bin" / "roundup-admin")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/"
    tracker = workdir / "tracker"
    # no login rate limit: every corpus run and the truth check sign in many times a minute
    settings = (
        f"tracker_web={base_url},mail_domain=example.com,tracker_name=Harbor Tracker,"
        "web_login_attempts_min=0"
    )
    run = {"check": True, "timeout": 120, "capture_output": True}
    subprocess.run([admin, "-i", str(tracker), "install", "classic", "anydbm", settings], **run)  # type: ignore[call-overload]
    subprocess.run([admin, "-i", str(tracker), "initialise", ADMIN[1]], **run)  # type: ignore[call-overload]
    for command in SEED:
        subprocess.run([admin, "-i", str(tracker), *command], **run)  # type: ignore[call-overload]
    (workdir / "serve.py").write_text(SERVE_PY)
    argv = [str(venv / "bin" / "python"), "serve.py", str(tracker), str(port)]
    proc, log = spawn(argv, cwd=workdir)
    wait_http(base_url, timeout_s=60, proc=proc)
    return Served(base_url=base_url, process=proc, workdir=workdir, log=log)


APP = AppSpec(
    name="roundup",
    kind="issue tracker (Roundup, server-rendered TAL templates)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_ROUNDUP_USER": ADMIN[0], "PACTS_ROUNDUP_PASSWORD": ADMIN[1]},
)
