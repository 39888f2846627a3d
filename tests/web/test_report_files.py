"""Which report folder a stored run's files come from (``web/report_files.py``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from pytest_pacts.web.report_files import ReportIndex


def _run(folder: Path, run_id: str, started: str) -> None:
    run = folder / run_id
    run.mkdir(parents=True)
    record = run / "verdict_REQ-1.json"
    record.write_text(json.dumps({"req_id": "REQ-1", "plan_hash": "h", "started_at": started}))
    log = str(run / "log.txt")
    index = {"requirements": [{"req_id": "REQ-1", "record": str(record), "log": log}]}
    (run / "index.json").write_text(json.dumps(index))


def test_two_runs_started_less_than_the_window_apart_each_get_their_own_files(
    tmp_path: Path,
) -> None:
    """Two runs of one requirement 0.6 s apart (a fast machine: the dashboard tests' clean
    and healing runs) are both within the 2 s a stored run and its report may differ by;
    each stored run takes the report whose start is nearest its own, not the newest."""
    _run(tmp_path, "20261129T182819Z-aaaaaa", "2026-11-29T18:28:19.100Z")
    _run(tmp_path, "20261129T182819Z-bbbbbb", "2026-11-29T18:28:19.700Z")
    index = ReportIndex(tmp_path)
    for started, run_id in (
        (datetime(2026, 11, 29, 18, 28, 19, 105_000, tzinfo=UTC), "aaaaaa"),
        (datetime(2026, 11, 29, 18, 28, 19, 702_000, tzinfo=UTC), "bbbbbb"),
    ):
        files = index.files_of("REQ-1", "h", started)
        assert [f.path.parent.name[-6:] for f in files] == [run_id, run_id]
    assert index.files_of("REQ-1", "h", datetime(2026, 11, 29, 18, 28, 30, tzinfo=UTC)) == []
