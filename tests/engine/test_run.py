"""The run around the steps: healing rounds, on_fail, screenshots, the store."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright._impl.connection import Connection
from playwright.sync_api import Browser, Page

from pytest_pacts.engine import artifacts, pngmark
from pytest_pacts.engine.actions import perform
from pytest_pacts.engine.api import record_run
from pytest_pacts.engine.contracts import EngineOptions, HealContext, RungResult
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.observing import ObserverFailed
from pytest_pacts.engine.pngmark import ALPHA, FILL
from pytest_pacts.models import Action, Step
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import HealAttempt, HealRung, RcaClass
from pytest_pacts.runtime import playwright_private
from pytest_pacts.store import open_store
from tests.pixels import pixel

from .conftest import open_tab
from .helpers import FAST, Site, css, plan, run

PAGE = """<h1>Shop</h1>
<button id="buy-2" onclick="document.getElementById('status').textContent =
  'Bought ' + (window.n = (window.n || 0) + 1)">Buy</button>
<p id="status" role="status"></p>"""


class FakeHealer:
    """A healer that proposes ``answers`` in turn (None: abstain)."""

    def __init__(self, *answers: Locator | None) -> None:
        self.answers = list(answers)
        self.rounds: list[int] = []
        self.confirmed: list[Locator | None] = []
        self.rejected: list[Locator | None] = []

    def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
        self.rounds.append(ctx.round)
        new = self.answers.pop(0) if self.answers else None
        attempt = HealAttempt(
            round=ctx.round,
            rung=HealRung.SIMILARITY,
            accepted=new is not None,
            reason="relocated" if new else "abstained: no candidate above the threshold",
            failure=ctx.failure.type,
            old_locator=ctx.state.locator,
            new_locator=new,
            score=0.9 if new else 0.5,
        )
        if new is None:
            return attempt, None
        return attempt, RungResult(
            rung=HealRung.SIMILARITY, accepted=True, reason="ok", locator=new
        )

    def confirm(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> HealAttempt:
        self.confirmed.append(result.locator)
        return attempt.model_copy(update={"proposal_id": "P-1", "track": "contract"})

    def reject(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> None:
        self.rejected.append(result.locator)


GOOD = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Buy")
WRONG = Locator(strategy=Strategy.CSS, confidence=0.7, css="h1")


@pytest.fixture(scope="module")
def url(site: Site) -> str:
    return site.add("shop.html", PAGE)


def test_a_heal_retries_the_step_and_is_used_for_the_rest_of_the_run(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    healer = FakeHealer(GOOD)
    p = plan(
        url,
        ("click", "Buy", "", "text_visible:Bought 1"),
        ("click", "Buy", "", "text_visible:Bought 2"),
    )
    broken = css("#buy-1")
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path))
    record = run(shared_tab, p, pom={0: broken, 1: broken}, healer=healer, options=options)
    assert record.verdict == "pass" and record.healed and record.heal_count == 1
    assert [s.status for s in record.steps] == ["healed", "passed"]
    assert healer.rounds == [1] and healer.confirmed == [GOOD]
    assert record.steps[1].locator == GOOD  # the healed locator, no second heal
    heal = record.steps[0].heals[0]
    assert heal.proposal_id == "P-1" and heal.track == "contract"  # confirm's answer kept
    # a locator that matches nothing: the ladder only read the page, so one picture after
    # the heal (the element highlighted) shows it; no "before" picture of the same page
    assert heal.screenshot_before is None
    assert heal.screenshot_after and Path(heal.screenshot_after).is_file()
    assert record.rca.rca_class is RcaClass.SELECTOR_DRIFT  # why the heal was needed


class WritesLater(FakeHealer):
    """A healer whose confirmation comes in two parts, as the ladder's (``confirm_later``):
    the heal adopted, then a write that waits (bounded) for the next step's action, so the
    order of events says whether the write held up the step."""

    def __init__(self, *answers: Locator | None) -> None:
        super().__init__(*answers)
        self.events: list[str] = []
        self.next_acts = threading.Event()
        self.on_write: Callable[[], None] | None = None  # told as a write starts

    def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
        self.events.append(f"heal step {ctx.state.step.index}")
        return super().heal(ctx)

    def confirm_later(
        self, ctx: HealContext, attempt: HealAttempt, result: RungResult
    ) -> Callable[[], HealAttempt]:
        index = ctx.state.step.index
        self.events.append(f"adopted {index}")

        def write() -> HealAttempt:
            if self.on_write is not None:
                self.on_write()
            self.next_acts.wait(2.0)
            self.events.append(f"written {index}")
            return attempt.model_copy(update={"proposal_id": f"P-{index}", "track": "contract"})

        return write

    def confirm(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> HealAttempt:
        return self.confirm_later(ctx, attempt, result)()

    def acting(self, step: Step, _locator: object) -> None:
        self.events.append(f"acts {step.index}")
        if step.index > 0:
            self.next_acts.set()


def test_a_heals_writes_are_made_off_the_steps_path_and_still_reported(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    # The healing memory and proposal a confirmed heal writes (the recipe's diff, the
    # store) wait for nothing of the page: they start once the healed step's record is in
    # the store, the next step acts before they are written, and the report still names
    # the proposal. Before, they were written between the healed step's action and its
    # record ("written 0" before "acts 1", after a 2 s wait here).
    healer = WritesLater(GOOD)
    store = open_store(tmp_path / "pacts.db")

    def rows() -> None:
        [running] = store.runs.in_flight()
        written = [s.step_index for s in store.runs.steps(running.id)]
        healer.events.append(f"record 0 {'in' if 0 in written else 'not in'} the store")

    healer.on_write = rows
    p = plan(url, ("click", "Buy", "", "text_visible:Bought"), ("click", "Buy"))
    broken = css("#buy-1")
    record = run(
        shared_tab, p, pom={0: broken, 1: broken}, healer=healer, observer=healer.acting,
        store=store, session_id="s1",
    )  # fmt: skip
    assert [s.status for s in record.steps] == ["healed", "passed"]
    assert "record 0 in the store" in healer.events  # (the next step may act first)
    events = [e for e in healer.events if not e.startswith("record")]
    assert events == ["heal step 0", "acts 0", "adopted 0", "acts 1", "written 0"]
    heal = record.steps[0].heals[0]
    assert heal.proposal_id == "P-0" and heal.track == "contract"


def test_a_heal_round_comes_after_the_writes_of_the_heals_before_it(
    shared_tab: Page, url: str
) -> None:
    # what a heal round reads (healing memory, a proposal it may be an occurrence of) is
    # written first: the write of step 0's heal ends before step 1's heal round starts
    healer = WritesLater(GOOD, GOOD)
    p = plan(url, ("click", "Buy"), ("click", "Buy it"))
    pom = {0: css("#buy-1"), 1: css("#buy-3", element="Buy it")}
    record = run(shared_tab, p, pom=pom, healer=healer, observer=healer.acting)
    assert [s.status for s in record.steps] == ["healed", "healed"]
    events = healer.events
    assert events.index("written 0") < events.index("heal step 1")
    assert [s.heals[0].proposal_id for s in record.steps] == ["P-0", "P-1"]


def test_a_held_clicks_gate_check_overlaps_the_popup_read(
    shared_tab: Page, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click named by words alone asks first whether a combobox is focused or an opener
    expanded (engine/popup.py): with a locator held at once, that read is sent ahead and the
    gate's first check goes out before its answer, one round trip for both."""
    sent: list[tuple[str, float]] = []
    answered: dict[int, float] = {}
    real = Connection.send_message_to_server

    def logged(self: Connection, obj: Any, method: str, params: Any, options: Any) -> Any:
        future = real(self, obj, method, params, options)
        what = f"{method} {(params or {}).get('selector', '')}"
        sent.append((what, time.perf_counter()))
        at = len(sent) - 1
        future.add_done_callback(lambda _f: answered.setdefault(at, time.perf_counter()))
        return future

    monkeypatch.setattr(Connection, "send_message_to_server", logged)
    p = plan(url, ("click", "Buy", "", "text_visible:Bought 1"))
    record = run(shared_tab, p, pom={0: css("#buy-2", "Buy")})
    assert record.verdict == "pass", record.rca
    popup = next(i for i, (what, _t) in enumerate(sent) if "role=combobox" in what)
    check = next(i for i, (what, _t) in enumerate(sent[popup:], popup) if "#buy-2" in what)
    assert sent[check][1] < answered[popup], sent[popup : check + 1]


def test_a_heal_of_a_vanished_locator_takes_one_picture(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    """A locator that matches nothing: the rungs only read the page, so one picture taken
    after the heal with the element highlighted shows it (no second one of the same page)."""
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path), max_heal_rounds=1)
    p = plan(url, ("click", "Buy", "", "text_visible:Bought 1"))
    record = run(
        shared_tab, p, pom={0: css("#gone", "Buy")}, healer=HealingLadder(), options=options
    )
    heals = record.steps[0].heals
    assert len(heals) == 1, record.steps[0]
    assert heals[0].accepted
    shots = sorted(f.name for f in tmp_path.rglob("*.png") if "heal" in f.name)
    assert shots == [Path(str(heals[0].screenshot_after)).name], shots


PAINT = """<h1>Paint</h1>
<button id="paint" style="position: absolute; left: 100px; top: 100px; width: 200px;
  height: 60px; border: 0; background: rgb(0, 128, 0); color: rgb(0, 128, 0)"
  onclick="document.body.style.background = 'rgb(0, 0, 255)'">Paint</button>"""


@pytest.mark.parametrize("scale", [1, 2])
def test_a_heal_picture_shows_the_page_before_the_healed_action(
    engine_browser: Browser, site: Site, tmp_path: Path, scale: int
) -> None:
    """The picture is taken in the background while the heal and the retry run; the healed
    click (which paints the page blue) waits for it, and the element is highlighted where
    it is in the picture, on a page of ``scale`` device pixels to a CSS pixel too."""
    url = site.add("paint.html", PAINT)
    shared_tab = open_tab(engine_browser, site, scale)
    paint = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Paint")
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path))
    p = plan(url, ("click", "Paint", "", ""))
    record = run(shared_tab, p, pom={0: css("#gone", "Paint")}, healer=FakeHealer(paint),
                 options=options)  # fmt: skip
    assert record.verdict == "pass", record.rca
    heal = record.steps[0].heals[0]
    assert heal.screenshot_after and heal.screenshot_before is None
    assert shared_tab.evaluate("getComputedStyle(document.body).backgroundColor") == (
        "rgb(0, 0, 255)"
    )  # the click was made
    picture = Path(heal.screenshot_after)
    shared_tab.set_content("<p>pixels</p>")

    def at(x: int, y: int) -> list[int]:  # in CSS pixels of the 1000 px viewport
        return pixel(shared_tab, picture, x, y, width=1000)

    def near(got: list[int], want: tuple[int, ...]) -> bool:
        return all(abs(a - b) <= 3 for a, b in zip(got, want, strict=True))

    assert near(at(600, 400), (255, 255, 255)), at(600, 400)  # before the click
    blend = tuple(
        round(c * (1 - ALPHA) + f * ALPHA) for c, f in zip((0, 128, 0), FILL, strict=True)
    )
    assert near(at(200, 130), blend), at(200, 130)  # the button, highlighted
    assert near(at(100, 130), FILL), at(100, 130)  # its outline
    assert near(at(90, 130), (255, 255, 255)), at(90, 130)  # nothing beside it
    shared_tab.context.close()


def test_a_heal_picture_highlights_the_box_the_heal_measured(
    shared_tab: Page, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The healed element's box in the picture is the one the heal's gate measured on it
    (document coordinates), placed by the picture's own scroll offset: no page call of
    Playwright's to measure it again before the healed action (Playwright's ``boundingBox``
    resolves the locator in the page's world, a round trip the action waited for). Here on
    a page scrolled 1000 px down, so a box left in document coordinates would miss."""
    url = site.add(
        "paint-low.html",
        '<div style="height: 3000px"></div>'
        + PAINT.replace("top: 100px", "top: 1100px")
        + "<script>scrollTo(0, 1000)</script>",
    )
    asked: list[object] = []
    real = playwright_private.bounding_box

    async def counted(locator: object, timeout_ms: float) -> dict[str, float] | None:
        asked.append(locator)
        box: dict[str, float] | None = await real(locator, timeout_ms)
        return box

    monkeypatch.setattr(playwright_private, "bounding_box", counted)
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path), max_heal_rounds=1)
    p = plan(url, ("click", "Paint", "", ""))
    record = run(shared_tab, p, pom={0: css("#gone", "Paint")}, healer=HealingLadder(),
                 options=options)  # fmt: skip
    assert record.verdict == "pass", record.rca
    heal = record.steps[0].heals[0]
    assert heal.accepted and heal.screenshot_after, heal
    assert asked == []  # the box came with the heal
    picture = Path(heal.screenshot_after)
    shared_tab.set_content("<p>pixels</p>")

    def at(x: int, y: int) -> list[int]:
        return pixel(shared_tab, picture, x, y, width=1000)

    blend = tuple(
        round(c * (1 - ALPHA) + f * ALPHA) for c, f in zip((0, 128, 0), FILL, strict=True)
    )
    assert all(abs(a - b) <= 3 for a, b in zip(at(200, 130), blend, strict=True))
    assert all(abs(a - b) <= 3 for a, b in zip(at(100, 130), FILL, strict=True))
    assert all(abs(a - b) <= 3 for a, b in zip(at(90, 130), (255, 255, 255), strict=True))


def test_the_healed_action_waits_for_the_heal_picture(
    shared_tab: Page, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture still being taken holds the next action back until it is taken (here one
    made 400 ms slow), and a second action does not wait again."""
    url = site.add(
        "paint-clock.html", PAINT.replace('onclick="', 'onclick="window.at = Date.now(); ')
    )
    shared_tab.goto(url)
    taken: list[float] = []
    real = artifacts._viewport_png

    async def slow(session: object) -> artifacts.Capture | None:
        png = await real(session)
        await asyncio.sleep(0.4)
        taken.append(time.time() * 1000)
        return png

    monkeypatch.setattr(artifacts, "_viewport_png", slow)
    shots = artifacts.Shots(shared_tab, str(tmp_path), "REQ-1")
    button = shared_tab.locator("#paint")
    path = shots.keep(shots.early(), "heal1-after", outline=button)
    assert perform(shared_tab, button, Action.CLICK, None, step_index=0, timeout_ms=3000) is None
    assert taken and taken[0] <= shared_tab.evaluate("window.at")
    assert shots.finish() == set() and path and Path(path).is_file()
    assert perform(shared_tab, button, Action.CLICK, None, step_index=0, timeout_ms=3000) is None
    assert len(taken) == 1


def test_a_heal_picture_is_drawn_after_the_healed_step(
    shared_tab: Page, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture is taken before the healed click, and its highlight drawn (a thread that
    holds the interpreter for part of it) only once the healed step is over, not beside
    the retry's gate and action."""
    url = site.add(
        "paint-drawn.html", PAINT.replace('onclick="', 'onclick="window.at = Date.now(); ')
    )
    drawn: list[float] = []
    real = pngmark.highlight

    def timed(png: bytes, box: tuple[float, float, float, float]) -> bytes:
        drawn.append(time.time() * 1000)
        return real(png, box)

    monkeypatch.setattr(pngmark, "highlight", timed)
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path), max_heal_rounds=1)
    p = plan(url, ("click", "Paint", "", ""))
    record = run(shared_tab, p, pom={0: css("#gone", "Paint")}, healer=HealingLadder(),
                 options=options)  # fmt: skip
    heal = record.steps[0].heals[0]
    assert heal.accepted and heal.screenshot_after and Path(heal.screenshot_after).is_file()
    assert len(drawn) == 1 and drawn[0] >= shared_tab.evaluate("window.at"), drawn


def test_a_heal_picture_that_never_came_is_left_out_of_the_record(
    shared_tab: Page, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A background picture the browser never delivered (a crashed or closed page): the
    heal's record names no file, for a round that healed and for one that did not."""

    async def none(session: object) -> artifacts.Capture | None:
        return None

    monkeypatch.setattr(artifacts, "_viewport_png", none)
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path), max_heal_rounds=1)
    p = plan(url, ("click", "Buy", "", "text_visible:Bought"), ("click", "Nothing like it", "", ""))
    pom = {0: css("#gone", "Buy"), 1: css("#gone-too", "Nothing like it")}
    record = run(shared_tab, p, pom=pom, healer=HealingLadder(), options=options)
    healed, failed = record.steps[0].heals[0], record.steps[1].heals[0]
    assert healed.accepted and not failed.accepted, record.steps
    assert healed.screenshot_after is None and failed.screenshot_before is None
    assert not list(tmp_path.rglob("*heal*.png"))
    assert not any("heal" in key for key in record.artifacts)


def test_a_round_that_heals_nothing_keeps_the_page_it_found(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path), max_heal_rounds=1)
    p = plan(url, ("click", "Nothing like it", "", "text_visible:Bought 1"))
    record = run(
        shared_tab, p, pom={0: css("#gone", "Nothing like it")}, healer=HealingLadder(),
        options=options,
    )  # fmt: skip
    heals = record.steps[0].heals
    assert len(heals) == 1 and not heals[0].accepted, record.steps[0]
    shots = sorted(str(f) for f in tmp_path.rglob("*.png") if "heal" in f.name)
    assert shots == [heals[0].screenshot_before], shots


def test_a_repair_retries_the_same_locator(shared_tab: Page, site: Site) -> None:
    url = site.add(
        "covered.html",
        '<div style="position:relative"><button id="b" onclick="this.textContent=\'Done\'">Buy</button>'
        '<div id="cover" style="position:absolute; inset:0; background:white">ad</div></div>',
    )

    class Repairer(FakeHealer):
        def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
            self.rounds.append(ctx.round)
            ctx.page.evaluate("document.getElementById('cover').remove()")
            attempt = HealAttempt(round=ctx.round, rung=HealRung.REPAIR, accepted=True,
                                  reason="dismissed the cover", failure=ctx.failure.type)  # fmt: skip
            return attempt, RungResult(
                rung=HealRung.REPAIR, accepted=True, reason="ok", repaired=True
            )

    healer = Repairer()
    record = run(
        shared_tab,
        plan(url, ("click", "x", "", "text_visible:Done")),
        pom={0: css("#b")},
        healer=healer,
    )
    assert record.verdict == "pass" and record.healed
    assert record.steps[0].heals[0].rung is HealRung.REPAIR
    assert record.steps[0].failure is None and healer.confirmed == [None]
    assert record.rca.rca_class is RcaClass.VISIBILITY_ISSUE  # what was repaired: obscured


def test_an_abstaining_healer_on_an_unchanged_page_gets_one_round_then_fails_with_drift(
    shared_tab: Page, site: Site, tmp_path: Path
) -> None:
    """The rungs only read a page whose locator matches nothing: on a page that did not
    change during the round, a second round would read the same page. The round's own
    picture (screenshots on, as in a pytest run) is no change of the page, although
    Playwright's screenshot touches the text fields' style to hide their caret."""
    healer = FakeHealer()
    options = EngineOptions(
        step_timeout_ms=2_000, settle_timeout_ms=200, max_heal_rounds=3, artifacts_dir=str(tmp_path)
    )
    url = site.add("shop-search.html", PAGE + '<input aria-label="Search">')
    record = run(
        shared_tab,
        plan(url, ("click", "Buy")),
        pom={0: css("#gone")},
        healer=healer,
        options=options,
    )
    assert healer.rounds == [1]
    assert record.verdict == "fail" and record.heal_rounds == 1 and not record.healed
    assert record.rca.rca_class is RcaClass.SELECTOR_DRIFT and record.rca.confidence >= 0.9
    text = render_failure(record)
    assert "heal round 1 (similarity): not applied" in text
    assert "no further heal round: the page did not change during round 1" in text, text


# the page rewrites itself every 20 ms (a ticking clock): each round may see something new
TICKING = (
    PAGE
    + """<p id="clock"></p>
<script>setInterval(() => { document.getElementById('clock').textContent = Date.now(); }, 20);
</script>"""
)


def test_an_abstaining_healer_on_a_changing_page_uses_every_round(
    shared_tab: Page, site: Site
) -> None:
    healer = FakeHealer()
    options = EngineOptions(step_timeout_ms=2_000, settle_timeout_ms=200, max_heal_rounds=2)
    record = run(
        shared_tab,
        plan(site.add("ticking.html", TICKING), ("click", "Buy")),
        pom={0: css("#gone")},
        healer=healer,
        options=options,
    )
    assert healer.rounds == [1, 2]
    assert record.verdict == "fail" and record.heal_rounds == 2 and not record.healed
    assert "heal round 2 (similarity): not applied" in render_failure(record)


def test_a_heal_whose_retry_fails_is_rejected_and_the_next_round_runs(
    shared_tab: Page, url: str
) -> None:
    healer = FakeHealer(WRONG, GOOD)
    record = run(
        shared_tab,
        plan(url, ("click", "Buy", "", "text_visible:Bought")),
        pom={0: css("#gone")},
        healer=healer,
    )
    # h1 is clickable, so the action succeeds and confirms; the expectation then fails
    assert healer.confirmed[0] == WRONG
    assert record.verdict == "fail" and record.rca.rca_class is RcaClass.ASSERTION_MISMATCH


def test_a_raising_healer_does_not_break_the_run(shared_tab: Page, url: str) -> None:
    class Broken(FakeHealer):
        def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
            raise RuntimeError("ladder bug")

    record = run(shared_tab, plan(url, ("click", "Buy")), pom={0: css("#gone")}, healer=Broken())
    assert record.verdict == "fail"
    assert any("the healer raised RuntimeError: ladder bug" in e for e in record.rca.evidence)


def test_on_fail_skip_makes_a_partial_run(shared_tab: Page, url: str) -> None:
    p = plan(
        url,
        ("click", "Buy", "", "text_visible:Sold out", "skip"),
        ("click", "Buy", "", "text_visible:Bought 2"),
    )
    record = run(
        shared_tab, p, options=EngineOptions(step_timeout_ms=500, navigation_timeout_ms=10_000)
    )
    assert record.verdict == "partial"
    assert [s.status for s in record.steps] == ["skipped", "passed"]
    assert record.rca.rca_class is RcaClass.ASSERTION_MISMATCH
    assert "1 step(s) skipped" in record.rca.message


def test_on_fail_abort_stops_the_run(shared_tab: Page, url: str, tmp_path: Path) -> None:
    p = plan(url, ("click", "Buy", "", "text_visible:Sold out"), ("click", "Buy"))
    options = EngineOptions(
        step_timeout_ms=500, navigation_timeout_ms=10_000, artifacts_dir=str(tmp_path)
    )
    record = run(shared_tab, p, options=options)
    assert [s.status for s in record.steps] == ["failed", "not_run"]
    shots = list(record.artifacts.values())
    assert shots and all(Path(s).is_file() and s.endswith(".png") for s in shots)
    assert shots[-1] in render_failure(record)


def test_the_run_is_recorded_in_the_store(shared_tab: Page, url: str, tmp_path: Path) -> None:
    store = open_store(tmp_path / "pacts.db")
    record = run(shared_tab, plan(url, ("click", "Buy")), store=store, session_id="s1")
    assert record.verdict == "pass"
    [stored] = store.runs.query(req_id="REQ-T")
    assert stored.status == "finished" and stored.verdict == "pass"
    [step] = store.runs.steps(stored.id)
    assert step.status == "passed" and step.strategy == "role_name"


def test_each_step_is_in_the_store_as_soon_as_it_finishes(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    # what the live view of pacts serve shows while a run is in flight
    store = open_store(tmp_path / "pacts.db")
    seen: list[tuple[int, list[str]]] = []

    def before_action(step: Step, _locator: object) -> None:
        [running] = store.runs.in_flight()
        seen.append((step.index, [s.status for s in store.runs.steps(running.id)]))

    p = plan(url, ("click", "Buy"), ("click", "Buy"), ("click", "Buy"))
    record = run(shared_tab, p, store=store, session_id="s1", observer=before_action)
    assert record.verdict == "pass"
    assert seen == [(0, []), (1, ["passed"]), (2, ["passed", "passed"])]
    [stored] = store.runs.query(req_id="REQ-T")
    assert [s.step_index for s in store.runs.steps(stored.id)] == [0, 1, 2]  # each once


def test_an_observer_that_raises_says_where_and_nothing_is_done(shared_tab: Page, url: str) -> None:
    # the observer is the caller's code (a benchmark's truth check): its error stops the run
    # before the action, says which step and where it is written, and keeps its own cause
    def broken(_step: Step, _locator: object) -> None:
        raise KeyError("no truth entry")

    with pytest.raises(ObserverFailed) as raised:
        run(shared_tab, plan(url, ("click", "Buy")), observer=broken)
    said = str(raised.value)
    assert "observer raised KeyError: 'no truth entry' at step 1 (click \"Buy\"" in said
    assert "engine_test.xlsx:Steps:2" in said and "nothing was done" in said
    assert isinstance(raised.value.__cause__, KeyError)
    assert shared_tab.evaluate("window.n") is None  # "Buy" was never clicked


def test_a_second_run_in_flight_is_a_session_conflict(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    store = open_store(tmp_path / "pacts.db")
    store.runs.begin("s1", "REQ-T", plan_hash="sha256:test")
    record = run(shared_tab, plan(url, ("click", "Buy")), store=store, session_id="s1")
    assert record.verdict == "fail"
    assert "SESSION_CONFLICT" in record.rca.message
    assert [s.status for s in record.steps] == ["not_run"]
    # the advice fits: another run is in flight; nothing about the app being down
    assert "--pacts-session" in record.rca.recommendation
    assert "app is up" not in record.rca.recommendation.lower()


def test_a_run_recorded_in_parts_is_one_run_and_reports_a_conflict(
    shared_tab: Page, url: str, tmp_path: Path
) -> None:
    # Runtime(record=False) + record_run: what the pacts fixture does with its steps
    store = open_store(tmp_path / "pacts.db")
    p = plan(url, ("click", "Buy"))
    record = run(shared_tab, p, store=store, session_id="s1", record=False)
    assert store.runs.query(req_id="REQ-T") == []
    assert record_run(store, "s1", p, record) == []
    [stored] = store.runs.query(req_id="REQ-T")
    assert stored.verdict == record.verdict and len(store.runs.steps(stored.id)) == 1
    store.runs.begin("s2", "REQ-T", plan_hash="sha256:test")  # still running elsewhere
    [problem] = record_run(store, "s2", p, record)
    assert "SESSION_CONFLICT" in problem


def test_fast_options_are_fast_enough_for_these_tests() -> None:
    assert FAST.step_timeout_ms <= 3_000
