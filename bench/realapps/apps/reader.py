"""reader: a feed reader (the web app of PyPI's ``reader`` package: the entries of the feeds
one follows, filtered by read, important or feed, each with "read", "important" and "don't
care" buttons; a feed list where each feed is renamed, tagged, updated or stopped; a preview
of a feed before subscribing to it; an entry's own page; entries added by hand).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.3 shows, and committed before any engine run on it. Both versions are PyPI's ``reader``
with its ``app`` and ``cli`` extras (Flask, SQLite); the drift between them is the app's own:
the entries' "important" filter becomes "yes or not set / yes / no / all" (was "yes / no /
don't care"), an important entry's "unimportant" button becomes "clear important" beside
"don't care", a feed page gains "archive all", the top bar gains a "v2" link (the app's next
interface) and an entry's page a "Links:" line.

reader 3.0 to 3.2 do not import on Python 3.11 (a dataclass field's mutable default), so 3.3
is the oldest version taken. The vendored feedparser of both versions imports ``sgmllib``,
which nothing they declare provides on Python 3, so ``sgmllib3k`` is pinned beside them.
Its ``serve`` command takes ``-h 127.0.0.1``. The feeds are local files in the
work folder (``--feed-root``), so updating a feed reads no network.

Every start writes the feed files and a fresh SQLite database into the work folder and seeds
it with reader's own API (``make_reader``, ``add_feed``, ``update_feeds``): "Heron Watch"
(birds.xml: "Herons back at the weir", "Kingfisher on the footbridge") and "Allotment Diary"
(garden.xml: "Garlic planted for winter", "Leeks earthed up"); a third file, owls.xml ("Owl
Hours"), lies in the folder unsubscribed, for the flow that subscribes to it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.3", "3.20")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "3.3": (
        "reader[app,cli]==3.3",
        "sgmllib3k==1.0.0",
        "beautifulsoup4==4.15.0",
        "blinker==1.9.0",
        "certifi==2026.10.19.post1",
        "charset-normalizer==3.5.3",
        "click==8.5.1",
        "feedparser==6.0.14",
        "Flask==3.1.3",
        "humanize==4.17.0",
        "idna==3.20",
        "iso8601==2.1.0",
        "itsdangerous==2.2.0",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "PyYAML==6.0.4",
        "requests==2.34.2",
        "soupsieve==4.1.3",
        "typing_extensions==4.16.0",
        "urllib3==2.8.0",
        "Werkzeug==3.1.9",
    ),
    "3.20": (
        "reader[app,cli]==3.20",
        "sgmllib3k==1.0.0",
        "beautifulsoup4==4.15.0",
        "blinker==1.9.0",
        "certifi==2026.10.19.post1",
        "charset-normalizer==3.5.3",
        "click==8.5.1",
        "feedparser==6.0.14",
        "Flask==3.1.3",
        "humanize==4.17.0",
        "idna==3.20",
        "iso8601==2.1.0",
        "itsdangerous==2.2.0",
        "Jinja2==3.1.6",
        "jinja2_fragments==1.12.0",
        "MarkupSafe==3.0.4",
        "PyYAML==6.0.4",
        "requests==2.34.2",
        "soupsieve==4.1.3",
        "typing_extensions==4.16.0",
        "urllib3==2.8.0",
        "Werkzeug==3.1.9",
        "WTForms==3.3.2",
    ),
}


def _rss(title: str, site: str, about: str, items: list[tuple[str, str, str, str]]) -> str:
    entries = "".join(
        f"<item><title>{t}</title><link>{site}{slug}</link><guid>{slug}</guid>"
        f"<pubDate>{date}</pubDate><description>{text}</description></item>\n"
        for t, slug, date, text in items
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>\n'
        f"<title>{title}</title><link>{site}</link><description>{about}</description>\n"
        f"{entries}</channel></rss>\n"
    )


FEEDS: dict[str, str] = {
    "birds.xml": _rss(
        "Heron Watch",
        "https://birds.example.org/",
        "Notes from the river",
        [
            (
                "Herons back at the weir",
                "weir",
                "Mon, 02 Nov 2026 08:00:00 GMT",
                "Three grey herons fishing below the weir at dawn.",
            ),
            (
                "Kingfisher on the footbridge",
                "kingfisher",
                "Tue, 03 Nov 2026 08:00:00 GMT",
                "A flash of blue from the footbridge rail.",
            ),
        ],
    ),
    "garden.xml": _rss(
        "Allotment Diary",
        "https://garden.example.org/",
        "Plot 14 through the seasons",
        [
            (
                "Garlic planted for winter",
                "garlic",
                "Wed, 04 Nov 2026 08:00:00 GMT",
                "Twenty cloves in the raised bed.",
            ),
            (
                "Leeks earthed up",
                "leeks",
                "Thu, 05 Nov 2026 08:00:00 GMT",
                "Soil drawn up round the stems to blanch them.",
            ),
        ],
    ),
    "owls.xml": _rss(
        "Owl Hours",
        "https://owls.example.org/",
        "Night walks",
        [
            (
                "Tawny owl calling",
                "tawny",
                "Fri, 06 Nov 2026 22:00:00 GMT",
                "Two calls from the churchyard yews.",
            ),
            (
                "Barn owl over the meadow",
                "barn",
                "Sat, 07 Nov 2026 21:00:00 GMT",
                "Quartering the long grass at dusk.",
            ),
        ],
    ),
}

# Run with the app's own Python: seeds the database given as the first argument from the feed
# files in the folder given as the second (the feed root).
SEED = """
import sys

from reader import make_reader

reader = make_reader(sys.argv[1], feed_root=sys.argv[2])
for name in ("birds.xml", "garden.xml"):
    reader.add_feed(name)
reader.update_feeds()
assert len(list(reader.get_entries())) == 4
"""


def _install(version: str) -> Path:
    return ensure_venv(f"reader-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    for name, text in FEEDS.items():
        (workdir / name).write_text(text)
    db = workdir / "reader.sqlite"
    seed = workdir / "seed.py"
    seed.write_text(SEED)
    env = {**os.environ, "HOME": str(workdir), "XDG_CONFIG_HOME": str(workdir)}
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, str(seed), str(db), str(workdir)],
        cwd=workdir,
        env=env,
        check=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    port = free_port()
    argv = [
        python,
        "-m",
        "reader",
        "--db",
        str(db),
        "--feed-root",
        str(workdir),
        "serve",
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
    ]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, env=env, timeout_s=120)


APP = AppSpec(
    name="reader",
    kind="feed reader (entries by read/important/feed, feeds renamed, tagged, subscribed)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
