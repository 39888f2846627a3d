"""Find first: resolve every pending step of a page state in one scan per frame.

``discover`` runs the in-page scan once in the top frame and once in each same-origin
iframe (all steps at once), merges the per-frame answers, then verifies each proposed
locator through Playwright itself: it must resolve to exactly one element, and to the very
element the scan chose. The first verified locator is the step's locator; the other
strategies that single the element out are its alternates (the first rung of healing, see
docs/healing.md). Round trips: one scan per frame, one verification per step (plus one per
alternate with ``verify_alternates``), one gate collection per frame (none with
``measure_still=False``: the scan answers the gate itself). ``Discoverer.send`` sends the top
frame's scan at once and does the rest when its answer is read.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Generic, TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.discovery import strategies
from pytest_pacts.discovery.payloads import (
    FrameInfo,
    JsonDict,
    ScanResult,
    ScanWithGates,
    checked,
)
from pytest_pacts.discovery.refusals import (
    ambiguous,
    candidates_of,
    describe,
    describe_raw,
    weigh,
    with_gate,
)
from pytest_pacts.discovery.scans import (
    FrameScan,
    SentScan,
    StepBase,
    gates_of,
    inside,
    locator_options,
    runner_up_score,
    structural_score,
    verify_in_page,
)
from pytest_pacts.discovery.step_values import scanned_steps
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.locator import (
    CONFIDENCE,
    Candidate,
    DiscoveryResult,
    Fingerprint,
    Locator,
    Opener,
    RejectedLocator,
    Strategy,
    Unresolved,
)
from pytest_pacts.models.requirement import Action, Target
from pytest_pacts.runtime.bridge import frame_info, sent_in_frame
from pytest_pacts.runtime.scripts import (
    PageScriptError,
    page_error,
)

K = TypeVar("K", bound=Hashable)
JSON = dict[str, object]
_scan_ids = itertools.count(1)


class SentDiscovery(Generic[K]):
    """A discovery begun by :meth:`Discoverer.send`: :meth:`result` answers it (the same
    answer when asked again), :meth:`drop` lets it go unread."""

    def __init__(
        self,
        discoverer: Discoverer,
        page: Page,
        targets: list[tuple[K, Target, Action]],
        steps: list[JSON],
        top: SentScan | None,
    ) -> None:
        self._discoverer, self._page, self._targets = discoverer, page, targets
        self._steps, self._top = steps, top
        self._answer: dict[K, DiscoveryResult] | None = None if targets else {}

    def result(self) -> dict[K, DiscoveryResult]:
        """What :meth:`Discoverer.discover` answers for these targets: the top frame's scan
        read, the other frames scanned, every chosen locator verified. Raises
        ``RuntimeError`` after :meth:`drop`."""
        if self._answer is None:
            top, self._top = self._top, None
            if top is None:
                raise RuntimeError("this discovery was dropped before it was read")
            self._answer = self._discoverer._finish(self._page, self._targets, self._steps, top)
        return self._answer

    def drop(self) -> None:
        if self._top is not None:
            self._top.answer.drop()
            self._top = None


class Discoverer:
    """Discovery with its options; stateless between calls, so one instance can be shared.

    ``strategies`` limits and orders the strategies (default: all, in the order of
    docs/discovery.md);
    ``max_alternates`` caps the alternates kept per step; ``search_frames`` turns the
    same-origin iframe search off; ``measure_still=False`` leaves the gate snapshot's
    "stable" to the step's gate right before the action (healing's re-discovery: its
    locator is gated again before it is acted on), so the snapshot costs no animation frame.

    The chosen locator is always verified through Playwright. Alternates are unique by the
    in-page estimate; ``verify_alternates=True`` also verifies each through Playwright (one
    round trip each). Either way the healer gates an alternate before using it.

    ``evidence`` is the rule a pick must pass to be used (models/evidence.py): its own
    confidence at least the threshold, and at least the margin above the best other element
    the words name at the level that decided it. A pick below it is answered unresolved
    (``none`` when it scores too little, ``ambiguous`` when a look-alike is too close), with
    both scores and what would make the name unique, and nothing is verified or gated.
    """

    def __init__(
        self,
        *,
        strategies: Sequence[Strategy] | None = None,
        max_alternates: int = 3,
        search_frames: bool = True,
        verify_alternates: bool = False,
        measure_still: bool = True,
        evidence: EvidenceRule | None = None,
    ) -> None:
        self.strategies = tuple(strategies) if strategies else tuple(s.strategy for s in _table())
        self.evidence = evidence or EvidenceRule()
        self.max_alternates = max_alternates
        self.search_frames = search_frames
        self.verify_alternates = verify_alternates
        self.measure_still = measure_still

    def under(self, evidence: EvidenceRule) -> Discoverer:
        """This discoverer held to ``evidence`` instead (itself when it already is)."""
        if evidence == self.evidence:
            return self
        ruled = copy.copy(self)
        ruled.evidence = evidence
        return ruled

    def discover(
        self,
        page: Page,
        targets: Sequence[tuple[K, Target, Action]],
        *,
        at_turn: int = 0,
        values: Mapping[K, str] | None = None,
    ) -> dict[K, DiscoveryResult]:
        """Resolve ``targets`` (key, ``Element@Region``, action) on the page as it is now.
        ``at_turn``: how many of the first targets are the step that acts next, on this page
        (``True``: the first; healing asks for its step with and without its region): keyboard
        focus is evidence for their ``press`` (docs/discovery.md, "A key goes to the focus").
        ``values``: the options select steps name, by key (``step_values.values_of``).

        Raises Playwright's ``Error`` when the top frame cannot be scanned (closed, or
        navigating away mid-scan); a child frame that goes away is simply not searched.
        """
        return self.send(page, targets, at_turn=at_turn, values=values).result()

    def send(
        self,
        page: Page,
        targets: Sequence[tuple[K, Target, Action]],
        *,
        at_turn: int = 0,
        values: Mapping[K, str] | None = None,
    ) -> SentDiscovery[K]:
        """:meth:`discover` begun now: the top frame's scan is sent at once (its round trip
        overlaps the page calls made before :meth:`SentDiscovery.result`, which does the
        rest and answers as :meth:`discover` does). Raises ``ValueError`` at once for a
        target whose action finds no element."""
        for key, _target, action in targets:
            if not Action(action).needs_element and action not in _OPTIONAL_ELEMENT:
                raise ValueError(f"step {key!r}: {Action(action).value} has no element to find")
        steps: list[JSON] = scanned_steps(targets, at_turn, values)
        top = self._send_scan(page.main_frame, steps) if targets else None
        return SentDiscovery(self, page, list(targets), steps, top)

    def _finish(
        self,
        page: Page,
        targets: list[tuple[K, Target, Action]],
        steps: list[JSON],
        top: SentScan,
    ) -> dict[K, DiscoveryResult]:
        regions = sorted({t.region for _k, t, _a in targets if t.region})
        frames = self._frames(page, regions)
        scans = [self._scanned(top, ())]  # the top frame's, sent ahead; raises if it failed
        scans += [
            self._scan(frame, path, [inside(step, held) for step in steps])
            for frame, path, held in frames[1:]
        ]
        found = [s for s in scans if s is not None]
        chosen: dict[str, tuple[FrameScan, int]] = {}
        results = {
            key: self._resolve(page, str(i), target, Action(action), found, chosen)
            for i, (key, target, action) in enumerate(targets)
        }
        # The gate snapshots were measured in the page while we verified; collect them.
        scans_used = {scan.scan_id: scan for scan, _index in chosen.values()}
        gates = {
            scan_id: scan.gates if scan.gates is not None else gates_of(scan)
            for scan_id, scan in scans_used.items()
        }
        for i, (key, _target, action) in enumerate(targets):
            if str(i) in chosen:
                scan, index = chosen[str(i)]
                waits = Action(action).observes
                results[key] = with_gate(results[key], gates[scan.scan_id], index, waits=waits)
        return results

    # -- scanning ---------------------------------------------------------------------------

    def _frames(
        self, page: Page, regions: list[str]
    ) -> list[tuple[Frame, tuple[str, ...], frozenset[str]]]:
        """The frames to scan: the top one and same-origin iframes, each with its frame path
        and the step regions that hold its iframe element (so hold the whole frame)."""
        out: list[tuple[Frame, tuple[str, ...], frozenset[str]]] = [
            (page.main_frame, (), frozenset())
        ]
        if not self.search_frames:
            return out

        def visit(frame: Frame, path: tuple[str, ...], held: frozenset[str]) -> None:
            for child in frame.child_frames:
                try:
                    info = checked(
                        frame_info(frame, child, {"regions": regions}),
                        FrameInfo,
                        "the in-page 'frameInfo' call",
                    )
                except PlaywrightError:  # detached while we looked: nothing to search
                    continue
                if not info["same_origin"]:  # a cross-origin frame cannot be read
                    continue
                child_path = (*path, info["selector"])
                flags = info["in_regions"]
                child_held = held | {r for r, inside in zip(regions, flags, strict=True) if inside}
                out.append((child, child_path, child_held))
                visit(child, child_path, child_held)

        visit(page.main_frame, (), frozenset())
        return out

    def _send_scan(self, frame: Frame, steps: list[JSON]) -> SentScan:
        scan_id = f"s{next(_scan_ids)}"
        args = {
            "scan_id": scan_id,
            "steps": steps,
            "strategies": [s.value for s in self.strategies],
            **strategies.scoring(),
            "still": self.measure_still,
        }
        what = "the in-page discovery scan"
        return SentScan(frame, scan_id, sent_in_frame(frame, what, "scan", args))

    def _scan(self, frame: Frame, path: tuple[str, ...], steps: list[JSON]) -> FrameScan | None:
        return self._scanned(self._send_scan(frame, steps), path)

    def _scanned(self, sent: SentScan, path: tuple[str, ...]) -> FrameScan | None:
        """The scan's answer read; ``None`` for a child frame that went away meanwhile."""
        what = "the in-page discovery scan"
        frame, scan_id = sent.frame, sent.scan_id
        try:
            answer = sent.answer.result()
            if self.measure_still:
                results = checked(answer, list[ScanResult], what)
                return FrameScan(frame, path, scan_id, results)
            both = checked(answer, ScanWithGates, what)
        except PlaywrightError as exc:
            if not path:
                raise page_error(exc, what) from exc
            return None  # a child frame navigated or went away mid-scan
        return FrameScan(frame, path, scan_id, both["results"], both["gates"])

    # -- merging and verification ------------------------------------------------------------

    def _resolve(
        self,
        page: Page,
        key: str,
        target: Target,
        action: Action,
        scans: list[FrameScan],
        chosen: dict[str, tuple[FrameScan, int]],
    ) -> DiscoveryResult:
        base = StepBase(target.element, target.region, action.value)
        answers = [(s, next(r for r in s.results if r["key"] == key)) for s in scans]
        ranked = [(s, r) for s, r in answers if r["rank"] is not None]
        if not ranked:
            message = str(answers[0][1].get("message", "no element matches"))
            missing = bool(answers) and all(r.get("region_missing") for _s, r in answers)
            hidden = sum(r.get("hidden", 0) for _s, r in answers)
            openers, choices = self._openers(page, answers)
            unresolved = Unresolved(
                reason="none",
                message=message,
                region_missing=missing,
                hidden_matches=hidden,
                openers=openers,
                opener_choices=choices,
                candidates=candidates_of(answers[0][1]),
            )
            return DiscoveryResult(**base.fields(), unresolved=unresolved)
        best = min(r["rank"] or 0 for _s, r in ranked)
        top = [(s, r) for s, r in ranked if r["rank"] == best]
        if len(top) > 1 or top[0][1]["status"] == "ambiguous":
            return DiscoveryResult(**base.fields(), unresolved=ambiguous(target, top))
        scan, raw = top[0]
        refused = weigh(self.evidence, target, raw)
        if refused is not None:
            return DiscoveryResult(**base.fields(), unresolved=refused)
        chosen[key] = (scan, raw["element_index"])
        result = self._verify(page, scan, raw, base)
        if result.positional and result.score is not None:
            # only its place in the page locates the pick: the rule weighs its capped score
            refused = weigh(self.evidence, target, {**raw, "score": result.score})
            if refused is not None:
                del chosen[key]
                return DiscoveryResult(**base.fields(), unresolved=refused)
        return result

    def _openers(
        self, page: Page, answers: list[tuple[FrameScan, ScanResult]]
    ) -> tuple[tuple[Opener, ...], tuple[str, ...]]:
        """The verified controls that open a hidden match (docs/user-guide.md, "Menus, tabs
        and disclosures"), from the first frame that names any; or the choices when several
        could. A link no locator singles out makes the whole chain not evident: nothing."""
        for scan, raw in answers:
            opener = raw.get("opener")
            if not opener:
                continue
            if opener.get("choices"):
                return (), tuple(opener["choices"])
            chain: list[Opener] = []
            for link in opener.get("chain") or []:
                shaped: JsonDict = {
                    "options": link["options"],
                    "structural": link["structural"],
                    "element_index": link["element_index"],
                }
                locator = self._verified(page, scan, shaped)
                if locator is None:
                    return (), ()
                chain.append(
                    Opener(
                        locator=locator,
                        relation=link["relation"],
                        description=link["description"],
                        shows=opener.get("shows"),
                    )
                )
            return tuple(chain), ()
        return (), ()

    def _verified(self, page: Page, scan: FrameScan, shaped: JsonDict) -> Locator | None:
        """The first of an opener's locators that resolves, through Playwright, to exactly
        the element the scan chose."""
        options: list[JsonDict] = list(shaped["options"])
        if shaped["structural"]:
            css = {"strategy": Strategy.CSS.value, "confidence": CONFIDENCE[Strategy.CSS]}
            options.append({**css, "css": shaped["structural"]})
        for option in options:
            locator = Locator.model_validate({**option, "frame_path": scan.path})
            try:
                check = verify_in_page(page, scan, shaped["element_index"], locator)
            except (PlaywrightError, strategies.UnrenderableLocator):
                continue
            if check["same"]:
                return locator
        return None

    # long because: each locator option tried in order against one scan result; the refusals read
    # together
    def _verify(
        self, page: Page, scan: FrameScan, raw: ScanResult, base: StepBase
    ) -> DiscoveryResult:
        accepted: list[Locator] = []
        rejected: list[RejectedLocator] = []
        seen: list[str] = []
        broken: list[PageScriptError] = []  # checks the page's own scripts made throw
        notes: list[str] = []
        positional = False
        for option in locator_options(raw):
            if len(accepted) > self.max_alternates:
                break
            structural = bool(option.pop("structural", False))
            if structural and accepted:
                break  # the last resort, only when nothing above it was accepted
            locator = Locator.model_validate({**option, "frame_path": scan.path})
            if accepted and not self.verify_alternates:
                accepted.append(locator)
                continue
            try:
                check = verify_in_page(page, scan, raw["element_index"], locator)
            except (PlaywrightError, strategies.UnrenderableLocator) as exc:
                if isinstance(exc, PageScriptError):
                    broken.append(exc)
                rejected.append(RejectedLocator(locator=locator, reason=str(exc).splitlines()[0]))
                continue
            if check["same"]:
                if structural:
                    positional = True
                    notes.append(
                        f"no semantic locator singles out {describe_raw(raw)}: it is located by "
                        f"its place in the page ({locator.describe()}), which a change of the "
                        "layout breaks; a region, the text it shows or a test id would not"
                    )
                accepted.append(locator)
                continue
            found = check["found"]
            seen.extend(found)
            reason = (
                f"resolves to {check['count']} elements through Playwright"
                if check["count"] != 1
                else f"resolves to a different element ({found[0]})"
            )
            rejected.append(RejectedLocator(locator=locator, reason=reason))
        fingerprint = Fingerprint.model_validate({**raw["fingerprint"], "frame_path": scan.path})
        score = raw.get("score")
        if not accepted and broken and len(broken) == len(rejected):
            # the element is there (the scan found it); no locator could be checked because
            # the page's scripts broke the check: say so, not "not found"
            raise PageScriptError(
                f"the scan found {describe(fingerprint)}, but checking each of its "
                f"{len(broken)} locators through Playwright failed: {broken[0]}"
            ) from broken[0]
        if not accepted:
            lost = Unresolved(
                reason="ambiguous" if seen else "none",
                message=(
                    f"the scan singled out {describe(fingerprint)}, but no locator of it, "
                    "not even its place in the page, resolves to exactly that element"
                ),
                candidates=tuple(Candidate(description=d, score=0.0) for d in dict.fromkeys(seen)),
            )
            return DiscoveryResult(**base.fields(), fingerprint=fingerprint,
                                   unresolved=lost, rejected=tuple(rejected))  # fmt: skip
        return DiscoveryResult(
            **base.fields(),
            locator=accepted[0],
            alternates=tuple(accepted[1:]),
            fingerprint=fingerprint,
            rejected=tuple(rejected),
            notes=tuple(notes),
            positional=positional,
            score=structural_score(score) if positional and score is not None else score,
            runner_up=runner_up_score(raw),
        )


# ``press`` may name an element or act on the focused one; ``wait`` may name the element to
# wait for (it must become visible; nothing acts on it).
_OPTIONAL_ELEMENT = frozenset({Action.PRESS, Action.WAIT})


def _table() -> list[strategies.StrategyInfo]:
    return strategies.table()


def discover(
    page: Page,
    targets: Sequence[tuple[K, Target, Action]],
    *,
    strategies: Sequence[Strategy] | None = None,
    max_alternates: int = 3,
    search_frames: bool = True,
    verify_alternates: bool = False,
) -> dict[K, DiscoveryResult]:
    """Resolve every target on the current page state: one scan per frame for all targets.

    Returns one :class:`~pytest_pacts.models.locator.DiscoveryResult` per key: a verified
    locator with alternates, the element's fingerprint and its gate snapshot, or why not
    (``none``, ``ambiguous`` with candidates, ``not_actionable`` with the failed point).
    """
    discoverer = Discoverer(
        strategies=strategies,
        max_alternates=max_alternates,
        search_frames=search_frames,
        verify_alternates=verify_alternates,
    )
    return discoverer.discover(page, targets)
