"""Writes ``tests/engine/fonts/ligature-icons.ttf``: a tiny icon font drawing words as ligatures.

Google's Material Icons and Material Symbols draw a word such as "add" or "expand_more" as one
glyph through the OpenType ``liga`` feature (CSS Fonts 4, ``font-variant-ligatures``, on by
default); the fixture page of ``tests/engine/test_icon_words.py`` needs one such font offline.
Here: the letters a-z and "_" drawn 0.6 em wide each, and the ligatures "add" and
"expand_more", each a square one em wide. Run once with fontTools (not a dependency of the
package or of its tests: the font file is committed)::

    python -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python scripts/make_ligature_font.py
"""

from __future__ import annotations

from pathlib import Path

from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

LETTERS = "abcdefghijklmnopqrstuvwxyz_"
ICONS = {"icon_add": "a d d", "icon_expand_more": "e x p a n d underscore m o r e"}


def _box(width: int, inset: int) -> object:
    pen = TTGlyphPen(None)
    pen.moveTo((inset, 0))
    pen.lineTo((inset, 700))
    pen.lineTo((width - inset, 700))
    pen.lineTo((width - inset, 0))
    pen.closePath()
    return pen.glyph()


def main() -> None:
    names = {c: ("underscore" if c == "_" else c) for c in LETTERS}
    order = [".notdef", "space", *names.values(), *ICONS]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord(" "): "space", **{ord(c): n for c, n in names.items()}})
    glyphs = {".notdef": _box(600, 50), "space": TTGlyphPen(None).glyph()}
    glyphs.update({n: _box(600, 80) for n in names.values()})
    glyphs.update({n: _box(1000, 100) for n in ICONS})
    fb.setupGlyf(glyphs)
    metrics = {n: (600, 0) for n in order}
    metrics.update({n: (1000, 0) for n in ICONS})
    metrics["space"] = (300, 0)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Ligature Icons", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    rules = "".join(f"sub {seq} by {icon};" for icon, seq in ICONS.items())
    addOpenTypeFeaturesFromString(fb.font, f"feature liga {{ {rules} }} liga;")
    fb.save(str(Path(__file__).parents[1] / "tests" / "engine" / "fonts" / "ligature-icons.ttf"))


if __name__ == "__main__":
    main()
