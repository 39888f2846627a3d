"""What the npm apps served by Node share (NocoDB, Directus): a name lookup that resolves
loopback names only, the install (``npm ci`` from a committed lock file, native modules built
from source) and the JSON calls that seed them.

``LOOPBACK_DNS`` is JavaScript that replaces Node's ``dns.lookup`` before the app loads: a
loopback name resolves as before, any other fails at once with ``ENOTFOUND`` (what a request
meets offline), so no DNS query leaves the machine. NocoDB's launcher starts with it; an app
started by its own command line gets it as a preload (``node --require FILE``,
:func:`loopback_preload`). First made for NocoDB, whose server asks ``api.github.com`` for its
newest release when the app loads (docs/real-apps.md, "New held-out app: NocoDB").

:func:`locked_install` makes an app's folder once, unattended, from an empty cache: ``npm ci
--ignore-scripts`` from the committed lock file (every package from npm's registry, at the
version and integrity hash the lock file pins), then the native modules of that install built
from their source with ``npm rebuild MODULE``. Always from source
(``npm_config_build_from_source``): their install scripts would otherwise download a prebuilt
binary from GitHub (``prebuild-install``), which fails offline and differs from machine to
machine. ``node-gyp`` builds against the headers of the Node that runs the app
(``npm_config_nodedir``: ``<prefix>/include/node``, Debian's ``/usr`` or an nvm folder); gcc,
g++, make and python3 must be installed (checked before anything is downloaded). Every
command's output goes to ``<folder>/install.log``, every command has a time limit, and a
command past it is killed with its whole process group (npm, node-gyp, make, the compilers).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from realapps.harness import cache_root, spawn, stop_group

LOOPBACK_DNS = """// Only loopback names resolve: any other name fails at once, as it would
// offline, and no DNS query leaves the machine (bench/realapps/apps/_node.py).
const dns = require('dns');
const lookup = dns.lookup;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
dns.lookup = function (host, options, callback) {
  if (LOOPBACK.has(host)) return lookup.apply(this, arguments);
  const done = typeof options === 'function' ? options : callback;
  const error = Object.assign(new Error('getaddrinfo ENOTFOUND ' + host),
    { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname: host });
  process.nextTick(done, error);
};
"""

#: the file a built ``sqlite3`` leaves (an install without it is not whole)
SQLITE3_BINARY = "node_modules/sqlite3/build/Release/node_sqlite3.node"


def loopback_preload(workdir: Path) -> Path:
    """``LOOPBACK_DNS`` written to ``workdir`` for ``node --require``."""
    path = workdir / "loopback_dns.js"
    path.write_text(LOOPBACK_DNS)
    return path


#: what an install calls: npm, and what ``node-gyp`` builds a native module with (python3
#: runs gyp)
BUILD_TOOLS = ("npm", "gcc", "g++", "make", "python3")


def node_headers() -> Path:
    """The prefix whose ``include/node`` holds the headers of the Node on ``PATH`` (the
    folder above its ``bin``), or an error saying what to install."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("Node is not on PATH: the npm apps need Node 20 and npm")
    prefix = Path(node).resolve().parent.parent
    if not (prefix / "include" / "node" / "common.gypi").is_file():
        raise RuntimeError(
            f"Node's headers are not in {prefix / 'include' / 'node'}: native modules are built"
            " against them (nodejs.org's and NodeSource's Node have them; Debian's: libnode-dev)"
        )
    return prefix


def node_env() -> dict[str, str]:
    """The environment for npm in an app's folder: native modules built from source against
    the running Node's headers (:func:`node_headers`), nothing downloaded from GitHub."""
    return {
        **os.environ,
        "npm_config_nodedir": str(node_headers()),
        "npm_config_build_from_source": "true",
    }


def run_logged(
    argv: Sequence[str], folder: Path, timeout_s: float, env: Mapping[str, str] | None = None
) -> None:
    """Run ``argv`` in ``folder``, its output appended to ``folder/install.log``; past
    ``timeout_s`` (or on an interrupt) its whole process group is killed (npm, node-gyp, make,
    the compilers: before, a time limit stopped npm alone, and the build went on). A failure's
    error names the command and carries the log's last lines."""
    proc, log = spawn(argv, cwd=folder, env=env, log_name="install.log")
    try:
        code = proc.wait(timeout=timeout_s)
    except BaseException as exc:
        stop_group(proc)
        if isinstance(exc, subprocess.TimeoutExpired):
            raise TimeoutError(f"{' '.join(argv)} in {folder}: over {timeout_s:.0f} s") from exc
        raise
    if code != 0:
        tail = log.read_bytes()[-4000:].decode(errors="replace")
        raise RuntimeError(f"{' '.join(argv)} in {folder} exited with {code}; {log}:\n{tail}")


def locked_install(
    name: str,
    package: Mapping[str, object],
    lock_file: Path,
    markers: Sequence[str],
    native: Sequence[tuple[str, float]] = (("sqlite3", 1800),),
) -> Path:
    """``<cache>/NAME``: ``npm ci --ignore-scripts`` of ``package`` from the committed lock
    file, then the ``native`` modules built from source (``npm rebuild MODULE``, each with its
    time limit). Made once: a lock file serialises concurrent runs (one that waits says so,
    and finds the folder the other made), and the stamp is written last, so a folder whose
    stamp or ``markers`` (paths of the built binaries) are missing, as a killed or failed
    install leaves it, is made again from nothing. What the machine lacks (a build tool, Node's
    headers) is said before anything is downloaded."""
    folder = cache_root() / name
    stamp = folder / ".pacts-installed"

    def made() -> bool:
        return stamp.exists() and all((folder / m).exists() for m in markers)

    if made():
        return folder
    missing = [tool for tool in BUILD_TOOLS if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"{name} is installed with npm and built from source: install {missing}")
    env = node_env()
    with open(cache_root() / f"{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"{name}: another run is installing it; waiting", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)  # its commands are bounded, and a dead one's lock goes
        if made():  # installed while this one waited
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / "package.json").write_text(json.dumps(package, indent=2) + "\n")
        shutil.copy(lock_file, folder / "package-lock.json")
        quiet = ["--no-audit", "--no-fund"]
        run_logged(["npm", "ci", "--ignore-scripts", *quiet], folder, 1800, env)
        for module, timeout_s in native:
            run_logged(["npm", "rebuild", module, *quiet], folder, timeout_s, env)
        stamp.touch()
    return folder


def call_json(
    base_url: str, method: str, path: str, body: object, headers: Mapping[str, str]
) -> object:
    """``METHOD base_url+path`` with ``body`` as JSON and ``headers`` (the app's token), the
    answer's JSON: how the npm apps are seeded through their own REST API."""
    request = urllib.request.Request(
        base_url + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)
