"""DokuWiki: a PHP wiki (server-rendered pages, the "dokuwiki" template, jQuery), served by
PHP's built-in server, with a small team wiki seeded through its own edit form.

A held-out app (docs/real-apps.md, "Held-out apps: DokuWiki and sqladmin"): its flows and
truth were written before any engine run on it.

Versions come from Debian's package archive, the only registry that ships DokuWiki:

- 2022-07-31b "Igor" is Debian 12's (bookworm) package, installed with apt-get::

      apt-get update
      apt-get install --no-install-recommends php8.2-cli php8.2-cgi php8.2-xml \\
          php8.2-mbstring php-constant-time php-phpseclib3 dokuwiki

  (``php8.2-cgi`` first, so that apt satisfies ``php`` without Apache).
- 2024-02-06b "Kaos" is Debian 13's (trixie) package. It is not installed system-wide: the
  ``.deb`` (and ``php-kissifrot-php-ixr``, which bookworm lacks) are fetched with
  ``apt-get download`` through a private source list in the cache folder and unpacked there;
  it runs on bookworm's PHP 8.2 and the PHP libraries above.

Each version is assembled once into ``<cache>/dokuwiki-<version>/wiki`` (the Debian layout's
``/usr/share/dokuwiki``, ``/etc/dokuwiki`` and ``/var/lib/dokuwiki`` folded back into one
self-contained tree, symlinks resolved); every start copies it into the run's work folder
with fresh configuration, users and data.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import http.cookiejar
import os
import re
import shutil
import struct
import subprocess
import time
import urllib.parse
import urllib.request
import zlib
from pathlib import Path

from realapps.harness import AppSpec, Served, cache_root, free_port, spawn, wait_http

VERSIONS = ("2022-07-31b", "2024-02-06b", "2026-07-14c")

# version -> (Debian suite, package version); the oldest is the system's own package
DEBIAN: dict[str, tuple[str, str]] = {
    "2022-07-31b": ("bookworm", "0.0.20220731.a-2"),
    "2024-02-06b": ("trixie", "2024-02-06b+dfsg-9"),
    "2026-07-14c": ("sid", "2026-07-14.c+dfsg-3"),
}
# packages of the newer version's suite that bookworm lacks
EXTRA_DEBS: dict[str, tuple[tuple[str, str], ...]] = {
    "2024-02-06b": (("php-kissifrot-php-ixr", "1.8.5-1"),),
    "2026-07-14c": (("php-kissifrot-php-ixr", "1.8.5-1"), ("libphp-simplepie", "1.9.0+dfsg-1")),
}
# what the system must have (Debian bookworm packages), with the command that installs it
SYSTEM_NEEDS = ("/usr/bin/php8.2", "/usr/share/php/phpseclib3", "/usr/share/php/ParagonIE")
APT_HINT = (
    "apt-get update && apt-get install --no-install-recommends php8.2-cli php8.2-cgi "
    "php8.2-xml php8.2-mbstring php-constant-time php-phpseclib3 dokuwiki"
)

TITLE = "Harbor Team Wiki"
ADMIN = ("admin", "Harbor-Admin-2024", "Wiki Admin", "admin@example.com", "admin,user")
USERS = (
    ADMIN,
    ("alice", "Alice-Pass-2024", "Alice Moreau", "alice@example.com", "user"),
    ("bob", "Bob-Pass-2024", "Bob Okafor", "bob@example.com", "user"),
)


def _need_system() -> None:
    missing = [p for p in SYSTEM_NEEDS if not os.path.exists(p)]
    if missing or not Path("/usr/share/dokuwiki/VERSION").is_file():
        raise RuntimeError(
            "DokuWiki needs Debian's packages (missing: "
            + ", ".join(missing or ["/usr/share/dokuwiki"])
            + "). Install them as root: "
            + APT_HINT
        )


def _apt(folder: Path, suite: str) -> list[str]:
    """apt-get options for a private source list of ``suite`` in ``folder`` (the system's
    own apt configuration is left alone)."""
    (folder / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (folder / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    sources = folder / "sources.list"
    sources.write_text(
        "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
        f"http://deb.debian.org/debian {suite} main\n"
    )
    return [
        f"-o=Dir::Etc::SourceList={sources}",
        "-o=Dir::Etc::SourceParts=/dev/null",
        f"-o=Dir::State::Lists={folder / 'lists'}",
        f"-o=Dir::Cache={folder / 'cache'}",
        "-o=APT::Sandbox::User=root",
    ]


def _download(folder: Path, suite: str, packages: list[tuple[str, str]]) -> list[Path]:
    """``apt-get download`` of exact package versions of ``suite`` into ``folder``."""
    options = _apt(folder / "apt", suite)
    subprocess.run(["apt-get", *options, "update"], check=True, timeout=600)
    debs = folder / "debs"
    debs.mkdir(exist_ok=True)
    subprocess.run(
        ["apt-get", *options, "download", *(f"{name}={ver}" for name, ver in packages)],
        check=True,
        cwd=debs,
        timeout=600,
    )
    return sorted(debs.glob("*.deb"))


def _copy_resolved(roots: list[Path], path: str, dest: Path, depth: int = 0) -> None:
    """Copy the absolute ``path`` as seen through ``roots`` (unpacked packages first, then
    the system) to ``dest``, following symlinks inside that view; dangling links are left
    out (Debian's postinst makes them point at files it writes)."""
    if depth > 40:
        raise RuntimeError(f"symlink loop at {path}")
    for root in roots:
        real = Path(str(root) + path)
        if real.is_symlink():
            target = os.readlink(real)
            if not target.startswith("/"):
                target = os.path.normpath(os.path.join(os.path.dirname(path), target))
            _copy_resolved(roots, target, dest, depth + 1)
            return
        if real.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
            for entry in sorted(os.listdir(real)):
                _copy_resolved(roots, f"{path.rstrip('/')}/{entry}", dest / entry, depth)
            return
        if real.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(real, dest)
            return


PRELOAD = """<?php
// pytest-pacts corpus: configuration in the tree's conf/ (Debian's preload points at
// /etc/dokuwiki); written by bench/realapps/apps/dokuwiki.py
if (!defined('DOKU_CONF')) define('DOKU_CONF', DOKU_INC . 'conf/');
"""


def install(version: str) -> Path:
    """The assembled DokuWiki tree of ``version`` in the cache (made once)."""
    _need_system()
    folder = cache_root() / f"dokuwiki-{version}"
    suite, package = DEBIAN[version]
    recipe = f"{suite} {package} {EXTRA_DEBS.get(version, ())} {PRELOAD}"
    stamp = folder / (".pacts-" + hashlib.sha256(recipe.encode()).hexdigest()[:16])
    tree = folder / "wiki"
    if stamp.exists():
        return tree
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    roots: list[Path] = []
    if suite == "bookworm":
        installed = Path("/usr/share/dokuwiki/VERSION").read_text().split('"')[0].strip()
        if installed != version:
            raise RuntimeError(f"the system's DokuWiki is {installed}, not {version}: {APT_HINT}")
    else:
        wanted = [("dokuwiki", package), *EXTRA_DEBS.get(version, ())]
        for deb in _download(folder, suite, wanted):
            unpacked = folder / "unpacked" / deb.stem
            unpacked.mkdir(parents=True)
            subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
            roots.append(unpacked)
    roots.append(Path("/"))
    _copy_resolved(roots, "/usr/share/dokuwiki", tree)
    _copy_resolved(roots, "/etc/dokuwiki", tree / "conf")
    _copy_resolved(roots, "/var/lib/dokuwiki/data", tree / "data")
    # the unpacked packages' PHP libraries (not on the system) are read from the tree
    for root in roots[:-1]:
        php = root / "usr" / "share" / "php"
        if php.is_dir():
            _copy_resolved([root], "/usr/share/php", tree / "vendor-debian")
    if (tree / "vendor-debian").is_dir():
        for autoload in (tree / "vendor" / "composer").glob("autoload_*.php"):
            text = autoload.read_text()
            for lib in (tree / "vendor-debian").iterdir():
                ours = f"'{tree}/vendor-debian/{lib.name}"
                text = text.replace(f"'/usr/share/php/{lib.name}", ours)
            autoload.write_text(text)
    (tree / "inc" / "preload.php").write_text(PRELOAD)
    for name in ("acl.auth.php", "users.auth.php", "local.php", "apache.conf", "lighttpd.conf"):
        with contextlib.suppress(FileNotFoundError):
            (tree / "conf" / name).unlink()
    stamp.touch()
    return tree


LOCAL_PHP = """<?php
$conf['title'] = '{title}';
$conf['lang'] = 'en';
$conf['license'] = 'cc-by-sa';
$conf['useacl'] = 1;
$conf['authtype'] = 'authplain';
$conf['superuser'] = '@admin';
$conf['passcrypt'] = 'bcrypt';
$conf['userewrite'] = 0;
$conf['updatecheck'] = 0;
$conf['dnslookups'] = 0;
$conf['send404'] = 0;
$conf['breadcrumbs'] = 5;
$conf['mailfrom'] = 'wiki@example.com';
$conf['savedir'] = '{data}';
"""

ACL = """# acl.auth.php (pytest-pacts corpus)
*               @ALL        1
*               @user       8
"""


def _bcrypt(password: str) -> str:
    out = subprocess.run(
        ["php", "-r", "echo password_hash($argv[1], PASSWORD_BCRYPT);", password],
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return out.stdout.strip()


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain one-colour PNG (for the media manager)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


# (page id, summary, text), saved in this order through the wiki's edit form; a page that
# appears twice gets two revisions (the history flows compare them)
PAGES: tuple[tuple[str, str, str], ...] = (
    (
        "start",
        "Front page",
        "====== Welcome to the Harbor Team Wiki ======\n\n"
        "This wiki holds the team's plans and how-to guides.\n\n"
        "===== Projects =====\n"
        "  * [[projects:roadmap|Roadmap]]\n"
        "  * [[projects:release_checklist|Release checklist]]\n\n"
        "===== How-to guides =====\n"
        "  * [[howto:onboarding|Onboarding]]\n"
        "  * [[howto:coffee_machine|Coffee machine]]\n",
    ),
    (
        "projects:roadmap",
        "First draft",
        "====== Roadmap ======\n\n"
        "===== Spring =====\n"
        "  * Move the build server to the new rack\n"
        "  * Translate the user guide\n\n"
        "===== Summer =====\n"
        "  * Public beta of the harbor tracker\n",
    ),
    (
        "projects:release_checklist",
        "Checklist",
        "====== Release checklist ======\n\n"
        "  - Freeze the branch\n"
        "  - Run the full test suite\n"
        "  - Tag the release and write the notes\n"
        "  - Announce it on the mailing list\n",
    ),
    (
        "howto:onboarding",
        "Onboarding steps",
        "====== Onboarding ======\n\n"
        "Welcome aboard! On your first day:\n\n"
        "  * Ask for a wiki account\n"
        "  * Read the [[projects:release_checklist|Release checklist]]\n"
        "  * Learn how the [[howto:coffee_machine|coffee machine]] works\n",
    ),
    (
        "howto:coffee_machine",
        "Coffee notes",
        "====== Coffee machine ======\n\n"
        "The machine in the kitchen needs descaling every second Friday.\n"
        "Use the blue tablets from the cupboard above the sink.\n",
    ),
    (
        "projects:roadmap",
        "Autumn plans",
        "====== Roadmap ======\n\n"
        "===== Spring =====\n"
        "  * Move the build server to the new rack\n"
        "  * Translate the user guide\n\n"
        "===== Summer =====\n"
        "  * Public beta of the harbor tracker\n\n"
        "===== Autumn =====\n"
        "  * Release 2.0 of the harbor tracker\n",
    ),
    (
        "sidebar",
        "Navigation",
        "**Team pages**\n"
        "  * [[start|Home]]\n"
        "  * [[projects:roadmap|Roadmap]]\n"
        "  * [[howto:onboarding|Onboarding]]\n",
    ),
)


def _form_fields(page: str, form_id: str) -> dict[str, str]:
    """The hidden inputs of the form ``form_id`` in ``page``."""
    start = page.find(f'id="{form_id}"')
    if start < 0:
        raise RuntimeError(f"no form {form_id!r} on the page")
    form = page[page.rfind("<form", 0, start) : page.find("</form>", start)]
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        if 'type="hidden"' not in tag:
            continue
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[html.unescape(name.group(1))] = html.unescape(value.group(1) if value else "")
    return fields


def seed(base_url: str) -> None:
    """Log in as the admin and save every page of :data:`PAGES` through the edit form, so
    every page has its revisions, change log and search index as the wiki makes them."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    doku = base_url + "doku.php"

    def get(query: dict[str, str]) -> str:
        with opener.open(doku + "?" + urllib.parse.urlencode(query), timeout=30) as r:
            return str(r.read().decode("utf-8"))

    def post(data: dict[str, str]) -> str:
        body = urllib.parse.urlencode(data).encode()
        with opener.open(doku, data=body, timeout=30) as r:
            return str(r.read().decode("utf-8"))

    login = get({"id": "start", "do": "login"})
    fields = _form_fields(login, "dw__login")
    fields.update({"u": ADMIN[0], "p": ADMIN[1]})
    if "Log Out" not in post(fields):
        raise RuntimeError("seeding DokuWiki: the admin could not log in")
    saved: dict[str, float] = {}
    for page_id, summary, text in PAGES:
        if page_id in saved:  # a revision is one second: keep two saves of a page apart
            time.sleep(max(0.0, saved[page_id] + 1.2 - time.monotonic()))
        form = get({"id": page_id, "do": "edit"})
        fields = _form_fields(form, "dw__editform")
        fields.update({"wikitext": text, "summary": summary, "do[save]": "Save"})
        post(fields)
        saved[page_id] = time.monotonic()


def start(version: str, workdir: Path) -> Served:
    tree = install(version)
    wiki = workdir / "wiki"
    shutil.copytree(tree, wiki, symlinks=True)
    data = wiki / "data"
    for sub in ("pages", "meta", "attic", "media", "media_attic", "media_meta", "cache",
                "index", "locks", "tmp", "log"):  # fmt: skip
        (data / sub).mkdir(parents=True, exist_ok=True)
    conf = wiki / "conf"
    (conf / "local.php").write_text(LOCAL_PHP.format(title=TITLE, data=data))
    (conf / "acl.auth.php").write_text(ACL)
    lines = ["# users.auth.php (pytest-pacts corpus)"]
    for login, password, name, mail, groups in USERS:
        lines.append(f"{login}:{_bcrypt(password)}:{name}:{mail}:{groups}")
    (conf / "users.auth.php").write_text("\n".join(lines) + "\n")
    (conf / "plugins.local.php").write_text(
        "<?php\n$plugins['popularity'] = 0;\n$plugins['extension'] = 0;\n"
    )
    media = data / "media" / "projects"
    media.mkdir(parents=True, exist_ok=True)
    (media / "harbor_logo.png").write_bytes(_png(120, 60, (30, 90, 160)))
    (media / "rack_photo.png").write_bytes(_png(80, 80, (160, 110, 40)))
    port = free_port()
    argv = ["php", "-S", f"127.0.0.1:{port}", "-t", str(wiki)]
    proc, log = spawn(argv, cwd=workdir, env={"PHP_CLI_SERVER_WORKERS": "4"})
    base_url = f"http://127.0.0.1:{port}/"
    served = Served(base_url=base_url, process=proc, workdir=workdir, log=log)
    try:
        wait_http(base_url + "doku.php", timeout_s=60, proc=proc)
        seed(base_url)
        # the full-text index, which a browser's page views build in the background
        subprocess.run(
            ["php", "bin/indexer.php", "-q"],
            cwd=wiki,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )
    except BaseException:
        served.stop()
        raise
    return served


APP = AppSpec(
    name="dokuwiki",
    kind="wiki (PHP, server-rendered pages, jQuery)",
    versions=VERSIONS,
    install=install,
    start=start,
    env={"PACTS_DOKUWIKI_USER": ADMIN[0], "PACTS_DOKUWIKI_PASSWORD": ADMIN[1]},
)
