"""pgAdmin 4: the administration tool of PostgreSQL, in the browser. A menu bar ("File",
"Object", "Tools", "Help"), the "Object Explorer" tree on the left (Servers > a server >
Databases, Login/Group Roles, Tablespaces > a database > Schemas > public > Tables ...; a
node is opened by the arrow beside it, and a server or database connects when it is
clicked), the object panels on the right ("Dashboard", "Properties", "SQL", "Statistics",
"Dependencies", "Dependents", "Processes"; a server's dashboard with its charts and "Server
activity": "Sessions", "Locks", "Prepared Transactions", "Configuration"), the Quick Links
("Add New Server", "Configure pgAdmin"), dialogs ("Register - Server" with its tabs
"General", "Connection", ...; "Preferences"; "About pgAdmin 4") and the Query Tool.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 7.8 shows, and committed before any engine run on it. Both versions are PyPI's
``pgadmin4`` package (Flask; a React page), run as the desktop-less web app in desktop mode
(``SERVER_MODE = False``: one user, no login page, no master password), served by its own
``pgAdmin4.py`` on 127.0.0.1. The drift between them is the app's own: 9.13 lays the page
out in workspaces (a bar of icons on the left: the default workspace, the Query Tool's, the
PSQL tool's, Schema Diff's), the tree panel reads "Explorer" (7.8: "Object Explorer") with a
filter button, the object panels' tabs gain close buttons, a server's dashboard has the tabs
"Activity", "State", "Configuration", "Logs", "System" (7.8: "General", "System Statistics",
with "Sessions", "Locks", "Prepared Transactions" and "Configuration" under "Server
activity"), and the page is drawn by newer React components.

Every start uses a fresh work folder and seeds it: a PostgreSQL cluster of its own (Debian's
``initdb`` and ``postgres``, run as the ``postgres`` OS user as the project's store tests do;
trust authentication; 127.0.0.1 at a free port) with a database ``bakery`` (the tables
``customers``, ``products`` and ``orders`` with a few rows, and the view ``big_orders``),
made with ``psql``; then pgAdmin's own files: ``config_local.py`` (the data folder, the port,
the upgrade check, server discovery and Gravatar off), its configuration database made by its
own ``setup.py`` (once per version into the cache, copied at every start), the server
"Bakery" registered by ``setup.py`` from a ``servers.json`` (with a password file, so that a
click on it connects), and the preference "Object explorer tree state saving interval" set to
-1 (the value pgAdmin's own Preferences dialog stores: the tree is not saved and restored
between flows, each flow starts on the tree as a new user sees it). The PostgreSQL server runs
in the pgAdmin server's process group and stops with it. Checked with ``strace -f -e
trace=connect`` on the server of both versions while it started and served the flows' pages,
and a Playwright request log: docs/real-apps.md, "New held-out app: pgAdmin 4".
"""

from __future__ import annotations

import fcntl
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, cache_root, ensure_venv, free_port, serve

VERSIONS = ("7.8", "9.13")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "7.8": """alembic==1.20.1 Authlib==1.2.1 azure-common==1.1.28 azure-core==1.41.0
azure-identity==1.13.0 azure-mgmt-core==1.6.0 azure-mgmt-rdbms==10.1.0 azure-mgmt-resource==23.0.1
azure-mgmt-subscription==3.1.1 babel==2.19.0 backports.zstd==1.8.0 bcrypt==4.0.1
bidict==0.24.1 blinker==1.9.0 boto3==1.28.85 botocore==1.31.85 brotli==1.2.1
certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.5.1
cryptography==40.0.2 dnspython==2.9.2 email-validator==2.4.0 eventlet==0.33.3 Flask==2.2.5
flask-babel==3.1.0 Flask-Compress==1.25 Flask-Gravatar==0.5.0 Flask-Login==0.6.3
Flask-Mail==0.10.0 Flask-Migrate==4.1.0 Flask-Paranoid==0.3.0 Flask-Principal==0.4.0
Flask-Security-Too==5.1.2 Flask-SocketIO==5.3.7 Flask-SQLAlchemy==3.0.5 Flask-WTF==1.1.1
google-api-core==2.44.0 google-api-python-client==2.202.0 google-auth==2.63.0
google-auth-httplib2==0.4.4 google-auth-oauthlib==1.0.0 googleapis-common-protos==1.76.0
greenlet==3.5.6 h11==0.16.0 httpagentparser==1.9.9 httplib2==0.32.1 idna==3.20
importlib_metadata==10.2.0 invoke==3.0.3 isodate==0.7.2 itsdangerous==2.2.0
jaraco.classes==3.4.0 jeepney==0.9.0 Jinja2==3.1.6 jmespath==1.1.0 keyring==23.13.1
lazy-importer==0.1.0 ldap3==2.9.1 Mako==1.4.3 MarkupSafe==3.0.4 more-itertools==11.2.1
msal==1.39.0 msal-extensions==1.3.1 msrest==0.7.1 oauthlib==4.0.1 opentelemetry-api==1.45.2
paramiko==5.1.0 passlib==1.7.4 proto-plus==1.29.0 protobuf==7.36.2 psutil==5.9.8
psycopg==3.1.12 psycopg-binary==3.1.12 pyasn1==0.6.5 pyasn1_modules==0.4.2 pycparser==3.12
PyJWT==2.15.1 PyNaCl==1.6.2 PyOTP==2.12.1 pyparsing==3.3.3 pypng==0.20220715.0
python-dateutil==2.9.0.post0 python-engineio==4.15.1 python-socketio==5.18.1 pytz==2023.4
qrcode==7.4.2 requests==2.34.2 requests-oauthlib==2.0.0 s3transfer==0.7.0 SecretStorage==3.5.0
simple-websocket==1.1.0 six==1.17.0 speaklater3==1.4 SQLAlchemy==2.1.9 sqlparse==0.6.1
sshtunnel==0.5.1 typing_extensions==4.16.0 ua-parser==1.0.2 ua-parser-builtins==202610
uritemplate==4.2.0 urllib3==1.26.20 user-agents==2.2.0 Werkzeug==2.2.3 wsproto==1.3.2
WTForms==3.0.1 zipp==4.1.2""",
    "9.13": """alembic==1.20.1 annotated-doc==0.0.7 Authlib==1.6.8 azure-common==1.1.28
azure-core==1.41.0 azure-identity==1.25.2 azure-mgmt-core==1.6.0 azure-mgmt-rdbms==10.1.1
azure-mgmt-resource==25.0.0 azure-mgmt-subscription==3.1.1 babel==2.19.0
backports.tarfile==1.2.0 backports.zstd==1.8.0 bcrypt==5.0.0 bidict==0.24.1 blinker==1.9.0
boto3==1.42.97 botocore==1.42.97 brotli==1.2.1 certifi==2026.1.4 cffi==2.1.1
charset-normalizer==3.5.3 click==8.5.1 cryptography==46.0.7 dnspython==2.9.2
email-validator==2.4.0 Flask==3.1.3 flask-babel==4.0.0 Flask-Compress==1.25 Flask-Login==0.6.3
Flask-Mail==0.10.0 Flask-Migrate==4.1.0 Flask-Paranoid==0.3.0 Flask-Principal==0.4.0
Flask-Security-Too==5.7.1 Flask-SocketIO==5.6.1 Flask-SQLAlchemy==3.1.1 Flask-WTF==1.2.2
google-api-core==2.44.0 google-api-python-client==2.202.0 google-auth==2.63.0
google-auth-httplib2==0.4.4 google-auth-oauthlib==1.2.4 googleapis-common-protos==1.76.0
h11==0.16.0 httplib2==0.32.1 idna==3.20 importlib_metadata==10.2.0 isodate==0.7.2
itsdangerous==2.2.0 jaraco.classes==3.4.0 jaraco.context==6.1.2 jaraco.functools==4.6.0
jeepney==0.9.0 Jinja2==3.1.6 jmespath==1.1.0 jsonformatter==0.3.4 keyring==25.7.0
lazy-importer==0.1.0 ldap3==2.9.1 libgravatar==1.0.4 libpass==1.9.4 Mako==1.4.3
markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2 more-itertools==11.2.1 msal==1.39.0
msal-extensions==1.3.1 msrest==0.7.1 oauthlib==4.0.1 opentelemetry-api==1.45.2 paramiko==3.5.1
passlib==1.7.4 pillow==13.0.0 proto-plus==1.29.0 protobuf==7.36.2 psutil==7.2.2 psycopg==3.3.3
psycopg-binary==3.3.3 pyasn1==0.6.5 pyasn1_modules==0.4.2 pycparser==3.12 Pygments==2.21.0
PyJWT==2.15.1 PyNaCl==1.6.2 PyOTP==2.12.1 pyparsing==3.3.3 python-dateutil==2.9.0.post0
python-engineio==4.15.1 python-socketio==5.18.1 pytz==2025.2 qrcode==8.2 requests==2.34.2
requests-oauthlib==2.0.0 rich==15.0.0 s3transfer==0.16.1 SecretStorage==3.5.0
shellingham==1.5.4 simple-websocket==1.1.0 six==1.17.0 SQLAlchemy==2.1.9 sqlparse==0.6.1
sshtunnel==0.5.1 typer==0.24.2 typing_extensions==4.16.0 ua-parser==1.0.2
ua-parser-builtins==202610 uritemplate==4.2.0 urllib3==2.6.3 user-agents==2.2.0
Werkzeug==3.1.9 wsproto==1.3.2 WTForms==3.2.2 zipp==4.1.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"pgadmin4=={v}", *_DEPS[v].split()) for v in VERSIONS}

SEED_SQL = """CREATE DATABASE bakery;
\\connect bakery
CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL, email text, city text);
CREATE TABLE products (id serial PRIMARY KEY, name text NOT NULL, price numeric(8,2) NOT NULL,
  in_stock boolean DEFAULT true);
CREATE TABLE orders (id serial PRIMARY KEY, customer_id integer REFERENCES customers(id),
  ordered_on date NOT NULL, total numeric(8,2));
INSERT INTO customers (name, email, city) VALUES ('Anna Miller', 'anna@example.org', 'Bremen'),
  ('Ben Carter', 'ben@example.org', 'Hamburg'), ('Clara Diaz', 'clara@example.org', 'Bremen');
INSERT INTO products (name, price, in_stock) VALUES ('Sourdough loaf', 4.50, true),
  ('Rye bread', 3.80, true), ('Croissant', 1.90, false), ('Apple pie', 12.00, true);
INSERT INTO orders (customer_id, ordered_on, total) VALUES (1, '2026-11-02', 9.00),
  (2, '2026-11-03', 3.80), (1, '2026-11-05', 24.00);
CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 5;
COMMENT ON TABLE products IS 'What the bakery sells';
"""

_CONFIG = """import os
SERVER_MODE = False
DATA_DIR = {data!r}
LOG_FILE = os.path.join(DATA_DIR, "pgadmin4.log")
SQLITE_PATH = os.path.join(DATA_DIR, "pgadmin4.db")
SESSION_DB_PATH = os.path.join(DATA_DIR, "sessions")
STORAGE_DIR = os.path.join(DATA_DIR, "storage")
AZURE_CREDENTIAL_CACHE_DIR = os.path.join(DATA_DIR, "azurecredentialcache")
KERBEROS_CCACHE_DIR = os.path.join(DATA_DIR, "krbccache")
UPGRADE_CHECK_ENABLED = False
MASTER_PASSWORD_REQUIRED = False
AUTO_DISCOVER_SERVERS = False
SHOW_GRAVATAR_IMAGE = False
DEFAULT_SERVER = "127.0.0.1"
DEFAULT_SERVER_PORT = {port}
"""

# Python's keyring would look for a desktop secret service; pgAdmin keeps no password there
_ENV = {"PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}


def _install(version: str) -> Path:
    return ensure_venv(f"pgadmin-{version}", list(PINS[version]))


def _pgadmin(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python3*/site-packages/pgadmin4/pgAdmin4.py"))
    return found[0].parent


def _setup(venv: Path, args: list[str], workdir: Path) -> None:
    """``pgadmin4/setup.py ARGS`` with ``workdir``'s ``config_local.py``."""
    env = {**os.environ, **_ENV, "PYTHONPATH": str(workdir), "HOME": str(workdir)}
    with (workdir / "setup.log").open("ab") as out:
        subprocess.run([str(venv / "bin" / "python"), str(_pgadmin(venv) / "setup.py"), *args],
                       cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, check=True,
                       timeout=900)  # fmt: skip


def _template(version: str, venv: Path) -> Path:
    """pgAdmin's configuration database of ``version``, made by its ``setup.py`` once into the
    cache (a lock and a stamp, as :func:`ensure_venv` does)."""
    folder = cache_root() / f"pgadmin-{version}-db"
    db = folder / "data" / "pgadmin4.db"
    stamp = folder / ".pacts-made"
    if stamp.exists() and db.exists():
        return db
    with open(cache_root() / f"pgadmin-{version}-db.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and db.exists():  # made while this one waited
            return db
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "data").mkdir(parents=True)
        (folder / "config_local.py").write_text(_CONFIG.format(data=str(folder / "data"), port=9))
        _setup(venv, [] if version.startswith("7.") else ["setup-db"], folder)
        stamp.touch()
    return db


def _bindir() -> Path:
    """Debian's PostgreSQL binaries, the newest major first (as tests/store/conftest.py)."""
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True,
                        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                        else 0):  # fmt: skip
        if (Path(found) / "postgres").is_file():
            return Path(found)
    raise RuntimeError("PostgreSQL's binaries are not installed (apt-get install postgresql)")


def _postgres(workdir: Path, bindir: Path) -> tuple[list[str], int, Path]:
    """A new cluster in ``workdir/pg`` (initdb as the ``postgres`` OS user when root), its
    server's command line and port; the cluster is seeded once the server answers."""
    pg = workdir / "pg"
    pg.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:
        os.chmod(workdir, 0o711)  # the postgres user walks into its own folder only
        shutil.chown(pg, user="postgres", group="postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(pg / "data"), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    port = free_port()
    command = [*as_user, str(bindir / "postgres"), "-D", str(pg / "data"),
               "-c", "listen_addresses=127.0.0.1", "-c", f"port={port}",
               "-c", f"unix_socket_directories={pg}", "-c", "fsync=off"]  # fmt: skip
    return command, port, pg


_LAUNCH = """import os, subprocess, sys, time
pg = subprocess.Popen({pg_command!r}, stdout=open({pg_log!r}, "ab"), stderr=subprocess.STDOUT)
for _ in range(600):
    if subprocess.run([{pg_isready!r}, "-h", {socket!r}, "-p", "{pg_port}", "-q"]).returncode == 0:
        break
    time.sleep(0.5)
subprocess.run([{psql!r}, "-h", {socket!r}, "-p", "{pg_port}", "-U", "postgres", "-q",
                "-v", "ON_ERROR_STOP=1", "-f", {seed!r}], check=True, timeout=300)
os.execv(sys.executable, [sys.executable, {pgadmin!r}])
"""


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    template = _template(version, venv)
    bindir = _bindir()
    pg_command, pg_port, pg = _postgres(workdir, bindir)
    data = workdir / "data"
    data.mkdir()
    shutil.copyfile(template, data / "pgadmin4.db")
    port = free_port()
    (workdir / "config_local.py").write_text(_CONFIG.format(data=str(data), port=port))
    passfile = workdir / "pgpass"
    passfile.write_text("*:*:*:*:unused\n")  # trust authentication: no password is asked
    passfile.chmod(0o600)
    server = {"Name": "Bakery", "Group": "Servers", "Host": "127.0.0.1", "Port": pg_port,
              "MaintenanceDB": "postgres", "Username": "postgres", "SSLMode": "prefer",
              "PassFile": str(passfile)}  # fmt: skip
    (workdir / "servers.json").write_text(json.dumps({"Servers": {"1": server}}))
    load = ["--load-servers"] if version.startswith("7.") else ["load-servers"]
    _setup(venv, [*load, str(workdir / "servers.json")], workdir)
    (workdir / "seed.sql").write_text(SEED_SQL)
    launch = workdir / "launch.py"
    launch.write_text(_LAUNCH.format(
        pg_command=pg_command, pg_log=str(workdir / "postgres.log"), pg_port=pg_port,
        pg_isready=str(bindir / "pg_isready"), psql=str(bindir / "psql"), socket=str(pg),
        seed=str(workdir / "seed.sql"), pgadmin=str(_pgadmin(venv) / "pgAdmin4.py"),
    ))  # fmt: skip
    env = {**_ENV, "PYTHONPATH": str(workdir), "HOME": str(workdir)}
    return serve(
        [str(venv / "bin" / "python"), str(launch)], port=port, cwd=workdir, workdir=workdir,
        ready="misc/ping", env=env, timeout_s=600,
        then=lambda base_url: _warm(base_url, data / "pgadmin4.db"),
    )  # fmt: skip


def _tree_state_off(db_path: Path) -> None:
    """The user's preference "Object explorer tree state saving interval" set to -1, as the
    Preferences dialog stores it (``user_preferences``), so the tree's state is not saved
    every 30 s and restored by a later flow. The preference's row is made by the server when
    it starts (``setup.py`` makes none), and a page reads the user's values when it loads."""
    with sqlite3.connect(db_path) as db:
        row = db.execute(
            "SELECT id FROM preferences WHERE name = 'browser_tree_state_save_interval'"
        ).fetchone()
        user = db.execute("SELECT id FROM user ORDER BY id LIMIT 1").fetchone()
        if row is None or user is None:
            raise RuntimeError("pgAdmin's setup made no tree state preference or user")
        db.execute("INSERT INTO user_preferences (pid, uid, value) VALUES (?, ?, '-1')",
                   (row[0], user[0]))  # fmt: skip


def _warm(base_url: str, db_path: Path) -> None:
    """Once the server answers: the tree state preference, then the main page asked for once."""
    _tree_state_off(db_path)
    with urllib.request.urlopen(base_url + "browser/", timeout=600) as answer:
        answer.read()


APP = AppSpec(
    name="pgadmin",
    kind="database administration tool (pgAdmin 4: the object tree, dashboards, properties, "
    "dialogs and the query tool of a PostgreSQL server; Flask and React)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
