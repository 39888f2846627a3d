"""Rung 6: candidates from external healers, budgeted per run.

External healers (the ``pytest_pacts_heal_candidates`` hook, see ``hookspec.py``) only *propose*
locators; the ladder applies the same abstain rule and gate as to its own relocations.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_pacts.engine.contracts import ExtensionHealer, HealContext, Resolved, RungResult
from pytest_pacts.engine.healing.abstain import judge
from pytest_pacts.engine.healing.basics import first_line, locator_json
from pytest_pacts.engine.healing.probing import gate_evidence
from pytest_pacts.engine.healing.resolving import resolve
from pytest_pacts.models.locator import Candidate, Locator
from pytest_pacts.models.outcome import HealRung

_TYPE_MISMATCH = ("not_editable", "incompatible")


class ExtensionRung:
    name = HealRung.EXTENSION

    def __init__(self, healers: Sequence[ExtensionHealer] = ()) -> None:
        self.healers = tuple(healers)
        self.calls = 0  # per run: one ladder per requirement run

    def attempt(self, ctx: HealContext) -> RungResult | None:
        budget = ctx.options.extension_budget
        if budget <= 0 or not self.healers:
            return None
        proposals: list[Locator] = []
        notes: list[str] = []
        for healer in self.healers:
            if self.calls >= budget:
                notes.append(f"extension budget of {budget} call(s) per run is spent")
                break
            self.calls += 1
            try:
                proposals.extend(healer(ctx))
            except Exception as exc:  # a plugin's error must not end the run
                notes.append(f"an external healer failed: {first_line(exc)}")
        # one entry per distinct element: the same element proposed twice is not a rival
        seen: dict[str, tuple[Locator, Resolved]] = {}
        for locator in proposals:
            found = resolve(ctx.page, locator, ctx.state.fingerprint)
            if found.count != 1 or found.fingerprint is None:
                notes.append(f"{locator.describe()} resolves to {found.count} elements")
                continue
            key = found.fingerprint.model_dump_json()
            if key not in seen or seen[key][0].confidence < locator.confidence:
                seen[key] = (locator, found)
        ranked = sorted(seen.values(), key=lambda pair: -pair[0].confidence)
        candidates = tuple(
            Candidate(description=f"{loc.describe()} -> {f.description}", score=loc.confidence)
            for loc, f in ranked
        )
        if not ranked:
            reason = "; ".join(notes) or "no external candidates"
            return RungResult(self.name, False, reason)
        (best, found), runner = ranked[0], (ranked[1][0].confidence if len(ranked) > 1 else None)
        ok, why, evidence = gate_evidence(ctx, best)
        enabled = evidence.get("gate_result", {})
        codes = enabled.get("points", {}) if isinstance(enabled, dict) else {}
        fits = not (isinstance(codes, dict) and codes.get("enabled") in _TYPE_MISMATCH)
        verdict = judge(
            best.confidence,
            runner,
            fits=fits,
            rule=ctx.options.evidence,
            action=ctx.state.step.action.value,
        )
        if not verdict.accepted or not ok:
            reason = verdict.reason if not verdict.accepted else f"abstained: {why}"
            return RungResult(
                self.name,
                False,
                reason,
                score=best.confidence,
                runner_up_score=runner,
                candidates=candidates,
                proposed=best,
                proposed_fingerprint=found.fingerprint,
                evidence=evidence,
            )
        evidence["healed_locator"] = locator_json(best)
        return RungResult(
            self.name,
            True,
            f"external candidate {best.describe()}: {verdict.reason}",
            locator=best,
            fingerprint=found.fingerprint,
            score=best.confidence,
            runner_up_score=runner,
            candidates=candidates,
            evidence=evidence,
        )
