"""What the npm apps served by Node share (NocoDB, Directus): a name lookup that resolves
loopback names only, and ``sqlite3`` built from its source.

``LOOPBACK_DNS`` is JavaScript that replaces Node's ``dns.lookup`` before the app loads: a
loopback name resolves as before, any other fails at once with ``ENOTFOUND`` (what a request
meets offline), so no DNS query leaves the machine. NocoDB's launcher starts with it; an app
started by its own command line gets it as a preload (``node --require FILE``,
:func:`loopback_preload`). First made for NocoDB, whose server asks ``api.github.com`` for its
newest release when the app loads (docs/real-apps.md, "New held-out app: NocoDB").

:func:`locked_install` makes an app's folder once (``npm ci`` from its committed lock file,
under a lock) and builds the ``sqlite3`` module of that install, made with
``--ignore-scripts``: its prebuilt binary would be downloaded from outside the registry, which
fails here, so ``node-gyp`` builds it against Debian's Node headers (``npm_config_nodedir=/usr``;
gcc, g++, make and python3 must be installed; several minutes on 2 cores).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from realapps.harness import cache_root

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


def node_env() -> dict[str, str]:
    """The environment for npm in an app's folder: Debian's Node headers for ``node-gyp``."""
    return {**os.environ, "npm_config_nodedir": "/usr"}


def rebuild(folder: Path, module: str, timeout_s: float) -> None:
    """``npm rebuild MODULE`` in ``folder``: a native module built from its source."""
    subprocess.run(
        ["npm", "rebuild", module, "--no-audit", "--no-fund"],
        cwd=folder, check=True, timeout=timeout_s, env=node_env(), capture_output=True,
    )  # fmt: skip


def locked_install(
    name: str,
    package: Mapping[str, object],
    lock_file: Path,
    markers: Sequence[str],
    native: Sequence[tuple[str, float]] = (("sqlite3", 1800),),
) -> Path:
    """``<cache>/NAME``: ``npm ci --ignore-scripts`` of ``package`` from the committed lock
    file, then the ``native`` modules built from source (each with its time limit). Made once:
    a lock file serialises concurrent runs, and the stamp is written last, so a folder whose
    stamp or ``markers`` (paths of the built binaries) are missing is made again."""
    folder = cache_root() / name
    stamp = folder / ".pacts-installed"

    def made() -> bool:
        return stamp.exists() and all((folder / m).exists() for m in markers)

    if made():
        return folder
    with open(cache_root() / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if made():  # installed while this one waited
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / "package.json").write_text(json.dumps(package, indent=2) + "\n")
        shutil.copy(lock_file, folder / "package-lock.json")
        subprocess.run(
            ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
            cwd=folder, check=True, timeout=1800, env=node_env(),
        )  # fmt: skip
        for module, timeout_s in native:
            rebuild(folder, module, timeout_s)
        stamp.touch()
    return folder
