"""A checkbox or radio hidden and drawn by its own ``<label>`` is acted on through the label.

The common CSS switch hides the ``<input type=checkbox>`` (here at a 0×0 box, as Halfmoon's
``custom-switch`` and ``custom-checkbox`` do; other frameworks clip it or set ``display:
none``) and draws the control with its ``<label for=...>``'s pseudo-elements. A person clicks
the label, and so does the browser's own rule:

- HTML (the ``label`` element): "The label element's exact default presentation and
  behavior ... the activation behavior of a label element for events targeted at
  interactive content descendants of a label element, and any descendants of those
  interactive content descendants, must be to do nothing"; otherwise a label's activation
  behavior runs its labeled control's (``label.control``; the labels of a control are
  ``input.labels``). A click on the label checks the hidden checkbox.
- Playwright's own behaviour: ``Locator.check()`` on a ``<label>`` reads the *control's*
  checked state (``elementState(node, "checked")`` retargets a label to ``label.control``,
  "follow-label"), clicks the label, and throws "Clicking the checkbox did not change its
  state" when the control's state is not the one asked for afterwards.

Found on the held-out app An Otter Wiki (2.7.0 and 2.26.1: "Toggle page headings" on the page
index and "Remember me" on the login form, both Halfmoon switches): discovery picked the
checkbox by its label (0.92) and the gate refused it before acting ("empty bounding box
(0×0)"), every healing rung offering the same input; a false refusal (docs/real-apps.md,
"New held-out app: An Otter Wiki").

The control stays the step's element (its score, its gate points but the visible one, its
checked state read before and after); only the pointer goes to the label, and only to a
label of that control alone (``label.control`` is it, no other control inside it or named by
it) that is shown and receives the hit test itself. A hidden control with no such label is
refused as before.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import Site, css, failure_of, plan, run

# Halfmoon's switch and checkbox (An Otter Wiki's markup and the CSS rules that hide the
# input), a radio drawn the same way, and the controls that must stay refused.
SWITCHES = """
<style>
  .custom-switch, .custom-checkbox, .custom-radio { display: block; position: relative;
    line-height: 2rem; margin: 8px 0; }
  .custom-switch input, .custom-checkbox input, .custom-radio input {
    position: absolute; opacity: 0; height: 0; width: 0; }
  .custom-switch label, .custom-checkbox label, .custom-radio label { display: inline-block;
    padding-left: 4rem; cursor: pointer; user-select: none; }
  .custom-switch label:before, .custom-checkbox label:before, .custom-radio label:before {
    content: ""; position: absolute; left: 0; top: 0; width: 3.2rem; height: 1.8rem;
    border: 1px solid #333; border-radius: 0.9rem; }
  .custom-switch input:checked ~ label:before { background: #333; }
  #cover { position: absolute; left: 0; top: 0; width: 400px; height: 60px;
    background: white; }
</style>
<div class="custom-switch">
  <input type="checkbox" id="switch-headings"
    onchange="document.body.classList.toggle('pagetoc', event.target.checked)">
  <label for="switch-headings">Toggle page headings</label>
</div>
<form>
  <div class="custom-switch">
    <input type="checkbox" id="remember-my-information" name="remember" checked>
    <label for="remember-my-information">Remember me</label>
  </div>
  <div class="custom-radio"><input type="radio" name="size" id="small">
    <label for="small">Small loaf</label></div>
  <div class="custom-radio"><input type="radio" name="size" id="large" checked>
    <label for="large">Large loaf</label></div>
</form>
<div class="custom-switch">
  <input type="checkbox" id="ghost" aria-label="Ghost">
  <label for="ghost" style="display: none">Ghost</label>
</div>
<div class="custom-switch">
  <input type="checkbox" id="unlabelled" aria-label="Unlabelled">
</div>
<div class="custom-switch">
  <input type="checkbox" id="shared" aria-label="Shared">
  <label for="shared">Shared <input type="text" aria-label="Other field"></label>
</div>
<div class="custom-switch">
  <input type="checkbox" id="stuck" aria-label="Stuck">
  <label for="stuck" onclick="event.preventDefault()">Stuck</label>
</div>
<div style="position: relative">
  <div class="custom-switch">
    <input type="checkbox" id="buried" aria-label="Buried">
    <label for="buried">Buried</label>
  </div>
  <div id="cover">a layer over the switch</div>
</div>
"""


def _states(tab: Page) -> list[bool]:
    return list(
        tab.evaluate(
            "['switch-headings', 'remember-my-information', 'small', 'large', 'ghost', "
            "'unlabelled', 'shared', 'buried'].map((id) => document.getElementById(id).checked)"
        )
    )


def test_a_hidden_switch_is_checked_through_its_label(tab: Page, site: Site) -> None:
    """Fails before the fix: the first step is refused ``not_visible`` (0×0)."""
    url = site.add("switches.html", SWITCHES)
    p = plan(
        url,
        ("check", "Toggle page headings", "", "checked"),
        ("uncheck", "Remember me", "", "unchecked"),
        ("check", "Small loaf", "", "checked"),
        ("check", "Remember me", "", "checked"),  # back on
        ("check", "Remember me", "", "checked"),  # already on: nothing to click
    )
    record = run(tab, p)
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
    assert all(not s.heals for s in record.steps)
    assert _states(tab) == [True, True, True, False, False, False, False, False]
    assert tab.evaluate("document.body.classList.contains('pagetoc')") is True
    # the control was the step's element; the step says the pointer went to its label
    first = record.steps[0]
    assert first.gate is not None
    visible = next(p for p in first.gate.points if p.name == "visible")
    assert "through its label" in visible.reason, visible.reason
    # a click on the control (its locator given) toggles it through its label as well
    record = run(tab, plan(url, ("click", "x", "", "checked")), pom={0: css("#switch-headings")})
    assert record.verdict == "pass", record.failed_step
    assert _states(tab)[0] is True


def test_a_hidden_control_without_a_usable_label_stays_refused(tab: Page, site: Site) -> None:
    """No label, a hidden label, a label holding another control, or a covered label: the
    gate refuses the control (its locator given, as a cached one is) before acting, as
    before, and nothing is checked."""
    url = site.add("switches-refused.html", SWITCHES)
    for selector, why in (
        ("#ghost", "empty bounding box"),  # its only label is hidden too
        ("#unlabelled", "empty bounding box"),  # no label at all
        ("#shared", "empty bounding box"),  # the label holds another control
        ("#buried", "empty bounding box"),  # the label is covered by another layer
    ):
        record = run(
            tab, plan(url, ("check", "x", "", "checked")), pom={0: css(selector, action="check")}
        )
        assert record.verdict != "pass", selector
        assert failure_of(record) == "not_visible", (selector, record.failed_step)
        step = record.steps[0]
        assert step.failure is not None, selector
        assert why in step.failure.message, step.failure.message
        assert _states(tab)[4:] == [False, False, False, False], selector


def test_a_label_click_that_leaves_the_state_fails_the_step(tab: Page, site: Site) -> None:
    """The state is read back: a label whose click the page cancels (``preventDefault`` on
    the label's click cancels its activation behaviour) leaves the switch off, and the step
    fails, as Playwright's check() does ("did not change its state"), never passes."""
    url = site.add("switches-stuck.html", SWITCHES)
    record = run(tab, plan(url, ("check", "x")), pom={0: css("#stuck", action="check")})
    assert failure_of(record) == "expectation_failed", record.failed_step
    step = record.steps[0]
    assert step.failure is not None and "still unchecked" in step.failure.message
    assert tab.evaluate("document.getElementById('stuck').checked") is False


# The "visually hidden" pattern (a 1px box, clipped, pulled out by a negative margin: CSS
# frameworks' and component libraries' screen-reader-only class) on a checkbox inside the
# label that draws its box; the table cell around it takes the pointer at the input's
# centre. Then the same under a layer that covers the label too.
CLIPPED = """
<style>
  .sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
    clip: rect(0 0 0 0); overflow: hidden; white-space: nowrap; }
  .inner { position: relative; display: inline-block; width: 16px; height: 16px;
    vertical-align: middle; }
  .inner input { bottom: 0; left: 50%; }
  .frame { position: absolute; inset: 0; border: 2px solid #333; }
  #cover { position: absolute; left: 0; top: 0; width: 400px; height: 40px; background: white; }
</style>
<table><tr><td><label for="run-a"><span class="inner"><input type="checkbox" id="run-a"
  class="sr-only" checked><span class="frame"></span></span><span></span></label></td>
  <td>Evening run</td></tr></table>
<div style="position: relative"><label for="run-b"><span class="inner"><input type="checkbox"
  id="run-b" class="sr-only" checked><span class="frame"></span></span></label>
  <div id="cover">a layer over the box</div></div>
"""


def test_a_clipped_checkbox_out_of_the_pointers_reach_is_unchecked_through_its_label(
    tab: Page, site: Site
) -> None:
    """A checkbox shown as Playwright means it (a 1px box) but out of the pointer's reach at
    its centre (clipped to nothing, the "visually hidden" pattern, so the hit test finds the
    cell around it) is acted on through its own label by the same rule as a hidden one (HTML:
    a label's activation behaviour is its control's). Found on TensorBoard 2.10.1's run list
    (REQ-TENSORBOARD-004, Angular Material's checkbox: ``obscured``, covered by the cell); An
    Otter Wiki's switches are the hidden case. Fails before: ``obscured``. A label covered
    by another layer is no way through: refused as before, nothing changes."""
    url = site.add("clipped.html", CLIPPED)
    record = run(
        tab, plan(url, ("uncheck", "x", "", "unchecked")), pom={0: css("#run-a", action="uncheck")}
    )
    assert record.verdict == "pass", record.failed_step
    gate = record.steps[0].gate
    assert gate is not None
    visible = next(p for p in gate.points if p.name == "visible")
    assert "through its label" in visible.reason, visible.reason
    assert tab.evaluate("document.getElementById('run-a').checked") is False

    record = run(tab, plan(url, ("uncheck", "x")), pom={0: css("#run-b", action="uncheck")})
    assert record.verdict != "pass" and failure_of(record) == "obscured", record.failed_step
    assert tab.evaluate("document.getElementById('run-b').checked") is True
