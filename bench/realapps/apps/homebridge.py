"""Homebridge UI (npm's ``homebridge-config-ui-x``): the settings web app of Homebridge, a hub
that shows home devices to Apple's Home app; an Angular single-page app (Bootstrap, ng-bootstrap)
over a NestJS server. A household keeps its bridge in it: the status page (its widgets), the
plugins page (the installed plugins, a search box for npm's), the config editor (the bridge's
``config.json`` in a Monaco editor), the users page ("Add User", a user's form), the settings,
the logs and the accessories.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 4.76.0 shows, and committed before any engine run on it. Both versions are npm's
``homebridge-config-ui-x`` beside ``homebridge`` 1.11.4, installed by
``_node.locked_install`` from the lock file npm wrote when the corpus entry was made
(``homebridge_locks/<version>.json``), with no native build: the one native module,
``@homebridge/node-pty-prebuilt-multiarch`` (the UI's terminal), ships its built binaries
inside its npm package (``prebuilds/linux-x64/node.abi115.node`` for Node 20), which its loader
takes; nothing is fetched from GitHub. 5.10.0 is the newest release here that runs on Node 20
(5.28.0 asks for Node 22.12).

Every start uses a fresh storage folder (``-U``) holding the bridge's ``config.json``
(:func:`config`: the bridge "Garden Flat Bridge" on a free HAP port, the UI's platform on
another free port bound to 127.0.0.1 with form sign-in) and the UI's ``auth.json``
(:data:`USERS`: three users, their passwords hashed as the UI hashes them, PBKDF2-SHA512 with
1,000 rounds, with fixed salts), so the setup wizard is done and the sign-in page shows. It runs
as Homebridge's service runner does (``hb-service run``, in the foreground: the UI server, which
then starts Homebridge as its child in insecure mode), with a preload (:data:`OFFLINE_JS`) that
resolves loopback names only (``_node.LOOPBACK_DNS``; an IP literal is no name and resolves to
itself) and sends no datagram off the machine: both the UI (its accessories' discovery) and
Homebridge (its HomeKit advertising) use multicast DNS on every network interface; the preload
makes no multicast group join and drops any datagram to an address that is not loopback, so
neither is seen off the machine; and a server or socket that asks for every interface gets
loopback (Homebridge's HomeKit server listened on all of them with ``"bind": ["lo"]``, and on
all of them with ``["127.0.0.1"]``). The UI's server asks npm's registry and nodejs.org for
version news at start; offline those calls fail at once (the preload), and it logs "failed to
check registry.npmjs.org for updates". The logs go to the storage folder's ``homebridge.log``
(the UI's logs page reads it)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from realapps.apps._node import LOOPBACK_DNS, locked_install
from realapps.harness import AppSpec, Served, free_port, serve

VERSIONS = ("4.76.0", "5.10.0")
LOCKS = Path(__file__).resolve().parent / "homebridge_locks"
USER, PASSWORD = "ada", "Garden-Flat-2024!"
#: node-pty's binary for Node 20, shipped in its npm package (an install without it is not whole)
PTY = "node_modules/@homebridge/node-pty-prebuilt-multiarch/prebuilds/linux-x64/node.abi115.node"

OFFLINE_JS = (
    LOOPBACK_DNS
    + """// An IP literal is no name (no DNS query leaves for it): it resolves to itself. No
// datagram leaves the machine: no multicast group is joined, and a datagram to an address that
// is not loopback (multicast DNS, 224.0.0.251) is dropped as if sent
// (bench/realapps/apps/homebridge.py).
const net = require('net');
const dgram = require('dgram');
const loopbackOnly = dns.lookup;
dns.lookup = function (host) {
  return (net.isIP(host) ? lookup : loopbackOnly).apply(this, arguments);
};
const LOCAL = (a) => a === 'localhost' || a === '::1' || /^127\\./.test(a);
dgram.Socket.prototype.addMembership = function () {};
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  const address = args.slice(1).find((a) => typeof a === 'string');
  if (address !== undefined && !LOCAL(address)) {
    const done = args[args.length - 1];
    if (typeof done === 'function') process.nextTick(done, null, 0);
    return;
  }
  return send.apply(this, args);
};
// A server or socket that asks for every interface (none named, '::' or '0.0.0.0') gets
// loopback: Homebridge's HomeKit server listens on all of them whatever its "bind" says.
const ANY = (h) => h === undefined || h === '' || h === '::' || h === '0.0.0.0';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (first !== null && typeof first === 'object' && 'port' in first && ANY(first.host)) {
    args[0] = { ...first, host: '127.0.0.1' };
  } else if (typeof first === 'number' || /^[0-9]+$/.test(String(first))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
    else if (ANY(args[1])) args[1] = '127.0.0.1';
  }
  return listen.apply(this, args);
};
const bind = dgram.Socket.prototype.bind;
dgram.Socket.prototype.bind = function (...args) {
  const loopback = this.type === 'udp6' ? '::1' : '127.0.0.1';
  const first = args[0];
  if (first !== null && typeof first === 'object') {
    if (ANY(first.address)) args[0] = { ...first, address: loopback };
  } else if (first === undefined || typeof first === 'function') {
    args.unshift({ address: loopback });
  } else if (typeof args[1] !== 'string') {
    args.splice(1, 0, loopback);
  } else if (ANY(args[1])) {
    args[1] = loopback;
  }
  return bind.apply(this, args);
};
"""
)

#: (username, name, admin, password, salt): the UI's users, as its ``auth.json`` holds them
USERS: tuple[tuple[str, str, bool, str, str], ...] = (
    (USER, "Ada Lovelace", True, PASSWORD, "a1" * 32),
    ("brian", "Brian Okafor", False, "Brian-Okafor-2024!", "b2" * 32),
    ("chloe", "Chloe Martin", False, "Chloe-Martin-2024!", "c3" * 32),
)


def _install(version: str) -> Path:
    """``<cache>/homebridge-<version>``: ``npm ci --ignore-scripts`` from the committed lock
    file (``_node.locked_install``); no native build (see the module's docstring)."""
    package = {
        "name": "pacts-homebridge",
        "version": "0.0.0",
        "private": True,
        "dependencies": {"homebridge": "1.11.4", "homebridge-config-ui-x": version},
    }
    return locked_install(
        f"homebridge-{version}", package, LOCKS / f"{version}.json", markers=(PTY,), native=()
    )


def auth_json() -> list[dict[str, object]]:
    """The UI's users file: each password hashed as the UI does (PBKDF2, SHA-512, 1,000
    rounds, 64 bytes, hex) with its fixed salt."""
    users: list[dict[str, object]] = []
    for n, (username, name, admin, password, salt) in enumerate(USERS, start=1):
        hashed = hashlib.pbkdf2_hmac("sha512", password.encode(), salt.encode(), 1000, 64)
        users.append({"id": n, "username": username, "name": name, "hashedPassword": hashed.hex(),
                      "salt": salt, "admin": admin})  # fmt: skip
    return users


def config(ui_port: int, hap_port: int) -> dict[str, object]:
    """The bridge's ``config.json``: the bridge on ``hap_port`` and the UI's platform on
    ``ui_port``, bound to 127.0.0.1, with form sign-in."""
    return {
        "bridge": {
            "name": "Garden Flat Bridge",
            "username": "0E:21:7A:3C:55:10",
            "port": hap_port,
            "pin": "031-45-154",
            "bind": ["lo"],
        },
        "accessories": [],
        "platforms": [
            {
                "platform": "config",
                "name": "Config",
                "port": ui_port,
                "host": "127.0.0.1",
                "auth": "form",
                "theme": "deep-purple",
                "lightingMode": "light",
            },
        ],
    }


def _start(version: str, workdir: Path) -> Served:
    folder = _install(version)
    port, hap_port = free_port(), free_port()
    store = workdir / "store"
    store.mkdir()
    (store / "config.json").write_text(json.dumps(config(port, hap_port), indent=4) + "\n")
    (store / "auth.json").write_text(json.dumps(auth_json(), indent=4) + "\n")
    preload = workdir / "offline.js"
    preload.write_text(OFFLINE_JS)
    modules = folder / "node_modules"
    env = {
        "HOME": str(workdir),
        "PATH": os.environ.get("PATH", ""),
        # the UI's server and the Homebridge it starts are both Node: both get the preload
        "NODE_OPTIONS": f"--require {preload}",
    }
    argv = ["node", str(modules / "homebridge-config-ui-x" / "dist" / "bin" / "hb-service.js"),
            "run", "-U", str(store), "-P", str(modules), "--strict-plugin-resolution",
            "--allow-root"]  # fmt: skip
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="api/auth/settings",
                 env=env, timeout_s=180)  # fmt: skip


APP = AppSpec(
    name="homebridge",
    kind="a device hub's settings (Homebridge UI, Angular single-page app, Bootstrap): status "
    "widgets, plugins, the config editor, users, settings, logs",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_HOMEBRIDGE_USER": USER, "PACTS_HOMEBRIDGE_PASSWORD": PASSWORD},
)
