"""changedetection.io: web page change monitoring (a list of watched pages with their group
tags, when each was last checked and changed, a watch's edit form with tabs for the request,
filters and notifications, a preview of the text last fetched, groups, global settings, an
import of lists of addresses, a search of the watches).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.45.26 shows, and committed before any engine run on it. Both versions are PyPI's
``changedetection.io`` package (Flask, a JSON datastore in a folder). The drift between them
is the app's redesign of 2025-2026: the top menu's words (GROUPS, SETTINGS, IMPORT, BACKUP)
become a sidebar of icons named by their tooltips, the quick-add form loses its tag field and
its placeholder changes, the list's rows and buttons are restyled, the edit form's fields
are renamed and regrouped.

A new datastore would start with two watches of public sites and fetch them at once, and
both versions ask changedetection.io's server for a newer version once a day. So every start
writes its own datastore first (the old single-file format, ``url-watches.json``, which both
versions read: 0.60.10 migrates it), with no watch and a known API key; the version check is
off (``GITHUB_REF``, ``DISABLE_VERSION_CHECK``, the switches the app reads for its own test
runs). The watched pages are a small site this module writes into the work folder and serves
on a second free loopback port, from the same shell as the app (one process group, stopped
together); 0.60.10 fetches a loopback address only when ``ALLOW_IANA_RESTRICTED_ADDRESSES``
says so. The watches are then added through the app's own API (``POST /api/v1/watch``), and
the start returns once each has been fetched once (its preview has text). Checked with
``strace -f -e trace=connect`` on both versions while they started, were seeded and served
their pages: no connection beyond 127.0.0.1; the pages load nothing from other hosts.

What each start seeds: four watches of an allotment society's pages, "Seed prices" and "Compost
collection days" (group "garden"), "Opening hours" and "Plot waiting list" (group
"allotment").
"""

from __future__ import annotations

import json
import shlex
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.45.26", "0.60.10")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_FROZEN: dict[str, str] = {
    "0.45.26": """changedetection.io==0.45.26 aenum==2.2.6 aniso8601==10.0.1 appdirs==1.4.4
    apprise==1.8.1 arrow==1.4.0 attrs==26.1.0 backports.zstd==1.8.0 beautifulsoup4==4.12.3
    blinker==1.9.0 brotli==1.2.1 certifi==2026.10.19.post1 cffi==2.1.1 chardet==7.7.0
    charset-normalizer==3.5.3 click==8.5.1 cryptography==42.0.8 decorator==5.3.1
    dnspython==2.6.1 elementpath==4.1.5 et_xmlfile==2.0.0 eventlet==0.41.3 feedgen==0.9.0
    Flask==2.3.3 Flask-Compress==1.25 flask-cors==6.0.5 flask-expects-json==1.7.0
    Flask-Login==0.6.3 flask-paginate==2026.10.22 Flask-RESTful==0.3.10 Flask-WTF==1.3.0
    greenlet==3.5.6 h11==0.16.0 idna==3.20 iniconfig==2.3.1 inscriptis==2.7.6
    itsdangerous==2.2.0 Jinja2==3.1.6 jinja2-time==0.2.0 jq==1.13.0 jsonpath-ng==1.5.3
    jsonschema==4.17.3 loguru==0.7.3 lxml==5.4.0 Markdown==3.11.3 MarkupSafe==3.0.4
    mypy_extensions==1.2.0 oauthlib==4.0.1 openpyxl==3.1.5 ordered-set==4.1.0
    outcome==1.3.0.post0 packaging==26.4 paho-mqtt==1.6.1 pillow==13.0.0 pluggy==1.7.0
    ply==3.11 pycparser==3.12 pyee==11.1.1 pyppeteer-ng==2.0.0rc5 pyppeteerstealth==0.0.5
    pyrsistent==0.20.0 PySocks==1.7.1 pytest==7.4.4 pytest-flask==1.3.0
    python-dateutil==4.0.0 pytz==2026.6 PyYAML==6.0.4 requests==2.34.2
    requests-oauthlib==2.0.0 selenium==4.14.0 six==1.17.0 sniffio==1.3.1
    sortedcontainers==2.4.0 soupsieve==4.1.3 timeago==1.0.16 tqdm==4.70.1 trio==0.35.0
    trio-websocket==0.12.2 typing-extensions==3.10.0.2 typing-inspect==0.5.0 tzdata==2026.6
    urllib3==1.26.19 validators==0.36.0 websockets==10.4 Werkzeug==3.1.9 wsproto==1.3.2
    WTForms==3.3.2""",
    "0.60.10": """changedetection.io==0.60.10 aenum==2.2.6 aiohappyeyeballs==2.7.1
    aiohttp==3.14.5 aiosignal==1.4.0 aniso8601==10.0.1 annotated-types==0.8.0 anyio==4.16.0
    appdirs==1.4.4 apprise==2.0.1 arrow==1.4.0 attrs==26.1.0 babel==2.18.0
    backports.zstd==1.8.0 beautifulsoup4==4.15.0 bidict==0.24.1 blinker==1.9.0
    boto3==1.44.8 botocore==1.44.8 brotli==1.2.1 certifi==2026.10.19.post1 cffi==2.1.1
    chardet==7.7.0 charset-normalizer==3.5.3 click==8.5.1 cryptography==50.0.2
    diff-match-patch==20241021 elementpath==5.1.4 et_xmlfile==2.0.0 execnet==2.1.2
    extruct==0.18.0 fastuuid==0.14.0 feedgen==1.0.0 feedparser==6.0.14
    feedparser-sgmllib==2.1.0 filelock==4.3.1 Flask==3.1.3 flask-babel==4.0.0
    Flask-Compress==1.25 flask-cors==6.0.5 Flask-Login==0.6.3 flask-paginate==2026.10.22
    Flask-RESTful==0.3.10 Flask-SocketIO==5.7.0 Flask-WTF==1.3.0 frozenlist==1.8.0
    fsspec==2026.9.0 gevent==26.9.0 greenlet==3.5.6 h11==0.16.0 h2==4.4.1 hf-xet==1.8.0
    hpack==4.2.0 html-text==0.7.1 html5lib==1.1 httpcore==1.0.9 httpcore2==2.16.2
    httpx==0.28.1 httpx2==2.16.2 huggingface_hub==2.4.0 hyperframe==6.1.0 idna==3.20
    importlib_metadata==8.9.0 iniconfig==2.3.1 inscriptis==2.7.5 isodate==0.7.2
    itsdangerous==2.2.0 Jinja2==3.1.6 jiter==0.19.0 jmespath==1.1.0 jq==1.13.0
    jsonpath-ng==1.12.0 jsonschema==4.26.0 jsonschema-path==0.4.6
    jsonschema-specifications==2025.9.1 jstyleson==0.0.2 lazy-object-proxy==1.13.0
    linkify-it-py==2.2.0 litellm==1.110.2 loguru==0.7.3 lxml==6.1.3 lxml_html_clean==0.4.6
    Markdown==3.11.3 MarkupSafe==3.0.4 mf2py==2.0.2 more-itertools==11.2.1 multidict==7.2.1
    mypy_extensions==1.2.0 numpy==2.4.6 oauthlib==4.0.1 openai==3.57.0 openapi-core==0.23.1
    openapi-schema-validator==0.8.1 openapi-spec-validator==0.8.5 openpyxl==3.1.5
    ordered-set==4.1.0 orjson==3.13.0 outcome==1.3.0.post0 packaging==26.4
    paho-mqtt==2.2.0 panzi-json-logic==1.0.1 pathable==0.5.0 pillow==13.0.0 pluggy==1.7.0
    price-parser==0.5.1 propcache==0.5.4 psutil==7.2.2 puremagic==1.30 pycparser==3.12
    pydantic==2.14.4 pydantic-settings==2.16.3 pydantic_core==2.50.5 pyee==13.0.1
    Pygments==2.21.0 pyparsing==3.3.3 pyppeteer-ng==2.0.0rc16 pyppeteerstealth==0.0.5
    pyrdfa3==3.6.5 PySocks==1.7.1 pytest==9.2.0 pytest-flask==1.3.0 pytest-mock==3.17.0
    pytest-xdist==3.8.0 python-dateutil==2.9.0.post0 python-dotenv==1.2.4
    python-engineio==4.15.1 python-socketio==5.18.1 pytz==2026.6 PyYAML==6.0.4
    rank-bm25==0.2.2 RapidFuzz==3.14.6 rdflib==7.6.0 referencing==0.37.0 regex==2026.11.19
    requests==2.34.2 requests-file==3.0.1 requests-oauthlib==2.0.0 rfc3339-validator==0.1.4
    rpds-py==2026.9.1 s3transfer==0.19.3 segno==1.6.6 selenium==4.51.0
    simple-websocket==1.1.0 six==1.17.0 sniffio==1.3.1 sortedcontainers==2.4.0
    soupsieve==4.1.3 tiktoken==0.14.0 timeago==1.0.16 tokenizers==0.23.3 tqdm==4.70.1
    trio==0.35.0 trio-websocket==0.12.2 truststore==0.10.5 typing-inspect==0.5.0
    typing-inspection==0.4.5 typing_extensions==4.16.0 tzdata==2026.6 urllib3==2.8.0
    validators==0.36.0 w3lib==2.5.0 webencodings==0.6.1 websocket-client==1.9.2
    websockets==10.4 Werkzeug==3.1.9 wsproto==1.3.2 WTForms==3.3.2 yarl==1.25.1 zipp==4.1.2
    zope.event==6.2 zope.interface==8.7""",
}
PINS: dict[str, tuple[str, ...]] = {v: tuple(text.split()) for v, text in _FROZEN.items()}

API_KEY = "allotment-local-api-key"

# the watched site: file name -> (title, lines of text)
PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "prices.html": (
        "Seed prices",
        ("Runner beans: 2.40 a packet", "Tomato seeds: 1.90 a packet", "Seed potatoes: 4.50"),
    ),
    "compost.html": (
        "Compost collection days",
        ("Green waste is collected on the first Saturday of the month.",),
    ),
    "opening.html": (
        "Opening hours",
        ("The gates open at 8 am and close at dusk.", "The shop opens on Sunday mornings."),
    ),
    "waiting-list.html": (
        "Plot waiting list",
        ("Twelve households are waiting for a half plot.",),
    ),
}

# (page, watch title, group tag), in the order added: the list shows them in this order
WATCHES: tuple[tuple[str, str, str], ...] = (
    ("prices.html", "Seed prices", "garden"),
    ("opening.html", "Opening hours", "allotment"),
    ("compost.html", "Compost collection days", "garden"),
    ("waiting-list.html", "Plot waiting list", "allotment"),
)


def _write_site(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (title, lines) in PAGES.items():
        body = "".join(f"<p>{line}</p>" for line in lines)
        folder.joinpath(name).write_text(
            f"<!doctype html><html><head><title>{title}</title></head>"
            f"<body><h1>{title}</h1>{body}</body></html>\n"
        )


def _api(base_url: str, method: str, path: str, body: object | None = None) -> object:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + "api/v1/" + path, data=data, method=method)
    request.add_header("x-api-key", API_KEY)
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _seeder(page_base: str) -> Callable[[str], None]:
    def seed(base_url: str) -> None:
        for page, title, tag in WATCHES:
            _api(base_url, "POST", "watch", {"url": page_base + page, "title": title, "tag": tag})
        # every watch fetched once (its first snapshot taken), so its preview has text
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            listed = _api(base_url, "GET", "watch")
            assert isinstance(listed, dict)
            if len(listed) == len(WATCHES) and all(w.get("last_checked") for w in listed.values()):
                return
            time.sleep(0.5)
        raise TimeoutError("changedetection.io did not fetch its seeded watches in 120 s")

    return seed


def _install(version: str) -> Path:
    return ensure_venv(f"changedetection-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    _write_site(workdir / "site")
    datastore = workdir / "datastore"
    datastore.mkdir()
    datastore.joinpath("url-watches.json").write_text(
        json.dumps({"watching": {}, "settings": {"application": {"api_access_token": API_KEY}}})
    )
    port = free_port()
    page_port = free_port()
    while page_port == port:
        page_port = free_port()
    python = shlex.quote(str(venv / "bin" / "python"))
    app = shlex.quote(str(venv / "bin" / "changedetection.py"))
    script = (
        f"{python} -m http.server --bind 127.0.0.1 {page_port}"
        f" --directory {shlex.quote(str(workdir / 'site'))} &"
        f" exec {app} -d {shlex.quote(str(datastore))} -h 127.0.0.1 -p {port}"
    )
    env = {
        "HOME": str(workdir),
        "GITHUB_REF": "local",
        "DISABLE_VERSION_CHECK": "true",
        "ALLOW_IANA_RESTRICTED_ADDRESSES": "true",
        "LOGGER_LEVEL": "WARNING",
    }
    seed = _seeder(f"http://127.0.0.1:{page_port}/")
    return serve(
        ["/bin/sh", "-c", script],
        port=port,
        cwd=workdir,
        workdir=workdir,
        env=env,
        timeout_s=180,
        then=seed,
    )


APP = AppSpec(
    name="changedetection",
    kind="web page change monitoring (changedetection.io: watches, groups, preview, settings)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
