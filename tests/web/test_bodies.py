"""Request bodies are bounded before they are read (docs/observer.md, "Threat model"): a
declared ``Content-Length`` over the limit is refused with 413 before any byte of the body
is read, and a streamed (chunked) body is cut off at the limit. Observed before: the
unauthenticated ``/login`` read a 1 GiB body whole (2 GB resident) before refusing it."""

from __future__ import annotations

import select
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from .conftest import TOKEN, Server


@pytest.fixture
def address(sqlite_server: Server) -> Iterator[tuple[str, int]]:
    parts = urlsplit(sqlite_server.url)
    yield parts.hostname or "", parts.port or 0


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def _head(address: tuple[str, int], path: str, headers: str) -> socket.socket:
    sock = socket.create_connection(address, timeout=15)
    host = f"{address[0]}:{address[1]}"
    auth = f"Authorization: Bearer {TOKEN}\r\n"  # so a write route reads the body
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{auth}{headers}\r\n".encode())
    return sock


def _reply(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(x for x in status if x.startswith("VmRSS:"))
    return int(line.split()[1])


@pytest.mark.parametrize(
    "path", ["/login", "/logout", "/api/run", "/api/proposals/1/accept", "/api/proposals/1/reject"]
)
def test_a_declared_length_over_the_limit_is_refused_before_the_body(
    address: tuple[str, int], path: str
) -> None:
    """Only the headers are sent: the 413 arrives although no byte of the 1 GiB body does
    (a server that read the body first would still be waiting)."""
    with _head(
        address,
        path,
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1073741824\r\n",
    ) as sock:
        reply = _reply(sock)
    assert _status(reply) == 413, reply[:300]
    assert b"TOO_LARGE" in reply or b"413" in reply


@pytest.mark.parametrize("path", ["/login", "/api/run"])
def test_a_streamed_body_is_cut_off_at_the_limit(address: tuple[str, int], path: str) -> None:
    """A chunked body (no length declared) of up to 256 MiB: the 413 comes while it is
    being sent, and the server (this process) does not grow by what was sent."""
    chunk = b"token=" + b"a" * (1024 * 1024 - 6)
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    before = _rss_kib()
    sent = 0
    with _head(
        address,
        path,
        "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n",
    ) as sock:
        reply = b""
        for _ in range(256):
            readable, _w, _x = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(framed)
            except OSError:  # the server answered and closed: what is wanted
                break
            sent += len(chunk)
        reply = _reply(sock)
    grown_mib = (_rss_kib() - before) / 1024
    assert _status(reply) == 413, reply[:300]
    assert sent < 256 * 1024 * 1024, "the server read the whole body"
    assert grown_mib < 48, f"the server grew by {grown_mib:.0f} MiB for a refused body"


@pytest.mark.parametrize(
    ("length", "status"),
    [("9" * 5000, 413), ("1" * 19, 413), ("\u00b2", 400), ("-1", 400), ("0x10", 400)],
)
def test_a_strange_declared_length_is_refused_not_a_server_error(
    address: tuple[str, int], length: str, status: int
) -> None:
    with _head(address, "/login", f"Content-Length: {length}\r\n") as sock:
        reply = _reply(sock)
    assert _status(reply) in (status, 400), reply[:300]


def test_bodies_within_the_limit_still_work(sqlite_server: Server) -> None:
    login = sqlite_server.client.post("/login", data={"token": "x" * 3000})
    assert login.status_code == 401  # read and refused for the token, not the size
    run = sqlite_server.client.post(
        "/api/run", headers=sqlite_server.auth, json={"paths": ["x" * 60000]}
    )
    assert run.status_code == 422 and "is not a usable path" in run.text
