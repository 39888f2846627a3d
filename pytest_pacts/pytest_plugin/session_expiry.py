"""A saved auth session that expires mid-run: recognised, renewed once, else said in words.

A requirement of an auth profile starts from the profile's saved session. When the app ends
that session during the run (a short session lifetime, an administrator signing everyone
out), the next page is the login page or a 401, and the step that meets it fails like a
drifted element ("not found", heal advice). After a requirement of a profile fails, the
profile's ``verify`` check runs in its context (``Sessions.expired``); when it fails, the
profile logs in again, once (``Sessions.renew``: another process of the run may have done it
already), the new session's cookies and localStorage are put into the test's context and
the requirement runs again. If that cannot be done, or the session is gone again, the
requirement fails as ``env_fault``: "session expired" (docs/user-guide.md, "Log in once").
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.pytest_plugin.keys import add_secrets

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

    from pytest_pacts.application import PreparedRun
    from pytest_pacts.models.outcome import RunRecord

__all__ = ["after_failure"]


def after_failure(
    request: pytest.FixtureRequest, page: Page, prepared: PreparedRun, record: RunRecord
) -> RunRecord:
    """``record`` (a failed run of a requirement with an auth profile), or the record of its
    second run after the expired session was renewed, or ``record`` said as a session that
    expired (see the module docstring)."""
    from pytest_pacts.auth import AuthFailed
    from pytest_pacts.auth.session_values import context_secrets
    from pytest_pacts.engine.api import run_requirement
    from pytest_pacts.pytest_plugin.auth_access import sessions

    item = request.node
    plan = prepared.plan
    requirement = plan.requirement
    auth = sessions(request.config)
    profile = requirement.auth or ""
    why = auth.expired(requirement, page)
    if why is None:
        return record  # the session holds: the failure is the requirement's own
    try:
        state = auth.renew(requirement, request.getfixturevalue("browser"), why)
    except AuthFailed as exc:
        return session_expired(record, profile, why, f"logging in again failed: {exc.short}")
    add_secrets(item, context_secrets({"storage_state": state}))
    if not _use_state(page.context, state):
        return session_expired(
            record, profile, why, "the new session could not be put into the page"
        )
    again = run_requirement(plan, page, prepared.runtime)
    if again.verdict != "fail":
        return again
    still = auth.expired(requirement, page)
    if still is None:
        return again
    return session_expired(again, profile, still, "it expired again after logging in once more")


def session_expired(record: RunRecord, profile: str, why: str, then: str) -> RunRecord:
    """``record`` failed because its session expired: ``env_fault``, said so."""
    from pytest_pacts.models.outcome import RcaClass

    said = (
        f"session expired: the saved session of auth profile {profile!r} no longer holds "
        f"({why}); {then}"
    )
    rca = record.rca.model_copy(
        update={
            "rca_class": RcaClass.ENV_FAULT,
            "confidence": 0.9,
            "message": said,
            "evidence": (said, *record.rca.evidence),
            "recommendation": "check the app's session lifetime against the run's length "
            "(the profile's max_age should be shorter), or whether something signs every "
            "session out during the run; the requirement's own steps are not at fault",
        }
    )
    return record.model_copy(update={"rca": rca})


def _use_state(context: BrowserContext, state: str) -> bool:
    """Put the storage state at ``state`` (cookies, localStorage) into ``context``."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        data = json.loads(Path(state).read_text(encoding="utf-8"))
        context.clear_cookies()
        cookies = data.get("cookies") or []
        if cookies:
            context.add_cookies(cookies)
        for origin in data.get("origins") or []:
            items = origin.get("localStorage") or []
            if not items:
                continue
            helper = context.new_page()
            try:
                helper.goto(origin["origin"], wait_until="commit", timeout=10_000)
                helper.evaluate(
                    "(items) => { for (const i of items) localStorage.setItem(i.name, i.value); }",
                    items,
                )
            finally:
                with contextlib.suppress(PlaywrightError):
                    helper.close()
    except (OSError, ValueError, KeyError, TypeError, PlaywrightError):
        return False
    return True
