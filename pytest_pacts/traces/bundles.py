"""Trace bundles after a run: compare with the last passing bundle, keep this one if it
passed, prune the old pictures.

The bundle of a run is built from its step traces (``StepRecord.trace``, recorded by the
engine, ``engine/tracing.py``); its compact JSON (no pixels) goes into the store
(``store.traces``), its pictures stay where the engine wrote them, beside the run's
artifacts. The pictures of a requirement's newest bundle are kept, older ones deleted
(``store.traces.prune``); the pictures a regression points at are copied into the run's own
``regressions/`` folder first, so the run's report keeps its evidence.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationError

from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.models.trace import BundleStep, Regression, StepTrace, TraceBundle
from pytest_pacts.settings import PactsSettings
from pytest_pacts.store import Store, StoreError, TraceBundleRecord
from pytest_pacts.traces.compare import Comparison, Thresholds, compare

TRACE_FOLDER = "trace"  # the engine's pictures, under a run's artifacts folder
EVIDENCE_FOLDER = "regressions"


@dataclass(frozen=True)
class TraceSettings:
    """The ``pacts_trace*`` settings, as the application layer hands them over."""

    enabled: bool = True
    thresholds: Thresholds = field(default_factory=Thresholds)
    # bundles kept per requirement in the store (the newest keeps pictures)
    keep: int = PactsSettings.trace_keep
    max_bytes: int = PactsSettings.trace_max_kb * 1024  # the pictures of one bundle


def _present(trace: StepTrace | None) -> StepTrace | None:
    """The trace, without a picture that never came in (its file is missing)."""
    if trace is None or trace.screenshot is None or Path(trace.screenshot).is_file():
        return trace
    note = trace.note or "no picture: the browser did not answer in time"
    return trace.model_copy(update={"screenshot": None, "note": note})


def bundle_of(record: RunRecord, label: str) -> TraceBundle:
    """The trace bundle of a run: its steps and their traces."""
    traces = {s.index: _present(s.trace) for s in record.steps}
    pictures = {t.screenshot for t in traces.values() if t is not None and t.screenshot}
    size = 0
    for path in pictures:  # a picture shared by two steps (a hard link) counts once
        try:
            size += Path(path).stat().st_size
        except OSError:
            continue
    return TraceBundle(
        req_id=record.req_id,
        label=label,
        plan_hash=record.plan_hash,
        verdict=record.verdict,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        url=record.url,
        steps=tuple(
            BundleStep(
                index=s.index,
                action=s.action,
                description=s.description,
                element_key=s.element_key,
                status=s.status,
                duration_ms=round(s.duration_ms, 1),
                trace=traces[s.index],
            )
            for s in record.steps
        ),
        picture_bytes=size,
    )


def load(found: TraceBundleRecord) -> TraceBundle | None:
    """A stored bundle, or ``None`` when its payload is not one (written by a newer version)."""
    try:
        return TraceBundle.model_validate(found.payload)
    except ValidationError:
        return None


def deployment(url: str | None) -> str:
    """The deployment a run ran against: its start URL's scheme, host and port."""
    if not url:
        return ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.netloc else ""


def baseline_for(
    store: Store, req_id: str, url: str | None, limit: int = PactsSettings.trace_keep
) -> TraceBundle | None:
    """The last passing bundle of ``req_id`` **on the same deployment** as ``url`` (among
    the newest ``limit``): a run compared with another release's last pass flags that
    release's differences (issue 39: switching back to an older release flagged 11
    "regressions" on a passing run). A deployment with no pass of its own yet (a new
    staging host, a test server on a fresh port) is compared with the newest pass of any."""
    want = deployment(url)
    before: int | None = None
    newest: TraceBundle | None = None
    for _ in range(max(limit, 1)):
        found = store.traces.latest(req_id, before=before)
        if found is None:
            break
        bundle = load(found)
        if bundle is not None and deployment(bundle.url) == want:
            return bundle
        newest = newest or bundle
        before = found.id
    return newest


def conclude(
    store: Store,
    record: RunRecord,
    *,
    label: str | None,
    settings: TraceSettings,
    artifacts_dir: str | None,
) -> RunRecord:
    """Compare the run with the last passing bundle of its requirement on the same
    deployment (:func:`baseline_for`; its regressions and
    baseline go into the record), keep its bundle when it passed, prune old pictures. A
    store problem is noted in the record's root-cause evidence, never raised."""
    if not settings.enabled or label is None or not any(s.trace for s in record.steps):
        return record
    current = bundle_of(record, label)
    folder = Path(artifacts_dir) / TRACE_FOLDER if artifacts_dir else None
    update: dict[str, object] = {}
    try:
        baseline = baseline_for(store, record.req_id, record.url, settings.keep)
        if baseline is not None:
            result = compare(baseline, current, settings.thresholds)
            update["regressions"] = keep_evidence(result, artifacts_dir)
            update["baseline"] = baseline.label
        if record.verdict == "pass":
            payload = current.model_dump(mode="json", exclude_none=True)
            store.traces.add(
                record.req_id,
                label,
                record.plan_hash,
                payload,
                folder=str(folder) if folder is not None and folder.is_dir() else None,
                picture_bytes=current.picture_bytes,
            )
            for old in store.traces.prune(record.req_id, keep=settings.keep):
                delete_pictures(old)
        elif folder is not None:
            shutil.rmtree(folder, ignore_errors=True)  # not a bundle: its pictures go
    except StoreError as exc:
        note = f"the trace bundle could not be compared or kept: {exc}"
        update["rca"] = record.rca.model_copy(update={"evidence": (*record.rca.evidence, note)})
    return record.model_copy(update=update) if update else record


def keep_evidence(result: Comparison, artifacts_dir: str | None) -> tuple[Regression, ...]:
    """The regressions, their pictures copied into ``<artifacts_dir>/regressions/`` (the
    baseline's are deleted when a newer bundle replaces it); without a folder, none."""
    out: list[Regression] = []
    target = Path(artifacts_dir) / EVIDENCE_FOLDER if artifacts_dir else None
    for regression in result.regressions:
        update: dict[str, str | None] = {}
        for side in ("before", "after"):
            key = f"screenshot_{side}"
            source = getattr(regression, key)
            update[key] = _copy(source, target, regression.step_index, side) if source else None
        out.append(regression.model_copy(update=update))
    return tuple(out)


def _copy(source: str, target: Path | None, index: int, side: str) -> str | None:
    if target is None:
        return None
    dest = target / f"step{index + 1:02d}-{side}.jpg"
    if dest.is_file():
        return str(dest)
    try:
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, dest)
    except OSError:
        return None
    return str(dest)


def delete_pictures(bundle: TraceBundleRecord) -> None:
    """Delete the step pictures of a pruned bundle: only the files it names inside its own
    folder, then the folder if that left it empty."""
    if bundle.folder is None:
        return
    folder = Path(bundle.folder)
    found = load(bundle)
    names = {
        Path(s.trace.screenshot)
        for s in (found.steps if found is not None else ())
        if s.trace is not None and s.trace.screenshot
    }
    for path in names:
        if path.parent == folder and path.suffix == ".jpg":
            path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # not empty (something else lives there), or gone
        folder.rmdir()
