"""A highlight drawn into a PNG: a translucent box with a solid border over one element.

A heal's picture is taken before the heal knows which element it will choose (so that it is
taken while the heal runs, ``engine/artifacts.py``); the chosen element is then marked in the
picture here. Only the rows from the top of the image to the one below the box are decoded,
and only the rows of the box and the one below it are written again; the rest of the image
is kept byte for byte. Chromium's fast PNG encoder (``optimizeForSpeed``) filters every row
with "Up": a pixel's bytes are then the sum of its column's filtered bytes down to its row,
so only the box's columns are summed and written back, filtered "Up" again (the drawing runs
on a thread beside the healed step's own calls, and this part holds the interpreter). Other
filters are undone whole rows at a time, byte by byte (slower, still correct), and the
changed rows written unfiltered.

Supported: 8-bit RGB and RGBA, not interlaced (what Chromium writes); anything else raises
:class:`PngError` and the picture is kept as it is.
"""

from __future__ import annotations

import functools
import struct
import zlib

from pytest_pacts.errors import PactsError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
FILL = (232, 89, 12)
ALPHA = 0.45
BORDER = 2  # pixels
MAX_PIXELS = 40_000_000  # a bound on the decoded size (about 120 MB of RGB)


class PngError(PactsError, ValueError):
    """A PNG this module does not read."""


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    if not png.startswith(SIGNATURE):
        raise PngError("not a PNG")
    out: list[tuple[bytes, bytes]] = []
    at = len(SIGNATURE)
    while at + 12 <= len(png):
        (size,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        out.append((kind, png[at + 8 : at + 8 + size]))
        at += 12 + size
        if kind == b"IEND":
            return out
    raise PngError("the PNG ends before its IEND chunk")


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


@functools.lru_cache(maxsize=8)
def _masks(n: int) -> tuple[int, int]:
    """The low seven bits and the top bit of each of ``n`` bytes, as integers."""
    return int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")


def _sum(x: int, y: int, masks: tuple[int, int]) -> int:
    """``x + y`` byte by byte, modulo 256, on bytes held as integers (:func:`_masks`)."""
    low, high = masks
    return ((x & low) + (y & low)) ^ ((x ^ y) & high)


def _add(a: bytes, b: bytes) -> bytes:
    """``a + b`` byte by byte, modulo 256, computed on whole rows as integers."""
    n = len(a)
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return _sum(x, y, _masks(n)).to_bytes(n, "big")


_NEGATE = bytes((256 - v) & 0xFF for v in range(256))  # ``-v`` modulo 256, for translate()


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(kind: int, row: bytes, prior: bytes, bpp: int) -> bytes:
    """One row of raw pixels from its filtered bytes and the row above (raw)."""
    if kind == 0:
        return row
    if kind == 2:
        return _add(row, prior)
    if kind not in (1, 3, 4):
        raise PngError(f"unknown row filter {kind}")
    out = bytearray(row)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + left) & 0xFF
        elif kind == 3:
            out[i] = (out[i] + ((left + prior[i]) >> 1)) & 0xFF
        else:
            corner = prior[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + _paeth(left, prior[i], corner)) & 0xFF
    return bytes(out)


def _paint(seg: bytearray, solid: bool, bpp: int, edge: int) -> None:
    """One row of the box's pixels (``seg``, raw) highlighted: all border colour on its top
    and bottom ``edge`` rows (``solid``), else blended with it and bordered at both ends."""
    span = len(seg) // bpp
    for k, (table, c) in enumerate(zip(_TABLES, FILL, strict=True)):
        if solid:
            seg[k::bpp] = bytes([c]) * span
            continue
        seg[k::bpp] = bytes(seg[k::bpp]).translate(table)
        for col in (*range(edge), *range(span - edge, span)):
            seg[col * bpp + k] = c


_TABLES = [bytes(round(v * (1 - ALPHA) + c * ALPHA) for v in range(256)) for c in FILL]


def _mark_up(
    raw: bytearray, stride: int, bpp: int, box: tuple[int, int, int, int], last: int
) -> None:
    """The box drawn into ``raw`` (filtered rows) whose rows down to ``last`` are all "Up":
    the box's columns summed down the rows, painted, and written back "Up" again (each row
    less the one above it as drawn), the row below the box too; no other byte changes."""
    x0, y0, x1, y1 = box
    a, b = 1 + x0 * bpp, 1 + x1 * bpp
    n, masks = b - a, _masks(b - a)
    edge = min(BORDER, x1 - x0, y1 - y0)
    total = 0  # the box's columns, raw, in the row reached so far
    for r in range(y0):
        total = _sum(total, int.from_bytes(raw[r * stride + a : r * stride + b], "big"), masks)
    above = total.to_bytes(n, "big")  # the row above, as drawn
    for r in range(y0, last + 1):
        at = r * stride
        total = _sum(total, int.from_bytes(raw[at + a : at + b], "big"), masks)
        row = bytearray(total.to_bytes(n, "big"))
        if r < y1:
            _paint(row, r < y0 + edge or r >= y1 - edge, bpp, edge)
        drawn = bytes(row)
        raw[at + a : at + b] = _add(drawn, above.translate(_NEGATE))
        above = drawn


def _mark_rows(
    raw: bytearray, stride: int, bpp: int, box: tuple[int, int, int, int], last: int
) -> None:
    """The box drawn into ``raw`` (filtered rows, any filters): the rows down to ``last``
    unfiltered whole, the box painted, its rows and the one below written unfiltered."""
    x0, y0, x1, y1 = box
    prior = bytes(stride - 1)
    rows: dict[int, bytearray] = {}
    for r in range(last + 1):
        start = r * stride
        prior = _unfilter(raw[start], bytes(raw[start + 1 : start + stride]), prior, bpp)
        if r >= y0:
            rows[r] = bytearray(prior)
    a, b = x0 * bpp, x1 * bpp
    edge = min(BORDER, x1 - x0, y1 - y0)
    for r in range(y0, y1):
        seg = rows[r][a:b]
        _paint(seg, r < y0 + edge or r >= y1 - edge, bpp, edge)
        rows[r][a:b] = seg
    for r in range(y0, last + 1):
        start = r * stride
        raw[start] = 0
        raw[start + 1 : start + stride] = rows[r]


def highlight(png: bytes, box: tuple[float, float, float, float]) -> bytes:
    """``png`` with the box ``(x, y, width, height)`` (image pixels) highlighted: filled with
    :data:`FILL` at :data:`ALPHA` and outlined :data:`BORDER` pixels wide. A box outside the
    image leaves it as it is."""
    chunks = _chunks(png)
    if not chunks or chunks[0][0] != b"IHDR" or len(chunks[0][1]) != 13:
        raise PngError("no IHDR chunk first")
    width, height, depth, color, _comp, _filt, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or color not in (2, 6) or interlace:
        raise PngError(f"unsupported PNG: depth {depth}, colour {color}, interlace {interlace}")
    if width * height > MAX_PIXELS:
        raise PngError(f"image too large: {width}x{height}")
    x, y, w, h = box
    x0, y0 = max(0, round(x)), max(0, round(y))
    x1, y1 = min(width, round(x + w)), min(height, round(y + h))
    if x1 <= x0 or y1 <= y0:
        return png
    bpp = 3 if color == 2 else 4
    stride = width * bpp + 1
    # inflated no further than the image's own size: a PNG cannot make it use more memory
    inflate = zlib.decompressobj()
    idat = b"".join(data for kind, data in chunks if kind == b"IDAT")
    try:
        raw = bytearray(inflate.decompress(idat, stride * height))
    except zlib.error as exc:
        raise PngError(f"the image data does not inflate: {exc}") from exc
    if len(raw) != stride * height or inflate.unconsumed_tail:
        raise PngError("the image data does not match its size")
    last = min(y1, height - 1)  # the row below the box is written again too (it may be "Up")
    if all(raw[r * stride] == 2 for r in range(last + 1)):
        _mark_up(raw, stride, bpp, (x0, y0, x1, y1), last)
    else:
        _mark_rows(raw, stride, bpp, (x0, y0, x1, y1), last)
    head = [_chunk(kind, data) for kind, data in chunks if kind not in (b"IDAT", b"IEND")]
    idat = _chunk(b"IDAT", zlib.compress(raw, 1))
    return SIGNATURE + b"".join(head) + idat + _chunk(b"IEND", b"")
