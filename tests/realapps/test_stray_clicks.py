"""The corpus check covers the clicks the engine makes for itself (issue 35, item 10).

The engine's observer is told each step's element before the step's action; the repair
rung's dismissal of a covering consent banner clicks the banner's button through a handle of
its own, which the observer never sees (``pytest_pacts/engine/healing/repair.py``,
``_reveal``). The corpus watches the page's trusted pointer clicks instead
(``bench/realapps/clicks.py``): here the bundled demo app's widgets page, whose cookie banner
covers "Download report", run through ``run_corpus.run_app`` as a corpus app.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import AppSpec, Served, free_port, spawn, wait_http  # noqa: E402
from realapps.run_corpus import run_app  # noqa: E402

FLOWS = """\
requirements:
  - req_id: REQ-WIDGETS-001
    title: Download the report under the cookie banner
    url: /widgets.html
    steps:
      - "Download report | click | | text_visible:Report downloaded"
"""


@dataclass(frozen=True)
class _DemoApp(AppSpec):
    folder: Path = Path()

    @property
    def flows(self) -> Path:
        return self.folder / "demo.req.yaml"

    @property
    def truth(self) -> Path:
        return self.folder / "demo.yaml"


def _start(version: str, workdir: Path) -> Served:
    port = free_port()
    argv = [sys.executable, "-m", "pytest_pacts.demo_app", "--port", str(port)]
    proc, log = spawn(argv, cwd=workdir)
    served = Served(f"http://127.0.0.1:{port}/", proc, workdir, log)
    try:
        wait_http(served.base_url + "widgets.html", timeout_s=30, proc=proc)
    except BaseException:
        served.stop()
        raise
    return served


def _app(folder: Path, truth: str) -> AppSpec:
    (folder / "demo.req.yaml").write_text(FLOWS)
    (folder / "demo.yaml").write_text(truth)
    return _DemoApp("demo", "demo", ("v1",), lambda v: folder, _start, folder=folder)


def _serve(body: str, route: Route) -> None:
    route.fulfill(body=body, content_type="text/html")


@contextmanager
def _watched(browser: Browser, body: str) -> Iterator[tuple[Any, Page]]:
    """``body`` served at ``http://watch.test/`` in a new context under a new click watch;
    after the block, the page's clicks are given 50 ms to reach the watch, and the context is
    closed."""
    from realapps.clicks import ClickWatch

    watch = ClickWatch()
    context = browser.new_context()
    try:
        watch.install(context)
        page = context.new_page()
        page.route("http://watch.test/**", partial(_serve, body))
        page.goto("http://watch.test/")
        yield watch, page
        page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
    finally:
        context.close()


def test_a_dismissal_the_observer_never_sees_is_a_wrong_element_unless_the_truth_lists_it(
    module_browser: Browser, tmp_path: Path
) -> None:
    truth = 'REQ-WIDGETS-001:\n  1: {"v1": "#download-report"}\n'
    (result,) = run_app(
        _app(tmp_path, truth), module_browser, snapshots=False, out_root=tmp_path, quiet=True
    )
    # the step's own element was right by the observer; the banner's button was clicked too
    assert [c.verdict for c in result.checks] == ["right"], result.checks
    assert result.heal_rungs == ["repair"], result
    assert len(result.stray_clicks) == 1, result.stray_clicks
    assert "accept-cookies" in result.stray_clicks[0]
    assert "not the announced element" in result.stray_clicks[0]
    assert result.wrong == 1 and not result.passed

    listed = truth + '_dismiss:\n  v1: ["#cookie-banner button"]\n'
    (folder := tmp_path / "listed").mkdir()
    (result,) = run_app(
        _app(folder, listed), module_browser, snapshots=False, out_root=folder, quiet=True
    )
    assert len(result.stray_clicks) == 1 and "a listed dismiss button" in result.stray_clicks[0]
    assert result.wrong == 0 and result.passed, result


# A combobox whose option is taken on the press (its list hidden at once), over a chart.
PRESS_TAKES = """<article><span id="dd">
<button id="box" role="combobox" aria-controls="list" style="display:block">Monthly</button>
<ul id="list" role="listbox" style="position:absolute;top:40px;margin:0;background:#fff">
  <li role="option" onmousedown="this.parentNode.hidden = true">Yearly</li></ul></span>
<div id="chart" style="height:200px;margin-top:30px;background:#eef"></div></article>"""


def test_a_click_is_the_steps_when_what_was_pressed_and_released_both_were(
    module_browser: Browser,
) -> None:
    """The browser sends a click to the nearest common ancestor of the element pressed and
    the element released (UI Events, "click"): pressing an option its dropdown takes on the
    press and releasing over the combobox sends the click to their wrapper, which is the
    step's; released over the chart under the list (Fava 1.30.16's REQ-FAVA-012 before the
    engine's fix), it is a stray click."""
    strays = []
    for release_on in ("#box", "#chart"):
        with _watched(module_browser, PRESS_TAKES) as (watch, page):
            watch.announce(page.locator("#box"), 1, "select")
            box = page.locator("li").bounding_box()
            assert box is not None
            page.mouse.move(box["x"] + 5, box["y"] + 5)
            page.mouse.down()
            target = page.locator(release_on).bounding_box()
            assert target is not None
            page.mouse.move(target["x"] + 5, target["y"] + 5)
            page.mouse.up()
        strays.append([c.html[:12] for c in watch.wrong])
    assert strays == [[], ["<article><sp"]]


# Gradio 5's drop-down: an <input role=listbox> whose aria-controls names no element, and the
# list it opens (no id) takes its option on the press; ``other`` adds a second list on show.
UNNAMED = """<div id="wrap"><input id="box" role="listbox" aria-controls="nowhere" value="Monthly">
<ul role="listbox" style="margin:0"><li role="option"
  onmousedown="this.parentNode.hidden = true">Yearly</li></ul></div>%s"""


def test_a_press_in_the_one_list_on_show_is_the_steps_when_the_dropdown_names_none(
    module_browser: Browser,
) -> None:
    """A dropdown that names no list that exists (WAI-ARIA: an IDREF must name an element)
    chooses in the one list of options shown (the engine's rule): a press there, released over
    the dropdown, is the step's (Gradio 5.50.0's REQ-GRADIO-002, counted as a stray click
    before); with a second list on show, which is its list is not evident: a stray click."""
    strays = []
    for other in ("", '<ul role="listbox"><li role="option">Daily</li></ul>'):
        with _watched(module_browser, UNNAMED % other) as (watch, page):
            watch.announce(page.locator("#box"), 1, "select")
            option = page.get_by_text("Yearly").bounding_box()
            box = page.locator("#box").bounding_box()
            assert option is not None and box is not None
            page.mouse.move(option["x"] + 5, option["y"] + 5)
            page.mouse.down()
            page.mouse.move(box["x"] + 5, box["y"] + 5)
            page.mouse.up()
        strays.append([c.html[:13] for c in watch.wrong])
    assert strays == [[], ['<div id="wrap']], strays


# A link its field's blur pushes down (the line above it appears): the button goes down on the
# link and comes up on the line, so the browser clicks their container (OctoPrint's rename
# dialog, docs/real-apps.md, "OctoPrint to dev").
PUSHED = """<div id="footer"><p id="note" hidden style="height:40px;margin:0">Renamed.</p>
<a href="#" id="rename" onclick="return false">Rename</a></div>
<script>document.addEventListener('mousedown', () => { note.hidden = false; }, true);</script>"""


def test_a_click_the_engines_guard_stopped_is_reported_not_counted(
    module_browser: Browser,
) -> None:
    """The watch's listener is added to the window's capture phase at the document's first
    moment, before the engine's click guard adds its own there, so it sees a click the guard
    then stops before the page's listeners (engine/pointer_guard.py; DOM: listeners of one
    target and phase run in the order they were added). That click is reported as stopped,
    not counted as a wrong element; without the guard it is counted."""
    from pytest_pacts.engine.pointer_guard import GUARD

    found = []
    for guarded in (False, True):
        with _watched(module_browser, PUSHED) as (watch, page):
            link = page.locator("#rename")
            watch.announce(link, 1, "click")
            if guarded:
                link.evaluate(f"(el) => ({GUARD})([el])")
            link.click(force=True)
        found.append(([c.html[:15] for c in watch.stray], len(watch.wrong)))
    assert found == [(['<div id="footer'], 1), (['<div id="footer'], 0)]


# A side list patched in place (doccano 1.6.2's sidebar): the announced entry's node is given
# the words of an entry drawn above it; a hover only adds a word to it
PATCHED = """<nav><div id="entry" style="height:48px">Members</div></nav>
<script>entry.addEventListener('mouseenter', () => { entry.textContent += ' (3)'; });</script>"""


def test_a_click_on_the_announced_element_showing_other_words_is_counted(
    module_browser: Browser,
) -> None:
    """UI Events: the click acts on what the element is at the press. A click on the
    announced node that no longer shows the words it showed when announced (given the entry
    above's, "Labels") is a wrong-element action; words a hover added are not."""
    found = []
    for redraw in (False, True):
        with _watched(module_browser, PATCHED) as (watch, page):
            entry = page.locator("#entry")
            watch.announce(entry, 1, "click")
            if redraw:
                entry.evaluate("(el) => { el.textContent = 'Labels'; }")
            entry.click(force=True)
        found.append([c.describe()[-70:] for c in watch.wrong])
    assert found[0] == [], found
    assert len(found[1]) == 1 and 'now "Labels (3)", announced as "members"' in found[1][0], found


def test_the_announced_elements_own_click_the_guard_stopped_is_known(
    module_browser: Browser,
) -> None:
    """The node was given other words before the announcement (the truth check then judges
    "Labels"), and the engine's guard, holding it to the words the gate judged ("Members"),
    stops its click before the page handles it: the watch notes that announcement as not
    acted on, so the truth check's verdict on it is not a wrong-element action."""
    from pytest_pacts.engine.pointer_guard import GUARD

    with _watched(module_browser, PATCHED) as (watch, page):
        entry = page.locator("#entry")
        entry.evaluate("(el) => { el.textContent = 'Labels'; }")
        watch.announce(entry, 1, "click")
        entry.evaluate(f"(el) => ({GUARD})([el], 'Members')")
        entry.click(force=True)
    assert (watch.announced, watch.stopped_own, watch.stray) == (1, {1}, [])
