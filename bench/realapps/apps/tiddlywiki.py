"""TiddlyWiki: a single-page wiki (every page a "tiddler" in one story river, drawn in the
browser; the Node.js server of npm's ``tiddlywiki`` package keeps them in files), serving a
small team handbook.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 5.1.23 shows, and committed before any engine run on it. Both versions are npm's
``tiddlywiki`` package, installed into the cache folder with ``npm install``; the drift is
the core's own UI between 5.1 and 5.4 (the edit toolbar's buttons re-rendered, their
accessible names changed, the sidebar and the tiddler frame re-laid out).

Every start makes a fresh wiki folder (``--init server``) in the work folder, copies the
handbook's tiddlers into it and serves it with ``--listen`` on 127.0.0.1; edits made by the
flows are saved by the server into that folder only.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_npm, free_port, serve

VERSIONS = ("5.1.23", "5.4.1")

# (title, tags, text, day of March 2024): the handbook, created on consecutive days so the
# "Recent" tab lists them in a known order
HANDBOOK: tuple[tuple[str, str, str, int], ...] = (
    ("Welcome", "Start", "Welcome to the Harbor team handbook. Start with the "
     "[[Onboarding checklist]], then read the [[Release process]].", 1),
    ("Onboarding checklist", "Process", "# Get a laptop from the front desk\n"
     "# Ask for an account on the build server\n# Read the [[Release process]]", 2),
    ("Release process", "Process", "Releases go out on Tuesdays. Tag the build, write the "
     "notes, and post them in the team channel.", 3),
    ("Coffee machine", "Office", "The coffee machine on the third floor needs descaling "
     "every Friday.", 4),
    ("Holiday calendar", "Office", "The office is closed on the first Monday of August.", 5),
    ("On-call rota", "Process", "Alice covers the first week of the month, Bob the second.", 6),
)  # fmt: skip

SYSTEM = {
    "$:/SiteTitle": "Harbor Handbook",
    "$:/SiteSubtitle": "How the Harbor team works",
    "$:/DefaultTiddlers": "[[Welcome]]",
}


def _install(version: str) -> Path:
    """``<cache>/tiddlywiki-<version>`` with npm's ``tiddlywiki@<version>`` (made once; a
    lock serialises concurrent runs, the stamp is written last)."""
    return ensure_npm(
        f"tiddlywiki-{version}",
        f"tiddlywiki@{version}",
        "node_modules/.bin/tiddlywiki",
        timeout=600,
    )


def _tid(title: str, fields: dict[str, str], text: str) -> str:
    head = "".join(f"{k}: {v}\n" for k, v in {"title": title, **fields}.items())
    return f"{head}\n{text}\n"


def seed(wiki: Path) -> None:
    """The handbook's tiddlers, as ``.tid`` files of the wiki folder."""
    tiddlers = wiki / "tiddlers"
    tiddlers.mkdir(parents=True, exist_ok=True)
    for n, (title, tags, text, day) in enumerate(HANDBOOK):
        stamp = f"202403{day:02d}100000000"
        fields = {"tags": tags, "created": stamp, "modified": stamp}
        (tiddlers / f"handbook-{n}.tid").write_text(_tid(title, fields, text))
    for n, (title, text) in enumerate(SYSTEM.items()):
        (tiddlers / f"system-{n}.tid").write_text(_tid(title, {}, text))


def _start(version: str, workdir: Path) -> Served:
    binary = _install(version) / "node_modules" / ".bin" / "tiddlywiki"
    wiki = workdir / "wiki"
    subprocess.run(
        [str(binary), str(wiki), "--init", "server"], check=True, timeout=120, capture_output=True
    )
    seed(wiki)
    port = free_port()
    argv = [str(binary), str(wiki), "--listen", "host=127.0.0.1", f"port={port}"]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=60)


APP = AppSpec(
    name="tiddlywiki",
    kind="single-page wiki (TiddlyWiki on its Node.js server)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
