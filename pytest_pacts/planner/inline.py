"""Steps written as Python arguments (the ``pacts`` fixture of hand-written tests).

The same syntax and rules as a sheet row: ``Element@Region``, an action name,
a value (templates allowed), an expected outcome, ``on_fail``. Errors are
:class:`~pytest_pacts.planner.steps.StepSyntaxError` with one message per problem, so the
caller can name its own call site. A value handed over as a secret never enters the step:
the step holds an ``{{env.NAME}}`` template instead, and the caller resolves ``NAME``
through the run's environment, where every ``env`` value is a
:class:`~pytest_pacts.planner.templating.Secret`.
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_pacts.models import Action, OnFail, Plan, Requirement, SourceRef, Step
from pytest_pacts.planner.planhash import plan_hash
from pytest_pacts.planner.steps import (
    RESPONSE_PREFIX,
    StepSyntaxError,
    clean_name,
    parse_action,
    parse_capture,
    parse_expectation,
    parse_target,
)
from pytest_pacts.planner.templating import Resolver, TemplateError


def inline_step(
    index: int,
    target: str | None,
    action: str,
    value: str | None,
    expected: str | None,
    on_fail: str,
    source: SourceRef,
    *,
    env: Mapping[str, str],
    secret_name: str | None = None,
) -> Step:
    """One typed step, checked like a sheet row. ``secret_name`` (set when the value is a
    secret held in ``env`` under that name) replaces the value with ``{{env.<name>}}``."""
    problems: list[str] = []
    act = parse_action(action)
    if act is Action.USE:
        raise StepSyntaxError(
            "'use' runs a sheet block and has no meaning here",
            "call a Python function that makes the block's steps",
        )
    tgt = None
    capture = None
    if act is Action.EXTRACT and target and target.strip().lower().startswith(RESPONSE_PREFIX):
        raise StepSyntaxError(
            "a 'response:' extract reads what the steps before it received; each pacts.step "
            "runs on its own",
            "page.expect_response() around the step that makes the request, in the test",
        )
    if act is Action.EXTRACT and value:
        capture, _ = parse_capture(target, value)
    if target:
        tgt = parse_target(target)
    elif act.needs_element:
        problems.append(f"the {act.value!r} step has no element (expected Element@Region)")
    if (act.needs_value or act is Action.GOTO) and not value:
        problems.append(f"the {act.value!r} step has no value")
    exp = parse_expectation(expected) if expected else None
    if act is Action.WAIT and exp is None:
        problems.append("the 'wait' step has no expected outcome, e.g. text_visible:Products")
    try:
        fail_mode = OnFail(on_fail.strip().lower())
    except ValueError:
        problems.append(f"on_fail is {on_fail!r}, expected 'abort' or 'skip'")
        fail_mode = OnFail.ABORT
    text = value
    if secret_name is not None and value is not None:
        text = "{{env." + secret_name + "}}"
    elif value is not None and act not in (Action.GOTO, Action.EXTRACT):
        clean_name(value, "value")
    resolver = Resolver(env, {})
    value_part = text if capture is None else None
    for part in (value_part, str(tgt) if tgt else None, str(exp) if exp else None):
        if not part:
            continue
        try:
            missing = [ref.raw for ref in resolver.unresolved(part)]
        except TemplateError as exc:
            problems.append(str(exc))
            continue
        problems.extend(f"{raw} cannot be resolved (no such variable)" for raw in missing)
    if problems:
        raise StepSyntaxError("; ".join(problems))
    return Step(
        index=index,
        action=act,
        target=tgt,
        value=text,
        expected=exp,
        on_fail=fail_mode,
        source=source,
        capture=capture,
    )


def inline_plan(req_id: str, url: str, steps: tuple[Step, ...], source: SourceRef) -> Plan:
    """A plan of ``steps`` (renumbered 0..n-1) starting at ``url``, with its plan hash."""
    numbered = tuple(s.model_copy(update={"index": i}) for i, s in enumerate(steps))
    requirement = Requirement(req_id=req_id, url=url, steps=numbered, source=source)
    return Plan(
        requirement=requirement,
        steps=numbered,
        plan_hash=plan_hash(requirement, numbered, frozenset()),
    )
