"""The corpus split: which apps the engine may be tuned on, and which it never is.

The *dev* apps are the ones engine fixes were made for (each corpus failure that led to a
rule). The *held-out* apps are measured and never tuned on: their flows, truth files and
app modules were committed before any engine change was made for them, and were run once
for a "before" figure. When a held-out failure leads to an engine fix, that app moves to
``DEV`` in the same commit as the fix, and a new app (committed, run once, before any change
for it) takes its place in ``HELDOUT``, so the held-out figure always comes from apps no fix
was made for (docs/real-apps.md, "Held-out split").

The lists are frozen on purpose: an app's split changes only by editing this file, with the
reason in the commit message. Every app module in ``apps/`` must be declared in one of them
(``tests/realapps/test_split.py``); a declared app whose module is absent on this branch is
reported as missing, not an error (another branch may be adding it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

DEV: tuple[str, ...] = (
    "datasette",
    "django_admin",
    "flask_admin",
    "mlflow",
    "wagtail",
    "dokuwiki",
    "django_oscar",
    "sqladmin",
    "tiddlywiki",
    "jupyter",
    "roundup",
    "node_red",
    "fava",
    "radicale",
    "ihatemoney",
    "sqlite_web",
    "swagger_ui",
    "lektor",
    "reader",
    "pinnwand",
    "doccano",
    "jotter",
    "changedetection",
    "octoprint",
    "otterwiki",
    "calibreweb",
    "appbuilder",
    "marimo",
    "maildev",
    "verdaccio",
    "locust",
    "mitmweb",
    "kiwitcms",
    "prefect",
    "tensorboard",
    "pgadmin",
    "dagster",
    "archivebox",
    "gradio",
    "buildbot",
    "piccolo_admin",
    "flower",
    "kedro_viz",
    "reviewboard",
    "nocodb",
    "directus",
    "pretalx",
    "ghost",
    "djangocms",
    "vendure",
    "helpdesk",
)
HELDOUT: tuple[str, ...] = ("kinto", "buku", "pretix", "trac", "homebridge")

SPLITS: tuple[str, ...] = ("dev", "heldout")

#: app name -> "dev" or "heldout"
SPLIT: Mapping[str, str] = MappingProxyType(
    {**dict.fromkeys(DEV, "dev"), **dict.fromkeys(HELDOUT, "heldout")}
)

APPS_DIR = Path(__file__).resolve().parent / "apps"


def split_of(app: str) -> str:
    """``"dev"``, ``"heldout"``, or ``"undeclared"`` for an app in neither list."""
    return SPLIT.get(app, "undeclared")


def declared(split: str) -> tuple[str, ...]:
    """The apps of ``split`` (``dev``, ``heldout`` or ``all``), in the order declared."""
    if split == "all":
        return DEV + HELDOUT
    if split == "dev":
        return DEV
    if split == "heldout":
        return HELDOUT
    raise ValueError(f"unknown split {split!r}: use dev, heldout or all")


def present(apps_dir: Path = APPS_DIR) -> tuple[str, ...]:
    """The app modules on this branch (``apps/<name>.py``; module name = app name)."""
    return tuple(sorted(p.stem for p in apps_dir.glob("*.py") if not p.name.startswith("_")))


def undeclared(names: Iterable[str]) -> tuple[str, ...]:
    """Of ``names``, those in neither list (a new app must be declared before it is run)."""
    return tuple(n for n in names if n not in SPLIT)


def select(
    split: str, apps: Iterable[str] | None, available: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The apps to run and the declared ones that are missing on this branch.

    ``apps`` (``--apps``), when given, is taken as is, restricted to ``split`` unless the
    split is ``all``; else every declared app of the split. An app name without a module
    in ``available`` is returned in the second tuple, never run.
    """
    have = set(available)
    wanted = declared(split) if apps is None else tuple(apps)
    if apps is not None and split != "all":
        wanted = tuple(a for a in wanted if split_of(a) == split)
    run = tuple(a for a in wanted if a in have)
    missing = tuple(a for a in wanted if a not in have)
    return run, missing
