"""The plan hash: a stable fingerprint of what a requirement does.

It covers the url, browser context, steps after block expansion (templates *unresolved*)
and non-secret var values. It leaves out what does not change behaviour (title, tags, where
the rows are in the file, the base URL of a deployment) and every secret value, so a
rotated password never invalidates a cached plan and never influences the hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from pytest_pacts.models import Requirement, Step

HASH_VERSION = "1"
SECRET_PLACEHOLDER = "<secret>"


def canonical_steps(steps: Iterable[Step]) -> list[dict[str, object]]:
    return [
        step.model_dump(mode="json", exclude={"index", "source", "block"}, exclude_none=True)
        for step in steps
    ]


def plan_hash(requirement: Requirement, steps: Iterable[Step], secret_vars: frozenset[str]) -> str:
    """``sha256:<hex>`` of the canonical JSON (sorted keys, no whitespace) of the plan."""
    body = {
        "v": HASH_VERSION,
        "url": requirement.url,
        "context": requirement.context,
        "vars": {
            k: (SECRET_PLACEHOLDER if k in secret_vars else v)
            for k, v in sorted(requirement.vars.items())
        },
        "steps": canonical_steps(steps),
    }
    if requirement.auth:  # a signed-in start page is another page (absent: hashes unchanged)
        body["auth"] = requirement.auth
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
