"""From one requirement file to validated plans, or every located problem.

Stages: read (format-specific) → schema validation (one schema for all formats) → raw steps
→ block expansion → typed steps (actions, targets, expected outcomes) → template checks →
plan hash. Problems are collected across the whole file and raised together, so a person
fixes a sheet in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from pytest_pacts.models import Plan, Requirement, SourceRef, Step
from pytest_pacts.planner.blocks import (
    BUILTIN_BLOCKS,
    BlockDefinition,
    BlockError,
    Hidden,
    RawStep,
    expand,
    parse_param_names,
)
from pytest_pacts.planner.documents import normalise, writes_a_secret
from pytest_pacts.planner.errors import ProblemSink, RequirementFileError
from pytest_pacts.planner.options import LoaderOptions as LoaderOptions  # re-exported
from pytest_pacts.planner.plan_checks import check_templates, in_folder
from pytest_pacts.planner.planhash import plan_hash
from pytest_pacts.planner.readers import READERS, Document, ReadFailure
from pytest_pacts.planner.readers.base import JsonLike, PathKey
from pytest_pacts.planner.readers.cache import read_cached
from pytest_pacts.planner.schema import validate
from pytest_pacts.planner.step_rules import check_step
from pytest_pacts.planner.steps import (
    StepSyntaxError,
    clean_name,
    parse_params,
    split_pipe,
)
from pytest_pacts.planner.templating import (
    Resolver,
    TemplateError,
    is_secret_name,
)

_REQ_ID_RE = re.compile(r"^[^\s:/\\\[\]]+$")
_REQ_ID_WORD_RE = re.compile(r"[^\W_]")
_TAG_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")  # pytest refuses marker names starting with _


@dataclass(frozen=True)
class LoadedFile:
    """The plans of one file, in file order."""

    path: str
    plans: tuple[Plan, ...]


def _text(value: JsonLike) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class _Fields(Mapping[str, SourceRef]):
    """Where each field of a step was written, located only when an error asks for it."""

    def __init__(self, doc: Document, path: PathKey, names: Iterable[str]) -> None:
        self._doc = doc
        self._path = path
        self._names = {name: name for name in names}

    def alias(self, new: str, old: str) -> None:
        if old in self._names:
            self._names[new] = self._names[old]

    def __getitem__(self, name: str) -> SourceRef:
        return self._doc.locate((*self._path, self._names[name]))

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class _Builder:
    def __init__(self, doc: Document, options: LoaderOptions) -> None:
        self.doc = doc
        self.options = options
        self.sink = ProblemSink()

    # -- raw steps ------------------------------------------------------------------------
    # long because: a step's two written forms (pipe text, mapping) read into one RawStep
    def raw_step(self, item: JsonLike, path: PathKey) -> RawStep | None:
        at = self.doc.locate(path)
        if isinstance(item, str):
            try:
                fields = split_pipe(item)
            except StepSyntaxError as exc:
                self.sink.add(at, str(exc), exc.expected)
                return None
            if fields[0].lower() == "use" and fields[1] and fields[1].lower() != "use":
                # "use | Login | user=...; password=..." (docs/user-guide.md "Blocks")
                fields = [fields[1], "use", fields[2], fields[3]]
            target, verb, text_value, expected = fields
            if not verb:
                self.sink.add(
                    at,
                    f"the step {item!r} has no action",
                    "Element@Region | action | value | expected",
                )
                return None
            obj: dict[str, JsonLike] = {
                "element": target or None,
                "action": verb,
                "value": text_value or None,
                "expected": expected or None,
            }
        elif isinstance(item, dict):
            obj = item
        else:  # schema validation already reported it
            return None
        action = _text(obj.get("action")) or ""
        fields_at = _Fields(self.doc, path, obj if isinstance(item, dict) else ())
        element: str | None = _text(obj.get("element"))
        block: str | None = _text(obj.get("block"))
        value = _text(obj.get("value"))
        params: dict[str, str] = {}
        if action.strip().lower() == "use":
            if block is None:
                block, element = element, None
            raw_params = obj.get("params")
            if isinstance(raw_params, dict):
                params = {k: _text(v) or "" for k, v in raw_params.items()}
            elif value:
                try:
                    params = parse_params(value)
                except StepSyntaxError as exc:
                    self.sink.add(fields_at.get("value", at), str(exc), exc.expected)
                    return None
            fields_at.alias("block", "element")
        return RawStep(
            action=action,
            source=at,
            element=element,
            region=_text(obj.get("region")),
            value=value,
            expected=_text(obj.get("expected")),
            on_fail=_text(obj.get("on_fail")),
            block=block,
            params=params,
            fields=fields_at,
        )

    def raw_steps(self, items: JsonLike, path: PathKey) -> tuple[RawStep, ...]:
        if not isinstance(items, list):
            return ()
        steps = (self.raw_step(item, (*path, i)) for i, item in enumerate(items))
        return tuple(s for s in steps if s is not None)

    def blocks(self, data: Mapping[str, JsonLike]) -> dict[str, BlockDefinition]:
        out: dict[str, BlockDefinition] = dict(self.options.shared_blocks)
        raw = data.get("blocks")
        if not isinstance(raw, dict):
            return out
        for name, body in raw.items():
            at = self.doc.locate(("blocks", name))
            if name in BUILTIN_BLOCKS:
                self.sink.add(
                    at,
                    f"block {name!r} has the name of a built-in block",
                    "another name (built-ins: " + ", ".join(BUILTIN_BLOCKS) + ")",
                )
                continue
            if not isinstance(body, dict):
                continue
            raw_params = body.get("params")
            names = (
                [p for p in raw_params if isinstance(p, str)]
                if isinstance(raw_params, list)
                else []
            )
            out[name] = BlockDefinition(
                name=name,
                params=parse_param_names(names),
                steps=self.raw_steps(body.get("steps"), ("blocks", name, "steps")),
                source=at,
            )
        return out

    # -- typed steps ----------------------------------------------------------------------
    def typed_step(self, raw: RawStep, index: int) -> Step | None:
        """The step ``raw`` writes, or ``None`` with every rule it breaks in the sink
        (:func:`~pytest_pacts.planner.step_rules.check_step`)."""
        parts, broken = check_step(
            raw.action,
            element=raw.element,
            region=raw.region,
            value=raw.value,
            expected=raw.expected,
            on_fail=raw.on_fail,
        )
        context = ""
        if raw.from_block:
            context = f" (in block {raw.from_block!r}"
            context += f", used at {raw.used_at.render()})" if raw.used_at else ")"
        for rule in broken:
            self.sink.add(raw.where(rule.field), rule.message + context, rule.expected)
        if parts is None:
            return None
        return Step(
            index=index,
            action=parts.action,
            target=parts.target,
            value=raw.value,
            expected=parts.expected,
            on_fail=parts.on_fail,
            source=raw.source,
            block=raw.from_block,
            capture=parts.capture,
        )

    # -- requirements ---------------------------------------------------------------------
    # long because: one requirement's fields checked in file order, so problems come out in that
    # order
    def requirement(
        self,
        item: Mapping[str, JsonLike],
        i: int,
        file_vars: Mapping[str, str],
        blocks: Mapping[str, BlockDefinition],
        base_url: str | None,
        seen: dict[str, SourceRef],
        file_auth: str | None = None,
    ) -> Plan | None:
        path: PathKey = ("requirements", i)
        at = self.doc.locate(path)
        errors_before = len(self.sink.problems)
        req_id = clean_or_report(
            self, _text(item.get("req_id")) or "", "req_id", self.doc.locate((*path, "req_id"))
        )
        if req_id and not _REQ_ID_RE.match(req_id):
            self.sink.add(
                self.doc.locate((*path, "req_id")),
                f"req_id {req_id!r} contains spaces, ':', '/', '\\\\' or brackets",
                "an id like REQ-LOGIN-001",
            )
        elif req_id and not _REQ_ID_WORD_RE.search(req_id):
            # an id of dots or dashes alone names no requirement, and as a folder name
            # ('..') it would point outside the report folder
            self.sink.add(
                self.doc.locate((*path, "req_id")),
                f"req_id {req_id!r} has no letter or digit",
                "an id like REQ-LOGIN-001",
            )
        elif req_id in seen:
            self.sink.add(
                self.doc.locate((*path, "req_id")),
                f"duplicate req_id {req_id!r} (first at {seen[req_id].render()})",
                "each req_id once per file",
            )
        else:
            seen[req_id] = at
        tags = self.tags(item.get("tags"), self.doc.locate((*path, "tags")))
        variables = dict(file_vars)
        raw_vars = item.get("vars")
        if isinstance(raw_vars, dict):
            variables.update({k: _text(v) or "" for k, v in raw_vars.items()})
        context = item.get("context") if isinstance(item.get("context"), dict) else {}
        raw = self.raw_steps(item.get("steps"), (*path, "steps"))
        expanded: list[RawStep] = []
        hidden = Hidden(lambda name: is_secret_name(name, self.options.secret_vars))
        for raw_step in raw:  # one at a time, so every bad ``use`` is reported
            try:
                expanded.extend(expand((raw_step,), blocks, hidden=hidden))
            except BlockError as exc:
                self.sink.add(exc.source, str(exc), exc.expected)
        # secret block parameters, as vars of their own (planner/blocks.py)
        variables.update(hidden.vars)
        resolver = Resolver(self.options.env, variables, self.options.secret_vars)
        typed = [(self.typed_step(raw_step, n), raw_step) for n, raw_step in enumerate(expanded)]
        # where each extracted var is first stored; a use before it is a located error
        stores: dict[str, SourceRef] = {}
        for step, raw_step in typed:
            if step is not None and step.capture is not None:
                stores.setdefault(step.capture.var, raw_step.where("value"))
        steps: list[Step] = []
        stored: set[str] = set()
        for step, raw_step in typed:
            if step is not None:
                check_templates(
                    self.sink,
                    step,
                    raw_step,
                    resolver,
                    check_env=self.options.check_env,
                    stored=frozenset(stored),
                    later={k: v for k, v in stores.items() if k not in stored},
                )
                steps.append(step)
                if step.capture is not None:
                    stored.add(step.capture.var)
        url = _text(item.get("url")) or ""
        try:
            for ref in resolver.unresolved(url):
                self.sink.add(
                    self.doc.locate((*path, "url")),
                    f"{ref.raw} cannot be resolved",
                    "a var or environment variable that exists, or a default",
                )
        except TemplateError as exc:
            self.sink.add(self.doc.locate((*path, "url")), str(exc), None)
        if len(self.sink.problems) > errors_before or not req_id:
            return None
        secret = frozenset(
            k for k in variables if is_secret_name(k, self.options.secret_vars)
        ) | frozenset(hidden.vars)
        title = _text(item.get("title"))
        requirement = Requirement(
            req_id=req_id,
            url=url,
            base_url=base_url,
            title=title,
            tags=tags,
            vars=variables,
            context=_json(context),
            auth=_text(item.get("auth")) or file_auth,
            steps=tuple(steps),
            source=at,
        )
        return Plan(
            requirement=requirement,
            steps=tuple(steps),
            plan_hash=plan_hash(requirement, steps, secret),
            secret_vars=secret,
        )

    def tags(self, value: JsonLike, at: SourceRef) -> tuple[str, ...]:
        if value is None:
            return ()
        items = value if isinstance(value, list) else re.split(r"[,\s]+", str(value))
        tags: list[str] = []
        for tag in (str(t).strip() for t in items):
            if not tag:
                continue
            if not _TAG_RE.match(tag):
                self.sink.add(
                    at,
                    f"tag {tag!r} cannot be used as a pytest marker",
                    "letters, digits and _, starting with a letter, e.g. smoke",
                )
            elif tag not in tags:
                tags.append(tag)
        return tuple(tags)


def clean_or_report(builder: _Builder, text: str, what: str, at: SourceRef) -> str:
    try:
        return clean_name(text, what)
    except StepSyntaxError as exc:
        builder.sink.add(at, str(exc), exc.expected)
        return ""


def _json(value: JsonLike) -> dict[str, JsonValue]:
    return value if isinstance(value, dict) else {}


def read_document(path: Path, display: str, options: LoaderOptions) -> Document:
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise RequirementFileError.single(
            SourceRef(path=display),
            f"unsupported file type {path.suffix!r}",
            ".xlsx, .json, .yaml or .yml",
        )
    size = path.stat().st_size
    if size > options.max_file_bytes:
        raise RequirementFileError.single(
            SourceRef(path=display),
            f"the file is {size / 1e6:.1f} MB, over the {options.max_file_bytes / 1e6:.0f} MB "
            "limit",
            "a smaller file, or raise the ini key pacts_max_file_mb",
        )
    try:
        if options.cache_dir is None:
            doc = reader(path, display, options.limits)
        else:
            doc = read_cached(
                reader,
                path,
                display,
                options.limits,
                options.cache_dir,
                keep=lambda read: not writes_a_secret(read.data, options.secret_vars),
            )
    except ReadFailure as exc:
        raise RequirementFileError.single(exc.source, exc.message, exc.expected) from None
    normalise(doc)
    return doc


def load_file(
    path: Path, options: LoaderOptions | None = None, display: str | None = None
) -> LoadedFile:
    """Plan every requirement in ``path``; raises :class:`RequirementFileError`."""
    options = options or LoaderOptions()
    display = display or str(path)
    return load_document(read_document(path, display, options), options, path.resolve().parent)


def load_document(
    doc: Document, options: LoaderOptions | None = None, folder: Path | None = None
) -> LoadedFile:
    """Plan every requirement of a document already read (schema-shaped data with the
    location of its values), as if it were a file in ``folder`` (default: the working
    directory); raises :class:`RequirementFileError`."""
    options = options or LoaderOptions()
    folder = folder if folder is not None else Path.cwd()
    display = doc.path
    builder = _Builder(doc, options)
    for source, message, expected in doc.cell_problems:
        builder.sink.add(source, message, expected)
    for schema_path, message, expected in validate(doc.data):
        builder.sink.add(doc.locate(schema_path), message, expected)
    builder.sink.raise_if_any()
    data = doc.data
    assert isinstance(data, dict)
    given = data.get("vars")
    file_vars = {k: _text(v) or "" for k, v in (given if isinstance(given, dict) else {}).items()}
    base_url = _text(data.get("base_url"))
    blocks = builder.blocks(data)
    plans: list[Plan] = []
    seen: dict[str, SourceRef] = {}
    requirements = data.get("requirements")
    assert isinstance(requirements, list)
    if not requirements:
        builder.sink.add(
            doc.locate(("requirements",)),
            "the file holds no requirements",
            "at least one requirement",
        )
    for i, item in enumerate(requirements):
        if isinstance(item, dict):
            plan = builder.requirement(
                item, i, file_vars, blocks, base_url, seen, _text(data.get("auth")) or None
            )
            if plan is not None:
                plans.append(in_folder(plan, folder, builder.sink))
    builder.sink.raise_if_any()
    return LoadedFile(display, tuple(plans))


def load_blocks_file(
    path: Path, options: LoaderOptions | None = None
) -> dict[str, BlockDefinition]:
    """The blocks of a shared blocks file (any supported format with a ``blocks`` section)."""
    options = options or LoaderOptions()
    doc = read_document(path, str(path), options)
    if isinstance(doc.data, dict):
        doc.data.setdefault("requirements", [])
    builder = _Builder(doc, LoaderOptions(env=options.env, secret_vars=options.secret_vars))
    for schema_path, message, expected in validate(doc.data):
        builder.sink.add(doc.locate(schema_path), message, expected)
    builder.sink.raise_if_any()
    assert isinstance(doc.data, dict)
    blocks = builder.blocks(doc.data)
    builder.sink.raise_if_any()
    return blocks
