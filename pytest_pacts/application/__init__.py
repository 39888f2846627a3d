"""The application layer: one place that builds a requirement run's services.

A run needs the store (:func:`store_target`), the store's cached POM under the reviewed
recipe, a callback that persists fresh discoveries, the healing ladder with its recipe
source, and the engine options (:func:`run_settings`, from the session's
:class:`~pytest_pacts.settings.PactsSettings`); after it, the store learns what passed,
``--pacts-accept-heals`` applies and ``--pacts-generate`` writes the plain test
(:func:`finish_run`). The pytest item, the ``pacts`` fixture, the corpus benchmark and the
CLI all build it here, so a run behaves the same whoever starts it. Nothing here imports
pytest.

One module per use case:

- ``options``: what a run takes from the session's settings (:func:`run_settings`,
  :func:`engine_options`, :func:`trace_settings`, :func:`store_target`);
- ``runs``: a run's services before and after it (:func:`prepare_run`,
  :func:`conclude_run`, :func:`finish_run`, :func:`store_proposals`);
- ``review``: ``--pacts-accept-heals`` (:func:`accept_heals`);
- ``codegen``: ``--pacts-generate`` (:func:`generate_test`);
- ``auth``: the auth profiles' sessions and logins (:func:`auth_sessions`,
  :func:`auth_failure_record`);
- ``find_first``: discovery before the runs (:func:`discover_plans`, :func:`discover_once`);
- ``compare``: ``pacts compare`` (:func:`compare_runs`);
- ``walks``: ``pacts discover --walk`` and ``pacts elements --after`` (:func:`walk_run`).
"""

from __future__ import annotations

from pytest_pacts.application.auth import auth_failure_record, auth_sessions
from pytest_pacts.application.codegen import generate_test
from pytest_pacts.application.compare import compare_runs
from pytest_pacts.application.find_first import (
    POLL_SECONDS,
    SharedDiscovery,
    discover_once,
    discover_plans,
)
from pytest_pacts.application.options import (
    RunSettings,
    engine_options,
    run_settings,
    store_target,
    trace_settings,
)
from pytest_pacts.application.review import accept_heals
from pytest_pacts.application.runs import (
    PreparedRun,
    RunConclusion,
    conclude_run,
    finish_run,
    prepare_run,
    store_proposals,
)
from pytest_pacts.application.walks import walk_run
from pytest_pacts.engine.healing import HumanRung
from pytest_pacts.traces import RunComparison, UnknownRun

__all__ = [
    "POLL_SECONDS",
    "HumanRung",
    "PreparedRun",
    "RunComparison",
    "RunConclusion",
    "RunSettings",
    "SharedDiscovery",
    "UnknownRun",
    "accept_heals",
    "auth_failure_record",
    "auth_sessions",
    "compare_runs",
    "conclude_run",
    "discover_once",
    "discover_plans",
    "engine_options",
    "finish_run",
    "generate_test",
    "prepare_run",
    "run_settings",
    "store_proposals",
    "store_target",
    "trace_settings",
    "walk_run",
]
