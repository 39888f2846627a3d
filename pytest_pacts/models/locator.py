"""Verified locators, element fingerprints and discovery results.

A locator is structured data, never a selector string: the strategy that found the element,
its confidence, and the fields that strategy renders from (role + name, label, test id, …),
plus where the element lives (frame path, shadow root, region). ``pytest_pacts.discovery``
renders it to a Playwright locator for execution and to Python source for generated tests.
These models depend on nothing but pydantic; field names match what the self-heal gate reads
(``governance/locators.py``).
"""

from __future__ import annotations

import enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pytest_pacts.models.glyphs import without_glyphs


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Strategy(enum.StrEnum):
    """Discovery strategies, best first (docs/discovery.md)."""

    TEST_ID = "test_id"
    LABEL = "label"
    PLACEHOLDER = "placeholder"
    ROLE_NAME = "role_name"
    ARIA = "aria"  # aria-label, title or alt
    TEXT = "text"
    RELATIONAL = "relational"
    SHADOW = "shadow"
    CSS = "css"


CONFIDENCE: dict[Strategy, float] = {
    Strategy.TEST_ID: 0.98,
    Strategy.LABEL: 0.92,
    Strategy.PLACEHOLDER: 0.88,
    Strategy.ROLE_NAME: 0.95,
    # These two sit between role+name and relational.
    Strategy.ARIA: 0.90,
    Strategy.TEXT: 0.86,
    Strategy.RELATIONAL: 0.85,
    Strategy.SHADOW: 0.80,
    # calibrated on the real-app corpus (docs/benchmarks.md, "Calibration"): an id, name or
    # class matching the words of an element that has no accessible name was right every
    # time; the same match on an element whose name says other words is not (below)
    Strategy.CSS: 0.80,
}
"""Confidence of an exact match per strategy; a substring ("loose") match scores ×0.95."""

LOOSE_FACTOR = 0.95
NAMED_IDENTIFIER_FACTOR = 0.85
"""A ``css`` match (id, name, class tokens) of an element whose accessible name does not hold
the step's words scores ×0.85: what a person reads names it otherwise (a "toggle all"
checkbox labelled "Mark all as complete" is not "Toggle" because its id says toggle-all)."""
MARKUP_ONLY_FACTOR = 0.9
"""A ``css`` match by class tokens alone (no id or ``name`` attribute holds the step's words)
of an element with no accessible name, for a step that names no region, scores ×0.9: under
the threshold even when exact (0.72). A class is markup shared by every element of its kind,
not a word a person reads (docs/discovery.md, "The evidence rule")."""
UNFOCUSED_FACTOR = 0.8
"""For a key pressed at its turn while keyboard focus is on an element the step's words name,
every other element they name scores ×0.8 (HTML's focus model: key events go to the focused
area of the document, and Playwright's ``locator.press`` first moves the focus to the element
it is given). Having the focus outweighs one strategy level (the box its placeholder names,
0.88, against a link the words name by role and name, 0.95 → 0.76: a lead of 0.12), not a
weaker kind of name (a focused box named only by its id, 0.80, against that link: 0.04, under
the margin, refused). docs/discovery.md, "The evidence rule"."""
OTHER_CASE_FACTOR = 0.85
"""Where one of the elements whose exact names are the step's words writes them in the step's
letter case, one that writes them in another scores ×0.85 (Playwright's exact name matching,
``exact=True``, is case-sensitive: "admin" is not the element named "Admin"). Two elements of one
kind of name, one in the step's case: a lead of 0.12 to 0.14, over the margin; the case does not
outweigh a stronger kind of name by as much (docs/discovery.md, "The evidence rule")."""
INERT_FACTOR = 0.85
"""A click's target no one shows clickable (no activation behaviour, widget role, control or
``a`` around it, cursor, tabindex or onclick) scores x0.85: text 0.86 -> 0.73, refused (docs/
discovery.md, "The evidence rule"; docs/real-apps.md, "Clicks on plain text")."""
STRUCTURAL_CEILING = 0.89
"""The most a pick located only by its place in the page (its CSS path, issue 35 item 5)
scores, under the 0.90 band the calibration holds to >= 99% right: the path renders the element
the scan chose, no evidence that it is the one the step names (jotter-app 3.0.0: a card link,
at 0.903 by its path, was not the "Mark as done" button the step named)."""


class RegionMatch(enum.StrEnum):
    """How a region name matched its container (``Element@Region``)."""

    ID_TOKEN = "id_token"  # ``LoginForm`` ~ id ``login_form``
    CLASS_TOKEN = "class_token"  # ``LoginForm`` ~ class ``login-form``
    TEST_ID = "test_id"  # ``LoginForm`` ~ data-testid ``loginForm``
    NAME = "name"  # accessible name / aria-label / legend of the container
    HEADING = "heading"  # the container's heading text
    TEXT = "text"  # the smallest container mentioning the text


class Region(_Frozen):
    """The container a locator is scoped through, renderable to a Playwright locator.

    Exactly one base is set: ``css`` (a container selector such as ``form#login_form`` or
    ``div.inventory_item``) or ``role`` + ``name``. Optional filters narrow it: a heading the
    container must hold (``heading``) or text it must contain (``has_text``).
    """

    description: str = Field(description="The region as written in the requirement.")
    matched_by: RegionMatch
    css: str | None = None
    role: str | None = None
    name: str | None = None
    heading: str | None = None
    has_text: str | None = None
    innermost: bool = Field(
        default=False,
        description="Only the innermost of the matching containers (none of whose descendants "
        "matches too): a row of divs whose classes are all generated.",
    )


class Locator(_Frozen):
    """A verified way to find one element (structured data, never a bare selector string).

    Which fields are set depends on ``strategy``: ``test_id`` + ``test_id_attribute``;
    ``label``; ``placeholder``; ``role`` + ``name``; one of ``aria_label``/``title``/``alt``;
    ``text``; ``relational``: ``region`` + ``role`` (or ``css``); ``shadow``: ``host`` (css of
    the shadow host) + ``css`` inside it; ``css``. ``exact`` applies to the text-valued fields.
    """

    strategy: Strategy
    confidence: float = Field(ge=0.0, le=1.0)
    role: str | None = None
    name: str | None = None
    exact: bool = True
    glyphs: bool | None = None  # ``name``/``text`` left out icon glyphs (models/glyphs.py)
    _words = model_validator(mode="before")(without_glyphs("name", "text", flag="glyphs"))
    test_id: str | None = None
    test_id_attribute: str | None = None
    label: str | None = None
    placeholder: str | None = None
    aria_label: str | None = None
    title: str | None = None
    alt: str | None = None
    text: str | None = None
    css: str | None = None
    host: str | None = None
    frame_path: tuple[str, ...] = ()
    in_shadow: bool = False
    region: Region | None = None
    nth: int | None = Field(
        default=None,
        ge=0,
        description="Which of the elements the rest matches, 0-based in document order "
        "(Playwright's ``nth``): a step's ordinal, ``Delete[2]@Cart``.",
    )

    def describe(self) -> str:
        """A short human form, e.g. ``role_name button "Login" in #login_form``."""
        parts = [self.strategy.value]
        value: str | None = None
        if self.role:
            value = f'{self.role} "{self.name}"' if self.name else self.role
        for field in (self.test_id, self.label, self.placeholder, self.aria_label, self.title,
                      self.alt, self.text):  # fmt: skip
            value = value or (f'"{field}"' if field is not None else None)
        if self.host:
            value = f"{self.host} >> {self.css}"
        value = value or self.css
        if value:
            parts.append(value)
        if self.nth is not None:
            parts.append(f"[{self.nth + 1}]")
        if self.region is not None:
            parts.append(f'in "{self.region.description}"')
        if self.frame_path:
            parts.append("in frame " + " > ".join(self.frame_path))
        return " ".join(parts)


class BoundingBox(_Frozen):
    """CSS pixels in document coordinates of the element's own frame."""

    x: float
    y: float
    width: float
    height: float


class Fingerprint(_Frozen):
    """What healing needs to recognise an element again (docs/discovery.md "Fingerprint")."""

    tag: str
    id: str | None = None
    name: str | None = None
    type: str | None = None
    role: str | None = None
    accessible_name: str = ""
    label: str | None = None
    placeholder: str | None = None
    text: str = ""
    test_ids: dict[str, str] = Field(default_factory=dict)
    classes: tuple[str, ...] = ()
    href: str | None = None
    alt: str | None = None
    title: str | None = None
    ancestor_path: tuple[str, ...] = Field(
        default=(), description="Nearest ancestor first, e.g. ('form#login', 'div.card')."
    )
    neighbour_text: tuple[str, ...] = ()
    _words = model_validator(mode="before")(without_glyphs("accessible_name", "text"))
    bounding_box: BoundingBox | None = None
    frame_path: tuple[str, ...] = ()
    in_shadow: bool = False
    popup: bool | None = Field(
        default=None,
        description="Whether the element opens a popup (aria-haspopup, a dropdown toggle): a "
        "menu's opener is never healed to a control that acts, nor the reverse. None when not "
        "recorded (fingerprints from before this field).",
    )
    rivals: tuple[str, ...] = Field(
        default=(),
        description="Names (lower case) of the other elements the step's words matched when "
        "this one was discovered, e.g. 'confirm password' for 'Password': healing never takes "
        "one of them for this element.",
    )


GatePointName = Literal["unique", "visible", "enabled", "stable", "scoped"]
GateCode = Literal[
    "ok",
    "none",
    "not_unique",
    "not_visible",
    "obscured",
    "detached",
    "disabled",
    "not_editable",
    "incompatible",
    "unstable",
    "not_scoped",
    "skipped",
]


class GatePoint(_Frozen):
    """One point of the five-point gate with the reason in plain words."""

    name: GatePointName
    ok: bool
    code: GateCode
    reason: str


class GateSnapshot(_Frozen):
    """The result of one in-page actionability check of one locator."""

    points: tuple[GatePoint, ...]
    count: int = Field(description="How many elements the locator resolved to.")
    box: BoundingBox | None = None
    changed: str | None = Field(
        default=None,
        description="Set when an identity check was asked for and the one element found is "
        'no longer the recorded one: why (e.g. \'it is now button#submit "Delete", '
        'recorded as "Save"\').',
    )
    text: str | None = Field(
        default=None,
        exclude=True,
        description="The one element's visible text when checked (whitespace collapsed, at "
        "most 200 characters; empty for form fields, whose values are never read). Kept for "
        "the step's trace; not recorded with the gate.",
    )
    dom_hash: str | None = Field(
        default=None,
        exclude=True,
        description="A hash of the document's markup when checked, for the step's trace; "
        "not recorded with the gate.",
    )
    settled: bool | None = Field(
        default=None,
        exclude=True,
        description="Whether the page was loaded (readyState complete) and unchanged (no "
        "DOM mutation) for two animation frames, watched before or during the check; None "
        "when that was not observed. Decides how soon a structural failure goes to healing; "
        "not recorded.",
    )
    reach: Literal["in_place", "scrolled", "widget", "label"] | None = Field(
        default=None,
        exclude=True,
        description="How the action reaches the one element: 'in_place' (a pointer action's "
        "hit test passed where the element is, or a select is shown itself), 'scrolled' (the "
        "hit test passed once the element was scrolled to the viewport's centre; the check "
        "put the scroll back), 'widget' (a hidden select a visible widget stands in for), "
        "'label' (a hidden checkbox or radio drawn by its own label: the pointer goes to "
        "the label). "
        "Tells the action which checks of its own it still needs; not recorded.",
    )
    quiet_ms: float | None = Field(
        default=None,
        exclude=True,
        description="How long before the check ended the document last changed (watched "
        "without a gap since the in-page code was installed). A check whose round trip "
        "took longer may have been given elements resolved before that change: its "
        "``settled`` does not count (engine/gate.py). Not recorded.",
    )
    shown: bool | None = Field(
        default=None,
        exclude=True,
        description="An opener's check (``shows``): whether the hidden element it is to show "
        "was on show when the check ended (rendered, not transparent: CSSOM View's "
        "checkVisibility); None when not asked or not found. Not recorded.",
    )

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.points)

    @property
    def failed(self) -> GatePoint | None:
        """The first failing point in gate order, or ``None`` when all pass."""
        return next((p for p in self.points if not p.ok), None)

    def point(self, name: GatePointName) -> GatePoint:
        return next(p for p in self.points if p.name == name)


class Candidate(_Frozen):
    """An element discovery considered but could not single out."""

    description: str
    score: float
    strategy: Strategy | None = None


class Opener(_Frozen):
    """A control that opens what holds a step's hidden element (a closed menu, drop-down,
    accordion section or tab panel), verified like a step's locator."""

    locator: Locator
    relation: str = Field(
        description="How it is known to open it: aria-controls, aria-labelledby, tab, "
        "details/summary, toggle (the nearest collapsed toggle beside it), or hover (the "
        "repeated item that holds it, pointed at, not clicked: CSS :hover)."
    )
    description: str
    shows: str | None = Field(
        default=None,
        description="The CSS path of the hidden element it is to show: the opener's check "
        "looks at it again, and an element on show by then is acted on without the opener.",
    )


class Unresolved(_Frozen):
    """Why a step has no accepted locator."""

    reason: Literal["none", "ambiguous", "not_actionable"]
    message: str
    candidates: tuple[Candidate, ...] = ()
    failed_point: GatePoint | None = None
    region_missing: bool = Field(
        default=False,
        description="Nothing matched because the step's region itself is not on the page (no "
        "container and no text of that name, in any frame).",
    )
    hidden_matches: int = Field(
        default=0,
        description="Hidden elements that match the step: it is waited for (they may be about "
        "to be shown), not failed as soon as the page is settled.",
    )
    openers: tuple[Opener, ...] = Field(
        default=(),
        description="The controls to click, in order, to show the hidden match (its menu, "
        "tab or section), when one is evident; the step opens them, then acts.",
    )
    opener_choices: tuple[str, ...] = Field(
        default=(),
        description="Several controls could open what holds the hidden match: nothing is "
        "guessed, the step fails naming them.",
    )


class RejectedLocator(_Frozen):
    """A locator the scan proposed that failed verification through Playwright."""

    locator: Locator
    reason: str


class DiscoveryResult(_Frozen):
    """The outcome of discovering one step's target.

    ``locator`` is set when an element was singled out and verified unique through
    Playwright, even when it is not actionable yet (``unresolved.reason ==
    "not_actionable"``: a button disabled until the form is valid is still the right
    element; the executor's gate waits for it). ``ok`` means verified *and* actionable.
    """

    element: str
    region: str | None = None
    action: str
    locator: Locator | None = None
    alternates: tuple[Locator, ...] = ()
    fingerprint: Fingerprint | None = None
    gate: GateSnapshot | None = None
    unresolved: Unresolved | None = None
    rejected: tuple[RejectedLocator, ...] = ()
    notes: tuple[str, ...] = Field(
        default=(),
        description="Warnings a person should read although the element was found, e.g. the "
        "step's region matched nothing on the page and the element was found page-wide.",
    )
    positional: bool = Field(
        default=False,
        description="The locator is the element's place in the page (its CSS path), the last "
        "resort when no semantic locator singles it out. Such a result is never bound ahead of "
        "its step's turn: words no locator can pin down may mean another element once the "
        "earlier steps have run.",
    )
    score: float | None = Field(
        default=None,
        description="The pick's confidence by discovery's evidence rule (the strategy level "
        "that decided it), when a locator was found.",
    )
    runner_up: float | None = Field(
        default=None,
        description="The best other element's confidence at that level, when any scored.",
    )
    batch_url: str | None = Field(
        default=None,
        description="Set when the step was discovered ahead of its turn, in one batch with an "
        "earlier step: the URL of the page it was found on. Run on another page, such a "
        "binding is discovered afresh (an earlier step may have navigated in between).",
    )

    @property
    def ok(self) -> bool:
        return self.locator is not None and self.unresolved is None
