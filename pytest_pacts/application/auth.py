"""Auth profiles: the sessions of a process, whose logins are engine runs composed here
(:func:`auth_sessions`), and the record of a requirement whose profile has no session
(:func:`auth_failure_record`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.engine.api import Runtime
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import Rca, RunRecord
from pytest_pacts.settings import (
    PactsSettings,
    base_url_of,
)
from pytest_pacts.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from pytest_pacts.auth import AuthFailed, Sessions
    from pytest_pacts.planner.loader import LoaderOptions
from pytest_pacts.application.options import engine_options, run_settings
from pytest_pacts.application.runs import conclude_run, prepare_run


# long because: its inner login function closes over the run it composes; one use case
def auth_sessions(
    settings: PactsSettings,
    rootpath: Path,
    store: Callable[[], Store] | None,
    *,
    loader: LoaderOptions,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
    run_id: str = "",
    slot: int = 0,
    say: Callable[[str], None] = lambda _text: None,
    vault_dir: Path | None = None,
) -> Sessions:
    """The auth sessions of this process (:class:`~pytest_pacts.auth.Sessions`): the
    profiles of ``pacts_auth_file``, the private folder ``pacts_auth_dir``, and the engine
    run that logs in (healing on, as for any requirement) or checks a saved session (one
    ``wait`` step, no healing, at most 5 s). ``run_id`` is shared by every process of a run
    (a failed login is not retried in it); ``slot`` picks the account (rotation). The store
    is opened only when a login runs; without one (``pacts discover``, which writes nothing)
    the login runs on discovery alone, without healing. ``vault_dir`` replaces the
    configured folder."""
    import dataclasses

    from pytest_pacts.auth import Sessions, Vault, load_profiles
    from pytest_pacts.engine.api import run_requirement

    config = load_profiles(rootpath / settings.auth_file, settings.auth_file)
    base_url = base_url_of(base_url, settings.base_url)
    verify_options = dataclasses.replace(
        engine_options(settings), step_timeout_ms=min(settings.step_timeout, 5.0) * 1000
    )

    def run(plan: Plan, page: Page, verify: bool) -> RunRecord:
        if verify or store is None:
            runtime = Runtime(
                env=dict(os.environ) if env is None else env,
                secret_vars=frozenset(settings.secret_vars),
                base_url=base_url,
                options=verify_options if verify else engine_options(settings),
                record=False,
            )
            return run_requirement(plan, page, runtime)
        prepared = prepare_run(
            store(),
            plan,
            run_settings(settings, base_url=base_url, env=env),
        )
        runtime = dataclasses.replace(prepared.runtime, record=False)
        record = run_requirement(plan, page, runtime)
        return conclude_run(prepared, record)

    return Sessions(
        config=config,
        vault=Vault(vault_dir or rootpath / settings.auth_dir),
        run=run,
        loader=loader,
        base_url=base_url,
        run_id=run_id,
        slot=slot,
        say=say,
    )


def auth_failure_record(plan: Plan, failure: AuthFailed) -> RunRecord:
    """The record of a requirement that could not start: its auth profile has no session.
    Its root cause is the login's (credentials: ``data_issue``; the login page or the
    environment: ``env_fault``), never a step of the requirement's own."""
    now = datetime.now(UTC).isoformat()
    first = failure.text.splitlines()[0]
    return RunRecord(
        req_id=plan.req_id,
        plan_hash=plan.plan_hash,
        verdict="fail",
        rca=Rca.model_validate(
            {
                "class": failure.rca.value,
                "confidence": 0.9,
                "message": first,
                "evidence": (f"auth profile {failure.profile!r}",),
                "recommendation": "fix the login of the profile; the requirement itself "
                "did not run",
            }
        ),
        steps=(),
        started_at=now,
        finished_at=now,
        url=plan.requirement.url,
    )
