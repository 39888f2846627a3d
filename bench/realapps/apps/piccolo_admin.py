"""Piccolo Admin: a CRUD admin UI (Vue) that Piccolo Admin builds over Piccolo ORM tables. A
person runs a plant nursery's back office on it: the sidebar lists the tables ("Customer
Order", "Plant", "Supplier"); a table's page has "Add Row", "Sort", "Show filters" and "Export
CSV" over a list with a selection box and a "⋮" menu ("Edit", "Delete") on every row, a "?"
beside the title whose tooltip is the table's help text, and, once rows are ticked, "Update N
rows" and "Delete N rows"; "Show filters" opens a "Filter" panel (a field per column,
"Apply", "Clear filters"); "Add Row" and a row's "Edit" open a form ("Add plant", "Edit
plant": a box per column, "?" tooltips from the columns' help text, "Create" or "Save"). The
top bar has the site's name ("Nursery Admin"), "Translations" and the signed-in user's menu
("Log out", "Change password", "Dark Mode", "About Piccolo").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.45.2 shows, and committed before any engine run on it. Both versions are PyPI's
``piccolo-admin`` serving the same app (below, written for this corpus: Piccolo Admin is a
library, so its "app" is a script a person writes with ``create_admin``; it runs unchanged on
both versions), with SQLite (``piccolo[sqlite]``) and uvicorn. 0.45.2 (early 2023) needs the
Piccolo and FastAPI of its day: pip resolves today's ``piccolo`` 1.x and ``piccolo-api`` 1.x
for it, so ``piccolo==0.105.0``, ``piccolo-api==0.51.0``, ``fastapi==0.92.0`` and
``pydantic<2`` were asked for, and every package is pinned below as pip then resolved it
(``pip freeze``). A team on 0.45 upgrades to 1.14.0, the newest on this registry.

Every start uses a fresh work folder and seeds it through the app's own API (Piccolo ORM, the
tables the admin shows): the script is written there and run once with ``seed``, which creates
the tables in ``nursery.sqlite``, the admin user (``BaseUser.create_user_sync``) and the rows:
three suppliers ("Green Valley Growers", "Hillside Herbs", "Oak & Ash Trees"), eight plants
and four customer orders. Then the same script serves the admin on 127.0.0.1. Checked with
``strace -f -e trace=connect`` and a Playwright request log: docs/real-apps.md, "New
held-out app: Piccolo Admin".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.45.2", "1.14.0")

USER, PASSWORD = "gardener", "Seedling-Tray-42"

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "0.45.2": """aiofiles==25.1.0 aiosqlite==0.22.1 anyio==4.16.0 asyncpg==0.32.0 black==26.10.1
certifi==2026.10.19.post1 click==8.5.1 colorama==0.4.6 dnspython==2.9.2 docstring_parser==0.18.0
email-validator==2.4.0 fastapi==0.92.0 h11==0.16.0 h2==4.4.1 hpack==4.2.0 httpcore==1.0.9
httpx==0.28.1 Hypercorn==0.18.0 hyperframe==6.1.0 idna==3.20 inflection==0.5.1 Jinja2==3.1.6
MarkupSafe==3.0.4 mypy_extensions==1.2.0 packaging==26.4 pathspec==1.1.1 piccolo==0.105.0
piccolo-api==0.51.0 platformdirs==4.14.9 priority==2.0.0 pydantic==1.10.27 PyJWT==2.15.1
python-multipart==0.0.34 pytokens==0.4.1 starlette==0.25.0 targ==0.7.0 typing_extensions==4.16.0
uvicorn==0.54.0 wsproto==1.3.2""",
    "1.14.0": """aiofiles==25.1.0 aiosqlite==0.22.1 annotated-doc==0.0.7 annotated-types==0.8.0
anyio==4.16.0 asyncpg==0.32.0 black==26.10.1 certifi==2026.10.19.post1 click==8.5.1
colorama==0.4.6 dnspython==2.9.2 docstring_parser==0.18.0 email-validator==2.4.0
fastapi==0.165.0 h11==0.16.0 h2==4.4.1 hpack==4.2.0 httpcore==1.0.9 httpx==0.28.1
Hypercorn==0.18.0 hyperframe==6.1.0 idna==3.20 inflection==0.5.1 Jinja2==3.1.6 MarkupSafe==3.0.4
mypy_extensions==1.2.0 opentelemetry-api==1.45.2 packaging==26.4 pathspec==1.1.1
piccolo==1.38.0 piccolo_api==1.11.0 platformdirs==4.14.9 priority==2.0.0 pydantic==2.14.4
pydantic_core==2.50.5 PyJWT==2.15.1 python-multipart==0.0.34 pytokens==0.4.1 starlette==1.10.0
targ==0.7.0 typing-inspection==0.4.5 typing_extensions==4.16.0 uvicorn==0.54.0 wsproto==1.3.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"piccolo-admin=={v}", *_DEPS[v].split()) for v in VERSIONS}

SCRIPT = '''"""A plant nursery's back office: the corpus's Piccolo Admin app (runs unchanged)."""
import enum
import sys

from piccolo.apps.user.tables import BaseUser
from piccolo.columns import Boolean, ForeignKey, Integer, Text, Varchar
from piccolo.columns.readable import Readable
from piccolo.engine.sqlite import SQLiteEngine
from piccolo.table import Table
from piccolo_api.session_auth.tables import SessionsBase

DB = SQLiteEngine(path="nursery.sqlite")


class User(BaseUser, tablename="piccolo_user", db=DB):
    pass


class Sessions(SessionsBase, db=DB):
    pass


class Supplier(Table, db=DB, help_text="A grower the nursery buys plants from."):
    name = Varchar(length=100, help_text="The grower's trading name.")
    city = Varchar(length=100)
    email = Varchar(length=200, help_text="Where purchase orders are sent.")

    @classmethod
    def get_readable(cls):
        return Readable(template="%s", columns=[cls.name])


class Plant(Table, db=DB, help_text="A plant sold in the shop."):
    class Category(str, enum.Enum):
        tree = "Tree"
        shrub = "Shrub"
        perennial = "Perennial"
        herb = "Herb"

    name = Varchar(length=100, help_text="The common name shown on the label.")
    latin_name = Varchar(length=100, help_text="The botanical name, genus and species.")
    category = Varchar(length=20, choices=Category, default=Category.shrub)
    supplier = ForeignKey(Supplier)
    price = Integer(default=0, help_text="Price in euros.")
    stock = Integer(default=0, help_text="Pots in the shop today.")
    evergreen = Boolean(default=False)
    care_notes = Text(default="")

    @classmethod
    def get_readable(cls):
        return Readable(template="%s", columns=[cls.name])


class Order(Table, db=DB, tablename="customer_order", help_text="A customer's order."):
    customer = Varchar(length=100)
    plant = ForeignKey(Plant)
    quantity = Integer(default=1)
    delivered = Boolean(default=False)


TABLES = (User, Sessions, Supplier, Plant, Order)

SUPPLIERS = [
    ("Green Valley Growers", "Utrecht", "orders@greenvalley.example"),
    ("Hillside Herbs", "Ghent", "sales@hillsideherbs.example"),
    ("Oak & Ash Trees", "Lille", "trade@oakash.example"),
]
PLANTS = [
    ("Japanese Maple", "Acer palmatum", "Tree", 2, 89, 4, False),
    ("Silver Birch", "Betula pendula", "Tree", 2, 45, 7, False),
    ("Common Lavender", "Lavandula angustifolia", "Shrub", 1, 9, 40, True),
    ("Boxwood", "Buxus sempervirens", "Shrub", 0, 15, 25, True),
    ("Rosemary", "Salvia rosmarinus", "Herb", 1, 6, 32, True),
    ("Peppermint", "Mentha piperita", "Herb", 1, 5, 0, False),
    ("Purple Coneflower", "Echinacea purpurea", "Perennial", 0, 8, 18, False),
    ("Hosta", "Hosta sieboldiana", "Perennial", 0, 12, 0, False),
]
ORDERS = [("Ana Souza", 0, 1, True), ("Ben Okafor", 2, 6, False), ("Chloé Martin", 4, 3, False),
          ("Dev Patel", 1, 2, True)]


def seed():
    for table in TABLES:
        table.create_table(if_not_exists=True).run_sync()
    User.create_user_sync(username="gardener", password="Seedling-Tray-42", admin=True,
                          active=True, superuser=True, email="gardener@nursery.example")
    suppliers = []
    for name, city, email in SUPPLIERS:
        row = Supplier(name=name, city=city, email=email)
        row.save().run_sync()
        suppliers.append(row)
    plants = []
    for name, latin, category, supplier, price, stock, evergreen in PLANTS:
        row = Plant(name=name, latin_name=latin, category=category,
                    supplier=suppliers[supplier].id, price=price, stock=stock,
                    evergreen=evergreen)
        row.save().run_sync()
        plants.append(row)
    for customer, plant, quantity, delivered in ORDERS:
        Order(customer=customer, plant=plants[plant].id, quantity=quantity,
              delivered=delivered).save().run_sync()


def serve(port):
    import uvicorn
    from piccolo_admin.endpoints import create_admin

    app = create_admin([Supplier, Plant, Order], auth_table=User, session_table=Sessions,
                       site_name="Nursery Admin", production=False)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    if sys.argv[1] == "seed":
        seed()
    else:
        serve(int(sys.argv[1]))
'''


def _install(version: str) -> Path:
    return ensure_venv(f"piccolo_admin-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    script = workdir / "nursery.py"
    script.write_text(SCRIPT)
    python = str(venv / "bin" / "python")
    env = {"HOME": str(workdir)}
    with (workdir / "seed.log").open("wb") as out:
        subprocess.run([python, str(script), "seed"], cwd=workdir, stdout=out,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=True,
                       timeout=300, env={**os.environ, **env})  # fmt: skip
    port = free_port()
    argv = [python, str(script), str(port)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, env=env, timeout_s=180)


APP = AppSpec(
    name="piccolo_admin",
    kind="CRUD admin UI over ORM tables (Piccolo Admin, Vue): sidebar of tables, list with "
    "filters, sort, row menus, bulk actions, CSV export, add/edit forms, user menu",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_PICCOLO_USER": USER, "PACTS_PICCOLO_PASSWORD": PASSWORD},
)
