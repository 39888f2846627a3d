"""Cell values as safe Python expressions.

Nothing from a requirement sheet is ever interpolated into source as raw text: literal text
becomes a ``repr()`` literal, ``{{env.NAME}}`` becomes ``os.environ["NAME"]`` (or
``os.environ.get("NAME", default)``), a non-secret ``{{vars.x}}`` its value (itself
rendered the same way), and a secret var ``{{vars.password}}`` becomes
``os.environ["PACTS_VAR_PASSWORD"]`` (:func:`secret_var_env`), so no secret is ever written.
Comments get text with every line break and control character replaced.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pytest_pacts.errors import PactsError
from pytest_pacts.models import Plan
from pytest_pacts.planner.templating import TemplateError, is_secret_name, parse_templates

_MAX_DEPTH = 10


class GenerationError(ValueError, PactsError):
    """A requirement cannot be generated; the message names the step and what is missing."""


def secret_var_env(name: str) -> str:
    """The environment variable a generated test reads a secret var from."""
    return "PACTS_VAR_" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()


def comment_text(text: str, limit: int = 160) -> str:
    """``text`` safe inside a ``#`` comment: one line, no control characters."""
    cleaned = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cf") else ch for ch in text
    )
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@dataclass
class ValueRenderer:
    """Renders template values of one plan; remembers which env vars the test reads."""

    plan: Plan
    secret_vars: frozenset[str] = frozenset()
    env_names: list[str] = field(default_factory=list)

    def _secret(self, name: str) -> bool:
        return is_secret_name(name, self.secret_vars | self.plan.secret_vars)

    def _env(self, name: str) -> None:
        if name not in self.env_names:
            self.env_names.append(name)

    def expr(self, text: str, _depth: int = 0) -> str:
        """A Python expression evaluating to ``text`` with its templates resolved."""
        return " + ".join(self._parts(text, _depth)) or repr("")

    def _parts(self, text: str, depth: int) -> list[str]:
        if depth > _MAX_DEPTH:
            raise GenerationError(f"vars refer to each other too deeply in {text!r}")
        try:
            refs = parse_templates(text)
        except TemplateError as exc:
            raise GenerationError(str(exc)) from None
        parts: list[str] = []
        pos = 0
        for ref in refs:
            if ref.start > pos:
                parts.append(repr(text[pos : ref.start]))
            pos = ref.end
            if ref.namespace == "env":
                self._env(ref.name)
                if ref.default is None:
                    parts.append(f"os.environ[{ref.name!r}]")
                else:
                    parts.append(f"os.environ.get({ref.name!r}, {ref.default!r})")
            elif ref.namespace == "vars":
                parts.extend(self._var(ref.name, ref.default, depth))
            else:
                raise GenerationError(
                    f"{ref.raw!r}: block parameters are expanded at plan time; "
                    "one left over means the block call did not give it"
                )
        if pos < len(text):
            parts.append(repr(text[pos:]))
        return parts

    def _var(self, name: str, default: str | None, depth: int) -> list[str]:
        variables = self.plan.requirement.vars
        if self._secret(name) and "{{" not in variables.get(name, ""):
            # a literal secret value is never written; the test reads it from the env
            env = secret_var_env(name)
            self._env(env)
            return [f"os.environ[{env!r}]"]
        if name in variables:
            return self._parts(variables[name], depth + 1) or [repr("")]
        if default is not None:
            return [repr(default)]
        raise GenerationError(f"{{{{vars.{name}}}}} has no value in {self.plan.req_id}'s vars")
