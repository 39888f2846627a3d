"""Lektor: a static-site generator with a content admin in the browser (the site's pages in a
tree; for each page its fields to edit and save, a preview, subpages to add, deletion with a
confirmation, attachments; a "Find Files" panel to jump to a page by its name).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.2.3 shows, and committed before any engine run on it. Both versions are PyPI's
``Lektor`` package (Flask, its admin a React single-page app); the drift between them is the
app's own rewrite of the admin (3.2 -> 3.3): Bootstrap 3 -> 5, the admin's addresses
(``/admin/root:plants/edit`` -> ``/admin/edit?path=%2Fplants``), the header and sidebar
re-laid (the sidebar's wrappers and list classes gone, the breadcrumb's toggle an icon
button), a text area drawn over a replica of its text, "Save Changes" disabled until a field
changes, the "Edit" link given a keyboard shortcut in its title.

3.2.3 imports ``flask.helpers.safe_join`` (gone in Flask 2) and needs ``pytz`` without
declaring it, so its Flask is pinned to 1.1 with the Werkzeug, Jinja2 and MarkupSafe of
that time, and ``pytz`` is added.

Every start copies a small project into the work folder (a community garden's site: a home
page with the subpages "Events" and "Plants", each with a title, a summary, a body and a
"Featured" flag) and serves it with ``lektor server`` on 127.0.0.1, building into the work
folder (the admin writes its edits into the project's ``contents.lr`` files there).
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.2.3", "3.3.14")

_COMMON = (
    "babel==2.19.0",
    "blinker==1.9.0",
    "certifi==2026.10.19.post1",
    "charset-normalizer==3.5.3",
    "ExifRead==3.5.1",
    "filetype==1.2.0",
    "idna==3.20",
    "inifile==0.4.1",
    "mistune==0.8.4",
    "python-slugify==9.2.0",
    "pytz==2026.6",
    "requests==2.34.2",
    "text-unidecode==1.3",
    "urllib3==2.8.0",
    "watchdog==7.1.0",
)

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "3.2.3": (
        "Lektor==3.2.3",
        "Flask==1.1.4",
        "Werkzeug==1.0.1",
        "Jinja2==2.11.3",
        "MarkupSafe==2.0.1",
        "itsdangerous==1.1.0",
        "click==7.1.2",
        *_COMMON,
    ),
    "3.3.14": (
        "Lektor==3.3.14",
        "Flask==2.3.3",
        "Werkzeug==2.3.8",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "itsdangerous==2.2.0",
        "click==8.5.1",
        *_COMMON,
    ),
}

PROJECT: dict[str, str] = {
    "garden.lektorproject": "[project]\nname = Garden Club\n",
    "models/page.ini": """[model]
name = Page
label = {{ this.title }}

[fields.title]
label = Title
type = string

[fields.summary]
label = Summary
type = string

[fields.body]
label = Body
type = markdown

[fields.featured]
label = Featured
type = boolean
""",
    "templates/page.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>{{ this.title }}</title></head>
<body><h1>{{ this.title }}</h1>
<p>{{ this.summary }}</p>
{{ this.body }}
<ul>{% for child in this.children %}
<li><a href="{{ child|url }}">{{ child.title }}</a></li>{% endfor %}</ul>
</body></html>
""",
    "content/contents.lr": (
        "title: Garden Club\n---\nsummary: A community garden by the river\n---\n"
        "body:\n\nWelcome to the **Garden Club**.\n"
    ),
    "content/plants/contents.lr": (
        "title: Plants\n---\nsummary: What grows in our beds\n---\n"
        "body:\n\nTomatoes, courgettes and runner beans.\n"
    ),
    "content/events/contents.lr": (
        "title: Events\n---\nsummary: Work days and the harvest fair\n---\n"
        "body:\n\nThe harvest fair is in September.\n"
    ),
}


def _install(version: str) -> Path:
    return ensure_venv(f"lektor-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    project = workdir / "garden"
    for name, text in PROJECT.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    port = free_port()
    argv = [
        str(venv / "bin" / "lektor"),
        "--project",
        str(project),
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--output-path",
        str(workdir / "build"),
    ]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="admin/", timeout_s=120)


APP = AppSpec(
    name="lektor",
    kind="static-site content admin (Lektor: a site's pages, edit, add, delete, preview, find)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
