"""django CMS: a page CMS whose editors work on the pages themselves, through a toolbar drawn
over the site ("example.com", "Page", "Help", "Language"; "Create", "Edit"), its menus ("Page":
"Create Page", "Edit this Page", "Page settings...", "Advanced settings...", "Hide in
navigation", "Unpublish page", "Delete page..."), its modal dialogs (the "Create" wizard: "New
page", "New sub page", "Next", then "Title", "Slug", "Content", "Create"; a page's settings:
"Title", "Slug", "Menu Title", "Page Title", "Save"), and through the Django administration it
ships ("Site administration": "Groups", "Users", "Page types", "Pages", "Static placeholders",
"Sites"; the "Page Tree" with its "Search" box and "New Page"; the "Start typing to filter..."
box of the side navigation).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.11.11 shows, and committed before any engine run on it. Both versions are PyPI's
``django-cms``: 3.11.11 (the last 3.x, its pages published from drafts) and 4.1.11 (the 4.x
line, page contents apart from pages, its toolbar and page tree redrawn), the upgrade a team on
3.11 makes, with the same text plugin (``djangocms-text``, which supports both), the same
``djangocms-admin-style`` and the same Django (4.2) on both, so that what drifts is django
CMS's own. django CMS has no server of its own: the project is set up by hand, as its
documentation's "install django CMS by hand" describes (``_FILES`` below: the settings, the
URLs, two page templates with a placeholder each, the menu and the toolbar), and served by
``manage.py runserver`` on 127.0.0.1 with SQLite. ``django-formtools`` is pinned to 2.4.1 on
both: 2.6.1 (what pip picks) breaks 3.11.11's "Create" wizard (``BaseForm.__init__() got an
unexpected keyword argument 'wizard_user'``).

The migrated, seeded database is built once per version and project hash in the venv folder
(as ``django_admin.py`` does) and copied into each start's work folder. Seeded through the
CMS's own API (``cms.api.create_page``, ``add_plugin``; 3.11's ``publish_page``): an editor
``editor`` ("Marta Lind", a superuser) and the pages of a ferry company, "Home" (the home
page), "Timetables" with the sub page "Winter sailings", "Tickets" (the "Wide page" template)
and "Contact", each with a text. The admin's update check (``djangocms-admin-style`` asks
pypi.org for a newer django CMS from the page) is turned off (``CMS_ENABLE_UPDATE_CHECK``); no
page of either version asks another host for anything (docs/real-apps.md, "New held-out app:
django CMS").
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, start_django_project

VERSIONS = ("3.11.11", "4.1.11")

ENV = {"PACTS_DJANGOCMS_USER": "editor", "PACTS_DJANGOCMS_PASSWORD": "Chart-Room-2026"}

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served; django-formtools held at
# 2.4.1 (see above).
_DEPS = (
    "asgiref==3.13.0", "Django==4.2.30", "django-classy-tags==4.1.0", "django-formtools==2.4.1",
    "django-sekizai==4.1.0", "django-treebeard==4.8.0", "djangocms-admin-style==3.3.1",
    "djangocms-text==0.9.11", "lxml==6.1.3", "nh3==0.3.8", "packaging==26.4", "pillow==13.0.0",
    "sqlparse==0.6.1",
)  # fmt: skip
PINS: dict[str, tuple[str, ...]] = {v: (f"django-cms=={v}", *_DEPS) for v in VERSIONS}

_SETTINGS = """\
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "pacts-realapps-not-a-secret"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SITE_ID = 1
INSTALLED_APPS = [
    "djangocms_admin_style",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "cms",
    "menus",
    "treebeard",
    "sekizai",
    "djangocms_text",
]
MIDDLEWARE = [
    "cms.middleware.utils.ApphookReloadMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "cms.middleware.user.CurrentUserMiddleware",
    "cms.middleware.page.CurrentPageMiddleware",
    "cms.middleware.toolbar.ToolbarMiddleware",
    "cms.middleware.language.LanguageCookieMiddleware",
]
ROOT_URLCONF = "site_proj.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "sekizai.context_processors.sekizai",
                "cms.context_processors.cms_settings",
            ],
        },
    },
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
X_FRAME_OPTIONS = "SAMEORIGIN"
CMS_TEMPLATES = [("page.html", "Standard page"), ("wide.html", "Wide page")]
CMS_CONFIRM_VERSION4 = True
CMS_ENABLE_UPDATE_CHECK = False
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
"""

_URLS = """\
from django.contrib import admin
from django.urls import include, path

urlpatterns = [path("admin/", admin.site.urls), path("", include("cms.urls"))]
"""

_MANAGE = """\
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
from django.core.management import execute_from_command_line

execute_from_command_line(sys.argv)
"""

_PAGE = """\
{% load cms_tags menu_tags sekizai_tags %}<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{% page_attribute "page_title" %} - Harbour Ferries</title>
{% render_block "css" %}</head>
<body>{% cms_toolbar %}
<header><p class="brand">Harbour Ferries</p>
<nav><ul>{% show_menu 0 100 100 100 %}</ul></nav></header>
<main><h1>{% page_attribute "page_title" %}</h1>
{% block content %}{% placeholder "content" %}{% endblock %}</main>
<footer>Harbour Ferries, Pier 4</footer>
{% render_block "js" %}</body></html>
"""

_WIDE = """\
{% extends "page.html" %}{% load cms_tags %}
{% block content %}{% placeholder "content" %}
<aside>{% placeholder "sidebar" %}</aside>{% endblock %}
"""

_SEED = """\
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
django.setup()

import cms
from cms import api
from django.contrib.auth import get_user_model

CMS4 = int(cms.__version__.split(".")[0]) >= 4
editor = get_user_model().objects.create_superuser(
    os.environ["PACTS_DJANGOCMS_USER"], "editor@ferries.invalid",
    os.environ["PACTS_DJANGOCMS_PASSWORD"], first_name="Marta", last_name="Lind",
)
PAGES = (
    ("Home", "home", None, "page.html", "Welcome aboard. Ferries leave Pier 4 every hour."),
    ("Timetables", "timetables", None, "page.html", "Summer and winter sailings to the islands."),
    ("Winter sailings", "winter-sailings", "Timetables", "page.html",
     "From November the last ferry leaves at 21:00."),
    ("Tickets", "tickets", None, "wide.html", "Buy single, return and season tickets."),
    ("Contact", "contact", None, "page.html", "Write to the harbour office."),
)
made = {}
for title, slug, parent, template, text in PAGES:
    page = api.create_page(title=title, template=template, language="en", slug=slug,
                           parent=made.get(parent), in_navigation=True, created_by=editor)
    if CMS4:  # 4.x: a page's placeholders belong to its content in a language
        placeholders = page.get_content_obj("en").get_placeholders()
    else:
        placeholders = page.placeholders
    api.add_plugin(placeholders.get(slot="content"), "TextPlugin", "en", body=f"<p>{text}</p>")
    if not CMS4:  # 3.x: a draft until published
        api.publish_page(page, editor, "en")
    if slug == "home":
        page.set_as_homepage(editor)
    made[title] = page
print("seeded")
"""

_FILES = {
    "manage.py": _MANAGE,
    "site_proj/__init__.py": "",
    "site_proj/settings.py": _SETTINGS,
    "site_proj/urls.py": _URLS,
    "templates/page.html": _PAGE,
    "templates/wide.html": _WIDE,
    "seed.py": _SEED,
}


def install(version: str) -> Path:
    return ensure_venv(f"djangocms-{version}", list(PINS[version]))


def start(version: str, workdir: Path) -> Served:
    return start_django_project(
        install(version), workdir, _FILES, ENV, "admin/login/", build_s=600, serve_s=120
    )


APP = AppSpec(
    name="djangocms",
    kind="page CMS (django CMS: a toolbar and modal dialogs over the site's pages, its page "
    "tree and the Django administration; Django templates)",
    versions=VERSIONS,
    install=install,
    start=start,
    env=ENV,
)
