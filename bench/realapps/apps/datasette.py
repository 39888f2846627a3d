"""Datasette: a read-only SQLite explorer (server-rendered Jinja pages, a little JavaScript
for the column menus and the SQL editor), serving a small seeded shop database."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, spawn, wait_http

VERSIONS = ("0.59.4", "1.0a41")

# The versions pip resolved when the corpus entry was written, pinned so that a new release of
# a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "0.59.4": (
        "datasette==0.59.4",
        "aiofiles==0.8.0",
        "asgi-csrf==0.11",
        "asgiref==3.4.1",
        "click==8.0.4",
        "janus==0.7.0",
        "Jinja2==3.0.3",
        "MarkupSafe==3.0.4",
        "Pint==0.25.3",
        "pluggy==1.0.0",
        "PyYAML==6.0.3",
        "uvicorn==0.54.0",
    ),
    "1.0a41": (
        "datasette==1.0a41",
        "aiofiles==25.1.0",
        "asgiref==3.13.0",
        "click==8.5.1",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "pluggy==1.7.0",
        "PyYAML==6.0.3",
        "uvicorn==0.54.0",
    ),
}

DB_NAME = "shop"
TITLE = "Corner Shop Data"

CATEGORIES = (
    ("Beverages", "Coffee, tea and juices"),
    ("Bakery", "Bread and pastries baked every morning"),
    ("Dairy", "Milk, cheese and yoghurt"),
    ("Pantry", "Dry goods and tins"),
    ("Produce", "Fresh fruit and vegetables"),
)

PRODUCTS = (
    # name, category, price, colour/kind of packaging, in stock
    ("Arabica Coffee Beans", "Beverages", 12.5, "bag", 1),
    ("Breakfast Tea", "Beverages", 4.25, "box", 1),
    ("Green Tea", "Beverages", 4.75, "box", 1),
    ("Orange Juice", "Beverages", 3.1, "bottle", 1),
    ("Apple Juice", "Beverages", 2.95, "bottle", 0),
    ("Sparkling Water", "Beverages", 0.9, "bottle", 1),
    ("Hot Chocolate", "Beverages", 5.4, "tin", 1),
    ("Sourdough Loaf", "Bakery", 4.5, "bag", 1),
    ("Rye Bread", "Bakery", 3.8, "bag", 1),
    ("Butter Croissant", "Bakery", 1.6, "bag", 1),
    ("Cinnamon Roll", "Bakery", 2.2, "bag", 0),
    ("Blueberry Muffin", "Bakery", 2.1, "box", 1),
    ("Bagel", "Bakery", 1.2, "bag", 1),
    ("Whole Milk", "Dairy", 1.35, "bottle", 1),
    ("Oat Milk", "Dairy", 2.05, "carton", 1),
    ("Greek Yoghurt", "Dairy", 2.6, "tub", 1),
    ("Aged Cheddar", "Dairy", 6.9, "block", 1),
    ("Goat Cheese", "Dairy", 5.75, "tub", 0),
    ("Salted Butter", "Dairy", 2.4, "block", 1),
    ("Basmati Rice", "Pantry", 3.3, "bag", 1),
    ("Spaghetti", "Pantry", 1.5, "box", 1),
    ("Chopped Tomatoes", "Pantry", 0.85, "tin", 1),
    ("Chickpeas", "Pantry", 0.95, "tin", 1),
    ("Olive Oil", "Pantry", 8.2, "bottle", 1),
    ("Honey", "Pantry", 5.1, "jar", 0),
    ("Peanut Butter", "Pantry", 3.45, "jar", 1),
    ("Strawberry Jam", "Pantry", 2.75, "jar", 1),
    ("Bananas", "Produce", 1.1, "loose", 1),
    ("Red Apples", "Produce", 2.3, "bag", 1),
    ("Avocado", "Produce", 1.25, "loose", 1),
    ("Cherry Tomatoes", "Produce", 2.15, "tub", 1),
    ("Baby Spinach", "Produce", 1.95, "bag", 0),
    ("Lemons", "Produce", 1.8, "bag", 1),
    ("Sweet Potatoes", "Produce", 2.5, "loose", 1),
)

CUSTOMERS = (
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Margaret Hamilton",
    "Ken Thompson",
)
STATUSES = ("delivered", "delivered", "delivered", "shipped", "pending", "cancelled")
ORDER_COUNT = 240


def install(version: str) -> Path:
    return ensure_venv(f"datasette-{version}", list(PINS[version]))


def seed(path: Path) -> None:
    """The shop database: categories, products (with full-text search), orders, a view."""
    rng = random.Random(20240611)
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE categories (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            description TEXT
        );
        CREATE TABLE products (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            category_id INTEGER REFERENCES categories(id),
            price REAL NOT NULL,
            packaging TEXT,
            in_stock INTEGER NOT NULL
        );
        CREATE TABLE orders (
            id INTEGER PRIMARY KEY,
            product_id INTEGER REFERENCES products(id),
            customer TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            status TEXT NOT NULL,
            ordered_on TEXT NOT NULL
        );
        CREATE INDEX orders_product ON orders(product_id);
        CREATE INDEX products_category ON products(category_id);
        """
    )
    con.executemany(
        "INSERT INTO categories (id, name, description) VALUES (?, ?, ?)",
        [(i, name, desc) for i, (name, desc) in enumerate(CATEGORIES, start=1)],
    )
    cat_id = {name: i for i, (name, _) in enumerate(CATEGORIES, start=1)}
    con.executemany(
        "INSERT INTO products (id, name, category_id, price, packaging, in_stock)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (i, name, cat_id[cat], price, pack, stock)
            for i, (name, cat, price, pack, stock) in enumerate(PRODUCTS, start=1)
        ],
    )
    orders = []
    for i in range(1, ORDER_COUNT + 1):
        month = 1 + (i - 1) * 12 // ORDER_COUNT
        day = rng.randint(1, 28)
        orders.append(
            (
                i,
                rng.randint(1, len(PRODUCTS)),
                rng.choice(CUSTOMERS),
                rng.randint(1, 6),
                rng.choice(STATUSES),
                f"2024-{month:02d}-{day:02d}",
            )
        )
    con.executemany(
        "INSERT INTO orders (id, product_id, customer, quantity, status, ordered_on)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        orders,
    )
    # Full-text search on product names: Datasette shows its search box for this table.
    con.executescript(
        """
        CREATE VIRTUAL TABLE products_fts USING fts5(
            name, packaging, content="products", content_rowid="id"
        );
        INSERT INTO products_fts (rowid, name, packaging) SELECT id, name, packaging FROM products;
        CREATE VIEW order_totals AS
            SELECT orders.id AS order_id, orders.customer, products.name AS product,
                   orders.quantity, round(orders.quantity * products.price, 2) AS total
            FROM orders JOIN products ON products.id = orders.product_id;
        """
    )
    con.commit()
    con.close()


BEST_SELLERS_SQL = (
    "select products.name, sum(orders.quantity) as units\n"
    "from orders join products on products.id = orders.product_id\n"
    "group by products.name order by units desc limit 10"
)
CUSTOMER_ORDERS_SQL = (
    "select orders.id, products.name as product, orders.quantity, orders.status\n"
    "from orders join products on products.id = orders.product_id\n"
    "where orders.customer = :customer order by orders.id"
)


def write_config(version: str, workdir: Path) -> list[str]:
    """The metadata (title, table labels, one canned query) and the serve options for it;
    1.0 moved canned queries and table settings from metadata into a config file."""
    canned = {
        "best_sellers": {"title": "Best sellers", "sql": BEST_SELLERS_SQL},
        "customer_orders": {"title": "Orders of one customer", "sql": CUSTOMER_ORDERS_SQL},
    }
    tables = {"products": {"sort": "name"}}
    if version.startswith("0."):
        meta = {
            "title": TITLE,
            "databases": {DB_NAME: {"tables": tables, "queries": canned}},
        }
        (workdir / "metadata.json").write_text(json.dumps(meta, indent=2))
        return ["-m", "metadata.json"]
    (workdir / "metadata.json").write_text(json.dumps({"title": TITLE}, indent=2))
    config = {"databases": {DB_NAME: {"tables": tables, "queries": canned}}}
    (workdir / "datasette.json").write_text(json.dumps(config, indent=2))
    return ["-m", "metadata.json", "-c", "datasette.json"]


def start(version: str, workdir: Path) -> Served:
    venv = install(version)
    db = workdir / f"{DB_NAME}.db"
    seed(db)
    options = write_config(version, workdir)
    port = free_port()
    argv = [
        str(venv / "bin" / "datasette"),
        "serve",
        db.name,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *options,
        "--setting",
        "allow_facet",
        "on",
        "--setting",
        "default_page_size",
        "100",
        "--setting",
        "sql_time_limit_ms",
        "3000",
    ]
    proc, log = spawn(argv, cwd=workdir)
    base_url = f"http://127.0.0.1:{port}/"
    wait_http(base_url, timeout_s=60, proc=proc)
    return Served(base_url=base_url, process=proc, workdir=workdir, log=log)


APP = AppSpec(
    name="datasette",
    kind="SQLite explorer (server-rendered Jinja pages, light JavaScript)",
    versions=VERSIONS,
    install=install,
    start=start,
)
