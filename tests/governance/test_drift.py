"""Drift identity, deployments, and merging a heal into an element's locators."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytest_pacts.governance import (
    deployment_of,
    drift_key,
    locator_strength,
    merge_heal,
    order_for_deployment,
    page_of,
)
from pytest_pacts.models.recipe import JsonObject, SelectorEntry
from pytest_pacts.store import VerifiedLocator

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)
ROLE: JsonObject = {"strategy": "role_name", "role": "button", "name": "Login", "confidence": 0.95}
TEXT: JsonObject = {"strategy": "text", "text": "Sign in", "confidence": 0.86}
TEST_ID: JsonObject = {"strategy": "test_id", "test_id": "login", "confidence": 0.98}
CSS: JsonObject = {"strategy": "css", "css": "#login-button", "confidence": 0.66}
A, B, C = "http://a.test", "http://b.test:8080/app", "http://c.test"


def _verified(locator: JsonObject, deployment: str, minutes: int = 0) -> VerifiedLocator:
    moment = T0 + timedelta(minutes=minutes)
    return VerifiedLocator(0, "REQ-1", "Login@Form", locator, deployment, 1, moment, moment)


def test_deployment_is_the_base_url_else_the_origin() -> None:
    assert deployment_of("http://b.test:8080/app/", "http://x/y") == B
    assert deployment_of(None, "http://a.test/login?next=/") == A
    assert deployment_of(None, "about:blank") == ""
    assert deployment_of("  ", None) == ""


def test_the_page_is_the_path_relative_to_the_deployment() -> None:
    assert page_of("http://b.test:8080/app/login?x=1#top", B) == "/login"
    assert page_of("http://a.test/", A) == "/"
    assert page_of("http://elsewhere.test/cart/", A) == "/cart"
    assert page_of("", A) == ""


def test_a_drift_is_the_page_the_element_and_its_new_locator() -> None:
    key = drift_key("/login", "Login@Form", ROLE)
    # how sure discovery was, and unset fields, are not part of the locator
    assert key == drift_key("/login", "Login@Form", {**ROLE, "confidence": 0.5, "css": None})
    assert key != drift_key("/", "Login@Form", ROLE)
    assert key != drift_key("/login", "Login@Other", ROLE)
    assert key != drift_key("/login", "Login@Form", TEXT)
    assert key.startswith("drift:")


def test_strength_ranks_test_ids_over_names_over_css_and_text() -> None:
    positional: JsonObject = {"strategy": "css", "css": "form > button:nth-child(3)"}
    ranks = [locator_strength(x) for x in (TEST_ID, ROLE, CSS, TEXT, positional)]
    assert ranks == sorted(ranks, reverse=True) and ranks[0] > ranks[1] > ranks[2]
    assert locator_strength(positional) == locator_strength(TEXT) == 0  # brittle


def test_a_weaker_heal_keeps_a_primary_that_works_on_another_deployment() -> None:
    entry = SelectorEntry(primary=ROLE, fallbacks=(CSS,))
    merged = merge_heal(entry, TEXT, [ROLE], [_verified(ROLE, A)], [B])
    assert merged.kept_primary and merged.entry.primary == ROLE
    assert merged.entry.fallbacks == (TEXT, CSS)
    assert "still works on http://a.test" in merged.reason


def test_a_heal_replaces_a_primary_verified_nowhere_else() -> None:
    entry = SelectorEntry(primary=ROLE, fallbacks=(CSS,))
    # verified only where it now fails: the healed locator becomes primary, the old last
    merged = merge_heal(entry, TEXT, [ROLE], [_verified(ROLE, B)], [B])
    assert not merged.kept_primary
    assert (merged.entry.primary, merged.entry.fallbacks) == (TEXT, (CSS, ROLE))
    # a stronger heal replaces it even when it works elsewhere; the old one comes first
    stronger = merge_heal(entry, TEST_ID, [ROLE], [_verified(ROLE, A)], [B])
    assert (stronger.entry.primary, stronger.entry.fallbacks) == (TEST_ID, (ROLE, CSS))
    # no entry yet: the heal adds one, the failed locator kept
    added = merge_heal(None, TEXT, [ROLE], [], [B])
    assert (added.entry.primary, added.entry.fallbacks) == (TEXT, (ROLE,))
    # already the primary: nothing changes
    assert merge_heal(entry, {**ROLE, "confidence": 0.1}, [CSS], [], [B]).entry == entry


def test_each_deployment_runs_its_own_verified_locator_first() -> None:
    entry = SelectorEntry(primary=ROLE, fallbacks=(TEXT, CSS))
    # most recent first, as the store gives them
    verified = [_verified(TEXT, B, 2), _verified(CSS, C, 1), _verified(ROLE, A)]
    assert order_for_deployment(entry, A, verified) == (ROLE, (TEXT, CSS))
    assert order_for_deployment(entry, B, verified) == (TEXT, (ROLE, CSS))
    assert order_for_deployment(entry, C, verified) == (CSS, (ROLE, TEXT))
    # a new deployment takes the one verified most recently anywhere
    assert order_for_deployment(entry, "http://new.test", verified) == (TEXT, (ROLE, CSS))
    # nothing verified, or verified locators the recipe does not hold: the recipe's order
    assert order_for_deployment(entry, A, []) == (ROLE, (TEXT, CSS))
    assert order_for_deployment(entry, A, [_verified(TEST_ID, A)]) == (ROLE, (TEXT, CSS))


def test_a_recipe_selector_is_not_laid_over_a_step_naming_the_words_for_another_action(
    tmp_path: Path,
) -> None:
    """A recipe keeps one selector per element name, recorded from the first step naming it.
    A hover on a disclosure's visible words and a click on the control they show name the
    same words and mean two elements (Playwright: the control is visible only while it has a
    box; docs/discovery.md, "Controls before text"): reader 3.20 clicked the label span the
    3.3 recipe recorded for `add feed | hover` (docs/real-apps.md, "reader to dev"). The
    click keeps its own POM entry (or, with none, its discovery); a step with the first
    step's action, or whose own discovery found what the first step's did (a field filled,
    then focused: an accepted heal patches both), takes the recipe's selector."""
    from pytest_pacts.governance.recipes import overlay
    from pytest_pacts.models.locator import DiscoveryResult, Locator
    from pytest_pacts.models.recipe import Recipe
    from pytest_pacts.planner import LoaderOptions, load_file

    sheet = tmp_path / "feeds.req.yaml"
    sheet.write_text(
        "req_id: REQ-1\nurl: /\nsteps:\n  - add feed | hover\n  - url | fill | x\n"
        "  - add feed | click\n  - add feed | hover\n  - url | focus\n  - url | press | Enter\n"
    )
    plan = load_file(sheet, LoaderOptions(env={})).plans[0]
    label = Locator.model_validate({"strategy": "css", "css": "span.label", "confidence": 0.86})
    button = Locator.model_validate(ROLE | {"name": "add feed"})
    url = Locator.model_validate(
        {"strategy": "placeholder", "placeholder": "url", "confidence": 0.9}
    )
    healed = Locator.model_validate({"strategy": "css", "css": "input#url", "confidence": 0.7})
    recipe = Recipe.from_plan(plan).model_copy(
        update={
            "selectors": {
                "add feed": SelectorEntry(primary=label.model_dump(mode="json")),
                "url": SelectorEntry(primary=healed.model_dump(mode="json")),
            }
        }
    )

    def found(element: str, action: str, locator: Locator) -> DiscoveryResult:
        return DiscoveryResult(element=element, action=action, locator=locator)

    pom = {
        0: found("add feed", "hover", label),
        1: found("url", "fill", url),
        2: found("add feed", "click", button),
        4: found("url", "focus", url),
    }
    merged = overlay(plan, recipe, pom)
    assert merged[2].locator == button
    assert merged[0].locator == merged[3].locator == label
    assert merged[1].locator == merged[4].locator == healed
    # no POM entry of its own for another action: discovery, not the hover's selector
    assert 5 not in merged
    del pom[2]
    assert 2 not in overlay(plan, recipe, pom)
