"""What a run takes from the session's settings: the engine's options
(:func:`engine_options`), the trace thresholds (:func:`trace_settings`), a run's settings
(:class:`RunSettings`, :func:`run_settings`) and where the store is (:func:`store_target`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.engine.contracts import EngineOptions, ExtensionHealer
from pytest_pacts.engine.healing import HumanRung
from pytest_pacts.engine.observing import ActionObserver
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.settings import (
    AcceptHeals,
    PactsSettings,
    base_url_of,
)
from pytest_pacts.store import default_store_path
from pytest_pacts.traces import Thresholds, TraceSettings

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class RunSettings:
    """What a run takes from its caller's settings (plain values, read once by the caller)."""

    options: EngineOptions = field(default_factory=EngineOptions)
    base_url: str | None = None
    env: Mapping[str, str] | None = None  # None: the process environment
    secret_vars: frozenset[str] = frozenset()
    session_id: str = "default"
    discovery_ttl_seconds: int = PactsSettings.discovery_ttl
    navigate: bool = True
    extensions: Sequence[ExtensionHealer] = ()
    human: HumanRung | None = None
    observer: ActionObserver | None = None
    # proposals persisted as recipe versions at the end
    accept_heals: AcceptHeals = PactsSettings.accept_heals
    generate_dir: Path | None = None  # a passing run's plain pytest-playwright test goes here
    # the run's name in the trace bundles (the id of its report folder); None: no bundles
    run_label: str | None = None
    trace: TraceSettings = field(default_factory=TraceSettings)


def engine_options(settings: PactsSettings, artifacts_dir: str | None = None) -> EngineOptions:
    """What the engine takes of the session's settings; screenshots go to ``artifacts_dir``
    (``None``: none are taken)."""
    return EngineOptions(
        step_timeout_ms=settings.step_timeout * 1000,
        max_heal_rounds=settings.max_heal_rounds,
        evidence=EvidenceRule(settings.heal_threshold, settings.heal_margin),
        strict_heal=settings.strict_heal,
        interactive=settings.interactive,
        extension_budget=settings.extension_budget,
        dialogs=settings.dialogs,
        max_response_bytes=int((settings.max_response_kb or PactsSettings.max_response_kb) * 1024),
        artifacts_dir=artifacts_dir,
        trace=settings.trace == "on",
        trace_max_bytes=settings.trace_max_kb * 1024,
    )


def trace_settings(settings: PactsSettings) -> TraceSettings:
    """The ``pacts_trace*`` settings: when a difference from the last passing run is a
    regression, how many bundles the store keeps."""
    return TraceSettings(
        enabled=settings.trace == "on",
        thresholds=Thresholds(
            slower=settings.trace_slower,
            slow_floor_ms=settings.trace_slow_floor_ms,
            move_px=settings.trace_move_px,
        ),
        keep=settings.trace_keep,
        max_bytes=settings.trace_max_kb * 1024,
    )


def run_settings(
    settings: PactsSettings,
    *,
    artifacts_dir: str | None = None,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
    navigate: bool = True,
    extensions: Sequence[ExtensionHealer] = (),
    human: HumanRung | None = None,
    generate_dir: Path | None = None,
    run_label: str | None = None,
) -> RunSettings:
    """A run's settings from the session's: ``base_url`` wins over the configured one (a
    project's ``base_url`` fixture); ``generate_dir`` is where :func:`finish_run` writes the
    plain test of a passing run (``None``: it writes none); ``run_label`` names the run in
    the trace bundles (``None``: the run keeps none and is compared with none)."""
    options = engine_options(settings, artifacts_dir)
    if run_label is None:  # nothing would keep or compare the steps' traces
        options = replace(options, trace=False)
    return RunSettings(
        options=options,
        base_url=base_url_of(base_url, settings.base_url),
        env=env,
        secret_vars=frozenset(settings.secret_vars),
        session_id=settings.session_id,
        discovery_ttl_seconds=settings.discovery_ttl,
        navigate=navigate,
        extensions=extensions,
        human=human,
        accept_heals=settings.accept_heals,
        generate_dir=generate_dir,
        run_label=run_label,
        trace=trace_settings(settings),
    )


def store_target(
    settings: PactsSettings, rootpath: Path, environ: Mapping[str, str] | None = None
) -> str:
    """Where the store is: ``pacts_store``, else ``PACTS_STORE``, else ``.pacts/pacts.db``
    in the rootdir."""
    environ = os.environ if environ is None else environ
    configured = settings.store or environ.get("PACTS_STORE")
    return configured or str(default_store_path(rootpath))
