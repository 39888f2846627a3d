"""What every peer driver shares: the job loop, page loading, timing and the identity check.

A driver runs in its own tool's virtual environment (only Playwright and the tool are
installed there; this module imports nothing else), started by ``bench_peers.py``:

    stdin   line 1: {"launch": {...Playwright launch kwargs...}, "viewport": {...}}
            then one job per line: {"id": ..., "old": CASE, "new": CASE}
    stdout  one result per job: {"id": ..., "record_ok": bool, "record_note": str,
            "answered": bool, "count": int, "is_truth": bool | null, "ms": float,
            "detail": str}

A CASE is a line of ``cases.jsonl`` with ``snapshot`` made absolute. The driver records on
the old snapshot (``record(page, case)``), loads the new one and answers with one Playwright
locator or ``None`` (``relocate(page, case, memo)``); only that call is timed. After it has
answered, the truth element of the new page is marked with a temporary attribute and the
answer is compared with it by identity in the page: nothing the tool can read carries the
mark while it is deciding.
"""

from __future__ import annotations

import asyncio
import email
import json
import re
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

MARK = "data-peers-truth"
ORIGIN = "http://127.0.0.1:8080"  # where every snapshot is served (nothing is sent there)
MARK_JS = f"el => el.setAttribute('{MARK}', '')"
MARK_ALL_JS = f"els => els.forEach(el => el.setAttribute('{MARK}', ''))"
IS_MARKED_JS = f"el => el.hasAttribute('{MARK}')"
UNMARK_JS = f"() => document.querySelectorAll('[{MARK}]').forEach(e => e.removeAttribute('{MARK}'))"


class RecordFailed(Exception):
    """The tool could not record the ground-truth element on the old page (said why)."""


Record = Callable[[Any, dict[str, Any]], Any]
Relocate = Callable[[Any, dict[str, Any], Any], tuple[Any, str]]
Prepare = Callable[[Any, dict[str, Any], Any], Any]


def _emit(result: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


def _jobs() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def _base(job: dict[str, Any]) -> dict[str, Any]:
    return {"id": job["id"], "record_ok": False, "record_note": "", "answered": False,
            "count": 0, "is_truth": None, "ms": None, "detail": ""}  # fmt: skip


class Snapshot:
    """An MHTML snapshot served to the page from memory through ``page.route``.

    Chromium opens a ``file://`` MHTML as a sandboxed document in which no timer or
    animation frame ever fires, so any tool that waits in the page (a MutationObserver with
    a timeout, two animation frames) hangs there. Served like this, the page is an ordinary
    document at its original path, with exactly the snapshot's DOM (Chromium's snapshot
    has no scripts); every other request is aborted, so nothing leaves the browser. A page
    saved from a loopback server is served at ``ORIGIN`` whatever port its run had, so the
    old and the new version of an app have one address, as an upgraded app keeps its own."""

    PREFIX = "/__mhtml_cid__/"

    def __init__(self, path: str) -> None:
        message = email.message_from_bytes(Path(path).read_bytes())
        saved = str(message["Snapshot-Content-Location"])
        origin = "/".join(saved.split("/")[:3])
        # every version of an app was run on its own free port, but an upgraded app keeps its
        # address: each snapshot is served at one origin, its own origin written as that one
        # wherever the page holds it (the saved page writes every link as an absolute address)
        same = ORIGIN if re.fullmatch(r"https?://(127\.0\.0\.1|localhost):\d+", origin) else origin
        own = re.compile(re.escape(origin).encode() + rb"(?![0-9])")
        moved = same != origin

        def canonical(data: bytes) -> bytes:
            return own.sub(same.encode(), data) if moved else data

        self.url = same + saved[len(origin) :]
        origin = same
        parts = [p for p in message.walk() if not p.is_multipart()]
        cids = {}
        for part in parts:
            cid = str(part.get("Content-ID") or "").strip("<>")
            if cid:
                cids[cid] = part
            location = str(part.get("Content-Location") or "")
            if location.startswith("cid:"):
                cids[location[4:]] = part
        self.bodies: dict[str, tuple[str, bytes]] = {}
        for part in parts:
            body = part.get_payload(decode=True) or b""
            kind = part.get_content_type()
            if kind.startswith("text/"):
                body = canonical(body)
                for cid in cids:
                    body = body.replace(
                        f"cid:{cid}".encode(), f"{origin}{self.PREFIX}{cid}".encode()
                    )
                kind += "; charset=utf-8"
                # Chromium writes an open shadow root as <template shadowmode>, which only its
                # MHTML loader reads; a served page reads the standard declarative form
                body = body.replace(b"<template shadowmode=", b"<template shadowrootmode=")
            location = canonical(str(part.get("Content-Location") or "").encode()).decode()
            if location and not location.startswith("cid:"):
                self.bodies.setdefault(location, (kind, body))
                # a request never carries the fragment a page's address may have been saved with
                self.bodies.setdefault(location.split("#")[0], (kind, body))
            cid = str(part.get("Content-ID") or "").strip("<>") or location[4:]
            if cid:
                self.bodies[f"{origin}{self.PREFIX}{cid}"] = (kind, body)

    def answer(self, url: str) -> tuple[str, bytes] | None:
        return self.bodies.get(url) or self.bodies.get(url.split("#")[0])


def _same_document(current: str, url: str) -> bool:
    """Whether going to ``url`` from ``current`` would load nothing: the same address with a
    fragment is a same-document navigation (HTML, "navigate to a fragment"), and both
    versions of an app are served at one address (a single-page app's ends in ``#/``)."""
    return "#" in url and current.split("#")[0] == url.split("#")[0]


def load(page: Any, case: dict[str, Any]) -> None:
    snap = Snapshot(case["snapshot"])

    def handler(route: Any) -> None:
        found = snap.answer(route.request.url)
        if found is None:
            route.abort()
        else:
            route.fulfill(status=200, content_type=found[0], body=found[1])

    page.unroute("**/*")
    page.route("**/*", handler)
    if _same_document(page.url, snap.url):
        page.goto("about:blank")
    page.goto(snap.url)
    page.wait_for_load_state("load")


async def load_async(page: Any, case: dict[str, Any]) -> None:
    snap = Snapshot(case["snapshot"])

    async def handler(route: Any) -> None:
        found = snap.answer(route.request.url)
        if found is None:
            await route.abort()
        else:
            await route.fulfill(status=200, content_type=found[0], body=found[1])

    await page.unroute("**/*")
    await page.route("**/*", handler)
    if _same_document(page.url, snap.url):
        await page.goto("about:blank")
    await page.goto(snap.url)
    await page.wait_for_load_state("load")


def truth_set(case: dict[str, Any]) -> str:
    """What counts as the truth element when acted on: the truth element itself, or, for a
    truth that names an element and what is inside it (``X, X *``), any element it names
    (``truth_set``, the whole selector; a click on a button's label is a click on the
    button), as the corpus run counts it."""
    return str(case.get("truth_set") or case["truth"])


def judge(page: Any, answer: Any, case: dict[str, Any], out: dict[str, Any]) -> None:
    """Fill ``count`` and ``is_truth`` for the answer (a Playwright locator, or None)."""
    if answer is None:
        return
    out["answered"] = True
    out["count"] = answer.count()
    if case["truth"] is None:
        return  # the element is gone in this version: any answer is a wrong element
    target = page.locator(case["truth"])
    if target.count() != 1:
        out["detail"] += f" | truth selector matches {target.count()} on the new page"
        return
    page.locator(truth_set(case)).evaluate_all(MARK_ALL_JS)
    if out["count"] == 1:
        out["is_truth"] = bool(answer.evaluate(IS_MARKED_JS))
    page.evaluate(UNMARK_JS)


def blind(case: dict[str, Any]) -> dict[str, Any]:
    """The new page's case as a tool may see it: its step words, never its truth."""
    return {k: v for k, v in case.items() if not k.startswith("truth")}


def serve(record: Record, relocate: Relocate, prepare: Prepare | None = None) -> None:
    """The sync job loop: one fresh browser context per job. ``prepare(page, case, memo)``
    (untimed) makes what a new test run starts with, e.g. the tool's object over its store."""
    from playwright.sync_api import sync_playwright

    config, jobs = _jobs()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**config["launch"])
        for job in jobs:
            out = _base(job)
            context = browser.new_context(viewport=config["viewport"])
            context.set_default_timeout(5_000)
            page = context.new_page()
            try:
                load(page, job["old"])
                try:
                    memo = record(page, job["old"])
                except RecordFailed as exc:
                    out["record_note"] = str(exc)
                    continue
                out["record_ok"] = True
                load(page, job["new"])
                new = blind(job["new"])
                if prepare is not None:
                    memo = prepare(page, new, memo)
                started = time.perf_counter()
                try:
                    answer, detail = relocate(page, new, memo)
                except Exception as exc:  # raised "not found": an abstention
                    answer, detail = None, f"raised {type(exc).__name__}: {_line(exc)}"
                out["ms"] = (time.perf_counter() - started) * 1000
                out["detail"] = detail
                # a driver that counts its page calls leaves the count on its function
                calls = getattr(relocate, "calls", None)
                if calls is not None:
                    out["calls"] = calls
                first = getattr(relocate, "first_ms", None)
                if first is not None:
                    out["first_ms"] = first
                cpu = getattr(relocate, "cpu_ms", None)  # process_cpu.py, with PEERS_CPU
                if cpu is not None:
                    out["cpu_ms"] = cpu
                judge(page, answer, job["new"], out)
            except Exception as exc:
                out["detail"] += f" | driver error {type(exc).__name__}: {_line(exc)}"
                out["trace"] = traceback.format_exc()[-1500:]
            finally:
                context.close()
                _emit(out)
        browser.close()


AsyncRecord = Callable[[Any, dict[str, Any]], Awaitable[Any]]
AsyncRelocate = Callable[[Any, dict[str, Any], Any], Awaitable[tuple[Any, str]]]
AsyncPrepare = Callable[[Any, dict[str, Any], Any], Awaitable[Any]]


def serve_async(
    record: AsyncRecord, relocate: AsyncRelocate, prepare: AsyncPrepare | None = None
) -> None:
    """The same loop for a tool built on Playwright's async API."""
    asyncio.run(_serve_async(record, relocate, prepare))


async def _serve_async(
    record: AsyncRecord, relocate: AsyncRelocate, prepare: AsyncPrepare | None
) -> None:
    from playwright.async_api import async_playwright

    config, jobs = _jobs()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(**config["launch"])
        for job in jobs:
            out = _base(job)
            context = await browser.new_context(viewport=config["viewport"])
            context.set_default_timeout(5_000)
            page = await context.new_page()
            try:
                await load_async(page, job["old"])
                try:
                    memo = await record(page, job["old"])
                except RecordFailed as exc:
                    out["record_note"] = str(exc)
                    continue
                out["record_ok"] = True
                await load_async(page, job["new"])
                new = blind(job["new"])
                if prepare is not None:
                    memo = await prepare(page, new, memo)
                started = time.perf_counter()
                try:
                    answer, detail = await relocate(page, new, memo)
                except Exception as exc:
                    answer, detail = None, f"raised {type(exc).__name__}: {_line(exc)}"
                out["ms"] = (time.perf_counter() - started) * 1000
                out["detail"] = detail
                await _judge_async(page, answer, job["new"], out)
            except Exception as exc:
                out["detail"] += f" | driver error {type(exc).__name__}: {_line(exc)}"
                out["trace"] = traceback.format_exc()[-1500:]
            finally:
                await context.close()
                _emit(out)
        await browser.close()


async def _judge_async(page: Any, answer: Any, case: dict[str, Any], out: dict[str, Any]) -> None:
    if answer is None:
        return
    out["answered"] = True
    out["count"] = await answer.count()
    if case["truth"] is None:
        return
    target = page.locator(case["truth"])
    n = await target.count()
    if n != 1:
        out["detail"] += f" | truth selector matches {n} on the new page"
        return
    await page.locator(truth_set(case)).evaluate_all(MARK_ALL_JS)
    if out["count"] == 1:
        out["is_truth"] = bool(await answer.evaluate(IS_MARKED_JS))
    await page.evaluate(UNMARK_JS)


def _line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else ""
