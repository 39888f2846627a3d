"""Brittleness of a healed locator: the locator-specific case signals.

The gate's first four rules look at code; a heal changes a locator, so three more
signals are read from the healed locator itself:

- ``positional_locator``: it picks an element by position (``:nth-child()``, ``:nth-of-type()``,
  Playwright's ``nth=``, an XPath index such as ``//li[2]`` or ``position()``/``last()``, or
  an integer ``nth``/``index`` field);
- ``auto_generated_id_class``: it relies on an id or class that a framework generated
  (React ``:r1:``, CSS-in-JS ``css-1x2y3z`` / ``sc-bdVaJa``, CSS-module hashes, ``ember123``,
  widget counters such as ``react-select-3-input``);
- ``exact_text_only``: it matches by visible text and nothing else: no role, label, test id,
  placeholder, aria-label, alt or title, and no CSS/XPath.

The locator is a JSON object (discovery owns its typed model). The keys read
here: ``strategy``, ``role``, ``name``, ``test_id`` (or ``testid``/``testId``), ``label``,
``placeholder``, ``aria_label``, ``alt``, ``title``, ``text``, ``css``, ``xpath``,
``selector``, ``frame_path``, ``host`` (a shadow host), ``region.css``, ``nth``, ``index``,
``id``, ``class``/``classes`` (the names of ``pytest_pacts.models.locator.Locator``, plus
a few others a hand-written or plugin locator may use).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_pacts.generated import looks_generated
from pytest_pacts.governance._values import is_missing, string_leaves

POSITIONAL_LOCATOR = "positional_locator"
AUTO_GENERATED_ID_CLASS = "auto_generated_id_class"
EXACT_TEXT_ONLY = "exact_text_only"

_TEST_ID_KEYS = ("test_id", "testid", "testId")
_ANCHOR_KEYS = ("role", "label", "placeholder", "aria_label", "alt", "title", *_TEST_ID_KEYS)
_SELECTOR_KEYS = ("css", "xpath", "selector", "frame_path", "host")

_POSITIONAL = re.compile(
    r":nth-(?:last-)?(?:child|of-type)\("  # CSS structural pseudo-classes
    r"|(?:^|[\s>])nth=-?\d"  # Playwright's nth= selector part
    r"|\[\s*\d+\s*\]"  # XPath index: //li[2]
    r"|\b(?:position|last)\(\)"  # XPath position()/last()
)

# ids and classes inside CSS and XPath selector strings.
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_CSS_ID_CLASS = re.compile(r"[#.]((?:\\.|[\w-])+)")
_ATTR_ID_CLASS = re.compile(
    r"\[\s*(?:id|class)\s*[~|^$*]?=\s*[\"']?([^\"'\]]+)"  # CSS [id="x"], [class*="x"]
    r"|@(?:id|class)\s*[,=]\s*[\"']([^\"']+)"  # XPath @id='x', contains(@class,'x')
)


def is_auto_generated(token: str) -> bool:
    """True when an id or class name looks generated rather than written by a person
    (:func:`pytest_pacts.generated.looks_generated`: the pattern the in-page scan
    reads too)."""
    return looks_generated(token)


def built_on_generated(locator: Mapping[str, object]) -> bool:
    """The locator relies on an id or class a framework generated (:func:`is_auto_generated`):
    the next render may give it to another element (Ember's ``ember9``, React's ``:r1:``)."""
    return any(is_auto_generated(token) for token in _ids_and_classes(locator))


def _selector_strings(locator: Mapping[str, object]) -> list[str]:
    texts = [text for key in _SELECTOR_KEYS for text in string_leaves(locator.get(key))]
    region = locator.get("region")
    if isinstance(region, Mapping):
        texts.extend(string_leaves(region.get("css")))
    return texts


def _ids_and_classes(locator: Mapping[str, object]) -> list[str]:
    tokens: list[str] = []
    for selector in _selector_strings(locator):
        for match in _ATTR_ID_CLASS.finditer(selector):
            tokens.extend((match.group(1) or match.group(2) or "").split())
        unquoted = _QUOTED.sub('""', selector)
        tokens.extend(m.group(1).replace("\\", "") for m in _CSS_ID_CLASS.finditer(unquoted))
    for key in ("id", "class", "classes"):
        for text in string_leaves(locator.get(key)):
            tokens.extend(text.split())
    return [t for t in tokens if t]


def _is_positional(locator: Mapping[str, object]) -> bool:
    for key in ("nth", "index"):
        value = locator.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return True
    return any(_POSITIONAL.search(text) for text in _selector_strings(locator))


def _is_text_only(locator: Mapping[str, object]) -> bool:
    has_text = not is_missing(locator.get("text")) or locator.get("strategy") == "text"
    if not has_text:
        return False
    anchors = (*_ANCHOR_KEYS, *_SELECTOR_KEYS)
    return all(is_missing(locator.get(key)) for key in anchors)


def locator_signals(locator: Mapping[str, object]) -> list[str]:
    """The case-specific signals of a (healed) locator, in a fixed order."""
    signals: list[str] = []
    if _is_positional(locator):
        signals.append(POSITIONAL_LOCATOR)
    if built_on_generated(locator):
        signals.append(AUTO_GENERATED_ID_CLASS)
    if _is_text_only(locator):
        signals.append(EXACT_TEXT_ONLY)
    return signals


# How much a locator can be trusted to keep finding its element, by strategy (discovery's
# order, docs/discovery.md): a test id is set for tests, an accessible name or label is
# what a person reads, CSS and text follow layout and wording.
_STRENGTH = {
    "test_id": 5,
    "role_name": 4,
    "role": 4,
    "label": 4,
    "placeholder": 3,
    "aria": 3,
    "relational": 2,
    "shadow": 2,
    "css": 1,
    "xpath": 1,
    "text": 1,
}


def locator_strength(locator: Mapping[str, object]) -> int:
    """A rank to compare two locators of one element: higher is stronger.

    0 for a brittle locator (any :func:`locator_signals`: positional, generated id/class,
    text only), else by strategy: test id 5; role and name, label 4; placeholder,
    aria-label/title/alt 3; relational, shadow 2; CSS, XPath, text 1.
    """
    if locator_signals(locator):
        return 0
    return _STRENGTH.get(locator_strategy(locator), 1)


def locator_strategy(locator: Mapping[str, object]) -> str:
    """The strategy a locator matches by: its ``strategy`` field, else its strongest key."""
    strategy = locator.get("strategy")
    if isinstance(strategy, str) and strategy.strip():
        return strategy.strip()
    for key in ("test_id", "testid", "testId", "role", "label", "placeholder", "css", "xpath"):
        if not is_missing(locator.get(key)):
            return "test_id" if key in _TEST_ID_KEYS else key
    return "text" if not is_missing(locator.get("text")) else "unknown"
