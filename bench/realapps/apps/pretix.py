"""pretix: a ticket shop (a Django project). Its public shop, per event: the event's date,
its products by category, each with a quantity box between "-" and "+" buttons, "Add to cart",
"Redeem a voucher" ("Voucher code"), "Resend order link"; the cart ("Proceed with checkout",
"Empty cart"), and a checkout in steps ("Your information": "E-mail"; "Payment": "Bank
transfer"; "Review order": "Place binding order"). Its back office (``/control/``): a login
("E-mail", "Password", "Log in"), a dashboard, and per event a sidebar (Dashboard, Settings,
Products, Orders, Vouchers, Check-in, ...) over lists with filters, an order's page with its
actions, and forms for products, quotas and vouchers.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2024.1.0 shows, and committed before any engine run on it. Both versions are PyPI's
``pretix`` package (Django 4.2, server-rendered, Bootstrap 3), served by its own
``python -m pretix runserver`` (Django's development server: ``debug`` on, static files served
by Django, style sheets compiled from SCSS on the first request), with SQLite.

Migrating an empty database takes minutes (224 migrations for 2024.1.0, 302 for 2026.8.0), so
it is done once per version into the cache folder beside the venv (a lock and a stamp, as
:func:`ensure_venv` does) and copied into the fresh work folder at every start. Every start
then writes the settings file (``PRETIX_CONFIG_FILE``: the data folder, the SQLite file, the
site's URL, mail to a loopback port nothing answers on) and seeds the copy through the app's
own models (its Django ORM, as its own management shell would; ``django_scopes`` lifted): a
back-office user ``team@bakery.invalid`` in a team of the organizer "Riverside Bakery" with
every permission; the event "Bread Baking Workshop" (``/bakery/workshop/``, live, 60 days
ahead, bank transfer on); the products "Workshop ticket" (EUR 25), "Student ticket" (EUR 15) in
"Tickets" and "Linen apron" (EUR 12) in "Extras" with their quotas; the voucher ``FRIENDS10``
(10 percent off); two orders, ``ANNA1`` (paid) and ``BENJ2`` (pending). Checked with ``strace
-f -e trace=connect`` on the server of both versions while the flows ran: connections to
127.0.0.1 only (the mail port 9, and on 2026.8.0 once its Vite development port 5173, whose
server ``npm`` cannot start from the wheel; both refused); the pages load nothing from other
hosts (a Playwright request log).
"""

from __future__ import annotations

from pathlib import Path

from realapps.apps._cfgdjango import ConfiguredDjango
from realapps.harness import AppSpec, Served, ensure_venv

VERSIONS = ("2024.1.0", "2026.8.0")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2024.1.0": """aiohappyeyeballs==2.7.1 aiohttp==3.14.5 aiosignal==1.4.0 amqp==5.4.2
arabic-reshaper==3.0.0 asgiref==3.13.0 attrs==26.1.0 babel==2.19.0
beautifulsoup4==4.12.3 billiard==4.3.2 bleach==5.0.1 cbor2==6.3.0 celery==5.3.6
certifi==2026.10.19.post1 cffi==2.1.1 chardet==5.1.0 charset-normalizer==3.5.3
click==8.5.1 click-didyoumean==0.3.1 click-plugins==1.1.1.2 click-repl==0.4.1
cryptography==50.0.2 css-inline==0.8.7 defusedcsv==3.0.0 dj-static==0.0.6
Django==4.2.30 django-appconf==1.2.0 django-bootstrap3==23.1
django-compressor==4.3.1 django-countries==7.5.1 django-filter==23.2
django-formset-js-improved==0.5.0.3 django-formtools==2.4.1
django-hierarkey==1.1.0 django-hijack==3.3.0 django-i18nfield==1.9.5
django-jquery-js==3.1.1 django-libsass==0.9 django-localflavor==4.0
django-markup==1.10 django-oauth-toolkit==2.2.0 django-otp==1.2.4
django-phonenumber-field==7.1.0 django-redis==5.2.0 django-scopes==2.0.0
django-statici18n==2.3.1 djangorestframework==3.14.0 dnspython==2.3.0
drf-ujson2==1.7.2 elementpath==5.1.4 et_xmlfile==2.0.0 frozenlist==1.8.0
future==1.0.0 geoip2==4.8.1 idna==3.20 importlib_metadata==7.2.1 isodate==0.7.2
isoweek==1.3.3 jsonschema==4.26.0 jsonschema-specifications==2025.9.1
jwcrypto==1.6.1 kombu==5.3.7 libsass==0.22.0 lxml==6.1.3 Markdown==3.4.3
maxminddb==2.8.2 mt-940==4.30.0 multidict==7.2.1 oauthlib==3.2.2 openpyxl==3.1.5
packaging==26.4 paypal-checkout-serversdk==1.0.3 paypalhttp==1.0.1
paypalrestsdk==1.13.3 phonenumberslite==8.13.55 Pillow==9.5.0
platformdirs==4.14.8 ply==3.11 pretix-plugin-build==1.0.2 prompt_toolkit==3.0.53
propcache==0.5.4 protobuf==4.23.4 psycopg2-binary==2.9.13 pycountry==26.2.16
pycparser==2.21 pycryptodome==3.18.0 PyJWT==2.7.0 pyOpenSSL==26.4.0 pypdf==3.9.1
pypng==0.20220715.0 python-bidi==0.4.2 python-dateutil==2.8.2 python-stdnum==2.2
python-u2flib-server==4.0.1 pytz==2026.6 pytz-deprecation-shim==0.1.0.post0
pyuca==1.2 qrcode==7.4.2 rcssmin==1.1.1 redis==4.6.0 referencing==0.37.0
reportlab==4.0.9 requests==2.31.0 requests-file==3.0.1 requests-toolbelt==1.0.0
rjsmin==1.2.1 rpds-py==2026.9.1 sentry-sdk==1.15.0 sepaxml==2.6.2 six==1.17.0
slimit==0.8.1 soupsieve==4.1.3 sqlparse==0.6.1 static3==0.7.0 stripe==7.9.0
text-unidecode==1.3 tlds==2026102900 tqdm==4.70.1 typing_extensions==4.16.0
tzdata==2026.6 ujson==6.1.0 urllib3==2.8.0 vat-moss-forked==2020.3.20.0.11.0
vine==5.1.0 vobject==0.9.9 wcwidth==0.9.4 webauthn==0.4.7 webencodings==0.6.1
xmlschema==4.3.2 yarl==1.25.1 zeep==4.2.1 zipp==4.1.2""",
    "2026.8.0": """aiohappyeyeballs==2.7.1 aiohttp==3.14.5 aiosignal==1.4.0 amqp==5.4.2
arabic-reshaper==3.0.1 argon2-cffi==25.1.0 argon2-cffi-bindings==26.2.0
asgiref==3.13.0 attrs==26.1.0 babel==2.19.0 beautifulsoup4==4.15.0
billiard==4.3.2 bleach==6.4.0 cbor2==6.3.0 celery==5.6.3
certifi==2026.10.19.post1 cffi==2.1.1 chardet==5.2.0 charset-normalizer==3.5.3
click==8.5.1 click-didyoumean==0.3.1 click-plugins==1.1.1.2 click-repl==0.4.1
cryptography==50.0.2 css-inline==0.21.3 defusedcsv==3.0.0 Django==5.2.19
django-appconf==1.2.0 django-bootstrap3==26.2 django-countries==9.1.0
django-filter==26.1 django-formset-js-improved==0.5.0.5 django-formtools==2.7
django-hierarkey==2.0.2 django-hijack==3.7.9 django-i18nfield==1.11.0
django-jquery-js==3.1.1 django-libsass==0.9 django-localflavor==5.1
django-markup==1.10 django-oauth-toolkit==2.3.0 django-otp==1.7.5
django-phonenumber-field==8.5.0 django-querytagger==0.0.3 django-redis==7.0.0
django-scopes==2.1.0 django-statici18n==2.8.0 django_compressor==4.6.0
djangorestframework==3.17.2 dnspython==2.8.0 drf-ujson2==1.7.2
elementpath==5.1.4 et_xmlfile==2.0.0 frozenlist==1.8.0 geoip2==5.3.0 idna==3.20
importlib_metadata==9.1.0 isodate==0.7.2 isoweek==1.3.3 jsonschema==4.26.0
jsonschema-specifications==2025.9.1 jwcrypto==1.6.1 kombu==5.6.2 libsass==0.23.0
lxml==6.1.3 Markdown==3.11 maxminddb==3.2.0 mt-940==4.30.0 multidict==7.2.1
oauthlib==3.3.1 openpyxl==3.1.5 packaging==26.4 paypal-checkout-serversdk==1.0.3
paypalhttp==1.0.1 paypalrestsdk==1.13.3 phonenumberslite==9.0.42 pillow==12.3.0
platformdirs==4.14.8 pretix-plugin-build==1.0.2 prompt_toolkit==3.0.53
propcache==0.5.4 protobuf==7.36.2 psycopg2-binary==2.9.13 pyasn1==0.6.5
pyasn1_modules==0.4.2 pycountry==26.2.16 pycparser==3.0 pycryptodome==3.23.0
PyJWT==2.15.1 pyOpenSSL==26.4.0 pypdf==6.19.0 python-bidi==0.6.12
python-dateutil==2.9.0.post0 python-stdnum==2.2 pytz==2026.6
pytz-deprecation-shim==0.1.0.post0 pyuca==1.2 qrcode==8.2 rcssmin==1.3.0
redis==7.4.1 referencing==0.37.0 reportlab==5.0.1 requests==2.34.2
requests-file==3.0.1 requests-toolbelt==1.0.0 rjsmin==1.3.0 rpds-py==2026.9.1
sentry-sdk==2.70.0 sepaxml==2.7.0 six==1.17.0 soupsieve==4.1.3 sqlparse==0.6.1
stripe==7.9.0 text-unidecode==1.3 tlds==2026102900 tqdm==4.70.1
typing_extensions==4.16.0 tzdata==2026.6 tzlocal==5.4.5 ua-parser==1.0.2
ua-parser-builtins==202610 ujson==6.1.0 urllib3==2.8.0 vine==5.1.0
vobject==0.9.9 wcwidth==0.9.4 webauthn==3.0.1 webencodings==0.6.1
xmlschema==4.3.2 yarl==1.25.1 zeep==4.3.3 zipp==4.1.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"pretix=={v}", *_DEPS[v].split()) for v in VERSIONS}

USER = ("team@bakery.invalid", "Rye-Crust-2024")

SEED = r"""import datetime as dt
from decimal import Decimal

import django

django.setup()

from django.db import transaction
from django.utils.timezone import now
from django_scopes import scopes_disabled

from pretix.base.models import (
    Event, Item, ItemCategory, Order, OrderPayment, OrderPosition, Organizer, Quota, Team,
    User, Voucher,
)

with scopes_disabled():
    user = User.objects.create_user("team@bakery.invalid", "Rye-Crust-2024", fullname="Bakery Team")
    org = Organizer.objects.create(name="Riverside Bakery", slug="bakery")
    team = Team.objects.create(organizer=org, name="Bakers")
    for f in Team._meta.fields:
        if f.name.startswith("can_") or f.name.startswith("all_"):
            setattr(team, f.name, True)
    team.save()
    team.members.add(user)
    start = (now() + dt.timedelta(days=60)).replace(hour=9, minute=0, second=0, microsecond=0)
    event = Event.objects.create(
        organizer=org, name="Bread Baking Workshop", slug="workshop", currency="EUR",
        date_from=start, date_to=start + dt.timedelta(hours=6), live=True,
    )
    event.plugins = ("pretix.plugins.banktransfer,pretix.plugins.sendmail,"
                     "pretix.plugins.statistics,pretix.plugins.checkinlists,"
                     "pretix.plugins.ticketoutputpdf")
    event.save()
    if hasattr(org, "plugins"):  # newer releases enable bank transfer per organizer too
        org.plugins = "pretix.plugins.banktransfer"
        org.save()
    event.settings.set("timezone", "Europe/Berlin")
    event.settings.set("locale", "en")
    event.settings.set("locales", ["en"])
    event.settings.set("payment_banktransfer__enabled", True)
    event.settings.set("payment_banktransfer_bank_details_type", "other")
    event.settings.set("payment_banktransfer_bank_details",
                       "Riverside Bakery, IBAN DE00 0000 0000 0000 0000 00")
    tickets = ItemCategory.objects.create(event=event, name="Tickets", position=0)
    extras = ItemCategory.objects.create(event=event, name="Extras", position=1)
    day = Item.objects.create(event=event, category=tickets, name="Workshop ticket",
                              default_price=Decimal("25.00"), admission=True, position=0)
    student = Item.objects.create(event=event, category=tickets, name="Student ticket",
                                  default_price=Decimal("15.00"), admission=True, position=1)
    apron = Item.objects.create(event=event, category=extras, name="Linen apron",
                                default_price=Decimal("12.00"), admission=False, position=0)
    q = Quota.objects.create(event=event, name="Workshop seats", size=20)
    q.items.add(day, student)
    qa = Quota.objects.create(event=event, name="Aprons", size=30)
    qa.items.add(apron)
    Voucher.objects.create(event=event, code="FRIENDS10", price_mode="percent",
                           value=Decimal("10.00"), max_usages=5)
    # 2024.1 keeps an order's sales channel as a word ("web"); newer releases as a model
    # per organizer, made with the organizer
    channel = {"sales_channel": org.sales_channels.get(identifier="web")} if hasattr(
        org, "sales_channels") else {}
    for code, email, name, item, status in (
        ("ANNA1", "anna@example.org", "Anna Miller", day, Order.STATUS_PAID),
        ("BENJ2", "ben@example.org", "Ben Carter", student, Order.STATUS_PENDING),
    ):
        with transaction.atomic():
            order = Order.objects.create(
                event=event, code=code, email=email, status=status, total=item.default_price,
                datetime=now() - dt.timedelta(days=2), expires=now() + dt.timedelta(days=12),
                locale="en", **channel,
            )
            OrderPosition.objects.create(order=order, item=item, price=item.default_price,
                                         attendee_name_parts={"_legacy": name}, positionid=1)
            if status == Order.STATUS_PAID:
                order.payments.create(provider="manual", amount=order.total,
                                      state=OrderPayment.PAYMENT_STATE_CONFIRMED,
                                      payment_date=now() - dt.timedelta(days=1))
            order.create_transactions()
print("seeded")
"""

_CONFIG = """[pretix]
instance_name=Bakery Tickets
url={url}
currency=EUR
datadir={data}
[database]
backend=sqlite3
name={data}/db.sqlite3
[mail]
from=shop@bakery.invalid
host=127.0.0.1
port=9
[django]
debug=on
"""


def _install(version: str) -> Path:
    return ensure_venv(f"pretix-{version}", list(PINS[version]))


_DJANGO = ConfiguredDjango(
    module="pretix",
    config=_CONFIG,
    seed=SEED,
    # ready once the health check answers (a page's first request compiles its style sheets,
    # half a minute at load 30: a probe that gives up after 2 s and asks again piles up
    # compiling requests); then the shop's and the back office's pages are asked for once,
    # so that their style sheets are compiled before a flow's first page
    ready="healthcheck/",
    warm=("bakery/workshop/", "control/login"),
)


def _start(version: str, workdir: Path) -> Served:
    return _DJANGO.start(version, _install(version), workdir)


APP = AppSpec(
    name="pretix",
    kind="ticket shop (pretix: an event's shop, cart and checkout; the back office's orders, "
    "products and vouchers; Django)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_PRETIX_USER": USER[0], "PACTS_PRETIX_PASSWORD": USER[1]},
)
