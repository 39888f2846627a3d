"""The projection layer: store rows in, web DTOs out, and the dashboard's decisions.

The only module of :mod:`pytest_pacts.web` that reads the store, the governance code and
their types. Everything it returns is a :mod:`pytest_pacts.web.dto` object of plain values
with display labels and tones already chosen, so the routes, pages and scripts never see a
core type or compare a core value; renaming a verdict or a step status changes this module
and nothing else (``tests/test_layering.py`` holds the web layer to that).

Every DTO passes through :meth:`Projection._masked` on its way out: the values of secret
environment variables (names that look secret, or listed with ``--secret-var``), the
write token and the store's password are replaced with ``***`` wherever they appear, also
inside JSON escapes.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote, unquote, urlsplit

from pydantic import BaseModel, ValidationError

from pytest_pacts import __version__
from pytest_pacts.governance import proposal_from_record, render_copy_text, review
from pytest_pacts.governance.render import PROMOTION_REQUIRED_LABEL, track_badge
from pytest_pacts.governance.review import DECISION_REASON_EVENT
from pytest_pacts.planner.templating import is_secret_name
from pytest_pacts.reports.redact import Redactor
from pytest_pacts.store import (
    InvalidTransition,
    ProposalRecord,
    RecordNotFound,
    Run,
    RunStep,
    Store,
    StoreError,
    open_store,
)
from pytest_pacts.web import dto
from pytest_pacts.web.errors import Conflict, Invalid, NotFound, Unavailable
from pytest_pacts.web.report_files import ReportIndex

D = TypeVar("D", bound=BaseModel)

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
    {"strategy", "exact", "in_shadow", "confidence", "test_id_attribute", "frame_path"}
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


class Projection:
    """Read models and decisions over one open store.

    ``root`` is the project folder: artifact paths the store holds relative to it are
    resolved there. ``secrets`` are masked in every DTO (see the module docstring).
    """

    def __init__(
        self, store: Store, *, root: Path, secrets: Iterable[str] = (), owns: bool = False
    ) -> None:
        self._store = store
        self._root = root.resolve()
        self._redactor = Redactor(secrets)
        self._owns = owns
        self._reports = ReportIndex(self._root)

    def close(self) -> None:
        """Close the store if this projection opened it."""
        if self._owns:
            self._store.close()

    # -- plumbing ------------------------------------------------------------------------
    def _masked(self, value: D) -> D:
        if not self._redactor:
            return value
        raw = value.model_dump_json().encode("utf-8")
        clean = self._redactor.data(raw)
        return value if clean == raw else type(value).model_validate_json(clean)

    def mask(self, text: str) -> str:
        """``text`` with every known secret value replaced by ``***``."""
        return self._redactor.text(text)

    def _get_run(self, run_id: int) -> Run:
        try:
            return self._store.runs.get(run_id)
        except RecordNotFound:
            raise NotFound(f"no run #{run_id} in the store; GET /api/runs lists them") from None

    def _get_proposal(self, proposal_id: int) -> ProposalRecord:
        try:
            return self._store.proposals.get(proposal_id)
        except RecordNotFound:
            raise NotFound(
                f"no heal proposal #{proposal_id} in the store; GET /api/proposals lists them"
            ) from None

    @contextmanager
    def translated(self) -> Iterator[None]:
        """Store failures become :class:`Unavailable` (503), so callers need no store types."""
        try:
            yield
        except StoreError as exc:
            raise Unavailable(
                f"the store ({self._store.location}) cannot be read: {_first_line(str(exc))}"
            ) from None

    @property
    def location(self) -> str:
        """Where the store lives, password redacted."""
        return self._store.location

    # -- health --------------------------------------------------------------------------
    def health(self) -> dto.Health:
        services: dict[str, str] = {}
        healthy = True
        try:
            self._store.schema_version()
            services["store"] = f"connected ({self._store.backend_name})"
        except (StoreError, OSError) as exc:
            healthy = False
            services["store"] = f"unreachable: {_first_line(str(exc))}"
        services["browser"] = _browser_status()
        return self._masked(
            dto.Health(
                status="healthy" if healthy else "degraded", version=__version__, services=services
            )
        )

    # -- runs ----------------------------------------------------------------------------
    @staticmethod
    def verdict_options() -> list[dto.Option]:
        """The runs list's verdict filter, as the API spells it, with labels."""
        return [dto.Option(value=v, label=_VERDICT_BADGES[v][0]) for v in _VERDICT_FILTERS]

    @staticmethod
    def proposal_status_options() -> list[dto.Option]:
        """The proposals list's status filter."""
        options = [dto.Option(value=v, label=_PROPOSAL_BADGES[v][0]) for v in _PROPOSAL_FILTERS]
        return [*options, dto.Option(value="all", label="All")]

    def _summary(self, run: Run) -> dto.RunSummary:
        in_flight = run.status == "running"
        if in_flight or run.verdict is None:
            label, tone = _STATUS_LABELS.get(run.status, (_words(run.status), "muted"))
            badge = dto.Badge(label=label, tone=tone)
            verdict_label = "-"
        else:
            badge = _badge(_VERDICT_BADGES, run.verdict)
            verdict_label = badge.label
            if run.healed:
                # a healed pass is told apart from a clean one; other verdicts keep their tone
                healed_tone: dto.Tone = "info" if badge.tone == "good" else badge.tone
                badge = dto.Badge(label=f"{badge.label} · healed", tone=healed_tone)
        duration = (
            (run.finished_at - run.started_at).total_seconds() * 1000 if run.finished_at else None
        )
        return dto.RunSummary(
            id=run.id,
            req_id=run.req_id,
            session=run.session_id,
            status_label=_STATUS_LABELS.get(run.status, (_words(run.status), "muted"))[0],
            verdict_label=verdict_label,
            badge=badge,
            in_flight=in_flight,
            rca_label=_words(run.rca_class) if run.rca_class else None,
            healed=run.healed,
            heal_count=run.heal_count,
            started_at=_iso(run.started_at) or "",
            started_label=_when(run.started_at),
            finished_at=_iso(run.finished_at),
            duration_ms=round(duration, 1) if duration is not None else None,
            recipe_version=run.recipe_version,
            url=f"/runs/{run.id}",
        )

    def runs(
        self,
        *,
        req_id: str | None = None,
        session: str | None = None,
        status: str | None = None,
        verdict: str | None = None,
        since: str | None = None,
        until: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> dto.RunPage:
        """One page of runs, latest first (``GET /api/runs``)."""
        if not 1 <= limit <= _MAX_PAGE:
            raise Invalid(f"limit must be between 1 and {_MAX_PAGE}; got {limit}")
        if offset < 0:
            raise Invalid(f"offset must be 0 or more; got {offset}")
        found, total = self._store.runs.page(
            req_id=req_id or None,
            session_id=session or None,
            status=_choice(status, _STATUS_FILTERS, "status"),  # type: ignore[arg-type]
            verdict=_choice(verdict, _VERDICT_FILTERS, "verdict"),  # type: ignore[arg-type]
            since=_parse_time(since, "since"),
            until=_parse_time(until, "until"),
            limit=limit,
            offset=offset,
        )
        following = offset + len(found)
        return self._masked(
            dto.RunPage(
                runs=[self._summary(r) for r in found],
                total=total,
                limit=limit,
                offset=offset,
                next_offset=following if following < total else None,
            )
        )

    def requirement_runs(
        self, req_id: str, *, limit: int = 50, offset: int = 0
    ) -> dto.RequirementRuns:
        page = self.runs(req_id=req_id, limit=limit, offset=offset)
        if page.total == 0:
            raise NotFound(f"no run of requirement {req_id!r} in the store")
        return self._masked(dto.RequirementRuns(req_id=req_id, runs=page.runs, total=page.total))

    def _step(self, step: RunStep) -> dto.StepView:
        gate: list[dto.GatePointView] = []
        points = step.gate.get("points") if isinstance(step.gate, dict) else None
        for point in points if isinstance(points, list) else []:
            if isinstance(point, dict):
                name = point.get("name")
                gate.append(
                    dto.GatePointView(
                        label=_words(str(name)) if name is not None else "?",
                        ok=bool(point.get("ok")),
                        reason=str(point.get("reason") or ""),
                    )
                )
        return dto.StepView(
            number=step.step_index + 1,
            action_label=_words(step.action),
            element=step.element_key,
            status_label=_badge(_STEP_BADGES, step.status).label,
            badge=_badge(_STEP_BADGES, step.status),
            strategy_label=_words(step.strategy) if step.strategy else None,
            confidence=step.confidence,
            locator=_locator_text(step.locator),
            gate=gate,
            heal_round=step.heal_round,
            duration_ms=round(step.duration_ms, 1) if step.duration_ms is not None else None,
        )

    def steps(self, run_id: int) -> dto.StepList:
        run = self._get_run(run_id)
        steps = [self._step(s) for s in self._store.runs.steps(run_id)]
        return self._masked(dto.StepList(run_id=run.id, req_id=run.req_id, steps=steps))

    def run(self, run_id: int) -> dto.RunDetail:
        """A run's page: summary, steps with gate points, heal cards, its proposals."""
        run = self._get_run(run_id)
        steps = self._store.runs.steps(run_id)
        files = self._files(run)
        folders = self._folders(files)
        heals: dict[tuple[int, int], dict[str, str]] = {}
        for kind, _label, path in files:
            match = _HEAL_SHOT.match(kind)
            if match and path.is_file():  # a screenshot deleted since shows as missing
                key = (int(match[1]), int(match[2]))
                heals.setdefault(key, {})[match[3]] = self._url(run.id, folders, path)
        elements = {s.step_index + 1: s.element_key for s in steps}
        for s in steps:
            for r in range(1, s.heal_round + 1):
                heals.setdefault((s.step_index + 1, r), {})
        cards = [
            dto.HealCard(
                step_number=number,
                heal_round=rnd,
                element=elements.get(number),
                before_url=urls.get("before"),
                after_url=urls.get("after"),
            )
            for (number, rnd), urls in sorted(heals.items())
        ]
        end = run.finished_at or datetime.now(UTC)
        proposals = [
            self._proposal_summary(p)
            for p in self._store.proposals.query(req_id=run.req_id, since=run.started_at)
            if p.created_at <= end + timedelta(seconds=1)
        ]
        metrics = {m.name: m.value for m in self._store.runs.metrics(run_id)}
        return self._masked(
            dto.RunDetail(
                run=self._summary(run),
                plan_hash=run.plan_hash,
                rca_class_label=_words(run.rca_class) if run.rca_class else None,
                steps=[self._step(s) for s in steps],
                heals=cards,
                proposals=proposals,
                metrics=metrics,
            )
        )

    # -- artifacts -----------------------------------------------------------------------
    def _absolute(self, path: str) -> Path:
        p = Path(path)
        return p if p.is_absolute() else self._root / p

    def _files(self, run: Run) -> list[tuple[str, str, Path]]:
        """(kind, label, path) of every file of the run: what the store recorded
        (screenshots) and the report files written for it (verdict JSON, step log, summary,
        generated test)."""
        files: list[tuple[str, str, Path]] = []
        for artifact in self._store.runs.artifacts(run.id):
            kind = artifact.kind
            label = _words(kind.removeprefix("screenshot_"))
            if kind.startswith("screenshot_"):
                label += " (screenshot)"
            files.append((kind, label, self._absolute(artifact.path)))
        for found in self._reports.files_of(run.req_id, run.plan_hash, run.started_at):
            files.append(("report", found.kind_label, self._absolute(str(found.path))))
        return files

    @staticmethod
    def _folders(files: list[tuple[str, str, Path]]) -> list[Path]:
        """The run's artifact folders: each folder that directly holds one of its files.
        Files are served only from these, by position (``/api/artifacts/{run}/{k}/...``)."""
        return sorted({path.parent for _, _, path in files})

    @staticmethod
    def _url(run_id: int, folders: list[Path], path: Path) -> str:
        k = folders.index(path.parent)
        return f"/api/artifacts/{run_id}/{k}/{quote(path.name)}"

    def _shown(self, path: Path) -> str:
        return (
            path.relative_to(self._root).as_posix()
            if path.is_relative_to(self._root)
            else str(path)
        )

    def artifacts(self, run_id: int) -> dto.ArtifactList:
        """The run's files with size and SHA-256 of each one still on disk."""
        run = self._get_run(run_id)
        files = self._files(run)
        folders = self._folders(files)
        views: list[dto.ArtifactView] = []
        for _kind, label, path in files:
            size: int | None = None
            digest: str | None = None
            if path.is_file():
                size = path.stat().st_size
                digest = _sha256(path)
            views.append(
                dto.ArtifactView(
                    name=self._shown(path),
                    kind_label=label,
                    size_bytes=size,
                    sha256=digest,
                    media_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
                    url=self._url(run.id, folders, path) if size is not None else None,
                )
            )
        return self._masked(
            dto.ArtifactList(
                run_id=run.id, folders=[self._shown(f) for f in folders], artifacts=views
            )
        )

    def artifact_folder(self, run_id: int, position: int) -> Path:
        """The folder ``position`` of the run, whose files ``GET /api/artifacts/{run}/
        {position}/{name}`` may serve."""
        folders = self._folders(self._files(self._get_run(run_id)))
        if not 0 <= position < len(folders):
            raise NotFound(f"run #{run_id} has no artifact folder {position}")
        return folders[position]

    # -- proposals -----------------------------------------------------------------------
    def _proposal_summary(self, record: ProposalRecord) -> dto.ProposalSummary:
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
            track_badge=dto.Badge(
                label=track, tone="warn" if record.track == "exception" else "info"
            ),
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

    def proposals(self, status: str | None = None, req_id: str | None = None) -> dto.ProposalList:
        chosen = _choice(status, _PROPOSAL_FILTERS, "status") if status != "all" else None
        records = self._store.proposals.query(status=chosen, req_id=req_id or None)  # type: ignore[arg-type]
        records.reverse()  # latest first
        return self._masked(
            dto.ProposalList(
                proposals=[self._proposal_summary(r) for r in records],
                counts=self._store.proposals.count_by_status(),
            )
        )

    def proposal(self, proposal_id: int) -> dto.ProposalDetail:
        record = self._get_proposal(proposal_id)
        try:
            model = proposal_from_record(record)
        except ValidationError as exc:
            raise Conflict(
                f"heal proposal #{proposal_id} in the store is not a valid proposal "
                f"({exc.error_count()} problem(s))",
                code="INVALID_PROPOSAL",
            ) from None
        latest = self._store.recipes.latest(record.req_id)
        stale = False
        if record.status == "pending" and model.base_version not in (
            None,
            latest.version if latest else None,
        ):
            try:
                review.prepare(self._store, record)
            except review.ReviewError as exc:
                stale = exc.problem == "stale"
        written = None
        if record.status == "accepted":
            written = next(
                (
                    v.version
                    for v in self._store.recipes.versions(record.req_id)
                    if v.proposal_id == record.id
                ),
                None,
            )
        reason = None
        if record.status == "rejected":
            events = self._store.audit.events(
                event_type=DECISION_REASON_EVENT, req_id=record.req_id
            )
            reasons = [
                e.payload.get("reason") for e in events if e.payload.get("proposal_id") == record.id
            ]
            last = reasons[-1] if reasons else None
            reason = last if isinstance(last, str) else None
        gate = model.self_heal_gate
        return self._masked(
            dto.ProposalDetail(
                summary=self._proposal_summary(record),
                occurrences=[
                    dto.OccurrenceView(
                        req_id=o.req_id,
                        step_number=o.step_index + 1,
                        deployment=o.deployment or None,
                        page_url=o.url or None,
                        failed_locator=_locator_text(o.failed_locator),
                        score=o.score,
                        seen_at=_when(o.created_at),
                    )
                    for o in self._store.proposals.occurrences(record.id)
                ],
                failed_locator=_locator_text(model.failed_locator),
                healed_locator=_locator_text(model.healed_locator),
                patch=[f"{op.op} {op.path}" for op in model.patch_ops],
                suggested_diff=model.suggested_diff,
                self_heal_gate=dict(gate) if gate is not None else None,
                copy_text=render_copy_text(model),
                latest_recipe_version=latest.version if latest else None,
                stale=stale,
                recipe_version_written=written,
                decision_reason=reason,
            )
        )

    def accept(self, proposal_id: int, *, by: str, go: bool) -> dto.Decision:
        """Accept through the governance code of ``pacts heals accept``; a major proposal
        needs ``go`` (the reviewer's GO), else :class:`Conflict` ``NEEDS_GO``."""
        record = self._get_proposal(proposal_id)
        try:
            proposal, _recipe, _rebased = review.prepare(self._store, record)
            if review.is_major(record, proposal) and not go:
                raise Conflict(
                    f"heal proposal #{record.id} is major (it changes "
                    f"{', '.join(op.path for op in proposal.patch_ops)}) and needs an explicit "
                    'GO: send {"confirm": "GO"} to accept it, or reject it',
                    code="NEEDS_GO",
                )
            done = review.accept(self._store, record.id, by=by, approved_major=True)
        except review.ReviewError as exc:
            raise Conflict(str(exc), code=exc.problem.upper()) from None
        except InvalidTransition as exc:
            raise Conflict(str(exc), code="NOT_PENDING") from None
        rebased = " (rebased onto the latest version)" if done.rebased else ""
        return self._masked(
            dto.Decision(
                proposal_id=done.proposal_id,
                outcome_label="Accepted",
                message=f"accepted heal proposal #{done.proposal_id} "
                f"({'major' if done.major else 'minor'}) by {by}: recipe {done.req_id} "
                f"{done.from_version} -> {done.to_version}{rebased}",
                recipe_version=done.to_version,
            )
        )

    def reject(self, proposal_id: int, *, by: str, reason: str | None) -> dto.Decision:
        """Reject through the governance code of ``pacts heals reject``."""
        record = self._get_proposal(proposal_id)
        try:
            review.reject(self._store, record.id, by=by, reason=reason)
        except review.ReviewError as exc:
            raise Conflict(str(exc), code=exc.problem.upper()) from None
        except InvalidTransition as exc:
            raise Conflict(str(exc), code="NOT_PENDING") from None
        because = f": {reason}" if reason else ""
        return self._masked(
            dto.Decision(
                proposal_id=record.id,
                outcome_label="Rejected",
                message=f"rejected heal proposal #{record.id} ({record.req_id}) by {by}{because}",
            )
        )

    # -- trends --------------------------------------------------------------------------
    def trends(self, days: int = 14, *, now: datetime | None = None) -> dto.Trends:
        """Per day: passed, healed, failed runs; heal rate per requirement; the elements
        healed most often (proposals made), over the last ``days`` days."""
        if not 1 <= days <= 366:
            raise Invalid(f"days must be between 1 and 366; got {days}")
        end = now or datetime.now(UTC)
        first = (end - timedelta(days=days - 1)).date()
        since = datetime(first.year, first.month, first.day, tzinfo=UTC)
        runs = [r for r in self._store.runs.query(since=since) if r.verdict is not None]
        per_day: dict[str, Counter[str]] = {
            (first + timedelta(days=i)).isoformat(): Counter() for i in range(days)
        }
        per_req: dict[str, Counter[str]] = {}
        for run in runs:
            key = (
                "healed"
                if run.healed and run.verdict == "pass"
                else ("passed" if run.verdict == "pass" else "failed")
            )
            day = run.started_at.astimezone(UTC).date().isoformat()
            if day in per_day:
                per_day[day][key] += 1
            req = per_req.setdefault(run.req_id, Counter())
            req["runs"] += 1
            req["healed"] += 1 if run.healed else 0
        elements = self._store.runs.healed_elements(since=since, limit=10)
        return self._masked(
            dto.Trends(
                days=[
                    dto.DayCounts(day=d, passed=c["passed"], healed=c["healed"], failed=c["failed"])
                    for d, c in per_day.items()
                ],
                heal_rates=sorted(
                    (
                        dto.HealRate(
                            req_id=req,
                            runs=c["runs"],
                            healed=c["healed"],
                            rate=round(c["healed"] / c["runs"], 3),
                        )
                        for req, c in per_req.items()
                    ),
                    key=lambda h: (-h.rate, h.req_id),
                )[:20],
                elements=[dto.ElementHeals(element=e, heals=n) for e, n in elements],
                window_days=days,
            )
        )

    # -- runs a launch produced ------------------------------------------------------------
    def session_runs(self, session: str, since: datetime) -> list[dto.RunSummary]:
        """Runs of ``session`` started at or after ``since``, oldest first (the live view)."""
        found, _ = self._store.runs.page(session_id=session, since=since, limit=_MAX_PAGE)
        return [self._masked(self._summary(r)) for r in reversed(found)]


def open_projection(target: str, *, root: Path, secrets: Iterable[str] = ()) -> Projection:
    """A projection over the store at ``target`` (file path or DSN), which it owns; the
    store's password is masked too. Raises :class:`Unavailable` when it cannot be opened."""
    try:
        store = open_store(target)
    except (StoreError, OSError, ValueError) as exc:
        raise Unavailable(f"cannot open the store: {_first_line(str(exc))}") from None
    return Projection(store, root=root, secrets=[*secrets, *store_secrets(target)], owns=True)


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


__all__ = ["Projection", "environment_secrets", "open_projection", "store_secrets"]
