"""A heal candidate that is disabled now: healing decides which element the step means, and
the step's gate waits for it to be enabled (as it waits for "stable"). When it stays
disabled, the step fails as disabled, not as an element the page no longer has, within the
step's one timeout (Playwright's actionability: an action waits for "enabled" up to its
timeout, once)."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.gate import blocking_point, heal_blocking_point
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult, GatePoint, GateSnapshot
from pytest_pacts.models.outcome import FailureType, RunRecord

from .helpers import FAST, Site, plan, run


def _gate(enabled: str, visible: str = "ok") -> GateSnapshot:
    def point(name: str, code: str) -> GatePoint:
        return GatePoint(name=name, ok=code == "ok", code=code, reason=f"{name}: {code}")

    names = ("unique", "visible", "enabled", "stable", "scoped")
    codes = ("ok", visible, enabled, "ok", "ok")
    return GateSnapshot(
        points=tuple(point(n, c) for n, c in zip(names, codes, strict=True)), count=1
    )


def test_a_disabled_candidate_is_not_refused_but_other_points_are() -> None:
    assert blocking_point(_gate("disabled"), Action.CLICK) is not None
    assert heal_blocking_point(_gate("disabled"), Action.CLICK) is None
    hidden = heal_blocking_point(_gate("disabled", visible="not_visible"), Action.CLICK)
    assert hidden is not None and hidden.name == "visible"
    # "not editable" (read-only) is not a state a form's validation lifts: still refused
    readonly = heal_blocking_point(_gate("not_editable"), Action.FILL)
    assert readonly is not None and readonly.name == "enabled"


# A contact form whose button is disabled until the form is valid; release 2 renamed its id.
FORM_V1 = """
<form onsubmit="document.body.dataset.sent = 1; return false">
  <label>Message <input name="message" value="hello"></label>
  <button type="submit" id="contact-submit" class="btn">Submit</button>
</form>
"""
FORM_V2 = """
<form onsubmit="document.body.dataset.sent = 1; return false">
  <label>Message <input name="message" value="hello"></label>
  <button type="submit" id="send-btn" class="btn" disabled>Submit</button>
</form>
<script>{enable}</script>
"""


def _recorded(tab: Page, site: Site) -> DiscoveryResult:
    tab.goto(site.add("contact-v1.html", FORM_V1))
    found = discover(tab, [(0, Target(element="Submit"), Action.CLICK)])[0]
    assert found.locator is not None
    # the cached locator is the id (the one release 2 breaks)
    by_id = next(a for a in found.alternates if a.css == "#contact-submit")
    return found.model_copy(update={"locator": by_id, "alternates": ()})


def _submit(tab: Page, site: Site, name: str, enable: str) -> RunRecord:
    found = _recorded(tab, site)
    v2 = site.add(name, FORM_V2.format(enable=enable))
    return run(
        tab,
        plan(v2, ("click", "Submit")),
        pom={0: found},
        healer=HealingLadder(),
        options=replace(FAST, step_timeout_ms=2_000),
    )


def test_a_disabled_button_is_healed_to_and_clicked_once_enabled(tab: Page, site: Site) -> None:
    enable = "setTimeout(() => document.querySelector('button').disabled = false, 1200)"
    record = _submit(tab, site, "contact-v2.html", enable)
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.sent") == "1"
    heal = next(h for h in record.steps[0].heals if h.accepted)
    assert heal.new_locator is not None and "send-btn" not in (heal.new_locator.css or "")


def test_a_button_that_stays_disabled_fails_as_disabled(tab: Page, site: Site) -> None:
    record = _submit(tab, site, "contact-v2b.html", "")
    assert record.verdict == "fail"
    assert tab.evaluate("document.body.dataset.sent") is None
    failed = record.failed_step
    assert failed is not None and failed.failure is not None
    assert failed.failure.type is FailureType.DISABLED, render_failure(record)
    assert record.rca.rca_class.value == "enablement_issue"
    # the element was found again; it was never acted on
    healed = next(h for h in failed.heals if h.accepted)
    assert "disabled now: the step waits for it" in healed.reason
    # One step timeout for the whole step (issue 40), as one Playwright action waits for
    # "enabled" once: the retry with the healed locator waits only what the first attempt
    # left of it, and the repair rung of the later rounds does not wait a timeout again
    # (it waited 2 s per round before: the step took 4.5 step timeouts)
    assert any("share one 2000 ms timeout" in line for line in failed.failure.evidence), (
        failed.failure.evidence
    )
    later = [h for h in failed.heals if not h.accepted]
    assert later, render_failure(record)
    assert all("not waited for enablement again" in h.reason for h in later), [
        h.reason for h in later
    ]
