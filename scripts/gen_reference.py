"""Regenerate the generated tables of docs/reference.md: the settings (from the fields of
``PactsSettings``, where each is declared once: ``settings.SETTINGS``), the `pacts`
command line (from the CLI's own argparse parsers, so a new subcommand or option cannot be
missing) and the hooks (from their specifications in
``pytest_plugin/hookspecs.py``).

Run: .venv/bin/python scripts/gen_reference.py   (tests/test_docs.py checks it is current)
"""

from __future__ import annotations

import argparse
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

from pytest_pacts.cli.main import build_parser
from pytest_pacts.pytest_plugin import hookspecs
from pytest_pacts.pytest_plugin.options import SETTINGS

DOC = Path(__file__).resolve().parent.parent / "docs" / "reference.md"
BEGIN, END = "<!-- settings:begin -->", "<!-- settings:end -->"
CLI_BEGIN, CLI_END = "<!-- cli:begin -->", "<!-- cli:end -->"
HOOKS_BEGIN, HOOKS_END = "<!-- hooks:begin -->", "<!-- hooks:end -->"
# not a `pacts` subcommand, but a command people run
EXTRA_COMMANDS = (
    (
        "python -m pytest_pacts.demo_app [--release v1|v2] [--port N]",
        "serve the bundled demo app",
    ),
)


def settings_table() -> str:
    rows = ["| option | ini key | type | default | meaning |", "| --- | --- | --- | --- | --- |"]
    for s in SETTINGS:
        default = s.default
        if isinstance(default, list):
            default = " ".join(default) or "(none)"
        if default is None:
            default = "(none)"
        kind = s.kind + (f" ({', '.join(s.choices)})" if s.choices else "")
        rows.append(f"| `{s.flag}` | `{s.name}` | {kind} | `{default}` | {s.help} |")
    return "\n".join(rows)


def _subcommands(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[argparse.ArgumentParser, str]]:
    """Every (sub)subcommand parser with its one-line help, in registration order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                nested = list(_subcommands(sub))
                if nested:
                    yield from nested
                else:
                    yield sub, helps.get(name, "")


def _usage(parser: argparse.ArgumentParser) -> str:
    parser.formatter_class = lambda prog: argparse.HelpFormatter(prog, width=10_000)
    return parser.format_usage().removeprefix("usage: ").replace(" [-h]", "").strip()


def cli_table() -> str:
    rows = ["| command | what it does |", "| --- | --- |"]
    commands = [(_usage(sub), text) for sub, text in _subcommands(build_parser())]
    for usage, text in [*commands, *EXTRA_COMMANDS]:
        said = text.replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
        rows.append(f"| `{usage.replace('|', chr(92) + '|')}` | {said} |")
    return "\n".join(rows)


def hooks_table() -> str:
    rows = ["| hook | what it is for |", "| --- | --- |"]
    for name, function in inspect.getmembers(hookspecs, inspect.isfunction):
        if not name.startswith("pytest_pacts_"):
            continue
        args = ", ".join(inspect.signature(function).parameters)
        doc = inspect.getdoc(function) or ""
        first = " ".join(doc.split("\n\n", 1)[0].split())
        rows.append(f"| `{name}({args})` | {first.replace('|', chr(92) + '|')} |")
    return "\n".join(rows)


def _replace(text: str, begin: str, end: str, body: str) -> str:
    block = f"{begin}\n{body}\n{end}"
    return re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)


def render(text: str) -> str:
    text = _replace(text, BEGIN, END, settings_table())
    text = _replace(text, HOOKS_BEGIN, HOOKS_END, hooks_table())
    return _replace(text, CLI_BEGIN, CLI_END, cli_table())


if __name__ == "__main__":
    DOC.write_text(render(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"updated {DOC}")
