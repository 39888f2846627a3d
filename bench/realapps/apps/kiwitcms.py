"""Kiwi TCMS: a test case management system (a Django project, PatternFly 3). A dark top bar
(the clock, a language and a help menu, the user's menu: "My Test Runs", "My Test Plans", "My
profile", "Change password", "Logout") over a row of menus ("DASHBOARD", "TESTING", "SEARCH",
"TELEMETRY", "ADMIN", "PLUGINS"); the dashboard ("Test executions", "Your Test plans", each with
"SEE ALL"); test plans ("TP-1: ..."), test cases ("TC-1: ...") and test runs ("TR-1: ...") as
pages of cards ("Tags", "Components", "Attachments", ...), each "Tags" card with an unlabelled
box and a "+" (tooltip "Add"); the run's "Start" and "Stop" buttons (tooltips); search pages and
the forms for a new plan ("Name", "Product", "Version", "Type" as bootstrap-select drop-downs, a
SimpleMDE document) and a new case ("Summary", ...).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 11.0 shows, and committed before any engine run on it. Both versions are PyPI's
``kiwitcms`` wheel (11.0: Django 3.2; 12.4, the last release on PyPI: Django 4.2), with its
front-end packages inside the wheel (``tcms/node_modules``), on Python 3.10 (every release pins
django-modern-rpc 0.12.1, which does not import on 3.11). Served by Django's own ``runserver``
with Kiwi's settings (``tcms.settings.common``) and a small settings module in the work folder:
SQLite there, debug on (Django serves the static files), mail kept in memory.

Every start copies an empty database made once per version in the cache (its tables made from
the models in one pass, ``migrate --run-syncdb`` with the migrations off: of the 81
migrations, 38 were done after 38 minutes at load 55) and seeds it through the app's own
models (its Django ORM, as its management shell would): first the rows Kiwi's data
migrations add (the site, the groups, the priorities P1-P5, the case statuses, the plan types,
the execution statuses with their icons),
then the user ``tester`` (a superuser), the product "Acme Shop" (versions 1.0 and 2.0, build
1.0.0, components), the plans "Checkout regression" (TP-1: three cases) and "Search acceptance"
(TP-2: two cases), the tag "smoke" on TC-1 and the run "Release 1.0 checkout" (TR-1) of TP-1
with one execution per case. The outbound check: docs/real-apps.md, "New held-out app: Kiwi
TCMS" (pages with a SimpleMDE editor ask a CDN for its spell checker's dictionary).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, cache_root, ensure_venv, free_port, serve

VERSIONS = ("11.0", "12.4")

# What pip resolved on Python 3.10 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "11.0": """allpairspy==2.5.0 asgiref==3.12.1 backports.tarfile==1.2.0 beautifulsoup4==4.15.0
bleach==4.1.0 bleach-allowlist==1.0.3 certifi==2026.10.19.post1 cffi==2.1.1
charset-normalizer==3.5.3 cryptography==50.0.2 defusedxml==0.7.1 Deprecated==1.3.1
Django==3.2.11 django-attachments==1.9.1 django-colorfield==0.6.3
django-contrib-comments==2.1.0 django-extensions==3.1.5 django-grappelli==3.0.2
django-guardian==2.4.0 django-modern-rpc==0.12.1 django-recaptcha==2.0.6
django-simple-history==3.0.0 django-tree-queries==0.7.0 django-uuslug==1.2.0
django-vinaigrette==2.0.1 idna==3.20 importlib_metadata==9.0.1 jaraco.classes==3.4.0
jaraco.context==6.1.2 jaraco.functools==4.6.0 jeepney==0.9.0 jira==3.1.1 keyring==25.7.0
Markdown==3.3.6 mock==5.2.0 more-itertools==11.1.0 oauthlib==4.0.1 packaging==26.4
pillow==12.3.0 pycparser==3.11 PyGithub==1.55 Pygments==2.11.2 PyJWT==2.15.1 PyNaCl==1.6.2
python-bugzilla==3.1.0 python-gitlab==3.1.0 python-redmine==2.3.0 python-slugify==9.2.0
pytz==2026.6 requests==2.34.2 requests-oauthlib==2.0.0 requests-toolbelt==1.0.0
SecretStorage==3.5.0 six==1.17.0 soupsieve==2.10 sqlparse==0.6.1 text-unidecode==1.3
topicaxis-opengraph==0.5 typing_extensions==4.16.0 urllib3==2.8.0 webencodings==0.6.1
wrapt==2.5.2 zipp==4.1.2""",
    "12.4": """allpairspy==2.5.0 asgiref==3.12.1 beautifulsoup4==4.15.0 bleach==6.0.0
bleach-allowlist==1.0.3 certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3
cryptography==50.0.2 defusedxml==0.7.1 Deprecated==1.3.1 Django==4.2.2
django-attachments==1.11 django-colorfield==0.8.0 django-contrib-comments==2.2.0
django-extensions==3.2.1 django-grappelli==3.0.6 django-guardian==2.4.0
django-modern-rpc==0.12.1 django-ranged-response==0.2.0 django-simple-captcha==0.5.17
django-simple-history==3.3.0 django-tree-queries==0.14.0 django-uuslug==2.0.0
django-vinaigrette==2.0.1 idna==3.20 jira==3.5.1 Markdown==3.4.3 mock==5.2.0 oauthlib==4.0.1
packaging==26.4 pillow==12.3.0 pycparser==3.11 PyGithub==1.58.2 Pygments==2.15.1
PyJWT==2.15.1 PyNaCl==1.6.2 python-bugzilla==3.2.0 python-gitlab==3.14.0
python-redmine==2.4.0 python-slugify==9.2.0 requests==2.34.2 requests-oauthlib==2.0.0
requests-toolbelt==1.0.0 six==1.17.0 soupsieve==2.10 sqlparse==0.6.1 text-unidecode==1.3
topicaxis-opengraph==0.5 typing_extensions==4.16.0 tzdata==2023.3 urllib3==2.8.0
uWSGI==2.0.21 webencodings==0.6.1 wrapt==2.5.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"kiwitcms=={v}", *_DEPS[v].split()) for v in VERSIONS}


def _python() -> str:
    """Python 3.10: every Kiwi TCMS release on PyPI pins django-modern-rpc 0.12.1, which
    imports ``inspect.getargspec`` (gone in Python 3.11). pyenv's own 3.10 when there is one
    (its shim answers only where 3.10 is the chosen version), else one on the PATH."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    for pyenv in sorted(root.glob("versions/3.10*/bin/python3.10"), reverse=True):
        return str(pyenv)
    found = shutil.which("python3.10")
    if found is None or "shims" in found:
        raise RuntimeError("Kiwi TCMS needs Python 3.10 (django-modern-rpc 0.12.1)")
    return found


def _install(version: str) -> Path:
    return ensure_venv(f"kiwitcms-{version}", list(PINS[version]), python=_python())


USER = ("tester", "Kiwi-Green-2024")

# Django settings of the served app: Kiwi's own (tcms.settings.common), with SQLite in the work
# folder, debug on (Django serves the static files, the app's own and its bundled npm packages),
# mail kept in memory, the loopback host only.
SETTINGS = """import os

from tcms.settings.common import *  # noqa: F403

DEBUG = True
SECRET_KEY = "pacts-realapps-kiwitcms"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(os.environ["KIWI_WORKDIR"], "kiwi.sqlite")}}
MEDIA_ROOT = os.path.join(os.environ["KIWI_WORKDIR"], "uploads")
STATIC_ROOT = os.path.join(os.environ["KIWI_WORKDIR"], "static")
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


class _NoMigrations(dict):  # every app's tables straight from its models (migrate --run-syncdb)
    def __contains__(self, app):
        return True

    def __getitem__(self, app):
        return None


MIGRATION_MODULES = _NoMigrations()
"""

SEED = r"""import django

django.setup()

from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site

from tcms.management.models import Build, Classification, Component, Priority, Product, Tag
from tcms.management.models import Version
from tcms.testcases.models import Category, TestCase, TestCaseStatus
from tcms.testplans.models import PlanType, TestPlan
from tcms.testruns.models import TestRun

from django.contrib.auth.models import Group
from tcms.testruns.models import TestExecutionStatus

# the rows Kiwi's own migrations add to a new database (its data migrations, copied)
Site.objects.update_or_create(pk=1, defaults={"domain": "127.0.0.1", "name": "Kiwi TCMS"})
for name in ("Administrator", "Tester"):
    Group.objects.get_or_create(name=name)
for value in ("P1", "P2", "P3", "P4", "P5"):
    Priority.objects.get_or_create(value=value)
for name in ("PROPOSED", "CONFIRMED", "DISABLED", "NEED_UPDATE"):
    TestCaseStatus.objects.get_or_create(name=name, is_confirmed=name == "CONFIRMED")
for name in ("Unit", "Integration", "Function", "System", "Acceptance", "Installation",
             "Performance", "Product", "Interoperability", "Smoke", "Regression"):
    PlanType.objects.get_or_create(name=name)
for name, weight, color, icon in (
    ("IDLE", 0, "#72767b", "fa fa-question-circle-o"),
    ("RUNNING", 0, "#72767b", "fa fa-play-circle-o"),
    ("PAUSED", 0, "#72767b", "fa fa-pause-circle-o"),
    ("PASSED", 20, "#92d400", "fa fa-check-circle-o"),
    ("WAIVED", 10, "#92d400", "fa fa-commenting-o"),
    ("BLOCKED", -10, "#cc0000", "fa fa-stop-circle-o"),
    ("ERROR", -20, "#cc0000", "fa fa-minus-circle"),
    ("FAILED", -30, "#cc0000", "fa fa-times-circle-o"),
):
    TestExecutionStatus.objects.get_or_create(name=name, weight=weight, color=color, icon=icon)

user = get_user_model().objects.create_superuser("tester", "tester@shop.invalid",
                                                  "Kiwi-Green-2024")
web = Classification.objects.create(name="Web")
shop = Product.objects.create(name="Acme Shop", classification=web,
                              description="The online shop")
v1 = Version.objects.get_or_create(product=shop, value="1.0")[0]
Version.objects.get_or_create(product=shop, value="2.0")
build = Build.objects.create(name="1.0.0", version=v1)
for name in ("Checkout", "Search"):
    Component.objects.create(name=name, product=shop, initial_owner=user,
                             initial_qa_contact=user, description=name + " pages")
regression = PlanType.objects.get_or_create(name="Regression")[0]
acceptance = PlanType.objects.get_or_create(name="Acceptance")[0]
functional = Category.objects.get_or_create(product=shop, name="Functional")[0]
confirmed = TestCaseStatus.objects.filter(name="CONFIRMED").first()
proposed = TestCaseStatus.objects.filter(name="PROPOSED").first()
p1, p2 = Priority.objects.get(value="P1"), Priority.objects.get(value="P2")
smoke = Tag.objects.create(name="smoke")
plans = {}
for name, kind, text in (
    ("Checkout regression", regression, "Manual checks of the checkout before every release."),
    ("Search acceptance", acceptance, "What the search must do for the 1.0 release."),
):
    plans[name] = TestPlan.objects.create(
        name=name, text=text, product=shop, product_version=v1, author=user, type=kind,
        is_active=True)
cases = {}
for summary, plan, priority, status, text in (
    ("Pay with a saved card", "Checkout regression", p1, confirmed,
     "1. Open the cart\n2. Pay with the saved card\n\nThe order is confirmed."),
    ("Apply a discount code", "Checkout regression", p2, confirmed,
     "1. Enter the code SAVE10\n\nThe total drops by 10 percent."),
    ("Empty the cart", "Checkout regression", p2, proposed,
     "1. Remove every item\n\nThe cart says it is empty."),
    ("Search by product name", "Search acceptance", p1, confirmed,
     "1. Search for 'kettle'\n\nThe kettle is listed."),
    ("Filter results by price", "Search acceptance", p2, proposed,
     "1. Set a price range\n\nOnly products in range are listed."),
):
    case = TestCase.objects.create(
        summary=summary, text=text, case_status=status, category=functional,
        priority=priority, author=user, default_tester=user)
    plans[plan].add_case(case)
    cases[summary] = case
cases["Pay with a saved card"].add_tag(smoke)
run = TestRun.objects.create(
    summary="Release 1.0 checkout", plan=plans["Checkout regression"], build=build,
    manager=user, default_tester=user, notes="Before the 1.0 release")
for summary in ("Pay with a saved card", "Apply a discount code", "Empty the cart"):
    run.create_execution(case=cases[summary])
print("seeded")
"""


def _env(workdir: Path) -> dict[str, str]:
    return {"HOME": str(workdir), "KIWI_WORKDIR": str(workdir), "PYTHONPATH": str(workdir),
            "DJANGO_SETTINGS_MODULE": "kiwi_pacts"}  # fmt: skip


def _run(venv: Path, args: list[str], workdir: Path, timeout: float) -> None:
    (workdir / "kiwi_pacts.py").write_text(SETTINGS)
    with (workdir / "setup.log").open("ab") as out:
        subprocess.run([str(venv / "bin" / "python"), *args], cwd=workdir,
                       env={**os.environ, **_env(workdir)}, stdout=out,
                       stderr=subprocess.STDOUT, check=True, timeout=timeout)  # fmt: skip


def _template(version: str, venv: Path) -> Path:
    """An empty database of ``version`` in the cache (made once), its tables made from the
    models in one pass (``migrate --run-syncdb`` with the migrations off): Kiwi's 81
    migrations were 38 done after 38 minutes at load 55 (the probe was stopped); the rows
    its data migrations add are added by :data:`SEED`."""
    folder = cache_root() / f"kiwitcms-{version}-schema"
    db = folder / "kiwi.sqlite"
    stamp = folder / ".pacts-migrated"
    if stamp.exists() and db.exists():
        return db
    with open(cache_root() / f"kiwitcms-{version}-schema.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and db.exists():  # made while this one waited
            return db
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        _run(venv, ["-m", "django", "migrate", "--run-syncdb", "--noinput"], folder, timeout=1800)
        stamp.touch()
    return db


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    shutil.copyfile(_template(version, venv), workdir / "kiwi.sqlite")
    (workdir / "seed.py").write_text(SEED)
    _run(venv, [str(workdir / "seed.py")], workdir, timeout=600)
    port = free_port()
    command = [str(venv / "bin" / "python"), "-m", "django", "runserver",
               f"127.0.0.1:{port}", "--noreload"]  # fmt: skip
    return serve(command, port=port, cwd=workdir, workdir=workdir, ready="accounts/login/",
                 env=_env(workdir), timeout_s=600)  # fmt: skip


APP = AppSpec(
    name="kiwitcms",
    kind="test case management (Kiwi TCMS: test plans, test cases, test runs and their "
    "executions, search, tags; Django, PatternFly 3)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_KIWITCMS_USER": USER[0], "PACTS_KIWITCMS_PASSWORD": USER[1]},
)
