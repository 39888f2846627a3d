"""Runs, steps, artifacts, trends and health as DTOs."""

from __future__ import annotations

import mimetypes
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from pytest_pacts import __version__
from pytest_pacts.store import (
    Run,
    RunStep,
    StoreBusy,
    StoreError,
)
from pytest_pacts.web import dto
from pytest_pacts.web.errors import Invalid, NotFound
from pytest_pacts.web.projection.base import ProjectionBase
from pytest_pacts.web.projection.labels import (
    _HEAL_SHOT,
    _MAX_PAGE,
    _STATUS_FILTERS,
    _STATUS_LABELS,
    _STEP_BADGES,
    _VERDICT_BADGES,
    _VERDICT_FILTERS,
    _badge,
    _browser_status,
    _choice,
    _first_line,
    _iso,
    _locator_text,
    _parse_time,
    _sha256,
    _when,
    _words,
    proposal_summary,
)
from pytest_pacts.web.security import within

#: The longest ``GET /api/health`` waits for the store.
HEALTH_TIMEOUT_S = 1.0


class RunViews(ProjectionBase):
    """Read models of runs: the runs list, one run, its steps and files, trends, health."""

    def health(self) -> dto.Health:
        services: dict[str, str] = {}
        status: Literal["healthy", "busy", "degraded"] = "healthy"
        try:
            # a plain read bounded to 1 s: never behind another process's write lock
            self._store.probe_version(timeout_s=HEALTH_TIMEOUT_S)
            services["store"] = f"connected ({self._store.backend_name})"
        except StoreBusy as exc:
            status = "busy"
            services["store"] = f"busy: {_first_line(str(exc))}"
        except (StoreError, OSError) as exc:
            status = "degraded"
            services["store"] = f"unreachable: {_first_line(str(exc))}"
        services["browser"] = _browser_status()
        return self._masked(dto.Health(status=status, version=__version__, services=services))

    @staticmethod
    def verdict_options() -> list[dto.Option]:
        """The runs list's verdict filter, as the API spells it, with labels."""
        return [dto.Option(value=v, label=_VERDICT_BADGES[v][0]) for v in _VERDICT_FILTERS]

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
            # a screenshot deleted since shows as missing, one outside the reports is not shown
            if match and within(self.reports_folder, path) is not None:
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
            proposal_summary(p)
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
            note: str | None = "gone"
            found = within(self.reports_folder, path)
            if found is not None:
                size = found.stat().st_size
                digest = _sha256(found)
                note = None
            elif path.is_file() or path.is_symlink():
                note = "outside the report folder: not served"
            views.append(
                dto.ArtifactView(
                    name=self._shown(path),
                    kind_label=label,
                    size_bytes=size,
                    sha256=digest,
                    media_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
                    url=self._url(run.id, folders, path) if size is not None else None,
                    note=note,
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

    def session_runs(self, session: str, since: datetime) -> list[dto.RunSummary]:
        """Runs of ``session`` started at or after ``since``, oldest first (the live view)."""
        found, _ = self._store.runs.page(session_id=session, since=since, limit=_MAX_PAGE)
        return [self._masked(self._summary(r)) for r in reversed(found)]
