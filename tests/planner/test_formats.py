"""The three formats normalise to the same plans."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_pacts.models import Action, ExpectationKind, OnFail, Target
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.templating import Resolver, Secret, reveal
from tests.planner.conftest import load

HEADER: list[object] = [
    "Req ID",
    "URL",
    "Title",
    "Tags",
    "Element@Region",
    "Action",
    "Value",
    "Expected Outcome",
]
LOGIN_STEPS: list[list[object]] = [
    ["Username@LoginForm", "fill", "standard_user", "field_populated"],
    ["Password@LoginForm", "fill", "{{env.PASSWORD}}", "field_populated"],
    ["Login@LoginForm", "click", None, "navigates_to:Products"],
]


def _xlsx_login(xlsx: Callable[..., Path]) -> Path:
    rows: list[list[object]] = [["Login requirements"], [], HEADER]
    for i, step in enumerate(LOGIN_STEPS):
        head: list[object] = ["REQ-LOGIN-001", "/", "Log in", "smoke"] if i == 0 else [None] * 4
        rows.append(head + step)
    return xlsx({"Sheet1": rows})


def test_same_plan_from_every_format(
    write: Callable[[str, str], Path], xlsx: Callable[..., Path]
) -> None:
    yaml_path = write(
        "login.req.yaml",
        """
req_id: REQ-LOGIN-001
url: /
title: Log in
tags: [smoke]
steps:
  - Username@LoginForm | fill | standard_user | field_populated
  - element: Password
    region: LoginForm
    action: fill
    value: "{{env.PASSWORD}}"
    expected: field_populated
  - "Login@LoginForm | click | | navigates_to:Products"
""",
    )
    json_path = write(
        "login.req.json",
        """{"requirements": [{
  "req_id": "REQ-LOGIN-001", "url": "/", "title": "Log in", "tags": "smoke",
  "steps": [
    "Username@LoginForm | fill | standard_user | field_populated",
    "Password@LoginForm | fill | {{env.PASSWORD}} | field_populated",
    {"element": "Login@LoginForm", "action": "click", "expected": "navigates_to:Products"}
  ]}]}""",
    )
    env = {"PASSWORD": "x"}
    plans = [load(p, env=env).plans[0] for p in (yaml_path, json_path, _xlsx_login(xlsx))]
    assert len({p.plan_hash for p in plans}) == 1
    assert len({p.steps for p in plans}) > 0
    for plan in plans:
        assert [s.action for s in plan.steps] == [Action.FILL, Action.FILL, Action.CLICK]
        assert plan.steps[0].target == Target(element="Username", region="LoginForm")
        assert plan.steps[1].value == "{{env.PASSWORD}}"  # unresolved in the plan
        expected = plan.steps[2].expected
        assert expected is not None and expected.kind is ExpectationKind.NAVIGATES_TO
        assert expected.text == "Products"
        assert plan.requirement.tags == ("smoke",)


def test_locations(write: Callable[[str, str], Path], xlsx: Callable[..., Path]) -> None:
    plan = load(_xlsx_login(xlsx), env={"PASSWORD": "x"}).plans[0]
    assert plan.requirement.source.render() == "reqs.xlsx:Sheet1:4:A"
    assert [s.source.render() for s in plan.steps] == [
        "reqs.xlsx:Sheet1:4",
        "reqs.xlsx:Sheet1:5",
        "reqs.xlsx:Sheet1:6",
    ]
    assert plan.requirement.source.zero_based_line == 3
    path = write("x.req.yaml", "# comment\nreq_id: R1\nurl: /\nsteps:\n  - Login | click\n")
    plan = load(path).plans[0]
    assert plan.requirement.source.line == 2
    assert plan.steps[0].source.render() == "x.req.yaml:5:5"


def test_excel_shape_separate_columns_carry_down_and_spacing(xlsx: Callable[..., Path]) -> None:
    path = xlsx(
        {
            "Steps": [
                [
                    "  req   id ",
                    "url",
                    "ELEMENT",
                    "Region",
                    "action",
                    "value",
                    "expected outcome",
                    "On Fail",
                ],
                ["R1", "/a", "Username", "LoginForm", "fill", 12345, None, None],
                [None, None, "Login", None, "Click", None, None, "skip"],
                [],
                ["R2", "/b", "Remember me", None, "check", None, "checked", None],
                ["R2", None, "Go", None, "click", None, None, None],
            ]
        }
    )
    plans = load(path).plans
    assert [p.req_id for p in plans] == ["R1", "R2"]
    r1, r2 = plans
    assert r1.requirement.url == "/a" and r2.requirement.url == "/b"
    assert r1.steps[0].target == Target(element="Username", region="LoginForm")
    assert r1.steps[0].value == "12345"
    assert r1.steps[1].on_fail is OnFail.SKIP
    assert len(r2.steps) == 2


def test_blocks_and_config_sheets(xlsx: Callable[..., Path]) -> None:
    path = xlsx(
        {
            "Reqs": [
                HEADER,
                ["R1", "/", None, None, "Login", "use", "user=alice", None],
                [None, None, None, None, "Menu", "click", None, "text_visible:{{vars.greet}}"],
            ],
            "Blocks": [
                ["Block", "Params", "Element@Region", "Action", "Value", "Expected Outcome"],
                ["Login", "user; password=pw", "Username", "fill", "{{params.user}}", None],
                [None, None, "Password", "fill", "{{params.password}}", None],
            ],
            "Config": [["Key", "Value"], ["base_url", "http://127.0.0.1:9"], ["greet", "Hello"]],
        }
    )
    plan = load(path).plans[0]
    assert plan.requirement.base_url == "http://127.0.0.1:9"
    # a secret parameter's value is a secret var of the requirement (planner/blocks.py)
    assert plan.requirement.vars == {"greet": "Hello", "Login-password": "pw"}
    assert [(s.value, s.block) for s in plan.steps] == [
        ("alice", "Login"),
        ("{{vars.Login-password}}", "Login"),
        (None, None),
    ]
    assert plan.steps[0].source.render() == "reqs.xlsx:Blocks:2"


def test_other_sheets_are_ignored(xlsx: Callable[..., Path]) -> None:
    path = xlsx(
        {
            "Notes": [["free text"], ["more"]],
            "Reqs": [HEADER, ["R1", "/", None, None, "Login", "click", None, None]],
        }
    )
    assert [p.req_id for p in load(path).plans] == ["R1"]


def test_builtin_blocks(write: Callable[[str, str], Path]) -> None:
    path = write(
        "b.req.yaml",
        """
req_id: R1
url: /
steps:
  - "use | navigation | url=/cart.html; wait_for=text_visible:Your Cart"
  - "use | action | target=Checkout@Cart; method=click"
  - "use | extract | target=Total; scope=Summary"
  - "use | validation | expectations=url_contains:cart && title_contains:Swag"
""",
    )
    steps = load(path).plans[0].steps
    assert [(s.action.value, s.value, str(s.expected) if s.expected else None) for s in steps] == [
        ("goto", "/cart.html", None),
        ("wait", None, "text_visible:Your Cart"),
        ("click", None, None),
        ("wait", None, "element_visible:Total@Summary"),
        ("wait", None, "url_contains:cart"),
        ("wait", None, "title_contains:Swag"),
    ]
    assert steps[2].target == Target(element="Checkout", region="Cart")
    assert {s.block for s in steps} == {"navigation", "action", "extract", "validation"}


def test_nested_blocks_and_params_keep_other_templates(write: Callable[[str, str], Path]) -> None:
    path = write(
        "n.req.yaml",
        """
blocks:
  Inner:
    params: [who]
    steps: ["Name | fill | {{params.who}} {{env.SUFFIX:x}}"]
  Outer:
    params: [who=bob]
    steps: ["use | Inner | who={{params.who}}", "Save | click"]
requirements:
  - {req_id: R1, url: /, steps: ["use | Outer"]}
  - {req_id: R2, url: /, steps: [{action: use, block: Outer, params: {who: eve}}]}
""",
    )
    r1, r2 = load(path).plans
    assert r1.steps[0].value == "bob {{env.SUFFIX:x}}"
    assert r2.steps[0].value == "eve {{env.SUFFIX:x}}"
    assert [s.block for s in r1.steps] == ["Inner", "Outer"]


def test_yaml_scalars_become_text(write: Callable[[str, str], Path]) -> None:
    path = write(
        "s.req.yaml",
        "req_id: R1\nurl: /\nvars: {zip: 10115, flag: true}\n"
        "steps:\n  - {element: Zip, action: fill, value: 10115}\n"
        "  - {element: Qty, action: fill, value: 2.0}\n",
    )
    plan = load(path).plans[0]
    assert [s.value for s in plan.steps] == ["10115", "2"]
    assert plan.requirement.vars == {"zip": "10115", "flag": "true"}


def test_a_secret_block_parameter_is_a_secret_var_of_the_requirement(
    write: Callable[[str, str], Path],
) -> None:
    """A parameter named like a secret (or listed in ``pacts_secret_vars``) is never pasted
    into the steps: a literal password given as a default, or passed in, stays out of the
    plan's text, and each use of the block gets its own var."""
    path = write(
        "r.yaml",
        """
blocks:
  SignIn:
    params: [user=standard_user, password=hunter2-lit, pin=0000]
    steps:
      - "Username | fill | {{params.user}}"
      - "Password | fill | {{params.password}}"
      - "PIN | fill | {{params.pin}}"
requirements:
  - req_id: R1
    url: /
    steps:
      - use | SignIn
      - use | SignIn | password=other-lit; user=bob
""",
    )
    (plan,) = load_file(path, LoaderOptions(env={}, secret_vars=frozenset({"pin"}))).plans
    values = [s.value for s in plan.steps]
    assert values == [
        "standard_user", "{{vars.SignIn-password}}", "{{vars.SignIn-pin}}",
        "bob", "{{vars.SignIn-password-2}}", "{{vars.SignIn-pin-2}}",
    ]  # fmt: skip
    assert plan.requirement.vars["SignIn-password"] == "hunter2-lit"
    assert plan.requirement.vars["SignIn-password-2"] == "other-lit"
    assert {"SignIn-password", "SignIn-password-2", "SignIn-pin", "SignIn-pin-2"} <= (
        plan.secret_vars
    )
    resolver = Resolver({}, plan.requirement.vars, plan.secret_vars)
    assert values[1] is not None
    typed = resolver.resolve(values[1])
    assert isinstance(typed, Secret) and str(typed) == "***" and reveal(typed) == "hunter2-lit"
