"""The highlight drawn into a heal's picture (engine/pngmark.py), checked against a plain
reference decoder written here byte by byte."""

from __future__ import annotations

import struct
import zlib

import pytest

from pytest_pacts.engine import pngmark
from pytest_pacts.engine.pngmark import ALPHA, BORDER, FILL, PngError, highlight

W, H = 23, 17


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def _predict(kind: int, left: int, up: int, corner: int) -> int:
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) >> 1
    if kind == 4:
        p = left + up - corner
        pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
        return left if pa <= pb and pa <= pc else up if pb <= pc else corner
    return 0


def encode(pixels: list[bytes], bpp: int, filters: list[int], text: bytes = b"") -> bytes:
    """A PNG of ``pixels`` (one bytes object per row), row ``r`` filtered ``filters[r]``."""
    prior = bytes(len(pixels[0]))
    out = bytearray()
    for row, kind in zip(pixels, filters, strict=True):
        out.append(kind)
        for i, value in enumerate(row):
            left = row[i - bpp] if i >= bpp else 0
            corner = prior[i - bpp] if i >= bpp else 0
            out.append((value - _predict(kind, left, prior[i], corner)) & 0xFF)
        prior = row
    color = 2 if bpp == 3 else 6
    ihdr = struct.pack(">IIBBBBB", len(pixels[0]) // bpp, len(pixels), 8, color, 0, 0, 0)
    extra = _chunk(b"tEXt", text) if text else b""
    data = zlib.compress(bytes(out))
    half = len(data) // 2  # two IDAT chunks, as large images have
    return (
        pngmark.SIGNATURE + _chunk(b"IHDR", ihdr) + extra + _chunk(b"IDAT", data[:half])
        + _chunk(b"IDAT", data[half:]) + _chunk(b"IEND", b"")
    )  # fmt: skip


def decode(png: bytes) -> tuple[list[bytes], list[tuple[bytes, bytes]]]:
    """Rows of raw pixels and the chunks, the slow and obvious way."""
    chunks = []
    at = 8
    while at < len(png):
        (size,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + size]
        (crc,) = struct.unpack(">I", png[at + 8 + size : at + 12 + size])
        assert crc == zlib.crc32(kind + data), kind
        chunks.append((kind, data))
        at += 12 + size
    width, height, _d, color = struct.unpack(">IIBB", chunks[0][1][:10])
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
    stride = width * bpp + 1
    rows: list[bytes] = []
    prior = bytes(width * bpp)
    for r in range(height):
        kind, line = raw[r * stride], raw[r * stride + 1 : (r + 1) * stride]
        row = bytearray(len(line))
        for i, value in enumerate(line):
            left = row[i - bpp] if i >= bpp else 0
            corner = prior[i - bpp] if i >= bpp else 0
            row[i] = (value + _predict(kind, left, prior[i], corner)) & 0xFF
        rows.append(bytes(row))
        prior = bytes(row)
    return rows, chunks


def picture(bpp: int) -> list[bytes]:
    return [
        bytes(((x * 37 + y * 11 + c * 89) % 256) for x in range(W) for c in range(bpp))
        for y in range(H)
    ]


def expected(pixels: list[bytes], bpp: int, box: tuple[int, int, int, int]) -> list[bytes]:
    x0, y0, x1, y1 = box
    out = [bytearray(row) for row in pixels]
    for y in range(y0, y1):
        for x in range(x0, x1):
            edge = x < x0 + BORDER or x >= x1 - BORDER or y < y0 + BORDER or y >= y1 - BORDER
            for c in range(3):
                v = out[y][x * bpp + c]
                out[y][x * bpp + c] = FILL[c] if edge else round(v * (1 - ALPHA) + FILL[c] * ALPHA)
    return [bytes(row) for row in out]


@pytest.mark.parametrize("bpp", [3, 4])
@pytest.mark.parametrize("kind", [0, 1, 2, 3, 4, "mixed"])
def test_the_box_is_drawn_and_every_other_pixel_is_kept(bpp: int, kind: int | str) -> None:
    pixels = picture(bpp)
    filters = [r % 5 for r in range(H)] if kind == "mixed" else [int(kind)] * H
    png = encode(pixels, bpp, filters, text=b"Comment\x00kept")
    out = highlight(png, (4.4, 3.6, 9.2, 7.0))  # rounded to x 4..14, y 4..11
    rows, chunks = decode(out)
    assert rows == expected(pixels, bpp, (4, 4, 14, 11))
    assert (b"tEXt", b"Comment\x00kept") in chunks  # the other chunks are kept


def test_a_box_over_the_edge_is_cut_to_the_picture() -> None:
    pixels = picture(3)
    png = encode(pixels, 3, [2] * H)
    rows, _ = decode(highlight(png, (-5, 10, 12, 40)))
    assert rows == expected(pixels, 3, (0, 10, 7, H))


def test_a_box_outside_the_picture_leaves_it_as_it_was() -> None:
    png = encode(picture(3), 3, [2] * H)
    assert highlight(png, (W + 5, 2, 10, 10)) == png
    assert highlight(png, (3, 3, 0, 5)) == png


@pytest.mark.parametrize(
    "header, why",
    [
        (struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0), "depth 16"),
        (struct.pack(">IIBBBBB", W, H, 8, 3, 0, 0, 0), "colour 3"),
        (struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 1), "interlace 1"),
    ],
)
def test_a_png_it_does_not_read_is_refused(header: bytes, why: str) -> None:
    png = pngmark.SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IEND", b"")
    with pytest.raises(PngError, match=why):
        highlight(png, (1, 1, 5, 5))


def test_a_broken_file_is_refused() -> None:
    with pytest.raises(PngError):
        highlight(b"GIF89a", (1, 1, 5, 5))
    png = encode(picture(3), 3, [0] * H)
    with pytest.raises(PngError):
        highlight(png[:40], (1, 1, 5, 5))
    huge = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    with pytest.raises(PngError, match="too large"):
        highlight(pngmark.SIGNATURE + _chunk(b"IHDR", huge) + _chunk(b"IEND", b""), (1, 1, 5, 5))
    ihdr = _chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
    for data in (b"not zlib", zlib.compress(bytes((W * 3 + 1) * H * 50))):  # 50 times its size
        png = pngmark.SIGNATURE + ihdr + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
        with pytest.raises(PngError):
            highlight(png, (1, 1, 5, 5))


def test_an_up_filtered_picture_changes_only_the_box_columns() -> None:
    """Chromium's fast encoder filters every row "Up": the box's columns are summed down and
    written back "Up", and every filtered byte outside them is kept as it was (the drawing runs
    beside the healed step's own calls, holding the interpreter for the rows it reads)."""
    pixels = picture(3)
    png = encode(pixels, 3, [2] * H)
    out = highlight(png, (4.4, 3.6, 9.2, 7.0))
    assert decode(out)[0] == expected(pixels, 3, (4, 4, 14, 11))
    before, after = (
        zlib.decompress(b"".join(d for k, d in decode(p)[1] if k == b"IDAT")) for p in (png, out)
    )
    stride = W * 3 + 1
    for r in range(H):
        row_in, row_out = (
            before[r * stride : (r + 1) * stride],
            after[r * stride : (r + 1) * stride],
        )
        assert row_out[0] == 2
        assert (
            row_out[: 1 + 4 * 3] == row_in[: 1 + 4 * 3]
            and row_out[1 + 14 * 3 :] == row_in[1 + 14 * 3 :]
        )
        if r < 4 or r > 11:
            assert row_out == row_in
