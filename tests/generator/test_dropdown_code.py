"""A select step's generated code: a native select keeps ``select_option``; what the run
record says of a custom dropdown becomes a person's clicks (pure logic, no browser; the
generated code is run on real pages in ``tests/engine/test_widgets.py``)."""

from __future__ import annotations

from pytest_pacts.generator import Locators, render_test
from pytest_pacts.models import (
    Action,
    Expectation,
    ExpectationKind,
    Plan,
    Requirement,
    SourceRef,
    Step,
    Target,
)
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import DropdownUse


def _plan(value: str) -> Plan:
    step = Step(
        index=0,
        action=Action.SELECT,
        target=Target(element="Country"),
        value=value,
        expected=Expectation(kind=ExpectationKind.VALUE, text=value),
        source=SourceRef(path="shop.req.yaml", row=2),
    )
    req = Requirement(req_id="REQ-SEL-1", url="http://shop.test/", steps=(step,),
                      source=SourceRef(path="shop.req.yaml", row=1))  # fmt: skip
    return Plan(requirement=req, steps=(step,), plan_hash="sha256:sel")


def test_a_select_by_its_combobox_role_keeps_select_option_without_a_record() -> None:
    """HTML-AAM maps a native ``<select>`` to the role ``combobox`` (``listbox`` when
    ``multiple``): a role locator says nothing of a custom dropdown, so without a record of
    how the run chose, the generated code keeps ``select_option``."""
    box = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="combobox", name="Country")
    source = render_test(_plan("Portugal"), Locators(steps={0: box}))
    assert 'step1.select_option("Portugal")' in source
    assert 'get_by_role("option"' not in source


def test_a_recorded_custom_dropdown_is_opened_typed_into_and_its_options_clicked() -> None:
    """The run record's ``dropdown`` (the APG combobox pattern as the run used it): opened
    before each option, the name typed, the options clicked by role and name, then Escape."""
    box = Locator(strategy=Strategy.LABEL, confidence=0.92, label="Country")
    use = DropdownUse(opened=(True, False), typed=True, option_role="treeitem")
    source = render_test(_plan("Portugal; Spain"), Locators(steps={0: box}, dropdowns={0: use}))
    lines = [line.strip() for line in source.splitlines()]
    start = lines.index("step1.click()  # open the dropdown")
    assert lines[start : start + 6] == [
        "step1.click()  # open the dropdown",
        'page.keyboard.type("Portugal")  # filter its list as a person types',
        'page.get_by_role("treeitem", name="Portugal", exact=True).click()',
        'page.keyboard.type("Spain")  # filter its list as a person types',
        'page.get_by_role("treeitem", name="Spain", exact=True).click()',
        'page.keyboard.press("Escape")  # close the list a multi-select keeps',
    ]
    assert "select_option" not in source


def test_a_text_field_dropdown_is_clicked_open_and_its_value_read_as_a_field_s() -> None:
    """A text field that opened a list (WAI-ARIA's combobox pattern without its role: Gradio
    3.50's drop-down) shows the option chosen as its value, which ``to_contain_text`` never
    reads on an ``<input>`` (Playwright reads an input's text only for buttons)."""
    box = Locator(strategy=Strategy.LABEL, confidence=0.92, label="Country")
    use = DropdownUse(opened=(True,), typed=False, text_field=True)
    source = render_test(_plan("Portugal"), Locators(steps={0: box}, dropdowns={0: use}))
    assert "step1.click()  # open the dropdown" in source
    assert 'page.get_by_role("option", name="Portugal", exact=True).click()' in source
    assert "expect(step1).to_contain_text" not in source, source
    assert 'expect(step1).to_have_value(re.compile(re.escape("Portugal")' in source
