"""Image-target benchmark: coarse-to-fine matching against one full-resolution pass.

Run: ``.venv/bin/python bench/bench_vision.py [--repeat N]``. Both search the largest
screenshot an image step searches (``vision.MAX_SHOT_WIDTH`` x ``vision.MAX_SHOT_HEIGHT``,
random noise with one copy of the demo's template), in the same process, interleaved; the
figures are their median wall times and the ratio. Both must find the same place.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from pytest_pacts.engine import vision

TEMPLATE = (
    Path(__file__).resolve().parents[1] / "pytest_pacts/demo_app/static/assets/img/refresh.png"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    template = vision.load_template(TEMPLATE)
    th, tw = template.shape[:2]
    rng = np.random.default_rng(7)
    shot = rng.integers(0, 255, (vision.MAX_SHOT_HEIGHT, vision.MAX_SHOT_WIDTH, 3), np.uint8)
    shot[3900 : 3900 + th, 1800 : 1800 + tw] = template
    ours: list[float] = []
    full: list[float] = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        found = vision.match(shot, template)
        ours.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        scores = cv2.matchTemplate(shot, template, cv2.TM_CCOEFF_NORMED)
        _, _, _, (x, y) = cv2.minMaxLoc(scores)
        full.append((time.perf_counter() - started) * 1000)
        assert (found.box.x, found.box.y) == (x, y) == (1800, 3900), (found, x, y)
    a, b = statistics.median(ours), statistics.median(full)
    print(f"screenshot {vision.MAX_SHOT_WIDTH}x{vision.MAX_SHOT_HEIGHT}, template {tw}x{th}")
    print(f"coarse to fine: median {a:.1f} ms; full resolution: median {b:.1f} ms")
    print(f"ratio: {a / b:.2f}x (target: below 1)")


if __name__ == "__main__":
    main()
