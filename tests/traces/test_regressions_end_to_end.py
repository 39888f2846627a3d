"""Trace bundles end to end in real Chromium: a flow passes on demo v1 (its bundle is kept),
then passes on v2, and the v2 run flags what changed (the button's text, the card that
moved, a new 404 request) in the terminal summary, the HTML report and ``regressions.md``;
``pacts compare`` says the same from the store; the bundles stay small and the pictures of
the older bundle are pruned."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_pacts.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = (ROOT / "sample_requirements" / "conftest.py").read_text()
CART = """
req_id: REQ-TRACE-CART
url: /
steps:
  - Username@LoginForm | fill | standard_user | field_populated
  - Password@LoginForm | fill | secret_sauce | field_populated
  - Login@LoginForm | click | | navigates_to:Products
  - Add to cart@Sauce Labs Backpack | click | | text_visible:Remove
"""


def _run_dirs(root: Path) -> list[Path]:
    reports = root / ".pacts" / "reports"
    return sorted(p for p in reports.iterdir() if (p / "index.json").is_file())


def _compare(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "compare", *args, "--store",
         str(root / "store.db")],
        capture_output=True, text=True, cwd=root, timeout=60,
    )  # fmt: skip


def test_v2_passes_and_flags_what_changed_since_v1(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    module_browser: Browser,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", cart=CART)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    first = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    first.assert_outcomes(passed=1)
    assert "regressions:" not in first.stdout.str()
    (v1_dir,) = _run_dirs(pytester.path)
    assert "First trace bundle kept" in (v1_dir / "regressions.md").read_text()
    v1_pictures = sorted(v1_dir.rglob("trace/step*.jpg"))
    assert len(v1_pictures) >= 3

    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")
    second = pytester.runpytest_subprocess(
        "-q", "-p", "no:cacheprovider", "--html=report.html", "--self-contained-html"
    )
    second.assert_outcomes(passed=1)  # the flow still passes on v2 ...
    text = second.stdout.str()
    # ... and the terminal summary says what changed since the v1 run
    assert "regressions: " in text and "in 1 requirement(s)" in text, text
    assert 'step 4: text changed: "Add to cart" -> "Add to Cart"' in text, text
    assert "step 4: element moved: its centre moved" in text, text
    assert "new failing request: GET /api/recommendations?for=... answered 404" in text, text
    assert "slower step" not in text  # the healed steps' time is their healing

    v2_dir = next(p for p in _run_dirs(pytester.path) if p != v1_dir)
    markdown = (v2_dir / "regressions.md").read_text()
    assert f"Compared with run `{v1_dir.name}`" in markdown
    assert '"Add to cart" -> "Add to Cart"' in markdown and "GET /api/recommendations" in markdown
    links = [line for line in markdown.splitlines() if "[picture](" in line]
    assert links, markdown
    for link in links:  # the pictures the regressions point at are the run's own copies
        for target in link.split("[picture](")[1:]:
            assert (v2_dir / target.split(")")[0]).is_file(), link

    html = (pytester.path / "report.html").read_text()
    assert "pacts-regressions" in html and "Add to Cart" in html
    assert "data:image/jpeg;base64," in html  # before/now pictures, self-contained
    # as a person sees it: the row opened, the before/now pictures shown, and pytest-html's
    # media viewer shows the heal's picture (it takes the row's first <img>: the before/now
    # pictures were that, and the viewer stayed blank)
    page = module_browser.new_page()
    try:
        page.goto((pytester.path / "report.html").as_uri())
        page.locator("tbody.results-table-row td.col-result").first.click()
        viewer = page.locator(".media-container__viewport img").first
        assert viewer.evaluate("i => i.src.startsWith('data:image/png') && i.naturalWidth > 0")
        shown = page.get_by_role("img", name="step 4 now")
        box = shown.bounding_box()
        assert box is not None and box["height"] > 50
    finally:
        page.close()

    # compact: small JPEGs, bounded per bundle; the v1 bundle's pictures were pruned
    pictures = sorted(v2_dir.rglob("trace/step*.jpg"))
    assert pictures and all(p.stat().st_size < 64_000 for p in pictures)
    assert sum(p.stat().st_size for p in pictures) < 256_000
    assert not any(p.exists() for p in v1_pictures)
    with sqlite3.connect(pytester.path / "store.db") as db:
        rows = db.execute("SELECT label, folder, payload FROM trace_bundles ORDER BY id").fetchall()
    assert [r[0] for r in rows] == [v1_dir.name, v2_dir.name]
    assert rows[0][1] is None and rows[1][1] is not None
    assert all(len(r[2]) < 20_000 for r in rows)  # the compact bundle: no pixels

    # pacts compare, in its own process, says the same from the store
    done = _compare(pytester.path, "previous", "latest")
    assert done.returncode == 1, done.stderr  # something changed
    assert '"Add to cart" -> "Add to Cart"' in done.stdout and "REQ-TRACE-CART" in done.stdout
    # the other comparisons in this process (the command's own interpreter is the above's)
    store = ["--store", str(pytester.path / "store.db")]
    capsys.readouterr()
    args = [v1_dir.name[:-2], "latest", "--format", "json", "--move-px", "100000"]
    main(["compare", *args, *store])
    as_json = json.loads(capsys.readouterr().out)
    kinds = {r["kind"] for q in as_json["requirements"] for r in q["regressions"]}
    assert "text_changed" in kinds and "failing_request" in kinds and "moved" not in kinds
    assert main(["compare", "latest", "latest", *store]) == 0
    assert "No regressions." in capsys.readouterr().out
    assert main(["compare", "nosuchrun", "latest", *store]) == 2
    assert "runs that did:" in capsys.readouterr().err
