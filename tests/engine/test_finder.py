"""Find first: one discovery call per page state, results handed to the cache."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult

from .helpers import Site, plan, run

K = TypeVar("K", bound=Hashable)


class Counting(Discoverer):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def discover(
        self,
        page: Page,
        targets: Sequence[tuple[K, Target, Action]],
        *,
        at_turn: int = 0,
        values: Mapping[K, str] | None = None,
    ) -> dict[K, DiscoveryResult]:
        self.calls.append([t.key for _k, t, _a in targets])
        return super().discover(page, targets, at_turn=at_turn, values=values)


def test_a_page_state_is_discovered_in_one_call(tab: Page, site: Site) -> None:
    site.add("two.html", "<h1>Second</h1><button>Back</button>")
    url = site.add(
        "one.html",
        '<label for="u">User</label><input id="u"><label for="p">Pass</label><input id="p">'
        "<a href='/two.html'>Next</a>",
    )
    p = plan(
        url,
        ("fill", "User", "ada"),
        ("fill", "Pass", "pw"),
        ("click", "Next", "", "navigates_to:Second"),
        ("click", "Back"),  # another page: discovered after the navigation
    )
    counting = Counting()
    found: dict[int, DiscoveryResult] = {}
    record = run(tab, p, discoverer=counting, on_discovered=found.__setitem__)
    assert record.verdict == "pass"
    assert counting.calls == [["User", "Pass", "Next"], ["Back"]]
    assert sorted(found) == [0, 1, 2, 3]


def test_a_cached_pom_needs_no_discovery(tab: Page, site: Site) -> None:
    url = site.add("one.html", '<label for="u">User</label><input id="u">')
    p = plan(url, ("fill", "User", "ada"))
    first: dict[int, DiscoveryResult] = {}
    run(tab, p, on_discovered=first.__setitem__)
    counting = Counting()
    record = run(tab, p, discoverer=counting, pom=first)
    assert record.verdict == "pass" and counting.calls == []


def test_an_ambiguous_element_fails_with_its_candidates(tab: Page, site: Site) -> None:
    url = site.add("dup.html", "<button>Delete</button><button>Delete</button>")
    record = run(tab, plan(url, ("click", "Delete")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == "ambiguous" and len(step.failure.candidates) >= 2
    assert "ambiguous" in step.failure.message


def test_a_canvas_surface_is_named(tab: Page, site: Site) -> None:
    url = site.add("chart.html", '<h1>Sales</h1><canvas width="900" height="500"></canvas>')
    record = run(tab, plan(url, ("click", "March bar")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == "canvas_detected"


def test_a_captcha_is_named_and_ends_the_run(tab: Page, site: Site) -> None:
    url = site.add(
        "captcha.html",
        '<iframe title="reCAPTCHA" src="about:blank"></iframe><p>Prove you are human</p>',
    )
    record = run(tab, plan(url, ("click", "Continue", "", "", "skip"), ("click", "Next")))
    assert record.steps[0].failure is not None
    assert record.steps[0].failure.type.value == "captcha_or_2fa"
    assert [s.status for s in record.steps] == ["failed", "not_run"]  # fatal even with skip
    assert record.rca.rca_class.value == "env_fault"
