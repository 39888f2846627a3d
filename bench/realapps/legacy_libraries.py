"""Real libraries that replace JavaScript built-ins and DOM names: a requirement and a heal
on pages that load them.

Prototype.js 1.7.3 and MooTools 1.4.5, as Debian packages them
(``apt-get install libjs-prototype libjs-mootools``; the script says so when they are
missing). Each page loads one library, then a sign-in form; the requirement fills a field,
ticks a box and clicks "Sign in" (expecting the welcome text), and runs again on a second
release of the page whose button lost its id, with the first run's locators cached: the
click heals. Printed per library: the verdicts, the heal's rung, and which realm the
in-page code answered from (``page``, or ``fresh`` once it found a built-in replaced:
``runtime/js/realm.js``). Exit status 1 when a run does not pass.

Run: ``.venv/bin/python bench/realapps/legacy_libraries.py``. Pages are served by the
browser context's router on a made-up origin: no network.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, Route, sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.discovery import register_bridge
from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult, Locator, Strategy
from pytest_pacts.planner import load_file
from pytest_pacts.runtime.scripts import _installer

LIBRARIES = {
    "Prototype.js 1.7.3": Path("/usr/share/javascript/prototype/prototype-1.7.3.js"),
    "MooTools 1.4.5": Path("/usr/share/javascript/mootools/mootools-core.min.js"),
}
ORIGIN = "http://legacy.test"
FORM = """<h1>Shop</h1>
<form onsubmit="document.querySelector('#out').textContent = 'Welcome ' + this.user.value;
  return false">
  <label for="u">Username</label> <input id="u" name="user">
  <label><input type="checkbox" name="keep"> Keep me signed in</label>
  <button {button}>Sign in</button>
</form>
<p id="out"></p>"""
# the requirement as a QA person writes it (planned through the front door, ``load_file``)
REQUIREMENT = """requirements:
  - req_id: LEGACY-1
    title: Sign in on a page that loads {library}
    url: {url}
    steps:
      - "Username | fill | ada | value:ada"
      - "Keep me signed in | check | | checked"
      - "Sign in | click | | text_visible:Welcome ada"
"""


def build_plan(folder: Path, library: str, url: str) -> Plan:
    path = folder / f"{url.rsplit('/', 1)[-1]}.req.yaml"
    path.write_text(REQUIREMENT.format(library=library, url=url), encoding="utf-8")
    return load_file(path).plans[0]


def server(pages: dict[str, str]) -> Callable[[Route], None]:
    def serve(route: Route) -> None:
        body = pages.get(route.request.url.removeprefix(ORIGIN), "<h1>Not found</h1>")
        route.fulfill(body=body, content_type="text/html; charset=utf-8")

    return serve


def realm_of(page: Page) -> str:
    key, _ = _installer()
    return str(page.evaluate(f"() => globalThis[{key!r}] ? globalThis[{key!r}].realm() : '-'"))


def main() -> int:
    missing = [str(path) for path in LIBRARIES.values() if not path.is_file()]
    if missing:
        print("missing: " + ", ".join(missing))
        print("install them with: apt-get install libjs-prototype libjs-mootools")
        return 2
    failed = 0
    folder = Path(tempfile.mkdtemp(prefix="pacts-legacy-"))
    with sync_playwright() as pw:
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        for name, path in LIBRARIES.items():
            library = path.read_text(encoding="utf-8", errors="replace")
            pages = {
                "/v1": f"<script>{library}</script>" + FORM.format(button='id="go"'),
                "/v2": f"<script>{library}</script>" + FORM.format(button='class="primary"'),
            }
            context = browser.new_context()
            context.set_default_timeout(10_000)

            context.route(ORIGIN + "/**", server(pages))
            page = context.new_page()
            found: dict[int, DiscoveryResult] = {}
            first = run_requirement(
                build_plan(folder, name, ORIGIN + "/v1"),
                page,
                Runtime(env={}, on_discovered=found.__setitem__),
            )
            realm = realm_of(page)
            if 2 not in found:  # the first run stopped before the click: nothing to heal
                failed += 1
                print(f"{name}: v1 {first.verdict}; v2 not run\n{render_failure(first)}")
                context.close()
                continue
            # the next release: the button lost its id; the cached locator was that id
            stale = dict(found)
            stale[2] = found[2].model_copy(
                update={
                    "locator": Locator(strategy=Strategy.CSS, confidence=0.9, css="#go"),
                    "alternates": (),
                    "batch_url": None,
                }
            )
            second = run_requirement(
                build_plan(folder, name, ORIGIN + "/v2"),
                page,
                Runtime(env={}, pom=stale, healer=HealingLadder()),
            )
            heals = [h.rung.value for s in second.steps for h in s.heals if h.accepted]
            print(
                f"{name}: v1 {first.verdict}, v2 {second.verdict} (heals: "
                f"{', '.join(heals) or 'none'}); the in-page code answered from the "
                f"{realm} realm"
            )
            for record in (first, second):
                if record.verdict != "pass":
                    failed += 1
                    print(render_failure(record))
            context.close()
        browser.close()
    shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
