"""Reading a picture's pixels back, in a real browser (no imaging library needed)."""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import Page

# the pixel at (x, y) of a PNG; with ``width``, (x, y) are in a ``width``-pixel-wide view
# the picture shows at its own scale (a picture of a 1000 px viewport may be 2000 px wide)
_PIXEL = """async ([data, x, y, width]) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + data;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  const k = width ? img.width / width : 1;
  return [...g.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data].slice(0, 3);
}"""


def pixel(page: Page, png: Path, x: float, y: float, width: float | None = None) -> list[int]:
    """The RGB of ``png`` at (x, y), read by ``page``'s browser."""
    data = base64.b64encode(png.read_bytes()).decode()
    return list(page.evaluate(_PIXEL, [data, x, y, width]))
