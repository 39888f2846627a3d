"""A rung's candidate checks ask the page about each locator once: ``resolve`` with the
round's memo answers a repeated question from the memo, and the ladder empties the memo
before each rung (a rung may change the page)."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.contracts import HealContext, Resolved, RungResult
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.healing.resolving import resolve
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import HealRung

from .helpers import discovered, failing_context

PAGE = "<h1>Shop</h1><button id='buy'>Buy</button><button id='back'>Back</button>"


def test_a_repeated_question_is_answered_from_the_memo(tab: Page) -> None:
    tab.set_content(PAGE)
    _, state = discovered(tab, "Buy")
    memo: dict[tuple[str, str], Resolved] = {}
    buy = Locator(strategy=Strategy.CSS, confidence=0.7, css="#buy")
    first = resolve(tab, buy, state.fingerprint, memo)
    assert first.count == 1 and len(memo) == 1
    # the page changes, but within one rung the memo's answer stands
    tab.evaluate("document.getElementById('buy').remove()")
    assert resolve(tab, buy, state.fingerprint, memo) is first
    assert resolve(tab, buy, state.fingerprint).count == 0  # without the memo: asked again


def test_the_ladder_empties_the_memo_before_each_rung(tab: Page) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    tab.evaluate("document.getElementById('buy').id = 'buy-now'")  # the drift
    state.locator = Locator(strategy=Strategy.CSS, confidence=0.7, css="#buy")
    ctx = failing_context(tab, plan, state)
    seen: list[int] = []

    class Looks:
        name = HealRung.ALTERNATE

        def attempt(self, ctx: HealContext) -> RungResult | None:
            seen.append(len(ctx.resolved))
            resolve(ctx.page, Locator(strategy=Strategy.CSS, confidence=0.7, css="#back"),
                    ctx.state.fingerprint, ctx.resolved)  # fmt: skip
            return None

    HealingLadder(rungs=[Looks(), Looks()]).heal(ctx)
    assert seen == [0, 0]
