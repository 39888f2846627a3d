"""The ``Element@Region`` text of the element a person used (``pacts record``;
docs/user-guide.md, "Record a sheet").

First :func:`~pytest_pacts.discovery.inventory.name_of`, the search ``pacts elements``
makes: the element's name, then with a region, then an ordinal. When none singles the
element out, two more texts a sheet writes are tried, each kept only when discovery
resolves it back to exactly the element used:

- an element of an iframe, by its name with the region around the iframe in the page that
  holds it (a region holds everything inside its iframes: docs/discovery.md, "Regions");
- an element that shows no name (an SVG or an icon font's glyph with no title or label:
  no accessible name by the accname rules) by its kind, as discovery words it ("icon"),
  in the region around it: ``icon@price``.

A row no text resolves is written with the best text and a note saying why.
"""

from __future__ import annotations

from contextlib import suppress
from typing import cast

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery.engine import Discoverer
from pytest_pacts.discovery.inventory import name_of
from pytest_pacts.discovery.render import to_playwright
from pytest_pacts.discovery.strategies import UnrenderableLocator
from pytest_pacts.models import Action
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.requirement import Target
from pytest_pacts.recording.model import RecordedStep
from pytest_pacts.runtime import bounded

NOT_LISTED = (
    "it is not a control discovery lists (hidden, or not a button, link or field): name it by hand"
)

# The texts around an element, nearest first: each ancestor's heading, aria-label, and its
# own text when short (a table header cell holding a sort link and a menu icon: "price").
_REGIONS = r"""(el) => {
  const out = [];
  const add = (v) => {
    v = (v || '').replace(/\s+/g, ' ').trim();
    const fits = v && v.length <= 40 && /[\p{L}\p{N}]/u.test(v) && !/[@|\[\]]/.test(v);
    if (fits && !out.includes(v)) out.push(v);
  };
  const heading = 'h1, h2, h3, h4, h5, h6, [role=heading], legend, caption';
  let a = el.parentElement;
  for (let d = 0; a && a !== document.body && d < 8; a = a.parentElement, d++) {
    add(a.getAttribute('aria-label'));
    const h = a.querySelector(heading);
    if (h && !h.contains(el)) add(h.innerText);
    if ((a.innerText || '').length <= 40) add(a.innerText);
    if (out.length >= 4) break;
  }
  return out;
}"""

_IS = "(els, el) => els.length === 1 && els[0] === el"


def named(
    page: Page,
    target: ElementHandle,
    action: Action,
    *,
    evidence: EvidenceRule | None,
    timeout_ms: float,
) -> RecordedStep:
    """The row for ``action`` on ``target``, its element named (see the module)."""
    found = name_of(page, target, action, evidence=evidence, timeout_ms=timeout_ms)
    text = found.text if found is not None else None
    frame = bounded.call(page, "finding the element's frame", target.owner_frame)
    in_frame = frame is not None and frame != page.main_frame
    if text is not None and not (in_frame and "[" in text):
        return RecordedStep(action.value, text)
    tries: list[Target] = []
    if in_frame and frame is not None:  # the iframe's region comes before an ordinal
        names = [n for n in (found.tried if found else []) if "@" not in n and "[" not in n]
        regions = _frame_regions(page, frame)
        tries += [Target(element=n, region=r) for n in names[:2] for r in regions]
    if found is None or not found.tried:  # no name of its own: its kind where it stands
        tries += [Target(element="icon", region=r) for r in _regions(page, target)]
    text = _resolving(page, target, action, tries, evidence) or text
    if text is not None:
        return RecordedStep(action.value, text)
    if found is None:
        return RecordedStep(action.value, describe(page, target), note=NOT_LISTED)
    best = found.tried[0] if found.tried else found.description
    return RecordedStep(
        action.value,
        best,
        note=f"{found.why or 'no text names it'} (the element used: {found.description})",
    )


def _regions(page: Page, target: ElementHandle) -> list[str]:
    with suppress(PlaywrightError):
        return cast(list[str], bounded.call(page, "reading the regions", target.evaluate, _REGIONS))
    return []


def _frame_regions(page: Page, frame: Frame) -> list[str]:
    """The texts around ``frame``'s iframe in its parent document (and its title)."""
    with suppress(PlaywrightError):
        element = bounded.call(page, "finding the iframe", frame.frame_element)
        title = bounded.call(page, "reading the iframe", element.get_attribute, "title")
        regions = _regions(page, element)
        return [*([title] if title else []), *regions][:4]
    return []


def _resolving(
    page: Page,
    target: ElementHandle,
    action: Action,
    tries: list[Target],
    evidence: EvidenceRule | None,
) -> str | None:
    """The first of ``tries`` that discovery resolves to exactly ``target``."""
    if not tries:
        return None
    found = Discoverer(max_alternates=0, evidence=evidence).discover(
        page, [(i, t, action) for i, t in enumerate(tries)]
    )
    for i, tried in enumerate(tries):
        result = found.get(i)
        if result is None or result.locator is None:
            continue
        with suppress(PlaywrightError, UnrenderableLocator):
            located = to_playwright(page, result.locator)
            if bounded.call(page, "checking the name", located.evaluate_all, _IS, target):
                return str(tried)
    return None


def target_hints(page: Page, target: ElementHandle) -> list[str]:
    """A field's name, id, autocomplete hint, label and placeholder (secret detection)."""
    with suppress(PlaywrightError):
        return cast(
            list[str],
            bounded.call(
                page,
                "reading the field's hints",
                target.evaluate,
                "(el) => [el.name, el.id, el.getAttribute('autocomplete'), "
                "el.getAttribute('aria-label'), el.placeholder, "
                "...[...(el.labels || [])].map((l) => l.textContent)].filter(Boolean)",
            ),
        )
    return []


def is_password(page: Page, target: ElementHandle) -> bool:
    with suppress(PlaywrightError):
        return bool(
            bounded.call(
                page,
                "reading the field's type",
                target.evaluate,
                "(el) => (el.type || '').toLowerCase() === 'password'",
            )
        )
    return False


def describe(page: Page, target: ElementHandle) -> str:
    """A short human text for an element no name finds: its visible text, else its tag."""
    with suppress(PlaywrightError):
        text = cast(
            str,
            bounded.call(
                page,
                "describing the element",
                target.evaluate,
                "(el) => ((el.innerText || el.value || el.getAttribute('aria-label') || '')"
                ".replace(/\\s+/g, ' ').trim().slice(0, 40)) || el.tagName.toLowerCase()",
            ),
        )
        return text.replace("|", " ").replace("@", " ")
    return "element"
