"""A run's artifacts live in the run's own folder, so an old report keeps working after
the next run: pytest-playwright empties its ``--output`` folder at session start, and the
engine's screenshots used one folder for every run. Real sessions against the demo app
(pytester, subprocess mode); the JUnit ``pacts_recipe_version`` property on the way."""

from __future__ import annotations

import html.parser
import json
import urllib.parse
import xml.etree.ElementTree as ET
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


def test_old_reports_keep_their_traces_and_screenshots(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pytester.path
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=REQS)
    pytester.makeini(
        "[pytest]\njunit_family = xunit1\npacts_store = store.db\npacts_report_dir = out\n"
        "pacts_step_timeout = 3\n"
    )
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    args = ("-p", "no:cacheprovider", "--tracing=on", "--screenshot=on")
    first = pytester.runpytest_subprocess(*args, "--html=r1.html", "--junitxml=j1.xml")
    first.assert_outcomes(passed=1, failed=1)
    run1 = root / "out" / (root / "out" / "LATEST").read_text().strip()
    props1 = _props(root / "j1.xml")
    shot1 = json.loads(Path(props1["REQ-WRONG"]["pacts_record"]).read_text())["artifacts"]
    failed_png = Path(shot1["screenshot_step1-failed"])
    assert failed_png.is_relative_to(run1), "the engine's screenshot is in the run folder"
    trace1 = props1["REQ-WRONG"]["playwright_trace"]
    assert (root / trace1).is_relative_to(run1) and (root / trace1).is_file()
    link = _links(root / "r1.html", "REQ-WRONG")["Trace"]
    assert (root / urllib.parse.unquote(link)).resolve() == (root / trace1).resolve()
    png1 = failed_png.read_bytes()

    second = pytester.runpytest_subprocess(*args, "--html=r2.html", "--junitxml=j2.xml")
    second.assert_outcomes(passed=1, failed=1)
    props2 = _props(root / "j2.xml")
    assert props2["REQ-WRONG"]["playwright_trace"] != trace1
    # the first report's links and pictures still point at files that exist
    assert (root / urllib.parse.unquote(link)).is_file()
    assert failed_png.is_file() and failed_png.read_bytes() == png1
    shot2 = json.loads(Path(props2["REQ-WRONG"]["pacts_record"]).read_text())["artifacts"]
    assert Path(shot2["screenshot_step1-failed"]) != failed_png
    linked = _links(root / "r1.html", "REQ-OK")
    assert {"Trace", "Screenshot"} <= set(linked), linked
    for target in linked.values():
        assert (root / urllib.parse.unquote(target)).resolve().is_relative_to(run1), target
        assert (root / urllib.parse.unquote(target)).is_file(), target


def test_recipe_version_property(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=REQS)
    # REQ-WRONG waits out its step timeout: 3 s instead of the default 10
    pytester.makeini(
        "[pytest]\njunit_family = xunit1\npacts_store = store.db\npacts_step_timeout = 3\n"
    )
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    for n in (1, 2):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-p", "no:html", f"--junitxml=j{n}.xml", "login.req.yaml"
        )
        result.assert_outcomes(passed=1, failed=1)
        props = _props(pytester.path / f"j{n}.xml")
        # a first clean pass writes v001 and ran on it; the next run starts from v001
        assert props["REQ-OK"]["pacts_recipe_version"] == "v001", n
        # a failing first run has no recipe to name
        assert props["REQ-WRONG"]["pacts_recipe_version"] == "", n
