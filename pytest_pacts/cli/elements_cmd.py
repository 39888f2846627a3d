"""``pacts elements URL``: the elements a person can name on a page, for writing
``Element@Region`` cells, and a screenshot with a numbered box on each.

Each text shown was resolved by the discovery the tests use and checked to find that very
element (``discovery/inventory.py``), so it can be pasted into a sheet as it is. A page
behind a login is reached with ``--after FILE::REQ-ID``: that requirement's flow is walked
first (as ``pacts discover`` walks it) and the page it ends on is listed, or ``URL`` is
opened next in the same browser session.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from contextlib import ExitStack, suppress
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from pytest_pacts.cli.common import (
    EXIT_ENVIRONMENT,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CommandError,
)
from pytest_pacts.cli.render import clip, out, width
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

SETTLE_MS = 3_000.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "elements",
        help="list the elements of a page with the Element@Region text that finds each",
        description="Open URL in Chromium and list the elements a person can name there "
        "(buttons, links, fields, checkboxes, selects), grouped by region, each with the "
        "Element@Region text that discovery resolves to exactly that element; write a "
        "full-page screenshot with a numbered box on each (grey: no text singles it out). "
        "Nothing on the page is clicked or typed into, except by the flow --after names.",
    )
    parser.add_argument("url", nargs="?", metavar="URL", help="absolute, or relative to the base")
    parser.add_argument("--base-url", help="base for a relative URL (default: the ini's base_url)")
    parser.add_argument(
        "--demo", choices=("v1", "v2"), help="serve the bundled demo app and use it as base URL"
    )
    parser.add_argument(
        "--after",
        metavar="FILE::REQ-ID",
        help="walk this requirement's flow first (it performs its steps, as pacts discover "
        "does) and list the page it ends on, or open URL after it in the same session",
    )
    parser.add_argument(
        "--until",
        type=int,
        metavar="STEP",
        help="with --after: walk only the steps before STEP and list the page STEP acts on",
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="PNG",
        help="where to write the annotated screenshot (default: elements-<page>.png here)",
    )
    parser.add_argument("--no-screenshot", action="store_true", help="write no screenshot")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--browser-path", help="Chromium executable (default: detect)")
    parser.add_argument(
        "--connect",
        metavar="WS_ENDPOINT",
        help="connect to a Playwright browser server (ws://host:port/path) instead of "
        "launching a local Chromium",
    )
    parser.set_defaults(func=run)


def _absolute(url: str, base_url: str | None) -> str:
    if "://" in url or url.startswith(("about:", "data:")):
        return url
    if not base_url:
        raise CommandError(
            f"the URL {url!r} is relative and no base URL is set: pass --base-url or --demo, "
            "set base_url in your ini file, or write an absolute URL",
            EXIT_USAGE,
        )
    return urljoin(base_url if base_url.endswith("/") else base_url + "/", url.lstrip("/"))


def default_screenshot(url: str) -> Path:
    """``elements-<last path segment>.png`` (``elements-index.png`` for ``/``)."""
    segment = urlsplit(url).path.rstrip("/").rpartition("/")[2]
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", segment.rsplit(".", 1)[0]).strip("-") or "index"
    return Path(f"elements-{slug}.png")


def _print(url: str, elements: list[object], shot: Path | None) -> None:
    from pytest_pacts.discovery.inventory import PageElement, grouped

    items = [e for e in elements if isinstance(e, PageElement)]
    named = sum(1 for e in items if e.text is not None)
    out(f"{url}")
    out(
        f"{len(items)} element(s), {named} with a text that finds exactly that element"
        + (f"; screenshot: {shot}" if shot else "")
    )
    text_cells = min(60, max((width(e.text or "") for e in items), default=0))
    for group, members in grouped(items).items():
        out("")
        out(group)
        for e in members:
            shown = clip(e.text, 60) if e.text else "-"
            line = f"  {e.number:>3}  {e.action:<6}  {shown}{' ' * (text_cells - width(shown))}"
            out(f"{line}  {e.description}")
            if e.text is None and e.why:
                out(f"{'':14}no unique text: {e.why}")


# long because: the command's steps in order (page, elements, output); its options read once here
def run(args: argparse.Namespace) -> int:
    # usage errors first, before pytest's, the browser's and the engine's modules are
    # imported (most of a second of CPU): a mistyped command is answered at once
    if args.url is None and args.after is None:
        raise CommandError("give a URL, or --after FILE::REQ-ID, or both", EXIT_USAGE)
    if args.until is not None and (args.after is None or args.until < 1):
        raise CommandError(
            "--until STEP goes with --after and counts steps from 1, as they are printed",
            EXIT_USAGE,
        )
    from pytest_pacts.cli.project import load_project

    plan = None
    project = None
    if args.after is not None:
        file, sep, req_id = args.after.partition("::")
        if not sep or not req_id:
            raise CommandError("--after takes FILE::REQ-ID, as pytest names a test", EXIT_USAGE)
        project = load_project([Path(file)])
        for refused in project.failed:
            raise CommandError("\n".join(refused.problems))
        plan = next((p for p in project.plans if p.req_id == req_id), None)
        if plan is None:
            known = ", ".join(p.req_id for p in project.plans) or "none"
            raise CommandError(f"{file} has no requirement {req_id} (it has: {known})", EXIT_USAGE)
    base_url = args.base_url
    if base_url is None and args.demo is None:
        base_url = project.base_url if project is not None else load_project([]).base_url
    timeout_ms = project.step_timeout_ms if project is not None else DEFAULT_STEP_TIMEOUT_MS
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.auth import AuthFailed
    from pytest_pacts.browser import NoBrowserError, StandaloneBrowser
    from pytest_pacts.cli.project import auth_sessions_for
    from pytest_pacts.cli.walk import walk_plan
    from pytest_pacts.contexts import ContextSetup
    from pytest_pacts.discovery.inventory import annotate, list_elements

    with ExitStack() as stack:
        if args.demo:
            from pytest_pacts.demo_app import DemoServer

            base_url = stack.enter_context(DemoServer(args.demo)).url
        url = _absolute(args.url, base_url) if args.url is not None else None
        try:
            browser = stack.enter_context(
                StandaloneBrowser(args.browser_path, connect=args.connect)
            )
            try:
                page = stack.enter_context(
                    ContextSetup(session=auth_sessions_for(project, base_url, stack)).page(
                        browser.browser, plan.requirement
                    )
                    if plan is not None and project is not None
                    else browser.page()
                )
            except AuthFailed as exc:
                raise CommandError(exc.text) from None
            if plan is not None:
                until = None if args.until is None else args.until - 1
                walk = walk_plan(page, plan, base_url, step_timeout_ms=timeout_ms, until=until)
                if walk.halted:
                    for problem in walk.problems:
                        print(problem, file=sys.stderr)
                    raise CommandError(
                        f"the flow of {plan.req_id} did not finish, so its last page was not "
                        "reached; `pacts discover` shows each step"
                    )
            if url is not None:
                response = page.goto(url, wait_until="load", timeout=timeout_ms)
                if response is not None and response.status >= 400:
                    raise CommandError(f"{url} answered HTTP {response.status}", EXIT_PROBLEMS)
            with suppress(PlaywrightError):  # a page that keeps polling is listed as it is
                page.wait_for_load_state("networkidle", timeout=SETTLE_MS)
            shown_url = page.url
            elements = list_elements(page, timeout_ms=timeout_ms)
            shot: Path | None = None
            if not args.no_screenshot:
                shot = args.screenshot or default_screenshot(shown_url)
                annotate(page, elements, shot, timeout_ms=timeout_ms)
        except NoBrowserError as exc:
            raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
        except PlaywrightError as exc:
            raise CommandError(
                f"the browser failed: {str(exc).splitlines()[0]}", EXIT_ENVIRONMENT
            ) from None
    if args.json:
        print(
            json.dumps(
                {
                    "url": shown_url,
                    "screenshot": str(shot) if shot else None,
                    "elements": [e.as_json() for e in elements],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        _print(shown_url, list(elements), shot)
    return EXIT_OK
