"""Checks of a typed step against the rest of its requirement: every template resolves
(and an element is never named by a value the run reads), an image target names a file
beside the requirement file.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from pathlib import Path

from pytest_pacts.models import Action, Plan, SourceRef, Step
from pytest_pacts.planner.blocks import RawStep
from pytest_pacts.planner.errors import ProblemSink
from pytest_pacts.planner.templating import Resolver, TemplateError, TemplateRef, parse_templates


def check_templates(
    sink: ProblemSink,
    step: Step,
    raw: RawStep,
    resolver: Resolver,
    *,
    check_env: bool = True,
    stored: frozenset[str] = frozenset(),
    later: Mapping[str, SourceRef] | None = None,
) -> None:
    """Every template of the step resolves. ``stored``: the vars earlier extract steps
    store (defined from then on); ``later``: those a later step stores, with where."""
    later = later or {}
    texts = {
        "value": step.value if step.capture is None else None,
        "element": str(step.target) if step.target else None,
        "expected": str(step.expected) if step.expected else None,
    }
    if step.capture is not None and step.capture.response is not None:
        texts["element"] = step.capture.response.url
    for name, text in texts.items():
        if not text:
            continue
        known = stored
        if name == "expected" and step.capture is not None:
            known = stored | {step.capture.var}  # checked after the value is stored
        try:
            missing = list(resolver.unresolved(text, known))
        except TemplateError as exc:
            sink.add(
                raw.where(name),
                str(exc),
                "{{env.NAME}}, {{env.NAME:default}}, "
                "{{vars.name}} or {{params.name}} inside a block",
            )
            continue
        _named_by_extracted(sink, step, raw, name, text, stored | set(later))
        for ref in missing:
            if ref.namespace != "env" or check_env:
                sink.add(raw.where(name), *_unresolved(ref, later))


def _named_by_extracted(
    sink: ProblemSink, step: Step, raw: RawStep, name: str, text: str, extracted: Set[str]
) -> None:
    """Elements are found before the run (and cached): never by a value the run reads."""
    reads_response = step.capture is not None and step.capture.response is not None
    names_element = (name == "element" and not reads_response) or (
        name == "expected"
        and step.expected is not None
        and step.expected.kind.argument in ("target", "count")
    )
    if not names_element:
        return
    extracted = extracted | ({step.capture.var} if step.capture else set())
    for ref in parse_templates(text):
        if ref.namespace == "vars" and ref.name in extracted:
            sink.add(
                raw.where(name),
                f"{ref.raw} names an element by a value an extract step stores while "
                "the requirement runs; elements are found before the run",
                "a fixed name in the Element column; check the stored value with "
                f"text_visible:{{{{vars.{ref.name}}}}} or value:{{{{vars.{ref.name}}}}}",
            )


def _unresolved(ref: TemplateRef, later: Mapping[str, SourceRef]) -> tuple[str, str]:
    """What is wrong with a template that does not resolve, and what would be right."""
    hint = {
        "env": f"set the environment variable {ref.name} or write {{{{env.{ref.name}:default}}}}",
        "vars": f"a var {ref.name!r} in vars (or the Config sheet), or an "
        f"earlier step that stores it: <Element> | extract | {ref.name}",
        "params": "{{params.*}} only inside a block's steps",
    }[ref.namespace]
    message = f"{ref.raw} cannot be resolved"
    if ref.namespace == "vars":
        where = later.get(ref.name)
        message += (
            f": the step that extracts {ref.name!r} comes later ({where.render()})"
            if where is not None
            else f": no var {ref.name!r} is defined and no earlier step extracts it"
        )
        if where is not None:
            hint = f"the step that extracts {ref.name!r} before this one (move it up)"
    return message, hint


_IMAGE_ACTIONS = frozenset({Action.CLICK, Action.HOVER})


def in_folder(plan: Plan, folder: Path, sink: ProblemSink) -> Plan:
    """``plan`` knowing the folder of its file, its image targets checked: a click or a
    hover, no region, a file that exists (relative to the requirement file's folder)."""
    for step in plan.steps:
        image = step.target.image if step.target is not None else None
        if step.target is None or image is None:
            if step.target is not None and step.target.element[:6].lower() == "image:":
                sink.add(step.source, "the image target names no file", "image:<path to a PNG>")
            continue
        if step.action not in _IMAGE_ACTIONS:
            sink.add(
                step.source,
                f"an image target can be clicked or hovered, not {step.action.value!r}",
                "click or hover",
            )
        if step.target.region is not None:
            sink.add(
                step.source,
                f"the image target {image!r} has a region ({step.target.region!r}); a picture "
                "is looked for on the whole page",
                f"image:{image} with no @region",
            )
        if not (folder / image).is_file():
            sink.add(
                step.source,
                f"the image target's file {image!r} does not exist (looked in {folder})",
                "the path of a PNG, relative to the requirement file",
            )
    return plan.model_copy(
        update={"requirement": plan.requirement.model_copy(update={"folder": str(folder)})}
    )
