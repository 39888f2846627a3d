"""Node-RED: a flow editor (a low-code tool: a palette of nodes, flows drawn on a canvas in
tabs, a sidebar of info, help and debug panels, a main menu with import/export and settings
dialogs, a Deploy button), editing a small greenhouse's automation.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.0.6 shows, and committed before any engine run on it. Both versions are npm's
``node-red`` package, installed into the cache folder with ``npm install``; the drift is
the editor's own between 1.0 and 4.1 (the header and its Deploy menu, the sidebar's tab
bar, the palette, the dialogs and the menus re-laid out).

Every start makes a fresh user folder in the work folder with the greenhouse's flows
(``flows.json``) and a settings file (the editor on 127.0.0.1 at a free port, no login, no
first-run tour, no telemetry), and starts ``node-red`` on it; deployments are saved into that
folder only.
"""

from __future__ import annotations

import json
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_npm, free_port, serve

VERSIONS = ("1.0.6", "4.1.15")


def _node(
    nid: str, tab: str, kind: str, name: str, x: int, y: int, wires: list[str], **extra: object
) -> dict[str, object]:
    return {"id": nid, "type": kind, "z": tab, "name": name, "x": x, "y": y,
            "wires": [wires] if kind != "debug" else [], **extra}  # fmt: skip


# The greenhouse: a "Climate" flow (every 5 minutes a reading, a check, an alert) and a
# "Watering" flow (a morning schedule that opens the valve), each node named as a person
# reads it on the canvas.
FLOWS: list[dict[str, object]] = [
    {"id": "tab1", "type": "tab", "label": "Climate", "disabled": False,
     "info": "Temperature readings and alerts for the greenhouse."},
    {"id": "tab2", "type": "tab", "label": "Watering", "disabled": False,
     "info": "The morning watering schedule."},
    _node("n1", "tab1", "inject", "Every 5 minutes", 150, 100, ["n2"], props=[
        {"p": "payload"}], repeat="300", crontab="", once=False, onceDelay=0.1, topic="",
        payload="", payloadType="date"),
    _node("n2", "tab1", "function", "Read temperature", 360, 100, ["n3"],
          func="msg.payload = 31;\nreturn msg;", outputs=1, noerr=0, initialize="",
          finalize="", libs=[]),
    _node("n3", "tab1", "switch", "Too hot?", 560, 100, ["n4"], property="payload",
          propertyType="msg", rules=[{"t": "gt", "v": "30", "vt": "num"}],
          checkall="true", repair=False, outputs=1),
    _node("n4", "tab1", "debug", "Heat alert", 750, 100, [], active=True, tosidebar=True,
          console=False, tostatus=False, complete="payload", targetType="msg",
          statusVal="", statusType="auto"),
    _node("n5", "tab2", "inject", "Every morning at 6", 160, 100, ["n6"], props=[
        {"p": "payload"}], repeat="", crontab="00 06 * * *", once=False, onceDelay=0.1,
        topic="", payload="open", payloadType="str"),
    _node("n6", "tab2", "change", "Open valve", 380, 100, ["n7"], rules=[
        {"t": "set", "p": "payload", "pt": "msg", "to": "valve open", "tot": "str"}],
        action="", property="", from_="", to="", reg=False),
    _node("n7", "tab2", "debug", "Watering log", 580, 100, [], active=True, tosidebar=True,
          console=False, tostatus=False, complete="payload", targetType="msg",
          statusVal="", statusType="auto"),
]  # fmt: skip

SETTINGS = """module.exports = {
    uiHost: "127.0.0.1",
    uiPort: %(port)d,
    flowFile: "flows.json",
    credentialSecret: false,
    functionExternalModules: false,
    telemetry: { enabled: false, updateNotification: false },
    editorTheme: { tours: false, projects: { enabled: false },
                   palette: { catalogues: [] } },
    logging: { console: { level: "info", metrics: false, audit: false } }
};
"""


def _install(version: str) -> Path:
    """``<cache>/node-red-<version>`` with npm's ``node-red@<version>`` (made once; a lock
    serialises concurrent runs, the stamp is written last)."""
    return ensure_npm(
        f"node-red-{version}", f"node-red@{version}", "node_modules/.bin/node-red", timeout=900
    )


def seed(user_dir: Path, port: int) -> Path:
    """The greenhouse's flows and the settings file, in a fresh user folder."""
    user_dir.mkdir(parents=True)
    (user_dir / "flows.json").write_text(json.dumps(FLOWS, indent=2))
    settings = user_dir / "settings.js"
    settings.write_text(SETTINGS % {"port": port})
    return settings


def _start(version: str, workdir: Path) -> Served:
    binary = _install(version) / "node_modules" / ".bin" / "node-red"
    port = free_port()
    user_dir = workdir / "node-red"
    settings = seed(user_dir, port)
    argv = [str(binary), "--userDir", str(user_dir), "--settings", str(settings)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="flows", timeout_s=120)


APP = AppSpec(
    name="node_red",
    kind="flow editor (Node-RED: palette, canvas tabs, sidebar, menus and dialogs)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
