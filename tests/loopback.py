"""A loopback HTTP server for tests whose browser runs in another process (a pytester
session): fixed pages by path, on 127.0.0.1 and a free port."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager


@contextmanager
def serve(pages: Mapping[str, str]) -> Iterator[str]:
    """Serve ``pages`` (path without the query → HTML) until the block ends; yields the base
    URL. Any other path is a 404."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path.split("?")[0])
            self.send_response(200 if body is not None else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write((body if body is not None else "not found").encode())

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
