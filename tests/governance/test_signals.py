"""Case-specific signals: the four rules and the locator rules."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pytest_pacts.governance import detect_case_specific_signals
from pytest_pacts.governance.locators import is_auto_generated, locator_signals
from pytest_pacts.governance.signals import (
    CHANGE_PLAN_KEYWORDS,
    HARD_CODED_BRANCH_REGEX,
    SWITCH_LITERAL_REGEX,
)
from pytest_pacts.models.heal import HealProposal, Violation


def signals(
    proposal: Mapping[str, object], violation: Mapping[str, object] | None = None
) -> list[str]:
    return detect_case_specific_signals(proposal, violation or {})


# Rule 1: single target file under /handlers/ or /runtime/ -------------------------------


@pytest.mark.parametrize(
    ("files", "fires"),
    [
        (["src/app/api/runtime/governance/x.ts"], True),
        (["src/handlers/address.ts"], True),
        (["src\\handlers\\address.ts"], True),  # Windows separators read as /
        (["src/app/lib/x.ts"], False),  # one file, but not a handler/runtime one
        (["src/handlers/a.ts", "src/handlers/b.ts"], False),  # more than one file
        (["runtime/x.ts"], False),  # no leading slash: "/runtime/" is not contained
        ([], False),  # no target_files[0]
        (None, False),
        ("src/runtime/x.ts", True),  # a lone string counts as one file
    ],
)
def test_single_target_file(files: object, fires: bool) -> None:
    assert ("single_target_file" in signals({"target_files": files})) is fires


# Rule 2: the two regexes on suggested_diff -----------------------------------------------


@pytest.mark.parametrize(
    ("diff", "fires"),
    [
        ('+  if (tool === "address") {', True),
        ("+  if (id == 42) return;", True),
        ("+  } else if (kind !== 'x') {", True),
        ("+  if (name === `tpl`) {", True),
        ("+  if (a != 7)", True),
        ("+  if (a === b) {", False),  # no literal: a comparison of two variables
        ("+  if (ready) {", False),
        ("+  if (x === '')", False),  # the regex needs a non-empty string literal
        ('+  switch (tool) {\n    case "address":\n', True),  # /s: across lines
        ("+  switch (code) { case 404: break; }", True),
        ("+  switch (code) { default: break; }", False),
        ("+  switch (code) { case OTHER: }", False),
        ('"primary": {"role": "textbox"}', False),
    ],
)
def test_hardcoded_constant(diff: str, fires: bool) -> None:
    assert ("hardcoded_constant" in signals({"suggested_diff": diff})) is fires


def test_the_two_regexes_are_the_seeds() -> None:
    assert HARD_CODED_BRANCH_REGEX.pattern == (
        r"""\b(if|else if)\s*\([^\)]*([=!]==?|===)\s*(["'`][^"'`]+["'`]|\d+)\s*\)"""
    )
    assert SWITCH_LITERAL_REGEX.pattern == (
        r"""\bswitch\s*\([^\)]*\)\s*\{[^}]*\bcase\s+(["'`][^"'`]+["'`]|\d+)\s*:"""
    )


@pytest.mark.parametrize("diff", [None, 42, ["if (a == 1)"]])
def test_hardcoded_constant_needs_a_string_diff(diff: object) -> None:
    assert "hardcoded_constant" not in signals({"suggested_diff": diff})


# Rule 3: change_plan keywords -----------------------------------------------------------


@pytest.mark.parametrize("keyword", CHANGE_PLAN_KEYWORDS)
def test_each_change_plan_keyword_fires(keyword: str) -> None:
    assert "change_plan_keyword" in signals({"change_plan": f"Step 1: {keyword} for now"})


@pytest.mark.parametrize(
    ("plan", "fires"),
    [
        ("Fix ONLY THIS CASE quickly", True),  # lower-cased before matching
        (["generalise the contract", "then only this case"], True),  # merged
        ("특정케이스", False),  # the keyword has a space
        ("handle every case", False),
        ("", False),
        (None, False),
    ],
)
def test_change_plan_keyword(plan: object, fires: bool) -> None:
    assert ("change_plan_keyword" in signals({"change_plan": plan})) is fires


def test_keywords_are_the_seeds() -> None:
    assert CHANGE_PLAN_KEYWORDS == ("특정 케이스", "예외 처리", "하드코딩", "only this case")


# Rule 4: violation.evidence.reject_case_specific_primary_fix === true ---------------------


@pytest.mark.parametrize(
    ("evidence", "fires"),
    [
        ({"reject_case_specific_primary_fix": True}, True),
        ({"reject_case_specific_primary_fix": False}, False),
        ({"reject_case_specific_primary_fix": "true"}, False),  # strict: the boolean only
        ({"reject_case_specific_primary_fix": 1}, False),
        ({}, False),
        (None, False),
    ],
)
def test_reject_case_specific_primary_fix(evidence: object, fires: bool) -> None:
    found = signals({}, {"evidence": evidence})
    assert ("reject_case_specific_primary_fix" in found) is fires


def test_reject_flag_read_from_a_violation_model() -> None:
    violation = Violation(evidence={"reject_case_specific_primary_fix": True})
    assert detect_case_specific_signals({}, violation) == ["reject_case_specific_primary_fix"]


def test_no_signal_on_a_clean_proposal() -> None:
    assert signals({"target_files": ["recipes/R/v002/selectors.json"], "change_plan": "ok"}) == []


def test_signals_come_in_rule_order() -> None:
    proposal = {
        "target_files": ["a/runtime/b.ts"],
        "suggested_diff": "if (a == 1)",
        "change_plan": "하드코딩",
        "healed_locator": {"css": "li:nth-child(2)"},
    }
    assert signals(proposal, {"evidence": {"reject_case_specific_primary_fix": True}}) == [
        "single_target_file",
        "hardcoded_constant",
        "change_plan_keyword",
        "reject_case_specific_primary_fix",
        "positional_locator",
    ]


# Locator signals -------------------------------------------------------------


@pytest.mark.parametrize(
    ("locator", "expected"),
    [
        ({"strategy": "role_name", "role": "button", "name": "Login"}, []),
        ({"strategy": "label", "label": "Username"}, []),
        ({"strategy": "test_id", "test_id": "login-button"}, []),
        ({"strategy": "placeholder", "placeholder": "Password"}, []),
        ({"strategy": "css", "css": "#login-button"}, []),
        ({"strategy": "css", "css": "ul > li:nth-child(2) > button"}, ["positional_locator"]),
        ({"css": "div:nth-of-type(3)"}, ["positional_locator"]),
        ({"css": "li:nth-last-child(1)"}, ["positional_locator"]),
        ({"selector": "button >> nth=1"}, ["positional_locator"]),
        ({"xpath": "//ul/li[2]/button"}, ["positional_locator"]),
        ({"xpath": "(//button)[last()]"}, ["positional_locator"]),
        ({"role": "button", "name": "Add", "nth": 0}, ["positional_locator"]),
        ({"role": "button", "name": "Add", "nth": None}, []),
        ({"frame_path": ["iframe:nth-of-type(2)"], "label": "Card"}, ["positional_locator"]),
        ({"css": "#\\:r1\\:"}, ["auto_generated_id_class"]),
        ({"css": "button.css-1x2y3z"}, ["auto_generated_id_class"]),
        ({"css": "div.sc-bdVaJa > input"}, ["auto_generated_id_class"]),
        ({"css": '[id="react-select-3-input"]'}, ["auto_generated_id_class"]),
        ({"xpath": "//div[@class='Button_primary__a1b2c']"}, ["auto_generated_id_class"]),
        ({"css": 'a[href="page.v12345.html"]'}, []),  # quoted text is not a class
        ({"id": "ember123", "role": "button"}, ["auto_generated_id_class"]),
        ({"classes": ["btn", "jss42"], "role": "button"}, ["auto_generated_id_class"]),
        (
            {"strategy": "relational", "role": "button", "region": {"css": "div.css-9f8e7d"}},
            ["auto_generated_id_class"],
        ),
        ({"strategy": "text", "text": "Login", "exact": True}, ["exact_text_only"]),
        ({"text": "Login"}, ["exact_text_only"]),
        ({"text": "Login", "role": "button"}, []),
        ({"text": "Login", "label": "x"}, []),
        ({"text": "Login", "test_id": "x"}, []),
        ({"text": "Login", "css": "button"}, []),
        ({"strategy": "text", "text": "Buy", "css": "li:nth-child(2)"}, ["positional_locator"]),
    ],
)
def test_locator_signals(locator: dict[str, object], expected: list[str]) -> None:
    assert locator_signals(locator) == expected


@pytest.mark.parametrize(
    ("token", "generated"),
    [
        ("login-button", False),
        ("user-name", False),
        ("btn-primary", False),
        ("col-md-6", False),
        ("step2", False),
        ("h1", False),
        (":r5:", True),
        ("«r1»", True),
        ("css-1x2y3z", True),
        ("sc-bdVaJa", True),
        ("ember123", True),
        ("mat-input-0", True),
        ("Button_primary__a1b2c", True),
        ("input-1234", True),
    ],
)
def test_auto_generated_tokens(token: str, generated: bool) -> None:
    assert is_auto_generated(token) is generated


def test_healed_locator_of_a_model_is_read() -> None:
    proposal = HealProposal(
        req_id="R",
        step_index=1,
        element_key="Add@Row",
        failed_locator={},
        healed_locator={"xpath": "//tr[3]//button"},
        tool_name="similarity",
        score=0.9,
    )
    assert detect_case_specific_signals(proposal) == ["positional_locator"]


def test_discovery_locator_models_are_read() -> None:
    from pytest_pacts.models.locator import Locator, Region, RegionMatch, Strategy

    in_card = Locator(
        strategy=Strategy.ROLE_NAME,
        confidence=0.95,
        role="button",
        name="Add to cart",
        region=Region(description="Backpack", matched_by=RegionMatch.TEXT, css="div.item"),
    )
    shadow = Locator(strategy=Strategy.SHADOW, confidence=0.8, host="x-card", css="b.css-1ab23")
    text = Locator(strategy=Strategy.TEXT, confidence=0.86, text="Login")
    assert locator_signals(in_card.model_dump(mode="json")) == []
    assert locator_signals(shadow.model_dump(mode="json")) == ["auto_generated_id_class"]
    assert locator_signals(text.model_dump(mode="json")) == ["exact_text_only"]
