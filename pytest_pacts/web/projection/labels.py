"""Labels, tones and value checks of the projection: where core values become words.

Every core literal the dashboard depends on (verdicts, statuses, step statuses, the filters'
vocabulary) is named here, once, and turned into a label, a tone or a boolean.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pytest_pacts.governance.render import PROMOTION_REQUIRED_LABEL, track_badge
from pytest_pacts.planner.templating import is_secret_name
from pytest_pacts.store import (
    ProposalRecord,
)
from pytest_pacts.web import dto
from pytest_pacts.web.errors import Invalid

_VERDICT_BADGES: Mapping[str, tuple[str, dto.Tone]] = {
    "pass": ("Pass", "good"),
    "fail": ("Fail", "bad"),
    "partial": ("Partial", "warn"),
}
_STATUS_LABELS: Mapping[str, tuple[str, dto.Tone]] = {
    "running": ("Running", "info"),
    "finished": ("Finished", "muted"),
    "abandoned": ("Abandoned", "muted"),
}
_STEP_BADGES: Mapping[str, tuple[str, dto.Tone]] = {
    "passed": ("Passed", "good"),
    "healed": ("Healed", "info"),
    "failed": ("Failed", "bad"),
    "skipped": ("Skipped", "muted"),
    "not_run": ("Not run", "muted"),
}
_PROPOSAL_BADGES: Mapping[str, tuple[str, dto.Tone]] = {
    "pending": ("Pending", "warn"),
    "accepted": ("Accepted", "good"),
    "rejected": ("Rejected", "muted"),
}
# What the API's filters accept, in the API's words, mapped to the store's values.
_VERDICT_FILTERS = {"pass": "pass", "fail": "fail", "partial": "partial"}
_STATUS_FILTERS = {"running": "running", "finished": "finished", "abandoned": "abandoned"}
_PROPOSAL_FILTERS = {"pending": "pending", "accepted": "accepted", "rejected": "rejected"}

# The engine names its screenshots ``screenshot_step<N>-heal<R>-before|after`` (engine/run.py).
_HEAL_SHOT = re.compile(r"^screenshot_step(\d+)-heal(\d+)-(before|after)$")
_MAX_PAGE = 500


def _words(value: str) -> str:
    text = value.replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


def _badge(table: Mapping[str, tuple[str, dto.Tone]], value: str) -> dto.Badge:
    label, tone = table.get(value, (_words(value), "muted"))
    return dto.Badge(label=label, tone=tone)


def _when(moment: datetime) -> str:
    """A time for people: ``2026-11-23 17:25:53 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="seconds") if moment else None


# Locator fields that say how a locator is matched, not what it finds; left out of the
# one-line form a reviewer reads.
_LOCATOR_NOISE = frozenset(
    {"strategy", "exact", "glyphs", "in_shadow", "confidence", "test_id_attribute", "frame_path"}
)


def _locator_text(locator: object) -> str | None:
    """A stored locator as one short line: ``role='button' name='Login' in 'Login form'``."""
    if not isinstance(locator, dict) or not locator:
        return None
    parts: list[str] = []
    region = None
    for key, value in locator.items():
        if key == "region":
            region = value
        elif key not in _LOCATOR_NOISE and value not in (None, "", [], {}):
            parts.append(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}")
    if isinstance(region, dict) and region.get("description"):
        parts.append(f"in {str(region['description'])!r}")
    return " ".join(parts) or None


def _parse_time(text: str | None, name: str) -> datetime | None:
    if text is None or not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise Invalid(
            f"{name} must be an ISO 8601 date or time, e.g. 2026-03-01 or "
            f"2026-03-01T09:00:00Z; got {text!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _choice(value: str | None, allowed: Mapping[str, str], name: str) -> str | None:
    if value is None or value == "":
        return None
    found = allowed.get(value.strip().lower())
    if found is None:
        raise Invalid(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return found


def store_secrets(target: str) -> list[str]:
    """The password inside a store DSN, if it has one (never shown anywhere)."""
    if "://" not in target:
        return []
    password = urlsplit(target).password
    return [password, unquote(password)] if password else []


# Shell and tool bookkeeping whose names match the secret-name rule ("pwd", "pass") but
# hold a folder or a list of names: masking the working folder would garble every path shown.
_NOT_SECRET_NAMES = frozenset({"PWD", "OLDPWD"})


def environment_secrets(env: Mapping[str, str], names: Iterable[str] = ()) -> list[str]:
    """Values of the environment variables whose names look secret or are listed."""
    listed = frozenset(names)
    return [
        value
        for key, value in env.items()
        if value
        and (key in listed or (key not in _NOT_SECRET_NAMES and not key.endswith("_PASSENV")))
        and is_secret_name(key, listed)
    ]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "unknown error"


def _browser_status() -> str:
    from pytest_pacts.browser import NoBrowserError, choose_browser

    try:
        choice = choose_browser()
    except NoBrowserError:
        return "missing: no Chromium found (playwright install chromium)"
    return f"ready ({choice.source} Chromium)"


def proposal_summary(record: ProposalRecord) -> dto.ProposalSummary:
    payload = record.payload
    gate = payload.get("self_heal_gate")
    track = track_badge(gate if isinstance(gate, dict) else None)  # type: ignore[arg-type]
    score = payload.get("score")
    runner_up = payload.get("runner_up_score")
    rung = payload.get("tool_name")
    major = record.severity == "major"
    return dto.ProposalSummary(
        id=record.id,
        req_id=record.req_id,
        step_number=record.step_index + 1,
        element=record.element_key,
        status_label=_badge(_PROPOSAL_BADGES, record.status).label,
        badge=_badge(_PROPOSAL_BADGES, record.status),
        pending=record.status == "pending",
        severity_label="Major" if major else "Minor",
        major=major,
        track_badge=dto.Badge(label=track, tone="warn" if record.track == "exception" else "info"),
        promotion_required=record.promotion_required,
        promotion_label=PROMOTION_REQUIRED_LABEL if record.promotion_required else None,
        rung_label=_words(rung) if isinstance(rung, str) else None,
        score=float(score) if isinstance(score, int | float) else None,
        runner_up_score=float(runner_up) if isinstance(runner_up, int | float) else None,
        created_at=_iso(record.created_at) or "",
        decided_at=_iso(record.decided_at),
        decided_by=record.decided_by,
        url=f"/proposals/{record.id}",
    )
