"""NocoDB: a spreadsheet-like database builder, a Vue single-page app (Nuxt, Ant Design Vue)
over a NestJS server, its metadata and the bases' tables in SQLite. A team keeps its tables in
it: a sidebar ("Team & Settings", "Create Base", the bases, each with its tables and their
views, "Create View"), a base's page (tabs "All Tables", "Members", "Data Sources"; "New Table",
"Import Data"), a table's grid with its toolbar ("Fields", "Filter", "Group By", "Sort", a
search box), "New record" and the record's expanded form, the table's "Details" (its fields,
relations, APIs, webhooks), the account menu.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.202.10 shows, and committed before any engine run on it. Both versions are npm's
``nocodb`` package (the server with the built app inside), installed by
``_node.locked_install`` from the lock file npm wrote when the corpus entry was made
(``nocodb_locks/<version>.json``). Scripts are off because ``nocodb-sdk``'s ``preinstall``
runs ``npx only-allow pnpm``, which downloads a package and refuses npm; the one native module
the server needs, ``sqlite3`` 5.1.7 (both versions), is then built from its source
(bench/realapps/README.md, "Installing from empty", says how long). 0.262.5 names ``xlsx`` by
a tarball address outside the registry, so the install overrides it with npm's
``xlsx@0.18.5`` (the release 0.202.10 resolves too).
0.262.5 is the newest release that runs on Node 20 (0.263 asks for Node 22). The drift is the
app's own: 0.262.5 redrew the base page ("Create New Table", "Connect External Data", a
"Settings" tab), the sidebar and the toolbar ("Group", the search box behind an icon), and
draws the grid's cells on a ``<canvas>`` (no cell in the document any more).

Every start uses a fresh work folder (NocoDB's ``noco.db`` is made there), a launcher that
serves NocoDB with Express on 127.0.0.1 at a free port (the package's documented use as a
library: ``Noco.init``), the super admin from the environment (``NC_ADMIN_EMAIL``,
``NC_ADMIN_PASSWORD``), telemetry off (``NC_DISABLE_TELE``), and seeds through NocoDB's own
REST API: one base "Bike Workshop" with the tables "Repairs" (8 rows: a bike, its customer, a
status of "Waiting", "In progress" or "Done", a price, "Paid") and "Parts" (5 rows). Checked with
``strace -f -e trace=connect`` and a Playwright request log: docs/real-apps.md, "New held-out
app: NocoDB".
"""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request
from pathlib import Path

from realapps.apps._node import LOOPBACK_DNS, SQLITE3_BINARY, call_json, locked_install
from realapps.harness import AppSpec, Served, free_port, serve

VERSIONS = ("0.202.10", "0.262.5")
LOCKS = Path(__file__).resolve().parent / "nocodb_locks"
OVERRIDES = {"0.202.10": {}, "0.262.5": {"xlsx": "0.18.5"}}
USER, PASSWORD = "anna@workshop.test", "Workshop-2024!"

# Only loopback names resolve (_node.LOOPBACK_DNS): NocoDB's server asks api.github.com for its
# newest release when the app loads (UtilsService.versionInfo, no setting turns it off); here that
# lookup fails at once, as the request failed offline before, and no DNS query leaves the machine.
LAUNCH = (
    LOOPBACK_DNS
    + """// Serve NocoDB on 127.0.0.1:PORT (argv[2]); metadata in the work folder.
const express = require('express');
const { Noco } = require('nocodb');
const app = express();
app.enable('trust proxy');
app.set('view engine', 'ejs');
const httpServer = app.listen(Number(process.argv[2]), '127.0.0.1', async () => {
  try {
    app.use(await Noco.init({}, httpServer, app));
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
});
"""
)

# (bike, customer, status, price, paid), in this order (the grid shows them so)
REPAIRS: tuple[tuple[str, str, str, int, bool], ...] = (
    ("Blue Gazelle city bike", "Mara Jensen", "Waiting", 45, False),
    ("Red Trek road bike", "Tom Okafor", "In progress", 120, False),
    ("Green Brompton folding bike", "Lena Fischer", "Done", 80, True),
    ("Black Cube mountain bike", "Sam Ortega", "Waiting", 60, False),
    ("Yellow cargo bike", "Priya Nair", "In progress", 150, True),
    ("Silver Giant hybrid", "Jonas Berg", "Done", 35, True),
    ("Orange kids' bike", "Ella Moreau", "Waiting", 20, False),
    ("White Canyon gravel bike", "Kofi Mensah", "Done", 95, False),
)
# (part, stock, supplier)
PARTS: tuple[tuple[str, int, str], ...] = (
    ("Brake pads", 24, "Velo Supply"),
    ("Inner tube 28 inch", 40, "Velo Supply"),
    ("Chain 11-speed", 6, "Cog & Co"),
    ("Bottom bracket", 3, "Cog & Co"),
    ("Handlebar tape", 12, "Ride Parts"),
)


def _install(version: str) -> Path:
    """``<cache>/nocodb-<version>``: ``npm ci --ignore-scripts`` from the committed lock file,
    then ``sqlite3`` built from source (``_node.locked_install``)."""
    package: dict[str, object] = {
        "name": f"nocodb-{version}",
        "private": True,
        "dependencies": {"nocodb": version},
    }
    if OVERRIDES[version]:
        package["overrides"] = OVERRIDES[version]
    return locked_install(
        f"nocodb-{version}", package, LOCKS / f"{version}.json", (SQLITE3_BINARY,)
    )


def _call(base_url: str, method: str, path: str, body: object, token: str = "") -> object:
    return call_json(base_url, method, path, body, {"xc-auth": token} if token else {})


def _wait_ready(base_url: str, timeout_s: float = 240.0) -> None:
    """Until ``api/v1/health`` answers 200: Express listens (and answers 404) before
    ``Noco.init`` has mounted NocoDB's routes."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(base_url + "api/v1/health", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"NocoDB at {base_url} not ready within {timeout_s:.0f} s")
        time.sleep(0.5)


def seed(base_url: str) -> None:
    """Sign in as the super admin, then the base, its two tables and their rows, through
    NocoDB's REST API (``/api/v1/auth/user/signin``, ``/api/v2/meta/bases``,
    ``/api/v2/meta/bases/{id}/tables``, ``/api/v2/tables/{id}/records``: on both versions)."""
    _wait_ready(base_url)
    signin = _call(base_url, "POST", "api/v1/auth/user/signin",
                   {"email": USER, "password": PASSWORD})  # fmt: skip
    token = str(signin["token"])  # type: ignore[index]
    base = _call(base_url, "POST", "api/v2/meta/bases", {"title": "Bike Workshop"}, token)
    base_id = base["id"]  # type: ignore[index]
    repairs = _call(base_url, "POST", f"api/v2/meta/bases/{base_id}/tables", {
        "table_name": "repairs", "title": "Repairs", "columns": [
            {"column_name": "title", "title": "Bike", "uidt": "SingleLineText", "pv": True},
            {"column_name": "customer", "title": "Customer", "uidt": "SingleLineText"},
            {"column_name": "status", "title": "Status", "uidt": "SingleSelect",
             "dtxp": "'Waiting','In progress','Done'"},
            {"column_name": "price", "title": "Price", "uidt": "Number"},
            {"column_name": "paid", "title": "Paid", "uidt": "Checkbox"},
        ]}, token)  # fmt: skip
    rows = [{"Bike": b, "Customer": c, "Status": s, "Price": p, "Paid": paid}
            for b, c, s, p, paid in REPAIRS]  # fmt: skip
    _call(base_url, "POST", f"api/v2/tables/{repairs['id']}/records", rows, token)  # type: ignore[index]
    parts = _call(base_url, "POST", f"api/v2/meta/bases/{base_id}/tables", {
        "table_name": "parts", "title": "Parts", "columns": [
            {"column_name": "title", "title": "Part", "uidt": "SingleLineText", "pv": True},
            {"column_name": "stock", "title": "Stock", "uidt": "Number"},
            {"column_name": "supplier", "title": "Supplier", "uidt": "SingleLineText"},
        ]}, token)  # fmt: skip
    rows = [{"Part": n, "Stock": s, "Supplier": sup} for n, s, sup in PARTS]
    _call(base_url, "POST", f"api/v2/tables/{parts['id']}/records", rows, token)  # type: ignore[index]


def _start(version: str, workdir: Path) -> Served:
    folder = _install(version)
    port = free_port()
    (workdir / "launch_nocodb.js").write_text(LAUNCH)
    env = {"NODE_PATH": str(folder / "node_modules"), "HOME": str(workdir),
           "NC_ADMIN_EMAIL": USER, "NC_ADMIN_PASSWORD": PASSWORD,
           "NC_AUTH_JWT_SECRET": "pacts-corpus-nocodb", "NC_DISABLE_TELE": "true",
           "NC_DISABLE_ERR_REPORTS": "true",
           "PATH": os.environ.get("PATH", "")}  # fmt: skip
    argv = ["node", str(workdir / "launch_nocodb.js"), str(port)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="api/v1/health",
                 env=env, timeout_s=300, then=seed)  # fmt: skip


APP = AppSpec(
    name="nocodb",
    kind="spreadsheet-like database builder (NocoDB, Vue single-page app): bases and tables "
    "in a sidebar, a grid with a toolbar (fields, filter, sort, group, search), a record's "
    "expanded form, create-table and create-view dialogs, team settings",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_NOCODB_USER": USER, "PACTS_NOCODB_PASSWORD": PASSWORD},
)
