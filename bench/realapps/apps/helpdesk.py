"""django-helpdesk: a ticket desk for a team's support staff, with a public side. Staff sign in
("Please Sign In": "Username", "Password", "Login") to a side navigation ("Dashboard", "All
Tickets", "Saved Queries", "New Ticket", "Reports", "Knowledgebase") and a top bar with a
"Search..." box and "Go"; the dashboard lists "Open Tickets assigned to you", "Unassigned
Tickets" (each with "Take" and "Delete") and "Closed & resolved Tickets you used to work on";
"All Tickets" is a table of tickets with a "Query Selection" of filters ("Add filter:",
"Status(es):", "Apply Filters", "Save Query") and "With Selected Tickets:" actions; a ticket's
page shows its details ("Edit", "Delete", "Hold"), its "Follow-Ups" and "Respond to this
ticket" ("Comment / Resolution", "New Status", "Update This Ticket"); "New Ticket" is the
"Submit a Ticket" form ("Queue", "Summary of the problem", "Description of your issue",
"Priority", "Submitter E-Mail Address", "Case owner", "Submit Ticket"). Signed out, the
homepage has the "Knowledgebase Articles", the public "Submit a Ticket" form and "View a
Ticket".

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.5.0 shows, and committed before any engine run on it. Both versions are PyPI's
``django-helpdesk``: 0.5.0 (2023, Bootstrap 4, the "SB Admin" layout) and 2.6.1 (2026,
Bootstrap 5: a ticket's page redrawn with an "Actions" menu and "Follow ups" / "Respond" tabs,
the ticket list's filters and bulk actions behind "Filters", "Queries" and "Actions" buttons,
the signed-in name shortened to the first name, "Knowledgebase" written "Knowledge Base"), the
upgrade a team on 0.5 makes. 2.6.1 needs Django 5.2; 0.5.0 is served on Django 4.2 (the LTS of
its time; its pins' newest Django REST framework needs 5.2, so that is held at 3.15.2) with
the pinax apps its migrations depend on (teams), which 2.6.1 makes optional
(``HELPDESK_TEAMS_MODE_ENABLED = False`` there). django-helpdesk has no server of its own: the
project is set up by hand, as its "Installation" documentation describes (``_FILES`` below:
the settings, the URLs at the site's root), and served by ``manage.py runserver`` on 127.0.0.1
with SQLite; e-mail goes to Django's in-memory backend.

The migrated, seeded database is built once per version and project hash in the venv folder
(``harness.django_template_db``) and copied into each start's work folder. Seeded through the
models: a staff superuser ``agent`` ("Ines Varga") and a staff member ``tomas`` ("Tomas
Berg"); the queues "Loans and Returns" and "Public Computers" (public submission on); six
tickets of a town library ("Overdue notice for a returned book", "Renew interlibrary loan",
"Lost library card" (resolved), "Printer on floor 2 is jammed" (with a private comment),
"Wi-Fi password not accepted" (reopened), "Scanner saves blank pages" (closed)); a
knowledgebase category "Borrowing books" with one article. The pages load their scripts and
styles from the package (``HELPDESK_USE_CDN``, off by default, would take Bootstrap, jQuery and
the ticket list's timeline from CDNs): a request log over the flows' pages of both versions saw
no request to another host. Only a checklist's page asks unpkg.com and jsdelivr.net for a
sortable list, whatever the setting; the corpus's browser resolves no other host, so those fail
at once, and no flow opens that page (docs/real-apps.md, "New held-out app: django-helpdesk").
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, start_django_project

VERSIONS = ("0.5.0", "2.6.1")

ENV = {"PACTS_HELPDESK_USER": "agent", "PACTS_HELPDESK_PASSWORD": "Front-Desk-2026"}

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served; 0.5.0's Django held at 4.2
# and its Django REST framework at 3.15.2 (see above).
PINS: dict[str, tuple[str, ...]] = {
    "0.5.0": (
        "django-helpdesk==0.5.0", "akismet==25.10.1", "amqp==5.4.2", "anyio==4.16.0",
        "asgiref==3.13.0", "beautifulsoup4==4.15.0", "billiard==4.3.2", "celery==5.7.0",
        "certifi==2026.10.19.post1", "charset-normalizer==3.5.3", "click==8.5.1",
        "click-didyoumean==0.3.1", "click-plugins==1.1.1.2", "click-repl==0.4.1",
        "Django==4.2.30", "django-appconf==1.2.0", "django-bootstrap4-form==4.0.2",
        "django-cleanup==9.0.0", "django-model-utils==5.0.0", "django-reversion==6.4.0",
        "django-user-accounts==3.3.2", "djangorestframework==3.15.2",
        "email-reply-parser==0.5.12", "h11==0.16.0", "httpcore==1.0.9", "httpx==0.28.1",
        "idna==3.20", "kombu==5.7.0", "lxml==6.1.3", "Markdown==3.11.3", "oauthlib==4.0.1",
        "packaging==26.4", "pillow==13.0.0", "pinax-invitations==8.0.1", "pinax-teams==3.0.1",
        "prompt_toolkit==3.0.53", "python-dateutil==2.9.0.post0", "python-slugify==9.2.0",
        "pytz==2026.6", "requests==2.34.2", "requests-oauthlib==2.0.0", "simplejson==4.3.0",
        "six==1.17.0", "soupsieve==4.1.3", "sqlparse==0.6.1", "text-unidecode==1.3",
        "typing_extensions==4.16.0", "tzlocal==5.4.5", "urllib3==2.8.0", "vine==5.1.0",
        "wcwidth==0.9.4",
    ),
    "2.6.1": (
        "django-helpdesk==2.6.1", "asgiref==3.13.0", "beautifulsoup4==4.15.0",
        "certifi==2026.10.19.post1", "charset-normalizer==3.5.3", "Django==5.2.19",
        "django-cleanup==9.0.0", "django-model-utils==5.0.0", "djangorestframework==3.18.3",
        "email-reply-parser==0.5.12", "idna==3.20", "Markdown==3.11.3", "nh3==0.3.8",
        "oauthlib==4.0.1", "requests==2.34.2", "requests-oauthlib==2.0.0", "soupsieve==4.1.3",
        "sqlparse==0.6.1", "typing_extensions==4.16.0", "urllib3==2.8.0",
    ),
}  # fmt: skip

_SETTINGS = """\
from importlib.metadata import version
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "pacts-realapps-not-a-secret"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SITE_ID = 1
OLD = version("django-helpdesk").startswith("0.")
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.humanize",
    "rest_framework",
    "helpdesk",
]
if OLD:  # 0.5: its forms' template tags, and the teams its migrations depend on
    INSTALLED_APPS += ["bootstrap4form", "account", "pinax.invitations", "pinax.teams",
                       "reversion"]
else:
    HELPDESK_TEAMS_MODE_ENABLED = False
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "site_proj.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# the homepage's "View a Ticket" form finds a ticket by its id and e-mail address alone
# (without it, both versions answer that form with 403 and want the e-mailed secret key)
HELPDESK_VIEW_A_TICKET_PUBLIC = True
"""

_URLS = """\
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("helpdesk.urls", namespace="helpdesk")),
]
"""

_MANAGE = """\
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
from django.core.management import execute_from_command_line

execute_from_command_line(sys.argv)
"""

_SEED = """\
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
django.setup()

from django.contrib.auth import get_user_model
from helpdesk.models import FollowUp, KBCategory, KBItem, Queue, Ticket

User = get_user_model()
agent = User.objects.create_superuser(
    os.environ["PACTS_HELPDESK_USER"], "agent@library.invalid",
    os.environ["PACTS_HELPDESK_PASSWORD"], first_name="Ines", last_name="Varga",
)
tomas = User.objects.create_user(
    "tomas", "tomas@library.invalid", "Reading-Room-2026", first_name="Tomas",
    last_name="Berg", is_staff=True,
)
loans = Queue.objects.create(title="Loans and Returns", slug="loans",
                             allow_public_submission=True, email_address="loans@library.invalid")
computers = Queue.objects.create(title="Public Computers", slug="computers",
                                 allow_public_submission=True,
                                 email_address="computers@library.invalid")
OPEN, REOPENED = Ticket.OPEN_STATUS, Ticket.REOPENED_STATUS
RESOLVED, CLOSED = Ticket.RESOLVED_STATUS, Ticket.CLOSED_STATUS
TICKETS = (
    (loans, "Overdue notice for a returned book", "reader.one@mail.invalid", 3, OPEN, None,
     "I returned 'The Long Winter' on Monday but still got an overdue notice."),
    (loans, "Renew interlibrary loan", "reader.two@mail.invalid", 2, OPEN, agent,
     "Please renew my interlibrary loan of 'Maps of the North' for two more weeks."),
    (loans, "Lost library card", "reader.three@mail.invalid", 4, RESOLVED, tomas,
     "I lost my library card at the station. Can I get a new one?"),
    (computers, "Printer on floor 2 is jammed", "reader.four@mail.invalid", 1, OPEN, tomas,
     "The printer next to the map room jams on every page."),
    (computers, "Wi-Fi password not accepted", "reader.five@mail.invalid", 3, REOPENED, None,
     "The guest Wi-Fi password on the notice board is not accepted."),
    (computers, "Scanner saves blank pages", "reader.six@mail.invalid", 3, CLOSED, agent,
     "The scanner in the reading room saves every page blank."),
)
for queue, title, email, priority, status, owner, text in TICKETS:
    ticket = Ticket.objects.create(queue=queue, title=title, submitter_email=email,
                                   priority=priority, status=status, assigned_to=owner,
                                   description=text)
    FollowUp.objects.create(ticket=ticket, title="Ticket Opened", comment=text, public=True)
printer = Ticket.objects.get(title="Printer on floor 2 is jammed")
FollowUp.objects.create(ticket=printer, title="Comment", public=False, user=tomas,
                        comment="Opened the tray: a torn label was stuck in it.")
borrowing = KBCategory.objects.create(name="Borrowing", title="Borrowing books",
                                      slug="borrowing", public=True,
                                      description="How loans, renewals and holds work.")
KBItem.objects.create(category=borrowing, title="How many books can I borrow?",
                      question="How many books can I borrow at once?",
                      answer="Up to 20 books for four weeks.", enabled=True)
print("seeded")
"""

_FILES = {
    "manage.py": _MANAGE,
    "site_proj/__init__.py": "",
    "site_proj/settings.py": _SETTINGS,
    "site_proj/urls.py": _URLS,
    "seed.py": _SEED,
}


def install(version: str) -> Path:
    return ensure_venv(f"helpdesk-{version}", list(PINS[version]))


def start(version: str, workdir: Path) -> Served:
    return start_django_project(
        install(version), workdir, _FILES, ENV, "login/", build_s=600, serve_s=120
    )


APP = AppSpec(
    name="helpdesk",
    kind="ticket desk (django-helpdesk: staff pages of queues, tickets and follow-ups, a "
    "public ticket form and knowledgebase; Django templates, Bootstrap)",
    versions=VERSIONS,
    install=install,
    start=start,
    env=ENV,
)
