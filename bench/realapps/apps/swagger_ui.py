"""Swagger UI: an API explorer (the operations of an OpenAPI description, grouped by tag,
each opened to try it against the live API: parameters, a request body, "Execute", the
response; an "Authorize" dialog for the API key; the schemas), documenting a team's small
Bookshelf API.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.24.3 shows, and committed before any engine run on it. Both versions are npm's
``swagger-ui-dist`` package (the static build), installed into the cache folder with ``npm
install``; the drift is Swagger UI's own between 3.x and 5.x (an operation's summary row
becomes a ``<button>``, the response's "Response content type" select becomes "Media type",
the dialogs and the "Schemas" section re-rendered).

Every start seeds a fresh SQLite database in the work folder and serves, with one stdlib
HTTP server on 127.0.0.1 (``apps/_bookshelf.py``), the page, the package's files, the API's
OpenAPI 3.0 description and the API itself; the page is ours and the same for both
versions, so what drifts is the package alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_npm, free_port, serve

VERSIONS = ("3.24.3", "5.35.0")

#: the shelf key the API asks for to add or remove a book (a flow types it in "Authorize")
SHELF_KEY = "shelf-7c1e"

SERVER = Path(__file__).resolve().with_name("_bookshelf.py")


def _install(version: str) -> Path:
    """``<cache>/swagger-ui-<version>`` with npm's ``swagger-ui-dist@<version>`` (made once;
    a lock serialises concurrent runs, the stamp is written last)."""
    return ensure_npm(
        f"swagger-ui-{version}",
        f"swagger-ui-dist@{version}",
        "node_modules/swagger-ui-dist/swagger-ui-bundle.js",
        timeout=600,
    )


def _start(version: str, workdir: Path) -> Served:
    dist = _install(version) / "node_modules" / "swagger-ui-dist"
    port = free_port()
    database = workdir / "bookshelf.sqlite3"
    argv = [sys.executable, str(SERVER), str(dist), str(port), str(database), SHELF_KEY]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="openapi.json", timeout_s=30)


APP = AppSpec(
    name="swagger_ui",
    kind="API explorer (Swagger UI on an OpenAPI 3.0 description of a live API)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_SHELF_KEY": SHELF_KEY},
)
