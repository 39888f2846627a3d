"""Radicale: a CalDAV and CardDAV server (calendars, task lists and address books for
calendar and contacts clients) with its own web interface to manage a user's collections:
sign in, create a calendar or an address book, edit its title, description, type and colour,
delete it, upload a file, sign out.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.0.6 shows, and committed before any engine run on it. Both versions are PyPI's
``radicale`` package (pure Python, its own WSGI server, collections in a folder); the drift
between them is the web interface's own redesign: 3.0.6's text links ("Create new addressbook
or calendar", "Edit", "Delete", "Logout [alice]") become icon links named by their tooltip,
the "Login" heading becomes "Sign in", the create and edit forms gain labelled fields (and a
"HREF" and a "Source"), and deleting asks to type a confirmation phrase instead of "Yes"/"No".

The web interface is one page whose scenes are shown and hidden by script; it keeps the
sign-in in the page's memory only, so every flow signs in first, as a person does.

Every start writes a password file (one user, plain text: a local test server) and a
configuration into the work folder, serves an empty collections folder there on 127.0.0.1,
and seeds the user's collections through the server's own CalDAV/CardDAV methods (MKCOL and
PUT, as a calendar client would): a "Family" calendar with two events, a "Work" calendar
with tasks, a "Contacts" address book with one card.
"""

from __future__ import annotations

import base64
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.0.6", "3.9.0")

USER = ("alice", "wonderland")  # user name, password

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "3.0.6": (
        "radicale==3.0.6",
        "defusedxml==0.7.1",
        "passlib==1.7.4",
        "python-dateutil==4.0.0",
        "vobject==0.9.9",
        "pytz==2026.6",
        "six==1.17.0",
        "tzdata==2026.6",
    ),
    "3.9.0": (
        "radicale==3.9.0",
        "defusedxml==0.7.1",
        "libpass==1.9.4",
        "pika==1.4.4",
        "python-dateutil==4.0.0",
        "vobject==0.9.9",
        "pytz==2026.6",
        "six==1.17.0",
        "tzdata==2026.6",
        "requests==2.34.2",
        "urllib3==2.8.0",
        "certifi==2026.10.19.post1",
        "charset-normalizer==3.5.3",
        "idna==3.20",
    ),
}

_NS = (
    'xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" '
    'xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:I="http://apple.com/ns/ical/" '
    'xmlns:INF="http://inf-it.com/ns/ab/"'
)

# (href, title, description, colour, components; none for an address book)
COLLECTIONS: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("family", "Family", "Birthdays and school holidays", "#3465a4", ("VEVENT",)),
    ("work", "Work", "Meetings and deadlines", "#cc0000", ("VEVENT", "VTODO")),
    ("contacts", "Contacts", "Friends and neighbours", "#4e9a06", ()),
)

EVENTS: tuple[tuple[str, str, str, str], ...] = (  # collection, uid, start date, summary
    ("family", "grandma-birthday", "20261205", "Grandma's birthday"),
    ("family", "school-holidays", "20261221", "School holidays begin"),
)

CARD = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bob-baker\r\nFN:Bob Baker\r\nN:Baker;Bob;;;\r\n"
    "TEL;TYPE=CELL:+44 20 7946 0018\r\nEND:VCARD\r\n"
)


def _dav(base_url: str, method: str, path: str, body: str, content_type: str) -> None:
    request = urllib.request.Request(base_url + path, data=body.encode(), method=method)
    token = base64.b64encode(":".join(USER).encode()).decode()
    request.add_header("Authorization", "Basic " + token)
    request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()


def _mkcol(href: str, title: str, description: str, color: str, comps: tuple[str, ...]) -> str:
    if comps:
        kind = "<C:calendar />"
        comp_set = "".join(f'<C:comp name="{c}" />' for c in comps)
        extra = (
            f"<C:supported-calendar-component-set>{comp_set}</C:supported-calendar-component-set>"
        )
        extra += f"<I:calendar-color>{color}ff</I:calendar-color>"
        extra += f"<C:calendar-description>{description}</C:calendar-description>"
    else:
        kind = "<CR:addressbook />"
        extra = f"<INF:addressbook-color>{color}ff</INF:addressbook-color>"
        extra += f"<CR:addressbook-description>{description}</CR:addressbook-description>"
    return (
        f'<?xml version="1.0" encoding="UTF-8" ?><mkcol {_NS}><set><prop>'
        f"<resourcetype><collection />{kind}</resourcetype>"
        f"<displayname>{title}</displayname>{extra}</prop></set></mkcol>"
    )


def seed(base_url: str) -> None:
    """The user's three collections, two events and a contact (CalDAV/CardDAV requests)."""
    user = USER[0]
    for href, title, description, color, comps in COLLECTIONS:
        body = _mkcol(href, title, description, color, comps)
        _dav(base_url, "MKCOL", f"{user}/{href}/", body, "application/xml")
    for collection, uid, day, summary in EVENTS:
        event = (
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//pacts corpus//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20261101T090000Z\r\nDTSTART;VALUE=DATE:{day}\r\n"
            f"SUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        )
        _dav(base_url, "PUT", f"{user}/{collection}/{uid}.ics", event, "text/calendar")
    _dav(base_url, "PUT", f"{user}/contacts/bob-baker.vcf", CARD, "text/vcard")


def _install(version: str) -> Path:
    return ensure_venv(f"radicale-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    users = workdir / "users"
    users.write_text(":".join(USER) + "\n")
    port = free_port()
    config = workdir / "radicale.cfg"
    config.write_text(
        f"[server]\nhosts = 127.0.0.1:{port}\n"
        f"[auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\n"
        f"[storage]\nfilesystem_folder = {workdir / 'collections'}\n"
        "[rights]\ntype = owner_only\n"
        "[logging]\nlevel = warning\n"
    )
    argv = [str(venv / "bin" / "python"), "-m", "radicale", "--config", str(config)]
    return serve(
        argv, port=port, cwd=workdir, workdir=workdir, ready=".web/", timeout_s=120, then=seed
    )


APP = AppSpec(
    name="radicale",
    kind="calendar and contacts server (Radicale: its web interface for collections)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_RADICALE_USER": USER[0], "PACTS_RADICALE_PASSWORD": USER[1]},
)
