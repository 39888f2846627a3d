"""Verdaccio: a private npm registry with a web UI (a header with the registry's logo, a
search box "Search Packages" with suggestions, a "Login" button and icons with no name (help,
registry info, theme), a list of the packages published to it, each with its name, version,
author, description, license and keywords, and a package's page with tabs ("Readme",
"Dependencies", "Versions", "Uplinks") and a sidebar (install commands, latest version,
license, author, "Download tarball")).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 5.0.4 shows, and committed before any engine run on it. Both versions are npm's
``verdaccio`` package, installed into the cache folder with ``npm ci`` from the lock file
npm wrote when the corpus entry was made (``verdaccio_locks/<version>.json``: every package
pinned at the version npm resolved, with its integrity hash). 6.x asks for ``node-fetch@cjs``
(through ``verdaccio-audit``), a dist tag the registry reachable here does not have, so the
install overrides it with ``node-fetch@2.7.0`` (the release that tag names upstream). 6.8.0 is
the newest 6.x that runs on Node 20 (6.9 asks for Node 22). The drift is the web UI's own
between ``@verdaccio/ui-theme`` 3.1 and 9.0 (Material UI 4 → 5; the header, the package list,
the package page's tabs and sidebar re-laid out).

Every start makes a fresh storage folder and config in the work folder (the registry on
127.0.0.1 at a free port, no uplinks, so no proxying to any public registry; anyone may
read, a logged-in user may publish), adds a user through the registry's own API (``PUT
/-/user/org.couchdb.user:anna``, as ``npm adduser`` does) and publishes five small packages
of a bakery's team to it with ``npm publish --registry http://127.0.0.1:PORT/`` (one of them
in two versions). Checked with ``strace -f -e trace=connect`` and a Playwright request log:
docs/real-apps.md, "New held-out app: Verdaccio".
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, cache_root, free_port, serve

VERSIONS = ("5.0.4", "6.8.0")
LOCKS = Path(__file__).resolve().parent / "verdaccio_locks"
USER, PASSWORD = "anna", "bakery-registry-1"

CONFIG = """storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 100
uplinks: {}
packages:
  '@*/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    publish: $authenticated
web:
  title: Verdaccio
  gravatar: false
logs: { type: stdout, format: pretty, level: warn }
listen: 127.0.0.1:%(port)d
"""

# (name, version, description, keywords, dependencies, readme), published in this order
Package = tuple[str, str, str, list[str], dict[str, str], str]
PACKAGES: tuple[Package, ...] = (
    ("dough-utils", "0.3.0", "Small helpers for weighing flour, water and salt",
     ["baking", "dough", "weights"], {},
     "# dough-utils\n\nSmall helpers for weighing flour, water and salt.\n\n"
     "## Usage\n\n```js\nconst { hydration } = require('dough-utils');\n"
     "hydration(1000, 700); // 70\n```\n"),
    ("bread-calc", "1.0.0", "Works out dough weights for a bakery's daily bake",
     ["baking", "bread", "calculator"], {"dough-utils": "^0.3.0"},
     "# bread-calc\n\nWorks out dough weights for a bakery's daily bake.\n\n"
     "## Installation\n\nInstall it from the team's registry.\n\n"
     "## Usage\n\n```js\nconst calc = require('bread-calc');\n"
     "calc.loaves(12, 'sourdough');\n```\n"),
    ("bread-calc", "1.1.0", "Works out dough weights for a bakery's daily bake",
     ["baking", "bread", "calculator"], {"dough-utils": "^0.3.0"},
     "# bread-calc\n\nWorks out dough weights for a bakery's daily bake.\n\n"
     "## Installation\n\nInstall it from the team's registry.\n\n"
     "## Usage\n\n```js\nconst calc = require('bread-calc');\n"
     "calc.loaves(12, 'sourdough');\n```\n\n## Changes\n\nRye loaves added.\n"),
    ("oven-timer", "2.0.0", "Timers and alarms for the bakery's ovens",
     ["oven", "timer", "alarm"], {},
     "# oven-timer\n\nTimers and alarms for the bakery's ovens.\n"),
    ("@bakery/order-form", "0.9.1", "The web form customers use to order bread for pickup",
     ["orders", "form", "pickup"], {"bread-calc": "^1.1.0", "oven-timer": "^2.0.0"},
     "# @bakery/order-form\n\nThe web form customers use to order bread for pickup.\n"),
    ("pastry-labels", "1.2.0", "Prints allergen labels for pastries",
     ["labels", "allergens", "printing"], {},
     "# pastry-labels\n\nPrints allergen labels for pastries.\n"),
)  # fmt: skip


def _install(version: str) -> Path:
    """``<cache>/verdaccio-<version>``: ``npm ci`` from the committed lock file (made once; a
    lock serialises concurrent runs, the stamp is written last)."""
    folder = cache_root() / f"verdaccio-{version}"
    stamp, marker = folder / ".pacts-installed", folder / "node_modules/.bin/verdaccio"
    if stamp.exists() and marker.exists():
        return folder
    with open(cache_root() / f"verdaccio-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and marker.exists():  # installed while this one waited
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        package = {
            "name": f"verdaccio-{version}",
            "private": True,
            "dependencies": {"verdaccio": version},
            "overrides": {"node-fetch@cjs": "2.7.0"},
        }
        (folder / "package.json").write_text(json.dumps(package, indent=2) + "\n")
        shutil.copy(LOCKS / f"{version}.json", folder / "package-lock.json")
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--silent"],
            cwd=folder,
            check=True,
            timeout=900,
        )
        stamp.touch()
    return folder


def _adduser(base_url: str) -> str:
    """The user ``anna``, added through the registry's own API; its token."""
    body = json.dumps({"name": USER, "password": PASSWORD, "type": "user"}).encode()
    request = urllib.request.Request(
        f"{base_url}-/user/org.couchdb.user:{USER}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.load(answer)["token"])


def seed(base_url: str, workdir: Path) -> None:
    """The user, then every package of :data:`PACKAGES` with ``npm publish``."""
    token = _adduser(base_url)
    host = base_url.split("://", 1)[1]
    npmrc = workdir / "npmrc"
    npmrc.write_text(f"//{host}:_authToken={token}\n")
    for name, version, description, keywords, deps, readme in PACKAGES:
        folder = workdir / "packages" / f"{name.replace('/', '+')}-{version}"
        folder.mkdir(parents=True)
        manifest = {
            "name": name,
            "version": version,
            "description": description,
            "keywords": keywords,
            "author": "Anna Baker",
            "license": "MIT",
            "main": "index.js",
            "dependencies": deps,
        }
        (folder / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
        (folder / "README.md").write_text(readme)
        (folder / "index.js").write_text("module.exports = {};\n")
        subprocess.run(
            ["npm", "publish", "--registry", base_url, "--userconfig", str(npmrc),
             "--access", "public", "--no-audit", "--no-fund", "--silent"],
            cwd=folder, check=True, timeout=120, capture_output=True,
        )  # fmt: skip


def _start(version: str, workdir: Path) -> Served:
    binary = _install(version) / "node_modules" / ".bin" / "verdaccio"
    port = free_port()
    (workdir / "storage").mkdir(parents=True)
    (workdir / "config.yaml").write_text(CONFIG % {"port": port})
    argv = [str(binary), "--config", str(workdir / "config.yaml")]
    return serve(
        argv,
        port=port,
        cwd=workdir,
        workdir=workdir,
        ready="-/ping",
        timeout_s=180,
        then=lambda base: seed(base, workdir),
    )


APP = AppSpec(
    name="verdaccio",
    kind="private npm registry (Verdaccio: a package list, search, a package's page with "
    "tabs and a sidebar, login)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"VERDACCIO_USER": USER, "VERDACCIO_PASSWORD": PASSWORD},
)
