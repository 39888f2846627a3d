"""The secret values a browser context's options carry: what a trace of the context may
record (request headers, DOM snapshots) and must mask (docs/reports.md, "What the secret
guarantee covers").

A saved session (Playwright's storage state: a file, or its dict) holds the cookies the
browser sends in every ``Cookie`` header and the localStorage an app reads its bearer token
from (then sent as ``Authorization``); ``extra_http_headers`` may carry an
``Authorization`` of their own. Each value is kept whole, and a token-like part of a longer
value too (a JWT inside a JSON blob in localStorage).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from pytest_pacts.planner.templating import is_secret_name

# Cookies of a saved session are credentials, whatever their name; localStorage holds
# settings too ("theme": "dark"), so only its secret-looking keys and token-like values count.
_TOKEN_RE = re.compile(r"[A-Za-z0-9._~+=-]{16,}")
# A cookie value shorter than this ("1", "true", "granted") is a setting, not a credential:
# masking it would mangle every trace that mentions the word.
MIN_VALUE_LENGTH = 8
_SECRET_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization"})
MAX_STATE_BYTES = 16 * 1024 * 1024  # a storage state larger than this is not read


def _state(value: object) -> Mapping[str, object] | None:
    if isinstance(value, Mapping):
        return value
    if isinstance(value, (str, Path)):
        path = Path(value)
        try:
            if path.stat().st_size > MAX_STATE_BYTES:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, Mapping) else None
    return None


def _tokens(value: str) -> set[str]:
    """The token-like parts of ``value``: long runs of letters and digits (a JWT, a hex id),
    not words or paths."""
    return {
        t
        for t in _TOKEN_RE.findall(value)
        if any(c.isdigit() for c in t) and any(c.isalpha() for c in t)
    }


def _value_parts(value: str) -> set[str]:
    """``value`` and its token-like parts (``Bearer <token>``, a JWT inside JSON)."""
    whole = {value} if len(value) >= MIN_VALUE_LENGTH else set()
    return whole | _tokens(value)


def context_secrets(options: Mapping[str, object]) -> set[str]:
    """The secret values in ``options`` (``browser.new_context`` keyword arguments): the
    saved session's cookie values and secret-looking localStorage entries, and the values
    of credential headers in ``extra_http_headers``."""
    found: set[str] = set()
    state = _state(options.get("storage_state"))
    if state is not None:
        cookies = state.get("cookies")
        for cookie in cookies if isinstance(cookies, list) else []:
            value = cookie.get("value") if isinstance(cookie, Mapping) else None
            if isinstance(value, str) and value:
                found |= _value_parts(value)
        origins = state.get("origins")
        for origin in origins if isinstance(origins, list) else []:
            entries = origin.get("localStorage") if isinstance(origin, Mapping) else None
            for entry in entries if isinstance(entries, list) else []:
                if not isinstance(entry, Mapping):
                    continue
                name, value = entry.get("name"), entry.get("value")
                if not isinstance(value, str) or not value:
                    continue
                if isinstance(name, str) and is_secret_name(name):
                    found |= _value_parts(value)
                else:
                    found |= _tokens(value)
    headers = options.get("extra_http_headers")
    if isinstance(headers, Mapping):
        for name, value in headers.items():
            if not isinstance(value, str) or not value:
                continue
            if str(name).lower() in _SECRET_HEADERS or is_secret_name(str(name)):
                found |= _value_parts(value)
    return found
