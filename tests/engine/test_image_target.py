"""Image targets (``image:<png> | click``): the picture is found on a screenshot of the page
and clicked at its centre; a weak or an ambiguous match is refused like any other match; the
screenshot is capped so time and memory stay bounded."""

from __future__ import annotations

import base64
import dataclasses
import time
from pathlib import Path

import cv2
import numpy as np
from playwright.sync_api import Page

from pytest_pacts.engine import imagestep, tracing, vision
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.tracing import Tracer

from .helpers import FAST, Site, plan, run

TEMPLATE = Path(__file__).parents[2] / "pytest_pacts/demo_app/static/assets/img/refresh.png"
_CLICK = (
    "<p id='status' role='status'></p><script>document.querySelectorAll('img').forEach("
    "(img, i) => img.addEventListener('click', () => {"
    " document.getElementById('status').textContent = 'Clicked ' + (i + 1); }));</script>"
)


def _img(data: bytes) -> str:
    return f"<img src='data:image/png;base64,{base64.b64encode(data).decode()}'>"


def test_match_accepts_one_clear_copy_and_refuses_two_or_none() -> None:
    template = vision.load_template(TEMPLATE)
    rng = np.random.default_rng(7)
    screen = rng.integers(0, 255, (300, 500, 3), dtype=np.uint8)
    screen[100:140, 200:240] = template
    found = vision.match(screen, template)
    assert found.verdict == "ok" and found.box == vision.Box(200, 100, 40, 40)
    assert found.score > 0.99 and found.runner_up < 0.5
    screen[20:60, 400:440] = template  # a second identical copy
    twice = vision.match(screen, template)
    assert twice.verdict == "ambiguous" and twice.runner_up > 0.99
    none = vision.match(rng.integers(0, 255, (300, 500, 3), dtype=np.uint8), template)
    assert none.verdict == "weak" and none.score < vision.THRESHOLD
    # the largest screenshot searched (the cap) is matched coarse to fine, to the same place
    # a full-resolution pass finds (its speed against that pass: bench/bench_vision.py)
    big = rng.integers(0, 255, (vision.MAX_SHOT_HEIGHT, vision.MAX_SHOT_WIDTH, 3), np.uint8)
    big[3900:3940, 1800:1840] = template
    far = vision.match(big, template)
    assert far.verdict == "ok" and far.box == vision.Box(1800, 3900, 40, 40)


def test_an_image_target_is_clicked_and_refused_when_weak_or_ambiguous(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    picture = TEMPLATE.read_bytes()
    image = cv2.imread(str(TEMPLATE))
    assert image is not None
    other = cv2.imencode(".png", 255 - image)[1].tobytes()  # inverted
    target = f"image:{TEMPLATE}"
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path))

    # one copy, below the fold: scrolled to and clicked at its centre
    url = site.add(
        "one.html",
        f"<h1>Chart</h1><div style='height:1500px'></div>{_img(other)} {_img(picture)}{_CLICK}",
    )
    record = run(tab, plan(url, ("click", target, "", "text_visible:Clicked 2")), options=options)
    assert record.verdict == "pass", render_failure(record)
    match = record.steps[0].image_match
    assert match is not None and match.verdict == "ok" and match.score > 0.99
    assert match.box[1] > 1500 and match.box[2:] == (40, 40) and match.hit == "img"
    assert match.screenshot is not None and Path(match.screenshot).stat().st_size > 0
    assert match.screenshot in record.artifacts.values()  # the reports show it

    # two identical copies: ambiguous, refused, nothing clicked
    url = site.add("two.html", f"<h1>Chart</h1>{_img(picture)} {_img(picture)}{_CLICK}")
    record = run(tab, plan(url, ("click", target)), options=options)
    step = record.steps[0]
    assert step.failure is not None and step.failure.type.value == "image_not_matched"
    assert "ambiguous" in step.failure.message and "more than once" in step.failure.message
    assert step.image_match is not None and step.image_match.verdict == "ambiguous"
    assert step.image_match.screenshot is not None
    assert tab.text_content("#status") == ""
    assert "re-capture the template" in record.rca.recommendation

    # weak (only a different picture) on a huge page: refused, the screenshot capped and the
    # search bounded in time
    url = site.add(
        "weak.html",
        f"<div style='width:6000px;height:20000px'>{_img(other)}</div>{_CLICK}",
    )
    started = time.monotonic()
    record = run(tab, plan(url, ("click", target)), options=options)
    elapsed = time.monotonic() - started
    step = record.steps[0]
    assert step.failure is not None and step.failure.type.value == "image_not_matched"
    assert "not on the page" in step.failure.message
    shot = f"searched a {vision.MAX_SHOT_WIDTH}x{vision.MAX_SHOT_HEIGHT} px screenshot"
    assert any(shot in e for e in step.failure.evidence), step.failure.evidence
    # the step timeout (3 s) plus one capped shot and search: never the whole 6000x20000 page
    assert elapsed < FAST.step_timeout_ms / 1000 + 12, elapsed
    assert tab.text_content("#status") == ""


# taller than the viewport, different all the way down: a full-page screenshot that
# repeats the viewport down the page shows
TALL = "".join(
    f"<div style='height:150px;background:hsl({i * 23}, 70%, 60%)'>Band {i}</div>"
    for i in range(16)
)


def test_a_step_picture_being_taken_does_not_spoil_the_image_search(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    """The trace's step pictures are taken in the background; Chromium's full-page capture
    taken while one is under way came back as the viewport repeated down the page (an image
    target then "not on the page"). The search's screenshot waits for them first."""
    tab.goto(site.add("tall.html", TALL))
    reference = imagestep._shot(tab, 5_000)
    tracer = Tracer(tab, str(tmp_path))
    tracer.start()
    try:
        for index in range(5):
            tracer.step_done(index, None, 0)  # its picture is being taken meanwhile
            shot = imagestep._shot(tab, 5_000)
            assert shot.shape == reference.shape
            difference = float(np.abs(shot.astype(int) - reference.astype(int)).mean())
            assert difference < 1.0, (index, difference)
        # the registry keeps only the pictures still being taken, however many steps ran
        for index in range(5, 40):
            tracer.step_done(index, None, 0)
            tab.evaluate("1")  # the loop runs: earlier pictures finish meanwhile
        # how many are still being taken at the end of the loop depends on the machine's load
        # (12 of 35 once on a loaded CI run): what must hold is that the finished ones leave.
        # They leave when the next picture is listed, so wait until fewer than 10 are still
        # being taken (the registry itself cannot shrink meanwhile), then take one more.
        waited = 0
        while len(tracing.pictures_in_flight(tab)) >= 10 and waited < 100:
            tab.wait_for_timeout(100)
            waited += 1
        assert len(tracing.pictures_in_flight(tab)) < 10
        tracer.step_done(40, None, 0)
        assert len(tracing._in_flight.get(tab._impl_obj, [])) <= 10
    finally:
        tracer.stop()


def _png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` px in its IHDR chunk (bytes 16 to 24), with a
    few bytes of pixels: what a 109 KB file claiming 30000 x 30000 px looks like."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def test_a_hostile_template_file_fails_its_step_in_words_before_it_is_decoded(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    """An image target's PNG is outside input: its header is read before it is decoded. A
    0-byte or 40000 x 40000 px file raised a raw OpenCV traceback out of the run (its row left
    ``running``); a 30000 x 30000 px one decoded into gigabytes. The PNG format puts the
    size in the IHDR chunk, right after the signature (PNG specification, section 11.2.2)."""
    url = site.add("pic.html", f"<h1>Chart</h1>{_img(TEMPLATE.read_bytes())}{_CLICK}")
    valid = TEMPLATE.read_bytes()
    cases = {
        "empty.png": (b"", "is an empty file (0 bytes)"),
        "huge.png": (_png_header(40_000, 40_000), "is 40000x40000 px; a template is 8 to 600"),
        "big.png": (_png_header(30_000, 30_000), "is 30000x30000 px; a template is 8 to 600"),
        "truncated.png": (valid[:20], "is a truncated PNG (20 bytes, no complete header)"),
        "text.png": (b"<html>not a picture</html>", "is not a PNG"),
        "damaged.png": (valid[:33] + b"\0" * 40, "is a damaged PNG"),
    }
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    for name, (data, said) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        record = run(tab, plan(url, ("click", f"image:{path}")))
        step = record.steps[0]
        assert step.failure is not None and step.failure.type.value == "image_not_matched", name
        assert said in step.failure.message, (name, step.failure.message)
        assert step.failure.cause == "configuration"
    # never decoded: 30000 x 30000 px is 2.7 GB of pixels
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
    assert grown < 400 * 1024, f"the peak memory grew by {grown} KiB"
    assert tab.text_content("#status") == ""
