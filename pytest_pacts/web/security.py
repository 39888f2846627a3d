"""Who may read and write, which hosts and files are served (``docs/observer.md``,
"Threat model" and "Security").

- Reading (pages, ``GET /api/...``) is open to whoever reaches the server on loopback (the
  default 127.0.0.1); bound beyond loopback it needs the token too, unless
  ``--open-reads``.
- A request whose ``Host`` does not name this server (:func:`host_ok`) is refused, which
  closes DNS rebinding.
- Writing (every ``POST``) needs the server's token: API clients send
  ``Authorization: Bearer <token>``; a browser signs in once on ``/login`` (the token in a
  form body, never in a URL, so it never reaches an access log) and gets an ``HttpOnly``,
  ``SameSite=Strict`` cookie, and then each write also carries the CSRF token of the page in
  the ``X-Pacts-CSRF`` header, which a cross-site form or image cannot set. A request whose
  ``Origin`` is not this server is refused either way.
- Artifacts are served only from inside the report folder of the server's own project
  (``<project>/.pacts/reports``, resolved once at start), whatever the store or a report
  index says: a name that is absolute or has a ``..`` part (also percent-encoded: the
  router decodes before we check) is refused, and the file, resolved with every symlink
  followed (a run folder replaced by a symlink, a symlinked file), must lie inside it.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

TOKEN_ENV = "PACTS_SERVE_TOKEN"
COOKIE = "pacts_session"
CSRF_HEADER = "x-pacts-csrf"
MIN_TOKEN_LENGTH = 16


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Guard:
    """The write token and what is derived from it (cookie value, CSRF token)."""

    token: str

    def __post_init__(self) -> None:
        if len(self.token) < MIN_TOKEN_LENGTH:
            raise ValueError(
                f"the write token must be at least {MIN_TOKEN_LENGTH} characters long "
                f"(${TOKEN_ENV}); leave it unset to have one generated"
            )

    def _derive(self, purpose: str) -> str:
        return hmac.new(self.token.encode(), purpose.encode(), hashlib.sha256).hexdigest()

    @property
    def cookie_value(self) -> str:
        """What the session cookie holds: derived, so the token itself never sits in a
        browser's cookie jar."""
        return self._derive("session-cookie")

    @property
    def csrf_token(self) -> str:
        return self._derive("csrf")

    def token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def bearer_ok(self, authorization: str | None) -> bool:
        if not authorization:
            return False
        scheme, _, value = authorization.partition(" ")
        return scheme.lower() == "bearer" and self.token_ok(value.strip())

    def cookie_ok(self, cookie: str | None) -> bool:
        return cookie is not None and hmac.compare_digest(
            cookie.encode(), self.cookie_value.encode()
        )

    def csrf_ok(self, header: str | None) -> bool:
        return header is not None and hmac.compare_digest(header.encode(), self.csrf_token.encode())


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """A browser's ``Origin`` names this server (absent: not a cross-site browser request)."""
    if origin is None:
        return True
    return host is not None and origin == f"{scheme}://{host}"


def within(reports: Path, path: Path) -> Path | None:
    """``path`` with every symlink followed, when that is a file inside ``reports`` (the
    resolved report folder of the server's project); else ``None``."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # missing, a symlink loop, unreadable
        return None
    if not target.is_relative_to(reports) or not target.is_file():
        return None
    return target


def inside(reports: Path, folder: Path, name: str) -> Path | None:
    """The file ``name`` names inside ``folder``, or ``None`` when the name would leave the
    folder or the file (symlinks followed: the folder's own, the file's) is not inside
    ``reports``. The folder comes from the store, so it never serves as the root."""
    if not name or "\x00" in name or "\\" in name:
        return None
    pure = PurePosixPath(name)
    if pure.is_absolute() or any(part in ("..", "") for part in name.split("/")):
        return None
    return within(reports, folder / pure)


def is_loopback(host: str) -> bool:
    """``host`` (an address to bind or a ``Host`` name) is this machine's loopback."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool((mapped or address).is_loopback)


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name`` and port of a ``Host`` header (``[v6]:port``, ``name:port``, ``name``)."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else ""
    elif value.count(":") > 1:
        return None  # an IPv6 address without brackets is not a valid Host
    else:
        name, _, port_text = value.partition(":")
    if not name:
        return None
    if not port_text:
        return name.rstrip("."), None
    if not port_text.isdigit() or len(port_text) > 5:
        return None
    return name.rstrip("."), int(port_text)


def _same_address(name: str, address: str) -> bool:
    try:
        given, local = ipaddress.ip_address(name), ipaddress.ip_address(address)
    except ValueError:
        return False
    given = getattr(given, "ipv4_mapped", None) or given
    local = getattr(local, "ipv4_mapped", None) or local
    return given == local


def host_ok(host: str | None, local: tuple[str, int] | None, allowed: Iterable[str]) -> bool:
    """Whether a request's ``Host`` names this server, so a page of another site that
    re-pointed its own name at this address (DNS rebinding) is refused: the address and
    port the connection reached (``local``), ``localhost`` and loopback addresses when that
    address is loopback, or an ``--allowed-host`` entry (``name`` matches any port,
    ``name:port`` that port)."""
    if not host:
        return False
    parts = _split_host(host)
    if parts is None:
        return False
    name, port = parts
    for entry in allowed:
        wanted = _split_host(entry)
        if wanted is not None and wanted[0] == name and wanted[1] in (None, port):
            return True
    if local is None:
        return False
    address, local_port = local
    if (port or 80) != local_port:
        return False
    if _same_address(name, address):
        return True
    return is_loopback(address) and is_loopback(name)
