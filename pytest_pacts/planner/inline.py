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

from pytest_pacts.models import Action, Plan, Requirement, SourceRef, Step
from pytest_pacts.planner.planhash import plan_hash
from pytest_pacts.planner.step_rules import check_step, reads_response
from pytest_pacts.planner.steps import StepSyntaxError, parse_action
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
    act = parse_action(action)
    if act is Action.USE:
        raise StepSyntaxError(
            "'use' runs a sheet block and has no meaning here",
            "call a Python function that makes the block's steps",
        )
    if reads_response(act, target):
        raise StepSyntaxError(
            "a 'response:' extract reads what the steps before it received; each pacts.step "
            "runs on its own",
            "page.expect_response() around the step that makes the request, in the test",
        )
    text = value
    if secret_name is not None and value is not None:
        text = "{{env." + secret_name + "}}"  # the secret itself is never parsed nor shown
    parts, broken = check_step(
        action, element=target, value=text, expected=expected, on_fail=on_fail
    )
    if len(broken) == 1:
        raise StepSyntaxError(broken[0].message, broken[0].expected, broken[0].field)
    if parts is None:
        raise StepSyntaxError("; ".join(str(rule) for rule in broken))
    resolver = Resolver(env, {})
    problems: list[str] = []
    value_part = text if parts.capture is None else None
    tgt, exp = parts.target, parts.expected
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
        action=parts.action,
        target=tgt,
        value=text,
        expected=exp,
        on_fail=parts.on_fail,
        source=source,
        capture=parts.capture,
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
