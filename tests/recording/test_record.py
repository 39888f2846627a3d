"""``pacts record`` driven as a person would drive it: the recorder runs on a real page of
the demo app while the test clicks and types there with Playwright; the written file is
then run under pytest (docs/user-guide.md, "Record a sheet")."""

from __future__ import annotations

from pathlib import Path

import yaml
from playwright.sync_api import Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.planner.loader import LoaderOptions, load_file
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.service import verify, write_checked

from ..engine.helpers import Site

CHECKOUT = [
    "Username | fill | standard_user",
    "Password | fill | {{env.PASSWORD}}",
    "Login | click | | navigates_to:Products",
    "Sort products | select | Price (low to high)",
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


def test_the_checkout_flow_recorded_by_hand_runs_under_pytest(
    tab: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    """The demo's checkout done on the page while recording: every row names its element
    as discovery does and resolved back to it; the password is a variable; the written
    file loads and passes under plain pytest, with no secret in the file or the output."""
    tab.goto(demo_v1.url + "/")
    recorder = Recorder(title="Check out the backpack")
    recorder.start(tab)
    tab.fill("#user-name", "standard_user")
    tab.fill("#password", "secret_sauce")
    tab.click("#login-button")
    tab.wait_for_url("**/inventory.html")
    tab.select_option("#sort", "lohi")
    tab.click("#add-to-cart-sauce-labs-backpack")
    tab.click(".shopping_cart_link")
    tab.click("#checkout")
    tab.fill("#first-name", "Ada")
    tab.fill("#last-name", "Lovelace")
    tab.fill("#postal-code", "10115")
    tab.press("#postal-code", "Enter")
    tab.click("#finish")
    tab.click("text=Thank you for your order", modifiers=["Alt"])  # expect this text
    recording = recorder.stop()

    assert [s.text for s in recording.steps] == CHECKOUT
    assert recording.unverified == []
    assert recording.env == {"PASSWORD": 'typed into "Password"'}
    assert recording.secrets == {"PASSWORD": "secret_sauce"}

    out = write_checked(recording, tmp_path / "checkout.req.yaml", source="pacts record").path
    text = out.read_text()
    assert "secret_sauce" not in text
    assert "PASSWORD: typed into" in text  # the variable to set, said in the file
    steps = yaml.safe_load(text)["requirements"][0]["steps"]
    assert steps == CHECKOUT
    plan = load_file(out, LoaderOptions(env={"PASSWORD": "x"})).plans[0]
    assert len(plan.steps) == len(CHECKOUT)

    said: list[str] = []
    code = verify(out, recording, cwd=tmp_path, echo=said.append)
    assert code == 0, "\n".join(said)
    assert "1 passed" in said[0]
    assert "secret_sauce" not in "\n".join(said)


def test_rows_say_when_a_name_needs_a_region_an_ordinal_or_a_hand(tab: Page, site: Site) -> None:
    """Element first, Element@Region only when the name alone is ambiguous, an ordinal
    when nothing around tells identical elements apart, and a row whose element no text
    names is written marked with why (Playwright's uniqueness rule: one element or none).
    A native confirm() is accepted, as the run accepts it (HTML: confirm blocks the page
    until answered; Playwright dismisses one nothing handles). A glyph is no name (an icon
    font's pencil, as Flask-Admin's edit links show): the title names it. A form sent back
    to its own page (Flask-Admin's "Save and Continue Editing", Datasette's sort links: the
    same path, another query) suggests the new text, not navigates_to:."""
    url = site.add(
        "record-names.html",
        """<h1>Orders</h1>
        <ul><li><span>Apples</span> <button>Delete</button></li>
            <li><span>Pears</span> <button>Delete</button></li></ul>
        <div><button>Remove</button><button>Remove</button></div>
        <button id="save">Save</button>
        <div style="cursor:pointer;width:20px;height:20px;background:#333"
             onclick="this.dataset.clicked = 1"></div>
        <label><input type="checkbox" id="agree"> I agree</label>
        <button onclick="if (confirm('Sure?')) gone.textContent = 'Gone'">Clear all</button>
        <span id="gone"></span>
        <form><button name="saved" value="1">Save changes</button></form>
        <script>if (location.search) document.write('<p>Changes saved</p>')</script>
        <label>Note <input id="note"></label>
        <table><tr><td>Hose</td><td><a href="#e1" title="Edit Record">&#x270F;</a></td></tr>
               <tr><td>Rake</td><td><a href="#e2" title="Edit Record">&#x270F;</a></td></tr>
        </table>""",
    )
    tab.goto(url)
    recorder = Recorder(overlay=False)
    recorder.start(tab)
    tab.click("#save")
    tab.click("li:nth-child(2) button")
    tab.click("div > button:nth-child(2)")
    tab.click("#agree")
    tab.click("div[style*=cursor]")
    tab.click("text=Clear all")  # asks "Sure?": accepted, as a run accepts it
    tab.click("a[href='#e2']")  # a glyph is no name: its title names it
    tab.fill("#note", "hello")  # still focused: recorded when the next click comes
    recorder.idle()
    assert tab.eval_on_selector("#agree", "el => el.checked")  # the held clicks went through
    assert tab.eval_on_selector("div[style*=cursor]", "el => el.dataset.clicked") == "1"
    tab.click("text=Save changes")  # back to the same page with a query: not a new page
    steps = recorder.stop().steps
    assert [(s.element, s.action) for s in steps[:4]] == [
        ("Save", "click"),
        ("Delete@Pears", "click"),
        ("Remove[2]", "click"),
        ("I agree", "check"),
    ]
    assert all(s.verified for s in steps[:4])
    icon = steps[4]
    assert not icon.verified, icon
    assert icon.note and "shows no name" in icon.note
    assert [s.text for s in steps[5:]] == [
        "Clear all | click | | text_visible:Gone",
        "Edit Record@Rake | click",
        "Note | fill | hello",
        "Save changes | click | | text_visible:Changes saved",
    ]
