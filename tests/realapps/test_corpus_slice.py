"""A slice of the real-app corpus in the regular suite, so real-app behaviour cannot rot.

Datasette (a third-party app installed from PyPI into the corpus cache, served on
127.0.0.1) in its two corpus versions: a few flows written on the old version run there
with an empty store, then unchanged on the new version with the old run's store, as a team
upgrading its app would. Every acted-on element is checked by identity against the
hand-written ground truth. The whole corpus runs as a benchmark
(``bench/realapps/run_corpus.py``, ``docs/real-apps.md``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Browser

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import load_apps  # noqa: E402
from realapps.run_corpus import run_app  # noqa: E402

FLOWS = ("REQ-DATASETTE-001", "REQ-DATASETTE-002", "REQ-DATASETTE-004", "REQ-DATASETTE-009")


def test_datasette_flows_pass_on_both_versions_and_never_act_on_a_wrong_element(
    module_browser: Browser, tmp_path: Path
) -> None:
    (app,) = load_apps(["datasette"])
    results = run_app(
        app, module_browser, snapshots=False, only=FLOWS, out_root=tmp_path, quiet=True
    )
    old, new = app.versions[0], app.versions[-1]
    assert {r.version for r in results} == set(app.versions)
    for result in results:
        summary = f"{result.req_id} on {result.version}: {result.verdict} {result.failure}"
        assert result.wrong == 0, summary + f" {result.checks}"
        assert result.verdict != "fail", summary
        assert all(c.verdict == "right" for c in result.checks), result.checks
        if result.version == old:
            assert result.healed == 0, summary  # written for this version: nothing to heal
    assert len([r for r in results if r.version == new]) == len(FLOWS)
