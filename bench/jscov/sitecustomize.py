"""The in-page JavaScript's coverage, recorded in whatever Python process runs Playwright.

Loaded by Python at start-up (``sitecustomize``) when this folder is on ``PYTHONPATH``; does
nothing unless ``PACTS_JS_COVERAGE`` names a folder. ``bench/js_coverage.py run`` sets both,
so the processes a command starts (pytest's xdist workers, the pytest sessions the tests run,
the corpus runner's children) are all covered.

Each page Playwright opens (``Browser.new_page``, ``BrowserContext.new_page``) gets a CDP
session with V8's precise block coverage on (``Profiler.startPreciseCoverage`` with call
counts, detailed); when the page, its context or its browser is closed through Playwright,
and before each call that may navigate away (``Page.goto``, ``reload``, ``set_content``,
``go_back``, ``go_forward`` and the ``Locator`` actions: V8 collects a replaced document's
scripts, and their counts with them), the coverage is taken
(``Profiler.takePreciseCoverage``, which resets the counts), the ranges that fall inside one
of ``pytest_pacts/runtime/js/*.js`` (found by its text in the script's source) are kept, and
one JSON file per take and copy of the API is written to the folder: ``{file: [[start, end,
count], ...]}``, the offsets in the file's text (a function's own range has a fourth item,
its name). ``bench/js_coverage.py report`` merges them. The take at a close is a bounded
call (the engine's ``runtime.bounded``): a hung renderer is given up on; a take before a
call is not (the engine's deadline would close a page that is only slow, which changes the
command). Any other failure here is swallowed:
coverage must never change what the command does (it does add ``playwright`` to every
Python process's imports: ``test_import_contract.py`` fails under it, as it should).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

FOLDER = os.environ.get("PACTS_JS_COVERAGE", "")
JS = Path(__file__).resolve().parents[2] / "pytest_pacts" / "runtime" / "js"


def _texts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(JS.glob("*.js"))}


class _Recorder:
    """One page's CDP session and the scripts it saw parsed."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.scripts: dict[str, int] = {}
        self.bases: dict[str, dict[str, tuple[int, int]]] = {}
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Debugger.scriptParsed", self._parsed)
        self.cdp.send("Profiler.enable")
        self.cdp.send("Debugger.enable")
        self.cdp.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": True})

    def _parsed(self, event: dict[str, Any]) -> None:
        # only scripts long enough to hold one of the modules; the page's own have a URL. A
        # script id is the renderer's: after a navigation to another renderer process the
        # same id names another script, so what was read of the old one is dropped
        self.bases.pop(event["scriptId"], None)
        self.scripts.pop(event["scriptId"], None)
        if not event.get("url") and event.get("length", 0) > 1000:
            self.scripts[event["scriptId"]] = event["length"]

    def take(self, texts: dict[str, str]) -> list[dict[str, list[list[int]]]]:
        """What ran since the last take (V8 resets the counts a take reads), one dict per
        copy of the API (a document's)."""
        out: list[dict[str, list[list[int]]]] = []
        result = self.cdp.send("Profiler.takePreciseCoverage")["result"]
        for script in result:
            if script["scriptId"] not in self.scripts:
                continue
            found: dict[str, list[list[int]]] = {}
            if script["scriptId"] not in self.bases:
                source = self.cdp.send("Debugger.getScriptSource", {"scriptId": script["scriptId"]})
                self.bases[script["scriptId"]] = _bases(source["scriptSource"], texts)
            bases = self.bases[script["scriptId"]]
            for function in script["functions"]:
                for i, r in enumerate(function["ranges"]):
                    for name, (base, length) in bases.items():
                        start, end = r["startOffset"] - base, r["endOffset"] - base
                        if start >= 0 and end <= length:
                            # a function's own range says its name; the others are blocks
                            row = [start, end, r["count"]]
                            found.setdefault(name, []).append(
                                [*row, function["functionName"]] if i == 0 else row
                            )
                        elif start < 0 and end > length:
                            # a range around the whole module (its module function)
                            found.setdefault(name, []).append([0, length, r["count"]])
            if found:
                out.append(found)
        return out


def _bases(source: str, texts: dict[str, str]) -> dict[str, tuple[int, int]]:
    bases = {}
    for name, text in texts.items():
        at = source.find(text)
        if at >= 0:
            bases[name] = (at, len(text))
    return bases


_RECORDERS: list[_Recorder] = []
_COUNT = [0]


def _dump(recorders: list[_Recorder], keep: bool = False) -> None:
    texts = _texts()
    for recorder in recorders:
        if recorder in _RECORDERS and not keep:
            _RECORDERS.remove(recorder)
        try:
            if keep:
                # before a call on a live page: the engine's deadline would close the page
                # when a take is slow (a loaded machine), which changes what the command
                # does; ``js_coverage.py run``'s own timeout bounds the whole command
                takes = recorder.take(texts)
            else:
                # under the engine's deadline for a page call: a hung renderer does not
                # hang this
                from pytest_pacts.runtime import bounded

                takes = bounded.call(recorder.page, "js coverage", recorder.take, texts)
        except Exception:
            continue
        for found in takes:
            _COUNT[0] += 1
            name = f"{os.getpid()}-{_COUNT[0]}-{id(recorder):x}.json"
            (Path(FOLDER) / name).write_text(json.dumps(found), encoding="utf-8")


def _install() -> None:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

    def opened(method: Any) -> Any:
        def new_page(self: Any, *args: Any, **kwargs: Any) -> Any:
            page = method(self, *args, **kwargs)
            with contextlib.suppress(Exception):
                _RECORDERS.append(_Recorder(page))
            return page

        return new_page

    def closing(method: Any, pages: Any) -> Any:
        def close(self: Any, *args: Any, **kwargs: Any) -> Any:
            with contextlib.suppress(Exception):
                _dump([r for r in list(_RECORDERS) if pages(self, r.page)])
            return method(self, *args, **kwargs)

        return close

    def before(method: Any, page_of: Any) -> Any:
        # a document's coverage is lost with it: take what ran before a call that may
        # navigate away from it (V8 collects a replaced document's scripts)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            with contextlib.suppress(Exception):
                page = page_of(self)
                _dump([r for r in _RECORDERS if r.page is page], keep=True)
            return method(self, *args, **kwargs)

        return call

    for name in ("goto", "reload", "set_content", "go_back", "go_forward"):
        setattr(Page, name, before(getattr(Page, name), lambda s: s))
    for name in ("click", "dblclick", "press", "check", "uncheck", "set_checked", "fill",
                 "select_option", "hover", "tap"):  # fmt: skip
        setattr(Locator, name, before(getattr(Locator, name), lambda s: s.page))
    Browser.new_page = opened(Browser.new_page)  # type: ignore[method-assign]
    BrowserContext.new_page = opened(BrowserContext.new_page)  # type: ignore[method-assign]
    Page.close = closing(Page.close, lambda s, p: p is s)  # type: ignore[method-assign]
    BrowserContext.close = closing(  # type: ignore[method-assign]
        BrowserContext.close, lambda s, p: p.context is s
    )
    Browser.close = closing(  # type: ignore[method-assign]
        Browser.close, lambda s, p: p.context.browser is s
    )


if FOLDER:
    try:
        Path(FOLDER).mkdir(parents=True, exist_ok=True)
        _install()
    except Exception as error:  # never in the way of the command
        print(f"js coverage off: {error}", file=sys.stderr)
