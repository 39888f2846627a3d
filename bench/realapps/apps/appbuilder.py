"""Flask-AppBuilder: a CRUD application builder (Flask, server-rendered, Bootstrap 3). What a
person sees is the framework's own: a top bar with the app's name, a "Security" menu ("List
Users", "List Roles", "User's Statistics", ...), the app's own menu ("Contacts": "List
Groups", "List Contacts") and the user's menu ("Profile", "Logout"); per model a list (a
"Search" panel with "Add Filter", sortable column headers, "Record Count", per row the
buttons named by their tooltips "Show record", "Edit record", "Delete record", and "Add a
new record" above the table), a show page (fieldsets, collapsible; a related model's list
in a tab), add and edit forms ("Save"), a confirmation dialog for a delete ("OK"), and the
security pages (users, roles, the user's own information, "Reset my password").

The app is the smallest one the framework's quick start describes (its "quickhowto"
example): two models, ``ContactGroup`` and ``Contact``, each with a ``ModelView``, SQLite,
database authentication. Its files are written into the fresh work folder at every start
(``contacts/``: the Flask app, its config, models, views and a seed script).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.4.5 shows, and committed before any engine run on it. Both versions are PyPI's
``Flask-AppBuilder``: 3.4.5 (Flask 1.1, select2 3.5, Font Awesome 4) and 5.3.0 (Flask 3.1,
SQLAlchemy 2, select2 4, Font Awesome 6). The drift is the framework's: the "Security" menu
gains "List Groups" (user groups), the user form a "Groups" field and "Is Active?" ticked
by default; the multiple selects (a user's "Role", a role's "Permissions") are drawn by
select2 4 (a ``combobox`` over a hidden ``<select>``) instead of select2 3.5's own list;
the login form's labels are tied to their fields; the delete dialog asks "Are you sure you
want to delete this item?" (was "You sure ..."); the icons are Font Awesome 6's.

3.4.5 as pip resolves it does not start on Python 3.11: Jinja2 2.11.3 imports
``markupsafe.soft_unicode``, gone since MarkupSafe 2.1; MarkupSafe is pinned to 2.0.1, the
last release that has it (the only pin not pip's own resolution).

Every start seeds a fresh work folder through the framework's own tools: its CLI makes the
database, the admin (``flask fab create-admin``) and a second user (``flask fab
create-user``, role Public); then a seeding script adds three groups and five contacts
through the framework's data interface (``SQLAInterface.add``, what a view's add form
calls). The server is Flask's own (``flask run``). Checked with ``strace -f -e
trace=connect`` on the server of both versions while the flows ran, and a Playwright request
log: docs/real-apps.md, "New held-out app: Flask-AppBuilder".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.4.5", "5.3.0")

USER, PASSWORD = "admin", "Contacts-2024"

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served; 3.4.5's MarkupSafe is 2.0.1
# (pip took 3.0.4, with which its Jinja2 2.11 does not import: the module's docstring).
_DEPS = {
    "3.4.5": """apispec==3.3.2 attrs==26.1.0 babel==2.19.0 click==7.1.2 colorama==0.4.6
defusedxml==0.7.1 dnspython==2.9.2 email-validator==1.3.1 Flask==1.1.4 Flask-Babel==2.0.0
Flask-JWT-Extended==3.25.1 Flask-Login==0.4.1 Flask-OpenID==1.3.1 Flask-SQLAlchemy==2.5.1
Flask-WTF==0.14.3 greenlet==3.5.6 idna==3.20 itsdangerous==1.1.0 Jinja2==2.11.3
jsonschema==4.26.0 jsonschema-specifications==2025.9.1 MarkupSafe==2.0.1 marshmallow==3.26.2
marshmallow-enum==1.5.1 marshmallow-sqlalchemy==0.26.1 packaging==26.4 prison==0.2.1
PyJWT==1.7.1 python-dateutil==2.9.0.post0 python3-openid==3.2.0 pytz==2026.6 PyYAML==6.0.4
referencing==0.37.0 rpds-py==2026.9.1 six==1.17.0 SQLAlchemy==1.4.54 SQLAlchemy-Utils==0.42.1
typing_extensions==4.16.0 Werkzeug==1.0.1 WTForms==2.3.3""",
    "5.3.0": """apispec==6.10.1 attrs==26.1.0 babel==2.19.0 blinker==1.9.0 click==8.5.1
colorama==0.4.6 Deprecated==1.3.1 dnspython==2.9.2 email-validator==2.4.0 Flask==3.1.3
flask-babel==4.0.0 Flask-JWT-Extended==4.7.4 Flask-Limiter==4.1.1 Flask-Login==0.6.3
Flask-SQLAlchemy==3.1.1 Flask-WTF==1.3.0 idna==3.20 itsdangerous==2.2.0 Jinja2==3.1.6
jsonschema==4.26.0 jsonschema-specifications==2025.9.1 limits==5.8.0 MarkupSafe==3.0.4
marshmallow==4.4.0 marshmallow-sqlalchemy==1.6.0 ordered-set==4.1.0 packaging==26.4
prison==0.2.1 PyJWT==2.15.1 python-dateutil==2.9.0.post0 pytz==2026.6 PyYAML==6.0.4
referencing==0.37.0 rpds-py==2026.9.1 six==1.17.0 SQLAlchemy==2.1.9 SQLAlchemy-Utils==0.43.0
typing_extensions==4.16.0 Werkzeug==3.1.9 wrapt==2.5.2 WTForms==3.3.2""",
}
PINS: dict[str, tuple[str, ...]] = {
    v: (f"Flask-AppBuilder=={v}", *_DEPS[v].split()) for v in VERSIONS
}

# The app, as the framework's quick start writes it ("quickhowto": contacts and their groups).
# Written for both majors: 5.x moved SQLA and needs the app context to build AppBuilder.
_INIT = """from flask import Flask
from flask_appbuilder import AppBuilder

try:
    from flask_appbuilder import SQLA
except ImportError:  # Flask-AppBuilder 5
    from flask_appbuilder.models.sqla.base import SQLA

app = Flask(__name__)
app.config.from_object("contacts.config")
db = SQLA(app)
with app.app_context():
    appbuilder = AppBuilder(app, db.session)
    from contacts import views  # noqa: E402,F401
"""

_CONFIG = """import os

from flask_appbuilder.security.manager import AUTH_DB

SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(os.environ["CONTACTS_DATA"], "app.db")
SQLALCHEMY_TRACK_MODIFICATIONS = False
SECRET_KEY = "contacts-corpus-not-secret"
CSRF_ENABLED = True
APP_NAME = "Contacts"
AUTH_TYPE = AUTH_DB
"""

_MODELS = """from flask_appbuilder import Model
from sqlalchemy import Column, Date, ForeignKey, Integer, String
from sqlalchemy.orm import relationship


class ContactGroup(Model):
    __tablename__ = "contact_group"
    id = Column(Integer, primary_key=True)
    name = Column(String(50), unique=True, nullable=False)

    def __repr__(self):
        return self.name


class Contact(Model):
    __tablename__ = "contact"
    id = Column(Integer, primary_key=True)
    name = Column(String(150), unique=True, nullable=False)
    address = Column(String(564))
    birthday = Column(Date)
    personal_phone = Column(String(20))
    personal_celphone = Column(String(20))
    contact_group_id = Column(Integer, ForeignKey("contact_group.id"), nullable=False)
    contact_group = relationship("ContactGroup")

    def __repr__(self):
        return self.name
"""

_VIEWS = """from flask_appbuilder import Model, ModelView
from flask_appbuilder.models.sqla.interface import SQLAInterface

from contacts import appbuilder, db
from contacts.models import Contact, ContactGroup


class ContactModelView(ModelView):
    datamodel = SQLAInterface(Contact)
    label_columns = {"contact_group": "Contacts Group"}
    list_columns = ["name", "personal_celphone", "birthday", "contact_group"]
    show_fieldsets = [
        ("Summary", {"fields": ["name", "address", "contact_group"]}),
        ("Personal Info", {"fields": ["birthday", "personal_phone", "personal_celphone"],
                           "expanded": False}),
    ]


class GroupModelView(ModelView):
    datamodel = SQLAInterface(ContactGroup)
    related_views = [ContactModelView]


Model.metadata.create_all(db.engine)
appbuilder.add_view(GroupModelView, "List Groups", icon="fa-folder-open-o",
                    category="Contacts", category_icon="fa-envelope")
appbuilder.add_view(ContactModelView, "List Contacts", icon="fa-envelope", category="Contacts")
"""

_SEED = '''"""Three groups and five contacts, through the framework's data interface."""
import datetime

from flask_appbuilder.models.sqla.interface import SQLAInterface

from contacts import app, db
from contacts.models import Contact, ContactGroup

CONTACTS = (
    ("Alice Johnson", "12 Elm Street, Springfield", (1985, 4, 12), "555-0101", "555-0191",
     "Family"),
    ("Bob Martinez", "48 Oak Avenue, Riverton", (1979, 11, 3), "555-0102", "555-0192",
     "Friends"),
    ("Carol White", "7 Pine Road, Lakeside", (1990, 6, 25), "555-0103", "555-0193", "Work"),
    ("David Chen", "301 Maple Lane, Hillview", (1982, 1, 17), "555-0104", "555-0194", "Work"),
    ("Emma Brown", "5 Birch Court, Springfield", (1995, 9, 8), "555-0105", "555-0195",
     "Friends"),
)
with app.app_context():
    groups = SQLAInterface(ContactGroup, db.session)
    people = SQLAInterface(Contact, db.session)
    made = {}
    for name in ("Family", "Friends", "Work"):
        made[name] = ContactGroup(name=name)
        groups.add(made[name])
    for name, address, born, phone, cel, group in CONTACTS:
        people.add(Contact(name=name, address=address, birthday=datetime.date(*born),
                           personal_phone=phone, personal_celphone=cel,
                           contact_group=made[group]))
    assert db.session.query(Contact).count() == len(CONTACTS)
'''

FILES = {
    "__init__.py": _INIT,
    "config.py": _CONFIG,
    "models.py": _MODELS,
    "views.py": _VIEWS,
    "seed.py": _SEED,
}

# (CLI command, its options): the admin the flows sign in as, and a second user to list
USERS = (
    ("create-admin", ("--username", USER, "--firstname", "Ada", "--lastname", "Admin",
                      "--email", "ada@contacts.invalid", "--password", PASSWORD)),
    ("create-user", ("--role", "Public", "--username", "grace", "--firstname", "Grace",
                     "--lastname", "Hopper", "--email", "grace@contacts.invalid",
                     "--password", "Grace-2024")),
)  # fmt: skip


def _install(version: str) -> Path:
    return ensure_venv(f"appbuilder-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    package = workdir / "contacts"
    package.mkdir()
    for name, text in FILES.items():
        (package / name).write_text(text)
    env = {"HOME": str(workdir), "FLASK_APP": "contacts", "CONTACTS_DATA": str(workdir)}
    run_env = {**os.environ, **env}
    for fab, options in USERS:
        subprocess.run([str(venv / "bin" / "flask"), "fab", fab, *options], cwd=workdir,
                       env=run_env, check=True, timeout=300, capture_output=True)  # fmt: skip
    subprocess.run([str(venv / "bin" / "python"), "-m", "contacts.seed"], cwd=workdir,
                   env=run_env, check=True, timeout=300, capture_output=True)  # fmt: skip
    port = free_port()
    command = [str(venv / "bin" / "flask"), "run", "--host", "127.0.0.1", "--port", str(port)]
    return serve(command, port=port, cwd=workdir, workdir=workdir, ready="login/", env=env,
                 timeout_s=240)  # fmt: skip


APP = AppSpec(
    name="appbuilder",
    kind="CRUD application builder (Flask-AppBuilder: model lists, forms, show pages, "
    "filters, users and roles; server-rendered)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_APPBUILDER_USER": USER, "PACTS_APPBUILDER_PASSWORD": PASSWORD},
)
