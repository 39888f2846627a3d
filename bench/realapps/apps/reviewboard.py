"""Review Board: a code and document review tool. A team reads and answers review requests on it:
the top bar ("My Dashboard", "New Review Request", "All Review Requests", "Users", "Groups", a
"Jump to..." box, the user's menu); the dashboard (a sidebar of "Outgoing" and "Incoming" views,
one per review group, and the table of review requests, each row with a checkbox); a review
request's page (its summary, "Description", "Testing Done", the owner, the reviewers; the actions
"Close", "Update", "Review", "Add General Comment", "Ship It!"; the reviews below, "Expand All",
"Collapse All"); the users' and groups' lists; the account's "My Account" page ("Profile",
"Settings", ...; "First name", "Save Profile"); "New Review Request" (a repository list, with
"(None - File attachments only)").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 5.0.7 shows, and committed before any engine run on it. Both versions are PyPI's
``ReviewBoard``: 5.0.7 (the last 5.x, Django 3.2) and 8.1 (the newest, Django 4.2), the
release a team on 5.x upgrades to. pip resolves today's ``paramiko`` 4 for 5.0.7, which it
cannot start with (``paramiko.DSSKey`` is gone), so ``paramiko<4`` was asked for; every package
is pinned below as pip then resolved it (``pip freeze``). 8.1 brings ``ReviewBoardPowerPack``
from PyPI with it, unlicensed (a "Start your 30-day Review Board Plus or Enterprise trial"
banner on every page).

Every start makes a fresh site in the work folder with Review Board's own installer
(``rb-site install --noinput``: SQLite, a file cache, the administrator "admin", support data
opted out), seeds it through Review Board's own models (``SEED`` below: the users "marta",
"jonas" and "priya", the review groups "ferry-app" and "kiosk", four review requests of a ferry
company's booking app without a repository, two reviews, one request closed as submitted;
avatars off, so no page asks Gravatar), then serves the site's WSGI application and its
``htdocs`` (static and media files) with the standard library's WSGI server on 127.0.0.1
(``SERVE`` below; Review Board ships no server of its own for production, and Django's
``runserver`` serves no static files with ``DEBUG`` off). Nothing leaves the machine from the
pages the flows open; the administration dashboard's news and support widgets ask
www.reviewboard.org and www.beanbaginc.com from the browser, which the corpus's browser cannot
resolve (``LOOPBACK_ONLY``), and no flow opens it: docs/real-apps.md, "New held-out app: Review
Board".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("5.0.7", "8.1")

# What pip resolved on Python 3.11 for `ReviewBoard==V` when the corpus entry was written (`pip
# freeze`; 5.0.7 with `paramiko<4`), pinned so that a new release of a dependency cannot change
# what is served.
_DEPS = {
    "5.0.7": """asana==5.4.0 asgiref==3.13.0 bcrypt==5.0.0 bleach==6.0.0 certifi==2026.10.19.post1
cffi==2.1.1 charset-normalizer==3.5.3 cryptography==39.0.2 Django==3.2.25
django-braces==1.13.0 django-cors-headers==3.11.0 django-haystack==3.2.1
django-multiselectfield==0.1.13 django-oauth-toolkit==1.6.3 django-pipeline==2.0.9
django_evolution==2.4.2 Djblets==3.3 dnspython==2.9.2 docutils==0.23 feedparser==6.0.14
feedparser-sgmllib==2.1.0 idna==3.20 invoke==3.0.3 jwcrypto==1.5.8 Markdown==3.3.7
mimeparse==0.1.3 oauthlib==4.0.1 packaging==26.4 paramiko==3.5.1 pillow==13.0.0
publicsuffix==1.1.1 pycparser==3.12 pydiffx==1.1 Pygments==2.14.0
pymdown-extensions==6.3 pymemcache==4.0.0 PyNaCl==1.6.2 pyOpenSSL==23.0.0
python-dateutil==4.0.0 pytz==2026.6 PyYAML==6.0.4 rbintegrations==3.1.1 requests==2.34.2
requests-oauthlib==1.0.0 six==1.17.0 sqlparse==0.6.1 typing_extensions==4.16.0
tzdata==2026.6 urllib3==2.8.0 webencodings==0.6.1 Whoosh==2.7.4""",
    "8.1": """amqp==5.4.2 annotated-types==0.8.0 asana==5.0.16 asgiref==3.13.0 bcrypt==5.0.0
billiard==4.3.2 bleach==6.4.0 boto3==1.37.38 botocore==1.37.38 celery==5.7.0
certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.5.1
click-didyoumean==0.3.1 click-plugins==1.1.1.2 click-repl==0.4.1 cryptography==49.0.0
diff-match-patch==20241021 Django==4.2.30 django-assert-queries==2.0.1
django-braces==1.13.0 django-cors-headers==3.11.0 django-haystack==3.3.0
django-oauth-toolkit==1.6.3 django-pipeline==3.1.0 django-storages==1.14.6
django_evolution==2.4.2 Djblets==6.1 dnspython==2.9.2 docutils==0.23 housekeeping==1.1
idna==3.20 importlib_metadata==10.2.0 importlib_resources==7.1.0 jmespath==1.1.0
jwcrypto==1.6.1 kgb==7.3 kombu==5.7.0 lazy-importer==0.1.0 Markdown==3.11.3
mimeparse==0.1.3 oauthlib==4.0.1 packaging==26.4 paramiko==3.4.1 pdfminer.six==20260107
pillow==13.0.0 prompt_toolkit==3.0.53 publicsuffixlist==0.10.1.20240618 pycparser==3.12
pydantic==2.14.4 pydantic_core==2.50.5 pydiffx==1.1 Pygments==2.19.2
pymdown-extensions==10.21.3 pymemcache==4.0.0 PyNaCl==1.6.2 pyOpenSSL==26.3.0
python-dateutil==2.9.0.post0 python-gitlab==8.6.0 python-ntlm3==1.0.2 pytz==2026.6
PyYAML==6.0.4 rbintegrations==5.0.1 requests==2.34.2 requests-toolbelt==1.0.0
ReviewBoardPowerPack==6.1.1 s3transfer==0.11.5 six==1.17.0 sqlparse==0.6.1 tqdm==4.66.6
typelets==1.1 typing-inspection==0.4.5 typing_extensions==4.16.0 tzlocal==5.4.5
urllib3==2.8.0 vine==5.1.0 wcwidth==0.9.4 webencodings==0.6.1 Whoosh==2.7.4 zipp==4.1.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"ReviewBoard=={v}", *_DEPS[v].split()) for v in VERSIONS}

USER = ("admin", "Harbour-Review-2024")

SEED = '''"""Seed a Review Board site (with the site's environment, before the server starts)."""
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reviewboard.settings")
os.environ["REVIEWBOARD_SITEDIR"] = sys.argv[1]
sys.path.insert(0, os.path.join(sys.argv[1], "conf"))
import reviewboard  # noqa: E402

reviewboard.initialize()

from django.contrib.auth.models import User  # noqa: E402
from djblets.siteconfig.models import SiteConfiguration  # noqa: E402
from reviewboard.reviews.models import (  # noqa: E402
    Group, Review, ReviewRequest, ReviewRequestDraft)

siteconfig = SiteConfiguration.objects.get_current()
siteconfig.set("avatars_enabled", False)
siteconfig.save()

admin = User.objects.get(username="admin")
admin.first_name, admin.last_name = "Ada", "Harbour"
admin.save()
people = {}
for name, first, last in (("marta", "Marta", "Lind"), ("jonas", "Jonas", "Berg"),
                          ("priya", "Priya", "Nair")):
    user = User.objects.create_user(name, f"{name}@harbour.example", "Harbour-Crew-2024",
                                    first_name=first, last_name=last)
    people[name] = user
people["admin"] = admin

team = Group.objects.create(name="ferry-app", display_name="Ferry app team",
                            mailing_list="ferry-app@harbour.example")
kiosk = Group.objects.create(name="kiosk", display_name="Harbour kiosk")
for name in ("marta", "jonas", "admin"):
    team.users.add(people[name])
kiosk.users.add(people["priya"])

REQUESTS = (
    ("marta", "Show winter crossings only from October",
     "The timetable lists the winter crossings in May. They now start on 1 October.",
     "Opened the timetable for May and October.", [team], ["jonas"]),
    ("jonas", "Add a bicycle fare to the booking form",
     "Passengers can book a bicycle with their ticket (4.50 per crossing).",
     "Booked a crossing with and without a bicycle.", [team], ["marta"]),
    ("admin", "Refund page hides the cancellation fee",
     "The refund page now shows the cancellation fee before the refund is confirmed.",
     "", [team], ["marta"]),
    ("priya", "Kiosk prints boarding passes twice",
     "The kiosk's print button is disabled while a pass prints.",
     "Printed ten passes at the harbour kiosk.", [kiosk], ["admin"]),
)
made = {}
for owner, summary, description, testing, groups, targets in REQUESTS:
    rr = ReviewRequest.objects.create(people[owner], None)
    draft = ReviewRequestDraft.create(rr)
    draft.summary, draft.description, draft.testing_done = summary, description, testing
    draft.save()
    draft.target_groups.set(groups)
    draft.target_people.set([people[t] for t in targets])
    rr.publish(people[owner])
    made[summary] = rr

bike = made["Add a bicycle fare to the booking form"]
review = Review.objects.create(review_request=bike, user=people["marta"],
                               body_top="Looks good; the fare shows on the receipt too.",
                               ship_it=True)
review.publish(user=people["marta"])
kiosk_rr = made["Kiosk prints boarding passes twice"]
kiosk_rr.close(ReviewRequest.SUBMITTED, people["priya"], "Deployed to the kiosks.")
winter = made["Show winter crossings only from October"]
review = Review.objects.create(review_request=winter, user=people["jonas"],
                               body_top="Please keep the May timetable for the island route.",
                               ship_it=False)
review.publish(user=people["jonas"])
print("seeded", {s: r.pk for s, r in made.items()})
'''

SERVE = '''"""Serve a Review Board site on 127.0.0.1: its WSGI app, htdocs' static and media."""
import mimetypes
import os
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

site, port = sys.argv[1], int(sys.argv[2])
os.environ["REVIEWBOARD_SITEDIR"] = site
from reviewboard.wsgi import application  # noqa: E402

HTDOCS = os.path.realpath(os.path.join(site, "htdocs"))


def app(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if path.startswith(("/static/", "/media/")):
        full = os.path.realpath(os.path.join(HTDOCS, path.lstrip("/")))
        if full.startswith(HTDOCS + os.sep) and os.path.isfile(full):
            kind = mimetypes.guess_type(full)[0] or "application/octet-stream"
            with open(full, "rb") as f:
                body = f.read()
            start_response("200 OK", [("Content-Type", kind), ("Content-Length", str(len(body)))])
            return [body]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    return application(environ, start_response)


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


make_server("127.0.0.1", port, app, server_class=Server, handler_class=Quiet).serve_forever()
'''


def _install(version: str) -> Path:
    return ensure_venv(f"reviewboard-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    site = workdir / "site"
    # with VIRTUAL_ENV set, the site's WSGI module does not look for a virtualenv's
    # activate_this.py (a venv made by `python -m venv` has none)
    env = {"VIRTUAL_ENV": str(venv), "HOME": str(workdir)}
    run_env = {**os.environ, **env}
    installer = [
        str(venv / "bin" / "rb-site"), "install", "--noinput", "--domain-name=127.0.0.1",
        "--site-root=/", "--static-url=static/", "--media-url=media/", "--db-type=sqlite3",
        f"--db-name={site / 'data' / 'reviewboard.db'}", "--cache-type=file",
        f"--cache-info={site / 'cache'}", "--web-server-port=80", f"--admin-user={USER[0]}",
        f"--admin-password={USER[1]}", "--admin-email=admin@harbour.example",
        "--opt-out-support-data", "--copy-media", "--company=Harbour Ferries",
        "--secret-key=harbour-ferries-review-board-corpus-secret-key-012",
        f"--sitelist={workdir / 'sitelist'}", str(site),
    ]  # fmt: skip
    with (workdir / "install.log").open("ab") as log:
        subprocess.run(installer, cwd=workdir, env=run_env, check=True, timeout=600,
                       stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
        (workdir / "seed.py").write_text(SEED)
        subprocess.run([str(venv / "bin" / "python"), "seed.py", str(site)], cwd=workdir,
                       env=run_env, check=True, timeout=300, stdout=log,
                       stderr=subprocess.STDOUT)  # fmt: skip
    (workdir / "serve.py").write_text(SERVE)
    port = free_port()
    return serve([str(venv / "bin" / "python"), "serve.py", str(site), str(port)], port=port,
                 cwd=workdir, workdir=workdir, ready="account/login/", env=env,
                 timeout_s=240)  # fmt: skip


APP = AppSpec(
    name="reviewboard",
    kind="code review (Review Board: a dashboard of review requests, a review request's page "
    "with its actions and reviews, users, review groups, the account's settings; Django and "
    "Backbone, then Review Board 8's unified review banner and Ink components)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_REVIEWBOARD_USER": USER[0], "PACTS_REVIEWBOARD_PASSWORD": USER[1]},
)
