"""The failure text a person reads first (tavern-style).

The failing row (``file:sheet:row``), the step in words, the locator and its code, the gate
results point by point, the root cause with its recommendation, the candidates and heal
rounds, the screenshot. Never a stack trace of plugin internals; secrets are already ``***``
in every field it reads.
"""

from __future__ import annotations

from pytest_pacts.models.locator import GateSnapshot
from pytest_pacts.models.outcome import RunRecord, StepRecord


def _gate_lines(gate: GateSnapshot) -> list[str]:
    lines = []
    for p in gate.points:
        mark = "ok" if p.ok else ("--" if p.code == "skipped" else "FAIL")
        lines.append(f"      {p.name:<8} {mark:<4} {p.reason}")
    return lines


def _step_block(step: StepRecord, total: int) -> list[str]:
    out = [
        f"  at step {step.index + 1} of {total}: {step.source}",
        f"    step:     {step.description}" + (f"  [block {step.block}]" if step.block else ""),
    ]
    if step.locator is not None:
        out.append(
            f"    locator:  {step.locator.describe()} (confidence {step.locator.confidence:.2f})"
        )
    if step.code:
        out.append(f"    code:     {step.code}")
    image = step.image_match
    if image is not None:
        bx, by, bw, bh = image.box
        out.append(
            f"    picture:  {image.template} {image.verdict}: best {image.score:.3f} at "
            f"({bx}, {by}) {bw}x{bh} px, runner-up {image.runner_up:.3f} (threshold "
            f"{image.threshold:.2f})"
            + (f"; annotated: {image.screenshot}" if image.screenshot else "")
        )
    for note in step.notes:
        out.append(f"    warning:  {note}")
    failure = step.failure
    if failure is not None:
        out.append(f"    failure:  {failure.type.value}: {failure.message}")
    gate = (failure.gate if failure else None) or step.gate
    if gate is not None:
        out.append(f"    gate ({gate.count} match{'es' if gate.count != 1 else ''}):")
        out += _gate_lines(gate)
    # each candidate is listed once: heal rounds often weigh the same elements again
    listed: set[str] = set()
    if failure is not None and failure.candidates:
        out.append("    candidates considered:")
        for c in failure.candidates[:8]:
            strategy = f" via {c.strategy.value}" if c.strategy else ""
            out.append(f"      - {c.description} (score {c.score:.2f}{strategy})")
            listed.add(c.description)
    return out + _heal_lines(step, listed)


def _heal_lines(step: StepRecord, listed: set[str]) -> list[str]:
    """The step's heal rounds, each with the candidates not listed yet (``listed`` grows)."""
    out: list[str] = []
    for h in step.heals:
        verdict = "applied" if h.accepted else "not applied"
        score = f", {h.figures()}" if h.figures() else ""
        runner = (
            f" vs runner-up {h.runner_up_score:.2f}"
            if h.runner_up_score is not None and not h.basis
            else ""
        )
        out.append(
            f"    heal round {h.round} ({h.rung.value}): {verdict}{score}{runner}: {h.reason}"
        )
        for c in h.candidates[:5]:
            if c.description not in listed:
                out.append(f"      - {c.description} (score {c.score:.2f})")
                listed.add(c.description)
    return out


def render_failure(record: RunRecord) -> str:
    """The text for a failed (or partial) run; a one-liner for a pass."""
    total = len(record.steps)
    if record.verdict == "pass":
        healed = f", healed {record.heal_count}x" if record.healed else ""
        warnings = [
            f"  warning at step {s.index + 1}: {note}" for s in record.steps for note in s.notes
        ]
        return "\n".join([f"{record.req_id}: pass ({total} steps{healed})", *warnings])
    head = f"{record.req_id}: {record.verdict.upper()}"
    lines = [head]
    culprits = [s for s in record.steps if s.status in ("failed", "skipped")]
    if not culprits:
        lines.append(f"  the run could not start: {record.rca.message}")
    for step in culprits:
        if step.status == "skipped":
            lines.append("  (skipped: on_fail is skip)")
        lines += _step_block(step, total)
    for step in record.steps:
        if step.status not in ("failed", "skipped"):
            lines += [f"  warning at step {step.index + 1}: {note}" for note in step.notes]
    rca = record.rca
    lines.append(f"  root cause: {rca.rca_class.value} (confidence {rca.confidence:.2f})")
    for e in rca.evidence:
        lines.append(f"    - {e}")
    if rca.recommendation:
        lines.append(f"  what to do: {rca.recommendation}")
    not_run = sum(1 for s in record.steps if s.status == "not_run")
    if not_run:
        lines.append(f"  {not_run} later step(s) did not run")
    shots = [p for k, p in record.artifacts.items() if k.startswith("screenshot")]
    if shots:
        lines.append(f"  screenshot: {shots[-1]}")
    return "\n".join(lines)
