"""The failures of a step whose element discovery did not single out: what was searched,
the candidates and their scores, the closest visible names, a region the page does not
mention."""

from __future__ import annotations

from pytest_pacts.models import Step
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import Failure, FailureType

WRONG_KIND = ", which is no element a "
"""How the page's scan says the step's words name only elements of a kind its action cannot
operate (``resolve.js``): a ``not_found`` then has the cause ``wrong_kind``."""


def discovery_failure(step: Step, result: DiscoveryResult | None, waited_ms: float) -> Failure:
    target = step.target.key if step.target else "?"
    if result is None or result.unresolved is None:
        message = f'no element for "{target}" was found'
        return Failure(type=FailureType.NOT_UNIQUE, message=message, step_index=step.index)
    unresolved = result.unresolved
    evidence = [unresolved.message, f"searched for {waited_ms:.0f} ms"]
    evidence += [f"rejected {r.locator.describe()}: {r.reason}" for r in result.rejected]
    if unresolved.reason == "ambiguous":
        message = f'"{target}" is ambiguous: {unresolved.message}'
    elif unresolved.candidates:  # a match too weak for the evidence rule
        message = f"no element matches well enough: {unresolved.message}"
    elif not unresolved.message.startswith("no element matches"):
        # explained by the scan: only a heading says the words, or the element is hidden
        # and no control evidently opens it
        message = unresolved.message
    else:
        message = f'no element matches "{target}" for {step.action.value} (count=0)'
    return Failure(
        type=FailureType.NOT_UNIQUE,
        message=message,
        step_index=step.index,
        evidence=tuple(evidence),
        gate=result.gate,
        candidates=unresolved.candidates,
    )


def region_not_found(step: Step, failure: Failure, wide_count: int) -> Failure:
    """A step whose region is on no container and in no text of the page: that is the
    headline (issue 39: it said "did you mean" the element's own name, the region only in the
    evidence); how many elements the name alone matches says why the region was needed."""
    assert step.target is not None and step.target.region is not None
    element, region = step.target.element, step.target.region
    message = (
        f'the region "{region}" is not on this page (no container, heading or text by that '
        f'name), so "{element}@{region}" was not found for {step.action.value}'
    )
    if wide_count > 1:
        message += (
            f'; "{element}" alone matches {wide_count} elements, so the region is needed to '
            "say which: name the region as the page shows it (a card's or section's heading)"
        )
    else:
        message += f'; nor does "{element}" match anything elsewhere on the page'
        shown = [e for e in failure.evidence if e.startswith("closest visible names")]
        if shown:
            message += f" ({shown[0]})"
    return failure.model_copy(update={"message": message})


def not_found(step: Step, failure: Failure, suggestions: list[str]) -> Failure:
    """``not_found`` for a step that matched nothing when first discovered, naming the
    closest visible names ("did you mean 'Shopping Cart'?")."""
    target = step.target.key if step.target else "?"
    message = f'no element on the page matches "{target}" for {step.action.value}'
    if failure.candidates or not failure.message.startswith("no element matches"):
        # one matched too weakly for the evidence rule, or the scan said why none did
        message = failure.message
    evidence = list(failure.evidence)
    # the scan found the words on an element of another kind (runtime/js/resolve.js): the
    # words are right, so the root cause is not the spelling
    cause = "wrong_kind" if WRONG_KIND in message else failure.cause
    if suggestions:
        shown = " or ".join(f"{s!r}" for s in suggestions)
        message += f"; did you mean {shown}?"
        evidence.append("closest visible names: " + ", ".join(f"{s!r}" for s in suggestions))
    return failure.model_copy(
        update={
            "type": FailureType.NOT_FOUND,
            "message": message,
            "evidence": tuple(evidence),
            "cause": cause,
        }
    )
