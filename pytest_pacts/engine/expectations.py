"""Expected outcomes, checked after the step with auto-waiting.

Every kind is a *probe* (is it true now? and what did we see?) polled until it holds or the
step timeout passes. Between probes the checker waits for the next DOM change (capped, see
``waiting.py``), never a fixed sleep. Matching rules:

- text (``text_visible``, ``text_hidden``, ``navigates_to``, ``url_contains``,
  ``title_contains``): case-insensitive, whitespace-normalised substring;
- ``text_visible``/``text_hidden`` read the rendered text of every frame, open shadow roots
  included; only text whose element is rendered counts (``checkVisibility``);
- ``navigates_to:X``: the URL differs from the URL before the step, and X is in the URL
  path, the title, or a text that names the page as a person reads it: a heading, a
  breadcrumb's current item, or a short title-like or prominent text near the top of the
  page, never body text or a nav link (the rule is in ``pagename.py``);
- ``value:X``: the element's value equals X after normalisation (a substring would make
  ``value:`` always true); ``field_populated``: the value is not blank;
- ``element_visible``/``element_hidden:<Element@Region>``: the target is discovered on the
  page as it is; hidden means discovery finds no such element, or finds it not visible.
  When the region itself is not on the page, the element is looked for page-wide: one
  visible match decides (a renamed region must not make ``element_hidden`` pass while the
  element is on show), several equal matches leave only ``element_hidden`` true;
- ``count:<Element@Region>=N``: the number of elements that match Element equally well
  (discovery's best-matching strategy and tier) inside the region, as one discovery scan
  reports them: one when discovery singles out an element, the ambiguous candidates when
  several match equally well, zero when none does. (Discovery lists at most 8 candidates,
  so N above 8 cannot be verified.)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import UnrenderableLocator, to_playwright
from pytest_pacts.engine import widgets
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.finder import Finder
from pytest_pacts.engine.network import ResponseLog, lookup, secret_path, shown
from pytest_pacts.engine.pagename import PAGE_NAMES_JS
from pytest_pacts.engine.waiting import epoch_ms, now_ms, wait_for_change
from pytest_pacts.models import Action, Expectation, ExpectationKind, Target
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import evaluate_on_element
from pytest_pacts.runtime.scripts import kept_element_function, realm_function

_WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


# Rendered text of a document, open shadow roots included (text outcomes look in any frame).
_VISIBLE_TEXT = """() => {
  const spaced = [], tight = [];
  const visible = (el) => !el.checkVisibility || el.checkVisibility(
    {opacityProperty: true, visibilityProperty: true});
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const p = n.parentElement;
        if (p && !['SCRIPT', 'STYLE', 'TEMPLATE', 'TITLE'].includes(p.tagName) && visible(p)) {
          spaced.push(n.data); tight.push(n.data);
        }
      } else if (n.shadowRoot) { visit(n.shadowRoot); }
      // an editable combobox shows its choice as its value (APG combobox pattern)
      if (n.nodeType === Node.ELEMENT_NODE && n.tagName === 'INPUT'
        && (n.getAttribute('role') || '').toLowerCase() === 'combobox' && n.value && visible(n)) {
        spaced.push(n.value); tight.push(n.value);
      }
      if (n.nodeType === Node.ELEMENT_NODE && ['INPUT', 'TEXTAREA'].includes(n.tagName)) continue;
    }
  };
  if (document.body) visit(document.body);
  return [spaced.join(' '), tight.join('')];
}"""

# the page-wide reads run as the in-page code's dispatcher runs them: in a fresh realm on a
# page that replaced JavaScript built-ins (runtime/js/realm.js)
_in_realm = functools.cache(realm_function)

# The page's title (``document.title``, what ``Page.title`` reads), and the texts that name the
# page (``PAGE_NAMES_JS``), those only when the title, lower-cased with its spaces collapsed,
# does not hold ``needle`` (``norm``'s form): ``[title, names or null]``.
_TITLE_AND_NAMES = (
    "(needle) => { const title = document.title;"
    " const named = title.replace(/\\s+/g, ' ').trim().toLowerCase().includes(needle);"
    f" return [title, named ? null : ({PAGE_NAMES_JS})()]; }}"
)

_FIELD_VALUE = """(el) => [('value' in el && typeof el.value === 'string') ? el.value
  : (el.isContentEditable ? el.innerText : el.textContent), el.type === 'password']"""


@dataclass(frozen=True)
class Probe:
    ok: bool
    seen: str  # what the page showed, for the failure text


class Checker:
    """Checks one step's expectation against the page (see module doc)."""

    def __init__(
        self,
        page: Page,
        finder: Finder,
        responses: ResponseLog | None = None,
        secret_vars: frozenset[str] = frozenset(),
    ) -> None:
        self.page = page
        self.finder = finder
        self.responses = responses
        self.secret_vars = secret_vars

    def check(
        self,
        exp: Expectation,
        *,
        element: Subject | None,
        url_before: str,
        step_index: int,
        timeout_ms: float,
        mask: bool = False,
        responses_since: int = 0,
    ) -> Failure | None:
        """``mask``: the step typed a secret, so the field's content is never shown.
        ``responses_since``: a ``response:`` outcome looks at the responses that finished
        after this mark of the response log."""
        try:
            probe = self._probe_for(exp, element, url_before, mask, responses_since)
        except _NeedsElement as exc:
            return Failure(
                type=FailureType.EXPECTATION_FAILED,
                message=str(exc),
                step_index=step_index,
                cause="configuration",
            )
        deadline = now_ms() + timeout_ms
        last = Probe(False, "nothing checked")
        while True:
            looked = epoch_ms()
            try:
                last = bounded.call(self.page, "checking the expected outcome", probe, probe=False)
            except PlaywrightError as exc:
                text = str(exc)
                if "context was destroyed" in text or "navigat" in text:
                    last = Probe(False, "the page was navigating")
                else:
                    failure = classify_error(exc, f"checking {exp}", step_index)
                    if failure.type is FailureType.ENV_FAULT:
                        return failure
                    last = Probe(False, failure.message)
            if last.ok:
                return None
            if now_ms() >= deadline:
                break
            wait_for_change(self.page, since=looked)
        return Failure(
            type=FailureType.EXPECTATION_FAILED,
            message=f"expected {exp}, but {last.seen}",
            step_index=step_index,
            evidence=(f"expected {exp}", f"found: {last.seen}", f"waited {timeout_ms:.0f} ms"),
        )

    # -- probes ------------------------------------------------------------------------------

    def _probe_for(
        self,
        exp: Expectation,
        element: Subject | None,
        url_before: str,
        mask: bool = False,
        since: int = 0,
    ) -> Callable[[], Probe]:
        kind = exp.kind
        text = norm(exp.text or "")
        if kind is ExpectationKind.RESPONSE:
            return lambda: self._response(exp, since)
        if kind is ExpectationKind.TEXT_VISIBLE:
            return lambda: self._text(text, want=True)
        if kind is ExpectationKind.TEXT_HIDDEN:
            return lambda: self._text(text, want=False)
        if kind is ExpectationKind.URL_CONTAINS:
            return lambda: Probe(text in norm(self.page.url), f"the URL is {self.page.url}")
        if kind is ExpectationKind.TITLE_CONTAINS:
            return lambda: _title(self.page, text)
        if kind is ExpectationKind.NAVIGATES_TO:
            return lambda: self._navigated(text, url_before)
        if kind in (ExpectationKind.ELEMENT_VISIBLE, ExpectationKind.ELEMENT_HIDDEN):
            want = kind is ExpectationKind.ELEMENT_VISIBLE
            return lambda: self._element(exp, want)
        if kind is ExpectationKind.COUNT:
            return lambda: self._count(exp)
        if element is None:
            raise _NeedsElement(f"{exp} needs the step to name an element")
        el = element
        if kind is ExpectationKind.FIELD_POPULATED:
            return lambda: _value(el, lambda v: bool(v.strip()), "a non-empty value", mask)
        if kind is ExpectationKind.VALUE:
            wanted = f"the value {exp.text!r}"
            return lambda: _value(el, lambda v: norm(v) == text, wanted, mask, exp.text or "")
        prop = (
            "checked" if kind in (ExpectationKind.CHECKED, ExpectationKind.UNCHECKED) else "enabled"
        )
        want = kind in (ExpectationKind.CHECKED, ExpectationKind.ENABLED)
        return lambda: _state(el, prop, want)

    def _texts(self) -> list[str]:
        out: list[str] = []
        for frame in self.page.frames:
            try:
                spaced, tight = frame.evaluate(_in_realm(_VISIBLE_TEXT))
            except PlaywrightError:
                if frame is self.page.main_frame:
                    raise
                continue  # a child frame navigating or gone: its text is not on screen
            out += [norm(spaced), norm(tight)]
        return out

    def _text(self, needle: str, *, want: bool) -> Probe:
        present = any(needle in t for t in self._texts())
        if want:
            return Probe(present, f"no visible text on the page contains {needle!r}")
        return Probe(not present, f"the text {needle!r} is still visible")

    def _navigated(self, needle: str, url_before: str) -> Probe:
        url = self.page.url
        if url == url_before:
            return Probe(False, f"the URL did not change ({url})")
        if url.startswith("chrome-error://"):
            return Probe(False, "the browser shows its own error page")
        path = norm(re.sub(r"[/_\-.]+", " ", unquote(_path(url))))
        if needle in path:
            return Probe(True, "")
        # the title and, when it does not name the page, what does: one round trip
        title, shown_names = self.page.evaluate(_in_realm(_TITLE_AND_NAMES), needle)
        title = norm(title)
        if needle in title:
            return Probe(True, "")
        if shown_names is None:  # the page's casing of the title held it, Python's not
            shown_names = self.page.evaluate(_in_realm(PAGE_NAMES_JS))
        names = [(norm(text), why) for text, why in shown_names]
        if any(needle in text for text, _why in names):
            return Probe(True, "")
        shown = ", ".join(f"{text!r} ({why})" for text, why in names[:4]) or "none"
        return Probe(
            False, f"the page {url} (title {title!r}, page names {shown}) is not {needle!r}"
        )

    def _element(self, exp: Expectation, want_visible: bool) -> Probe:
        assert exp.target is not None
        result = self.finder.resolve(exp.target, Action.HOVER)
        if result.unresolved is not None and result.unresolved.region_missing:
            return self._without_region(exp, want_visible)
        if result.locator is None:
            reason = result.unresolved.message if result.unresolved else "not found"
            ambiguous = result.unresolved is not None and result.unresolved.reason == "ambiguous"
            if want_visible or ambiguous:
                return Probe(False, f'"{exp.target}": {reason}')
            return Probe(True, "no such element")
        visible = self._visible(result.locator)
        if isinstance(visible, Probe):
            return visible
        state = "visible" if visible else "hidden"
        return Probe(visible == want_visible, f'"{exp.target}" is {state}')

    def _without_region(self, exp: Expectation, want_visible: bool) -> Probe:
        """The region is not on the page at all. That alone says nothing about the element: a
        closed dialog takes its buttons with it, but a renamed container leaves them on show.
        So look for the element page-wide: one visible match is the element (a renamed region)
        and decides both kinds; no visible match means hidden; several equal matches cannot
        say which one the region meant, so only ``element_hidden`` holds (its region is gone).
        """
        assert exp.target is not None
        region = exp.target.region
        wide = self.finder.resolve(Target(element=exp.target.element), Action.HOVER)
        gone = f'the region "{region}" is not on the page'
        if wide.locator is not None:
            visible = self._visible(wide.locator)
            if isinstance(visible, Probe):
                return visible
            if visible:
                seen = f'{gone}, but "{exp.target.element}" is, visible, elsewhere on the page'
                if not want_visible:
                    seen += " (a renamed region? name it as the page shows it)"
                return Probe(want_visible, seen)
            return Probe(not want_visible, f'{gone} and "{exp.target.element}" is hidden')
        if wide.unresolved is not None and wide.unresolved.reason == "ambiguous":
            n = len(wide.unresolved.candidates)
            return Probe(
                not want_visible,
                f'{gone}, and "{exp.target.element}" matches {n} elements elsewhere: '
                "name a region that is on the page",
            )
        return Probe(not want_visible, f'{gone} and neither is "{exp.target.element}"')

    def _visible(self, locator: Locator) -> bool | Probe:
        try:
            return to_playwright(self.page, locator).is_visible()
        except UnrenderableLocator as exc:
            return Probe(False, f"{locator.describe()} cannot be rendered as a locator: {exc}")

    def _count(self, exp: Expectation) -> Probe:
        assert exp.target is not None and exp.count is not None
        result = self.finder.resolve(exp.target, Action.HOVER)
        if result.locator is not None:
            n = 1
        elif result.unresolved is not None and result.unresolved.reason == "ambiguous":
            n = len(result.unresolved.candidates)
        else:
            n = 0
        seen = f'"{exp.target}" matches {n} element(s)'
        if result.unresolved is not None and result.unresolved.region_missing:
            seen += f' (the region "{exp.target.region}" is not on the page)'
        return Probe(n == exp.count, seen)

    def _response(self, exp: Expectation, since: int) -> Probe:
        """The latest matching response that has the path holds the value (exactly, as
        text), or, with no value given, a value that is not null or empty."""
        ref = exp.response
        assert ref is not None
        found = lookup(self.responses, ref.url, ref.path, since, self.secret_vars)
        if not found.found:
            return Probe(False, found.why)
        assert found.entry is not None
        value = shown(found.value)
        present = found.value not in (None, "", [], {})
        ok = value == exp.text if exp.text is not None else present
        text = "***" if secret_path(ref.path, self.secret_vars) else repr(value)
        return Probe(ok, f"{found.entry.label()} has {ref.path} = {text}")


class _NeedsElement(Exception):
    pass


def _path(url: str) -> str:
    return urlsplit(url).path or "/"


def _title(page: Page, needle: str) -> Probe:
    title = page.title()
    return Probe(needle in norm(title), f"the title is {title!r}")


class Subject:
    """The step's element for state expectations: the very element the step acted on (kept in
    the page by the gate check that passed it, under ``token``), falling back to what the
    locator matches when the page re-rendered it. A state change must not make the check
    lose its element (a row's class changes when its box is ticked)."""

    def __init__(self, locator: PWLocator, token: str | None, frame: Frame | None = None) -> None:
        self.locator = locator
        self.token = token
        self.frame = frame  # the frame holding the element, when known (no selector code)

    def evaluate(self, js: str) -> tuple[bool, Any]:
        """``(True, js(element))``, or ``(False, how many elements the locator matches)``
        when there is no one element to ask."""
        found, value = cast(
            tuple[bool, Any],
            evaluate_on_element(
                self.locator, kept_element_function(js), self.token, frame=self.frame,
                keep=self.token, what="reading the element's state",
            ),
        )  # fmt: skip
        return bool(found), value


def gone(count: object) -> str:
    """Why a step's element could not be asked: ``count`` elements match its locator."""
    if count == 0:
        return "the element is no longer on the page"
    return f"the locator now matches {count} elements"


_CHECKED = """(el) => {
  const input = el.matches('input,[role=checkbox],[role=radio],[role=switch]') ? el
    : (el.control || el.querySelector('input[type=checkbox],input[type=radio]') || el);
  if ('checked' in input && typeof input.checked === 'boolean') return input.checked;
  return input.getAttribute('aria-checked') === 'true';
}"""
_ENABLED = """(el) => !(el.matches(':disabled') || el.closest('[aria-disabled=true]'))"""


def _value(
    el: Subject, test: Callable[[str], bool], wanted: str, mask: bool, choices: str = ""
) -> Probe:
    found, read = el.evaluate(_FIELD_VALUE)
    if not found:
        return Probe(False, gone(read))
    raw, secret = read
    secret = secret or mask
    value = str(raw or "")
    if not test(value) and not secret:
        # what a widget shows as its value (a dropdown's chosen options, a slider's value)
        _, readings = el.evaluate(widgets.SHOWN_VALUE_JS)
        for reading in readings or ():
            if test(str(reading)) or _same_choices(str(reading), choices):
                return Probe(True, "")
        shown_as = next((str(r) for r in readings or () if str(r).strip()), None)
        if shown_as is not None and not value.strip():
            value = shown_as
    # a password field's content is a secret whatever the sheet says
    shown = ("***" if value else "''") if secret else repr(value)
    return Probe(test(value), f"the element holds {shown}, not {wanted}")


def _same_choices(reading: str, wanted: str) -> bool:
    """Several chosen options, in any order: ``value:Red; Blue`` (``widgets.SEPARATOR``)."""
    if widgets.SEPARATOR not in wanted:
        return False
    want = {norm(p) for p in widgets.split_choices(wanted)}
    # a chip's remove button drawn as a glyph beside its text ("Blue×")
    return want == {norm(_CHIP_GLYPHS.sub("", p)) for p in widgets.split_choices(reading)}


_CHIP_GLYPHS = re.compile(r"[\s×✕✖⨯]+$")


def _state(el: Subject, name: str, want: bool) -> Probe:
    found, read = el.evaluate(_CHECKED if name == "checked" else _ENABLED)
    if not found:
        return Probe(False, gone(read))
    actual = bool(read)
    shown = name if actual else f"not {name}"
    return Probe(actual == want, f"the element is {shown}")
