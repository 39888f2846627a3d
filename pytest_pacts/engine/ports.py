"""What the engine needs from a store, and nothing more.

The engine records runs and keeps healing memory; heal proposals go through
:data:`ProposalSink`, a function the application layer builds over governance. These
protocols are structural: :class:`pytest_pacts.store.Store` satisfies them without knowing
them, and a test (or another tool) can hand the engine anything shaped the same way. The
engine imports from the store only its plain record types and errors
(``pytest_pacts.store.records``, ``pytest_pacts.store.errors``), never the ``Store``, its
repositories or backends (``tests/test_layering.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from pytest_pacts.governance import HealSite
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.outcome import Verdict
from pytest_pacts.store.records import HealingEvidence, HealingRecord, Run

__all__ = ["HealStore", "HealingMemory", "ProposalSink", "RunLog", "RunStore"]


class RunLog(Protocol):
    """A store's run history (``store.runs``): one run, its steps and files, its verdict."""

    def begin(
        self,
        session_id: str,
        req_id: str,
        *,
        plan_hash: str | None = ...,
        recipe_version: str | None = ...,
    ) -> Run: ...

    def add_step(
        self,
        run_id: int,
        *,
        step_index: int,
        action: str,
        status: str,
        element_key: str | None = ...,
        locator: Mapping[str, object] | None = ...,
        strategy: str | None = ...,
        confidence: float | None = ...,
        gate: Mapping[str, object] | None = ...,
        heal_round: int = ...,
        duration_ms: float | None = ...,
    ) -> object: ...

    def add_artifact(self, run_id: int, kind: str, path: str) -> object: ...

    def finish(
        self,
        run_id: int,
        *,
        verdict: Verdict,
        rca_class: str | None = ...,
        healed: bool = ...,
        heal_count: int = ...,
        llm_calls: int = ...,
    ) -> object: ...


class RunStore(Protocol):
    """A store the engine records runs in."""

    @property
    def runs(self) -> RunLog: ...


class HealingMemory(Protocol):
    """A store's healing memory (``store.healing``): locators that healed an element before,
    recorded only with evidence."""

    def record(
        self,
        element_key: str,
        locator: Mapping[str, object],
        evidence: HealingEvidence | None,
        *,
        req_id: str = ...,
    ) -> object: ...

    def record_failure(
        self, element_key: str, locator: Mapping[str, object], *, req_id: str = ...
    ) -> object: ...

    def suggest(
        self,
        element_key: str,
        threshold: float = ...,
        *,
        req_id: str | None = ...,
        limit: int = ...,
    ) -> Sequence[HealingRecord]: ...


class HealStore(Protocol):
    """A store the healing ladder remembers healed locators in."""

    @property
    def healing(self) -> HealingMemory: ...


ProposalSink = Callable[[HealProposal, HealSite | None], HealProposal]
"""Gate and persist a heal proposal made at ``site``; returns the stored proposal (its
``id`` and ``self_heal_gate`` filled). Built by the application layer over
:func:`pytest_pacts.governance.propose`."""
