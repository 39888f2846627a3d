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

from pytest_pacts.models import Plan
from pytest_pacts.planner.templating import (
    MIN_SECRET_LENGTH,
    TEMPLATE_RE,
    TemplateError,
    parse_templates,
)

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


def _own_words(plan: Plan) -> Iterator[tuple[str, str]]:
    """(where, text) of every text of ``plan`` a person wrote, templates left out."""
    requirement = plan.requirement
    yield f"{plan.req_id}'s URL", requirement.url
    if requirement.title:
        yield f"{plan.req_id}'s title", requirement.title
    for step in plan.steps:
        at = f"{plan.req_id} step {step.index + 1}"
        if step.target is not None:
            yield at, step.target.element
            if step.target.region:
                yield at, step.target.region
        if step.value:
            yield at, step.value
        if step.expected is not None and step.expected.text:
            yield at, step.expected.text


def secrets_in_own_words(plans: Iterable[Plan], environ: Mapping[str, str]) -> list[SecretWord]:
    """The ``{{env.*}}`` values ``plans`` type that occur (in any letter case) in their own
    words, once per var, in the order the file holds them."""
    plans = list(plans)
    values: dict[str, str] = {}
    for plan in plans:
        texts = [plan.requirement.url, *(s.value for s in plan.steps)]
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
