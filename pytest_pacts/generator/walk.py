"""Find the locators of a plan by walking it on a live page (``pacts generate --discover``).

Find first, then act: each step's target is discovered and verified through
:class:`~pytest_pacts.discovery.Discoverer` on the page as it is, then the step's action is
performed so later pages can be discovered too. This is no executor: there is no gate
retry, no healing and no verdict; a target that cannot be singled out stops the walk with
a :class:`GenerationError` naming the step. Use it for a requirement that has never run;
after a run, the run record's locators are the better source.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from urllib.parse import urljoin

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer, to_playwright
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.engine.actions import PLAIN_CALLS
from pytest_pacts.engine.widgets import choose
from pytest_pacts.generator.codegen import Locators
from pytest_pacts.generator.literals import GenerationError
from pytest_pacts.models import Action, ExpectationKind, Plan, Step, Target
from pytest_pacts.models.locator import DiscoveryResult, Locator
from pytest_pacts.models.outcome import DropdownUse
from pytest_pacts.planner.templating import Resolver, TemplateError, reveal
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

_POLL_S = 0.2


def _absolute(base_url: str, url: str) -> str:
    if "://" in url:
        return url
    return urljoin(base_url if base_url.endswith("/") else base_url + "/", url.lstrip("/"))


def _find(page: Page, discoverer: Discoverer, target: Target, action: Action,
          timeout_s: float, values: dict[int, str] | None = None) -> DiscoveryResult:  # fmt: skip
    """Discover ``target``, polling while the page is still arriving (late content);
    ``values``: a select step's option (``step_values``)."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = discoverer.discover(page, [(0, target, action)], at_turn=True, values=values)[0]
        if result.locator is not None or time.monotonic() >= deadline:
            return result
        page.wait_for_timeout(_POLL_S * 1000)


def discover_locators(
    page: Page,
    plan: Plan,
    base_url: str,
    env: Mapping[str, str],
    *,
    timeout_s: float = DEFAULT_STEP_TIMEOUT_MS / 1000,
) -> Locators:
    """Walk ``plan`` from its URL and return the verified locator of every step's target."""
    resolver = Resolver(env, plan.requirement.vars, plan.secret_vars)
    discoverer = Discoverer()
    steps: dict[int, Locator] = {}
    elements: dict[str, Locator] = {}
    dropdowns: dict[int, DropdownUse] = {}
    try:
        page.goto(_absolute(base_url, resolver.resolve(plan.requirement.url)))
        for step in plan.steps:
            found = _walk_step(
                page, discoverer, resolver, base_url, step, steps, elements, timeout_s
            )
            if found is not None:
                dropdowns[step.index] = found
    except (PlaywrightError, TemplateError) as exc:
        raise GenerationError(f"{plan.req_id}: discovery walk stopped: {exc}") from None
    return Locators(steps=steps, elements=elements, dropdowns=dropdowns)


# long because: one step of the generator's walk, a branch per kind of step (extract, goto, element)
def _walk_step(
    page: Page,
    discoverer: Discoverer,
    resolver: Resolver,
    base_url: str,
    step: Step,
    steps: dict[int, Locator],
    elements: dict[str, Locator],
    timeout_s: float,
) -> DropdownUse | None:
    """Find the step's element and act; how a select chose when the element is a custom
    dropdown (``None`` otherwise)."""
    if step.capture is not None and step.capture.response is not None:
        # the walk keeps no responses: later steps get a stand-in to locate their elements
        resolver.bind(step.capture.var, f"<{step.capture.var}>", secret=step.capture.secret)
        return None
    value = ""
    if step.value is not None and step.capture is None:
        value = reveal(resolver.resolve(step.value))
    if step.action is Action.GOTO:
        page.goto(_absolute(base_url, value))
        return None
    target = None
    dropdown: DropdownUse | None = None
    if step.target is not None and step.target.image is not None:
        raise GenerationError(
            f"{step.source.render()}: step {step.index + 1} ({step.describe()}) is an image "
            "target: a plain Playwright test has no locator for it"
        )
    if step.target is not None:
        result = _find(
            page, discoverer, step.target, step.action, timeout_s, values_of([(0, step)])
        )
        if result.locator is None:
            why = result.unresolved.message if result.unresolved else "not found"
            raise GenerationError(
                f"{step.source.render()}: step {step.index + 1} ({step.describe()}): {why}"
            )
        steps[step.index] = result.locator
        elements.setdefault(step.target.key, result.locator)
        target = to_playwright(page, result.locator)
    if step.action is Action.PRESS and target is None:
        page.keyboard.press(value)
    elif target is not None:
        dropdown = _act(target, step, value, resolver, timeout_s * 1000)
    expected = step.expected
    if expected is not None and expected.kind is ExpectationKind.ELEMENT_VISIBLE:
        assert expected.target is not None
        found = _find(page, discoverer, expected.target, Action.CLICK, timeout_s / 2)
        if found.locator is not None:
            elements.setdefault(expected.target.key, found.locator)
    else:
        page.wait_for_load_state("load")
    return dropdown


def _act(
    target: PWLocator, step: Step, value: str, resolver: Resolver, timeout: float
) -> DropdownUse | None:
    """Do the step's action on its element; how a select chose in a custom dropdown."""
    act = step.action
    if act in PLAIN_CALLS:
        PLAIN_CALLS[act](target, value, timeout)
    elif act is Action.SELECT:
        if target.evaluate("(e) => e.tagName") == "SELECT":
            target.select_option(value, timeout=timeout)
        else:  # a custom dropdown (APG combobox/listbox): chosen as a person does
            chosen = choose(target, value, timeout)
            if isinstance(chosen, str):
                raise GenerationError(f"{step.source.render()}: step {step.index + 1}: {chosen}")
            return chosen
    elif act is Action.WAIT:
        target.wait_for(state="visible", timeout=timeout)
    elif act is Action.EXTRACT and step.capture is not None:
        target.wait_for(state="visible", timeout=timeout)
        if step.capture.attribute:
            text = target.get_attribute(step.capture.attribute, timeout=timeout) or ""
        else:
            text = target.inner_text(timeout=timeout)
        resolver.bind(step.capture.var, text or "-", secret=step.capture.secret)
    return None
