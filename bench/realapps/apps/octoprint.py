"""OctoPrint: a 3D printer's web interface (a sidebar of panels: the printer's connection,
its state with "Print", "Pause" and "Cancel", the uploaded files, each with icon buttons named
by their tooltips ("Download", "Move or Rename", "Remove", "Load", "Load and Print") and a
search box; tabs for temperature, control, G-code viewer, terminal and timelapse; a settings
dialog with a list of sections, each a form, and dialogs of its own for printer profiles and
users).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.9.3 shows, and committed before any engine run on it. Both versions are PyPI's
``OctoPrint`` package (Flask and Tornado serving a Knockout.js page), driving the virtual
printer plugin it bundles (a simulated printer on the serial port ``VIRTUAL``). The drift
between them is the app's own (1.10 and 1.11): a file's "Uploaded:" line becomes
"Updated:", a folder's row gains a menu, the files panel an upload manager icon, the settings
dialog a "Reverse Proxy Test" button, the footer other links and an "Achievements" one.

Every start writes a fresh base folder in the work folder: ``config.yaml`` (the first-run
wizard and the file check's wizard marked seen, the connectivity check, the plugin
blacklist and 1.11's Python end-of-life check off; the plugins that reach the network,
announcements, discovery, error tracking, usage tracking and software update, disabled; the
plugin repository and notices pointed at a loopback port nothing answers on; the virtual
printer on and connected at start; a known API key; signed in automatically from
127.0.0.1 as ``admin``, the heads-up about that acknowledged), ``users.yaml`` (``admin``)
and four G-code files in ``uploads/`` (``spares/`` a folder), which OctoPrint reads at
start. ``octoprint serve`` refuses to run as root without ``--iknowwhatimdoing``. The start
returns once the printer is connected and the files are listed through OctoPrint's own API.
1.9.3 is pinned with ``Flask-Limiter`` 3.8.0 and ``limits`` 4.8.0 (what 1.11.8 resolves): the
newest ``limits`` (5) has dropped the rate limiting strategy 1.9.3 asks for, and it stops at
start. Checked with ``strace -f -e trace=connect`` on both versions while they started,
connected and served their pages: no connection beyond 127.0.0.1; the pages load nothing from
other hosts (a Playwright request log).
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
from pathlib import Path

import yaml

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.9.3", "1.11.8")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_FROZEN = {
    "1.9.3": """OctoPrint==1.9.3 argon2-cffi==21.3.0 argon2-cffi-bindings==26.2.0
    async-timeout==5.0.1 Babel==2.12.1 blinker==1.9.0 cachelib==0.10.2
    certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 class-doc==0.2.6
    click==8.5.1 colorlog==6.12.0 Deprecated==1.3.1 emoji==2.16.0 feedparser==6.0.14
    feedparser-sgmllib==2.1.0 filetype==1.2.0 Flask==2.2.5 Flask-Assets==2.1.0
    flask-babel==3.1.0 Flask-Limiter==3.8.0 Flask-Login==0.6.3 frozendict==2.5.1
    future==0.18.3 idna==3.20 ifaddr==0.2.0 itsdangerous==2.2.0 Jinja2==3.1.6 limits==4.8.0
    Markdown==3.11.3 markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2
    more-itertools==11.2.1 netaddr==0.8.0 netifaces==0.11.0 OctoPrint-FileCheck==2025.7.23
    OctoPrint-FirmwareCheck==2025.7.23 OctoPrint-PiSupport==2025.7.23 ordered-set==4.1.0
    packaging==24.2 passlib==1.7.4 pathvalidate==2.5.2 pkginfo==1.13.3 psutil==5.9.8
    pycparser==3.12 pydantic==1.10.12 Pygments==2.21.0 pylru==1.3.3 pyserial==3.5
    pytz==2026.6 PyYAML==6.0.4 regex==2026.11.19 requests==2.34.2 rich==13.9.4
    sarge==0.1.7.post1 semantic-version==2.10.0 sentry-sdk==1.45.1 tornado==6.6.1
    typing_extensions==4.16.0 Unidecode==1.4.0 urllib3==2.8.0 watchdog==2.3.1
    webassets==3.0.0 websocket-client==1.9.2 Werkzeug==2.2.3 wrapt==1.15.0 zeroconf==0.39.4
    zipstream-ng==1.9.3 zope.dottedname==7.1""",
    "1.11.8": """OctoPrint==1.11.8 annotated-types==0.8.0 argon2-cffi==25.1.0
    argon2-cffi-bindings==26.2.0 babel==2.16.0 blinker==1.8.2 cachelib==0.13.0
    certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.2.1
    colorlog==6.12.0 Deprecated==1.3.1 emoji==2.16.0 feedparser==6.0.14
    feedparser-sgmllib==2.1.0 filetype==1.2.0 Flask==3.0.3 Flask-Assets==2.1.0
    flask-babel==4.0.0 Flask-Limiter==3.8.0 Flask-Login==0.6.3 frozendict==2.5.1
    future==1.0.0 idna==3.20 ifaddr==0.2.0 itsdangerous==2.2.0 Jinja2==3.1.6 libpass==1.9.4
    limits==4.8.0 Markdown==3.7 markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2
    more-itertools==11.2.1 netaddr==1.3.0 netifaces==0.11.0 OctoPrint-FileCheck==2025.7.23
    OctoPrint-FirmwareCheck==2025.7.23 OctoPrint-PiSupport==2025.7.23 ordered-set==4.1.0
    packaging==24.2 pathvalidate==3.3.1 psutil==6.1.1 pycparser==3.12 pydantic==2.14.4
    pydantic_core==2.50.5 Pygments==2.21.0 pylru==1.3.3 pyserial==3.5 pytz==2026.6
    PyYAML==6.0.4 regex==2026.11.19 requests==2.34.2 rich==13.9.4 sarge==0.1.7.post1
    semantic-version==2.10.0 sentry-sdk==2.75.0 tornado==6.5.10 typing-inspection==0.4.5
    typing_extensions==4.16.0 Unidecode==1.4.0 urllib3==2.8.0 watchdog==4.0.2
    webassets==3.0.0 websocket-client==1.8.0 Werkzeug==3.0.6 wrapt==1.17.3
    zeroconf==0.136.2 zipstream-ng==1.9.3 zope.dottedname==7.1""",
}
PINS: dict[str, tuple[str, ...]] = {v: tuple(text.split()) for v, text in _FROZEN.items()}

API_KEY = "8C0FFEE5EED5A1B2C3D4E5F60718293A"

# the admin's password ("admin") as OctoPrint's own `octoprint user add` hashed it (argon2id)
_ADMIN_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$cK4VAsB4D+Fca23tnTMGgA$"
    "fuz2gJpSoL8kYduU7OeSNFf8KaY8RMjdLywRf2E9u/8"
)

# uploads/<path> -> what the slicer wrote; the file list shows them by name, folders first
FILES: dict[str, tuple[str, ...]] = {
    "bracket.gcode": ("G28", "G1 Z0.2 F1200", "G1 X40 Y40 E2 F1800", "G1 X80 Y40 E4"),
    "cable_clip.gcode": ("G28", "G1 Z0.2 F1200", "G1 X20 Y20 E1 F1800"),
    "phone_stand.gcode": ("G28", "G1 Z0.3 F1200", "G1 X60 Y60 E3 F1800", "G1 X90 Y60 E5"),
    "spares/knob.gcode": ("G28", "G1 Z0.2 F1200", "G1 X10 Y10 E1 F1800"),
}


def _config() -> dict[str, object]:
    return {
        "accessControl": {
            "autologinLocal": True,
            "autologinAs": "admin",
            "localNetworks": ["127.0.0.0/8"],
            "autologinHeadsupAcknowledged": True,
        },
        "api": {"key": API_KEY},
        "server": {
            "firstRun": False,
            "onlineCheck": {"enabled": False},
            "pluginBlacklist": {"enabled": False},
            "seenWizards": {"corewizard": 4, "file_check": 1, "classicwebcam": 1},
        },
        "serial": {"autoconnect": True, "port": "VIRTUAL", "baudrate": 0},
        "plugins": {
            "_disabled": [
                "announcements",
                "discovery",
                "errortracking",
                "tracking",
                "softwareupdate",
            ],
            "virtual_printer": {"enabled": True},
            "pluginmanager": {
                "repository": "http://127.0.0.1:9/plugins.json",
                "notices": "http://127.0.0.1:9/notices.json",
            },
            # 1.11's health checks: two ask octoprint.org and PyPI, one warns of the API key
            "health_check": {"disabled": ["python_eol", "octoprint_freshness", "global_api_key"]},
        },
    }


def _write_basedir(base: Path) -> None:
    base.mkdir(parents=True)
    base.joinpath("config.yaml").write_text(yaml.safe_dump(_config()))
    users = {
        "_version": 2,
        "admin": {
            "active": True,
            "apikey": None,
            "groups": ["admins"],
            "password": _ADMIN_HASH,
            "permissions": [],
            "roles": ["user", "admin"],
            "settings": {},
        },
    }
    base.joinpath("users.yaml").write_text(yaml.safe_dump(users))
    for name, lines in FILES.items():
        path = base / "uploads" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(("; sliced for the workshop", *lines, "M104 S0", "M84")) + "\n")


def _get(base_url: str, path: str) -> dict[str, object]:
    request = urllib.request.Request(base_url + path)
    request.add_header("X-Api-Key", API_KEY)
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    assert isinstance(answer, dict)
    return answer


def _ready(base_url: str) -> None:
    """Wait until the virtual printer is connected and the seeded files are listed (while
    OctoPrint loads, an interim server answers its page and nothing else)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            current = _get(base_url, "api/connection").get("current")
            files = _get(base_url, "api/files?recursive=true").get("files")
        except (OSError, http.client.HTTPException, ValueError):
            current, files = None, None
        if isinstance(current, dict) and current.get("state") == "Operational" and files:
            return
        time.sleep(0.5)
    raise TimeoutError("OctoPrint's virtual printer was not connected in 180 s")


def _install(version: str) -> Path:
    return ensure_venv(f"octoprint-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    base = workdir / "octoprint"
    _write_basedir(base)
    port = free_port()
    command = [
        str(venv / "bin" / "octoprint"),
        "serve",
        "--basedir",
        str(base),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--iknowwhatimdoing",
    ]
    return serve(
        command,
        port=port,
        cwd=workdir,
        workdir=workdir,
        # OctoPrint runs `pip --version` at start; pip would ask PyPI for a newer pip
        env={"HOME": str(workdir), "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        timeout_s=240,
        then=_ready,
    )


APP = AppSpec(
    name="octoprint",
    kind="3D printer web interface (OctoPrint: files, temperature, control, settings dialogs)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
