"""Ghost: a publishing platform (a blog with members) whose admin is an Ember single-page app
(the settings a React app inside it) over a Node server, the content in SQLite. A bakery keeps
its journal in it: the admin's navigation ("Dashboard", "View site", "Posts" with "Drafts",
"Scheduled" and "Published" under it, "Pages", "Tags", "Members", the settings' gear), the
posts list (filters "All posts", "All access", "All authors", "All tags", "Newest first"; a
row per post), the editor (the title, the post's settings beside it), the tags list ("New
tag", a row per tag), the members list (a search box, "New member", a row per member) and the
settings.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 5.80.0 shows, and committed before any engine run on it. Both versions are npm's
``ghost`` package, which carries its own components as tarballs inside it (``components/``,
named by ``file:`` in its ``package.json``), so it is installed as Ghost-CLI installs it: the
package unpacked into the cache folder and its dependencies installed there. The registry's
tarball is fetched with ``npm pack`` (npm checks it against the registry's integrity hash);
its ``package.json`` is then changed the way it was when the lock file was written: the
``devDependencies`` dropped (never installed) and an ``overrides`` entry for each component
another component names by its workspace version (``0.0.0``, which is on no registry: Ghost's
releases are installed with Yarn, which resolves those names to the bundled tarballs; npm is
told to do the same). Then ``npm ci --omit=dev --legacy-peer-deps --ignore-scripts`` from the
lock file npm wrote when the corpus entry was made (``ghost_locks/<version>.json``: every
package pinned at the version npm resolved, with its integrity hash; ``--legacy-peer-deps``
as the lock was written, since Ghost's peers conflict), and ``sqlite3`` 5.1.7 built from its
source (``npm rebuild`` through ``_node.run_logged``; its prebuilt binary would be
downloaded from outside the registry). 5.50.0 and 5.60.0 cannot be installed from this
registry (they pin ``@tryghost`` releases it lacks); 6.x asks for Node 22. The drift is the
app's own, over 18 months of releases: docs/real-apps.md, "New held-out app: Ghost".

Every start uses a fresh work folder laid out as Ghost-CLI lays out an install: a ``current``
link to the installed version (Ghost finds its own ``package.json`` through it), the content
folder (the themes copied from the package, the SQLite file), and ``config.production.json``:
the address 127.0.0.1 at a free port, SQLite, the update check, Gravatar and pings off, the
staff sign-in's e-mailed code off (5.130.6), mail to the ``stub`` transport. The server starts
with a preload that resolves loopback names only (``_node.LOOPBACK_DNS``) and is seeded through
Ghost's own Admin API: the owner and the site's title (``authentication/setup``), a session,
then the tags "Bread", "Cake" and "Pastry", five posts (three published, two drafts), a page
"Wholesale orders" and four members. The setup's own content (the post "Coming soon", the tag
"News", the pages "About this site" and "Contribute") stays.
"""

from __future__ import annotations

import fcntl
import http.cookiejar
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from realapps.apps._node import SQLITE3_BINARY, loopback_preload, node_env, run_logged
from realapps.harness import AppSpec, Served, cache_root, free_port, serve

VERSIONS = ("5.80.0", "5.130.6")
LOCKS = Path(__file__).resolve().parent / "ghost_locks"
USER, PASSWORD = "editor@bakery.example.com", "Bakery-Journal-2024!"

TAGS: tuple[tuple[str, str], ...] = (
    ("Bread", "Loaves, flatbreads and starters"),
    ("Cake", "Sponges, loaves and icing"),
    ("Pastry", "Laminated doughs and tarts"),
)
# (title, status, tag, text), created in this order
POSTS: tuple[tuple[str, str, str, str], ...] = (
    ("Sourdough starter basics", "published", "Bread",
     "Flour, water and patience: a starter in seven days."),
    ("Ten minute flatbread", "published", "Bread", "A soft flatbread from the pan."),
    ("Why croissants need cold butter", "published", "Pastry",
     "Layers come from butter that stays solid."),
    ("Lemon drizzle secrets", "draft", "Cake", "Syrup while the cake is warm."),
    ("Rye for beginners", "draft", "Bread",
     "Rye has little gluten and needs a different hand."),
)  # fmt: skip
# (name, email, label or "")
MEMBERS: tuple[tuple[str, str, str], ...] = (
    ("Ada Crumb", "ada@example.com", "Regulars"),
    ("Ben Loaf", "ben@example.com", "Regulars"),
    ("Cara Rye", "cara@example.com", "Wholesale"),
    ("Dev Scone", "dev@example.com", ""),
)


def prepare(package: Path) -> None:
    """Ghost's ``package.json`` as the lock file was written from: no ``devDependencies``,
    and every bundled component that another names by a version (not its ``file:`` tarball)
    overridden to that tarball."""
    path = package / "package.json"
    meta = json.loads(path.read_text())
    meta.pop("devDependencies", None)
    bundled: dict[str, tuple[str, dict[str, str]]] = {}
    for tgz in sorted((package / "components").glob("*.tgz")):
        with tarfile.open(tgz) as tar:
            member = tar.extractfile("package/package.json")
            inner = json.load(member) if member is not None else {}
        bundled[inner["name"]] = (tgz.name, inner.get("dependencies", {}))
    overrides = {
        dep: f"file:components/{bundled[dep][0]}"
        for _, deps in bundled.values()
        for dep, spec in deps.items()
        if dep in bundled and not spec.startswith("file:")
    }
    if overrides:
        meta["overrides"] = dict(sorted(overrides.items()))
    path.write_text(json.dumps(meta, indent=2) + "\n")


def _install(version: str) -> Path:
    """``<cache>/ghost-<version>``: the package unpacked, prepared (:func:`prepare`), its
    dependencies from the committed lock file, ``sqlite3`` built from source. Made once, under
    a lock, the stamp written last (as ``_node.locked_install``)."""
    folder = cache_root() / f"ghost-{version}"
    stamp = folder / ".pacts-installed"

    def made() -> bool:
        return stamp.exists() and (folder / SQLITE3_BINARY).exists()

    if made():
        return folder
    with open(cache_root() / f"ghost-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if made():
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                ["npm", "pack", f"ghost@{version}", "--silent", "--pack-destination", tmp],
                check=True, timeout=600, env=node_env(), capture_output=True,
            )  # fmt: skip
            with tarfile.open(Path(tmp) / f"ghost-{version}.tgz") as tar:
                tar.extractall(tmp, filter="data")
            shutil.move(Path(tmp) / "package", folder)
        prepare(folder)
        shutil.copy(LOCKS / f"{version}.json", folder / "package-lock.json")
        quiet = ["--no-audit", "--no-fund"]
        ci = ["npm", "ci", "--omit=dev", "--legacy-peer-deps", "--ignore-scripts", *quiet]
        run_logged(ci, folder, 1800, node_env())
        run_logged(["npm", "rebuild", "sqlite3", *quiet], folder, 1800, node_env())
        stamp.touch()
    return folder


def _lexical(text: str) -> str:
    """One paragraph of ``text`` in the editor's own document format (Lexical JSON): Ghost
    converts HTML only through an optional package the install leaves out."""
    words = {"detail": 0, "format": 0, "mode": "normal", "style": "", "text": text,
             "type": "text", "version": 1}  # fmt: skip
    block = {"direction": "ltr", "format": "", "indent": 0, "version": 1}
    paragraph = {"children": [words], **block, "type": "paragraph"}
    return json.dumps({"root": {"children": [paragraph], **block, "type": "root"}})


def _booted(base_url: str, timeout_s: float) -> None:
    """Wait until the Admin API answers 200: while Ghost boots, its server already answers,
    with 503 ("Ghost is starting"), and the setup fails if it is sent then."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(base_url + "ghost/api/admin/site/", timeout=10):
                return
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def seed(base_url: str) -> None:
    """The owner, then the tags, posts, page and members, through Ghost's Admin API with a
    staff session (its cookie; the API asks for the admin's ``Origin``); the texts as
    Lexical documents (:func:`_lexical`)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )

    def call(path: str, body: object) -> None:
        request = urllib.request.Request(
            base_url + "ghost/api/admin/" + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Origin": base_url.rstrip("/")},
        )
        with opener.open(request, timeout=60) as answer:
            answer.read()

    _booted(base_url, 300.0)
    call("authentication/setup/", {"setup": [{
        "name": "Bea Baker", "email": USER, "password": PASSWORD,
        "blogTitle": "The Bakery Journal"}]})  # fmt: skip
    call("session/", {"username": USER, "password": PASSWORD})
    for name, description in TAGS:
        call("tags/", {"tags": [{"name": name, "description": description}]})
    for title, status, tag, text in POSTS:
        post = {"title": title, "status": status, "tags": [tag], "lexical": _lexical(text)}
        call("posts/", {"posts": [post]})
    page = {"title": "Wholesale orders", "status": "published",
            "lexical": _lexical("Cafes can order by the tray.")}  # fmt: skip
    call("pages/", {"pages": [page]})
    for name, email, label in MEMBERS:
        member: dict[str, object] = {"name": name, "email": email}
        if label:
            member["labels"] = [label]
        call("members/", {"members": [member]})


def _config(workdir: Path, port: int) -> dict[str, object]:
    content = workdir / "content"
    return {
        "url": f"http://127.0.0.1:{port}",
        "server": {"host": "127.0.0.1", "port": port},
        "database": {"client": "sqlite3", "useNullAsDefault": True, "debug": False,
                     "connection": {"filename": str(content / "data" / "ghost.db")}},
        "paths": {"contentPath": str(content)},
        "privacy": {"useUpdateCheck": False, "useGravatar": False, "useRpcPing": False},
        "security": {"staffDeviceVerification": False},
        "mail": {"transport": "stub", "from": "journal@bakery.example.com"},
        "logging": {"level": "warn", "transports": ["stdout"]},
    }  # fmt: skip


def _start(version: str, workdir: Path) -> Served:
    folder = _install(version)
    port = free_port()
    (workdir / "current").symlink_to(folder, target_is_directory=True)
    content = workdir / "content"
    shutil.copytree(folder / "content", content)
    for sub in ("data", "images", "files", "media", "settings", "logs", "public"):
        (content / sub).mkdir(exist_ok=True)
    (workdir / "config.production.json").write_text(json.dumps(_config(workdir, port), indent=2))
    preload = loopback_preload(workdir)
    env = {"NODE_ENV": "production", "HOME": str(workdir), "PATH": os.environ.get("PATH", "")}
    argv = ["node", "--require", str(preload), str(workdir / "current" / "index.js")]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="ghost/api/admin/site/",
                 env=env, timeout_s=300, then=seed)  # fmt: skip


APP = AppSpec(
    name="ghost",
    kind="blog and newsletter admin (Ghost Admin, Ember single-page app, React settings): "
    "posts, pages, tags and members lists with filters, the post editor and its settings, "
    "the site settings",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_GHOST_USER": USER, "PACTS_GHOST_PASSWORD": PASSWORD},
)
