"""The demo shop's state on one server: its accounts (:func:`check_login`), the signed-in
sessions (:class:`Sessions`: ids, age, a login count) and the orders placed
(:class:`Orders`).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

# The accounts of the shop (docs: demo_app/README.md "Users"); one password for all.
USERS: tuple[str, ...] = (
    "standard_user",
    "locked_out_user",
    "problem_user",
    "performance_glitch_user",
)
PASSWORD = "secret_sauce"
SESSION_COOKIE = "pacts_demo_sid"
# The pages of the shop that need a session (the login page and the widgets do not).
PROTECTED_PAGES = frozenset(
    {
        "/inventory.html",
        "/cart.html",
        "/checkout-step-one.html",
        "/checkout-step-two.html",
        "/checkout-complete.html",
    }
)


class Orders:
    """The orders placed on one server: ``POST /api/order`` makes one, ``GET`` reads one.

    Ids count up from ``ORD-100001`` per server; each order carries a receipt token (a
    secret-looking field, so a requirement can show that captured bodies are never kept whole).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 100_001
        self._by_id: dict[str, dict[str, object]] = {}

    def place(self, items: list[str], total: str) -> dict[str, object]:
        with self._lock:
            order_id = f"ORD-{self._next}"
            self._next += 1
            order: dict[str, object] = {
                "id": order_id,
                "status": "confirmed",
                "items": len(items),
                "total": total,
                "receipt_token": "rcpt_" + secrets.token_hex(12),
            }
            self._by_id[order_id] = order
            return order

    def get(self, order_id: str) -> dict[str, object] | None:
        with self._lock:
            return self._by_id.get(order_id)


@dataclass
class _Session:
    user: str
    started: float  # time.monotonic() at the login


class Sessions:
    """The server's signed-in sessions: id -> user, with their age and a login count."""

    def __init__(self, ttl: float | None = None, single_session: bool = False) -> None:
        self.ttl = ttl
        self.single_session = single_session  # a new login of a user ends its older session
        self._by_id: dict[str, _Session] = {}
        self._lock = threading.Lock()
        self.logins: list[str] = []

    def start(self, user: str) -> str:
        sid = secrets.token_urlsafe(24)
        with self._lock:
            if self.single_session:
                for old in [k for k, v in self._by_id.items() if v.user == user]:
                    del self._by_id[old]
            self._by_id[sid] = _Session(user, time.monotonic())
            self.logins.append(user)
        return sid

    def user(self, sid: str | None) -> tuple[str | None, bool]:
        """The user of a live session, and whether ``sid`` named one that has expired."""
        if not sid:
            return None, False
        with self._lock:
            found = self._by_id.get(sid)
            if found is None:
                return None, False
            if self.ttl is not None and time.monotonic() - found.started > self.ttl:
                del self._by_id[sid]
                return None, True
            return found.user, False

    def end(self, sid: str | None) -> None:
        with self._lock:
            self._by_id.pop(sid or "", None)

    def end_all(self) -> None:
        with self._lock:
            self._by_id.clear()


def check_login(user: str, password: str) -> str:
    """The login form's error message for these credentials, or "" when they sign in."""
    if not user:
        return "Epic sadface: Username is required"
    if not password:
        return "Epic sadface: Password is required"
    if user not in USERS or password != PASSWORD:
        return "Epic sadface: Username and password do not match any user in this service"
    if user == "locked_out_user":
        return "Epic sadface: Sorry, this user has been locked out."
    return ""
