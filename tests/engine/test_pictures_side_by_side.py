"""A heal's picture and the trace's step pictures are taken in the background, on their own
CDP sessions. Chromium gave a full-view picture taken beside a scaled step picture at that
picture's scale (a 1280-pixel view as 640 x 360, its highlight drawn as if at full size: the
demo's REQ-WIDGETS-001 heal pictures); never two at once, and the highlight is placed by the
picture's own size."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from pytest_pacts.engine import artifacts
from pytest_pacts.engine.pngmark import FILL
from pytest_pacts.engine.tracing import Tracer
from pytest_pacts.models.locator import BoundingBox
from tests.pixels import pixel

from .helpers import Site

PAGE = """<body style="margin: 0; background: white">
<div style="position: absolute; left: 300px; top: 200px; width: 200px; height: 100px;
  background: rgb(0, 128, 0)"></div></body>"""


def test_a_heal_picture_taken_beside_a_step_picture_keeps_the_view_and_its_highlight(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    tab.goto(site.add("side.html", PAGE))
    width = tab.evaluate("innerWidth")
    tracer = Tracer(tab, str(tmp_path / "trace"))
    tracer.start()
    shots = artifacts.Shots(tab, str(tmp_path), "REQ-1")
    box = BoundingBox(x=300, y=200, width=200, height=100)
    try:
        paths = []
        for index in range(6):
            early = shots.early()  # the heal's picture is asked for, then a step's at once
            tracer.step_done(index, None, 0)
            paths.append(shots.keep(early, f"heal{index}", box=box))
            tab.evaluate("1")
        assert shots.finish() == set()
    finally:
        tracer.stop()
    tab.set_content("<p>pixels</p>")
    for path in paths:
        assert path and Path(path).is_file()
        drawn = int.from_bytes(Path(path).read_bytes()[16:20], "big")
        assert drawn == width, (path, drawn)  # the whole view, at its own scale
        outline = pixel(tab, Path(path), 300, 250, width=width)
        assert all(abs(a - b) <= 3 for a, b in zip(outline, FILL, strict=True)), (path, outline)
