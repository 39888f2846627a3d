"""mitmweb: mitmproxy's web interface (an HTTP debugging proxy: every request sent through
the proxy is kept as a "flow" and listed in a table by its URL, method, status, size and
time; a flow's detail shows its request, response, connection and timing in tabs, with a
content view menu ("View: auto", "raw", "json" ...); the header's tabs "File" (a menu with
"Open...", "Save", "Clear All"), "Start" (the Search, Highlight and Intercept filters),
"Options" (quick options as checkboxes, "Edit Options") and, while a flow is selected,
"Flow" ("Replay", "Duplicate", "Revert", "Delete", "Mark", "Download", "Export")).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 9.0.1 shows, and committed before any engine run on it. Both versions are PyPI's
``mitmproxy`` package (11.0.2 is the newest that installs on Python 3.11). The drift
between them is the app's own: the header's "Start" tab is renamed "Flow List" and a
"Capture" tab comes before it; a flow's detail gains a "Comment" tab and a close button; the
content view menu's "hex" becomes "raw hex stream" and "hex dump".

Every start makes a fresh folder in the work folder for mitmproxy's settings and CA
(``confdir``) and starts ``mitmweb`` with its web interface and its proxy both on
127.0.0.1, with a small addon (written into the work folder) that answers every request
itself: the made-up shop API of a bakery at ``bakery.invalid`` (products, an order, a
missing order, a cart item deleted, an about page), and a 403 for any other host. So no
request ever leaves the proxy (``connection_strategy=lazy``: no server connection is opened
before the addon has answered), and a flow replayed from the interface is answered the same
way. It is seeded through the app's own door: six requests sent through its proxy port with
Python's ``http.client``. Checked with ``strace -f -e trace=connect`` and a Playwright
request log: docs/real-apps.md, "New held-out app: mitmweb".
"""

from __future__ import annotations

import http.client
import json
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("9.0.1", "11.0.2")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "9.0.1": """asgiref==3.5.2 Brotli==1.0.9 certifi==2026.10.19.post1 cffi==2.1.1
click==8.5.1 cryptography==38.0.4 Flask==2.2.5 h11==0.14.0 h2==4.4.1 hpack==4.2.0
hyperframe==6.1.0 itsdangerous==2.2.0 Jinja2==3.1.6 kaitaistruct==0.10 ldap3==2.9.1
MarkupSafe==3.0.4 mitmproxy_wireguard==0.1.23 msgpack==1.0.8 passlib==1.7.4
protobuf==4.25.9 publicsuffix2==2.20191221 pyasn1==0.6.5 pycparser==3.12 pyOpenSSL==22.1.0
pyparsing==3.0.9 pyperclip==1.8.2 ruamel.yaml==0.17.40 ruamel.yaml.clib==0.2.15
sortedcontainers==2.4.0 tornado==6.6.1 urwid==2.1.2 Werkzeug==3.1.9 wsproto==1.2.0
zstandard==0.19.0""",
    "11.0.2": """aioquic==1.2.0 asgiref==3.8.1 attrs==26.1.0 blinker==1.9.0 Brotli==1.1.0
certifi==2026.10.19.post1 cffi==2.1.1 click==8.5.1 cryptography==44.0.3 Flask==3.1.0
h11==0.14.0 h2==4.1.0 hpack==4.2.0 hyperframe==6.0.1 itsdangerous==2.2.0 Jinja2==3.1.6
kaitaistruct==0.10 ldap3==2.9.1 MarkupSafe==3.0.4 mitmproxy_rs==0.10.7 msgpack==1.1.0
passlib==1.7.4 publicsuffix2==2.20191221 pyasn1==0.6.5 pyasn1_modules==0.4.2
pycparser==3.12 pylsqpack==0.3.24 pyOpenSSL==24.3.0 pyparsing==3.2.0 pyperclip==1.9.0
ruamel.yaml==0.18.6 ruamel.yaml.clib==0.2.15 service-identity==24.2.0
sortedcontainers==2.4.0 tornado==6.4.2 typing_extensions==4.16.0 urwid==2.6.16
wcwidth==0.9.4 Werkzeug==3.1.9 wsproto==1.2.0 zstandard==0.23.0""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"mitmproxy=={v}", *_DEPS[v].split()) for v in VERSIONS}

HOST = "bakery.invalid"

# The addon mitmweb loads (``-s``): it answers every request itself, so nothing is forwarded.
ADDON = """
import json

from mitmproxy import http

PRODUCTS = [
    {"id": 1, "name": "Sourdough loaf", "price": 4.5},
    {"id": 2, "name": "Rye bread", "price": 3.9},
    {"id": 3, "name": "Cinnamon roll", "price": 2.2},
]
ABOUT = (b"<html><head><title>Corner Bakery</title></head><body><h1>Corner Bakery</h1>"
         b"<p>Open daily from 7.</p></body></html>")


def _json(status, body):
    return http.Response.make(status, json.dumps(body, indent=1),
                              {"Content-Type": "application/json"})


def request(flow):
    path, method = flow.request.path, flow.request.method
    if flow.request.pretty_host != "bakery.invalid":
        flow.response = http.Response.make(403, b"only bakery.invalid is answered here\\n",
                                           {"Content-Type": "text/plain"})
    elif method == "GET" and path == "/api/products":
        flow.response = _json(200, PRODUCTS)
    elif method == "GET" and path == "/api/products/2":
        flow.response = _json(200, PRODUCTS[1])
    elif method == "POST" and path == "/api/orders":
        items = json.loads(flow.request.get_text() or "{}").get("items", [])
        flow.response = _json(201, {"order": "B-1042", "status": "received", "items": items})
    elif method == "DELETE" and path.startswith("/api/cart/"):
        flow.response = http.Response.make(204, b"")
    elif method == "GET" and path == "/about.html":
        flow.response = http.Response.make(200, ABOUT, {"Content-Type": "text/html"})
    else:
        flow.response = _json(404, {"error": "no such order"})
"""

# (method, path, JSON body or None), sent through the proxy in this order (the table lists
# them in the order they came)
REQUESTS: tuple[tuple[str, str, object], ...] = (
    ("GET", "/api/products", None),
    ("GET", "/api/products/2", None),
    ("POST", "/api/orders", {"items": [{"product": 1, "quantity": 2}]}),
    ("GET", "/api/orders/B-9999", None),
    ("DELETE", "/api/cart/3", None),
    ("GET", "/about.html", None),
)


def _install(version: str) -> Path:
    return ensure_venv(f"mitmweb-{version}", list(PINS[version]))


def seed(proxy_port: int) -> None:
    """The six requests, sent through mitmweb's own proxy on 127.0.0.1 (answered by the
    addon: the proxy never connects anywhere)."""
    for method, path, body in REQUESTS:
        conn = http.client.HTTPConnection("127.0.0.1", proxy_port, timeout=30)
        try:
            headers = {"Host": HOST, "User-Agent": "bakery-app/1.0"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, f"http://{HOST}{path}", body=data, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status >= 500:
                raise RuntimeError(f"{method} {path}: {response.status} through the proxy")
        finally:
            conn.close()


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    conf = workdir / "conf"
    conf.mkdir(parents=True)
    addon = workdir / "bakery_api.py"
    addon.write_text(ADDON)
    port, proxy_port = free_port(), free_port()
    argv = [
        str(venv / "bin" / "mitmweb"),
        "--web-host", "127.0.0.1", "--web-port", str(port),
        "--listen-host", "127.0.0.1", "--listen-port", str(proxy_port),
        "--no-web-open-browser",
        "--set", f"confdir={conf}",
        "--set", "connection_strategy=lazy",
        "-s", str(addon),
    ]  # fmt: skip
    env = {"HOME": str(workdir)}
    return serve(
        argv,
        port=port,
        cwd=workdir,
        workdir=workdir,
        env=env,
        timeout_s=120,
        then=lambda _base: seed(proxy_port),
    )


APP = AppSpec(
    name="mitmweb",
    kind="HTTP debugging proxy (mitmproxy's mitmweb: a table of captured requests, a flow's "
    "request, response, connection and timing, filters, replay, delete, marks, options)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
