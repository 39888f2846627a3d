"""Calibration of discovery's confidences: how often a pick at each confidence was right.

Every flow of the real-app corpus (``bench/realapps``) runs on every version of its app
with an empty store and no healing, so every step is decided by a first discovery. Each
discovery that picks an element is checked, there and then, against the hand-written truth
selector of that step and version (``bench/realapps/truth/<app>.yaml``), by identity in the
page. The picks are bucketed by their confidence (discovery's own score of the pick, the
one its evidence rule weighs: the strategy's confidence, x0.95 for a substring match, and
so on) and the table says how often each bucket was right, for the dev and the held-out
apps apart (``bench/realapps/split.py``) and together. Measuring a held-out app tunes
nothing: the table is read, no confidence is changed for a held-out pick.

The run holds discovery to no evidence rule at all (every pick is taken, as before the
rule existed), so the table also shows what the rule's threshold refuses and whether that
was right to refuse. Wrong picks are listed with their step.

Run: ``.venv/bin/python bench/bench_calibration.py [--split dev|heldout|all]
[--apps datasette,django_admin] [--only-oldest]`` (default: every app of both splits).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from realapps.harness import AppSpec, load_apps, offline_launch_options
from realapps.run_corpus import Truth, _context_options, _sessions, load_truth
from realapps.split import SPLITS, declared, split_of

from pytest_pacts.auth import AuthFailed
from pytest_pacts.discovery import Discoverer, register_bridge, to_playwright
from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models.evidence import DEFAULT_THRESHOLD, Evidence, EvidenceRule
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.planner.loader import LoaderOptions, load_file
from pytest_pacts.store import open_store

BANDS = ((0.0, 0.75), (0.75, 0.8), (0.8, 0.85), (0.85, 0.9), (0.9, 0.95), (0.95, 1.01))


class _TakeAll(EvidenceRule):
    """No evidence rule: every pick is taken (what discovery did before the rule)."""

    def verdict(self, best: float, runner_up: float | None = None) -> Evidence:
        return Evidence.ACCEPTED


@dataclass(frozen=True)
class Pick:
    app: str
    version: str
    req_id: str
    step: int  # 1-based
    strategy: str
    confidence: float
    right: bool
    detail: str
    action: str = ""
    kind: str = ""  # for a pointer's pick: what the element is (``_NATURE``), else ""


# What a click, hover or check pick is (the survey of docs/real-apps.md, "Clicks on plain
# text"): "control" (HTML activation behaviour: a with href, button, input, select, textarea,
# summary, label, option; or a WAI-ARIA widget role; or editable), "inside" (within one), else
# "plain", followed by the signs a page shows that it is clickable anyway: "pointer" (CSS
# cursor), "tabindex", "on*" (an inline handler) and "role=X" (a non-widget role), each on the
# element or an ancestor. Read from the page by the bench, not by the engine.
_NATURE = """el => {
  const W = new Set(['button','link','checkbox','radio','switch','tab','menuitem',
    'menuitemcheckbox','menuitemradio','option','textbox','searchbox','combobox','spinbutton',
    'slider','scrollbar','treeitem','gridcell','listbox']);
  const T = new Set(['BUTTON','INPUT','SELECT','TEXTAREA','SUMMARY','LABEL','OPTION']);
  const up = (e) => e.parentElement || (e.getRootNode() && e.getRootNode().host) || null;
  const ctl = (e) => T.has(e.tagName) || (e.tagName === 'A' && e.hasAttribute('href'))
    || W.has(e.getAttribute('role')) || e.isContentEditable;
  let kind = ctl(el) ? 'control' : 'plain';
  const signs = [];
  for (let a = el; a; a = up(a)) {
    if (a !== el && ctl(a) && kind === 'plain') kind = 'inside';
    if (a.hasAttribute('tabindex') && !signs.includes('tabindex')) signs.push('tabindex');
    const on = [...a.attributes].some((x) => x.name.startsWith('on'));
    if (on && !signs.includes('on*')) signs.push('on*');
    const r = a.getAttribute('role');
    if (r && !W.has(r) && !signs.some((x) => x.startsWith('role='))) signs.push('role=' + r);
  }
  if (getComputedStyle(el).cursor === 'pointer') signs.unshift('pointer');
  return [kind, ...signs].join(' ') + ' <' + el.tagName.toLowerCase() + '>';
}"""
_POINTER = frozenset({"click", "hover", "check", "uncheck"})


def _nature(page: Page, result: DiscoveryResult) -> str:
    if result.locator is None or result.action not in _POINTER:
        return ""
    try:
        return str(to_playwright(page, result.locator).first.evaluate(_NATURE, timeout=3000))
    except PlaywrightError:
        return "?"


def _same(page: Page, result: DiscoveryResult, selector: str) -> bool:
    assert result.locator is not None
    truth = page.locator(selector).element_handles()
    try:
        picked = to_playwright(page, result.locator)
        return bool(picked.evaluate("(el, ts) => ts.includes(el)", truth, timeout=3000))
    finally:
        for handle in truth:
            handle.dispose()


def _checker(
    app: AppSpec,
    version: str,
    req_id: str,
    page: Page,
    truth: Truth,
    picks: list[Pick],
) -> Callable[[int, DiscoveryResult], None]:
    """The run's ``on_discovered``: each pick checked against the truth, there and then."""
    wanted = truth.get(req_id, {})

    def seen(index: int, result: DiscoveryResult) -> None:
        selector = wanted.get(index + 1, {}).get(version)
        if result.locator is None or not selector:
            return
        try:
            right = _same(page, result, selector)
        except PlaywrightError as exc:
            right, why = False, str(exc).splitlines()[0]
        else:
            why = "" if right else f"picked {result.locator.describe()}"
        locator = result.locator
        kind = _nature(page, result)
        picks.append(
            Pick(
                app.name,
                version,
                req_id,
                index + 1,
                locator.strategy.value,
                result.score if result.score is not None else locator.confidence,
                right,
                why,
                result.action,
                kind,
            )
        )

    return seen


def calibrate_version(
    app: AppSpec, version: str, browser: Browser, root: Path, step_timeout_s: float = 10.0
) -> list[Pick]:
    plans = load_file(app.flows, LoaderOptions(env=dict(app.env))).plans
    truth = load_truth(app.truth)
    picks: list[Pick] = []
    rule = _TakeAll()
    options = EngineOptions(step_timeout_ms=int(step_timeout_s * 1000), evidence=rule)
    store = open_store(root / f"{app.name}-{version}.sqlite")
    try:
        with app.serve(version) as served:
            sessions = _sessions(app, store, served.base_url, root / app.name / version, 10.0)
            for plan in plans:
                state: object | None = None
                if sessions is not None and plan.requirement.auth:
                    try:
                        state = sessions.storage_state(plan.requirement, browser)
                    except AuthFailed:
                        continue
                context = browser.new_context(**_context_options(state))
                page = context.new_page()
                seen = _checker(app, version, plan.req_id, page, truth, picks)
                runtime = Runtime(
                    env=dict(app.env),
                    base_url=served.base_url,
                    options=options,
                    discoverer=Discoverer(evidence=rule),
                    on_discovered=seen,
                    record=False,
                )
                try:
                    run_requirement(plan, page, runtime)
                finally:
                    context.close()
    finally:
        store.close()
    return picks


def table(picks: list[Pick]) -> str:
    lines = [
        "| confidence | picks | right | share right | strategies |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for low, high in BANDS:
        band = [p for p in picks if low <= round(p.confidence, 3) < high]
        if not band:
            continue
        right = sum(p.right for p in band)
        kinds: dict[str, int] = defaultdict(int)
        for p in band:
            kinds[p.strategy] += 1
        shown = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
        label = (
            f"< {high:.2f}"
            if low == 0
            else (f"≥ {low:.2f}" if high > 1 else f"{low:.2f}-{high:.2f}")
        )
        lines.append(f"| {label} | {len(band)} | {right} | {right / len(band):.1%} | {shown} |")
    confident = [p for p in picks if p.confidence >= 0.9]
    if confident:
        right = sum(p.right for p in confident)
        lines.append(f"\nat ≥ 0.90: {right}/{len(confident)} right ({right / len(confident):.1%})")
    refused = [p for p in picks if p.confidence < DEFAULT_THRESHOLD]
    lines.append(
        f"below the threshold {DEFAULT_THRESHOLD:.2f} (refused under the rule): {len(refused)} "
        f"picks, {sum(p.right for p in refused)} of them right"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", default="", help="comma-separated names (default: the split's)")
    parser.add_argument(
        "--split",
        choices=[*SPLITS, "all"],
        default="all",
        help="the apps of the dev split, the held-out split, or both (the default)",
    )
    parser.add_argument("--only-oldest", action="store_true", help="the oldest version only")
    # a page whose script takes longer than a step to reach its load event at the machine's
    # load (TensorBoard's 7.6 MB script at load 64-80) needs a longer limit, as run_corpus's
    parser.add_argument("--step-timeout", type=float, default=10.0, help="seconds (default 10)")
    parser.add_argument(
        "--picks",
        type=Path,
        default=None,
        help="also append every pick to this JSON lines file as it is made (a run stopped "
        "half-way keeps what it measured); with --table-only, read them back",
    )
    parser.add_argument(
        "--table-only", action="store_true", help="print the table of the --picks file(s) only"
    )
    args = parser.parse_args()
    if args.table_only:
        kept = [
            Pick(**json.loads(line))
            for path in str(args.picks).split(",")
            for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        _report(kept)
        return 0
    names = args.apps.split(",") if args.apps else list(declared(args.split))
    apps = load_apps(names)
    picks: list[Pick] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        register_bridge(pw.selectors)
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        try:
            for app in apps:
                for version in app.versions[: 1 if args.only_oldest else None]:
                    try:
                        found = calibrate_version(
                            app, version, browser, Path(tmp), args.step_timeout
                        )
                    except (RuntimeError, OSError) as exc:  # not served (or installed): go on
                        print(f"{app.name} {version}: not run ({str(exc).splitlines()[0]})")
                        continue
                    right = sum(p.right for p in found)
                    print(f"{app.name} {version}: {right}/{len(found)} picks right", flush=True)
                    picks.extend(found)
                    if args.picks is not None:
                        with args.picks.open("a", encoding="utf-8") as fh:
                            fh.writelines(json.dumps(asdict(p)) + "\n" for p in found)
        finally:
            browser.close()
    _report(picks)
    return 0


def _shown(kind: str) -> bool:
    """A sign that the element is clickable: the cursor, a tabindex or an inline handler (a
    non-widget role, a landmark such as ``navigation``, says nothing of clicking)."""
    return any(sign in kind.split() for sign in ("pointer", "tabindex", "on*"))


def survey(picks: list[Pick]) -> str:
    """Per app, the pointer's picks (click, hover, check) by what the element is: a control,
    inside one, or plain (shown clickable by a sign, or by none), with how many were right;
    then every plain pick."""
    lines = [
        "| app | pointer picks | control | inside one | plain, shown clickable | plain, no sign |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    ours = [p for p in picks if p.kind]
    for app in dict.fromkeys(p.app for p in ours):
        mine = [p for p in ours if p.app == app]

        def cell(test: Callable[[str], bool], mine: list[Pick] = mine) -> str:
            got = [p for p in mine if test(p.kind)]
            return f"{len(got)} ({sum(p.right for p in got)} right)" if got else "0"

        lines.append(
            f"| {app} | {len(mine)} | {cell(lambda k: k.startswith('control'))} "
            f"| {cell(lambda k: k.startswith('inside'))} "
            f"| {cell(lambda k: k.startswith('plain') and _shown(k))} "
            f"| {cell(lambda k: k.startswith('plain') and not _shown(k))} |"
        )
    for p in ours:
        if p.kind.startswith(("plain", "?")):
            lines.append(
                f"  {p.kind}: {p.app} {p.version} {p.req_id} step {p.step} {p.action} "
                f"({p.strategy} {p.confidence:.3f}) {'right' if p.right else 'wrong'}"
            )
    return "\n".join(lines)


def _report(picks: list[Pick]) -> None:
    if any(p.kind for p in picks):
        print("\nthe pointer's picks by what they are:")
        print(survey(picks))
    for split in SPLITS:
        mine = [p for p in picks if split_of(p.app) == split]
        if mine and len(mine) < len(picks):
            print(f"\n{split} ({', '.join(dict.fromkeys(p.app for p in mine))}):")
            print(table(mine))
    print("\nall:" if len({split_of(p.app) for p in picks}) > 1 else "")
    print(table(picks))
    for p in picks:
        if not p.right:
            print(
                f"  wrong ({split_of(p.app)}): {p.app} {p.version} {p.req_id} step {p.step} "
                f"({p.strategy} {p.confidence:.3f}) {p.detail}"
            )
    for p in picks:
        if p.confidence < DEFAULT_THRESHOLD:
            print(
                f"  below {DEFAULT_THRESHOLD}: {p.app} {p.version} {p.req_id} step {p.step} "
                f"({p.strategy} {p.confidence:.3f}) {'right' if p.right else 'wrong'}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
