"""A run's artifacts live in the run's own folder, so an old report keeps working after
the next run: pytest-playwright empties its ``--output`` folder at session start, and the
engine's screenshots used one folder for every run. Real sessions against the demo app
(pytester, subprocess mode); the JUnit ``pacts_recipe_version`` property on the way."""

from __future__ import annotations

import html.parser
import json
import shutil
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = (ROOT / "sample_requirements" / "conftest.py").read_text()
REQS = """
requirements:
  - req_id: REQ-OK
    url: /
    steps:
      - Username@LoginForm | fill | standard_user | field_populated
  - req_id: REQ-WRONG
    url: /
    steps:
      - Username@LoginForm | fill | standard_user | value:someone else
"""


class _Blob(html.parser.HTMLParser):
    blob: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "data-jsonblob":
                self.blob = value


def _links(report: Path, test: str) -> dict[str, str]:
    """``{extra name: link}`` of one test's linked extras (traces, screenshots) in a
    pytest-html report; embedded pictures (``data:``) are left out."""
    parser = _Blob()
    parser.feed(report.read_text())
    assert parser.blob is not None
    tests = json.loads(parser.blob)["tests"]
    runs = next(v for k, v in tests.items() if k.endswith(test))
    return {
        x["name"]: x["content"]
        for run in runs
        for x in run["extras"]
        if x["format_type"] in ("url", "image") and not x["content"].startswith("data:")
    }


def _props(junit: Path) -> dict[str, dict[str, str]]:
    return {
        str(case.get("name")): {
            str(p.get("name")): str(p.get("value")) for p in case.iter("property")
        }
        for case in ET.parse(junit).iter("testcase")
    }


@pytest.fixture(scope="module")
def two_runs(module_pytester: Callable[[], pytest.Pytester]) -> pytest.Pytester:
    """Two sessions of one project in turn (traces, screenshots, HTML and JUnit on), shared
    by the tests below: the second run's artifacts must leave the first's in place, and both
    runs' JUnit files carry the recipe version (a whole session with Chromium costs several
    seconds of CPU; the recipe test ran two more of its own, the same requirements with
    fewer options)."""
    pytester = module_pytester()
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=REQS)
    # REQ-WRONG waits out its step timeout: 3 s instead of the default 10
    pytester.makeini(
        "[pytest]\njunit_family = xunit1\npacts_store = store.db\npacts_report_dir = out\n"
        "pacts_step_timeout = 3\n"
    )
    args = ("-p", "no:cacheprovider", "--tracing=on", "--screenshot=on")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PACTS_DEMO_RELEASE", "v1")
        for n in (1, 2):
            result = pytester.runpytest_subprocess(
                *args, f"--html=r{n}.html", f"--junitxml=j{n}.xml"
            )
            result.assert_outcomes(passed=1, failed=1)
            if n == 1:
                run1 = (pytester.path / "out" / "LATEST").read_text().strip()
                (pytester.path / "run1.txt").write_text(run1)
                # what the first run left, to compare with after the second
                shutil.copytree(pytester.path / "out" / run1, pytester.path / "run1.before")
                shutil.copyfile(pytester.path / "r1.html", pytester.path / "r1.before.html")
    return pytester


def test_old_reports_keep_their_traces_and_screenshots(two_runs: pytest.Pytester) -> None:
    root = two_runs.path
    run1 = root / "out" / (root / "run1.txt").read_text()
    assert (root / "r1.html").read_bytes() == (root / "r1.before.html").read_bytes()
    props1 = _props(root / "j1.xml")
    shot1 = json.loads(Path(props1["REQ-WRONG"]["pacts_record"]).read_text())["artifacts"]
    failed_png = Path(shot1["screenshot_step1-failed"])
    assert failed_png.is_relative_to(run1), "the engine's screenshot is in the run folder"
    trace1 = props1["REQ-WRONG"]["playwright_trace"]
    assert (root / trace1).is_relative_to(run1) and (root / trace1).is_file()
    link = _links(root / "r1.html", "REQ-WRONG")["Trace"]
    assert (root / urllib.parse.unquote(link)).resolve() == (root / trace1).resolve()

    # after the second run
    props2 = _props(root / "j2.xml")
    assert props2["REQ-WRONG"]["playwright_trace"] != trace1
    # the first report's links and pictures still point at files that exist
    assert (root / urllib.parse.unquote(link)).is_file()
    assert failed_png.is_file()
    assert (
        failed_png.read_bytes()
        == (root / "run1.before" / failed_png.relative_to(run1)).read_bytes()
    )
    shot2 = json.loads(Path(props2["REQ-WRONG"]["pacts_record"]).read_text())["artifacts"]
    assert Path(shot2["screenshot_step1-failed"]) != failed_png
    linked = _links(root / "r1.html", "REQ-OK")
    assert {"Trace", "Screenshot"} <= set(linked), linked
    for target in linked.values():
        assert (root / urllib.parse.unquote(target)).resolve().is_relative_to(run1), target
        assert (root / urllib.parse.unquote(target)).is_file(), target


def test_recipe_version_property(two_runs: pytest.Pytester) -> None:
    for n in (1, 2):
        props = _props(two_runs.path / f"j{n}.xml")
        # a first clean pass writes v001 and ran on it; the next run starts from v001
        assert props["REQ-OK"]["pacts_recipe_version"] == "v001", n
        # a failing first run has no recipe to name
        assert props["REQ-WRONG"]["pacts_recipe_version"] == "", n
