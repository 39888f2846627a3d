"""Regressions in the reports: the per-test HTML box, ``regressions.md`` of a run, and the
text of ``pacts compare`` (docs/reports.md "Regressions").

A regression is a difference between a run and the last passing run of its requirement (its
trace bundle): text that changed, a new failing request, a step much slower, an element that
moved far, another page. It is flagged even when the run passes. Pure functions; every
value from a page is escaped before it is placed in markup.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.models.trace import REGRESSION_TITLES, Regression
from pytest_pacts.traces import RunComparison

STYLE = """<style>
.pacts-regressions{border-left:5px solid #8e24aa;background:#f8f0fb;padding:6px 10px;margin:6px 0}
.pacts-regressions figure{display:inline-block;margin:4px 8px 4px 0}
.pacts-regressions .pacts-picture{display:block;width:320px;height:auto;border:1px solid #ccd}
.pacts-regressions figcaption{font-size:12px;color:#555}
.pacts-regressions ul{margin:2px 0;padding-left:18px}
</style>"""


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def regression_json(regression: Regression) -> dict[str, object]:
    return regression.model_dump(mode="json", exclude_none=True)


def html_box(record: RunRecord, pictures: Mapping[str, str] | None = None) -> str:
    """The per-test box: what changed since the run ``record.baseline``, one row per step
    with its changes and the step's pictures then and now. ``pictures`` maps a picture's
    path to a ``data:`` URI (or a link) to show it with."""
    if not record.regressions:
        return ""
    shown = pictures or {}
    steps: dict[int, list[Regression]] = {}
    for r in record.regressions:
        steps.setdefault(r.step_index, []).append(r)
    rows = []
    for index, found in steps.items():
        changes = "".join(f"<li><b>{e(r.title)}</b>: {e(r.message)}</li>" for r in found)
        figures = ""
        first = found[0]
        for side, path in (("before", first.screenshot_before), ("now", first.screenshot_after)):
            if path and path in shown:
                # not an <img>: pytest-html's media viewer shows its pictures in the first
                # <img> of the test's row, which would then be this one
                url = e(_css_url(shown[path]))
                figures += (
                    f'<figure><span class="pacts-picture" role="img" '
                    f'aria-label="step {index + 1} {side}" style="content:url(&quot;{url}&quot;)">'
                    f"</span><figcaption>{e(side)}</figcaption></figure>"
                )
        rows.append(
            f"<tr><td>{index + 1}</td><td>{e(first.step)}</td>"
            f"<td><ul>{changes}</ul>{figures}</td></tr>"
        )
    n = len(record.regressions)
    return (
        f'{STYLE}<div class="pacts pacts-regressions"><b>{n} regression{"s" if n != 1 else ""}'
        f"</b> since the last passing run <code>{e(record.baseline)}</code>"
        f"{' (the test still passes)' if record.verdict == 'pass' else ''}"
        "<table><tr><th>#</th><th>Step</th><th>What changed</th></tr>"
        f"{''.join(rows)}</table></div>"
    )


def _css_url(url: str) -> str:
    """``url`` safe inside CSS ``url("...")``: the characters that could end it percent-encoded."""
    for char in '"\\()\n\r':
        url = url.replace(char, f"%{ord(char):02X}")
    return url


def _link(path: object, base: Path | None) -> str:
    if not isinstance(path, str) or not path:
        return ""
    if base is None:
        return f"`{path}`"
    try:
        relative = Path(os.path.relpath(path, base)).as_posix()
    except ValueError:
        relative = path
    return f"[picture]({relative})"


def _cell(text: object) -> str:
    return str(text or "").replace("|", "\\|").replace("\n", " ")


def run_markdown(
    run_id: str, entries: Sequence[Mapping[str, object]], run_dir: Path | None = None
) -> str:
    """``regressions.md`` of a run: per requirement compared with its last passing run, what
    changed (pictures linked relative to the run folder)."""
    compared = [e for e in entries if e.get("baseline")]
    flagged = [e for e in compared if e.get("regressions")]
    total = sum(len(_list(e.get("regressions"))) for e in flagged)
    lines = [
        f"# Regressions: run {run_id}",
        "",
        f"- Requirements compared with their last passing run: {len(compared)}",
        f"- Regressions: {total} in {len(flagged)} requirement(s)",
    ]
    new = [e for e in entries if not e.get("baseline") and e.get("verdict") == "pass"]
    if new:
        lines.append(f"- First trace bundle kept (nothing to compare yet): {len(new)}")
    if not flagged:
        lines += ["", "Nothing changed since the last passing runs."]
    for entry in flagged:
        lines += [
            "",
            f"## {entry.get('req_id')} ({entry.get('verdict')})",
            "",
            f"Compared with run `{entry.get('baseline')}`; test `{entry.get('nodeid')}`.",
            "",
            "| Step | What | Step in words | Change | Before | Now |",
            "|---|---|---|---|---|---|",
        ]
        for r in _list(entry.get("regressions")):
            index = r.get("step_index")
            step = index + 1 if isinstance(index, int) else "?"
            title = REGRESSION_TITLES.get(str(r.get("kind")), str(r.get("kind")))
            lines.append(
                f"| {step} | {_cell(title)} | {_cell(r.get('step'))} | {_cell(r.get('message'))} "
                f"| {_link(r.get('screenshot_before'), run_dir)} "
                f"| {_link(r.get('screenshot_after'), run_dir)} |"
            )
    return "\n".join(lines) + "\n"


def _list(value: object) -> list[Mapping[str, object]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def summary_lines(entries: Sequence[Mapping[str, object]], limit: int = 10) -> list[str]:
    """The terminal summary's regression lines: the count, then up to ``limit`` of them."""
    flagged = [e for e in entries if e.get("regressions")]
    if not flagged:
        return []
    total = sum(len(_list(e.get("regressions"))) for e in flagged)
    lines = [
        f"regressions: {total} in {len(flagged)} requirement(s), compared with their last "
        "passing run (flagged even when the test passes)"
    ]
    shown = 0
    for entry in flagged:
        for r in _list(entry.get("regressions")):
            if shown == limit:
                lines.append(f"  ... {total - limit} more in regressions.md")
                return lines
            index = r.get("step_index")
            step = index + 1 if isinstance(index, int) else "?"
            title = REGRESSION_TITLES.get(str(r.get("kind")), str(r.get("kind")))
            lines.append(f"  {entry.get('req_id')} step {step}: {title}: {r.get('message')}")
            shown += 1
    return lines


def comparison_markdown(result: RunComparison) -> str:
    """``pacts compare RUN_A RUN_B``: run B compared with run A, requirement by requirement."""
    lines = [
        f"# Compare: run {result.second} against run {result.first}",
        "",
        f"- Requirements compared: {len(result.comparisons)}",
        f"- Regressions: {result.regressions}",
    ]
    if result.only_first:
        lines.append(f"- Only in {result.first}: {', '.join(result.only_first)}")
    if result.only_second:
        lines.append(f"- Only in {result.second}: {', '.join(result.only_second)}")
    for c in result.comparisons:
        left = f", {c.skipped} step(s) not compared" if c.skipped else ""
        lines += ["", f"## {c.current.req_id}", "", f"{c.compared} step(s) compared{left}."]
        if not c.regressions:
            lines.append("No regressions.")
            continue
        lines += ["", "| Step | What | Step in words | Change |", "|---|---|---|---|"]
        for r in c.regressions:
            lines.append(
                f"| {r.step_index + 1} | {_cell(r.title)} | {_cell(r.step)} | {_cell(r.message)} |"
            )
    return "\n".join(lines) + "\n"
