"""pinnwand: a pastebin (paste code or text, pick its language and how long it is kept, add
more files to one paste, share the link; the paste's page shows the highlighted code with
its raw and download links, "Repaste" and, for whoever made it, "Remove now").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.1.3 shows, and committed before any engine run on it. Both versions are PyPI's
``pinnwand`` package (Tornado, SQLAlchemy, SQLite); the drift between them is the app's own:
the expiry select's options "Expiry (1 day)" / "1 week" become "Expiry (1day)" / "Expiry
(1week)", the create page gains a "Drop files or click here to upload files" zone, a file's
links "raw or download" gain "copy" (a button) and "hex", the paste's "Repaste this paste"
becomes "Repaste, or download this paste", and a file's line numbers become links.

1.1.3 lists every Pygments lexer by its first alias and fails on a lexer that has none
(Pygments 2.7 added one), so its Pygments is pinned to 2.6.1. ``pinnwand http`` listens on
every interface; the launcher written into the work folder binds Tornado to 127.0.0.1.

Every start makes a fresh SQLite database in the work folder and seeds it with pinnwand's own
models (as its ``add`` command does, with fixed slugs so that the flows can open it): a paste
"BIRDWATCH" of two files, ``tally.py`` (Python) and ``notes.txt`` (text), kept 30 days.
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.1.3", "1.5.0")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "1.1.3": (
        "pinnwand==1.1.3",
        "click==7.1.2",
        "docutils==0.16",
        "Pygments==2.6.1",
        "pygments-better-html==0.1.4",
        "SQLAlchemy==1.4.54",
        "greenlet==3.5.6",
        "toml==0.10.2",
        "tornado==6.6.1",
    ),
    "1.5.0": (
        "pinnwand==1.5.0",
        "click==8.5.1",
        "docutils==0.23",
        "Pygments==2.21.0",
        "pygments-better-html==0.1.6",
        "SQLAlchemy==2.1.9",
        "token-bucket==0.4.0",
        "tomli==2.5.0",
        "tornado==6.6.1",
        "typing_extensions==4.16.0",
    ),
}

TALLY = '''"""Count the birds seen on a walk."""

from collections import Counter


def tally(sightings):
    counts = Counter(sightings)
    return counts.most_common()


print(tally(["robin", "wren", "robin", "heron"]))
'''

NOTES = "Walk of 14 November: river path, two hours.\nBring the binoculars next time.\n"

# Run with the app's own Python: reads the configuration, seeds the paste, then runs
# ``pinnwand --configuration-path CFG http --port PORT`` with Tornado bound to 127.0.0.1.
LAUNCHER = """
import datetime, inspect, sys

import tornado.web

_listen = tornado.web.Application.listen


def _loopback(self, port, address="", **kwargs):
    return _listen(self, port, address="127.0.0.1", **kwargs)


tornado.web.Application.listen = _loopback

config_path, tally, notes = sys.argv[1], sys.argv[2], sys.argv[3]
from pinnwand import configuration

for line in open(config_path):
    key, _, value = line.partition("=")
    setattr(configuration, key.strip(), value.strip().strip('"'))

from pinnwand import database

database.Base.metadata.create_all(database._engine)
default = inspect.signature(database.Paste.__init__).parameters["expiry"].default
expiry = datetime.timedelta(days=30)
if isinstance(default, int):
    expiry = int(expiry.total_seconds())
with database.session() as session:
    paste = database.Paste("BIRDWATCH", expiry=expiry, src="web")
    paste.removal = "BIRDWATCHREMOVE"
    paste.files.append(database.File("BIRDWATCHPY", open(tally).read(), "python", "tally.py"))
    paste.files.append(database.File("BIRDWATCHTXT", open(notes).read(), "text", "notes.txt"))
    session.add(paste)
    session.commit()

from pinnwand.command import main

sys.argv = ["pinnwand", "--configuration-path", config_path, "http", "--port", sys.argv[4]]
main()
"""


def _install(version: str) -> Path:
    return ensure_venv(f"pinnwand-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    config = workdir / "pinnwand.toml"
    config.write_text(f'database_uri = "sqlite:///{workdir / "pinnwand.db"}"\n')
    (workdir / "tally.py").write_text(TALLY)
    (workdir / "notes.txt").write_text(NOTES)
    launcher = workdir / "launch.py"
    launcher.write_text(LAUNCHER)
    port = free_port()
    argv = [
        str(venv / "bin" / "python"),
        str(launcher),
        str(config),
        str(workdir / "tally.py"),
        str(workdir / "notes.txt"),
        str(port),
    ]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=120)


APP = AppSpec(
    name="pinnwand",
    kind="pastebin (pinnwand: paste code, pick its language and expiry, share, remove)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
