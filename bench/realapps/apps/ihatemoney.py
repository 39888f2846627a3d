"""I hate money: a shared budget manager (a project per group of people; bills with who paid
and for whom, each participant's balance, a settle plan, statistics, a history), serving a
flat share of three people.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 6.0.1 shows, and committed before any engine run on it. Both versions are PyPI's
``ihatemoney`` package (Flask, SQLite); the drift between them is 6.0 -> 7.2's own UI: the
bill list gets a "Show filters" panel, a bill's delete confirmation is re-drawn, the project
menu gains entries, the settle and statistics pages are re-laid out.

5.x was not used: it asks a public exchange-rate service for its currency list on every page
and fails without network; 6.0 catches that error and runs offline (with no currencies
other than "No Currency", which the flows do not use).

Every start makes a fresh SQLite database in the work folder and seeds it through the app's
own REST API (a project, three participants, four bills), as a team would have it before
the flows run. The server is Flask's (``ihatemoney run``) on 127.0.0.1.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("6.0.1", "7.2.1")

PROJECT = ("flatshare", "flatshare-code")  # project identifier, private code

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "6.0.1": (
        "ihatemoney==6.0.1",
        "Flask==2.2.5",
        "Werkzeug==2.2.3",
        "flask-babel==3.1.0",
        "Flask-Cors==3.0.10",
        "Flask-Limiter==2.9.2",
        "Flask-Mail==0.10.0",
        "Flask-Migrate==4.1.0",
        "Flask-RESTful==0.3.10",
        "Flask-SQLAlchemy==2.5.1",
        "flask-talisman==1.1.0",
        "Flask-WTF==1.3.0",
        "WTForms==3.0.1",
        "SQLAlchemy==1.4.54",
        "SQLAlchemy-Continuum==1.9.0",
        "alembic==1.19.2",
        "email-validator==2.4.0",
        "cachetools==4.2.4",
        "debts==0.5",
        "qrcode==7.4.2",
        "limits==5.8.0",
        "rich==12.6.0",
        "Jinja2==3.1.6",
        "babel==2.19.0",
        "requests==2.34.2",
    ),
    "7.2.1": (
        "ihatemoney==7.2.1",
        "Flask==3.1.3",
        "Werkzeug==3.1.9",
        "flask-babel==4.0.0",
        "flask-cors==6.0.5",
        "Flask-Limiter==4.1.1",
        "Flask-Mail==0.10.0",
        "Flask-Migrate==4.1.0",
        "Flask-RESTful==0.3.10",
        "Flask-SQLAlchemy==3.1.1",
        "flask-talisman==1.1.0",
        "Flask-WTF==1.2.2",
        "WTForms==3.2.2",
        "SQLAlchemy==2.0.58",
        "SQLAlchemy-Continuum==1.5.2",
        "alembic==1.20.1",
        "email-validator==2.3.0",
        "cachetools==6.2.6",
        "debts==0.5",
        "qrcode==8.2",
        "limits==5.8.0",
        "Jinja2==3.1.6",
        "babel==2.19.0",
        "requests==2.32.5",
    ),
}

PEOPLE = ("Alice", "Bob", "Carol")

# (date, what, payer, amount, for whom)
BILLS: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("2026-11-02", "Groceries", "Alice", "60.00", PEOPLE),
    ("2026-11-05", "Electricity bill", "Bob", "90.00", PEOPLE),
    ("2026-11-09", "Cinema tickets", "Carol", "24.00", ("Alice", "Carol")),
    ("2026-11-12", "Cleaning supplies", "Alice", "15.00", PEOPLE),
)


def _api(base_url: str, path: str, data: Mapping[str, object], *, auth: bool = True) -> object:
    body = urllib.parse.urlencode(data, doseq=True).encode()
    request = urllib.request.Request(base_url + "api" + path, data=body, method="POST")
    if auth:
        token = base64.b64encode(":".join(PROJECT).encode()).decode()
        request.add_header("Authorization", "Basic " + token)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def seed(base_url: str) -> None:
    """The flat share: a project, three participants, four bills (through the REST API)."""
    project, code = PROJECT
    fields = {"name": "Flat share", "id": project, "password": code}
    fields |= {"contact_email": "alice@example.com", "default_currency": "XXX"}
    _api(base_url, "/projects", fields, auth=False)
    ids = {name: _api(base_url, f"/projects/{project}/members", {"name": name}) for name in PEOPLE}
    for date, what, payer, amount, owers in BILLS:
        bill = {"date": date, "what": what, "payer": ids[payer], "amount": amount}
        bill |= {"payed_for": [ids[o] for o in owers], "original_currency": "XXX"}
        _api(base_url, f"/projects/{project}/bills", bill)


def _install(version: str) -> Path:
    return ensure_venv(f"ihatemoney-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    settings = workdir / "ihatemoney.cfg"
    settings.write_text(
        f'SQLALCHEMY_DATABASE_URI = "sqlite:///{workdir / "budget.db"}"\n'
        'SECRET_KEY = "pacts-corpus"\n'
        "SESSION_COOKIE_SECURE = False\n"  # served over http on 127.0.0.1
        "ACTIVATE_DEMO_PROJECT = False\n"
        "ALLOW_PUBLIC_PROJECT_CREATION = True\n"
        "ACTIVATE_ADMIN_DASHBOARD = False\n"
    )
    port = free_port()
    argv = [str(venv / "bin" / "ihatemoney"), "run", "--host", "127.0.0.1", "--port", str(port)]
    env = {"IHATEMONEY_SETTINGS_FILE_PATH": str(settings), "FLASK_DEBUG": "0"}
    return serve(argv, port=port, cwd=workdir, workdir=workdir, env=env, timeout_s=120, then=seed)


APP = AppSpec(
    name="ihatemoney",
    kind="shared budget manager (I hate money: bills, balances, settle plan; Flask, SQLite)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_IHATEMONEY_PROJECT": PROJECT[0], "PACTS_IHATEMONEY_CODE": PROJECT[1]},
)
