"""Parsing of targets, actions, expected outcomes, pipe strings and block params."""

from __future__ import annotations

import re

import pytest

from pytest_pacts.models import Action, Expectation, ExpectationKind, Target
from pytest_pacts.planner.steps import (
    StepSyntaxError,
    clean_name,
    parse_action,
    parse_expectation,
    parse_params,
    parse_target,
    split_pipe,
)


@pytest.mark.parametrize(
    ("text", "element", "region"),
    [
        ("Username@LoginForm", "Username", "LoginForm"),
        ("  Login ", "Login", None),
        ("Add to cart@Sauce Labs Backpack", "Add to cart", "Sauce Labs Backpack"),
        ("Email @ work@Profile", "Email @ work", "Profile"),
        ("ada@", "ada", None),
        ("Nom   d'utilisateur@Formulaire", "Nom d'utilisateur", "Formulaire"),
        ("שם משתמש@טופס", "שם משתמש", "טופס"),
        ("🛒 Cart@Header", "🛒 Cart", "Header"),
        ("👩\u200d💻 Dev@Team", "👩\u200d💻 Dev", "Team"),
    ],
)
def test_parse_target(text: str, element: str, region: str | None) -> None:
    assert parse_target(text) == Target(element=element, region=region)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the element is empty"),
        ("@LoginForm", "has a region but no element"),
        ("User\u200bname", "invisible character U+200B (ZERO WIDTH SPACE) at position 5"),
        ("Login\u202e", "invisible character U+202E"),
        ("Tab\x00", "control character U+0000"),
    ],
)
def test_parse_target_rejects(text: str, message: str) -> None:
    with pytest.raises(StepSyntaxError, match=re.escape(message)):
        parse_target(text)


@pytest.mark.parametrize(
    ("text", "element", "region", "ordinal"),
    [
        ("Delete[2]@Cart", "Delete", "Cart", 2),
        ("Delete [1]", "Delete", None, 1),
        ("Remove[12]@Line items", "Remove", "Line items", 12),
        ("Notes \\[draft]@Editor", "Notes [draft]", "Editor", None),
        ("Tags[x]y@Row", "Tags[x]y", "Row", None),
    ],
)
def test_an_ordinal_is_a_trailing_number_in_brackets(
    text: str, element: str, region: str | None, ordinal: int | None
) -> None:
    """One syntax for "the N-th of identical elements": ``[N]`` at the end of the element
    part, counted from 1 (docs/reference.md, "Element names")."""
    assert parse_target(text) == Target(element=element, region=region, ordinal=ordinal)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Delete[0]@Cart", "the ordinal [0] of 'Delete' counts from 1 (the first is [1])"),
        ("Delete[second]@Cart", "the ordinal [second] of 'Delete' is not a whole number"),
        ("Delete[-1]", "the ordinal [-1] of 'Delete' is not a whole number"),
        ("[2]@Cart", "'[2]' has an ordinal but no element"),
    ],
)
def test_a_bad_ordinal_is_a_syntax_error(text: str, message: str) -> None:
    with pytest.raises(StepSyntaxError, match=re.escape(message)) as err:
        parse_target(text)
    assert (
        err.value.expected == "Element[N]@Region with N a whole number from 1, e.g. Delete[2]@Cart"
    )


def test_target_key_round_trips() -> None:
    assert parse_target("Delete[2]@Cart").key == "Delete[2]@Cart"
    assert parse_target("Username@LoginForm").key == "Username@LoginForm"
    assert str(parse_target("Login")) == "Login"


@pytest.mark.parametrize("name", [a.value for a in Action])
def test_every_action_parses_case_insensitively(name: str) -> None:
    assert parse_action(name.upper()) is Action(name)


def test_unknown_action_suggests_and_lists() -> None:
    with pytest.raises(StepSyntaxError) as info:
        parse_action("clikc")
    assert str(info.value) == "unknown action 'clikc' (did you mean 'click'?)"
    assert info.value.expected is not None and "fill" in info.value.expected


def test_action_properties() -> None:
    assert Action.FILL.needs_element and Action.FILL.needs_value and Action.FILL.edits
    assert not Action.PRESS.needs_element and Action.PRESS.needs_value
    assert not Action.WAIT.needs_element and not Action.GOTO.needs_element


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("field_populated", Expectation(kind=ExpectationKind.FIELD_POPULATED)),
        ("navigates_to:Products", Expectation(kind=ExpectationKind.NAVIGATES_TO, text="Products")),
        (
            "text_visible: Thank you ",
            Expectation(kind=ExpectationKind.TEXT_VISIBLE, text="Thank you"),
        ),
        ("text_hidden:Loading", Expectation(kind=ExpectationKind.TEXT_HIDDEN, text="Loading")),
        ("url_contains:/cart", Expectation(kind=ExpectationKind.URL_CONTAINS, text="/cart")),
        ("title_contains:Swag", Expectation(kind=ExpectationKind.TITLE_CONTAINS, text="Swag")),
        (
            "element_visible:Logout@Menu",
            Expectation(
                kind=ExpectationKind.ELEMENT_VISIBLE, target=Target(element="Logout", region="Menu")
            ),
        ),
        (
            "element_hidden:Spinner",
            Expectation(kind=ExpectationKind.ELEMENT_HIDDEN, target=Target(element="Spinner")),
        ),
        ("checked", Expectation(kind=ExpectationKind.CHECKED)),
        ("UNCHECKED", Expectation(kind=ExpectationKind.UNCHECKED)),
        ("value:a:b", Expectation(kind=ExpectationKind.VALUE, text="a:b")),
        ("value:", Expectation(kind=ExpectationKind.VALUE, text="")),
        ("enabled", Expectation(kind=ExpectationKind.ENABLED)),
        ("disabled", Expectation(kind=ExpectationKind.DISABLED)),
        (
            "count:Remove@Your Cart=2",
            Expectation(
                kind=ExpectationKind.COUNT,
                target=Target(element="Remove", region="Your Cart"),
                count=2,
            ),
        ),
    ],
)
def test_parse_expectation(text: str, expected: Expectation) -> None:
    parsed = parse_expectation(text)
    assert parsed == expected
    assert parse_expectation(str(parsed)) == parsed  # str() is the canonical form


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            "navigate_to:Products",
            "unknown expected outcome 'navigate_to:Products' (did you mean 'navigates_to'?)",
            "navigates_to:<text>",
        ),
        (
            "navigates_to",
            "expected outcome 'navigates_to' needs an argument",
            "navigates_to:<text>",
        ),
        ("checked:yes", "expected outcome 'checked' takes no argument, got 'yes'", "checked"),
        ("count:Remove", "ill-formed count 'count:Remove'", "count:<Element@Region>=<N>"),
        ("count:Remove=two", "ill-formed count", "count:<Element@Region>=<N>"),
        ("element_visible:", "needs an argument", "element_visible:<Element@Region>"),
    ],
)
def test_parse_expectation_rejects(text: str, message: str, hint: str) -> None:
    with pytest.raises(StepSyntaxError) as info:
        parse_expectation(text)
    assert message in str(info.value)
    assert info.value.expected is not None and hint in info.value.expected


def test_split_pipe() -> None:
    assert split_pipe("Username@LoginForm | fill | standard_user | field_populated") == [
        "Username@LoginForm",
        "fill",
        "standard_user",
        "field_populated",
    ]
    assert split_pipe("Login | click") == ["Login", "click", "", ""]
    assert split_pipe(r"Search | fill | a \| b |") == ["Search", "fill", "a | b", ""]
    with pytest.raises(StepSyntaxError, match="5 fields"):
        split_pipe("a|b|c|d|e")


def test_parse_params() -> None:
    assert parse_params("user=standard_user; password={{env.PASSWORD}}") == {
        "user": "standard_user",
        "password": "{{env.PASSWORD}}",
    }
    assert parse_params(r"q=a\;b; url=/x?y=1") == {"q": "a;b", "url": "/x?y=1"}
    with pytest.raises(StepSyntaxError, match="ill-formed block parameter 'oops'"):
        parse_params("oops")
    with pytest.raises(StepSyntaxError, match="given twice"):
        parse_params("a=1; a=2")


def test_clean_name_normalises_unicode_and_space() -> None:
    assert clean_name("Cafe\u0301   menu ", "element") == "Café menu"
