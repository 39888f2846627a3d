"""Per-requirement artifacts and the run index.

Layout of one run (``<report dir>/<run id>/``)::

    index.json, index.md                     the run index (written by the controller)
    <node slug>/verdict_<req_id>.json        the verdict, steps, heals and gates
    <node slug>/steps.jsonl                  one line per step
    <node slug>/summary.md                   the human summary

Every process writes only its own requirements' files, each atomically (``os.replace``),
so xdist workers never write the same file; the index is written once, by the controller.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from pytest_pacts.models.outcome import RunRecord, StepRecord
from pytest_pacts.models.text import file_stem
from pytest_pacts.reports.proposals import ProposalView
from pytest_pacts.reports.redact import Redactor

JSON = dict[str, object]
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
RUN_ID_RE = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{6}$")


def slug(text: str) -> str:
    """A file-name-safe form of a node id or requirement id."""
    return _UNSAFE.sub("_", text).strip("._") or "_"


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` atomically (temp file in the same folder, then ``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _step_json(step: StepRecord) -> JSON:
    return {
        "step": step.index + 1,  # the step number people read (1-based, as everywhere)
        "step_idx": step.index,
        "element": step.element_key,
        "action": step.action,
        "description": step.description,
        "source": step.source,
        "value": step.value,
        "selector": step.code,
        "locator": step.locator.model_dump(mode="json", exclude_none=True)
        if step.locator
        else None,
        "strategy": step.strategy,
        "confidence": step.confidence,
        "status": "success" if step.status in ("passed", "healed") else step.status,
        "step_status": step.status,
        "heal_round": len(step.heals),
        "gate": step.gate.model_dump(mode="json", exclude_none=True) if step.gate else None,
        "expectation": step.expectation,
        "expectation_ok": step.expectation_ok,
        "failure": step.failure.model_dump(mode="json", exclude_none=True)
        if step.failure
        else None,
        "duration_ms": round(step.duration_ms, 1),
        "block": step.block,
        "notes": list(step.notes),
        "extracted": dict(step.extracted),
    }


def verdict_document(
    record: RunRecord, proposals: Sequence[ProposalView], *, nodeid: str | None = None
) -> JSON:
    """``verdict_<req_id>.json``: verdict, root cause, steps, heals and self-heal gates."""
    executed = [s for s in record.steps if s.status not in ("skipped", "not_run")]
    return {
        "req_id": record.req_id,
        "nodeid": nodeid,
        "verdict": record.verdict,
        "timestamp": record.finished_at,
        "started_at": record.started_at,
        "plan_hash": record.plan_hash,
        "recipe_version": record.recipe_version,
        "url": record.url,
        "healed": record.healed,
        "heal_count": record.heal_count,
        "summary": {
            "total_steps": len(record.steps),
            "executed_steps": len(executed),
            "failed_steps": sum(1 for s in record.steps if s.status == "failed"),
            "skipped_steps": sum(1 for s in record.steps if s.status == "skipped"),
            "healed_steps": sum(1 for s in record.steps if s.status == "healed"),
            "heal_rounds": record.heal_rounds,
            "llm_calls": record.llm_calls,
            "duration_ms": round(record.duration_ms, 1),
        },
        "rca": record.rca.model_dump(mode="json", by_alias=True),
        "steps": [_step_json(s) for s in record.steps],
        "heals": [
            {
                **p.heal,
                "proposal_id": p.id,
                "step": p.step_index + 1 if p.step_index is not None else None,
                "step_idx": p.step_index,
                "badge": p.badge,
            }
            for p in proposals
        ],
        "self_heal_gates": [p.as_json() for p in proposals],
        "artifacts": dict(record.artifacts),
    }


def _ts(start: str, offset_ms: float) -> str:
    try:
        base = datetime.fromisoformat(start.replace("Z", "+00:00"))
    except ValueError:
        return start
    return (base + timedelta(milliseconds=offset_ms)).isoformat(timespec="milliseconds")


def step_log(record: RunRecord) -> list[JSON]:
    """The JSONL run log: one object per step, in execution order."""
    lines: list[JSON] = []
    elapsed = 0.0
    for step in record.steps:
        elapsed += step.duration_ms
        line: JSON = {
            "ts": _ts(record.started_at, elapsed),
            "req_id": record.req_id,
            "step": step.index + 1,
            "step_index": step.index,
            "op": step.action,
            "target": step.element_key,
            "ok": step.status in ("passed", "healed", "skipped"),
            "status": step.status,
            "durationMs": round(step.duration_ms, 1),
        }
        if step.locator is not None:
            line["strategy"] = step.strategy
            line["confidence"] = step.confidence
        if step.heals:
            line["healRounds"] = len(step.heals)
            line["healedBy"] = [h.rung.value for h in step.heals if h.accepted]
        if step.failure is not None:
            line["failure"] = step.failure.type.value
        lines.append(line)
    return lines


def summary_markdown(record: RunRecord, proposals: Sequence[ProposalView]) -> str:
    """``summary.md`` of one requirement (docs/reports.md)."""
    passed = sum(1 for s in record.steps if s.status in ("passed", "healed"))
    result = {"pass": "Success", "fail": "Failure", "partial": "Partial"}[record.verdict]
    if record.healed:
        result += f" (healed, {record.heal_count} heal{'s' if record.heal_count != 1 else ''})"
    seconds = int(record.duration_ms // 1000)
    lines = [
        f"# Run Summary: {record.req_id}",
        f"- Result: {result}",
        f"- Duration: {seconds // 60:02d}m {seconds % 60:02d}s",
        f"- LLM Calls: {record.llm_calls}",
        f"- Steps: {passed}/{len(record.steps)} passed",
        f"- Root cause: {record.rca.rca_class.value} ({record.rca.confidence:.2f}) - "
        f"{record.rca.message}",
        "",
        "## Key Events",
    ]
    events = []
    for step in record.steps:
        for note in step.notes:
            events.append(f"- Step {step.index + 1} warning: {note}")
        for name, shown in step.extracted.items():  # secret values arrive as ***
            events.append(f"- Step {step.index + 1} stored {{{{vars.{name}}}}} = {shown}")
        if step.status == "failed":
            why = step.failure.message if step.failure else "failed"
            events.append(f"- Step {step.index + 1} failed: {step.description}: {why}")
        for heal in step.heals:
            if heal.accepted:
                old = heal.old_locator.describe() if heal.old_locator else "?"
                new = heal.new_locator.describe() if heal.new_locator else "?"
                events.append(
                    f"- Step {step.index + 1} healed by {heal.rung.value}: {old} -> {new}"
                    + (f" ({heal.figures()})" if heal.figures() else "")
                )
    if record.rca.recommendation:
        events.append(f"- Recommendation: {record.rca.recommendation}")
    lines.extend(events or ["- All steps completed successfully"])
    lines += ["", "## Version", f"- Input recipe: {record.recipe_version or '-'}"]
    if proposals:
        for p in proposals:
            extra = f" · {p.promotion_label}" if p.promotion_required else ""
            number = p.step_index + 1 if p.step_index is not None else "?"
            lines.append(f"- Proposal {p.id}: {p.badge}{extra} (step {number})")
    else:
        lines.append("- No patches proposed")
    return "\n".join(lines) + "\n"


def requirement_dir(run_dir: Path, nodeid: str) -> Path:
    """The folder of one test's artifacts: distinct for distinct node ids (``file_stem``)."""
    return run_dir / file_stem(nodeid)


def write_requirement_artifacts(
    run_dir: Path,
    nodeid: str,
    record: RunRecord,
    proposals: Sequence[ProposalView],
    redactor: Redactor | None = None,
) -> dict[str, Path]:
    """Write the three files of one requirement; returns ``{"record", "log", "summary"}``."""
    redact = redactor or Redactor()
    folder = requirement_dir(run_dir, nodeid)
    doc = verdict_document(record, proposals, nodeid=nodeid)
    verdict = folder / f"verdict_{slug(record.req_id)}.json"
    write_text(verdict, redact.text(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n")
    log_text = "".join(
        json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
        for line in step_log(record)
    )
    log = write_text(folder / "steps.jsonl", redact.text(log_text))
    summary = write_text(folder / "summary.md", redact.text(summary_markdown(record, proposals)))
    return {"record": verdict, "log": log, "summary": summary}


def copy_tree(source: Path, target: Path) -> list[tuple[Path, Path]]:
    """Copy every file under ``source`` to the same place under ``target``; returns the
    ``(original, copy)`` pairs. A hard link where the file system allows one (traces and
    videos take no second copy of disk space, and the link outlives the original's
    deletion), else a real copy."""
    copied: list[tuple[Path, Path]] = []
    for path in sorted(source.rglob("*")):
        if path.is_file() and not path.is_symlink():
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.unlink(missing_ok=True)
            try:
                os.link(path, dest)
            except OSError:  # another file system, or links not supported
                shutil.copy2(path, dest)
            copied.append((path, dest))
    return copied


def write_index(run_dir: Path, index: Mapping[str, object], markdown: str) -> tuple[Path, Path]:
    """``index.json`` and ``index.md`` of the run (controller only)."""
    data = json.dumps(index, indent=2, ensure_ascii=False) + "\n"
    return write_text(run_dir / "index.json", data), write_text(run_dir / "index.md", markdown)


def prune_runs(report_root: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` run folders; returns what was removed.

    Only folders named like a run id (``20261122T031750Z-5563f8``) that hold an
    ``index.json`` are candidates, so a misconfigured report dir never loses other files.
    """
    runs = sorted(
        p for p in report_root.iterdir()
        if p.is_dir() and RUN_ID_RE.match(p.name) and (p / "index.json").is_file()
    )  # fmt: skip
    removed = runs[: max(len(runs) - keep, 0)]
    for path in removed:
        shutil.rmtree(path, ignore_errors=True)
    return removed
