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
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import quote, quote_plus

from pytest_pacts.models import Plan
from pytest_pacts.planner.templating import MASK, TemplateError, is_secret_name, parse_templates

# Values this short are not masked: replacing every "1" or "ab" would mangle reports
# and protect nothing (such values are not credentials).
MIN_SECRET_LENGTH = 4


class Redactor:
    """Replaces known secret values with ``***``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = {s for s in secrets if len(s) >= MIN_SECRET_LENGTH}
        # longest first, so a secret containing another is masked whole
        self._secrets = sorted(values, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._secrets)

    def text(self, value: str) -> str:
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value

    def data(self, value: bytes) -> bytes:
        """Bytes with every secret masked, also in the encodings a secret takes on its way
        through a browser trace: JSON string escapes, URL and form encoding, HTML escapes."""
        mask = MASK.encode()
        for secret in self._encoded():
            if secret in value:
                value = value.replace(secret, mask)
        return value

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

    def archive(self, path: Path) -> bool:
        """Mask secrets in every member of the zip archive ``path`` (a Playwright trace:
        call parameters, call logs, DOM snapshots with form values, network bodies),
        rewriting it in place atomically. Returns whether anything was masked; an archive
        that cannot be read is left as it is."""
        if not self:
            return False
        try:
            with zipfile.ZipFile(path) as src:
                members = [(info, src.read(info)) for info in src.infolist()]
        except (zipfile.BadZipFile, OSError, EOFError):
            return False
        cleaned = [(info, self.data(data)) for info, data in members]
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


def _texts(plan: Plan) -> Iterable[str]:
    for step in plan.steps:
        if step.value:
            yield step.value
    yield from plan.requirement.vars.values()


def plan_secrets(
    plan: Plan, env: Mapping[str, str], secret_vars: frozenset[str] = frozenset()
) -> list[str]:
    """Values a plan may reveal: every ``{{env.NAME}}`` it uses and every secret var."""
    found: list[str] = []
    for text in _texts(plan):
        try:
            refs = parse_templates(text)
        except TemplateError:
            continue
        for ref in refs:
            if ref.namespace == "env" and ref.name in env:
                found.append(env[ref.name])
    for name, value in plan.requirement.vars.items():
        if (is_secret_name(name, secret_vars | plan.secret_vars)) and "{{" not in value:
            found.append(value)
    return found
