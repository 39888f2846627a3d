"""Verdict and root cause, and the failure text for a person.

Verdict: ``fail`` when a step failed (or the run could not start), ``partial`` when only
``on_fail: skip`` steps failed (they were skipped), else ``pass``. ``healed`` and the heal
count are set whenever a heal was applied; a healed run still passes.

RCA mapping (the table is :data:`RCA_TABLE` plus the context rules in :func:`classify`;
``docs/engine.md`` shows it):

========================================  ==================  ==========
failure (and context)                     RCA class           confidence
========================================  ==================  ==========
env_fault / navigation_error, any cause    env_fault           0.95 (slow page 0.85)
captcha_or_2fa                            env_fault           0.6
not_unique (0 or >1 matches, wrong kind)  selector_drift      0.9 after a heal attempt, else 0.8
not_found (first discovery, no match)     data_issue          0.75
ambiguous (first discovery, no clear one)  data_issue          0.8
timeout after a heal attempt              selector_drift      0.7
timeout, no heal attempt                  timing_instability  0.6
unstable                                  timing_instability  0.85
detached                                  timing_instability  0.7
not_visible, obscured                     visibility_issue    0.85
disabled (or not editable)                enablement_issue    0.85
expectation_failed, value rejected        data_issue          0.85
expectation_failed, unresolvable value    data_issue          0.8
expectation_failed, the page refused      data_issue          0.85
expectation_failed                        assertion_mismatch  0.85
canvas_detected, pdf_embed_detected,      unsupported_surface 0.7
closed_shadow_root_detected,
cross_origin_iframe_detected
image_not_matched                         selector_drift      0.6
all steps passed                          success             1.0
========================================  ==================  ==========

Nothing recorded (the failed step never had a locator in this run: no POM cache entry, no
recipe, no heal; a first run) is never ``selector_drift``, since nothing drifted: an
ambiguous or missing name is the requirement's wording (``data_issue``, 0.75) and the advice
says how to name one element, never to accept a heal proposal (:data:`_UNRECORDED`).

An environment fault is never ``selector_drift``: the executor re-labels a failure that
coincides with a crash, a refused connection or a 5xx as ``env_fault`` before it gets here.
A healed pass keeps the class of what was healed (usually ``selector_drift``) so the report
says *why* the heal was needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import (
    Failure,
    FailureType,
    Rca,
    RcaClass,
    RunRecord,
    StepRecord,
    Verdict,
)

RCA_TABLE: dict[FailureType, tuple[RcaClass, float, str]] = {
    FailureType.ENV_FAULT: (
        RcaClass.ENV_FAULT,
        0.95,
        "Check that the application under test is up and healthy, then re-run; nothing in "
        "the requirement needs to change.",
    ),
    FailureType.NAVIGATION_ERROR: (
        RcaClass.ENV_FAULT,
        0.95,
        "Check the URL, the base URL and that the application is reachable.",
    ),
    FailureType.CAPTCHA_OR_2FA: (
        RcaClass.ENV_FAULT,
        0.6,
        "Use a test account without CAPTCHA/2FA or a bypass in the test environment.",
    ),
    FailureType.NOT_UNIQUE: (
        RcaClass.SELECTOR_DRIFT,
        0.8,
        "The page no longer has one element matching this step: review the candidates, "
        "name a region to disambiguate, or accept a heal proposal.",
    ),
    FailureType.NOT_FOUND: (
        RcaClass.DATA_ISSUE,
        0.75,
        "No element on the page matches the step, and nothing was recorded for it to heal "
        "from: check the Element cell's spelling (see the closest visible names), or that "
        "the earlier steps lead to the page that shows it.",
    ),
    FailureType.AMBIGUOUS: (
        RcaClass.DATA_ISSUE,
        0.8,
        "The step's words fit more than one element and none clearly better (the evidence "
        "rule), and nothing was recorded for it: nothing was acted on. Make the name unique: "
        "add a region (Element@Region), use the text the element shows, or for identical "
        "elements an ordinal (Delete[2]@Row 3, counted in reading order inside the region).",
    ),
    FailureType.TIMEOUT: (
        RcaClass.TIMING_INSTABILITY,
        0.6,
        "The page was too slow for the step timeout: raise the timeout or wait for the "
        "content that loads late (a `wait` step).",
    ),
    FailureType.UNSTABLE: (
        RcaClass.TIMING_INSTABILITY,
        0.85,
        "The element kept moving (animation): add a `wait` for the animation's end state.",
    ),
    FailureType.DETACHED: (
        RcaClass.TIMING_INSTABILITY,
        0.7,
        "The element was re-rendered while being used: wait for the page to settle first.",
    ),
    FailureType.NOT_VISIBLE: (
        RcaClass.VISIBILITY_ISSUE,
        0.85,
        "The element exists but is hidden: add the step that reveals it (open the menu, "
        "expand the section) before this one.",
    ),
    FailureType.OBSCURED: (
        RcaClass.VISIBILITY_ISSUE,
        0.85,
        "Another element covers it (a banner, a dialog): dismiss it in an earlier step.",
    ),
    FailureType.DISABLED: (
        RcaClass.ENABLEMENT_ISSUE,
        0.85,
        "The element is disabled (or read-only): complete what enables it (required "
        "fields, a checkbox) before this step.",
    ),
    FailureType.EXPECTATION_FAILED: (
        RcaClass.ASSERTION_MISMATCH,
        0.85,
        "The step ran but the page did not show the expected outcome: check the app's "
        "behaviour or the Expected Outcome cell.",
    ),
    FailureType.CANVAS_DETECTED: (
        RcaClass.UNSUPPORTED_SURFACE,
        0.7,
        "What a canvas draws is pixels, with no element to act on: click it by its picture "
        "with an image target (`image:path/to/picture.png | click`), and check the figures "
        "it draws in the data the page fetched (a network capture) rather than on screen.",
    ),
    FailureType.PDF_EMBED_DETECTED: (
        RcaClass.UNSUPPORTED_SURFACE,
        0.7,
        "The browser's PDF viewer is not part of the page: check the PDF itself (its "
        "response, with a network capture, or its URL opened on its own), or act on what "
        "the viewer shows with an image target (`image:path/to/picture.png | click`).",
    ),
    FailureType.CLOSED_SHADOW_ROOT_DETECTED: (
        RcaClass.UNSUPPORTED_SURFACE,
        0.7,
        "A closed shadow root cannot be entered by any script or locator: ask for the "
        "component with an open shadow root (or a test build that opens it), or act on it "
        "by its picture with an image target (`image:path/to/picture.png | click`).",
    ),
    FailureType.CROSS_ORIGIN_IFRAME_DETECTED: (
        RcaClass.UNSUPPORTED_SURFACE,
        0.7,
        "Another origin's frame cannot be searched from this page: test it in a requirement "
        "of its own that opens the frame's URL (`goto`), or act on it by its picture with "
        "an image target (`image:path/to/picture.png | click`).",
    ),
    FailureType.IMAGE_NOT_MATCHED: (
        RcaClass.SELECTOR_DRIFT,
        0.6,
        "The picture was not found once and clearly on the page: look at the annotated "
        "screenshot; re-capture the template PNG from the page as it is now (the same zoom, "
        "only the control, nothing around it that changes), or crop it to what makes it "
        "unique.",
    ),
}

_UNRECORDED: dict[FailureType, str] = {
    FailureType.NOT_UNIQUE: (
        "Nothing was recorded for this step (a first run), so no earlier element tells "
        "which one is meant: name one element: add or correct the region "
        "(Element@Region, the container's heading or label as the page shows it), or use "
        "the element's own visible name, as the candidates show it."
    ),
    FailureType.TIMEOUT: (
        "Nothing was recorded for this step (a first run) and the page showed no single "
        "element by this name within the step timeout: check the Element cell's spelling, "
        "that the earlier steps lead to the page that shows it, or raise the timeout."
    ),
}
"""What to do when a step that had no locator fails: the table's advice assumes an element
that was there before (drift) and mentions heal proposals, which a first run does not have."""

_DATA = (
    RcaClass.DATA_ISSUE,
    0.85,
    "The field did not accept the value: check the Value cell against the field's rules "
    "(length, format, the list's options).",
)
_REFUSED = (
    RcaClass.DATA_ISSUE,
    0.85,
    "The page refused the input (its message is quoted above): check the Value cells this "
    "step and the earlier ones submit (credentials, formats, required fields) against "
    "what the app accepts, or the app's test data (the account, the record) they name.",
)
_CONFIG = (
    RcaClass.DATA_ISSUE,
    0.8,
    "The step's value or expectation cannot be used as written: fix the cell.",
)
_WRONG_KIND = (
    RcaClass.DATA_ISSUE,
    0.75,
    "The step's words are on the page, but name no element its action operates (the message "
    "says which): check the Action cell against it (fill a text field, check a checkbox, "
    "select in a drop-down), or name the control itself. A widget the page draws without the "
    "markup that says what it is (no role) cannot be operated as one: ask for that markup.",
)
_PAGE_SCRIPT = (
    RcaClass.UNSUPPORTED_SURFACE,
    0.8,
    "The page's own scripts broke the checks run inside the page (the message names the "
    "exception): most often a library that replaces JavaScript built-ins such as "
    "Array.prototype.some. Nothing in the requirement can fix it: test a build of the app "
    "without that library or with its built-in replacements turned off.",
)
_CONFLICT = (
    RcaClass.ENV_FAULT,
    0.95,
    "Another run of this requirement in the same session (by default: against the same "
    "base URL) is still in progress: wait for it to finish, or give this run its own "
    "session with --pacts-session. A run whose process died is taken over after its lease "
    "(15 minutes), at once on its own machine. The app itself was not touched.",
)


def classify(failure: Failure, heal_attempts: int = 0, *, recorded: bool = True) -> Rca:
    """The root cause of ``failure`` (see the module table); ``recorded=False`` when the step
    never had a locator in this run (nothing recorded: never ``selector_drift``)."""
    if failure.cause == "value_rejected":
        cls, conf, rec = _DATA
    elif failure.cause == "input_refused":
        cls, conf, rec = _REFUSED
    elif failure.cause == "configuration":
        cls, conf, rec = _CONFIG
    elif failure.cause == "session_conflict":
        cls, conf, rec = _CONFLICT
    elif failure.cause == "page_script":
        cls, conf, rec = _PAGE_SCRIPT
    elif failure.cause == "wrong_kind":
        cls, conf, rec = _WRONG_KIND
    else:
        cls, conf, rec = RCA_TABLE.get(failure.type, RCA_TABLE[FailureType.TIMEOUT])
    if failure.type is FailureType.TIMEOUT and heal_attempts:
        cls, conf = RcaClass.SELECTOR_DRIFT, 0.7
        rec = RCA_TABLE[FailureType.NOT_UNIQUE][2]
    elif failure.type is FailureType.NOT_UNIQUE and heal_attempts:
        conf = 0.9
    elif failure.cause == "slow_page":
        conf = 0.85
    if not recorded and cls is RcaClass.SELECTOR_DRIFT:
        cls, conf = RcaClass.DATA_ISSUE, 0.75
        rec = _UNRECORDED.get(failure.type, rec)
    evidence = [f"{failure.type.value}: {failure.message}", *failure.evidence]
    if failure.http_status is not None:
        evidence.append(f"HTTP status {failure.http_status}")
    if heal_attempts:
        evidence.append(f"{heal_attempts} heal round(s) did not fix it")
    return Rca(
        rca_class=cls,
        confidence=conf,
        message=failure.message,
        evidence=tuple(dict.fromkeys(evidence)),
        recommendation=rec,
    )


def verdict_of(steps: Sequence[StepRecord], start_failed: bool) -> Verdict:
    if start_failed or any(s.status == "failed" for s in steps):
        return "fail"
    if any(s.status == "skipped" for s in steps):
        return "partial"
    return "pass"


# long because: the verdict record assembled field by field from the run
def build_verdict(
    plan: Plan,
    steps: Sequence[StepRecord],
    *,
    start_failure: Failure | None,
    started_at: datetime,
    duration_ms: float,
    url: str | None,
    artifacts: Mapping[str, str],
    start_screenshot: str | None = None,
) -> RunRecord:
    verdict = verdict_of(steps, start_failure is not None)
    accepted = sum(1 for s in steps for h in s.heals if h.accepted)
    rounds = sum(len(s.heals) for s in steps)
    failed = next((s for s in steps if s.status == "failed"), None)
    skipped = next((s for s in steps if s.status == "skipped"), None)
    culprit = failed or skipped
    if start_failure is not None:
        rca = classify(start_failure)
        if start_screenshot:
            rca = rca.model_copy(
                update={"evidence": (*rca.evidence, f"screenshot: {start_screenshot}")}
            )
    elif culprit is not None and culprit.failure is not None:
        # a step that never had a locator: nothing was recorded, nothing drifted
        recorded = culprit.locator is not None or culprit.image_match is not None
        rca = classify(culprit.failure, len(culprit.heals), recorded=recorded)
        if verdict == "partial":
            skipped_n = sum(1 for s in steps if s.status == "skipped")
            rca = rca.model_copy(
                update={"message": f"{skipped_n} step(s) skipped (on_fail: skip); first: "
                        f"{rca.message}"}
            )  # fmt: skip
    elif accepted:
        healed = [h for s in steps for h in s.heals if h.accepted]
        base = classify(Failure(type=healed[0].failure, message="healed"))
        rca = Rca(
            rca_class=base.rca_class,
            confidence=base.confidence,
            message=f"all steps passed after {accepted} heal(s)",
            evidence=tuple(
                f"step {s.index + 1}: {h.rung.value} heal: {h.reason}"
                for s in steps
                for h in s.heals
                if h.accepted
            ),
            recommendation="Review the heal proposal(s) and accept them so the next run "
            "needs no healing.",
        )
    else:
        rca = Rca(
            rca_class=RcaClass.SUCCESS,
            confidence=1.0,
            message="All steps executed successfully",
        )
    return RunRecord(
        req_id=plan.req_id,
        plan_hash=plan.plan_hash,
        verdict=verdict,
        rca=rca,
        steps=tuple(steps),
        healed=accepted > 0,
        heal_count=accepted,
        heal_rounds=rounds,
        started_at=started_at.isoformat(),
        finished_at=datetime.now(UTC).isoformat(),
        duration_ms=duration_ms,
        url=url,
        artifacts=dict(artifacts),
    )
