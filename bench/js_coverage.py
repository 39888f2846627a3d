"""Which parts of the in-page JavaScript (``pytest_pacts/runtime/js``) ever run.

Run a command with coverage on, as many times as wanted into one folder, then report::

    .venv/bin/python bench/js_coverage.py run --out /tmp/cov --timeout 3600 -- \\
        .venv/bin/pytest tests/engine tests/discovery -n 2 -q -p no:cacheprovider
    .venv/bin/python bench/js_coverage.py run --out /tmp/cov -- bash scripts/demo.sh
    .venv/bin/python bench/js_coverage.py report /tmp/cov [--blocks] [--js DIR]

``run`` puts ``bench/jscov`` on ``PYTHONPATH`` with ``PACTS_JS_COVERAGE=DIR``: its
``sitecustomize`` turns on Chromium's precise block coverage (V8, through a CDP session) for
every page Playwright opens in the command's processes, and writes what ran of each module
when the page is closed (see that file). The command is killed, with its process group, after
``--timeout`` seconds.

``report`` merges every page's coverage: a character of a module ran when, on some page, the
innermost range V8 reported around it (function or block) counted at least one run. Printed:
per module, its lines, those with code and those with code none of which ran; then the
table of functions that never ran (the outermost only: one inside a never-run function is
not listed again), as Markdown; with ``--blocks``, also each never-run block inside a
function that ran (a branch never taken). A page the command did not close through
Playwright is not counted. The offsets are those of the modules when they were measured:
``--js`` names a folder with those files when they have changed since (``git show
REV:pytest_pacts/runtime/js/F.js``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
JS = HERE.parent / "pytest_pacts" / "runtime" / "js"


def run(out: Path, timeout: float, command: list[str]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PACTS_JS_COVERAGE=str(out.resolve()))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE / "jscov"), env.get("PYTHONPATH", "")) if p
    )
    process = subprocess.Popen(command, env=env, start_new_session=True)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        print(f"killed after {timeout:.0f} s", file=sys.stderr)
        return 124


def texts_of(js: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(js.glob("*.js"))}


def placed(text: str, r: list) -> bool:
    """Whether a function's range ``r`` lies where its name is written in ``text`` (V8's
    names inferred from an assignment path, ``modules.x.y``, and anonymous ones pass): a
    recorder before 2026-11-30 could read one script's ranges against another's offsets
    (``bench/jscov/sitecustomize.py``, a script id reused by another renderer), and such a
    take is left out whole."""
    name = r[3].split(".")[-1].strip() if len(r) == 4 else ""
    if not name or name.startswith("<") or r[3].startswith("modules."):
        return True
    return name in text[max(0, r[0] - 120) : r[0] + len(name) + 40]


def merge(
    folder: Path, texts: dict[str, str]
) -> tuple[dict[str, bytearray], dict[tuple[str, int, int], list]]:
    """Per module, 1 for each character that ran on some page; and every function seen:
    ``(module, start, end) -> [name, runs]``."""
    ran = {name: bytearray(len(text)) for name, text in texts.items()}
    functions: dict[tuple[str, int, int], list] = {}
    for dump in sorted(folder.glob("*.json")):
        found = json.loads(dump.read_text(encoding="utf-8"))
        if not all(placed(texts[n], r) for n, rs in found.items() if n in texts for r in rs):
            continue
        for name, ranges in found.items():
            if name not in ran:
                continue
            page = bytearray(len(ran[name]))
            # outer ranges first: an inner one (a block, a nested function) paints over them
            for r in sorted(ranges, key=lambda r: r[0] - r[1]):
                page[r[0] : r[1]] = (b"\x01" if r[2] else b"\x00") * (r[1] - r[0])
                if len(r) == 4:
                    functions.setdefault((name, r[0], r[1]), [r[3], 0])[1] += r[2]
            both = int.from_bytes(ran[name], "big") | int.from_bytes(page, "big")
            ran[name] = bytearray(both.to_bytes(len(page), "big"))
    return ran, functions


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def code_lines(text: str, ran: bytearray, start: int, end: int) -> list[int]:
    """The lines between ``start`` and ``end`` with code (not blank, not only a comment or a
    bracket) none of which ran."""
    lines = []
    at = text.rfind("\n", 0, start) + 1
    while at < end:
        stop = text.find("\n", at)
        stop = len(text) if stop < 0 else stop
        code = text[at:stop].split("//")[0].strip()
        if code.strip("{}()[];,") and not any(ran[max(at, start) : min(stop, end)]):
            lines.append(line_of(text, at))
        at = stop + 1
    return lines


def report(folder: Path, blocks: bool, js: Path) -> None:
    texts = texts_of(js)
    ran, functions = merge(folder, texts)
    pages = len(list(folder.glob("*.json")))
    # a take: what one copy of the API (a document's) ran before a navigation or the close
    print(f"{pages} takes\n\n| module | lines | with code | never ran |\n|---|---:|---:|---:|")
    for name, text in texts.items():
        code = len(code_lines(text, bytearray(len(text)), 0, len(text)))
        never = len(code_lines(text, ran[name], 0, len(text)))
        print(f"| {name} | {text.count(chr(10))} | {code} | {never} |")
    dead = sorted(k for k, (_, runs) in functions.items() if runs == 0)
    outer = [
        k for k in dead if not any(o[0] == k[0] and o[1] < k[1] and k[2] <= o[2] for o in dead)
    ]
    print("\n| module:line | function | lines |\n|---|---|---:|")
    for name, start, end in outer:
        text = texts[name]
        label = functions[(name, start, end)][0] or text[start : start + 40].split("\n")[0]
        lines = line_of(text, end) - line_of(text, start) + 1
        print(f"| {name}:{line_of(text, start)} | `{label.strip()}` | {lines} |")
    if not blocks:
        return
    print("\nnever-run blocks in functions that ran (module:lines):")
    for name, text in texts.items():
        inside = [(s, e) for (n, s, e) in outer if n == name]
        lines = [
            n
            for n in code_lines(text, ran[name], 0, len(text))
            if not any(line_of(text, s) <= n <= line_of(text, e) for s, e in inside)
        ]
        spans: list[list[int]] = []
        for n in lines:
            if spans and spans[-1][1] == n - 1:
                spans[-1][1] = n
            else:
                spans.append([n, n])
        print(f"  {name}: " + ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    one = sub.add_parser("run", help="run a command with coverage on")
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--timeout", type=float, default=3600.0)
    one.add_argument("command", nargs=argparse.REMAINDER)
    two = sub.add_parser("report", help="merge and print what never ran")
    two.add_argument("folder", type=Path)
    two.add_argument("--blocks", action="store_true")
    two.add_argument(
        "--js", type=Path, default=JS, help="the modules as they were measured (default: now)"
    )
    args = parser.parse_args()
    if args.verb == "run":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        return run(args.out, args.timeout, command)
    report(args.folder, args.blocks, args.js)
    return 0


if __name__ == "__main__":
    sys.exit(main())
