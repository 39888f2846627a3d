"""The ``extract`` steps: read a value off an element (its text, a form field's value, an
attribute) or a JSON response, and store it as a var, waiting up to the step timeout for a
value to store. Mixed into :class:`~pytest_pacts.engine.executor.StepRunner`.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.expectations import Subject, gone
from pytest_pacts.engine.network import ResponseLog, lookup, shown
from pytest_pacts.engine.tracing import Tracer
from pytest_pacts.engine.waiting import (
    now_ms,
    wait_for_change,
)
from pytest_pacts.models import Capture, Step
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.planner import patterns
from pytest_pacts.planner.templating import MASK, Resolver, TemplateError, is_secret_name, reveal

# What an extract step reads: the attribute when one is named, a form field's value, else the
# text the element shows.
READ = """(el, attr) => attr ? el.getAttribute(attr)
  : (el.matches('input, textarea, select') ? el.value : (el.innerText || el.textContent || ''))"""


class ExtractSteps:
    """The step runner's extract steps (its attributes, declared here for them)."""

    page: Page
    options: EngineOptions
    resolver: Resolver
    tracer: Tracer | None
    monitor: EnvMonitor
    responses: ResponseLog | None
    # where a step's responses start in the log (StepRunner._since)
    _since: Callable[[Step], int]

    def _store(self, step: Step, capture: Capture, raw: str, attempt: Attempt) -> str | None:
        """Keep the regex's part of ``raw`` (its first group when it has one) and store it;
        ``None`` when there is nothing to store yet (empty, or the regex does not match)."""
        value = " ".join(raw.split())
        if capture.regex is not None:
            # bounded: raises PatternTimeout, which fails the step (planner/patterns.py)
            match = patterns.search(capture.regex, value)
            if match is None:
                return None
            value = match.text
        if not value:
            return None
        shown_as = self.resolver.bind(capture.var, value, secret=capture.secret)
        attempt.extracted[capture.var] = shown_as
        if shown_as == MASK and self.tracer is not None:
            # the page shows the secret: its trace masks it and keeps no picture of the page
            self.tracer.add_secret(value)
            self.tracer.secret_typed(self.monitor.documents)
        return value

    def _secret(self, capture: Capture) -> bool:
        return capture.secret or is_secret_name(capture.var, self.resolver.secret_vars)

    def _extract_element(
        self, step: Step, capture: Capture, subject: Subject, attempt: Attempt
    ) -> Failure | None:
        """Read the element's text (a form field's value, or the attribute) until there is a
        value to store (not empty, matching the regex), up to the step timeout. The element
        the gate kept is asked (no selector code in the page's world: an element handle
        would have Playwright build it there), else what the locator matches now."""
        deadline = now_ms() + self.options.step_timeout_ms
        seen = "nothing read"
        read = f"(el) => ({READ})(el, {json.dumps(capture.attribute)})"
        while True:
            try:
                found, raw = subject.evaluate(read)
            except PlaywrightError as exc:
                failure = classify_error(exc, f"reading {step.target}", step.index)
                if failure.type is FailureType.ENV_FAULT:
                    return failure
                seen = failure.message
            else:
                if not found:
                    seen = gone(raw)
                elif raw is None:
                    seen = f"the element has no {capture.attribute} attribute"
                else:
                    try:
                        stored = self._store(step, capture, str(raw), attempt)
                    except patterns.PatternTimeout as exc:
                        return pattern_timeout(step, capture, exc)
                    if stored is not None:
                        return None
                    text = " ".join(str(raw).split())
                    shown_text = (MASK if text else "''") if self._secret(capture) else repr(text)
                    what = f"its {capture.attribute} attribute" if capture.attribute else "it"
                    seen = f"{what} holds {shown_text}"
            if now_ms() >= deadline:
                break
            wait_for_change(self.page)
        return self._extract_failed(step, capture, seen)

    def _extract_response(self, step: Step, capture: Capture, attempt: Attempt) -> Failure | None:
        """Take the value at the JSON path of the latest matching response that finished
        since the previous step started, waiting up to the step timeout for one."""
        ref = capture.response
        assert ref is not None
        try:
            url = reveal(self.resolver.resolve(ref.url))
        except TemplateError as exc:
            return unresolvable(step, "the response's URL pattern", exc)
        since = self._since(step)
        deadline = now_ms() + self.options.step_timeout_ms
        while True:
            found = lookup(self.responses, url, ref.path, since, self.resolver.secret_vars)
            if found.found:
                text = shown(found.value)
                try:
                    stored = self._store(step, capture, text, attempt)
                except patterns.PatternTimeout as exc:
                    return pattern_timeout(step, capture, exc)
                if stored is not None:
                    return None
                assert found.entry is not None
                text = (MASK if text else "''") if self._secret(capture) else repr(text)
                seen = f"{found.entry.label()} has {ref.path} = {text}"
            else:
                seen = found.why
            if now_ms() >= deadline:
                break
            wait_for_change(self.page)
        return self._extract_failed(step, capture, seen)

    def _extract_failed(self, step: Step, capture: Capture, seen: str) -> Failure:
        wanted = "a value that is not empty"
        if capture.regex is not None:
            wanted = f"a value matching the regex {capture.regex}"
        return Failure(
            type=FailureType.EXPECTATION_FAILED,
            message=f"extract {capture.var}: expected {wanted}, but {seen}",
            step_index=step.index,
            evidence=(
                f"expected {wanted}",
                f"found: {seen}",
                f"waited {self.options.step_timeout_ms:.0f} ms",
            ),
        )


def pattern_timeout(step: Step, capture: Capture, exc: patterns.PatternTimeout) -> Failure:
    """An extract whose regex ran out of time: the sheet's pattern (``configuration``), said
    with the pattern, the limit and what to change; the run goes on."""
    return Failure(
        type=FailureType.EXPECTATION_FAILED,
        message=f"extract {capture.var}: {exc}",
        step_index=step.index,
        evidence=(f"regex: {capture.regex}", f"limit: {patterns.MATCH_TIMEOUT_S:g} s per match"),
        cause="configuration",
    )


def unresolvable(step: Step, what: str, exc: TemplateError) -> Failure:
    """A step whose value, expected outcome or URL pattern names a var nothing set: the
    requirement's own doing (``configuration``), said in words."""
    return Failure(
        type=FailureType.EXPECTATION_FAILED,
        message=f"{what} cannot be resolved: {exc}",
        step_index=step.index,
        cause="configuration",
    )
