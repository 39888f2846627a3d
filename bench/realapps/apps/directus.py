"""Directus: a headless CMS whose Data Studio is a Vue single-page app over a Node server, the
content and its schema in SQLite. A bakery keeps its recipes in it: the module bar (icons:
content, user directory, files, insights, settings), the Content module's navigation (the
collections "Recipes" and "Suppliers"), a collection's page (a table whose column headers open
a sort menu, a header whose magnifier opens "Search Items..."), an item's form (its fields named
by the words above them, a drop-down "Category", a checkbox "No animal products"), the "User
Directory" (a card per user, the roles in its navigation), the settings' "Data Model" and
"Access Control".

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 10.13.4 shows, and committed before any engine run on it. Both versions are npm's
``directus`` package (the server with the built app inside), installed by
``_node.locked_install`` from the lock file npm wrote when the corpus entry was made
(``directus_locks/<version>.json``). Scripts are off (the native modules' install scripts would
download prebuilt binaries from outside the registry); the two native modules the server loads
are then built from their source: ``sqlite3`` 5.1.7 (both versions) and
``isolated-vm`` (4.7.2 and 5.0.1, the extensions' sandbox, loaded at every start); ``argon2``
and ``sharp`` come with their binaries inside npm packages. 11.3.5 is the newest release that
runs on Node 20 (11.4 asks for Node 22). The drift is the app's own: 11 replaced the settings'
"Access Control" (the roles) by "User Roles" and "Access Policies", and lists a role in the
User Directory's navigation without a link; the content pages look the same to a person.

Every start uses a fresh work folder (the SQLite file, uploads and extensions there), runs
``directus bootstrap`` (the schema, the admin from ``ADMIN_EMAIL``/``ADMIN_PASSWORD``; its
address must pass Directus's e-mail check, which refuses a ``.test`` domain), then
``directus start`` on 127.0.0.1 at a free port, telemetry off (``TELEMETRY``), its pressure
limiter off (``PRESSURE_LIMITER_ENABLED``: on by default, it answers 503 while the server's
event loop lags 500 ms, which a loaded machine makes happen: the seeding's sign-in got 503
under ``strace`` at load 48), with a preload
that resolves loopback names only (``_node.LOOPBACK_DNS``), an old session kept valid for an
hour after it was refreshed (``SESSION_REFRESH_GRACE_PERIOD``: the app refreshes its session
cookie at every page load and Directus replaces it, keeping the old one 10 s by default, but
every flow with ``auth:`` starts from the one session its auth profile saved), and seeds
through Directus's own REST API: the collections "Recipes" (8 items: a name, a category of
"Bread", "Cake" or "Pastry", minutes, "Vegan", a status; the archived one not listed) and
"Suppliers" (5 items).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from realapps.apps._node import SQLITE3_BINARY, call_json, locked_install, loopback_preload
from realapps.harness import AppSpec, Served, free_port, serve

VERSIONS = ("10.13.4", "11.3.5")
LOCKS = Path(__file__).resolve().parent / "directus_locks"
USER, PASSWORD = "baker@example.com", "Bakery-2024!"
ISOLATED_VM = "node_modules/isolated-vm/out/isolated_vm.node"

# (name, category, minutes, vegan, status), in this order (the list shows them so)
RECIPES: tuple[tuple[str, str, int, bool, str], ...] = (
    ("Sourdough loaf", "Bread", 240, True, "published"),
    ("Rye bread", "Bread", 180, True, "published"),
    ("Lemon drizzle cake", "Cake", 75, False, "published"),
    ("Carrot cake", "Cake", 90, False, "draft"),
    ("Almond croissant", "Pastry", 150, False, "published"),
    ("Cinnamon bun", "Pastry", 120, False, "draft"),
    ("Olive focaccia", "Bread", 200, True, "published"),
    ("Chocolate brownie", "Cake", 45, False, "archived"),
)
# (supplier, city, phone)
SUPPLIERS: tuple[tuple[str, str, str], ...] = (
    ("Mill & Stone Flour", "Leeds", "0113 496 0001"),
    ("Orchard Fruit Co", "Hereford", "01432 496 002"),
    ("Cocoa Traders", "Bristol", "0117 496 0003"),
    ("Dairy Lane", "Taunton", "01823 496 004"),
    ("Spice Route", "London", "020 7946 0005"),
)


def _install(version: str) -> Path:
    """``<cache>/directus-<version>``: ``npm ci --ignore-scripts`` from the committed lock
    file, then ``sqlite3`` and ``isolated-vm`` built from source (``_node.locked_install``)."""
    package = {
        "name": f"d{version.split('.')[0]}",
        "private": True,
        "dependencies": {"directus": version, "sqlite3": "5.1.7"},
    }
    return locked_install(
        f"directus-{version}", package, LOCKS / f"{version}.json", (SQLITE3_BINARY, ISOLATED_VM),
        native=(("sqlite3", 1800), ("isolated-vm", 2400)),
    )  # fmt: skip


def _call(base_url: str, method: str, path: str, body: object, token: str = "") -> object:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return call_json(base_url, method, path, body, auth)


def _field(name: str, kind: str, interface: str, **meta: object) -> dict[str, object]:
    return {"field": name, "type": kind, "meta": {"interface": interface, **meta}, "schema": {}}


def _pk() -> dict[str, object]:
    return {
        "field": "id",
        "type": "integer",
        "meta": {"hidden": True, "interface": "input", "readonly": True},
        "schema": {"is_primary_key": True, "has_auto_increment": True},
    }


def seed(base_url: str) -> None:
    """Sign in as the admin, then the two collections, their fields and their items, through
    Directus's REST API (``/auth/login``, ``/collections``, ``/items/{collection}``: the same
    on both versions)."""
    login = _call(base_url, "POST", "auth/login", {"email": USER, "password": PASSWORD})
    token = str(login["data"]["access_token"])  # type: ignore[index]
    choices = [{"text": c, "value": c} for c in ("Bread", "Cake", "Pastry")]
    statuses = [
        {"text": "Published", "value": "published"},
        {"text": "Draft", "value": "draft"},
        {"text": "Archived", "value": "archived"},
    ]
    _call(base_url, "POST", "collections", {
        "collection": "recipes",
        "meta": {"icon": "bakery_dining", "note": "What the bakery bakes",
                 "display_template": "{{name}}", "sort": 1,
                 "archive_field": "status", "archive_value": "archived",
                 "unarchive_value": "draft"},
        "schema": {},
        "fields": [
            _pk(),
            _field("status", "string", "select-dropdown", width="full", sort=1,
                   options={"choices": statuses}, display="labels"),
            _field("name", "string", "input", width="full", sort=2, required=True),
            _field("category", "string", "select-dropdown", width="half", sort=3,
                   options={"choices": choices}),
            _field("minutes", "integer", "input", width="half", sort=4,
                   note="Time from start to finish"),
            _field("vegan", "boolean", "boolean", width="half", sort=5,
                   options={"label": "No animal products"}),
        ],
    }, token)  # fmt: skip
    items = [{"name": n, "category": c, "minutes": m, "vegan": v, "status": s}
             for n, c, m, v, s in RECIPES]  # fmt: skip
    _call(base_url, "POST", "items/recipes", items, token)
    _call(base_url, "POST", "collections", {
        "collection": "suppliers",
        "meta": {"icon": "local_shipping", "display_template": "{{name}}", "sort": 2},
        "schema": {},
        "fields": [
            _pk(),
            _field("name", "string", "input", width="full", sort=1),
            _field("city", "string", "input", width="half", sort=2),
            _field("phone", "string", "input", width="half", sort=3),
        ],
    }, token)  # fmt: skip
    items = [{"name": n, "city": c, "phone": p} for n, c, p in SUPPLIERS]
    _call(base_url, "POST", "items/suppliers", items, token)


def _env(workdir: Path, port: int) -> dict[str, str]:
    return {
        "HOST": "127.0.0.1", "PORT": str(port), "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "KEY": "pacts-corpus-directus-key", "SECRET": "pacts-corpus-directus-secret",
        "DB_CLIENT": "sqlite3", "DB_FILENAME": str(workdir / "directus.db"),
        "ADMIN_EMAIL": USER, "ADMIN_PASSWORD": PASSWORD,
        "TELEMETRY": "false", "CACHE_ENABLED": "false", "RATE_LIMITER_ENABLED": "false",
        "STORAGE_LOCATIONS": "local", "STORAGE_LOCAL_ROOT": str(workdir / "uploads"),
        "EXTENSIONS_PATH": str(workdir / "extensions"), "LOG_LEVEL": "warn",
        "SESSION_REFRESH_GRACE_PERIOD": "1h", "PRESSURE_LIMITER_ENABLED": "false",
        "HOME": str(workdir), "PATH": os.environ.get("PATH", ""),
    }  # fmt: skip


def _start(version: str, workdir: Path) -> Served:
    folder = _install(version)
    port = free_port()
    env = _env(workdir, port)
    (workdir / "uploads").mkdir()
    (workdir / "extensions").mkdir()
    preload = loopback_preload(workdir)
    cli = str(folder / "node_modules/directus/cli.js")
    started = time.monotonic()
    subprocess.run(
        ["node", "--require", str(preload), cli, "bootstrap"],
        cwd=workdir, env=env, check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    argv = ["node", "--require", str(preload), cli, "start"]
    left = max(60.0, 300.0 - (time.monotonic() - started))
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="server/health",
                 env=env, timeout_s=left, then=seed)  # fmt: skip


APP = AppSpec(
    name="directus",
    kind="headless CMS (Directus Data Studio, Vue single-page app): collections in a "
    "navigation, an item list with search, filter and layout options, an item form, the user "
    "directory, the data model settings",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_DIRECTUS_USER": USER, "PACTS_DIRECTUS_PASSWORD": PASSWORD},
)
