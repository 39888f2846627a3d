"""The Django admin: a small catalog project (authors, books, an inline) served by
``manage.py runserver`` from the Django release under test.

The same project code is written for every version: two models (``Author``, ``Book`` with a
foreign key, a date and a boolean), a hand-written migration (so no version's
``makemigrations`` output is involved), the admin with ``list_display``, ``list_filter``,
``search_fields`` and a tabular inline. The migrated, seeded SQLite database (superuser,
an editor account, authors and books) is built once per version and project hash in the
cache folder and copied into each start's work folder, so a start only copies files and
launches the server.

Accounts: ``PACTS_DJANGO_USER`` (a superuser) and ``PACTS_DJANGO_EDITOR`` (a second
superuser that the password-change flow uses, so changing its password never logs out the
sessions of the other flows), both with ``PACTS_DJANGO_PASSWORD``.
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, start_django_project

VERSIONS = ("3.2.25", "4.2.27", "5.2.8")

ENV = {
    "PACTS_DJANGO_USER": "admin",
    "PACTS_DJANGO_EDITOR": "editor",
    "PACTS_DJANGO_PASSWORD": "Quality-Gate-2024",
}

_SETTINGS = """\
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "pacts-realapps-not-a-secret"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "catalog",
]
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
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
}
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
"""

_URLS = """\
from django.contrib import admin
from django.urls import path

from catalog.desk import desk

urlpatterns = [path("admin/", admin.site.urls), path("desk/", desk.urls)]
"""

# A second admin site, the "desk", as a project whose editors pick from long lists sets it up
# (issue 38): the book's author is an ``autocomplete_fields`` select (select2, an ARIA
# combobox whose options load as you type), the date a native ``<input type=date>``, the page
# count an ``<input type=range>``. The default admin at /admin/ is unchanged.
_DESK = """\
from django import forms
from django.contrib import admin
from django.db import models

from .models import Author, Book

desk = admin.AdminSite(name="desk")
desk.site_header = "Catalog desk"


class AuthorDesk(admin.ModelAdmin):
    search_fields = ("name",)


class BookDesk(admin.ModelAdmin):
    list_display = ("title", "author", "published", "pages")
    autocomplete_fields = ("author",)
    formfield_overrides = {
        models.DateField: {"widget": forms.DateInput(attrs={"type": "date"})},
        models.PositiveIntegerField: {
            "widget": forms.NumberInput(attrs={"type": "range", "min": 0, "max": 2000})
        },
    }


desk.register(Author, AuthorDesk)
desk.register(Book, BookDesk)
"""

_MANAGE = """\
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
"""

_MODELS = """\
import datetime

from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100)
    country = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Book(models.Model):
    title = models.CharField(max_length=200)
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    published = models.DateField(default=datetime.date.today)
    in_stock = models.BooleanField("in stock", default=False)
    pages = models.PositiveIntegerField(default=100)

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return self.title
"""

_MIGRATION = """\
import datetime

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Author",
            fields=[
                ("id", models.AutoField(auto_created=True, primary_key=True,
                                        serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100)),
                ("country", models.CharField(blank=True, max_length=60)),
            ],
            options={"ordering": ["name"]},
        ),
        migrations.CreateModel(
            name="Book",
            fields=[
                ("id", models.AutoField(auto_created=True, primary_key=True,
                                        serialize=False, verbose_name="ID")),
                ("title", models.CharField(max_length=200)),
                ("published", models.DateField(default=datetime.date.today)),
                ("in_stock", models.BooleanField(default=False, verbose_name="in stock")),
                ("pages", models.PositiveIntegerField(default=100)),
                ("author", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, to="catalog.author")),
            ],
            options={"ordering": ["title"]},
        ),
    ]
"""

_ADMIN = """\
from django.contrib import admin

from .models import Author, Book


class BookInline(admin.TabularInline):
    model = Book
    extra = 1
    fields = ("title", "published", "in_stock")


@admin.register(Author)
class AuthorAdmin(admin.ModelAdmin):
    list_display = ("name", "country")
    search_fields = ("name", "country")
    inlines = [BookInline]


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ("title", "author", "published", "in_stock")
    list_filter = ("in_stock", "author")
    search_fields = ("title", "author__name")
"""

# Authors and books; each flow that deletes or edits uses rows no other flow reads.
_SEED = """\
import datetime
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_proj.settings")
django.setup()

from django.contrib.auth.models import User  # noqa: E402

from catalog.models import Author, Book  # noqa: E402

password = os.environ["PACTS_DJANGO_PASSWORD"]
for name in (os.environ["PACTS_DJANGO_USER"], os.environ["PACTS_DJANGO_EDITOR"]):
    User.objects.create_superuser(name, name + "@example.com", password)

AUTHORS = {
    "Jane Austen": "United Kingdom",
    "Leo Tolstoy": "Russia",
    "Toni Morrison": "United States",
    "Chinua Achebe": "Nigeria",
    "Italo Calvino": "Italy",
    "Homer": "Greece",
}
BOOKS = [
    ("Pride and Prejudice", "Jane Austen", "1813-01-28", True, 432),
    ("Emma", "Jane Austen", "1815-12-23", False, 474),
    ("Persuasion", "Jane Austen", "1817-12-20", True, 249),
    ("War and Peace", "Leo Tolstoy", "1869-01-01", True, 1225),
    ("Anna Karenina", "Leo Tolstoy", "1878-01-01", False, 864),
    ("Beloved", "Toni Morrison", "1987-09-02", True, 324),
    ("Song of Solomon", "Toni Morrison", "1977-08-12", True, 337),
    ("Things Fall Apart", "Chinua Achebe", "1958-06-17", True, 209),
    ("Invisible Cities", "Italo Calvino", "1972-11-01", True, 165),
    ("The Baron in the Trees", "Italo Calvino", "1957-06-01", False, 217),
    ("The Odyssey", "Homer", "1614-01-01", True, 541),
]
authors = {name: Author.objects.create(name=name, country=c) for name, c in AUTHORS.items()}
for title, author, published, in_stock, pages in BOOKS:
    Book.objects.create(
        title=title,
        author=authors[author],
        published=datetime.date.fromisoformat(published),
        in_stock=in_stock,
        pages=pages,
    )
"""

_FILES = {
    "manage.py": _MANAGE,
    "site_proj/__init__.py": "",
    "site_proj/settings.py": _SETTINGS,
    "site_proj/urls.py": _URLS,
    "catalog/__init__.py": "",
    "catalog/models.py": _MODELS,
    "catalog/admin.py": _ADMIN,
    "catalog/desk.py": _DESK,
    "catalog/migrations/__init__.py": "",
    "catalog/migrations/0001_initial.py": _MIGRATION,
    "seed.py": _SEED,
}


def _venv_name(version: str) -> str:
    return f"django_admin-{version}"


def install(version: str) -> Path:
    return ensure_venv(_venv_name(version), [f"Django=={version}"])


def start(version: str, workdir: Path) -> Served:
    return start_django_project(
        install(version), workdir, _FILES, ENV, "admin/login/", build_s=300, serve_s=60
    )


APP = AppSpec(
    name="django_admin",
    kind="admin CRUD (Django templates, server-rendered forms)",
    versions=VERSIONS,
    install=install,
    start=start,
    env=ENV,
)
