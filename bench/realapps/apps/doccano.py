"""doccano: a text annotation tool (a team labels documents for machine learning: projects of
a kind such as text classification, each with its label types, its dataset of documents, its
members and their roles, a guideline, comments on documents, metrics; an annotation page that
shows one document with its labels as chips to click). Django REST framework behind a Nuxt
(Vue, Vuetify) single-page front end that the package bundles.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.6.2 shows, and committed before any engine run on it. Both versions are PyPI's
``doccano`` (1.6.2 of March 2022, 1.8.4 of July 2023); the drift between them is the app's
own: the project list gains "Clone" and the columns "Created" and "Author"; the dataset gains
a "Status" column, an "Edit" button beside each row's "Annotate" and a search box that says
"Search (e.g. label:positive)"; the settings page's per-field "Edit" buttons become one "Edit"
button under the form ("Name" becomes "Project name"); the project form gains "Image
Captioning", "Object Detection" and "Segmentation" and "Allow project members to create label
types"; the annotation toolbar gains a second filter and "Keyboard Shortcut"; comments gain a
"Document" column.

Both versions need ``marshmallow`` 3 (``environs`` 9 reads ``marshmallow.__version_info__``,
gone in 4); 1.8.4's ``pandas`` 1.5 needs ``numpy`` 1 (its C extension was built against it).
``doccano webserver`` binds gunicorn to ``0.0.0.0``, so the server is the same gunicorn
application it runs (``config.wsgi`` of the package's ``backend`` folder, with the
environment ``doccano`` sets: ``STANDALONE``, the production settings, an SQLite database
and a media folder in the work folder) bound to ``127.0.0.1`` instead. Nothing is fetched
from the network, except that a project's "Home" page embeds a YouTube tutorial video
(``youtube.com/iframe_api``), which stays empty offline: no flow opens that page.

Every start runs ``doccano init`` (the database's migrations and roles) and ``doccano
createuser`` for two accounts (``admin``, who owns the projects, and ``bob``, to be added as
a member) in a fresh work folder, starts the server, then seeds through doccano's REST API as
``admin`` (a token from ``/v1/auth/login/``): a text classification project "Bird sightings"
(labels Heron, Kingfisher, Owl and Wren; four documents: a heron by the weir, a kingfisher
at the footbridge, tawny owls in the churchyard, a wren by the gate; a guideline) and a second
project "Garden notes".
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.6.2", "1.8.4")

# The versions pip resolved on Python 3.11 when the corpus entry was written (with
# marshmallow 3, and numpy 1 for 1.8.4's pandas), pinned so that a new release of a
# dependency cannot change what is served.
_COMMON: tuple[str, ...] = (
    "amqp==5.4.2",
    "annotated-types==0.8.0",
    "asgiref==3.13.0",
    "attrs==26.1.0",
    "auto-labeling-pipeline==0.1.23",
    "billiard==4.3.2",
    "boto3==1.44.8",
    "botocore==1.44.8",
    "celery==5.7.0",
    "certifi==2026.10.19.post1",
    "chardet==4.0.0",
    "charset-normalizer==3.5.3",
    "click-didyoumean==0.3.1",
    "click-plugins==1.1.1.2",
    "click-repl==0.4.1",
    "click==8.5.1",
    "cloudpickle==3.1.3",
    "defusedxml==0.7.1",
    "dj-database-url==0.5.0",
    "dj-rest-auth==2.2.8",
    "django-cors-headers==3.14.0",
    "django-health-check==3.24.0",
    "django-polymorphic==3.1.0",
    "django-rest-polymorphic==0.1.10",
    "django-storages==1.14.6",
    "Django==4.2.30",
    "djangorestframework-xml==2.0.0",
    "djangorestframework==3.17.2",
    "drf-yasg==1.21.18",
    "environs==9.5.0",
    "et_xmlfile==2.0.0",
    "furl==2.1.4",
    "greenlet==3.5.6",
    "gunicorn==20.1.0",
    "idna==3.20",
    "importlib_resources==7.1.0",
    "inflection==0.5.1",
    "Jinja2==3.1.6",
    "jmespath==1.1.0",
    "joblib==1.6.0",
    "jsonschema-specifications==2025.9.1",
    "jsonschema==4.26.0",
    "kombu==5.7.0",
    "lml==0.2.0",
    "MarkupSafe==3.0.4",
    "marshmallow==3.26.2",
    "narwhals==2.29.0",
    "openpyxl==3.1.5",
    "orderedmultidict==1.0.2",
    "packaging==26.4",
    "prompt_toolkit==3.0.53",
    "psutil==7.2.2",
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
    "pyexcel-io==0.6.8",
    "pyexcel-xlsx==0.6.1",
    "pyexcel==0.7.6",
    "python-dateutil==2.9.0.post0",
    "python-dotenv==1.2.4",
    "pytz==2026.6",
    "PyYAML==6.0.4",
    "referencing==0.37.0",
    "requests==2.34.2",
    "rpds-py==2026.9.1",
    "s3transfer==0.19.3",
    "scikit-learn==1.9.1",
    "scipy==1.17.1",
    "seqeval==1.2.2",
    "shortuuid==1.0.13",
    "six==1.17.0",
    "SQLAlchemy==1.4.54",
    "sqlparse==0.6.1",
    "swagger-spec-validator==3.0.4",
    "texttable==1.7.2",
    "threadpoolctl==3.8.0",
    "typing-inspection==0.4.5",
    "typing_extensions==4.16.0",
    "tzlocal==5.4.5",
    "uritemplate==4.2.0",
    "urllib3==2.8.0",
    "vine==5.1.0",
    "waitress==2.1.2",
    "wcwidth==0.9.4",
    "whitenoise==6.12.0",
)

_ONLY: dict[str, tuple[str, ...]] = {
    "1.6.2": (
        "django-celery-results==2.2.0",
        "django-drf-filepond==0.4.1",
        "django-filter==21.1",
        "doccano==1.6.2",
        "numpy==2.4.6",
    ),
    "1.8.4": (
        "cffi==2.1.1",
        "cryptography==50.0.2",
        "django-allauth==0.52.0",
        "django-celery-results==2.4.0",
        "django-cleanup==6.0.0",
        "django-drf-filepond==0.5.0",
        "django-filter==22.1",
        "doccano==1.8.4",
        "filetype==1.2.0",
        "flower==1.2.0",
        "google-api-core==2.44.0",
        "google-auth==2.63.0",
        "google-cloud-core==2.8.0",
        "google-cloud-storage==3.17.1",
        "google-crc32c==1.9.0",
        "google-resumable-media==2.11.0",
        "googleapis-common-protos==1.76.0",
        "humanize==4.17.0",
        "numpy==1.26.4",
        "oauthlib==4.0.1",
        "opentelemetry-api==1.45.2",
        "pandas==1.5.3",
        "prometheus_client==0.26.0",
        "proto-plus==1.29.0",
        "protobuf==7.36.2",
        "pyasn1==0.6.5",
        "pyasn1_modules==0.4.2",
        "pycparser==3.12",
        "PyJWT==2.15.1",
        "python3-openid==3.2.0",
        "requests-oauthlib==2.0.0",
        "tornado==6.6.1",
    ),
}

PINS: dict[str, tuple[str, ...]] = {v: (*_ONLY[v], *_COMMON) for v in VERSIONS}

USER = ("admin", "garden-admin-1")
MEMBER = ("bob", "garden-member-2")

GUIDELINE = "Pick the bird the report is about."
LABELS = ("Heron", "Kingfisher", "Owl", "Wren")
DOCUMENTS = (
    "A grey heron stood in the shallows by the weir.",
    "A kingfisher flashed past the footbridge at dawn.",
    "Two tawny owls called from the churchyard yews.",
    "A wren sang from the bramble by the gate.",
)


def _project(name: str, description: str, guideline: str) -> dict[str, object]:
    return {
        "name": name,
        "description": description,
        "guideline": guideline,
        "project_type": "DocumentClassification",
        "resourcetype": "TextClassificationProject",
        "random_order": False,
        "collaborative_annotation": False,
        "single_class_classification": False,
        "tags": [],
    }


def _seed(base_url: str) -> None:
    """The projects, labels and documents, through doccano's REST API as ``admin``."""

    def call(path: str, body: dict[str, object], token: str = "") -> dict[str, object]:
        request = urllib.request.Request(
            base_url + path, data=json.dumps(body).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        if token:  # a token, not the session: a session would also ask for a CSRF token
            request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: dict[str, object] = json.loads(response.read() or b"{}")
        return answer

    token = str(call("v1/auth/login/", {"username": USER[0], "password": USER[1]})["key"])
    birds = call("v1/projects", _project("Bird sightings", "Classify reports", GUIDELINE), token)
    for label in LABELS:
        call(
            f"v1/projects/{birds['id']}/category-types",
            {"text": label, "background_color": "#209cee", "text_color": "#ffffff"},
            token,
        )
    for text in DOCUMENTS:
        call(f"v1/projects/{birds['id']}/examples", {"text": text, "meta": {}}, token)
    call("v1/projects", _project("Garden notes", "Tag the allotment diary", ""), token)


def _install(version: str) -> Path:
    return ensure_venv(f"doccano-{version}", list(PINS[version]))


def _backend(venv: Path) -> Path:
    """The package's Django project (``site-packages/backend``), where gunicorn runs."""
    found = sorted(venv.glob("lib/python3*/site-packages/backend/config/wsgi.py"))
    if not found:
        raise RuntimeError(f"no doccano backend in {venv}")
    return found[0].parent.parent


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    env = {
        **os.environ,
        "HOME": str(workdir),
        "DOCCANO_HOME": str(workdir),
        "STANDALONE": "True",
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "MEDIA_ROOT": str(workdir / "media"),
    }
    doccano = str(venv / "bin" / "doccano")
    for argv in (
        [doccano, "init"],
        [doccano, "createuser", "--username", USER[0], "--password", USER[1]],
        [doccano, "createuser", "--username", MEMBER[0], "--password", MEMBER[1],
         "--email", "bob@example.org"],
    ):  # fmt: skip
        subprocess.run(
            argv,
            cwd=workdir,
            env=env,
            check=True,
            timeout=600,
            stdin=subprocess.DEVNULL,
            capture_output=True,
        )
    port = free_port()
    argv = [
        str(venv / "bin" / "gunicorn"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        "--timeout",
        "120",
        "--chdir",
        str(_backend(venv)),
        "config.wsgi",
    ]
    return serve(
        argv, port=port, cwd=workdir, workdir=workdir, env=env, ready="v1/projects",
        timeout_s=180, then=_seed,
    )  # fmt: skip


APP = AppSpec(
    name="doccano",
    kind="text annotation tool (projects, labels, a dataset, annotating, members; Vue SPA)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_DOCCANO_USER": USER[0], "PACTS_DOCCANO_PASSWORD": USER[1]},
)
