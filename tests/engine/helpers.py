"""Building plans and runtimes for engine tests without a requirement file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from playwright.sync_api import Page

from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models import (
    Action,
    Expectation,
    ExpectationKind,
    OnFail,
    Plan,
    Requirement,
    SourceRef,
    Step,
    Target,
)
from pytest_pacts.models.locator import DiscoveryResult, Locator, Strategy
from pytest_pacts.models.outcome import RunRecord

SITE = "http://pacts.test/"
FAST = EngineOptions(step_timeout_ms=3_000, settle_timeout_ms=300, navigation_timeout_ms=10_000)


@dataclass
class Site:
    """Pages served at ``http://pacts.test/<path>`` (see ``conftest.tab``)."""

    pages: dict[str, str] = field(default_factory=dict)

    def add(self, path: str, body: str, title: str = "Fixture") -> str:
        self.pages[path] = (
            f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body>{body}</body></html>"
        )
        return SITE + path


def expectation(text: str) -> Expectation:
    kind, _, arg = text.partition(":")
    k = ExpectationKind(kind)
    if k.argument == "none":
        return Expectation(kind=k)
    if k.argument == "text":
        return Expectation(kind=k, text=arg)
    if k.argument == "target":
        return Expectation(kind=k, target=target(arg))
    tgt, _, n = arg.rpartition("=")
    return Expectation(kind=k, target=target(tgt), count=int(n))


def target(text: str) -> Target:
    element, _, region = text.partition("@")
    return Target(element=element, region=region or None)


def step(
    index: int,
    action: str,
    element: str | None = None,
    value: str | None = None,
    expected: str | None = None,
    on_fail: str = "abort",
) -> Step:
    return Step(
        index=index,
        action=Action(action),
        target=target(element) if element else None,
        value=value,
        expected=expectation(expected) if expected else None,
        on_fail=OnFail(on_fail),
        source=SourceRef(path="engine_test.xlsx", sheet="Steps", row=index + 2),
    )


def plan(
    url: str,
    *rows: tuple[str, ...],
    req_id: str = "REQ-T",
    variables: Mapping[str, str] | None = None,
) -> Plan:
    """``rows`` are ``(action, element, value, expected[, on_fail])`` with ``""`` for none."""
    padded = [(*(*row, "", "", "", "")[:4], row[4] if len(row) > 4 else "abort") for row in rows]
    steps = tuple(
        step(i, a, e or None, v or None, x or None, f) for i, (a, e, v, x, f) in enumerate(padded)
    )
    req = Requirement(
        req_id=req_id,
        url=url,
        steps=steps,
        vars=dict(variables or {}),
        source=SourceRef(path="engine_test.xlsx", sheet="Steps", row=1),
    )
    return Plan(requirement=req, steps=steps, plan_hash="sha256:test")


def css(selector: str, element: str = "x", action: str = "click") -> DiscoveryResult:
    """A cached POM entry whose locator is a plain CSS selector."""
    return DiscoveryResult(
        element=element,
        action=action,
        locator=Locator(strategy=Strategy.CSS, confidence=0.7, css=selector),
    )


def run(page: Page, p: Plan, **kw: object) -> RunRecord:
    options = kw.pop("options", FAST)
    runtime = Runtime(env=kw.pop("env", {}), options=options, **kw)  # type: ignore[arg-type]
    return run_requirement(p, page, runtime)


def failure_of(record: RunRecord) -> str:
    step_ = record.failed_step
    assert step_ is not None and step_.failure is not None, record.verdict
    return step_.failure.type.value
