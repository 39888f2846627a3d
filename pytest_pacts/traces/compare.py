"""Two trace bundles of one requirement, compared step by step: what changed is a regression.

Pure functions over :class:`~pytest_pacts.models.trace.TraceBundle` (no browser, no store).
Steps are paired by position when both runs ran the same plan; when the plan changed, a pair
must also agree on the action and the element, else it is not compared. Only steps that
passed (or healed) in both runs are compared. What is flagged, and when:

- ``text_changed``: the element's visible text differs (whitespace collapsed, case kept);
- ``moved``: the element's centre moved more than ``move_px`` CSS pixels;
- ``slower``: the step took more than ``slower`` × its earlier time, and more than ``slower``
  × ``slow_floor_ms`` (so a 20 ms step that takes 70 ms is noise, not a regression); not
  for a step that healed (its time is mostly the healing, reported as a heal already);
- ``url_changed``: the page's path (and query names) differs, whatever the host and port;
- ``failing_request``: a request answered 4xx/5xx that no request to the same method and path
  had in the earlier run (compared over the whole run: a request's answer may land during
  the next step), flagged at the step it came in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from pytest_pacts.models.trace import BundleStep, Regression, TraceBundle
from pytest_pacts.settings import PactsSettings

_DONE = ("passed", "healed")


@dataclass(frozen=True)
class Thresholds:
    """When a difference is a regression (``pacts_trace_*`` settings)."""

    slower: float = PactsSettings.trace_slower
    slow_floor_ms: float = PactsSettings.trace_slow_floor_ms
    move_px: float = PactsSettings.trace_move_px


@dataclass(frozen=True)
class Comparison:
    """The regressions of ``current`` against ``baseline``, and the steps not compared."""

    baseline: TraceBundle
    current: TraceBundle
    regressions: tuple[Regression, ...]
    compared: int
    skipped: int


def url_key(url: str) -> str:
    """What two URLs of the same page share across deployments: the path and query names."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    return parts.path + (f"?{parts.query}" if parts.query else "") if parts.netloc else url


Pair = tuple[BundleStep, BundleStep]


def pairs(baseline: TraceBundle, current: TraceBundle) -> tuple[list[Pair], int]:
    """The steps to compare, and how many of ``current`` were left out (not run, failed,
    or a changed plan's step that is no longer the same step)."""
    same_plan = baseline.plan_hash == current.plan_hash
    earlier = {s.index: s for s in baseline.steps}
    found: list[Pair] = []
    skipped = 0
    for step in current.steps:
        before = earlier.get(step.index)
        comparable = (
            before is not None
            and step.status in _DONE
            and before.status in _DONE
            and step.trace is not None
            and before.trace is not None
            and (
                same_plan or (before.action, before.element_key) == (step.action, step.element_key)
            )
        )
        if comparable:
            assert before is not None
            found.append((before, step))
        else:
            skipped += 1
    return found, skipped


def compare(
    baseline: TraceBundle, current: TraceBundle, thresholds: Thresholds | None = None
) -> Comparison:
    """The regressions of ``current`` against ``baseline`` (see the module doc)."""
    limits = thresholds or Thresholds()
    matched, skipped = pairs(baseline, current)
    found: list[Regression] = []
    for before, after in matched:
        found.extend(_step_changes(before, after, limits))
    found.extend(_new_failing_requests(baseline, current))
    found.sort(key=lambda r: (r.step_index, _ORDER.index(r.kind)))
    return Comparison(baseline, current, tuple(found), len(matched), skipped)


_ORDER = ("text_changed", "moved", "url_changed", "failing_request", "slower")


def _regression(
    kind: str, before: BundleStep, after: BundleStep, message: str, old: str, new: str
) -> Regression:
    assert before.trace is not None and after.trace is not None
    return Regression.model_validate(
        {
            "kind": kind,
            "step_index": after.index,
            "step": after.description,
            "message": message,
            "before": old,
            "after": new,
            "screenshot_before": before.trace.screenshot,
            "screenshot_after": after.trace.screenshot,
        }
    )


def _step_changes(before: BundleStep, after: BundleStep, limits: Thresholds) -> list[Regression]:
    a, b = before.trace, after.trace
    assert a is not None and b is not None
    out: list[Regression] = []
    if a.text is not None and b.text is not None and a.text != b.text:
        out.append(
            _regression(
                "text_changed", before, after, f"{_q(a.text)} -> {_q(b.text)}", a.text, b.text
            )
        )
    if a.box is not None and b.box is not None:
        ax, ay = a.box.x + a.box.width / 2, a.box.y + a.box.height / 2
        bx, by = b.box.x + b.box.width / 2, b.box.y + b.box.height / 2
        distance = math.hypot(bx - ax, by - ay)
        if distance > limits.move_px:
            old, new = f"({ax:.0f}, {ay:.0f})", f"({bx:.0f}, {by:.0f})"
            out.append(
                _regression(
                    "moved",
                    before,
                    after,
                    f"its centre moved {distance:.0f} px, from {old} to {new} "
                    f"(more than {limits.move_px:.0f} px)",
                    old,
                    new,
                )
            )
    if a.url and b.url and url_key(a.url) != url_key(b.url):
        old, new = url_key(a.url), url_key(b.url)
        out.append(_regression("url_changed", before, after, f"{old} -> {new}", old, new))
    bound = limits.slower * max(before.duration_ms, limits.slow_floor_ms)
    # a healed step's time is mostly its healing, which is reported as a heal already
    if after.duration_ms > bound and after.status != "healed":
        ratio = after.duration_ms / max(before.duration_ms, 1.0)
        old, new = f"{before.duration_ms:.0f} ms", f"{after.duration_ms:.0f} ms"
        out.append(
            _regression(
                "slower",
                before,
                after,
                f"{old} -> {new} ({ratio:.1f}x; flagged above {limits.slower:g}x, and "
                f"above {bound:.0f} ms)",
                old,
                new,
            )
        )
    return out


def _failing(steps: Iterable[BundleStep]) -> set[tuple[str, str]]:
    return {
        (r.method, url_key(r.url))
        for s in steps
        if s.trace is not None
        for r in s.trace.requests
        if r.failing
    }


def _new_failing_requests(baseline: TraceBundle, current: TraceBundle) -> list[Regression]:
    known = _failing(baseline.steps)
    earlier = {s.index: s for s in baseline.steps}
    out: list[Regression] = []
    for step in current.steps:
        if step.trace is None:
            continue
        for request in step.trace.requests:
            key = (request.method, url_key(request.url))
            if not request.failing or key in known:
                continue
            known.add(key)  # once per request
            before = earlier.get(step.index, step)
            out.append(
                Regression(
                    kind="failing_request",
                    step_index=step.index,
                    step=step.description,
                    message=f"{request.method} {url_key(request.url)} answered "
                    f"{request.status} (no such failure in the last passing run)",
                    before=None,
                    after=f"{request.method} {request.url} → {request.status}",
                    screenshot_before=before.trace.screenshot if before.trace else None,
                    screenshot_after=step.trace.screenshot,
                )
            )
    return out


def _q(text: str) -> str:
    return '"' + (text if len(text) <= 80 else text[:77] + "...") + '"'
