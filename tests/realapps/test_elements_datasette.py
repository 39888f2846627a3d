"""``pacts elements`` on a real app: Datasette's table page (the newest corpus version),
installed and served by the corpus harness (``bench/realapps/harness.py``).

Its ``<navigation-search>`` custom element keeps its results in a ``matches`` property; the
scan used to call ``el.matches(...)`` and failed on the whole page. Every text listed must
be resolved afresh by discovery to the very element it was listed for.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Browser

from pytest_pacts.discovery import discover, to_playwright
from pytest_pacts.discovery.inventory import annotate, grouped, list_elements
from pytest_pacts.models.requirement import Action
from pytest_pacts.planner.steps import parse_target

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import load_apps  # noqa: E402


def test_elements_of_datasettes_table_page(module_browser: Browser, tmp_path: Path) -> None:
    (app,) = load_apps(["datasette"])
    with app.serve(app.versions[-1]) as served:
        page = module_browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            page.goto(served.base_url + "shop/products")
            elements = list_elements(page)
            named = [e for e in elements if e.text is not None]
            # the toolbar, the table's links, the export form: nearly all can be named
            assert len(elements) >= 90 and len(named) >= 0.9 * len(elements)
            texts = {e.text for e in named}
            assert {"Search:", "Apply filters", "CSV", "Export CSV"} <= texts
            assert any(t and t.startswith("Beverages@") for t in texts)  # a row's link
            assert "products" in grouped(elements)  # the page's heading
            # every listed text resolved in one discovery call, as the plugin discovers a
            # page's steps (one scan for all targets; each resolved on its own): 90-odd
            # calls, one scan each, cost about 3.5 s of CPU more and checked the same
            targets = [
                (i, parse_target(e.text), Action(e.action))  # as a sheet's Element cell is read
                for i, e in enumerate(named)
                if e.text is not None
            ]
            results = discover(page, targets)
            assert len(results) == len(named)
            for i, element in enumerate(named):
                result = results[i]
                assert result.locator is not None, (element, result.unresolved)
                box = to_playwright(page, result.locator).bounding_box()
                assert box is not None
                scroll = page.evaluate("[scrollX, scrollY]")
                found = (box["x"] + scroll[0], box["y"] + scroll[1], box["width"], box["height"])
                assert all(abs(a - b) < 1 for a, b in zip(found, element.box, strict=True)), element
            shot = annotate(page, elements, tmp_path / "datasette.png", timeout_ms=10_000)
            assert shot.stat().st_size > 10_000
        finally:
            page.close()
