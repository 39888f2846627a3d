"""``pacts import``: a Chrome DevTools Recorder export (the ``@puppeteer/replay`` JSON
format) and a Playwright codegen Python script, both written by hand from those tools'
documented formats, replayed once on the demo app and named by our discovery; the
recordings' selectors are never written."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.recording.importers import codegen_steps, devtools_steps
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.service import import_recording, write_checked

from ..engine.helpers import Site

# the recorder adds an init script and a binding to the page: a new context per test
FRESH_CONTEXT = True

DATA = Path(__file__).parent / "data"


def _copy(name: str, to: Path, url: str) -> Path:
    """The recording with the demo's own address (the tools record absolute URLs)."""
    text = (DATA / name).read_text(encoding="utf-8").replace("http://127.0.0.1:8000", url)
    out = to / name.removesuffix(".txt")
    out.write_text(text, encoding="utf-8")
    return out


def test_a_devtools_recorder_export_imports_as_named_rows(
    tab: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    recording = import_recording(
        tab, _copy("devtools-checkout.json", tmp_path, demo_v1.url), Recorder(overlay=False)
    )
    assert recording.title == "Buy the backpack"
    assert recording.url == demo_v1.url + "/"
    assert [s.text for s in recording.steps] == [
        "Username | fill | standard_user",  # the click that focused it is folded in
        "Password | fill | {{env.PASSWORD}}",
        "Password | press | Enter | navigates_to:Products",
        "Sort products | select | Price (low to high)",
        "Add to cart@Sauce Labs Backpack | click | | text_visible:Remove",
        "Shopping cart | click | | navigates_to:Your Cart",
    ]
    assert recording.unverified == []
    assert recording.unmapped == [
        "step 10 (waitForElement): a wait for a selector has no equivalent: expect a text "
        "instead (text_visible:)",
        "step 12 (doubleClick): a double click has no action in a sheet",
    ]
    out = write_checked(recording, tmp_path / "bought.req.json", source="pacts import").path
    text = out.read_text(encoding="utf-8")
    assert "data-test" not in text and "xpath" not in text and "secret_sauce" not in text
    assert '"note": "set the environment variable PASSWORD before running"' in text


def test_a_codegen_script_imports_as_named_rows(
    tab: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    recording = import_recording(
        tab, _copy("codegen_checkout.py.txt", tmp_path, demo_v1.url), Recorder(overlay=False)
    )
    assert [s.text for s in recording.steps] == [
        "Username | fill | standard_user",
        "Password | fill | {{env.PASSWORD}}",
        "Login | click | | navigates_to:Products",
        "Add to cart@Sauce Labs Backpack | click | | text_visible:Remove",
        "Shopping cart | click | | navigates_to:Your Cart",
        "Checkout | click | | navigates_to:Checkout: Your Information",
        "First Name | fill | Ada",
        "Last Name | fill | Lovelace",
        "Zip/Postal Code | fill | 10115",
        "Zip/Postal Code | press | Enter | navigates_to:Checkout: Overview",
        "Finish | click | | navigates_to:Checkout: Complete!",
        "| wait | | text_visible:Thank you for your order!",
    ]
    assert [u.split(":")[0] for u in recording.unmapped] == ["line 23", "line 24"]
    assert "mouse position" in recording.unmapped[0]
    assert "popup" in recording.unmapped[1]


def test_codegen_calls_read_without_running_the_script() -> None:
    """The script is parsed, never executed: anything but literal arguments to the calls
    codegen writes is listed as not imported, with why."""
    steps, unmapped = codegen_steps(
        "import os\n"
        "def test_x(page):\n"
        "    os.system('echo no')\n"
        "    page.goto('http://127.0.0.1:1/')\n"
        "    page.get_by_role('row', name=re.compile('Apples', re.IGNORECASE))"
        ".get_by_role('button').first.click()\n"
        "    page.get_by_label(os.environ['X']).fill('a')\n"
        "    page.locator('#a').dblclick()\n"
        "    page.locator('#b').click(modifiers=['Shift'])\n"
        "    other.get_by_text('x').click()\n"
        "    page.keyboard.press('Escape')\n",
        "t.py",
    )
    assert [(s.action, s.value) for s in steps] == [
        ("goto", "http://127.0.0.1:1/"),
        ("click", None),
        ("press", "Escape"),
    ]
    assert [u.split(":", 1)[1].split("(")[0].strip() for u in unmapped] == [
        "system has no action in a sheet",
        "the argument \"os.environ['X']\" is not a literal",
        "dblclick has no action in a sheet",
        "a click with modifiers or another button has no action in a sheet",
        "'other' is not the recorded page",
    ]


def test_devtools_steps_of_unknown_types_or_frames_are_listed() -> None:
    steps, unmapped, title = devtools_steps(
        '{"title": "t", "steps": [{"type": "navigate", "url": "http://127.0.0.1:1/"},'
        '{"type": "click", "frame": [0], "selectors": [["#a"]]},'
        '{"type": "click", "frame": "top", "selectors": [["#a"]]},'
        '{"type": "click", "selectors": [["aria/Save[role=\\"button\\"]"], ["#save"]]},'
        '{"type": "waitForExpression", "expression": "1"}, {"type": "zoom"}]}',
        "r.json",
    )
    assert title == "t"
    assert [s.action for s in steps] == ["goto", "click", "click"]
    assert unmapped == [
        "step 3 (click): its frame 'top' is not a list of iframe indexes",
        "step 5 (waitForExpression): a JavaScript expression is not a requirement",
        "step 6 (zoom): the step type 'zoom' is not known",
    ]


def test_devtools_steps_inside_an_iframe_import_as_named_rows(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    """A DevTools Recorder step inside an iframe (its ``frame``: child iframe indexes from
    the top frame down, the @puppeteer/replay format) is found in that frame and named as
    discovery addresses frames: with the region around the iframe when the name alone
    is not unique (docs/discovery.md: a region holds everything inside its iframes)."""
    site.add(
        "import-card.html",
        """<label>Name on card <input id="holder"></label>
        <button onclick="document.getElementById('paid').textContent = 'Paid'">Pay</button>
        <p id="paid"></p>""",
    )
    url = site.add(
        "import-frames.html",
        """<section><h2>Gift card</h2><button>Pay</button></section>
        <section><h2>Card</h2><iframe src="import-card.html" width="400" height="200"></iframe>
        </section>""",
    )
    source = tmp_path / "card.json"
    source.write_text(
        json.dumps(
            {
                "title": "Pay by card",
                "steps": [
                    {"type": "navigate", "url": url},
                    {"type": "change", "value": "Ada", "selectors": [["#holder"]], "frame": [0]},
                    {"type": "click", "selectors": [['aria/Pay[role="button"]']], "frame": [0]},
                ],
            }
        ),
        encoding="utf-8",
    )
    recording = import_recording(tab, source, Recorder(overlay=False))
    assert [s.text for s in recording.steps] == ["Name on card | fill | Ada", "Pay@Card | click"]
    assert recording.unmapped == []
    assert tab.frames[1].inner_text("#paid") == "Paid"
