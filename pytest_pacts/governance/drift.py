"""One drift, one proposal; several verified locators per element, one per deployment.

**Drift identity.** A heal proposal stands for *what changed*: an element (its key,
``Element@Region``) found by a new locator on a page. The same drift healed by another
requirement, or by the next run, is an *occurrence* of that proposal, not a new one
(:func:`drift_key`). The page is the URL's path relative to the deployment, so the same
page on two hosts is one page.

**Deployments.** A requirement may run against several deployments at once (staging and
production, two releases), and an element may look different on each. The store counts
every locator that acted on an element with the deployment it ran on; a run on a deployment
puts the recipe's locator verified there first (:func:`order_for_deployment`), and accepting
a heal keeps a stronger primary that still works on another deployment
(:func:`merge_heal`), so alternating deployments neither heal back and forth nor downgrade
the recipe. See docs/governance.md, "One drift, one proposal" and "Locators per deployment".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from pytest_pacts.governance.locators import locator_strength
from pytest_pacts.models.recipe import JsonObject, SelectorEntry
from pytest_pacts.store import VerifiedLocator


@dataclass(frozen=True)
class HealSite:
    """Where a heal happened: the deployment (base URL), the page URL, and files a reviewer
    can open (the screenshots before and after)."""

    deployment: str = ""
    url: str = ""
    screenshots: Mapping[str, str] = field(default_factory=dict)


def deployment_of(base_url: str | None, url: str | None = None) -> str:
    """The deployment a run ran against: its base URL without the trailing slash, else the
    origin (``scheme://host:port``) of ``url``; ``""`` when neither is known."""
    if base_url and base_url.strip():
        return base_url.strip().rstrip("/")
    if url:
        parts = urlsplit(url)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
    return ""


def page_of(url: str, deployment: str = "") -> str:
    """The page of ``url`` as a path relative to ``deployment`` (``/login``), without query
    or fragment, so the same page on two deployments is one page; ``""`` when unknown."""
    if not url:
        return ""
    if deployment and url.startswith(deployment):
        path = urlsplit(url[len(deployment) :]).path
    else:
        path = urlsplit(url).path
    path = "/" + path.lstrip("/")
    return path.rstrip("/") or "/"


# How sure discovery was of a locator is not part of what the locator finds.
_NOT_IDENTITY = frozenset({"confidence"})


def canonical(locator: Mapping[str, object]) -> str:
    """A locator as canonical JSON (its set fields, sorted; its confidence left out), to
    compare two locators."""
    shown = {
        k: v
        for k, v in locator.items()
        if k not in _NOT_IDENTITY and v not in (None, "", [], {}, ())
    }
    return json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def drift_key(page: str, element_key: str, healed: Mapping[str, object]) -> str:
    """The identity of a drift: the page, the element and its new locator, hashed."""
    text = json.dumps([page, element_key, canonical(healed)], ensure_ascii=False)
    return "drift:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def same(a: Mapping[str, object], b: Mapping[str, object]) -> bool:
    """Whether two locators are the same (unset fields aside)."""
    return canonical(a) == canonical(b)


def _unique(locators: Iterable[JsonObject]) -> list[JsonObject]:
    seen: set[str] = set()
    kept: list[JsonObject] = []
    for locator in locators:
        key = canonical(locator)
        if locator and key not in seen:
            seen.add(key)
            kept.append(locator)
    return kept


def verified_on(locator: Mapping[str, object], verified: Sequence[VerifiedLocator]) -> list[str]:
    """The deployments where ``locator`` acted on the element, most recent first."""
    return list(
        dict.fromkeys(
            v.deployment
            for v in verified
            if isinstance(v.locator, dict) and same(v.locator, locator)
        )
    )


@dataclass(frozen=True)
class Merged:
    """The selector entry after a heal, and whether the old primary was kept as primary."""

    entry: SelectorEntry
    kept_primary: bool
    reason: str


def merge_heal(
    entry: SelectorEntry | None,
    healed: JsonObject,
    failed: Sequence[JsonObject],
    verified: Sequence[VerifiedLocator],
    heal_deployments: Iterable[str],
) -> Merged:
    """The selector entry of an element once a heal to ``healed`` is accepted.

    Every locator is kept (the recipe is shared by every deployment). The healed locator
    becomes the primary, unless it is weaker (:func:`locator_strength`) than the current
    primary and that primary was verified on a deployment other than those the heal was
    found on: then the primary stays and the healed locator becomes the first fallback.
    """
    if entry is None:
        return Merged(
            SelectorEntry(primary=healed, fallbacks=tuple(_unique(failed))),
            False,
            "the element had no selector entry",
        )
    primary = entry.primary
    if same(primary, healed):
        return Merged(entry, True, "the healed locator is already the primary")
    heal_sites = {d for d in heal_deployments if d}
    elsewhere = [d for d in verified_on(primary, verified) if d not in heal_sites]
    weaker = locator_strength(healed) < locator_strength(primary)
    others = [f for f in entry.fallbacks if not same(f, healed)]
    if elsewhere and weaker:
        fallbacks = _unique([healed, *others, *failed])
        fallbacks = [f for f in fallbacks if not same(f, primary)]
        return Merged(
            SelectorEntry(primary=primary, fallbacks=tuple(fallbacks)),
            True,
            f"the primary is stronger and still works on {', '.join(elsewhere)}: kept, the "
            "healed locator added as the first fallback",
        )
    # The old primary stays as a fallback: first when it still works elsewhere, else last.
    rest = [primary, *others, *failed] if elsewhere else [*others, *failed, primary]
    fallbacks = [f for f in _unique(rest) if not same(f, healed)]
    return Merged(
        SelectorEntry(primary=healed, fallbacks=tuple(fallbacks)),
        False,
        "the healed locator becomes the primary; the old one is kept as a fallback",
    )


def order_for_deployment(
    entry: SelectorEntry, deployment: str, verified: Sequence[VerifiedLocator]
) -> tuple[JsonObject, tuple[JsonObject, ...]]:
    """The entry's locators for a run on ``deployment``, primary first.

    The one most recently verified on this deployment comes first; on a deployment with
    nothing verified yet (a new host, a review app on a fresh port), the one most recently
    verified anywhere, since the last deployment run is the likeliest to look like this
    one. The others follow in the recipe's order. ``verified`` is most recent first
    (``store.locators.for_requirement``); with none of its locators verified, the
    recipe's own order.
    """
    locators = _unique([entry.primary, *entry.fallbacks])
    mine = [v for v in verified if isinstance(v.locator, dict)]
    here = [v for v in mine if v.deployment == deployment]
    for candidates in (here, mine if not here else []):
        for record in candidates:
            assert isinstance(record.locator, dict)
            chosen = next((loc for loc in locators if same(loc, record.locator)), None)
            if chosen is not None:
                return chosen, tuple(loc for loc in locators if loc is not chosen)
    return entry.primary, tuple(locators[1:])
