"""The shapes of what the in-page JavaScript sends back, checked where they enter Python.

Every in-page API function (``js/api.js`` for discovery, ``runtime/js/healing.js``
for healing) returns plain JSON. Each has a ``TypedDict`` here, next to the function that
returns it, and every call names the shape it expects (:func:`checked`): a page that broke
a built-in the scripts rely on, or a script change that forgot a field, fails at the
boundary with a message naming the call and the field, instead of a ``KeyError`` three
functions later. Types are checked strictly (the string ``"yes"`` is no ``bool``). Unknown
keys are kept (``extra="allow"``); nested fingerprints and locator specs stay plain dicts
here because the pydantic models that own them (``Fingerprint``, ``Locator``,
``GateSnapshot``) validate them when they are built.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from pytest_pacts.errors import PactsError

T = TypeVar("T")

JsonDict = dict[str, Any]
"""A nested object another model validates (a fingerprint, a locator spec, a gate)."""

_OPEN = ConfigDict(extra="allow")


class PayloadError(PactsError, ValueError):
    """An in-page call answered with something other than the shape its Python caller
    expects: the page replaced a JavaScript built-in the scripts use, or the scripts and
    the Python code disagree (a bug: please report it with the message)."""


# -- discovery (js/api.js) ---------------------------------------------------------------------


@with_config(_OPEN)
class FrameInfo(TypedDict):
    """``frameInfo(iframe, {regions})``: how the parent names an iframe and whether it can be
    read."""

    same_origin: bool
    selector: str
    in_regions: list[bool]


@with_config(_OPEN)
class ScanCandidate(TypedDict):
    """One of the equally good matches of an ambiguous step."""

    description: str
    score: float
    strategy: str


@with_config(_OPEN)
class RunnerUp(TypedDict):
    """The best other element a found step's words name at the level that decided it."""

    score: float
    strategy: str
    description: str


@with_config(_OPEN)
class OpenerLink(TypedDict):
    """A control that opens what holds a hidden match (a closed menu, a tab panel): the
    scan's index of it, its locator options and CSS path, how it is related."""

    element_index: int
    relation: str
    description: str
    options: list[JsonDict]
    structural: str | None


@with_config(_OPEN)
class ScanOpener(TypedDict):
    """What opens a step's hidden match: the ``chain`` to click, outermost first, or the
    ``choices`` (descriptions) when several controls could; ``shows``: the CSS path of the
    hidden match itself, which the chain's checks look at again (engine/openers.py)."""

    chain: NotRequired[list[OpenerLink]]
    choices: NotRequired[list[str]]
    shows: NotRequired[str | None]


@with_config(_OPEN)
class ScanResult(TypedDict):
    """``scan({steps, ...})``, one per step: ``found`` (with the element's index among the
    scan's chosen elements, its locator options best first and its fingerprint),
    ``ambiguous`` (with candidates) or ``none`` (with a message)."""

    key: str
    status: Literal["found", "ambiguous", "none"]
    rank: int | None
    strategy: NotRequired[str]
    element_index: NotRequired[int]
    options: NotRequired[list[JsonDict]]
    fingerprint: NotRequired[JsonDict]
    candidates: NotRequired[list[ScanCandidate]]
    message: NotRequired[str]
    region_missing: NotRequired[bool]
    hidden: NotRequired[int]
    score: NotRequired[float]  # a found element's own confidence
    structural: NotRequired[str | None]  # its CSS path, the last resort to locate it
    runner_up: NotRequired[RunnerUp | None]  # the best other element at the deciding level
    opener: NotRequired[ScanOpener | None]  # what opens a hidden match (status none)


@with_config(_OPEN)
class ScanWithGates(TypedDict):
    """``scan({..., still: false})``: the steps' results and the chosen elements' gate
    snapshots at once (without "stable" there is no animation frame to wait for)."""

    results: list[ScanResult]
    gates: list[JsonDict]


@with_config(_OPEN)
class VerifyResult(TypedDict):
    """``verify(elements, {scan_id, index})``: does a rendered locator resolve to exactly
    the element the scan chose? ``found`` describes up to five elements it resolves to."""

    count: int
    same: bool
    found: list[str]


# ``gates({scan_id})``: one gate snapshot per chosen element (``GateSnapshot`` validates
# each), or ``None`` when the page lost the scan (a navigation).
Gates = list[JsonDict] | None

# ``check(elements, {...})``: one gate snapshot, validated by ``GateSnapshot``.
GateCheck = JsonDict

# ``suggest({element, action, limit})``: names on the page close to the step's words.
Suggestions = list[str]


# -- healing (runtime/js/healing.js) ----------------------------------------------------


@with_config(_OPEN)
class RankedCandidate(TypedDict):
    """One element of ``rank``'s ranking by similarity to the recorded fingerprint."""

    index: int
    score: float
    parts: dict[str, float]
    anchor: float
    description: str
    fits: bool


@with_config(_OPEN)
class RankResult(TypedDict):
    """``rank({fp, action, weights, limit, heal_id, ...})``: the best candidates of a frame."""

    considered: int
    candidates: list[RankedCandidate]


@with_config(_OPEN)
class LocateResult(TypedDict):
    """``locate({heal_id, index, order})``: every unique rendering of a ranked element, most
    semantic first, and its fresh fingerprint (``None`` when the element is gone)."""

    specs: list[JsonDict]
    fingerprint: JsonDict | None


@with_config(_OPEN)
class SameElement(TypedDict):
    """``isSame(elements, {heal_id, index})``: does a locator resolve to the ranked element?"""

    count: int
    same: bool


@with_config(_OPEN)
class ScoreResult(TypedDict):
    """``scoreOf(elements, {fp, weights})``: the similarity of what a locator resolves to."""

    count: int
    score: float | None
    fingerprint: JsonDict | None
    anchor: NotRequired[float | None]
    description: NotRequired[str]
    parts: NotRequired[dict[str, float]]


@with_config(_OPEN)
class ProbeRanking(TypedDict):
    """Where the recorded fingerprint's ranking puts a probed element: inside the step's
    region's containers, the best-ranked element itself, and the best candidates."""

    inside: bool
    same: bool
    candidates: list[JsonDict]


@with_config(_OPEN)
class ProbeResult(ScoreResult):
    """``probe(elements, {fp, weights, gate, rank})``: ``scoreOf``, then for one element the
    gate (``stale`` when it was replaced while its box moved) and the ranking."""

    gate: NotRequired[JsonDict]
    stale: NotRequired[bool]
    ranking: NotRequired[ProbeRanking]
    other: NotRequired[bool]  # with ``expect``: not the element ``resolveAll`` chose
    below: NotRequired[bool]  # with ``min_score``: its similarity is not above it (not gated)


@with_config(_OPEN)
class Resolution(TypedDict):
    """One spec of ``resolveAll``: ``supported`` (the strategy has an in-page rendering),
    how many elements it matches, and for exactly one the element's place in the answer."""

    supported: bool
    count: NotRequired[int]
    index: NotRequired[int]


@with_config(_OPEN)
class ResolveAllResult(TypedDict):
    """``resolveAll({heal_id, specs, fp, weights})``: several locators resolved in the page
    at once, and ``scoreOf``'s answer for each element one of them singles out."""

    results: list[Resolution]
    elements: list[ScoreResult]


@with_config(_OPEN)
class SameGate(SameElement):
    """``sameGate(elements, {heal_id, index, gate})``: ``isSame``, and the gate when same."""

    gate: NotRequired[JsonDict]


@with_config(_OPEN)
class OverlayResult(TypedDict):
    """``overlayAt(elements, {heal_id, words})``: what covers the element's centre, if
    anything, and the button that dismisses it."""

    covered: bool
    overlay: NotRequired[str | None]
    cover: NotRequired[str]
    own: NotRequired[str | bool]
    button: NotRequired[str | None]


_adapters: dict[object, TypeAdapter[Any]] = {}


def _adapter(shape: Any) -> TypeAdapter[Any]:
    adapter = _adapters.get(shape)
    if adapter is None:
        adapter = _adapters[shape] = TypeAdapter(shape)
    return adapter


def checked(value: object, shape: type[T], what: str) -> T:
    """``value`` (an in-page call's answer) as ``shape``; :class:`PayloadError` naming
    ``what`` and the first wrong field otherwise."""
    try:
        return _adapter(shape).validate_python(value, strict=True)  # type: ignore[no-any-return]
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the answer"
        raise PayloadError(
            f"{what} answered with an unexpected shape: {where}: {first['msg']} "
            f"(got {str(value)[:200]!r})"
        ) from None


__all__ = [
    "FrameInfo",
    "GateCheck",
    "Gates",
    "LocateResult",
    "OverlayResult",
    "PayloadError",
    "ProbeRanking",
    "ProbeResult",
    "RankResult",
    "RankedCandidate",
    "Resolution",
    "ResolveAllResult",
    "SameElement",
    "SameGate",
    "ScanCandidate",
    "ScanResult",
    "ScanWithGates",
    "ScoreResult",
    "Suggestions",
    "VerifyResult",
    "checked",
]
