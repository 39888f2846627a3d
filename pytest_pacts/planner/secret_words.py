"""A secret whose value is also one of the file's own words: said once, at collection.

Every ``{{env.NAME}}`` value is a secret, and a secret is masked wherever it occurs, in any
letter case (docs/user-guide.md, "Templates and secrets"): that is the safe side, since a
password echoed inside a longer word or a URL is still a password. A value that is an ordinary
word (a user name such as ``admin``) then masks that word everywhere too: the URL
``/admin/login/`` prints as ``/***/login/`` and "Administrator" as "***istrator". The masking
stays; when the value occurs in the requirement file's own words (a URL, a title, an element
name, a literal value, an expected outcome) the person is told once, at collection, why those
words will print as ``***`` and what to do about a value that is not a secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_pacts.planner.plan_cache import PlainPlan
from pytest_pacts.planner.templating import (
    MIN_SECRET_LENGTH,
    TEMPLATE_RE,
    TemplateError,
    parse_templates,
)

if TYPE_CHECKING:
    from pytest_pacts.models import Plan

__all__ = ["SecretWord", "secrets_in_own_words"]


@dataclass(frozen=True)
class SecretWord:
    """``{{env.<var>}}``'s value occurs in ``where`` (a requirement's own text, ``text``).
    The message names the place, never the text: which words hold it would say part of
    a secret's value."""

    var: str
    where: str
    text: str

    def message(self, file: str) -> str:
        return (
            f"{file}: the value of {{{{env.{self.var}}}}} is a secret (every {{{{env.*}}}} "
            f"value is) and is also part of the file's own words (in {self.where}): reports "
            "mask it wherever it occurs, so such words print with *** in them. A secret should "
            "be a value no page or step shows; a value that is not secret (a user name) can be "
            "written in the file or its vars instead"
        )


def _env_vars(text: str | None) -> Iterator[str]:
    if not text:
        return
    try:
        refs = parse_templates(text)
    except TemplateError:
        return  # the loader reports it
    yield from (ref.name for ref in refs if ref.namespace == "env")


def _own_words(plan: PlainPlan) -> Iterator[tuple[str, str]]:
    """(where, text) of every text of ``plan`` a person wrote, templates left out (read
    from the plan's plain data: collection says this without building the models)."""
    yield f"{plan.req_id}'s URL", plan.requirement["url"]
    if plan.title:
        yield f"{plan.req_id}'s title", plan.title
    for step in plan.steps:
        at = f"{plan.req_id} step {step['index'] + 1}"
        target = step.get("target")
        if target is not None:
            yield at, target["element"]
            if target.get("region"):
                yield at, target["region"]
        if step.get("value"):
            yield at, step["value"]
        expected = step.get("expected")
        if expected is not None and expected.get("text"):
            yield at, expected["text"]


def secrets_in_own_words(
    given: Iterable[Plan | PlainPlan], environ: Mapping[str, str]
) -> list[SecretWord]:
    """The ``{{env.*}}`` values the plans type that occur (in any letter case) in their own
    words, once per var, in the order the file holds them."""
    plans = [p if isinstance(p, PlainPlan) else PlainPlan.of(p) for p in given]
    values: dict[str, str] = {}
    for plan in plans:
        texts = [plan.requirement["url"], *(s.get("value") for s in plan.steps)]
        for var in (v for text in texts for v in _env_vars(text)):
            value = environ.get(var, "")
            if len(value) >= MIN_SECRET_LENGTH:
                values.setdefault(var, value)
    found: dict[str, SecretWord] = {}
    for plan in plans:
        for where, raw in _own_words(plan):
            text = TEMPLATE_RE.sub(" ", raw)
            for var, value in values.items():
                if var not in found and value.lower() in text.lower():
                    found[var] = SecretWord(var, where, raw)
    return list(found.values())
