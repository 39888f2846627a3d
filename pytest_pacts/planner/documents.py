"""A requirement document as read, before it is planned: one requirement written alone
becomes a list of one (:func:`normalise`), and whether the file writes a secret value of its
own (:func:`writes_a_secret`), which keeps it out of the document cache.
"""

from __future__ import annotations

import re

from pytest_pacts.models import SourceRef
from pytest_pacts.planner.readers import Document
from pytest_pacts.planner.readers.base import JsonLike
from pytest_pacts.planner.steps import StepSyntaxError, parse_params
from pytest_pacts.planner.templating import is_secret_name, secret_defaults


def normalise(doc: Document) -> None:
    """A file holding one requirement becomes ``{"requirements": [it]}`` (paths shifted)."""
    data = doc.data
    if (
        isinstance(data, dict)
        and "requirements" not in data
        and ({"req_id", "url", "steps"} & set(data))
    ):
        single = {k: v for k, v in data.items() if k != "$schema"}
        doc.data = {"requirements": [single]}
        shifted = {("requirements", 0, *k): v for k, v in doc.positions.items()}
        shifted[()] = doc.positions.get((), SourceRef(path=doc.path))
        shifted[("requirements",)] = shifted[()]
        doc.positions = shifted


_TEMPLATE_RE = re.compile(r"\{\{.*?\}\}", re.S)


def writes_a_secret(data: JsonLike, secret_vars: frozenset[str]) -> bool:
    """Does the file give a secret var, or a block parameter whose name marks it secret (by
    its name, or listed in ``secret_vars``), a value of its own, not only templates? Such a
    file is kept in the document cache only sealed (``readers/cache.py``)."""
    if not isinstance(data, dict):
        return False

    def literal(name: object, value: object) -> bool:
        return (
            value is not None
            and is_secret_name(str(name).strip(), secret_vars)
            and _TEMPLATE_RE.sub("", str(value)).strip() != ""
        )

    scopes = [data.get("vars")]
    items = data.get("requirements")
    requirements = (
        [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
    )
    scopes.extend(item.get("vars") for item in requirements)
    if any(
        literal(name, value)
        for scope in scopes
        if isinstance(scope, dict)
        for name, value in scope.items()
    ):
        return True
    blocks = data.get("blocks")
    bodies = [b for b in blocks.values() if isinstance(b, dict)] if isinstance(blocks, dict) else []
    for body in bodies:  # a default of a secret parameter: ``params: [password=...]``
        params = body.get("params")
        for item in params if isinstance(params, list) else []:
            name, sep, default = str(item).partition("=")
            if sep and literal(name, default):
                return True
    steps = [s for holder in (*requirements, *bodies) for s in _list(holder.get("steps"))]
    if any(literal(name, value) for step in steps for name, value in _use_params(step).items()):
        return True
    return _writes_a_secret_default(data, secret_vars)


def _writes_a_secret_default(data: JsonLike, secret_vars: frozenset[str]) -> bool:
    """Does any text of the file write a default that stands in for a secret
    (``{{env.PASSWORD:secret_sauce}}``)? Such a value is typed as a secret, so the file is
    kept only sealed too. The walk is bounded by the reader's limits on the document."""
    stack: list[JsonLike] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and "{{" in item and secret_defaults(item, secret_vars):
            return True
    return False


def _list(value: JsonLike) -> list[JsonLike]:
    return value if isinstance(value, list) else []


def _use_params(step: JsonLike) -> dict[str, str]:
    """The ``name=value`` params a raw ``use`` step passes (empty for other steps or params
    that do not parse: the file's errors are reported when it is planned)."""
    if isinstance(step, str):
        parts = [p.strip() for p in step.split("|")]
        if len(parts) < 3 or parts[0].lower() != "use":
            return {}
        text: JsonLike = parts[2]
    elif isinstance(step, dict) and str(step.get("action", "")).strip().lower() == "use":
        params = step.get("params")
        if isinstance(params, dict):
            return {str(k): str(v) for k, v in params.items() if v is not None}
        text = step.get("value")
    else:
        return {}
    try:
        return parse_params(str(text)) if text else {}
    except StepSyntaxError:
        return {}
