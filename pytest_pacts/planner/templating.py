"""``{{env.NAME}}``, ``{{env.NAME:default}}``, ``{{vars.name}}``, ``{{params.name}}``.

The expression syntax (docs/user-guide.md "Templates and secrets": double braces, ``:default``
fallback, paths starting with ``__`` blocked). Templates are checked at plan time and *resolved at
the moment of use*: plans keep the template text, so secrets never reach a plan, its hash, or the
store. A resolved value that came from the environment, or from a var that is secret, is a
:class:`Secret` and prints as ``***``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from pytest_pacts.errors import PactsError

MASK = "***"
# Values this short are never masked: replacing every "1" or "ab" would mangle every text and
# protect nothing (such values are not credentials). Written once: the engine's messages, the
# trace, the page covered before a screenshot, the reports and the secret-word notice.
MIN_SECRET_LENGTH = 4

TEMPLATE_RE = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_SECRET_NAME_RE = re.compile(r"pass(word|wd|phrase)?|pwd|token|secret|key|credential|auth", re.I)
NAMESPACES = ("env", "vars", "params")


def is_secret_name(name: str, extra: frozenset[str] = frozenset()) -> bool:
    """A var is secret when listed (ini ``pacts_secret_vars``) or its name looks secret."""
    return name in extra or name.lower() in extra or bool(_SECRET_NAME_RE.search(name))


def maskable(secrets: Iterable[str]) -> list[str]:
    """The secret values a mask replaces: :data:`MIN_SECRET_LENGTH` characters or more, each
    once, longest first (a secret that contains another is masked whole)."""
    return sorted({s for s in secrets if len(s) >= MIN_SECRET_LENGTH}, key=len, reverse=True)


class SecretMask:
    """Replaces every maskable secret value with :data:`MASK`, in any letter case: a page
    that shows a user name upper-cased, or an error that quotes a token lower-cased, shows
    the secret all the same. The one masking rule of the engine and the reports."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.values = maskable(secrets)
        pattern = "|".join(re.escape(v) for v in self.values)
        self._pattern = re.compile(pattern, re.IGNORECASE) if pattern else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def __call__(self, text: str) -> str:
        return self._pattern.sub(MASK, text) if self._pattern is not None else text


def mask_secrets(text: str, secrets: Iterable[str]) -> str:
    """``text`` with each secret value masked (:class:`SecretMask`)."""
    return SecretMask(secrets)(text)


@dataclass(frozen=True)
class TemplateRef:
    """One ``{{namespace.name:default}}`` occurrence inside a value."""

    raw: str
    namespace: str
    name: str
    default: str | None
    start: int
    end: int


class TemplateError(ValueError, PactsError):
    """A template that cannot be parsed or resolved; the message is for a person."""


def parse_templates(text: str) -> list[TemplateRef]:
    """Every template in ``text``, validated. Raises :class:`TemplateError`."""
    refs: list[TemplateRef] = []
    if "{{" not in text and "}}" not in text:
        return refs
    for match in TEMPLATE_RE.finditer(text):
        inner = match.group(1).strip()
        path, sep, default = inner.partition(":")
        path = path.strip()
        segments = path.split(".")
        if any(seg.startswith("__") for seg in segments):
            raise TemplateError(
                f"template {match.group(0)!r} uses a path segment starting with '__', "
                "which is blocked for safety"
            )
        if len(segments) != 2 or not segments[0] or not segments[1]:
            raise TemplateError(
                f"template {match.group(0)!r} is not of the form "
                "{{env.NAME}}, {{env.NAME:default}}, {{vars.name}} or {{params.name}}"
            )
        namespace, name = segments
        if namespace not in NAMESPACES:
            raise TemplateError(
                f"template {match.group(0)!r} names an unknown namespace {namespace!r} "
                "(known: env, vars, params)"
            )
        if not _NAME_RE.match(name):
            raise TemplateError(f"template {match.group(0)!r} has an invalid name {name!r}")
        refs.append(
            TemplateRef(
                raw=match.group(0),
                namespace=namespace,
                name=name,
                default=default if sep else None,
                start=match.start(),
                end=match.end(),
            )
        )
    leftover = TEMPLATE_RE.sub("", text)
    if "{{" in leftover or "}}" in leftover:
        raise TemplateError(f"unbalanced template braces in {text!r}")
    return refs


def substitute(text: str, namespace: str, values: Mapping[str, str]) -> str:
    """Replace templates of one namespace (block params at plan time); others stay intact."""

    def repl(match: re.Match[str]) -> str:
        inner = match.group(1).strip()
        path, sep, default = inner.partition(":")
        ns, _, name = path.strip().partition(".")
        if ns != namespace:
            return match.group(0)
        if name in values:
            return values[name]
        if sep:
            return default
        raise TemplateError(f"{match.group(0)!r}: no {namespace} value named {name!r}")

    return TEMPLATE_RE.sub(repl, text)


def secret_defaults(text: str, secret_vars: frozenset[str] = frozenset()) -> list[str]:
    """The defaults written in ``text`` that stand in for a secret: every ``{{env.NAME:...}}``
    default (an environment value is always secret, so is what replaces it when the variable
    is unset, as the samples type their password) and the default of a var whose name marks
    it secret. A template that does not parse gives none."""
    try:
        refs = parse_templates(text)
    except TemplateError:
        return []
    return [ref.default for ref in refs if ref.default and _stands_in(ref, secret_vars)]


def _stands_in(ref: TemplateRef, secret_vars: frozenset[str]) -> bool:
    """Does ``ref``'s default stand in for a secret value?"""
    return ref.namespace == "env" or (
        ref.namespace == "vars" and is_secret_name(ref.name, secret_vars)
    )


def mask_defaults(text: str, secret_vars: frozenset[str] = frozenset()) -> str:
    """``text`` with each default :func:`secret_defaults` finds written as ``***``
    (``{{env.PASSWORD:***}}``): what a record of the sheet's text may keep."""
    if "{{" not in text:
        return text
    try:
        refs = parse_templates(text)
    except TemplateError:
        return text
    out: list[str] = []
    pos = 0
    for ref in refs:
        if ref.default and _stands_in(ref, secret_vars):
            out.append(text[pos : ref.start])
            out.append(ref.raw[: ref.raw.rindex(ref.default)] + MASK + "}}")
            pos = ref.end
    out.append(text[pos:])
    return "".join(out)


class Secret(str):
    """A resolved value that must never be shown: ``str()``/``repr()``/``format`` give ``***``.

    It subclasses ``str`` only so it can be passed where text is expected; the real value is
    available through :meth:`reveal` (used by the executor at the moment it types).
    """

    __slots__ = ("_value",)
    _value: str

    def __new__(cls, value: str) -> Secret:
        obj = super().__new__(cls, MASK)
        obj._value = value
        return obj

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        # Pickling (xdist, multiprocessing) must never carry the value.
        return (str, (MASK,))


def reveal(value: str) -> str:
    """The real text of a value that may be a :class:`Secret`."""
    return value.reveal() if isinstance(value, Secret) else value


class Resolver:
    """Resolves templates against the environment and a requirement's vars.

    ``secret_vars`` extends the secret-name rule (ini ``pacts_secret_vars``). Values from
    ``env`` are always secret: the environment is where credentials live.
    """

    def __init__(
        self,
        env: Mapping[str, str],
        variables: Mapping[str, str],
        secret_vars: frozenset[str] = frozenset(),
    ) -> None:
        self._env = env
        self._vars = variables
        self._secret_vars = secret_vars
        # values ``extract`` steps stored during the run: literal text, never templates
        self._extracted: dict[str, str] = {}
        self._extracted_secret: set[str] = set()
        # secret values this resolver handed out (typed into the page): a value read back
        # from the page that holds one is a secret too, whatever its var is called
        self._handed_out: set[str] = set()

    @property
    def secret_vars(self) -> frozenset[str]:
        """Var names made secret by configuration (ini ``pacts_secret_vars``)."""
        return self._secret_vars

    def bind(self, name: str, value: str, *, secret: bool = False) -> str:
        """Store what an ``extract`` step read as ``{{vars.<name>}}`` for the later steps
        (it wins over a var of that name). Returns the value as it may be shown: ``***``
        when ``secret`` or when the name looks secret."""
        self._extracted[name] = reveal(value)
        secret = (
            secret
            or isinstance(value, Secret)
            or is_secret_name(name, self._secret_vars)
            or any(len(s) >= 4 and s in self._extracted[name] for s in self._handed_out)
        )
        if secret:
            self._extracted_secret.add(name)
        else:
            self._extracted_secret.discard(name)
        return MASK if secret else self._extracted[name]

    def secret_values(self) -> list[str]:
        """The extracted values that are secret (to mask them in texts built from a page)."""
        return [self._extracted[n] for n in self._extracted_secret if self._extracted[n]]

    def known_secrets(self) -> set[str]:
        """Every secret value this resolver handed out or was given (typed values, their
        defaults included, and secret extracts): what an artifact of the run must mask."""
        return {*self._handed_out, *self.secret_values()} - {""}

    def unresolved(self, text: str, known: frozenset[str] = frozenset()) -> Iterator[TemplateRef]:
        """Templates in ``text`` that cannot be resolved (no value and no default). Var
        names in ``known`` count as defined (an earlier step extracts them)."""
        for ref in parse_templates(text):
            if ref.default is not None:
                continue
            if ref.namespace == "vars" and (ref.name in known or ref.name in self._extracted):
                continue
            defined = self._env if ref.namespace == "env" else self._vars
            if ref.namespace in ("env", "vars") and ref.name not in defined:
                yield ref
            elif ref.namespace == "params":
                yield ref  # params only exist inside blocks; left over means unknown
            elif ref.namespace == "vars":
                yield from self.unresolved(self._vars[ref.name], known)

    def is_secret(self, text: str, _depth: int = 0) -> bool:
        """True when resolving ``text`` would pull in a secret value."""
        for ref in parse_templates(text):
            if ref.namespace == "env":
                return True
            if ref.namespace == "vars":
                if ref.name in self._extracted:
                    if ref.name in self._extracted_secret:
                        return True
                    continue
                if is_secret_name(ref.name, self._secret_vars):
                    return True
                inner = self._vars.get(ref.name)
                if inner is not None and _depth < 10 and self.is_secret(inner, _depth + 1):
                    return True
        return False

    def resolve(self, text: str) -> str:
        """The value with every template replaced; a :class:`Secret` when any part is secret.

        Raises :class:`TemplateError` for an unresolvable template (collection normally
        catches those first).
        """
        plain = self._resolve(text, 0)
        if not self.is_secret(text):
            return plain
        self._handed_out.add(plain)
        return Secret(plain)

    def _resolve(self, text: str, depth: int) -> str:
        if depth > 10:
            raise TemplateError(f"vars refer to each other too deeply in {text!r}")
        out: list[str] = []
        pos = 0
        for ref in parse_templates(text):
            out.append(text[pos : ref.start])
            pos = ref.end
            if ref.namespace == "env":
                value = self._env.get(ref.name, ref.default)
            elif ref.namespace == "vars" and ref.name in self._extracted:
                value = self._extracted[ref.name]
            elif ref.namespace == "vars":
                raw = self._vars.get(ref.name)
                value = self._resolve(raw, depth + 1) if raw is not None else ref.default
            else:
                value = ref.default
            if value is None:
                raise TemplateError(f"{ref.raw} has no value and no default")
            out.append(value)
        out.append(text[pos:])
        return "".join(out)
