"""Icon-font glyphs are no words: names are recorded and compared without them.

Icon fonts draw their pictures with characters of Unicode's Private Use Areas (U+E000-U+F8FF,
planes 15 and 16), through CSS ``::before`` content or a text node: Font Awesome's U+F000
block, Bootstrap's Glyphicons at U+E000, Material Design Icons in plane 15. The Unicode
Standard gives such a character no meaning outside a private agreement (chapter 23.5,
"Private-Use Characters"), here the font; a person reads the picture, never the character,
and the next release's icon set draws another one (Flask-AppBuilder 3.4.5's sort header
"Birthday \\uf07d" is "Birthday \\uf338" on 5.3.0; Buildbot 3.11.9's "Console View \\uf06a" is
"Console View" on 4.3.0). The in-page half is ``words`` in ``runtime/js/dom.js``.

A role locator's name recorded without its glyphs (``Locator.glyphs``) renders as a pattern
that allows them around and between the words (:func:`name_pattern`), which Playwright's
``get_by_role`` accepts and the page's own resolver compares the same way; a name stored with
its glyph by an earlier version is read as those words (:func:`without_glyphs`), so an
upgrade does not turn a cached locator into a heal.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ICON_GLYPHS = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
# The same characters as Playwright's page reads a pattern (JavaScript, no ``u`` flag: a
# character of planes 15-16 is two UTF-16 units, U+DB80-U+DBFF then U+DC00-U+DFFF), and spaces.
_AROUND = r"[\s\ue000-\uf8ff\udb80-\udfff]"
_PATTERN = re.compile(rf"\^{re.escape(_AROUND)}\*(.*){re.escape(_AROUND)}\*\$")
_SPECIAL = re.compile(r"([\\^$.|?*+()\[\]{}/])")


def words(text: str) -> str:
    """``text`` without icon glyphs, its white space collapsed: the words a person reads."""
    return " ".join(ICON_GLYPHS.sub(" ", text).split())


def has_glyphs(text: str | None) -> bool:
    return bool(text) and ICON_GLYPHS.search(text or "") is not None


def name_pattern(name: str) -> re.Pattern[str]:
    """The accessible names that are ``name``'s words with any icon glyphs around or between
    them, case as written (Playwright's ``get_by_role(name=pattern)``)."""
    body = f"{_AROUND}+".join(_SPECIAL.sub(r"\\\1", w) for w in name.split())
    return re.compile(f"^{_AROUND}*{body}{_AROUND}*$")


def pattern_name(pattern: object) -> str | None:
    """The words of a :func:`name_pattern`, or ``None`` for any other value."""
    if not isinstance(pattern, re.Pattern) or pattern.flags & re.IGNORECASE:
        return None
    found = _PATTERN.fullmatch(pattern.pattern)
    if found is None:
        return None
    name = re.sub(r"\\(.)", r"\1", found.group(1).replace(f"{_AROUND}+", " "))
    return name if name_pattern(name).pattern == pattern.pattern else None


def without_glyphs(*fields: str, flag: str | None = None) -> Callable[[object, object], object]:
    """A pydantic ``before`` validator: the ``fields`` of a model's data without icon glyphs
    (a name recorded with one by an earlier version); ``flag`` is set where a name lost one.
    A name of glyphs alone is left as it was (it has no words to keep)."""

    def strip(cls: object, data: object) -> object:
        if not isinstance(data, dict):
            return data
        changed = {
            f: words(v) for f in fields if isinstance(v := data.get(f), str) and has_glyphs(v)
        }
        changed = {f: v for f, v in changed.items() if v}
        if not changed:
            return data
        return {**data, **changed, **({flag: True} if flag else {})}

    return strip
