"""Kinto: a JSON document store with sync and permissions, and its web admin (Kinto Admin):
sign in, buckets and their collections in a sidebar, a collection's records as a table, a
record's form drawn from the collection's JSON schema (or raw JSON where it has none), a
collection's attributes, permissions and history.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 14.8.0 shows, and committed before any engine run on it. Both versions are PyPI's
``kinto`` package (Pyramid), each with the admin build its wheel ships: Kinto Admin 2.0.0 in
kinto 14.8.0, 3.7.1 in kinto 20.6.1 (later wheels no longer carry the admin). The drift
between them is the admin's own: a record row's "Record permissions" button moves into a
drop-down beside "Edit record" and "Delete record", a "Quicksearch" box appears above the
records, the header shows the server's status, and the forms are re-rendered by a newer
JSON-schema form library.

Kinto 14.8 and 20.6 build their authentication on ``pyramid_multiauth``'s policy that 1.0
deprecated and no longer consults, so it is pinned to 0.9.0 (with 1.1, Basic Auth signs no
one in).

Every start writes a configuration (memory backends, Basic Auth, the admin and history
plugins; any user name and password pair is an account, as Kinto's Basic Auth is) and runs
``kinto start`` on 127.0.0.1, then seeds, through Kinto's HTTP API as ``alice``: a bucket
``garden`` (title "Community garden") with a collection ``plants`` whose schema has "Name",
"Bed" (a choice of North bed, South bed, Greenhouse) and "Perennial", three plants, and a
collection ``harvests`` without a schema.
"""

from __future__ import annotations

import base64
import json
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("14.8.0", "20.6.1")

_COMMON = (
    "attrs==26.1.0",
    "bcrypt==5.0.0",
    "certifi==2026.10.19.post1",
    "charset-normalizer==3.5.3",
    "colander==2.0",
    "colorama==0.4.6",
    "dockerflow==2026.3.4",
    "hupper==1.12.1",
    "idna==3.20",
    "iso8601==2.1.0",
    "jsonpatch==1.48",
    "jsonpointer==3.12",
    "jsonschema==4.26.0",
    "jsonschema-specifications==2025.9.1",
    "logging-color-formatter==1.1.0",
    "PasteDeploy==3.1.0",
    "plaster==1.1.2",
    "plaster-pastedeploy==1.0.1",
    "pyramid==2.1",
    "pyramid-multiauth==0.9.0",
    "pyramid_tm==2.6",
    "python-dateutil==4.0.0",
    "python-rapidjson==1.25",
    "referencing==0.37.0",
    "requests==2.34.2",
    "rpds-py==2026.9.1",
    "transaction==5.1",
    "translationstring==1.4",
    "typing_extensions==4.16.0",
    "tzdata==2026.6",
    "urllib3==2.8.0",
    "venusian==3.1.1",
    "waitress==3.0.2",
    "WebOb==1.8.11",
    "zope.deprecation==6.0",
    "zope.interface==8.7",
)

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "14.8.0": (
        "kinto==14.8.0",
        "cornice==6.1.0",
        "cornice-swagger==1.0.1",
        "pyramid-mailer==0.15.1",
        "repoze-sendmail==4.5",
        "six==1.17.0",
        *_COMMON,
    ),
    "20.6.1": ("kinto==20.6.1", *_COMMON),
}

USER = ("alice", "garden-admin-1")

CONFIG = """[app:main]
use = egg:kinto
kinto.storage_backend = kinto.core.storage.memory
kinto.storage_url =
kinto.cache_backend = kinto.core.cache.memory
kinto.cache_url =
kinto.permission_backend = kinto.core.permission.memory
kinto.permission_url =
kinto.includes = kinto.plugins.admin kinto.plugins.history
multiauth.policies = basicauth
multiauth.policy.basicauth.use = kinto.core.authentication.BasicAuthAuthenticationPolicy
kinto.userid_hmac_secret = a-local-test-server-secret-not-for-production
kinto.bucket_create_principals = system.Authenticated

[server:main]
use = egg:waitress#main
host = 127.0.0.1
port = {port}

[loggers]
keys = root
[handlers]
keys = console
[formatters]
keys = generic
[logger_root]
level = WARNING
handlers = console
[handler_console]
class = StreamHandler
args = (sys.stderr,)
level = NOTSET
formatter = generic
[formatter_generic]
format = %(message)s
"""

PLANT_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name"},
        "bed": {
            "type": "string",
            "title": "Bed",
            "enum": ["North bed", "South bed", "Greenhouse"],
        },
        "perennial": {"type": "boolean", "title": "Perennial"},
    },
    "required": ["name"],
}

# (method, path under /v1/, JSON body), in order: the records list shows the newest first
SEED: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("PUT", "buckets/garden", {"data": {"title": "Community garden"}}),
    (
        "PUT",
        "buckets/garden/collections/plants",
        {"data": {"displayFields": ["name", "bed"], "schema": PLANT_SCHEMA}},
    ),
    (
        "POST",
        "buckets/garden/collections/plants/records",
        {"data": {"name": "Tomato", "bed": "Greenhouse", "perennial": False}},
    ),
    (
        "POST",
        "buckets/garden/collections/plants/records",
        {"data": {"name": "Courgette", "bed": "South bed", "perennial": False}},
    ),
    (
        "POST",
        "buckets/garden/collections/plants/records",
        {"data": {"name": "Rhubarb", "bed": "North bed", "perennial": True}},
    ),
    ("PUT", "buckets/garden/collections/harvests", {"data": {}}),
    (
        "POST",
        "buckets/garden/collections/harvests/records",
        {"data": {"plant": "Tomato", "kilograms": 1.5}},
    ),
)


def _seed(base_url: str) -> None:
    token = base64.b64encode(f"{USER[0]}:{USER[1]}".encode()).decode()
    for method, path, body in SEED:
        request = urllib.request.Request(
            base_url + "v1/" + path, data=json.dumps(body).encode(), method=method
        )
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Basic {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()


def _install(version: str) -> Path:
    return ensure_venv(f"kinto-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    port = free_port()
    config = workdir / "kinto.ini"
    config.write_text(CONFIG.format(port=port))
    argv = [str(venv / "bin" / "kinto"), "start", "--ini", str(config)]
    return serve(
        argv, port=port, cwd=workdir, workdir=workdir, ready="v1/", timeout_s=120, then=_seed
    )


APP = AppSpec(
    name="kinto",
    kind="JSON document store admin (Kinto Admin: buckets, collections, records by schema)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_KINTO_USER": USER[0], "PACTS_KINTO_PASSWORD": USER[1]},
)
