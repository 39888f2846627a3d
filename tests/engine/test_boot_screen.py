"""A page whose body draws no text and no control yet is not ready: it is booting.

A single-page app's first document is often a boot screen the app's script replaces: Ghost
5.130.6's body held only a looping, muted ``<video>`` of its logo (REQ-GHOST-006 and 010, at
load 45-49: each failed in 3.3-3.6 s of a 30 s step limit, the recorded locator matching
nothing on the boot screen and the heal round saying "the page did not change"); NocoDB
0.202.10's REQ-NOCODB-001 met an empty mounted root (``<div id="__nuxt"></div>``). Both pages
were still: no request open, no DOM change for two frames, so they were taken as settled. The
rule: a body that draws no text and no control (only media, or nothing) is not settled; the
step waits, within its limit, for the first text or control, and a heal round on such a page
does not conclude that the page did not change.

The first two tests failed before the change (the step failed at once on the boot screen).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models import Plan

from .helpers import Site, css, failure_of, plan, run

# the boot screen, replaced by the app 1.8 s after load by a timer (no request, no change
# before it)
PAGE = """
<div id="root">{boot}</div>
<p id="out" hidden>none</p>
<script>
setTimeout(() => {{
  document.getElementById('root').innerHTML =
    '<h1>Posts</h1><button id="sort" onclick="out()">Newest first</button>';
}}, 1800);
function out() {{ const o = document.getElementById('out'); o.textContent = 'sorted'; o.hidden = false; }}
</script>
"""
VIDEO = '<div class="loading"><video width="100" height="100" loop autoplay muted playsinline></video></div>'


def _steps(url: str) -> Plan:
    return plan(url, ("click", "Newest first", "", "text_visible:sorted"))


def test_a_boot_screen_of_a_looping_video_is_waited_out(tab: Page, site: Site) -> None:
    # Ghost 5.130.6: discovery found nothing on the still boot screen and failed
    url = site.add("boot-video.html", PAGE.format(boot=VIDEO))
    record = run(tab, _steps(url))
    assert record.verdict == "pass", render_failure(record)


def test_a_recorded_locator_on_an_empty_root_is_waited_for_not_healed(
    tab: Page, site: Site
) -> None:
    # NocoDB 0.202.10's empty mounted root, and Ghost's recorded locator matching nothing
    url = site.add("boot-empty.html", PAGE.format(boot=""))
    record = run(tab, _steps(url), pom={0: css("#sort", "Newest first")})
    assert record.verdict == "pass", render_failure(record)
    assert not record.steps[0].heals, record.steps[0].heals


def test_a_drawn_page_without_the_element_still_fails_at_once(tab: Page, site: Site) -> None:
    url = site.add("boot-none.html", "<h1>Posts</h1><button>Oldest first</button>")
    record = run(tab, _steps(url))
    assert failure_of(record) == "not_found", render_failure(record)
    assert record.duration_ms < 2_500, record.duration_ms
