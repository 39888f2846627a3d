"""Every action through ``run_requirement`` on small pages of our own."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.models.outcome import RcaClass

from .helpers import Site, failure_of, plan, run

FORM = """
<h1>Form</h1>
<label for="name">Name</label><input id="name">
<label for="code">Code</label><input id="code" maxlength="3">
<label for="notes">Notes</label><textarea id="notes">Hi </textarea>
<label for="color">Color</label>
<select id="color"><option value="r">Red</option><option value="g">Green</option></select>
<label><input type="checkbox" id="agree"> I agree</label>
<label><input type="checkbox" id="news" checked> Newsletter</label>
<button id="go" onclick="document.getElementById('out').textContent = 'Clicked'">Go</button>
<button id="tip" onmouseenter="document.getElementById('out').textContent = 'Hovered'">Tip</button>
<input id="keys" aria-label="Keys"
  onkeydown="document.getElementById('out').textContent = 'Key ' + event.key">
<p id="out" role="status"></p>
<script>
  document.getElementById('name').addEventListener('focus',
    () => { document.getElementById('out').textContent = 'Focused'; });
</script>
"""


def test_every_action_passes_and_is_recorded(tab: Page, site: Site) -> None:
    url = site.add("form.html", FORM)
    p = plan(
        url,
        ("focus", "Name", "", "text_visible:Focused"),
        ("fill", "Name", "Ada", "value:ada"),
        ("type", "Notes", "there", "value:Hi there"),
        ("select", "Color", "Green", "value:g"),  # by label
        ("select", "Color", "r", "value:r"),  # by value
        ("check", "I agree", "", "checked"),
        ("uncheck", "Newsletter", "", "unchecked"),
        ("click", "Go", "", "text_visible:clicked"),
        ("hover", "Tip", "", "text_visible:Hovered"),
        ("press", "Keys", "Enter", "text_visible:Key Enter"),
        ("press", "", "Escape", "text_visible:Key Escape"),  # the focused element
    )
    record = run(tab, p)
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
    assert [s.status for s in record.steps] == ["passed"] * len(p.steps)
    fill = record.steps[1]
    assert fill.locator is not None and fill.code and "get_by_label" in fill.code
    assert fill.gate is not None and fill.gate.ok
    assert fill.value == "Ada" and fill.expectation_ok is True


def test_a_rejected_fill_value_is_a_data_issue(tab: Page, site: Site) -> None:
    url = site.add("form.html", FORM)
    record = run(tab, plan(url, ("fill", "Code", "ABCDEF")))
    assert failure_of(record) == "expectation_failed"
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    assert "did not take the value 'ABCDEF'" in record.rca.message


def test_a_missing_select_option_is_a_data_issue(tab: Page, site: Site) -> None:
    """Expected vs found: the failure says what the list offers, and the nearest option when
    one is close (a renamed option), without choosing it."""
    url = site.add("form.html", FORM)
    record = run(tab, plan(url, ("select", "Color", "Purple")))
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    assert "no option 'Purple' in the list; it offers 'Red', 'Green'" in record.rca.message
    assert "nearest" not in record.rca.message
    renamed = run(tab, plan(url, ("select", "Color", "Greem", "value:g")))
    assert renamed.verdict == "fail"
    assert "it offers 'Red', 'Green'; the nearest is 'Green'" in renamed.rca.message


def test_secrets_are_typed_but_never_shown(tab: Page, site: Site) -> None:
    url = site.add("form.html", FORM)
    p = plan(url, ("fill", "Name", "{{env.CANARY}}", "value:nope"))
    record = run(tab, p, env={"CANARY": "canary-5ecret"})
    assert record.verdict == "fail"  # the value expectation fails: the field holds the secret
    assert tab.locator("#name").input_value() == "canary-5ecret"
    assert record.steps[0].value == "***"
    dumped = record.model_dump_json()
    assert "canary-5ecret" not in dumped


def test_an_unresolvable_value_fails_the_step_cleanly(tab: Page, site: Site) -> None:
    url = site.add("form.html", FORM)
    record = run(tab, plan(url, ("fill", "Name", "{{env.MISSING}}")))
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    assert "cannot be resolved" in record.rca.message


def test_values_resolve_vars_at_the_moment_of_use(tab: Page, site: Site) -> None:
    url = site.add("form.html", FORM)
    p = plan(url, ("fill", "Name", "{{vars.who}}", "value:Grace"), variables={"who": "Grace"})
    assert run(tab, p).verdict == "pass"


# A hover menu opened near the bottom of the viewport: its item sits under a fixed status bar,
# so clicking it means scrolling the page, which slides the menu's trigger away from a pointer
# that stays put. The page's main thread is busy (long tasks), so the browser re-evaluates
# hover between the scroll and the click: the menu closes unless the pointer follows the
# trigger (the demo's REQ-WIDGETS-001 on release v2 failed like this under load).
HOVER_MENU = """
<style>
  body { margin: 0; font: 16px sans-serif; }
  .menu { position: relative; display: inline-block; margin: 555px 0 0 40px; }
  .menu ul { display: none; position: absolute; top: 100%; left: 0; margin: 0; padding: 0;
             list-style: none; background: #fff; border: 1px solid #999; }
  .menu:hover ul { display: block; }
  .menu ul button { display: block; width: 120px; padding: 8px; }
  .bar { position: fixed; left: 0; right: 0; bottom: 0; height: 120px; background: #333;
         color: #fff; }
  .tail { height: 1600px; }
</style>
<div class="menu"><button type="button" aria-haspopup="menu">Account</button>
  <ul role="menu" aria-label="Account">
    <li role="none"><button type="button" role="menuitem"
      onclick="document.getElementById('out').textContent = 'Settings opened'">Settings</button>
    </li>
  </ul>
</div>
<div class="tail"></div>
<div class="bar"><p id="out" role="status">Nothing chosen</p></div>
<script>
  setInterval(() => { const t = performance.now(); while (performance.now() - t < 30) {} }, 35);
</script>
"""


def test_a_click_that_scrolls_keeps_the_hover_menu_open(tab: Page, site: Site) -> None:
    url = site.add("menu.html", HOVER_MENU)
    p = plan(
        url,
        ("hover", "Account", "", "element_visible:Settings"),
        ("click", "Settings", "", "text_visible:Settings opened"),
    )
    for _ in range(3):  # the race this guards against is lost most of the time, not always
        record = run(tab, p)
        assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
        assert tab.evaluate("() => window.scrollY") > 0, "the click needed a scroll"


# The common custom checkbox: the real <input> is transparent (opacity 0) and a styled span
# or a label's pseudo-element is drawn over it. Playwright calls an opacity-0 element visible
# and the browser forwards a click on the label to its control, so the gate must accept it.
CUSTOM_CHECKBOXES = """
<style>
  .box { position: relative; display: inline-block; padding-left: 30px; cursor: pointer; }
  .box input { position: absolute; left: 0; top: 0; width: 20px; height: 20px; margin: 0;
    opacity: 0; }
  .box .mark { position: absolute; left: 0; top: 0; width: 18px; height: 18px;
    border: 1px solid #333; background: #fff; }
  .box input:checked + .mark { background: #333; }
  .switch { position: relative; margin-top: 20px; }
  .switch input { position: absolute; opacity: 0; width: 18px; height: 18px; margin: 0; }
  .switch label { position: relative; padding-left: 28px; cursor: pointer; }
  .switch label::before { content: ''; position: absolute; left: 0; top: 0; width: 16px;
    height: 16px; border: 1px solid #333; }
</style>
<label class="box"><input type="checkbox" id="remember"><span class="mark"></span>Remember me</label>
<div class="switch"><input type="checkbox" id="terms" checked><label for="terms">I accept the terms</label></div>
"""


def test_custom_checkboxes_with_a_transparent_input_are_checked(tab: Page, site: Site) -> None:
    url = site.add("custom-checkbox.html", CUSTOM_CHECKBOXES)
    p = plan(
        url,
        ("check", "Remember me", "", "checked"),
        ("uncheck", "I accept the terms", "", "unchecked"),
        ("uncheck", "Remember me", "", "unchecked"),
        ("check", "I accept the terms", "", "checked"),
    )
    record = run(tab, p)
    assert record.verdict == "pass", [s.failure for s in record.steps if s.failure]
    assert all(s.status == "passed" and not s.heals for s in record.steps)
    assert tab.evaluate("[remember.checked, terms.checked]") == [False, True]
