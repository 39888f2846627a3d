"""Flask-Admin: a small shop back office (products, categories, customers, a report page).

One app file serves every version: Flask-Admin 1.6.1 renders its Bootstrap 3 templates (the
mode its documentation recommends; 1.x defaults to Bootstrap 2), Flask-Admin 2.x has only
Bootstrap 4 templates (a ``theme`` object instead of ``template_mode``). The app picks the
one its Flask-Admin has, so the drift between versions is the templates' own.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, spawn, wait_http

VERSIONS = ("1.6.1", "2.2.1")

# Per Flask-Admin version, the libraries it runs with on Python 3.11.
PINS: dict[str, tuple[str, ...]] = {
    "1.6.1": (
        "flask-admin==1.6.1",
        "Flask==2.2.5",
        "Werkzeug==2.2.3",
        "WTForms==3.0.1",
        "SQLAlchemy==1.4.52",
        "Flask-SQLAlchemy==3.0.5",
    ),
    "2.2.1": (
        "flask-admin[sqlalchemy]==2.2.1",
        "Flask==3.1.2",
        "Werkzeug==3.1.3",
        "WTForms==3.2.1",
        "SQLAlchemy==2.0.44",
        "Flask-SQLAlchemy==3.1.1",
    ),
}

APP_PY = textwrap.dedent(
    '''
    """Shop Admin: the corpus's Flask-Admin app (same code for every Flask-Admin version)."""
    import datetime
    import os
    import sys

    from flask import Flask, flash, redirect
    from flask_admin import Admin, AdminIndexView, BaseView, expose
    from flask_admin.actions import action
    from flask_admin.contrib.sqla import ModelView
    from flask_sqlalchemy import SQLAlchemy

    HERE = os.path.dirname(os.path.abspath(__file__))
    app = Flask(__name__, template_folder=os.path.join(HERE, "templates"))
    app.config["SECRET_KEY"] = "corpus-not-secret"
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(HERE, "shop.db")
    app.config["SQLALCHEMY_TRACK_MODIFICATIONS"] = False
    db = SQLAlchemy(app)


    class Category(db.Model):
        id = db.Column(db.Integer, primary_key=True)
        name = db.Column(db.String(80), nullable=False, unique=True)

        def __str__(self):
            return self.name


    class Product(db.Model):
        id = db.Column(db.Integer, primary_key=True)
        name = db.Column(db.String(120), nullable=False)
        sku = db.Column(db.String(20), nullable=False)
        price = db.Column(db.Float, nullable=False, default=0.0)
        in_stock = db.Column(db.Boolean, nullable=False, default=True)
        released = db.Column(db.Date)
        category_id = db.Column(db.Integer, db.ForeignKey("category.id"))
        category = db.relationship("Category", backref="products")

        def __str__(self):
            return self.name


    class Customer(db.Model):
        id = db.Column(db.Integer, primary_key=True)
        name = db.Column(db.String(120), nullable=False)
        email = db.Column(db.String(120), nullable=False)
        newsletter = db.Column(db.Boolean, nullable=False, default=False)
        joined = db.Column(db.Date)

        def __str__(self):
            return self.name


    class ProductView(ModelView):
        can_view_details = True
        column_list = ("name", "sku", "category", "price", "in_stock", "released")
        column_labels = {"sku": "SKU", "in_stock": "In Stock", "released": "Release Date"}
        column_searchable_list = ("name", "sku")
        column_filters = ("category", "in_stock", "price", "released")
        column_sortable_list = ("name", "sku", "price", "in_stock", "released")
        column_default_sort = "name"
        form_columns = ("name", "sku", "category", "price", "in_stock", "released")

        @action("out_of_stock", "Mark out of stock")
        def action_out_of_stock(self, ids):
            count = 0
            for product in Product.query.filter(Product.id.in_(ids)).all():
                product.in_stock = False
                count += 1
            db.session.commit()
            flash("%d product(s) marked out of stock." % count)


    class CategoryView(ModelView):
        column_searchable_list = ("name",)
        form_columns = ("name",)


    class CustomerView(ModelView):
        create_modal = True
        edit_modal = True
        can_view_details = True
        column_list = ("name", "email", "newsletter", "joined")
        column_labels = {"newsletter": "Newsletter", "joined": "Member Since"}
        column_searchable_list = ("name", "email")
        column_filters = ("newsletter",)
        column_default_sort = "name"
        form_columns = ("name", "email", "newsletter", "joined")


    class ReportView(BaseView):
        @expose("/")
        def index(self):
            products = Product.query.order_by(Product.name).all()
            value = sum(p.price for p in products if p.in_stock)
            return self.render("report.html", products=products, value=value)

        @expose("/restock/")
        def restock(self):
            for product in Product.query.all():
                product.in_stock = True
            db.session.commit()
            flash("Every product is back in stock.")
            return redirect("/admin/report/")


    def make_admin():
        kwargs = {"name": "Shop Admin"}
        try:
            from flask_admin.theme import Bootstrap4Theme
        except ImportError:
            kwargs["template_mode"] = "bootstrap3"
        else:
            kwargs["theme"] = Bootstrap4Theme()
        index = AdminIndexView(name="Home", template="home.html")
        admin = Admin(app, index_view=index, **kwargs)
        admin.add_view(ProductView(Product, db.session, name="Products", category="Catalog"))
        admin.add_view(
            CategoryView(Category, db.session, name="Categories", category="Catalog")
        )
        admin.add_view(CustomerView(Customer, db.session, name="Customers"))
        admin.add_view(ReportView(name="Stock Report", endpoint="report"))
        return admin


    def seed():
        db.drop_all()
        db.create_all()
        cats = {n: Category(name=n) for n in ("Books", "Garden", "Kitchen", "Toys")}
        db.session.add_all(cats.values())
        day = datetime.date
        rows = [
            ("Cast Iron Skillet", "KIT-001", "Kitchen", 34.5, True, day(2021, 3, 14)),
            ("Chef Knife", "KIT-002", "Kitchen", 59.0, True, day(2022, 7, 1)),
            ("Garden Hose", "GAR-001", "Garden", 25.0, False, day(2020, 5, 20)),
            ("Pruning Shears", "GAR-002", "Garden", 18.75, True, day(2023, 2, 9)),
            ("Python Cookbook", "BOO-001", "Books", 42.0, True, day(2013, 5, 10)),
            ("Space Opera Omnibus", "BOO-002", "Books", 19.99, False, day(2019, 11, 30)),
            ("Wooden Train Set", "TOY-001", "Toys", 64.0, True, day(2021, 12, 1)),
        ]
        for name, sku, cat, price, stock, released in rows:
            db.session.add(
                Product(
                    name=name, sku=sku, category=cats[cat], price=price,
                    in_stock=stock, released=released,
                )
            )
        people = [
            ("Ada Lovelace", "ada@example.com", True, day(2020, 1, 15)),
            ("Grace Hopper", "grace@example.com", False, day(2021, 6, 2)),
            ("Alan Turing", "alan@example.com", True, day(2022, 9, 23)),
        ]
        for name, email, news, joined in people:
            db.session.add(Customer(name=name, email=email, newsletter=news, joined=joined))
        db.session.commit()


    @app.route("/")
    def root():
        return redirect("/admin/")


    make_admin()

    if __name__ == "__main__":
        with app.app_context():
            seed()
        app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False, use_reloader=False)
    '''
)

HOME_HTML = textwrap.dedent(
    """
    {% extends 'admin/master.html' %}
    {% block body %}
    <h1>Welcome to Shop Admin</h1>
    <p>Manage the catalog, the customers and the stock from the menu above.</p>
    {% endblock %}
    """
)

REPORT_HTML = textwrap.dedent(
    """
    {% extends 'admin/master.html' %}
    {% block body %}
    <h1>Stock Report</h1>
    <p>Stock value: {{ '%.2f'|format(value) }}</p>
    <table class="table">
      <thead><tr><th>Product</th><th>Status</th></tr></thead>
      <tbody>
      {% for p in products %}
        <tr><td>{{ p.name }}</td><td>{{ 'In stock' if p.in_stock else 'Sold out' }}</td></tr>
      {% endfor %}
      </tbody>
    </table>
    <a class="btn btn-primary" href="{{ url_for('.restock') }}">Restock everything</a>
    {% endblock %}
    """
)


def _install(version: str) -> Path:
    return ensure_venv(f"flask_admin-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    (workdir / "templates").mkdir(parents=True, exist_ok=True)
    (workdir / "app.py").write_text(APP_PY)
    (workdir / "templates" / "home.html").write_text(HOME_HTML)
    (workdir / "templates" / "report.html").write_text(REPORT_HTML)
    port = free_port()
    argv = [str(venv / "bin" / "python"), "app.py", str(port)]
    proc, log = spawn(argv, cwd=workdir, env={"SQLALCHEMY_SILENCE_UBER_WARNING": "1"})
    base_url = f"http://127.0.0.1:{port}/"
    wait_http(base_url + "admin/", timeout_s=60, proc=proc)
    return Served(base_url=base_url, process=proc, workdir=workdir, log=log)


APP = AppSpec(
    name="flask_admin",
    kind="admin CRUD (Flask-Admin, Bootstrap 3 then Bootstrap 4 templates)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
