"""pytest-html fragments for one requirement. Pure functions, no pytest.

Every value is escaped (``html.escape``) before it is placed in markup; cell text from
requirement sheets is untrusted input. Images are not handled here: the hook module adds
them as pytest-html ``png`` extras (base64, so ``--self-contained-html`` embeds them).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape

from pydantic import ValidationError

from pytest_pacts.models.locator import GateSnapshot, Locator
from pytest_pacts.models.locator_change import payload_change
from pytest_pacts.models.outcome import RunRecord, StepRecord
from pytest_pacts.reports.proposals import ProposalView
from pytest_pacts.reports.summary import RunSummary

STYLE = """<style>
/* a partial run: pytest-html files and filters it with the passed tests (its data says
   "Passed"), the Result column says "Partial" */
td.col-result.pacts-partial{font-size:0}
td.col-result.pacts-partial::after{content:"Partial";font-size:12px;color:#ef6c00}
.pacts{font-family:system-ui,sans-serif;font-size:13px;margin:6px 0}
/* pytest-html greys every table cell; the verdict and its evidence are the report */
.pacts,.pacts td,.pacts th,.pacts li{color:#1f2328}
.pacts td.pacts-slo-FAIL{color:#c62828;font-weight:600}
.pacts td.pacts-slo-PASS{color:#2e7d32;font-weight:600}
.pacts table{border-collapse:collapse;margin:6px 0;width:100%}
.pacts th,.pacts td{border:1px solid #ccd;padding:3px 6px;text-align:left;vertical-align:top}
.pacts th{background:#eef2f8}
.pacts code{font-size:12px;word-break:break-all}
.pacts-rca{border-left:5px solid #888;background:#f6f6f6;padding:6px 10px;margin:6px 0}
.pacts-rca.fail{border-color:#c62828;background:#fdecea}
.pacts-rca.pass{border-color:#2e7d32;background:#edf7ed}
.pacts-rca.partial{border-color:#ef6c00;background:#fff4e5}
.pacts-badge{display:inline-block;border-radius:9px;padding:1px 8px;font-weight:600;color:#fff}
.pacts-badge.contract{background:#2e7d32}.pacts-badge.exception{background:#c62828}
.pacts-badge.ungated{background:#757575}.pacts-badge.promotion{background:#ef6c00}
.pacts-step-failed{background:#fdecea}.pacts-step-healed{background:#fff8e1}
.pacts-step-skipped,.pacts-step-not_run{color:#777}
.pacts-heal{border:1px solid #f0c36d;background:#fffdf5;padding:6px 10px;margin:6px 0}
.pacts textarea{width:100%;height:10em;font-family:monospace;font-size:12px}
.pacts pre{white-space:pre-wrap;margin:4px 0}
.pacts-regressions{border-left:5px solid #8e24aa;background:#f8f0fb;padding:6px 10px;margin:6px 0}
</style>"""


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def verdict_text(verdict: str | None, healed: bool) -> str:
    """The Verdict column's text: ``pass``, ``pass (healed)``, ``fail``, ``partial``."""
    if verdict is None:
        return "-"
    return f"{verdict} (healed)" if healed else verdict


def verdict_cell(verdict: str | None, healed: bool) -> str:
    return f'<td class="col-verdict">{e(verdict_text(verdict, healed))}</td>'


#: The Result cell of a partial run: the word pytest-html filters and sorts by stays "Passed"
#: (a row whose result it does not know is never shown), STYLE shows "Partial".
PARTIAL_RESULT = (
    '<td class="col-result pacts-partial" title="partial: steps with on_fail: skip were '
    'skipped">Passed</td>'
)
VERDICT_HEADER = '<th class="sortable" data-column-type="verdict">Verdict</th>'


def gate_text(gate: GateSnapshot | None) -> str:
    """``5/5`` when every point passed, else the failed points and their reasons."""
    if gate is None:
        return "-"
    passed = sum(1 for p in gate.points if p.ok)
    # points not checked because an earlier one failed add nothing a reader needs
    failed = [f"{p.name}: {p.reason}" for p in gate.points if not p.ok and p.code != "skipped"]
    return f"{passed}/{len(gate.points)}" + (" · " + "; ".join(failed) if failed else "")


def _step_row(step: StepRecord) -> str:
    locator = step.code or (step.locator.describe() if step.locator else "-")
    conf = f"{step.confidence:.2f}" if step.confidence is not None else "-"
    strategy = step.strategy or "-"
    image = step.image_match
    if image is not None:
        x, y, w, h = image.box
        locator = (
            f"image:{image.template} {image.verdict} at ({x}, {y}) {w}x{h} px, runner-up "
            f"{image.runner_up:.2f}" + (f", clicked {image.hit}" if image.hit else "")
        )
        conf, strategy = f"{image.score:.2f}", "image"
    expect = step.expectation or ""
    if step.expectation_ok is not None and expect:
        expect += " ✓" if step.expectation_ok else " ✗"
    notes = "".join(f'<br><small class="pacts-note">warning: {e(n)}</small>' for n in step.notes)
    # what an extract step stored (secret values arrive as ***)
    notes += "".join(
        f'<br><small class="pacts-extracted">stored <code>{{{{vars.{e(k)}}}}}</code> = '
        f"<code>{e(v)}</code></small>"
        for k, v in step.extracted.items()
    )
    return (
        f'<tr class="pacts-step-{e(step.status)}"><td>{step.index + 1}</td>'
        f"<td>{e(step.action)}</td><td>{e(step.description)}{notes}</td>"
        f"<td><code>{e(locator)}</code></td><td>{e(strategy)}</td>"
        f"<td>{e(conf)}</td><td>{e(gate_text(step.gate))}</td><td>{e(expect)}</td>"
        f"<td>{e(step.status)}{' x' + str(len(step.heals)) if step.heals else ''}</td>"
        f"<td>{step.duration_ms:.0f} ms</td></tr>"
    )


def step_table(record: RunRecord) -> str:
    head = (
        "<tr><th>#</th><th>Action</th><th>Step</th><th>Locator</th><th>Strategy</th>"
        "<th>Confidence</th><th>Gate points</th><th>Expected</th><th>Status</th>"
        "<th>Duration</th></tr>"
    )
    rows = "".join(_step_row(s) for s in record.steps)
    return f'<table class="pacts-steps">{head}{rows}</table>'


def rca_box(record: RunRecord) -> str:
    rca = record.rca
    parts = [
        f'<div class="pacts-rca {e(record.verdict)}"><b>Verdict: '
        f"{e(verdict_text(record.verdict, record.healed))}</b> · RCA "
        f"<b>{e(rca.rca_class.value)}</b> (confidence {rca.confidence:.2f})",
        f"<div>{e(rca.message)}</div>",
    ]
    if rca.evidence:
        parts.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in rca.evidence) + "</ul>")
    if rca.recommendation:
        parts.append(f"<div><i>Recommendation:</i> {e(rca.recommendation)}</div>")
    failed = record.failed_step
    if failed is not None and failed.failure is not None:
        f = failed.failure
        parts.append(
            f"<div>Failed at step {failed.index + 1} ({e(failed.source)}): "
            f"<code>{e(f.type.value)}</code> {e(f.message)}</div>"
        )
        if f.candidates:
            parts.append(
                "<div>Candidates considered: "
                + ", ".join(f"{e(c.description)} ({c.score:.2f})" for c in f.candidates)
                + "</div>"
            )
    parts.append("</div>")
    return "".join(parts)


def badges(view: ProposalView) -> str:
    track = view.track or "ungated"
    out = f'<span class="pacts-badge {e(track)}">{e(view.badge)}</span>'
    if view.promotion_required:
        reason = f": {view.promotion_reason}" if view.promotion_reason else ""
        out += f' <span class="pacts-badge promotion">{e(view.promotion_label + reason)}</span>'
    return out


def _locator_text(value: object) -> str:
    """A locator's short human form (``role_name button "Log in"``), else its JSON."""
    if isinstance(value, Mapping):
        try:
            return Locator.model_validate(dict(value)).describe()
        except ValidationError:
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def heal_box(view: ProposalView) -> str:
    heal = view.heal
    score = heal.get("score")
    runner = heal.get("runner_up_score")
    lines = [
        f'<div class="pacts-heal">{badges(view)} <b>Heal proposal {e(view.id)}</b>'
        f" · step {e(view.step_index + 1 if view.step_index is not None else '?')}"
        f" · {e(view.element_key or '')}"
        + (f" · severity {e(view.severity)}" if view.severity else "")
        + (f" · {e(view.status)}" if view.status else ""),
    ]
    if heal:
        lines.append(
            "<table><tr><th>Healed by</th><th>Old locator</th><th>New locator</th>"
            "<th>Score</th><th>Runner-up</th></tr><tr>"
            f"<td>{e(heal.get('rung'))} after {e(heal.get('failure'))}</td>"
            f"<td><code>{e(_locator_text(heal.get('old_locator', '-')))}</code></td>"
            f"<td><code>{e(_locator_text(heal.get('new_locator', '-')))}</code></td>"
            f"<td>{e(f'{score:.2f}' if isinstance(score, float | int) else '-')}</td>"
            f"<td>{e(f'{runner:.2f}' if isinstance(runner, float | int) else '-')}</td>"
            "</tr></table>"
        )
        change = payload_change(heal.get("old_locator"), heal.get("new_locator"))
        if change:  # old and new can read the same (the region's container changed)
            lines.append(f'<p class="pacts-change">What changed: {e(change)}</p>')
    if view.rule:
        lines.append(f"<p>Rule: {e(view.rule)}</p>")
    if view.gate is not None:
        gate = json.dumps(view.gate, indent=2, ensure_ascii=False)
        lines.append(
            f"<details><summary>Self-heal gate (JSON)</summary><pre>{e(gate)}</pre></details>"
        )
    if view.copy_text:
        lines.append(
            "<details><summary>Copy proposal</summary>"
            '<button type="button" onclick="navigator.clipboard.writeText('
            'this.nextElementSibling.value)">Copy to clipboard</button>'
            f"<textarea readonly>{e(view.copy_text)}</textarea></details>"
        )
    lines.append("</div>")
    return "".join(lines)


def requirement_html(record: RunRecord, proposals: Sequence[ProposalView]) -> str:
    """The whole per-test block: RCA box, heals with badges, the step table."""
    heals = "".join(heal_box(v) for v in proposals)
    return (
        f'{STYLE}<div class="pacts" data-req-id="{e(record.req_id)}">'
        f"{rca_box(record)}{heals}{step_table(record)}</div>"
    )


def _regressions(summary: RunSummary) -> str:
    if not summary.regression_lines:
        return ""
    head, *rest = summary.regression_lines
    items = "".join(f"<li>{e(line.strip())}</li>" for line in rest)
    return f'<div class="pacts-regressions"><b>{e(head)}</b><ul>{items}</ul></div>'


def summary_html(summary: RunSummary) -> str:
    """The pytest-html summary section: verdicts, heals by track, SLOs."""
    v = summary.verdicts
    slo_rows = "".join(
        f"<tr><td>{e(s.title)}</td><td>{e(s.target)}</td><td>{e(s.actual)}</td>"
        f'<td class="pacts-slo-{e(s.status.replace("/", ""))}">{e(s.status)}</td></tr>'
        for s in summary.slos
    )
    tracks = ", ".join(f"{e(t)} {n}" for t, n in summary.heals_by_track.items())
    pending = ", ".join(f"{e(t)} {n}" for t, n in summary.pending_by_track.items())
    where = f"<p>Artifacts: <code>{e(summary.report_dir)}</code></p>" if summary.report_dir else ""
    if summary.results:
        files = "".join(f"<li><code>{e(path)}</code></li>" for path in summary.results)
        where += f"<p>Results back to the sheet:</p><ul>{files}</ul>"
    slo_table = (
        f"<table><tr><th>SLO ({e(summary.slo_scope)})</th><th>Target</th><th>Actual</th>"
        f"<th>Status</th></tr>{slo_rows}</table>"
        if summary.slos
        else ""
    )
    return (
        f'{STYLE}<div class="pacts pacts-summary"><h2>pytest-pacts</h2>'
        f"<p>Verdicts: <b>{v['pass']}</b> pass, <b>{v['fail']}</b> fail, "
        f"<b>{v['partial']}</b> partial · healed: <b>{summary.healed}</b></p>"
        f"<p>Heals by track: {tracks} · pending proposals: {pending} · "
        f"promotion required: <b>{summary.promotion_required}</b></p>"
        f"{_regressions(summary)}{slo_table}{where}</div>"
    )
