"""Last line of defence for "secrets never leak" (docs/reports.md).

Run records already show secrets as ``***``; reports additionally replace any secret value
they know of (the environment values a requirement's ``{{env.NAME}}`` templates refer to)
in every text they write, so a secret that slipped into a message by accident still never
reaches JUnit, HTML, JSON or JSONL.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import quote, quote_plus

from pytest_pacts.models import Plan
from pytest_pacts.planner.templating import (
    MASK,
    SecretMask,
    TemplateError,
    is_secret_name,
    parse_templates,
    secret_defaults,
)


class Redactor:
    """Replaces known secret values with ``***``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._mask = SecretMask(secrets)
        self._secrets = self._mask.values
        forms = b"|".join(re.escape(form) for form in self._encoded())
        # a bytes pattern ignores ASCII letter case: the trace's encodings of the value
        self._data = re.compile(forms, re.IGNORECASE) if forms else None
        # a trace member is megabytes: a byte search of the lower-cased member first (bytes'
        # lower() is ASCII's, as the pattern's IGNORECASE), the pattern only where one is
        self._lowered = [form.lower() for form in self._encoded()]

    def __bool__(self) -> bool:
        return bool(self._mask)

    def text(self, value: str) -> str:
        return self._mask(value)

    def data(self, value: bytes) -> bytes:
        """Bytes with every secret masked, also in the encodings a secret takes on its way
        through a browser trace: JSON string escapes, URL and form encoding, HTML escapes."""
        if self._data is None:
            return value
        lowered = value.lower()
        if not any(form in lowered for form in self._lowered):
            return value
        return self._data.sub(MASK.encode(), value)

    def _encoded(self) -> list[bytes]:
        forms: dict[bytes, None] = {}
        for secret in self._secrets:
            for form in (
                secret,
                json.dumps(secret)[1:-1],
                json.dumps(secret, ensure_ascii=False)[1:-1],
                quote(secret, safe=""),
                quote_plus(secret),
                html.escape(secret),
            ):
                forms[form.encode()] = None
        return sorted(forms, key=len, reverse=True)

    def network(self, value: bytes) -> bytes:
        """A trace's JSON-lines member with the credentials of every recorded request and
        response masked by name, whatever their value: the ``Cookie``, ``Set-Cookie``,
        ``Authorization`` and ``Proxy-Authorization`` headers and the parsed ``cookies``
        (a session the app refreshed mid-run has values no one knew beforehand)."""
        if b'"headers"' not in value and b'"cookies"' not in value:
            return value
        lines = value.split(b"\n")
        for i, line in enumerate(lines):
            if b'"headers"' not in line and b'"cookies"' not in line:
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if _mask_credentials(event):
                lines[i] = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
        return b"\n".join(lines)

    def archive(self, path: Path) -> bool:
        """Mask secrets in every member of the zip archive ``path`` (a Playwright trace:
        call parameters, call logs, DOM snapshots with form values, network bodies, the
        test's source), and credential headers and cookies by name (:meth:`network`),
        rewriting it in place atomically. Returns whether anything was masked; an archive
        that cannot be read is left as it is."""
        try:
            with zipfile.ZipFile(path) as src:
                members = [(info, src.read(info)) for info in src.infolist()]
        except (zipfile.BadZipFile, OSError, EOFError):
            return False
        cleaned = [
            (info, self.data(self.network(data) if _is_events(info.filename) else data))
            for info, data in members
        ]
        if all(new == old for (_i, new), (_j, old) in zip(cleaned, members, strict=True)):
            return False
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".redact-", suffix=".zip")
        os.close(fd)
        try:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
                for info, data in cleaned:
                    out.writestr(info.filename, data)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return True


# Request and response headers that carry credentials: masked in a trace whatever their value.
CREDENTIAL_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization"})


def _is_events(name: str) -> bool:
    """A trace member made of JSON lines (``trace.trace``, ``trace.network``, ``1-trace.…``)."""
    return name.endswith((".trace", ".network"))


def _mask_credentials(data: object, depth: int = 0) -> bool:
    """Mask, in place, the values of credential headers (``{"name": ..., "value": ...}`` in
    a ``headers`` list) and of every entry of a ``cookies`` list; returns whether any was."""
    if depth > 40:
        return False
    changed = False
    if isinstance(data, dict):
        for key, item in data.items():
            if key in ("headers", "cookies") and isinstance(item, list):
                for entry in item:
                    if not isinstance(entry, dict) or not isinstance(entry.get("value"), str):
                        continue
                    name = str(entry.get("name", "")).lower()
                    if (key == "cookies" or name in CREDENTIAL_HEADERS) and entry["value"] != MASK:
                        entry["value"] = MASK
                        changed = True
            elif isinstance(item, (dict, list)):
                changed = _mask_credentials(item, depth + 1) or changed
    elif isinstance(data, list):
        for item in data:
            changed = _mask_credentials(item, depth + 1) or changed
    return changed


def _texts(plan: Plan) -> Iterable[str]:
    yield plan.requirement.url
    for step in plan.steps:
        if step.value:
            yield step.value
        if step.expected is not None:
            yield str(step.expected)
    yield from plan.requirement.vars.values()


def plan_secrets(
    plan: Plan, env: Mapping[str, str], secret_vars: frozenset[str] = frozenset()
) -> list[str]:
    """Values a plan may reveal: every ``{{env.NAME}}`` it uses, every default that stands
    in for a secret (``{{env.NAME:default}}``, typed when ``NAME`` is unset) and every
    secret var."""
    found: list[str] = []
    names = secret_vars | plan.secret_vars
    for text in _texts(plan):
        try:
            refs = parse_templates(text)
        except TemplateError:
            continue
        for ref in refs:
            if ref.namespace == "env" and ref.name in env:
                found.append(env[ref.name])
        found.extend(secret_defaults(text, names))
    for name, value in plan.requirement.vars.items():
        if is_secret_name(name, names) and "{{" not in value:
            found.append(value)
    return found
