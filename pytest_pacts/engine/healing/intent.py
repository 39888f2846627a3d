"""Rungs that try locators chosen by intent rather than by scoring (rungs 1, 3, 4).

Each candidate locator must resolve to exactly one element, pass the five-point gate, and
agree with the recorded fingerprint (:func:`~.fingerprint_check.agreement`) before it is used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pytest_pacts.discovery.refusals import unique_hint
from pytest_pacts.engine.contracts import HealContext, Resolved, RungResult
from pytest_pacts.engine.healing.basics import locator_json
from pytest_pacts.engine.healing.fingerprint_check import agreement, probed_agreement
from pytest_pacts.engine.healing.keys import keyed
from pytest_pacts.engine.healing.names import exact_name, names_intent, rival
from pytest_pacts.engine.healing.operable import inoperable
from pytest_pacts.engine.healing.probing import Probe, Probing, gate_evidence, probe
from pytest_pacts.engine.healing.resolving import Element, matches_none, resolve, resolved_key
from pytest_pacts.engine.healing.scoring import ANCHOR_MIN
from pytest_pacts.models.evidence import Evidence
from pytest_pacts.models.locator import CONFIDENCE, GateSnapshot, Locator, Strategy
from pytest_pacts.models.outcome import HealRung


# long because: mostly its docstring; the body sets up and hands to _try_locators
def try_locators(
    ctx: HealContext,
    rung: HealRung,
    options: Iterable[tuple[Locator, float, Mapping[str, object]]],
    what: str,
    *,
    need_anchor: bool = True,
    gated: Mapping[Locator, GateSnapshot] | None = None,
    none_likely: bool = False,
    expect: Mapping[Locator, Element] | None = None,
    gone: Locator | None = None,
    min_score: float | None = None,
    by_identity: bool = False,
    region_gone: bool = False,
) -> RungResult | None:
    """The first option that is unique, gated and agrees with the fingerprint, accepted;
    otherwise a declined result listing why each failed. ``None`` when there are none.

    An option whose element is not named by the step's words must also share one of the
    recorded element's own attributes, unless ``need_anchor`` is off (healing memory, whose
    records carry their own evidence of having worked for this element).

    ``gated``: gates this rung measured already (discovery's, on the element it verified a
    locator resolves to), so a passing one is not measured again (:func:`~.probing.probe`).
    ``none_likely``: the options usually all match nothing (the alternates of a locator
    that broke): one round trip first counts what any of them matches, and when that is
    nothing, none is asked about alone; with ``region_gone`` (the failing locator's region
    was counted on no element this round), those inside that region are not counted at all.
    ``expect``: the element an in-page estimate chose for an option
    (:func:`~.resolving.estimate_all`): the option is refused when Playwright resolves it to
    another one. ``gone``: a locator whose region the rung has just found on no element on
    the page: the step's region is not looked up again for it. ``min_score``: an option
    whose similarity to the recorded fingerprint is not above it is refused before its gate
    is measured (the caller refuses it anyway).
    ``by_identity``: the options come from a record (an alternate, healing memory), not
    from the step's words: an option is accepted only when the element it finds is
    re-scored as the recorded one under the evidence rule (:func:`_identity`), whatever
    confidence its strategy or record carries.
    """
    probing = Probing(ctx)
    if gone is not None:
        probing.gone(gone)
    if none_likely:
        options = list(options)
        others = [loc for loc, _score, _extra in options if loc != ctx.state.locator]
        matches_none(ctx, others, region_gone)
    try:
        return _try_locators(
            ctx,
            rung,
            options,
            what,
            need_anchor,
            probing,
            gated or {},
            expect or {},
            min_score,
            by_identity,
        )
    finally:
        probing.close()


# long because: each option judged in order (resolve, gate, agreement, exact name); the reasons kept
# together
def _try_locators(
    ctx: HealContext,
    rung: HealRung,
    options: Iterable[tuple[Locator, float, Mapping[str, object]]],
    what: str,
    need_anchor: bool,
    probing: Probing,
    gated: Mapping[Locator, GateSnapshot],
    expect: Mapping[Locator, Element],
    min_score: float | None = None,
    by_identity: bool = False,
) -> RungResult | None:
    notes: list[str] = []
    current = ctx.state.locator
    for locator, score, extra in options:
        if locator == current:
            continue
        # one round trip for the count, the gate and the ranking where that is possible
        usable = probing.usable(locator)
        known = ctx.resolved.get(resolved_key(locator, ctx.state.fingerprint))
        probed: Probe | None = None
        if known is not None and known.count == 0:
            found = known  # counted with the other options just now
        elif usable:
            probed = probe(
                ctx, locator, probing, gated.get(locator), expect.get(locator), min_score
            )
            found = probed.found
            if probed.other:
                notes.append(
                    f"{locator.describe()}: resolves to another element than the page's "
                    "own estimate"
                )
                continue
            if probed.below and found.score is not None and min_score is not None:
                notes.append(
                    f"{locator.describe()}: matches the recorded element only at "
                    f"{found.score:.2f} (needs at least {min_score:.2f}, or two independent "
                    "locators agreeing)"
                )
                continue
        else:
            found = resolve(ctx.page, locator, ctx.state.fingerprint, ctx.resolved)
        if found.count != 1:
            notes.append(f"{locator.describe()}: resolves to {found.count} elements")
            continue
        other = rival(ctx.state.fingerprint, found.fingerprint)
        if other is not None:
            notes.append(f"{locator.describe()}: {other}")
            continue
        measured = probed.gate if probed is not None else None
        ok, why, evidence = measured if measured is not None else gate_evidence(ctx, locator)
        if not ok:
            notes.append(f"{locator.describe()}: {why}")
            continue
        target = ctx.state.step.target
        named = target is not None and names_intent(target.element, found.fingerprint)
        if (
            need_anchor
            and not named
            and found.anchor is not None
            and found.anchor < ANCHOR_MIN
            and not same_member(ctx, locator, found)
        ):
            # neither named by the step nor sharing one of the recorded element's own
            # attributes: "the only checkbox near the text" is another checkbox once the
            # right one is gone
            notes.append(
                f"{locator.describe()}: {found.description} is not named by the step and "
                "shares none of the recorded element's own attributes"
            )
            continue
        conflict, runner_up, ranking_only = _agreement(ctx, locator, found, probed, probing)
        reason = f"{what} {locator.describe()} is unique and {why}"
        exact: str | None = None
        if conflict is not None:
            exact = exact_name(ctx, locator, found) if ranking_only else None
            if exact is None:
                notes.append(f"{locator.describe()}: {conflict}")
                continue
            reason += f"; {exact}, so the recorded fingerprint's ranking does not overrule it"
        dead = inoperable(ctx, locator, found.fingerprint)
        if dead is not None:
            notes.append(f"{locator.describe()}: {dead}")
            continue
        if by_identity:
            judged = _identity(ctx, locator, found, runner_up, exact)
            if isinstance(judged, str):
                notes.append(f"{locator.describe()}: {judged}")
                continue
            score, runner_up, said = judged
            reason += f"; {said}"
        # Score and runner-up are both similarities to the recorded fingerprint (this
        # element's, the best other element's), as in every rung; the locator's own
        # confidence is kept in the evidence.
        return RungResult(
            rung=rung,
            accepted=True,
            reason=reason,
            locator=locator,
            fingerprint=found.fingerprint,
            score=score if by_identity or found.score is None else found.score,
            runner_up_score=runner_up,
            evidence={
                **evidence,
                **extra,
                "healed_locator": locator_json(locator),
                "fingerprint_score": found.score,
                "locator_confidence": score,
            },
        )
    if not notes:
        return None
    return RungResult(rung=rung, accepted=False, reason=f"no usable {what}: " + "; ".join(notes))


# long because: the evidence rule's cases for a recorded locator, each returning its reason
def _identity(
    ctx: HealContext,
    locator: Locator,
    found: Resolved,
    runner_up: float | None,
    exact: str | None,
) -> tuple[float, float | None, str] | str:
    """The evidence rule on an element found by a recorded locator (an alternate, a
    remembered heal): ``(score, runner-up, why)`` when it is accepted, else why not, with
    what would make the step's name unique.

    A recorded locator says where the element *was*; that it still resolves says nothing
    about which element it finds now. So the hit is scored by evidence, never by the
    strategy's fixed confidence or the record's success rate: by its **identity** (its
    similarity to the recorded fingerprint, against the best other element's) or by its
    **name** (it is the only visible control of the recorded kind whose name is exactly the
    recorded one and the step's words, :func:`~.names.exact_name`: what discovery's
    role-and-name strategy would score). Below the rule, the rung declines before acting
    and later rungs decide."""
    rule = ctx.options.evidence
    target = ctx.state.step.target
    verdict = None if found.score is None else rule.verdict(found.score, runner_up)
    if found.score is not None and verdict is Evidence.ACCEPTED:
        said = rule.explain(found.score, runner_up)
        return found.score, runner_up, f"the same element by identity ({said})"
    if found.score is not None and rule.corroborated(found.score, runner_up):
        # Two independent sources single out one element: the recorded locator by the
        # element's id (HTML: an id is unique in its document), or by a form name or a link
        # address the document has once (keys.py), finds it, and of all elements it is the
        # one most like the recorded fingerprint. A look-alike within the margin does not
        # outvote that (models/evidence.py, "corroborated").
        key = "id" if by_id(locator) else keyed(ctx, locator, found)
        if key is not None:
            return (
                found.score,
                runner_up,
                f"the same element by identity ({found.score:.2f}, at least the threshold "
                f"{rule.threshold:.2f}), the one most like the recorded element, which the "
                f"recorded {key} still finds",
            )
    if exact is None and found.fingerprint is not None and ctx.state.fingerprint is not None:
        exact = exact_name(ctx, locator, found)
    if exact is not None:
        return CONFIDENCE[Strategy.ROLE_NAME], None, "named exactly as recorded"
    if found.score is None:
        return (
            f"{found.description or 'the element'} cannot be re-scored: no fingerprint was "
            "recorded to tell it is the same element"
        )
    shown = found.fingerprint.accessible_name if found.fingerprint is not None else ""
    hint = (
        unique_hint(target, " ".join(shown.split()), ordinal=verdict is Evidence.CLOSE)
        if target is not None
        else ""
    )
    return (
        f"{found.description} is the recorded element only by weak evidence: its "
        f"{rule.explain(found.score, runner_up)}" + (f"; {hint}" if hint else "")
    )


def same_member(ctx: HealContext, locator: Locator, found: Resolved) -> bool:
    """Is ``found`` the recorded control's member of its form group in the item the step
    names? HTML's form submission makes controls of one ``name`` one group (a list's row
    boxes, ``<input type=checkbox name=uuids value=...>``, one per row; a radio group), so
    the name alone says which group, not which member, and is no anchor by itself
    (``runtime/js/healing.js``). Inside the step's own region (``Box@Row``, a locator
    scoped by the region as the step wrote it) the region picks the member: the same tag,
    type and group name there is the recorded control. Another control in the row (another
    group's box, a box with no name) is not."""
    target = ctx.state.step.target
    was = ctx.state.fingerprint
    now = found.fingerprint
    region = locator.region
    if target is None or not target.region or region is None or was is None or now is None:
        return False
    if " ".join(region.description.split()).lower() != " ".join(target.region.split()).lower():
        return False
    return (
        bool(was.name)
        and now.name == was.name
        and now.tag.lower() == was.tag.lower()
        and (now.type or "").lower() == (was.type or "").lower()
    )


_ID_SELECTOR = re.compile(r"#(?:[A-Za-z_]|\\.)(?:[\w-]|\\.)*")


def by_id(locator: Locator) -> bool:
    """A CSS locator that is one element id and nothing else (``#id_permissions_input``):
    the HTML standard makes an id unique in its document, so it names one element by
    itself."""
    return (
        locator.strategy is Strategy.CSS
        and locator.host is None
        and locator.css is not None
        and _ID_SELECTOR.fullmatch(locator.css.strip()) is not None
    )


def _agreement(
    ctx: HealContext, locator: Locator, found: Resolved, probed: Probe | None, probing: Probing
) -> tuple[str | None, float | None, bool]:
    if probed is not None and probed.gate is not None and probed.ranking is not None:
        return probed_agreement(ctx, found, probing.scope(), probed.ranking)
    return agreement(ctx, locator, found)
