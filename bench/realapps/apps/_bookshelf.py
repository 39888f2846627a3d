"""The Bookshelf API that the Swagger UI app (``apps/swagger_ui.py``) documents and calls: a
small JSON API over SQLite (a team's shared bookshelf: books and loans) with its OpenAPI 3.0
description, and Swagger UI's own static files from the npm package, served by one stdlib
HTTP server on 127.0.0.1.

Run as a script (standard library only, so any Python runs it)::

    python _bookshelf.py DIST_FOLDER PORT DATABASE API_KEY

``/`` is Swagger UI's page (our own ``index.html``, the same for every version: the
standalone layout with its top bar, a tag filter, the spec at ``/openapi.json``); the files
of ``DIST_FOLDER`` (npm's ``swagger-ui-dist``) are served under ``/dist/``; the API under
``/api``. Adding or removing a book needs the header ``X-API-Key: API_KEY``.
"""

from __future__ import annotations

import json
import mimetypes
import re
import sqlite3
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

BOOKS = (
    ("Dune", "Frank Herbert", 1965, "Science fiction"),
    ("The Left Hand of Darkness", "Ursula K. Le Guin", 1969, "Science fiction"),
    ("Middlemarch", "George Eliot", 1871, "Classics"),
    ("The Pragmatic Programmer", "Andrew Hunt", 1999, "Computing"),
    ("Structure and Interpretation of Computer Programs", "Harold Abelson", 1985, "Computing"),
)
LOANS = ((2, "Priya", "2024-03-04"), (4, "Tomás", "2024-03-11"))

INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Bookshelf API</title>
  <link rel="stylesheet" type="text/css" href="/dist/swagger-ui.css">
  <link rel="icon" type="image/png" href="/dist/favicon-32x32.png" sizes="32x32">
  <style>body { margin: 0; background: #fafafa; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/dist/swagger-ui-bundle.js" charset="UTF-8"></script>
  <script src="/dist/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
  <script>
    window.onload = function () {
      window.ui = SwaggerUIBundle({
        url: "/openapi.json",
        dom_id: "#swagger-ui",
        deepLinking: true,
        filter: true,
        validatorUrl: null,
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        plugins: [SwaggerUIBundle.plugins.DownloadUrl],
        layout: "StandaloneLayout"
      });
    };
  </script>
</body>
</html>
"""

_BOOK = {
    "type": "object",
    "description": "A book on the shelf.",
    "required": ["title", "author"],
    "properties": {
        "id": {"type": "integer", "description": "The shelf number", "example": 1},
        "title": {"type": "string", "example": "Dune"},
        "author": {"type": "string", "example": "Frank Herbert"},
        "year": {"type": "integer", "description": "Year of first publication",
                 "example": 1965},
        "genre": {"type": "string", "enum": ["Science fiction", "Classics", "Computing"]},
    },
}  # fmt: skip
_NEW_BOOK = {
    "type": "object",
    "description": "A book to add (the shelf gives it its number).",
    "required": ["title", "author"],
    "properties": {k: v for k, v in _BOOK["properties"].items() if k != "id"},  # type: ignore[attr-defined]
}
_LOAN = {
    "type": "object",
    "description": "A book lent to a member of the team.",
    "properties": {
        "book_id": {"type": "integer", "example": 2},
        "member": {"type": "string", "example": "Priya"},
        "since": {"type": "string", "format": "date", "example": "2024-03-04"},
    },
}
_ERROR = {"type": "object", "properties": {"message": {"type": "string"}}}


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


def _list(schema: str) -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{schema}"}
    return {"application/json": {"schema": {"type": "array", "items": ref}}}


BOOK_ID = {
    "name": "bookId",
    "in": "path",
    "required": True,
    "description": "The book's shelf number",
    "schema": {"type": "integer"},
}
KEY: list[dict[str, list[str]]] = [{"shelfKey": []}]

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "Bookshelf API",
        "version": "1.0.0",
        "description": "The team's shared bookshelf: what is on it, and who has borrowed what. "
        "Adding or removing a book needs the shelf key.",
    },
    "servers": [{"url": "/api", "description": "This shelf"}],
    "tags": [
        {"name": "books", "description": "Everything about the books on the shelf"},
        {"name": "loans", "description": "Who borrowed what"},
    ],
    "paths": {
        "/books": {
            "get": {
                "tags": ["books"],
                "summary": "List the books",
                "operationId": "listBooks",
                "parameters": [
                    {"name": "genre", "in": "query", "description": "Only books of this genre",
                     "schema": _BOOK["properties"]["genre"]},  # type: ignore[index]
                ],
                "responses": {
                    "200": {"description": "The books on the shelf",
                            "content": {**_list("Book"), "text/csv": {
                                "schema": {"type": "string"}}}},
                },
            },
            "post": {
                "tags": ["books"],
                "summary": "Add a book",
                "operationId": "addBook",
                "security": KEY,
                "requestBody": {"required": True, "content": _json("NewBook")},
                "responses": {
                    "201": {"description": "The book, with its shelf number",
                            "content": _json("Book")},
                    "401": {"description": "Missing or wrong shelf key",
                            "content": _json("Error")},
                },
            },
        },
        "/books/{bookId}": {
            "get": {
                "tags": ["books"],
                "summary": "Find a book by its shelf number",
                "operationId": "getBook",
                "parameters": [BOOK_ID],
                "responses": {
                    "200": {"description": "The book", "content": _json("Book")},
                    "404": {"description": "No book has this number",
                            "content": _json("Error")},
                },
            },
            "delete": {
                "tags": ["books"],
                "summary": "Remove a book",
                "operationId": "removeBook",
                "security": KEY,
                "parameters": [BOOK_ID],
                "responses": {
                    "204": {"description": "Removed"},
                    "401": {"description": "Missing or wrong shelf key",
                            "content": _json("Error")},
                    "404": {"description": "No book has this number",
                            "content": _json("Error")},
                },
            },
        },
        "/loans": {
            "get": {
                "tags": ["loans"],
                "summary": "List the open loans",
                "operationId": "listLoans",
                "responses": {"200": {"description": "The open loans",
                                      "content": _list("Loan")}},
            },
            "post": {
                "tags": ["loans"],
                "summary": "Lend a book",
                "operationId": "lendBook",
                "requestBody": {"required": True, "content": _json("Loan")},
                "responses": {"201": {"description": "The loan", "content": _json("Loan")}},
            },
        },
    },
    "components": {
        "schemas": {"Book": _BOOK, "NewBook": _NEW_BOOK, "Loan": _LOAN, "Error": _ERROR},
        "securitySchemes": {
            "shelfKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                         "description": "The shelf key, from the team's wiki"},
        },
    },
}  # fmt: skip


def seed(db: sqlite3.Connection) -> None:
    db.executescript(
        "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL,"
        " year INTEGER, genre TEXT);"
        "CREATE TABLE loan (book_id INTEGER, member TEXT, since TEXT);"
    )
    db.executemany("INSERT INTO book (title, author, year, genre) VALUES (?, ?, ?, ?)", BOOKS)
    db.executemany("INSERT INTO loan VALUES (?, ?, ?)", LOANS)
    db.commit()


def main(argv: list[str]) -> None:
    dist, port, database, api_key = Path(argv[0]), int(argv[1]), argv[2], argv[3]
    fresh = not Path(database).exists()
    db = sqlite3.connect(database, check_same_thread=False)
    db.row_factory = sqlite3.Row
    if fresh:
        seed(db)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt: str, *args: Any) -> None:
            sys.stderr.write(f"{self.command} {self.path}\n")

        def _send(self, status: int, body: bytes = b"", ctype: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _reply(self, status: int, value: object) -> None:
            self._send(status, json.dumps(value, indent=2).encode())

        def _book(self, book_id: int) -> dict[str, Any] | None:
            row = db.execute("SELECT * FROM book WHERE id = ?", (book_id,)).fetchone()
            return dict(row) if row else None

        def _keyed(self) -> bool:
            if self.headers.get("X-API-Key") == api_key:
                return True
            self._reply(401, {"message": "Missing or wrong shelf key"})
            return False

        def _body(self) -> Any:
            size = min(int(self.headers.get("Content-Length") or 0), 65536)
            try:
                return json.loads(self.rfile.read(size) or b"{}")
            except ValueError:
                return None

        def do_GET(self) -> None:
            url = urlparse(self.path)
            path = url.path
            if path in ("/", "/index.html"):
                self._send(200, INDEX.encode(), "text/html; charset=utf-8")
            elif path == "/openapi.json":
                self._reply(200, SPEC)
            elif path.startswith("/dist/"):
                file = (dist / path[len("/dist/") :]).resolve()
                if dist.resolve() in file.parents and file.is_file():
                    ctype = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                    self._send(200, file.read_bytes(), ctype)
                else:
                    self._reply(404, {"message": "Not found"})
            elif path == "/api/books":
                genre = parse_qs(url.query).get("genre", [""])[0]
                args: tuple[str, ...]
                sql, args = "SELECT * FROM book", ()
                if genre:
                    sql, args = sql + " WHERE genre = ?", (genre,)
                rows = [dict(r) for r in db.execute(sql + " ORDER BY id", args)]
                if "text/csv" in (self.headers.get("Accept") or ""):
                    lines = ["id,title,author,year,genre"] + [
                        ",".join(f'"{r[k]}"' for k in ("id", "title", "author", "year", "genre"))
                        for r in rows
                    ]
                    self._send(200, ("\n".join(lines) + "\n").encode(), "text/csv")
                else:
                    self._reply(200, rows)
            elif m := re.fullmatch(r"/api/books/(\d+)", path):
                book = self._book(int(m.group(1)))
                if book:
                    self._reply(200, book)
                else:
                    self._reply(404, {"message": f"No book has the number {m.group(1)}"})
            elif path == "/api/loans":
                self._reply(200, [dict(r) for r in db.execute("SELECT * FROM loan")])
            else:
                self._reply(404, {"message": "Not found"})

        do_HEAD = do_GET

        def do_POST(self) -> None:
            path = urlparse(self.path).path
            body = self._body()
            if path == "/api/books":
                if not self._keyed():
                    return
                if not isinstance(body, dict) or not body.get("title") or not body.get("author"):
                    self._reply(400, {"message": "A book needs a title and an author"})
                    return
                cur = db.execute(
                    "INSERT INTO book (title, author, year, genre) VALUES (?, ?, ?, ?)",
                    (body["title"], body["author"], body.get("year"), body.get("genre")),
                )
                db.commit()
                self._reply(201, self._book(int(cur.lastrowid or 0)))
            elif path == "/api/loans":
                if not isinstance(body, dict) or not self._book(int(body.get("book_id") or 0)):
                    self._reply(400, {"message": "No book has this number"})
                    return
                loan = (body["book_id"], body.get("member", ""), body.get("since", ""))
                db.execute("INSERT INTO loan VALUES (?, ?, ?)", loan)
                db.commit()
                self._reply(201, dict(zip(("book_id", "member", "since"), loan, strict=True)))
            else:
                self._reply(404, {"message": "Not found"})

        def do_DELETE(self) -> None:
            m = re.fullmatch(r"/api/books/(\d+)", urlparse(self.path).path)
            if not m:
                self._reply(404, {"message": "Not found"})
                return
            if not self._keyed():
                return
            if not self._book(int(m.group(1))):
                self._reply(404, {"message": f"No book has the number {m.group(1)}"})
                return
            db.execute("DELETE FROM book WHERE id = ?", (int(m.group(1)),))
            db.commit()
            self._send(204)

    server = HTTPServer(("127.0.0.1", port), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
