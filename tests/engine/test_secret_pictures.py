"""Pictures the engine takes during a run never show a secret (issue 36, item 1: "screenshots
of fields (masked or blurred)"): a secret typed into a field that shows its value (anything
but a password input, whose dots the browser draws) is covered, opaque, in every picture of
that page; a page that shows a secret the run read (a secret ``extract``) is not pictured.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from playwright.sync_api import Page

from pytest_pacts.engine.artifacts import SECRET_MASK
from tests.pixels import pixel

from .helpers import FAST, Site, plan, run

KEY_FORM = """
<h1>Settings</h1>
<label>API key <input id="key" type="text" style="width:400px;height:40px;font-size:30px;background:#fff"></label>
<button onclick="">Check</button>
"""


def _rgb(color: str) -> list[int]:
    return [int(color[i : i + 2], 16) for i in (1, 3, 5)]


def test_a_failure_picture_covers_the_field_a_secret_was_typed_into(
    tab: Page, site: Site, tmp_path: Path
) -> None:
    url = site.add("key-form.html", KEY_FORM)
    p = plan(
        url,
        ("fill", "API key", "{{env.PACTS_API_KEY}}", "field_populated"),
        ("click", "Check", "", "text_visible:Key accepted"),
    )
    options = dataclasses.replace(FAST, artifacts_dir=str(tmp_path))
    record = run(tab, p, env={"PACTS_API_KEY": "k3y-canary-0042"}, options=options)
    assert record.verdict == "fail"
    shots = sorted(tmp_path.glob("*step2-failed.png"))
    assert shots, [f.name for f in tmp_path.iterdir()]
    box = tab.locator("#key").bounding_box()
    assert box is not None
    width = tab.viewport_size["width"] if tab.viewport_size else None
    # the field's middle, where its typed text is drawn: the opaque cover, not white
    at = pixel(tab, shots[0], box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, width)
    assert at == _rgb(SECRET_MASK)


def test_the_page_is_covered_for_a_picture_in_any_letter_case(tab: Page) -> None:
    """The page covered before the pytest layer's failure picture (``cover_secrets``) masks
    a secret in any letter case, as the reports and the engine's messages do
    (``planner.templating.SecretMask``): a page that upper-cases a user name still shows it."""
    from pytest_pacts.engine.secretfields import cover_secrets

    tab.set_content(
        "<p>Signed in as K3Y-CANARY-0042 (k3y-canary-0042)</p>"
        "<input id='f' value='key: K3y-Canary-0042'><p>(a+b) stays</p>"
    )
    assert cover_secrets(tab, ["k3y-canary-0042", "(a+b"]) == 3
    assert tab.locator("p").first.inner_text() == "Signed in as *** (***)"
    assert "anary" not in tab.locator("#f").input_value()
    assert tab.locator("p").nth(1).inner_text() == "***) stays"
