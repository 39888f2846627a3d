"""Finding the report files pytest-pacts wrote for a stored run.

The store records a run's screenshots; the verdict JSON, the step log, the summary and the
generated test are written by the report hooks into ``<project>/.pacts/reports/<run id>/``
and listed in that folder's ``index.json`` (``docs/reports.md``). A stored run and a
requirement of an index are the same run when they have the same requirement, the same
plan hash, and start within :data:`SAME_START` of each other (the store's row is written
a few milliseconds after the engine's clock starts); of several such (two runs of one
requirement started less than that apart), the one whose start is nearest. Parsed files
are cached by modification time, so a page view reads each index once.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pytest_pacts.web.security import within

REPORTS_DIR = Path(".pacts") / "reports"
SAME_START = timedelta(seconds=2)
MAX_JSON_BYTES = 20 * 1024 * 1024

# index entry key -> what the dashboard calls the file
FILE_KINDS = {
    "record": "Verdict JSON",
    "log": "Step log",
    "summary": "Summary",
    "generated": "Generated test",
}


@dataclass(frozen=True)
class ReportFile:
    kind_label: str
    path: Path


def _load(path: Path) -> object:
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _when(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


class ReportIndex:
    """The report files of stored runs, read from the run indexes in ``folder`` (the
    project's resolved report folder); a file an index names outside it is ignored."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._lock = threading.Lock()
        self._cache: dict[Path, tuple[float, object]] = {}

    def _cached(self, path: Path) -> object:
        try:
            mtime = path.stat().st_mtime
        except OSError:
            return None
        with self._lock:
            hit = self._cache.get(path)
            if hit is not None and hit[0] == mtime:
                return hit[1]
        data = _load(path)
        with self._lock:
            self._cache[path] = (mtime, data)
        return data

    def files_of(
        self, req_id: str, plan_hash: str | None, started_at: datetime
    ) -> list[ReportFile]:
        """The report files of the run of ``req_id`` that started at ``started_at``."""
        if not self._folder.is_dir():
            return []
        earliest = (started_at - SAME_START).timestamp()
        best: tuple[timedelta, list[ReportFile]] | None = None
        for index_path in sorted(self._folder.glob("*/index.json"), reverse=True):
            try:
                if index_path.stat().st_mtime < earliest:
                    continue  # written before the run started
            except OSError:
                continue
            index = self._cached(index_path)
            entries = index.get("requirements") if isinstance(index, dict) else None
            for entry in entries if isinstance(entries, list) else []:
                if not isinstance(entry, dict) or entry.get("req_id") != req_id:
                    continue
                record = entry.get("record")
                if not isinstance(record, str):
                    continue
                record_path = within(self._folder, Path(record))
                if record_path is None:
                    continue
                verdict = self._cached(record_path)
                if not isinstance(verdict, dict):
                    continue
                start = _when(verdict.get("started_at"))
                if start is None or abs(start - started_at) > SAME_START:
                    continue
                if plan_hash is not None and verdict.get("plan_hash") not in (None, plan_hash):
                    continue
                apart = abs(start - started_at)
                if best is None or apart < best[0]:
                    files = [
                        ReportFile(label, Path(value))
                        for key, label in FILE_KINDS.items()
                        if isinstance(value := entry.get(key), str) and value
                    ]
                    best = (apart, files)
        return best[1] if best is not None else []
