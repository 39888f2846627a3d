"""pretalx: a conference's call for papers and its organisers' back office (a Django project).
The public side, per event: the call for papers ("Submit a proposal", "Edit or view your
proposals") and the proposal wizard ("General": "Proposal title", "Session type", "Abstract",
...; then "Account", "Profile"). The organisers' side (``/orga/``): a login ("Email address",
"Password", "Log in"), per event a dashboard (tiles: "4 proposals", "3 submitters", ...), the
proposals list ("Search", "Session types", "Proposal states", "Tracks"; a row per proposal with
its state's drop-down), a proposal's page (its fields: "Proposal title", "Internal notes", ...,
"Save"), the call for papers' "Session Types" and "Tracks" ("New type", "New track"), the
schedule's rooms ("New room"), the speakers list, the mail editor and the event's settings.

Added held out (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2023.1.3 shows, and committed before any engine run on it; a dev app since the
seventeenth round ("pretalx's markers and look-alikes, and pretalx moves to dev"). Both
versions are PyPI's ``pretalx`` package: 2023.1.3 (Django 4.2, Bootstrap 4) and 2025.2.2
(Django 5.2, the organisers' pages redrawn), served by its own ``python -m pretalx
runserver`` (Django's development server, ``debug`` on: static files served by Django), with
SQLite.

Migrating an empty database takes minutes (about 4 at load 30), so it is done once per version
into the cache folder beside the venv (a lock and a stamp, as pretix's module does) and copied
into the fresh work folder at every start. Every start writes the settings file
(``PRETALX_CONFIG_FILE``: the data folder, the site's URL, mail to a loopback port nothing
answers on) and seeds the copy through the app's own models (its Django ORM, as its own
``create_test_event`` command does; ``django_scopes`` lifted): an administrator
``orga@ferries.invalid`` ("Marta Lind") in the team of the organiser "Harbour Ferries"; the
event "Harbour Tech Day" (``/harbourday/``, public, 90 days ahead, its call for papers open);
the session types "Talk" (the default) and "Workshop", the tracks "Ticketing" and
"Timetables", the rooms "Main hall" and "Chart room"; three speakers (Anna Miller, Ben Carter,
Priya Shah) and four proposals with fixed codes: "Paperless boarding passes" (``BOARDS``),
"Planning the winter timetable" (``WINTER``), "Tide tables for beginners" (``TIDEWS``, a
workshop), all submitted, and "Kiosk printer war stories" (``KIOSKP``), accepted. 2023.1.3's
pages, in debug mode, ask the Vite development server for ``@vite/client`` on
``localhost:8080`` (refused: nothing runs there); no page of either version loads anything
from another host (a Playwright request log over the flows' pages; docs/real-apps.md, "New
held-out app: pretalx").
"""

from __future__ import annotations

from pathlib import Path

from realapps.apps._cfgdjango import ConfiguredDjango
from realapps.harness import AppSpec, Served, ensure_venv

VERSIONS = ("2023.1.3", "2025.2.2")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2023.1.3": """amqp==5.4.2 asgiref==3.13.0 beautifulsoup4==4.12.3 billiard==4.3.2
bleach==6.0.0 celery==5.3.6 certifi==2026.10.19.post1 chardet==7.7.0
charset-normalizer==3.5.3 click==8.5.1 click-didyoumean==0.3.1 click-plugins==1.1.1.2
click-repl==0.4.1 css-inline==0.10.5 csscompressor==0.9.5 cssutils==2.7.1 defusedcsv==2.0.0
Django==4.2.30 django-appconf==1.2.0 django-bootstrap4==3.0.1 django-compressor==4.4
django-countries==7.6.1 django-csp==3.7 django-filter==23.2
django-formset-js-improved==0.5.0.3 django-formtools==2.3 django-hierarkey==1.1.0
django-i18nfield==1.9.5 django-jquery-js==3.1.1 django-libsass==0.9 django-scopes==2.0.0
django_context_decorator==1.6.1 djangorestframework==3.14.0 idna==3.20 kombu==5.7.0
libsass==0.22.0 lxml==6.1.3 Markdown==3.4.4 Pillow==10.0.1 prompt_toolkit==3.0.53
publicsuffixlist==0.10.1.20240618 pypng==0.20220715.0 python-dateutil==2.8.2 pytz==2026.6
qrcode==7.4.2 rcssmin==1.1.1 reportlab==4.0.9 requests==2.31.0 rjsmin==1.2.1 rules==3.3
six==1.17.0 soupsieve==4.1.3 sqlparse==0.6.1 typing_extensions==4.16.0 tzdata==2026.6
urllib3==2.8.0 urlman==2.0.3 vine==5.1.0 vobject==0.9.9 wcwidth==0.9.4 webencodings==0.6.1
whitenoise==6.5.0 zxcvbn==4.4.28""",
    "2025.2.2": """amqp==5.4.2 argon2-cffi==25.1.0 argon2-cffi-bindings==26.2.0 asgiref==3.13.0
beautifulsoup4==4.14.3 billiard==4.3.2 bleach==6.3.0 brotli==1.2.1 celery==5.5.3
certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.5.1
click-didyoumean==0.3.1 click-plugins==1.1.1.2 click-repl==0.4.1 css-inline==0.18.0
cssutils==2.11.1 defusedcsv==3.0.0 defusedxml==0.7.1 diff-match-patch==20241021
Django==5.2.19 django-countries==8.1.1 django-csp==4.0 django-filter==25.2
django-formset-js-improved==0.5.0.4 django-formtools==2.5.1 django-hierarkey==2.0.2
django-i18nfield==1.11.0 django-jquery-js==3.1.1 django-minify-html==1.14.0
django-scopes==2.0.0 django-tables2==2.8.0 django_context_decorator==1.6.1
djangorestframework==3.16.1 drf-flex-fields==1.0.2 idna==3.20 kombu==5.5.4 lxml==6.1.3
Markdown==3.10.3 minify_html==0.18.1 more-itertools==11.2.1 packaging==26.4 pillow==12.0.0
prompt_toolkit==3.0.53 publicsuffixlist==1.0.2.20261007 pycparser==3.12
python-dateutil==2.9.0.post0 pytz==2026.6 qrcode==8.2 reportlab==4.4.10 requests==2.32.5
rules==3.5 six==1.17.0 soupsieve==4.1.3 sqlparse==0.6.1 typing_extensions==4.16.0
tzdata==2026.6 urllib3==2.8.0 urlman==2.0.3 vine==5.1.0 vobject==0.9.9 wcwidth==0.9.4
webencodings==0.6.1 whitenoise==6.11.0 zxcvbn==4.5.0""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"pretalx=={v}", *_DEPS[v].split()) for v in VERSIONS}

USER = ("orga@ferries.invalid", "Tide-Table-2026")

SEED = r"""import datetime as dt

import django

django.setup()

from django_scopes import scope, scopes_disabled

from pretalx.event.models import Event
from pretalx.event.utils import create_organiser_with_team
from pretalx.person.models import SpeakerProfile, User
from pretalx.schedule.models import Room
from pretalx.submission.models import Submission, SubmissionType, Track

with scopes_disabled():
    admin = User.objects.create_superuser(
        password="Tide-Table-2026", email="orga@ferries.invalid", name="Marta Lind", code="MARTAL"
    )
    organiser, team = create_organiser_with_team(
        name="Harbour Ferries", slug="ferries", users=[admin]
    )
    start = dt.date.today() + dt.timedelta(days=90)
    event = Event.objects.create(
        name="Harbour Tech Day", slug="harbourday", organiser=organiser, is_public=True,
        date_from=start, date_to=start + dt.timedelta(days=1), timezone="UTC",
        email="orga@ferries.invalid", locale_array="en", locale="en",
        landing_page_text="# Harbour Tech Day\n\nTalks about ferries, timetables and tickets.",
    )
with scope(event=event):
    event.build_initial_data()
    team.limit_events.add(event)
    event.feature_flags["use_tracks"] = True
    event.save()
    event.cfp.headline = "Submissions are open"
    event.cfp.text = "Tell us how you move people across the water."
    event.cfp.deadline = None
    event.cfp.save()
    talk = SubmissionType.objects.get(event=event)
    workshop = SubmissionType.objects.create(event=event, name="Workshop", default_duration=90)
    tracks = {name: Track.objects.create(event=event, name=name, color=color)
              for name, color in (("Ticketing", "#1f77b4"), ("Timetables", "#2ca02c"))}
    for position, name in enumerate(("Main hall", "Chart room")):
        Room.objects.create(event=event, name=name, position=position)
    speakers = {}
    for name, email, code in (("Anna Miller", "anna@ferries.invalid", "ANNAMI"),
                              ("Ben Carter", "ben@ferries.invalid", "BENCAR"),
                              ("Priya Shah", "priya@ferries.invalid", "PRIYAS")):
        user = User.objects.create_user(password="Speaker-2026", email=email, name=name,
                                        code=code, locale="en", timezone="UTC")
        SpeakerProfile.objects.create(user=user, event=event,
                                      biography=f"{name} works on the ferry booking app.")
        speakers[name] = user
    for code, title, kind, track, speaker, state in (
        ("BOARDS", "Paperless boarding passes", talk, "Ticketing", "Anna Miller", "submitted"),
        ("WINTER", "Planning the winter timetable", talk, "Timetables", "Ben Carter",
         "submitted"),
        ("KIOSKP", "Kiosk printer war stories", talk, "Ticketing", "Priya Shah", "accepted"),
        ("TIDEWS", "Tide tables for beginners", workshop, "Timetables", "Anna Miller",
         "submitted"),
    ):
        sub = Submission.objects.create(
            event=event, code=code, title=title, submission_type=kind, track=tracks[track],
            abstract=f"{title}: what we learned.", description="A talk from the harbour.",
            content_locale="en",
        )
        sub.speakers.add(speakers[speaker])
        if state == "accepted":
            sub.accept()
print("seeded")
"""

_CONFIG = """[filesystem]
data={data}
[site]
debug=on
url={url}
[database]
backend=sqlite3
name={data}/db.sqlite3
[mail]
from=orga@ferries.invalid
host=127.0.0.1
port=9
[locale]
time_zone=UTC
"""


def _install(version: str) -> Path:
    return ensure_venv(f"pretalx-{version}", list(PINS[version]))


_DJANGO = ConfiguredDjango(
    module="pretalx",
    config=_CONFIG,
    seed=SEED,
    # ready once the login page answers; then the public and the organisers' pages are asked
    # for once, so that their style sheets are compiled (SCSS) before a flow's first page
    ready="orga/login/",
    warm=("harbourday/cfp", "orga/login/"),
)


def _start(version: str, workdir: Path) -> Served:
    return _DJANGO.start(version, _install(version), workdir)


APP = AppSpec(
    name="pretalx",
    kind="conference call for papers (pretalx: the public call for papers and proposal "
    "wizard; the organisers' proposals, speakers, session types, tracks, rooms; Django)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_PRETALX_USER": USER[0], "PACTS_PRETALX_PASSWORD": USER[1]},
)
