"""Blocks: named, parameterised step lists expanded at plan time.

A block is defined in a ``Blocks`` sheet, a ``blocks:`` section or a shared blocks file
(ini ``pacts_blocks_files``). ``use`` steps name a block and pass ``name=value`` params that
replace ``{{params.name}}`` in the block's steps; other templates (``{{env.*}}``,
``{{vars.*}}``) stay unresolved. The four built-in blocks are Python expanders.

A parameter whose name marks it secret (``password``, ``token``, ...; or listed in ini
``pacts_secret_vars``) is not pasted into the steps: its value becomes a var of the
requirement (:class:`Hidden`, named after the block, the parameter and the use, e.g.
``SignIn-password``), so it is masked wherever a secret var is, typed only at the moment
of use, and a literal password written as a default never shows in a plan or a report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from pytest_pacts.errors import PactsError
from pytest_pacts.models import SourceRef
from pytest_pacts.planner.templating import TemplateError, substitute


@dataclass(frozen=True)
class RawStep:
    """A step as written (text fields, params not yet substituted) with its locations."""

    action: str
    source: SourceRef
    element: str | None = None
    region: str | None = None
    value: str | None = None
    expected: str | None = None
    on_fail: str | None = None
    block: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    fields: Mapping[str, SourceRef] = field(default_factory=dict)
    from_block: str | None = None
    used_at: SourceRef | None = None

    def where(self, name: str) -> SourceRef:
        return self.fields.get(name, self.source)


@dataclass(frozen=True)
class BlockDefinition:
    """A user block: parameter names (with optional defaults) and raw steps."""

    name: str
    params: Mapping[str, str | None]
    steps: tuple[RawStep, ...]
    source: SourceRef


class BlockError(ValueError, PactsError):
    """A block cannot be expanded; ``source`` is where the problem was written."""

    def __init__(self, source: SourceRef, message: str, expected: str | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.expected = expected


BuiltinExpander = Callable[[Mapping[str, str], RawStep], list[RawStep]]


@dataclass
class Hidden:
    """Where the values of secret parameters go while one requirement's steps expand:
    ``is_secret`` tells a secret parameter name; ``vars`` collects ``{var name: value}``."""

    is_secret: Callable[[str], bool]
    vars: dict[str, str] = field(default_factory=dict)

    def var(self, block: str, param: str, value: str) -> str:
        """A new var holding ``value``; returns the template that reads it."""
        base = re.sub(r"[^A-Za-z0-9_]+", "_", block).strip("_") or "block"
        name = f"{base}-{param}"
        n = 1
        while name in self.vars:
            n += 1
            name = f"{base}-{param}-{n}"
        self.vars[name] = value
        return "{{vars." + name + "}}"


def _require(params: Mapping[str, str], names: tuple[str, ...], use: RawStep, block: str) -> None:
    missing = [n for n in names if not params.get(n)]
    if missing:
        raise BlockError(
            use.where("value"),
            f"block {block!r} needs parameter(s) " + ", ".join(repr(m) for m in missing),
            "; ".join(f"{n}=..." for n in names),
        )


def _navigation(params: Mapping[str, str], use: RawStep) -> list[RawStep]:
    """``navigation``: url, wait_for? → goto + optional wait."""
    _require(params, ("url",), use, "navigation")
    steps = [RawStep(action="goto", value=params["url"], source=use.source)]
    if params.get("wait_for"):
        steps.append(RawStep(action="wait", expected=params["wait_for"], source=use.source))
    return steps


def _action(params: Mapping[str, str], use: RawStep) -> list[RawStep]:
    """``action``: target, method, value?, expected? → one element action."""
    _require(params, ("target", "method"), use, "action")
    return [
        RawStep(
            action=params["method"],
            element=params["target"],
            value=params.get("value"),
            expected=params.get("expected"),
            source=use.source,
        )
    ]


def _extract(params: Mapping[str, str], use: RawStep) -> list[RawStep]:
    """``extract``: target, scope?, var?, attribute?, regex?, secret? → with ``var``, one
    ``extract`` step storing the element's text (or attribute) in ``{{vars.<var>}}``;
    without, a wait until the element is visible (the data is there)."""
    _require(params, ("target",), use, "extract")
    target = params["target"] + (f"@{params['scope']}" if params.get("scope") else "")
    if not params.get("var"):
        return [RawStep(action="wait", expected=f"element_visible:{target}", source=use.source)]
    spec = [params["var"]]
    for option in ("attribute", "regex"):
        if params.get(option):
            spec.append(f"{option}=" + params[option].replace(";", "\\;"))
    if params.get("secret", "").strip().lower() in ("true", "yes", "1", "secret"):
        spec.append("secret")
    return [
        RawStep(
            action="extract",
            element=params["target"],
            region=params.get("scope") or None,
            value="; ".join(spec),
            source=use.source,
        )
    ]


def _validation(params: Mapping[str, str], use: RawStep) -> list[RawStep]:
    """``validation``: expectations separated by ``&&`` → one wait step per expectation."""
    _require(params, ("expectations",), use, "validation")
    parts = [p.strip() for p in params["expectations"].split("&&") if p.strip()]
    return [RawStep(action="wait", expected=p, source=use.source) for p in parts]


BUILTIN_BLOCKS: dict[str, tuple[tuple[str, ...], BuiltinExpander]] = {
    "navigation": (("url", "wait_for"), _navigation),
    "action": (("target", "method", "value", "expected"), _action),
    "extract": (("target", "scope", "var", "attribute", "regex", "secret"), _extract),
    "validation": (("expectations",), _validation),
}


def parse_param_names(names: list[str]) -> dict[str, str | None]:
    """``["user", "password=secret"]`` → ``{"user": None, "password": "secret"}``."""
    out: dict[str, str | None] = {}
    for item in names:
        name, sep, default = item.partition("=")
        out[name.strip()] = default.strip() if sep else None
    return out


MAX_DEPTH = 20


# long because: mostly its docstring; the body is one loop over the steps
def expand(
    steps: tuple[RawStep, ...],
    blocks: Mapping[str, BlockDefinition],
    _stack: tuple[str, ...] = (),
    hidden: Hidden | None = None,
) -> list[RawStep]:
    """Replace every ``use`` step by the steps of its block, recursively. With ``hidden``,
    secret parameters become vars collected there (module doc); without, none is secret.

    Raises :class:`BlockError` for unknown blocks, cycles, missing or unknown params.
    """
    out: list[RawStep] = []
    for step in steps:
        if step.action.strip().lower() != "use":
            out.append(step)
            continue
        name = (step.block or "").strip()
        if not name:
            raise BlockError(
                step.source,
                "a 'use' step does not name a block",
                "use | BlockName | name=value; name=value",
            )
        if name in _stack:
            cycle = " -> ".join((*_stack, name))
            raise BlockError(
                step.where("block"),
                f"block cycle: {cycle}",
                "blocks that do not use themselves, directly or indirectly",
            )
        if len(_stack) >= MAX_DEPTH:
            raise BlockError(step.source, f"blocks nest deeper than {MAX_DEPTH}", "flatter blocks")
        if name in blocks:
            out.extend(_expand_user(blocks[name], step, blocks, (*_stack, name), hidden))
        elif name in BUILTIN_BLOCKS:
            allowed, expander = BUILTIN_BLOCKS[name]
            unknown = sorted(set(step.params) - set(allowed))
            if unknown:
                raise BlockError(
                    step.where("value"),
                    f"block {name!r} has no parameter(s) " + ", ".join(repr(u) for u in unknown),
                    "parameters " + ", ".join(allowed),
                )
            made = expander(step.params, step)
            out.extend(
                replace(s, from_block=name, used_at=step.source, on_fail=step.on_fail) for s in made
            )
        else:
            known = sorted({*blocks, *BUILTIN_BLOCKS})
            raise BlockError(
                step.where("block"),
                f"unknown block {name!r}",
                "one of " + ", ".join(repr(k) for k in known),
            )
    return out


# long because: one block's parameters bound and its steps substituted, in order
def _expand_user(
    block: BlockDefinition,
    use: RawStep,
    blocks: Mapping[str, BlockDefinition],
    stack: tuple[str, ...],
    hidden: Hidden | None,
) -> list[RawStep]:
    unknown = sorted(set(use.params) - set(block.params))
    if unknown:
        raise BlockError(
            use.where("value"),
            f"block {block.name!r} has no parameter(s) " + ", ".join(repr(u) for u in unknown),
            "parameters " + (", ".join(block.params) or "(none)"),
        )
    values: dict[str, str] = {}
    for pname, default in block.params.items():
        if pname in use.params:
            values[pname] = use.params[pname]
        elif default is not None:
            values[pname] = default
        else:
            raise BlockError(
                use.where("value"),
                f"block {block.name!r} needs parameter {pname!r}",
                f"{pname}=... in the use step",
            )
        if hidden is not None and hidden.is_secret(pname) and values[pname]:
            values[pname] = hidden.var(block.name, pname, values[pname])

    def sub(text: str | None, step: RawStep, name: str) -> str | None:
        if text is None:
            return None
        try:
            return substitute(text, "params", values)
        except TemplateError as exc:
            raise BlockError(
                step.where(name),
                f"{exc} (block {block.name!r})",
                "parameters " + (", ".join(block.params) or "(none)"),
            ) from None

    resolved: list[RawStep] = []
    for step in block.steps:
        params = {k: sub(v, step, "value") or "" for k, v in step.params.items()}
        resolved.append(
            replace(
                step,
                element=sub(step.element, step, "element"),
                region=sub(step.region, step, "region"),
                value=sub(step.value, step, "value"),
                expected=sub(step.expected, step, "expected"),
                block=sub(step.block, step, "block"),
                params=params,
                from_block=step.from_block or block.name,
                used_at=step.used_at or use.source,
                on_fail=step.on_fail or use.on_fail,
            )
        )
    return expand(tuple(resolved), blocks, stack, hidden)
