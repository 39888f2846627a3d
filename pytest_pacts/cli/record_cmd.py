"""``pacts record URL --out FILE``: write a requirement sheet by doing the steps in
Chromium, each element named as discovery names it and checked to resolve back to it; and
``pacts import RECORDING --out FILE`` for recordings of Chrome DevTools' Recorder and
Playwright's codegen. The work is in :mod:`pytest_pacts.recording.service`.
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pytest_pacts.cli.common import (
    EXIT_ENVIRONMENT,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CommandError,
)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", required=True, type=Path, metavar="FILE",
        help="the sheet to write: .req.yaml, .req.json or .xlsx",
    )  # fmt: skip
    parser.add_argument("--req-id", default="REQ-RECORDED-001", help="the requirement's id")
    parser.add_argument("--title", help="the requirement's title")
    parser.add_argument(
        "--verify", action="store_true",
        help="run the written file under pytest once, right away, and report the verdict",
    )  # fmt: skip
    parser.add_argument("--browser-path", help="Chromium executable (default: detect)")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "record",
        help="write a requirement sheet by doing its steps in Chromium",
        description="Open URL in Chromium (headed when a display exists) and write what you "
        "do as rows: each element named as discovery names it (Element, then "
        "Element@Region, an ordinal last) and checked to resolve back to exactly the "
        "element used; typing into secret fields is written as {{env.NAME}}; navigations "
        "and new texts are suggested as expected outcomes. Alt+click a text (or the "
        "overlay's 'Expect a text' button, then the text) to expect it. Stop with Ctrl-C "
        "or by closing the browser.",
    )
    parser.add_argument("url", metavar="URL", help="absolute, or relative to --base-url")
    _common(parser)
    parser.add_argument("--base-url", help="base for a relative URL (default: the ini's)")
    parser.add_argument(
        "--demo", choices=("v1", "v2"), help="serve the bundled demo app and use it as base URL"
    )
    parser.add_argument(
        "--auth", metavar="PROFILE", help="start signed in by this auth profile (pacts-auth.yaml)"
    )
    parser.add_argument("--hover", action="store_true", help="record hovering too")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--headless", action="store_true", help="no browser window")
    shown.add_argument("--headed", action="store_true", help="a browser window")
    parser.add_argument(
        "--until", type=float, metavar="SECONDS",
        help="stop recording after this many seconds (scripts and tests)",
    )  # fmt: skip
    parser.set_defaults(func=run_record)

    parser = subparsers.add_parser(
        "import",
        help="turn a DevTools Recorder JSON or a Playwright codegen script into a sheet",
        description="Replay RECORDING once in Chromium (headless) and write it as a sheet: "
        "each element found by the recording's selectors and named by our discovery (the "
        "selectors are not written). Steps that cannot be mapped are listed with the "
        "reason, in the file and on the terminal.",
    )
    parser.add_argument("recording", type=Path, metavar="RECORDING", help=".json or .py")
    _common(parser)
    parser.set_defaults(func=run_import)


def _say(text: str) -> None:
    print(f"pacts: {text}", file=sys.stderr)


def _finish(args: argparse.Namespace, written: object, command: str) -> int:
    from pytest_pacts.recording.service import Written, verify

    assert isinstance(written, Written)
    recording = written.recording
    print(f"wrote {written.path}: {len(recording.steps)} row(s), "
          f"{len(recording.unverified)} not verified")  # fmt: skip
    for step in recording.unverified:
        print(f"  not verified: {step.element} | {step.action}: {step.note}")
    for name, why in recording.env.items():
        print(f"  set {name} before running ({why})")
    for text in recording.unmapped:
        print(f"  not imported: {text}")
    if args.verify:
        code = verify(written.path, recording, echo=print)
        return EXIT_OK if code == 0 else EXIT_PROBLEMS
    return EXIT_OK if not recording.unverified and not recording.unmapped else EXIT_PROBLEMS


# long because: the command's steps in order: imports its command needs, browser, recorder, writers
def run_record(args: argparse.Namespace) -> int:
    from pytest_pacts.cli.elements_cmd import _absolute
    from pytest_pacts.cli.project import load_project
    from pytest_pacts.planner.errors import RequirementFileError
    from pytest_pacts.recording.recorder import Recorder
    from pytest_pacts.recording.service import write_checked
    from pytest_pacts.recording.writers import file_format

    try:
        file_format(args.out)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    project = load_project([])
    base_url = args.base_url or (None if args.demo else project.base_url)
    with ExitStack() as stack:
        if args.demo:
            from pytest_pacts.demo_app import DemoServer

            base_url = stack.enter_context(DemoServer(args.demo)).url
        url = _absolute(args.url, base_url)
        recorder = Recorder(req_id=args.req_id, title=args.title, auth=args.auth,
                            hover=args.hover, say=_say)  # fmt: skip
        _record_in_browser(args, project, base_url, url, recorder)
        recording = recorder.stop()
        recording.url = recording.url or url
        if not recording.steps:
            raise CommandError(f"nothing was recorded, so {args.out} was not written")
        try:
            written = write_checked(recording, args.out, source="pacts record")
        except RequirementFileError as exc:
            raise CommandError(f"the written file does not load: {exc}") from None
        return _finish(args, written, "record")


def _record_in_browser(
    args: argparse.Namespace, project: Any, base_url: str | None, url: str, recorder: Any
) -> None:
    """Open Chromium (signed in by ``--auth``) at ``url`` and record until ``--until``,
    Ctrl-C or the browser closing; a browser that went away keeps what was recorded."""
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.auth import AuthFailed
    from pytest_pacts.browser import NoBrowserError, StandaloneBrowser
    from pytest_pacts.cli.project import auth_sessions_for
    from pytest_pacts.recording.service import headed_by_default, record, recording_page

    headless = args.headless or (not args.headed and not headed_by_default())
    deadline = None if args.until is None else time.monotonic() + args.until
    try:
        with ExitStack() as browsing:
            browser = browsing.enter_context(
                StandaloneBrowser(args.browser_path, headless=headless)
            )
            session = auth_sessions_for(project, base_url, browsing) if args.auth else None
            if args.auth and session is None:
                raise CommandError(
                    f"--auth {args.auth}: no auth profiles are configured here "
                    "(pacts-auth.yaml next to the ini file)", EXIT_USAGE,
                )  # fmt: skip
            page = browsing.enter_context(
                recording_page(browser.browser, url, session=session, auth=args.auth)
            )
            _say(
                f"recording {url} headless: until --until or Ctrl-C"
                if headless
                else f"recording {url}: do the steps in the browser, then close it or "
                "press Ctrl-C here (Alt+click a text to expect it)"
            )
            record(
                page, url, recorder,
                lambda _page: deadline is not None and time.monotonic() >= deadline,
                timeout_ms=project.step_timeout_ms,
            )  # fmt: skip
    except AuthFailed as exc:
        raise CommandError(exc.text) from None
    except NoBrowserError as exc:
        raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
    except PlaywrightError as exc:
        if not recorder.steps:  # the browser went away (Ctrl-C reaches it too): keep
            raise CommandError(  # what was recorded, fail only when there is nothing
                f"the browser failed: {str(exc).splitlines()[0]}", EXIT_ENVIRONMENT
            ) from None


def run_import(args: argparse.Namespace) -> int:
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.browser import NoBrowserError, StandaloneBrowser
    from pytest_pacts.planner.errors import RequirementFileError
    from pytest_pacts.recording.importers import RecordingImportError
    from pytest_pacts.recording.recorder import Recorder
    from pytest_pacts.recording.service import import_recording, write_checked
    from pytest_pacts.recording.writers import file_format

    try:
        file_format(args.out)
    except ValueError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    if not args.recording.is_file():
        raise CommandError(f"{args.recording} does not exist", EXIT_USAGE)
    recorder = Recorder(req_id=args.req_id, title=args.title, overlay=False, say=_say)
    try:
        with StandaloneBrowser(args.browser_path) as browser, browser.page() as page:
            recording = import_recording(page, args.recording, recorder)
    except RecordingImportError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    except NoBrowserError as exc:
        raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
    except PlaywrightError as exc:
        raise CommandError(
            f"the browser failed: {str(exc).splitlines()[0]}", EXIT_ENVIRONMENT
        ) from None
    if not recording.url:
        raise CommandError(f"{args.recording} opens no page (no navigate/goto step)")
    try:
        written = write_checked(recording, args.out, source=f"pacts import {args.recording.name}")
    except RequirementFileError as exc:
        raise CommandError(f"the written file does not load: {exc}") from None
    return _finish(args, written, "import")
