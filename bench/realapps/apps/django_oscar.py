"""django-oscar: a shop (catalogue, search, basket, checkout, customer accounts), held out
(``split.py``): a minimal project of our own, as Oscar's "Building your own shop" guide
lays it out, served by ``manage.py runserver`` from the Oscar release under test.

The versions differ in their front end: Oscar 2.1 draws the shop with Bootstrap 3, Oscar 4.2
with Bootstrap 4 (navigation bar, basket and checkout forms re-rendered, the account pages'
sidebar, the product page's buttons), and since Oscar 3.0 the catalogue pages are search
results (facets, sorting). Each version runs on the newest Django it supports on Python
3.11 (Oscar 2.1 allows Django < 3.1; Django 3.0 runs on 3.11 with the string database path
the settings give it).

The same project code is written for every version (settings importing ``oscar.defaults``,
Oscar's URLs at the root, the simple Haystack backend so search needs no index, e-mail kept
in memory, the sorl thumbnailer with Oscar's "image not found" picture). A seed script
makes the catalogue: a product class, a partner, categories "Books" (with "Fiction" and
"Science") and "Clothing", products with stock and prices, a shipping country, and a
customer account. The migrated, seeded SQLite database is built once per version and
project hash in the cache folder and copied into each start's work folder.

Account: ``PACTS_OSCAR_EMAIL`` with ``PACTS_OSCAR_PASSWORD`` (Oscar signs in by e-mail).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from realapps.harness import (
    AppSpec,
    Served,
    ensure_venv,
    project_hash,
    serve_django,
    write_project,
)

VERSIONS = ("2.1.1", "4.2.1")

# The versions pip resolved when the corpus entry was written, pinned so that a new release of
# a dependency cannot change what is served. Oscar 2.1's sorl-thumbnail 12.6 uses
# ``Image.ANTIALIAS``, which Pillow 10 removed: Pillow 9.5 for it. Whoosh (pure Python) is
# the search backend: since Oscar 3.0 the catalogue pages themselves are search results,
# which Haystack's simple backend leaves empty.
PINS: dict[str, tuple[str, ...]] = {
    "2.1.1": (
        "django-oscar==2.1.1",
        "Django==3.0.14",
        "asgiref==3.13.0",
        "babel==2.19.0",
        "django-extra-views==0.13.0",
        "django-haystack==3.2.1",
        "django-phonenumber-field==3.0.1",
        "django-tables2==2.2.1",
        "django-treebeard==4.4",
        "django-widget-tweaks==1.5.0",
        "factory-boy==2.12.0",
        "Faker==40.63.0",
        "phonenumbers==9.0.43",
        "Pillow==9.5.0",
        "purl==1.6",
        "pytz==2026.6",
        "six==1.17.0",
        "sorl-thumbnail==12.6.3",
        "sqlparse==0.6.1",
        "Whoosh==2.7.4",
    ),
    "4.2.1": (
        "django-oscar==4.2.1",
        "Django==5.2.8",
        "asgiref==3.13.0",
        "babel==2.19.0",
        "django-extra-views==0.16.0",
        "django-haystack==3.4.0",
        "django-phonenumber-field==8.5.0",
        "django-tables2==2.7.0",
        "django-treebeard==7.0.3",
        "django-widget-tweaks==1.5.1",
        "factory_boy==3.3.3",
        "Faker==40.63.0",
        "packaging==26.4",
        "phonenumbers==9.0.43",
        "pillow==13.0.0",
        "purl==1.6",
        "six==1.17.0",
        "sorl-thumbnail==12.11.0",
        "sqlparse==0.6.1",
        "Whoosh==2.7.4",
    ),
}

ENV = {
    "PACTS_OSCAR_EMAIL": "shopper@example.com",
    "PACTS_OSCAR_PASSWORD": "Quality-Gate-2024",
}

_SETTINGS = """\
from pathlib import Path

from oscar.defaults import *  # noqa: F403

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "pacts-realapps-not-a-secret"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SITE_ID = 1
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.flatpages",
    "oscar.config.Shop",
    "oscar.apps.analytics.apps.AnalyticsConfig",
    "oscar.apps.checkout.apps.CheckoutConfig",
    "oscar.apps.address.apps.AddressConfig",
    "oscar.apps.shipping.apps.ShippingConfig",
    "oscar.apps.catalogue.apps.CatalogueConfig",
    "oscar.apps.catalogue.reviews.apps.CatalogueReviewsConfig",
    "oscar.apps.communication.apps.CommunicationConfig",
    "oscar.apps.partner.apps.PartnerConfig",
    "oscar.apps.basket.apps.BasketConfig",
    "oscar.apps.payment.apps.PaymentConfig",
    "oscar.apps.offer.apps.OfferConfig",
    "oscar.apps.order.apps.OrderConfig",
    "oscar.apps.customer.apps.CustomerConfig",
    "oscar.apps.search.apps.SearchConfig",
    "oscar.apps.voucher.apps.VoucherConfig",
    "oscar.apps.wishlists.apps.WishlistsConfig",
    "oscar.apps.dashboard.apps.DashboardConfig",
    "oscar.apps.dashboard.reports.apps.ReportsDashboardConfig",
    "oscar.apps.dashboard.users.apps.UsersDashboardConfig",
    "oscar.apps.dashboard.orders.apps.OrdersDashboardConfig",
    "oscar.apps.dashboard.catalogue.apps.CatalogueDashboardConfig",
    "oscar.apps.dashboard.offers.apps.OffersDashboardConfig",
    "oscar.apps.dashboard.partners.apps.PartnersDashboardConfig",
    "oscar.apps.dashboard.pages.apps.PagesDashboardConfig",
    "oscar.apps.dashboard.ranges.apps.RangesDashboardConfig",
    "oscar.apps.dashboard.reviews.apps.ReviewsDashboardConfig",
    "oscar.apps.dashboard.vouchers.apps.VouchersDashboardConfig",
    "oscar.apps.dashboard.communications.apps.CommunicationsDashboardConfig",
    "oscar.apps.dashboard.shipping.apps.ShippingDashboardConfig",
    "widget_tweaks",
    "haystack",
    "treebeard",
    "sorl.thumbnail",
    "django_tables2",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "oscar.apps.basket.middleware.BasketMiddleware",
    "django.contrib.flatpages.middleware.FlatpageFallbackMiddleware",
]
AUTHENTICATION_BACKENDS = (
    "oscar.apps.customer.auth_backends.EmailBackend",
    "django.contrib.auth.backends.ModelBackend",
)
ROOT_URLCONF = "shop_proj.urls"
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
                "django.template.context_processors.i18n",
                "django.template.context_processors.media",
                "django.template.context_processors.static",
                "django.contrib.messages.context_processors.messages",
                "oscar.apps.search.context_processors.search_form",
                "oscar.apps.checkout.context_processors.checkout",
                "oscar.apps.communication.notifications.context_processors.notifications",
                "oscar.core.context_processors.metadata",
            ],
        },
    },
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(BASE_DIR / "db.sqlite3"),
        "ATOMIC_REQUESTS": True,
    }
}
HAYSTACK_CONNECTIONS = {
    "default": {
        "ENGINE": "haystack.backends.whoosh_backend.WhooshEngine",
        "PATH": str(BASE_DIR / "whoosh_index"),
    }
}
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
MEDIA_URL = "/media/"
MEDIA_ROOT = str(BASE_DIR / "media")
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
OSCAR_SHOP_NAME = "Corner Bookshop"
OSCAR_DEFAULT_CURRENCY = "GBP"
THUMBNAIL_DEBUG = False
"""

_URLS = """\
from django.apps import apps
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include(apps.get_app_config("oscar").urls[0])),
]
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
"""

_MANAGE = """\
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop_proj.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
"""

# The catalogue every flow reads; a flow that changes data (an address, an order, a profile)
# uses its own rows, or the fresh copy of the database each start gets.
_SEED = """\
import os
import shutil
from decimal import Decimal
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop_proj.settings")
django.setup()

import oscar  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.sites.models import Site  # noqa: E402
from oscar.apps.catalogue.categories import create_from_breadcrumbs  # noqa: E402
from oscar.core.loading import get_model  # noqa: E402

Product = get_model("catalogue", "Product")
ProductClass = get_model("catalogue", "ProductClass")
ProductCategory = get_model("catalogue", "ProductCategory")
Partner = get_model("partner", "Partner")
StockRecord = get_model("partner", "StockRecord")
Country = get_model("address", "Country")

Site.objects.update_or_create(id=1, defaults={"domain": "127.0.0.1", "name": "Corner Bookshop"})

# Oscar's "image not found" picture where the thumbnailer looks for it (Oscar's guide)
media = Path(settings.MEDIA_ROOT)
media.mkdir(parents=True, exist_ok=True)
shutil.copy(Path(oscar.__file__).parent / "static" / "oscar" / "img" / "image_not_found.jpg",
            media / "image_not_found.jpg")

Country.objects.create(iso_3166_1_a2="GB", iso_3166_1_a3="GBR", iso_3166_1_numeric="826",
                       printable_name="United Kingdom", name="United Kingdom of Great Britain",
                       display_order=1, is_shipping_country=True)

User = get_user_model()
customer = User.objects.create_user(
    username="shopper", email=os.environ["PACTS_OSCAR_EMAIL"],
    password=os.environ["PACTS_OSCAR_PASSWORD"], first_name="Sam", last_name="Shopper")

kind = ProductClass.objects.create(name="Book", slug="book", requires_shipping=True,
                                   track_stock=True)
partner = Partner.objects.create(name="Corner Books Ltd")
price_field = "price" if any(f.name == "price" for f in StockRecord._meta.get_fields()) \\
    else "price_excl_tax"

PRODUCTS = [
    # title, category breadcrumb, price, stock, description
    ("The Silent Harbour", "Books > Fiction", "12.99", 25,
     "A lighthouse keeper's daughter and the storm of 1953."),
    ("Orchard of Glass", "Books > Fiction", "9.50", 40,
     "Three sisters inherit an orchard that grows only in winter."),
    ("A Winter in Lisbon", "Books > Fiction", "14.00", 12,
     "A translator follows a missing manuscript across the city."),
    ("The Clockmaker's Map", "Books > Fiction", "11.25", 8,
     "An apprentice finds a map hidden inside a tower clock."),
    ("Stars Without Number", "Books > Science", "18.75", 30,
     "A short history of how astronomers counted the sky."),
    ("The Hidden Life of Soil", "Books > Science", "16.40", 15,
     "What lives under a single square metre of meadow."),
    ("Rivers of Ice", "Books > Science", "21.00", 6,
     "Glaciers, their past and the water they hold."),
    ("Canvas Tote Bag", "Clothing", "7.99", 50,
     "A sturdy natural canvas bag with the shop's lighthouse."),
    ("Reading Socks", "Clothing", "5.49", 60,
     "Warm wool socks for long evenings with a book."),
]
for n, (title, crumbs, price, stock, text) in enumerate(PRODUCTS, start=1):
    product = Product.objects.create(product_class=kind, title=title, upc=f"CB-{n:04d}",
                                     description=text, structure="standalone")
    ProductCategory.objects.create(product=product,
                                   category=create_from_breadcrumbs(crumbs))
    StockRecord.objects.create(product=product, partner=partner, partner_sku=f"SKU-{n:04d}",
                               price_currency="GBP", num_in_stock=stock,
                               **{price_field: Decimal(price)})
"""

_FILES = {
    "manage.py": _MANAGE,
    "shop_proj/__init__.py": "",
    "shop_proj/settings.py": _SETTINGS,
    "shop_proj/urls.py": _URLS,
    "seed.py": _SEED,
}


def _venv_name(version: str) -> str:
    return f"django_oscar-{version}"


def install(version: str) -> Path:
    return ensure_venv(_venv_name(version), list(PINS[version]))


def _env() -> dict[str, str]:
    return {**ENV, "PYTHONDONTWRITEBYTECODE": "1", "DJANGO_SETTINGS_MODULE": "shop_proj.settings"}


def _template(version: str, venv: Path) -> Path:
    """The migrated, seeded database, media and search index for ``version``, built once
    in the venv folder (``template-<hash>/`` holding ``db.sqlite3``, ``media/`` and
    ``whoosh_index/``)."""
    done = venv / f"template-{project_hash(_FILES, ENV)}"
    if done.exists():
        return done
    python = str(venv / "bin" / "python")
    with tempfile.TemporaryDirectory(prefix="pacts-oscar-build-") as tmp:
        root = Path(tmp)
        write_project(root, _FILES)
        env = {**os.environ, **_env()}
        for argv in (
            ["manage.py", "migrate", "--noinput", "-v", "0"],
            ["seed.py"],
            ["manage.py", "rebuild_index", "--noinput", "-v", "0"],
        ):
            subprocess.run([python, *argv], cwd=root, env=env, check=True, timeout=600)
        part = venv / f"template-{project_hash(_FILES, ENV)}.{os.getpid()}.part"
        part.mkdir()
        shutil.copyfile(root / "db.sqlite3", part / "db.sqlite3")
        for folder in ("media", "whoosh_index"):
            shutil.copytree(root / folder, part / folder)
        try:
            os.replace(part, done)  # atomic: two starts building at once both end well
        except OSError:
            shutil.rmtree(part, ignore_errors=True)
    return done


def start(version: str, workdir: Path) -> Served:
    venv = install(version)
    template = _template(version, venv)
    write_project(workdir, _FILES)
    shutil.copyfile(template / "db.sqlite3", workdir / "db.sqlite3")
    for folder in ("media", "whoosh_index"):
        shutil.copytree(template / folder, workdir / folder)
    return serve_django(venv, workdir, _env(), "catalogue/", timeout_s=90)


APP = AppSpec(
    name="django_oscar",
    kind="shop (Django templates: catalogue, search, basket, checkout, accounts)",
    versions=VERSIONS,
    install=install,
    start=start,
    env=ENV,
)
