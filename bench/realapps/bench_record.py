"""``pacts record`` and ``pacts import`` on the real-app corpus (issue 41, item 4).

For each app asked for, on its oldest version, every flow of ``flows/<app>.req.yaml`` is
done by hand while the :class:`~pytest_pacts.recording.Recorder` runs: each acting step is
a Playwright click, fill, select, check or key on the element the ground truth names for
that step and version (``truth/<app>.yaml``), as a person would click it; ``wait`` rows are
not done (the recorder suggests its own expectations). The same steps are also written as
a Playwright codegen script (``page.locator(<truth>).click()`` ...) and imported with
:func:`~pytest_pacts.recording.service.import_recording`.

Both sheets are then run by the corpus runner (``run_corpus.run_app``) on every version,
the oldest first with an empty store, the newer ones with the store it left, and each
acted-on element is checked against the truth mapped to the recorded rows. Printed:
rows recorded, rows that resolved back at record time, flows passing on the version they
were recorded on, on the newer version, heals, wrong-element actions.

Each sheet is also run under plain ``pytest`` (``python -m pytest FLOWS --base-url URL
--pacts-store STORE`` in a subprocess, from a directory with an empty ``pytest.ini``): on the
oldest version with an empty store, then on every newer one with the store the oldest run
left, as a team would run it after an upgrade.

``--apps demo`` does the same on the demo app: its checkout recorded by hand on v1, and
the DevTools Recorder export and the codegen script of ``tests/recording/data`` imported on
v1; each sheet run under plain ``pytest`` on v1, then on v2 with the store v1 left.

Run: ``.venv/bin/python bench/realapps/bench_record.py [--apps demo,datasette,flask_admin]``;
results in ``bench/realapps/out/record/``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import yaml
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pytest_pacts.browser import launch_options
from pytest_pacts.discovery import register_bridge
from pytest_pacts.models import Action, Plan
from pytest_pacts.planner.loader import LoaderOptions, load_file
from pytest_pacts.recording.model import Recording
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.service import import_recording, write_checked
from realapps.harness import HERE, AppSpec, load_apps
from realapps.run_corpus import FlowResult, load_truth, run_app

OUT = HERE / "out" / "record"


@dataclass(frozen=True)
class RecordedApp(AppSpec):
    """An app of the corpus whose flows and truth are the recorded ones."""

    flows_path: Path = Path()
    truth_path: Path = Path()

    @property
    def flows(self) -> Path:
        return self.flows_path

    @property
    def truth(self) -> Path:
        return self.truth_path

    @property
    def auth(self) -> Path | None:
        return None


def _resolve(text: str | None, plan: Plan, env: dict[str, str]) -> str:
    text = text or ""
    text = re.sub(r"\{\{env\.(\w+)(?::[^}]*)?\}\}", lambda m: env.get(m[1], ""), text)
    return re.sub(r"\{\{vars\.(\w+)\}\}", lambda m: str(plan.requirement.vars.get(m[1], "")), text)


def _do(page: Page, base: str, action: Action, selector: str | None, value: str) -> str | None:
    """One step as a person does it; answers the codegen line for it (None: nothing)."""
    quoted = repr(selector)
    if action is Action.GOTO:
        page.goto(urljoin(base, value))
        return f"    page.goto({urljoin(base, value)!r})"
    if action is Action.PRESS and selector is None:
        page.keyboard.press(value)
        return f"    page.keyboard.press({value!r})"
    if selector is None:
        return None
    if action is Action.CLICK:
        page.click(selector)
        return f"    page.locator({quoted}).click()"
    if action in (Action.FILL, Action.TYPE):
        # a person selects what the field holds before typing over it: a code editor
        # (CodeMirror 5's input textarea) would otherwise insert the text before it
        page.focus(selector)
        page.keyboard.press("ControlOrMeta+a")
        page.fill(selector, value)
        return f"    page.locator({quoted}).fill({value!r})"
    if action is Action.SELECT:
        try:
            page.select_option(selector, label=value, timeout=2_000)
        except Exception:  # a sheet's select takes a label or a value
            page.select_option(selector, value=value)
        return f"    page.locator({quoted}).select_option({value!r})"
    if action in (Action.CHECK, Action.UNCHECK):
        want = action is Action.CHECK
        if page.is_checked(selector) != want:
            page.click(selector)  # check() would look at the state before the click lands
        return f"    page.locator({quoted}).{action.value}()"
    if action is Action.PRESS:
        page.press(selector, value)
        return f"    page.locator({quoted}).press({value!r})"
    if action is Action.HOVER:
        page.hover(selector)
        page.wait_for_timeout(1_000)  # the recorder records a hover that lasts
        return f"    page.locator({quoted}).hover()"
    return None


def record_app(
    app: AppSpec, browser: Browser, out: Path
) -> tuple[list[Recording], list[dict[int, int]], list[str]]:
    """Each flow done by hand on the oldest version while recording; answers the
    recordings, for each the map recorded row -> flow step, and the codegen scripts."""
    version = app.versions[0]
    plans = load_file(app.flows, LoaderOptions(env=dict(app.env))).plans
    truth = load_truth(app.truth)
    recordings: list[Recording] = []
    rows: list[dict[int, int]] = []
    scripts: list[str] = []
    with app.serve(version) as served:
        base = served.base_url
        for plan in plans:
            context = browser.new_context()
            page = context.new_page()
            start = urljoin(base, plan.requirement.url)
            page.goto(start)
            hover = any(s.action is Action.HOVER for s in plan.steps)
            recorder = Recorder(
                req_id=plan.req_id, title=plan.requirement.title, overlay=False, hover=hover
            )
            recorder.start(page)
            mapping: dict[int, int] = {}
            typed: list[int] = []
            lines = ["def test_flow(page):", f"    page.goto({start!r})"]
            for k, step in enumerate(plan.steps, start=1):
                selector = truth.get(plan.req_id, {}).get(k, {}).get(version)
                value = _resolve(step.value, plan, dict(app.env))
                before = len(recorder.steps)
                try:
                    line = _do(page, base, step.action, selector, value)
                except Exception as exc:  # a benchmark reports, and goes on
                    print(f"  {plan.req_id} step {k}: could not be done: {exc}"[:200])
                    break
                recorder.idle()
                if line:
                    lines.append(line)
                if step.action in (Action.FILL, Action.TYPE):
                    typed.append(k)  # its row comes when the field's value is final
                for row in range(before, len(recorder.steps)):
                    done = recorder.steps[row]
                    if done.element is None:
                        continue
                    if done.action == "fill" and typed:
                        mapping[row + 1] = typed.pop(0)
                    elif done.action != "fill":
                        mapping[row + 1] = k
            recording = recorder.stop()
            context.close()
            recordings.append(recording)
            rows.append(mapping)
            scripts.append("\n".join(lines) + "\n")
    return recordings, rows, scripts


def import_app(app: AppSpec, browser: Browser, scripts: list[str], out: Path) -> list[Recording]:
    """Each flow's codegen script imported on the oldest version."""
    version = app.versions[0]
    plans = load_file(app.flows, LoaderOptions(env=dict(app.env))).plans
    recordings = []
    with app.serve(version) as served:
        for plan, script in zip(plans, scripts, strict=True):
            # the script was written against another start of the same version: its address
            text = re.sub(r"http://127\.0\.0\.1:\d+/?", served.base_url.rstrip("/") + "/", script)
            path = out / f"{plan.req_id}.py"
            path.write_text(text, encoding="utf-8")
            context = browser.new_context()
            page = context.new_page()
            recorder = Recorder(req_id=plan.req_id, title=plan.requirement.title, overlay=False)
            recordings.append(import_recording(page, path, recorder))
            context.close()
    return recordings


def _relative(text: str, base: str) -> str:
    return re.sub(r"^http://127\.0\.0\.1:\d+/?", "/", text) if text else text


def write_sheet(
    app: AppSpec, recordings: list[Recording], rows: list[dict[int, int]] | None, out: Path
) -> tuple[Path, Path, dict[str, str]]:
    """One flows file of every recording (URLs made relative, for every version's base)
    and its truth: each recorded row gets the truth of the flow step it was recorded from
    (for an import, the row's place among the script's element lines)."""
    truth = load_truth(app.truth)
    requirements: list[Any] = []
    new_truth: dict[str, dict[int, dict[str, str | None]]] = {}
    env: dict[str, str] = dict(app.env)
    for i, recording in enumerate(recordings):
        one = write_checked(recording, out / f"{recording.req_id}.req.yaml", source="bench")
        data = yaml.safe_load(one.path.read_text(encoding="utf-8"))["requirements"][0]
        data["url"] = _relative(data["url"], "")
        data["steps"] = [
            re.sub(r"\| goto \| http://127\.0\.0\.1:\d+/?", "| goto | /", s)
            if isinstance(s, str)
            else s
            for s in data["steps"]
        ]
        requirements.append(data)
        env.update(recording.secrets)
        if rows is not None:
            flow = truth.get(recording.req_id, {})
            new_truth[recording.req_id] = {
                row: dict(flow[k]) for row, k in rows[i].items() if k in flow
            }
    flows = out / f"{app.name}.req.yaml"
    flows.write_text(yaml.safe_dump({"requirements": requirements}, sort_keys=False), "utf-8")
    truth_path = out / f"{app.name}.truth.yaml"
    truth_path.write_text(yaml.safe_dump(new_truth), "utf-8")
    return flows, truth_path, env


def run_pytest(flows: Path, base_url: str, store: Path, env: dict[str, str], label: str) -> str:
    """``python -m pytest FLOWS`` as a person runs it: the sheet copied into a directory of
    its own with an empty ``pytest.ini`` (no project settings, nothing of this repository);
    answers pytest's last line (``pytest-<label>/output.txt`` keeps the whole output)."""
    here = flows.parent / f"pytest-{label}"
    shutil.rmtree(here, ignore_errors=True)
    here.mkdir(parents=True)
    (here / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    shutil.copy(flows, here / flows.name)
    command = [sys.executable, "-m", "pytest", flows.name, "-p", "no:cacheprovider", "-q",
               "--base-url", base_url, "--pacts-store", str(store.resolve())]  # fmt: skip
    done = subprocess.run(
        command, cwd=here, env={**os.environ, **env}, capture_output=True, text=True,
        timeout=1800, check=False,
    )  # fmt: skip
    (here / "output.txt").write_text(done.stdout + done.stderr, encoding="utf-8")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    last = lines[-1].strip("= ") if lines else f"pytest exit {done.returncode}"
    healed = [line.strip() for line in lines if line.startswith("healed:")]
    return f"{last} ({healed[0]})" if healed else last


def pytest_versions(app: AppSpec, flows: Path, env: dict[str, str]) -> list[str]:
    """The sheet under plain pytest on every version: the oldest with an empty store, the
    newer ones each with a copy of the store the oldest run left."""
    verdicts = []
    first = flows.parent / "store-oldest.sqlite"
    first.unlink(missing_ok=True)
    for i, version in enumerate(app.versions):
        store = first if i == 0 else flows.parent / f"store-{version}.sqlite"
        if i > 0:
            shutil.copy(first.with_name("store-oldest-after.sqlite"), store)
        with app.serve(version) as served:
            line = run_pytest(flows, served.base_url, store, env, version)
            verdicts.append(f"{version}: {line}")
        if i == 0:
            shutil.copy(first, first.with_name("store-oldest-after.sqlite"))
    return verdicts


def _summary(
    label: str, recordings: list[Recording], results: list[FlowResult], app: AppSpec
) -> str:
    rows = sum(len(r.steps) for r in recordings)
    verified = sum(1 for r in recordings for s in r.steps if s.verified)
    unmapped = sum(len(r.unmapped) for r in recordings)
    oldest = [r for r in results if r.version == app.versions[0]]
    newer = [r for r in results if r.version != app.versions[0]]
    healed = sum(r.healed for r in results)
    wrong = sum(r.wrong for r in results)
    return (
        f"{app.name} {label}: {len(recordings)} flows, {rows} rows, {verified} resolved back "
        f"at record time, {unmapped} steps not imported; passing on {app.versions[0]}: "
        f"{sum(r.passed for r in oldest)}/{len(oldest)}, on the newer version(s): "
        f"{sum(r.passed for r in newer)}/{len(newer)}; heals {healed}; wrong-element "
        f"actions {wrong}"
    )


def _demo_checkout(page: Page) -> None:
    """The demo's checkout as a person does it (tests/recording/test_record.py's steps)."""
    page.fill("#user-name", "standard_user")
    page.fill("#password", "secret_sauce")
    page.click("#login-button")
    page.wait_for_url("**/inventory.html")
    page.select_option("#sort", "lohi")
    page.click("#add-to-cart-sauce-labs-backpack")
    page.click(".shopping_cart_link")
    page.click("#checkout")
    page.fill("#first-name", "Ada")
    page.fill("#last-name", "Lovelace")
    page.fill("#postal-code", "10115")
    page.press("#postal-code", "Enter")
    page.click("#finish")
    page.click("text=Thank you for your order", modifiers=["Alt"])  # expect this text


def demo(browser: Browser) -> list[str]:
    """Record and import on the demo's v1; each sheet under plain pytest on v1, then v2."""
    from pytest_pacts.demo_app import DemoServer

    root = OUT / "demo"
    shutil.rmtree(root, ignore_errors=True)
    data = HERE.parent.parent / "tests" / "recording" / "data"
    sheets: list[tuple[str, Recording]] = []
    with DemoServer("v1") as v1:
        context = browser.new_context()
        page = context.new_page()
        page.goto(v1.url + "/")
        recorder = Recorder(req_id="REQ-DEMO-CHECKOUT", title="Check out the backpack")
        recorder.start(page)
        _demo_checkout(page)
        sheets.append(("recorded", recorder.stop()))
        context.close()
        for label, name in (("devtools", "devtools-checkout.json"),
                            ("codegen", "codegen_checkout.py.txt")):  # fmt: skip
            source = root / label / name.removesuffix(".txt")
            source.parent.mkdir(parents=True, exist_ok=True)
            text = (data / name).read_text(encoding="utf-8")
            source.write_text(text.replace("http://127.0.0.1:8000", v1.url), encoding="utf-8")
            context = browser.new_context()
            recorder = Recorder(req_id=f"REQ-DEMO-{label.upper()}", overlay=False)
            sheets.append((label, import_recording(context.new_page(), source, recorder)))
            context.close()
    lines = []
    for label, recording in sheets:
        folder = root / label
        written = write_checked(recording, folder / f"{label}.req.yaml", source="bench").path
        flows = folder / "flows.req.yaml"
        flows.write_text(
            re.sub(r"http://127\.0\.0\.1:\d+/?", "/", written.read_text(encoding="utf-8")),
            encoding="utf-8",
        )
        verdicts = []
        store = folder / "store.sqlite"
        for release in ("v1", "v2"):
            with DemoServer(release) as served:
                line = run_pytest(flows, served.url, store, recording.secrets, release)
                verdicts.append(f"{release}: {line}")
        rows = len(recording.steps)
        lines.append(
            f"demo {label}: {rows} rows, {rows - len(recording.unverified)} resolved back at "
            f"record time, {len(recording.unmapped)} steps not imported; under plain pytest: "
            + "; ".join(verdicts)
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", default="datasette,flask_admin")
    args = parser.parse_args()
    lines: list[str] = []
    with sync_playwright() as pw:
        register_bridge(pw.selectors)
        browser = pw.chromium.launch(**launch_options(None))  # type: ignore[arg-type]
        names = args.apps.split(",")
        if "demo" in names:
            lines.extend(demo(browser))
        for app in load_apps([n for n in names if n != "demo"]):
            root = OUT / app.name
            shutil.rmtree(root, ignore_errors=True)
            for label in ("recorded", "imported"):
                (root / label).mkdir(parents=True, exist_ok=True)
            print(f"== {app.name}: recording on {app.versions[0]}", flush=True)
            recordings, rows, scripts = record_app(app, browser, root / "recorded")
            flows, truth, env = write_sheet(app, recordings, rows, root / "recorded")
            spec = RecordedApp(**{**app.__dict__, "env": env}, flows_path=flows, truth_path=truth)
            results = run_app(spec, browser, snapshots=False, out_root=root / "recorded-runs")
            lines.append(_summary("recorded", recordings, results, app))
            lines.append(f"  under plain pytest: {'; '.join(pytest_versions(app, flows, env))}")
            print(f"== {app.name}: importing codegen scripts on {app.versions[0]}", flush=True)
            imported = import_app(app, browser, scripts, root / "imported")
            # an imported row has the truth of the recorded row at its place when both
            # name the same element (the same steps, done the same way)
            same = [
                {
                    row: k
                    for row, k in mapping.items()
                    if row <= min(len(imp.steps), len(rec.steps))
                    and imp.steps[row - 1].element == rec.steps[row - 1].element
                }
                for mapping, imp, rec in zip(rows, imported, recordings, strict=True)
            ]
            flows, truth, env = write_sheet(app, imported, same, root / "imported")
            spec = RecordedApp(**{**app.__dict__, "env": env}, flows_path=flows, truth_path=truth)
            results = run_app(spec, browser, snapshots=False, out_root=root / "imported-runs")
            lines.append(_summary("imported", imported, results, app))
            lines.append(f"  under plain pytest: {'; '.join(pytest_versions(app, flows, env))}")
        browser.close()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
