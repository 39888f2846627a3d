"""Templates: syntax, resolution at the moment of use, and secrets that never print."""

from __future__ import annotations

import json
import pickle

import pytest

from pytest_pacts.planner.templating import (
    MASK,
    Resolver,
    Secret,
    TemplateError,
    is_secret_name,
    parse_templates,
    reveal,
    substitute,
)


def test_parse_templates() -> None:
    refs = parse_templates("{{env.PASSWORD}} and {{ vars.user }} {{env.HOST:localhost:8080}}")
    assert [(r.namespace, r.name, r.default) for r in refs] == [
        ("env", "PASSWORD", None),
        ("vars", "user", None),
        ("env", "HOST", "localhost:8080"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{env.__class__}}", "starting with '__'"),
        ("{{__import__.os}}", "starting with '__'"),
        ("{{vars.a.b}}", "is not of the form"),
        ("{{secrets.x}}", "unknown namespace 'secrets'"),
        ("{{env}}", "is not of the form"),
        ("{{env.PASS", "unbalanced template braces"),
        ("{{vars.bad name}}", "invalid name"),
    ],
)
def test_bad_templates(text: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        parse_templates(text)


def test_resolve_env_vars_defaults() -> None:
    r = Resolver({"HOST": "h"}, {"user": "alice", "greeting": "hi {{vars.user}}"})
    assert r.resolve("{{vars.greeting}}!") == "hi alice!"
    # an env value is secret even when its default is used (the default may be a password)
    assert reveal(r.resolve("{{env.MISSING:fallback}}")) == "fallback"
    assert reveal(r.resolve("{{env.HOST}}")) == "h"
    with pytest.raises(TemplateError, match="no value and no default"):
        r.resolve("{{vars.nope}}")


def test_env_and_secret_vars_are_secret() -> None:
    r = Resolver(
        {"PASSWORD": "hunter2"},
        {"password": "s3cret", "user": "alice", "login": "{{env.PASSWORD}}"},
        secret_vars=frozenset({"user"}),
    )
    for text in (
        "{{env.PASSWORD}}",
        "{{vars.password}}",
        "{{vars.user}}",
        "{{vars.login}}",
        "x{{env.PASSWORD}}y",
    ):
        value = r.resolve(text)
        assert isinstance(value, Secret), text
        assert str(value) == MASK and repr(value) == "Secret('***')"
        assert f"{value}" == MASK and "%s" % value == MASK  # noqa: UP031 (the old operator too)
        assert json.dumps(value) == '"***"'
        assert "hunter2" not in pickle.dumps(value).decode("latin1")
        assert "s3cret" not in pickle.dumps(value).decode("latin1")
    assert reveal(r.resolve("x{{env.PASSWORD}}y")) == "xhunter2y"
    assert r.resolve("no templates") == "no templates"


@pytest.mark.parametrize(
    "name", ["password", "db_password", "API_TOKEN", "secret", "api_key", "passwd", "auth_header"]
)
def test_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize("name", ["user", "first_name", "zip", "monkey_brand"])
def test_plain_names(name: str) -> None:
    # "monkey" contains "key": the rule is a substring rule, accepted as a safe default
    assert is_secret_name(name) == ("key" in name)


def test_unresolved_reports_each_missing_template() -> None:
    r = Resolver({}, {"a": "{{vars.b}}"})
    missing = [ref.raw for ref in r.unresolved("{{env.X}} {{env.Y:d}} {{vars.a}} {{params.p}}")]
    assert missing == ["{{env.X}}", "{{vars.b}}", "{{params.p}}"]


def test_substitute_params_only() -> None:
    text = "{{params.user}} / {{env.PASSWORD}} / {{params.opt:dflt}}"
    assert substitute(text, "params", {"user": "bob"}) == "bob / {{env.PASSWORD}} / dflt"
    with pytest.raises(TemplateError, match="no params value named 'x'"):
        substitute("{{params.x}}", "params", {})
