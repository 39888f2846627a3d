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

# the recorder adds an init script and a binding to the page: a new context per test
FRESH_CONTEXT = True

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
    # the recorder holds the key until it has named the field and its fill (two discoveries):
    # wait for the page it leads to, as after the login, rather than a click's 5 s
    tab.wait_for_url("**/checkout-step-two.html", timeout=20_000)
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


def test_a_suggested_text_is_never_one_that_reads_differently_next_time(
    tab: Page, site: Site
) -> None:
    """What an action shows that differs between two runs of the same steps is never
    suggested as `text_visible:`: a measured time (Datasette's footer "Query took
    3.879ms", MLflow's run durations), a date or time of day (DokuWiki's "Last modified"),
    a text the page marks as a time (HTML's <time>; ARIA's role "timer"), and a text
    that changed between two reads of the page (a counter still ticking). The next new
    text is suggested instead, even when it ranks lower (a plain paragraph after headings
    and live regions)."""
    url = site.add(
        "record-volatile.html",
        """<button onclick="show()">Run</button><div id="out"></div>
        <script>
        function show() {
          out.innerHTML = '<h2>Query took 3.1ms</h2><h3>Updated 2026-11-28 21:04</h3>'
            + '<p role="status"><time datetime="2026-11-28">Saturday morning</time></p>'
            + '<output id="n">Fetched 1 rows</output><p>Saved the query</p>';
          let n = 1;
          setInterval(() => { n += 1; document.getElementById('n').textContent = `Fetched ${n} rows`; }, 40);
        }
        </script>""",
    )
    tab.goto(url)
    recorder = Recorder(overlay=False)
    recorder.start(tab)
    tab.click("text=Run")
    steps = recorder.stop().steps
    assert [s.text for s in steps] == ["Run | click | | text_visible:Saved the query"]


def test_volatile_texts_are_times_dates_and_generated_ids() -> None:
    """The texts that hold a measured time (SI's s and ms), a time of day or a date (ISO
    8601), "N days ago", or a generated id (RFC 9562's UUID, a long hex token) are
    volatile; counts, prices and names are not."""
    from pytest_pacts.recording.outcomes import volatile

    assert all(
        volatile(t)
        for t in [
            "Powered by Datasette · Query took 3.879ms",
            "took 2 s",
            "Duration 1.5 seconds",
            "Last modified: 2026-11-28 21:04",
            "at 9:41",
            "created 3 days ago",
            "on 11/28/2026",
            "run 0f8fad5b-d9cb-469f-a165-70867728950e",
            "commit 3d9919bc0ffee1234",
        ]
    )
    assert not any(
        volatile(t)
        for t in [
            "34 rows",
            "6 rows where price > 5 sorted by name",
            "Price (low to high)",
            "$29.99",
            "Checkout: Your Information",
            "Sauce Labs Backpack",
            '41 rows where status = "cancelled"',
            "Page 2 of 3",
        ]
    )


def test_a_select_that_navigates_on_change_is_the_select_then_the_new_page(
    tab: Page, site: Site
) -> None:
    """A <select> whose change opens another page (a "Jump to" menu; HTML: the change event
    fires once the choice is committed, and a script may navigate then) is recorded as the
    select row with the new page as its outcome, not as a select and then a `goto`."""
    site.add("record-jumped.html", "<h1>Reports</h1>")
    url = site.add(
        "record-jump.html",
        """<label>Jump to <select onchange="location.href = this.value">
          <option value="">Choose</option>
          <option value="record-jumped.html">Reports</option></select></label>""",
    )
    tab.goto(url)
    recorder = Recorder(overlay=False)
    recorder.start(tab)
    tab.select_option("select", label="Reports")
    tab.wait_for_url("**/record-jumped.html")
    steps = recorder.stop().steps
    assert [s.text for s in steps] == ["Jump to | select | Reports | navigates_to:Reports"]


def test_clicks_inside_an_iframe_are_named_as_discovery_finds_them(tab: Page, site: Site) -> None:
    """A click or typing inside a same-origin iframe is recorded (the listener runs in
    every document of the page) and named as discovery addresses frames: by its name
    when that is unique on the page and its frames, else with the region around the iframe
    in the page that holds it (docs/discovery.md: a region holds everything inside its
    iframes); the held click still goes through."""
    site.add(
        "record-card.html",
        """<label>Name on card <input id="holder"></label>
        <button onclick="document.getElementById('paid').textContent = 'Paid'">Pay</button>
        <p id="paid"></p>""",
    )
    url = site.add(
        "record-frames.html",
        """<section><h2>Gift card</h2><button>Pay</button></section>
        <section><h2>Card</h2><iframe src="record-card.html" width="400" height="200"></iframe>
        </section>""",
    )
    tab.goto(url)
    recorder = Recorder(overlay=False)
    recorder.start(tab)
    card = tab.frame_locator("iframe")
    card.locator("#holder").fill("Ada Lovelace")
    card.locator("text=Pay").click()
    card.locator("text=Paid").wait_for()
    steps = recorder.stop().steps
    assert [(s.element, s.action, s.value) for s in steps] == [
        ("Name on card", "fill", "Ada Lovelace"),
        ("Pay@Card", "click", None),
    ]
    assert all(s.verified for s in steps), steps


def test_an_icon_with_no_name_is_named_by_its_kind_in_its_region(tab: Page, site: Site) -> None:
    """A clickable SVG with no title, label or text (Datasette's column-menu cog; the
    accname rules give it no name) is named as discovery words it: its kind, "icon", in
    the region around it (the header cell: `icon@price`), kept because it resolves back to
    exactly the icon used. The click goes through."""
    url = site.add(
        "record-icons.html",
        """<table><thead><tr>
          <th><a href="#sort-name">name</a>
            <svg class="cog" width="14" height="14" style="cursor:pointer"><rect width="14" height="14"/></svg></th>
          <th><a href="#sort-price">price</a>
            <svg class="cog" width="14" height="14" style="cursor:pointer"><rect width="14" height="14"/></svg></th>
        </tr></thead><tbody><tr><td>Bagel</td><td>2</td></tr></tbody></table>
        <script>
        for (const c of document.querySelectorAll('svg.cog'))
          c.addEventListener('click', () => { c.dataset.opened = '1'; });
        </script>""",
    )
    tab.goto(url)
    recorder = Recorder(overlay=False)
    recorder.start(tab)
    tab.click("th:nth-child(2) svg")
    recorder.idle()
    assert tab.eval_on_selector("th:nth-child(2) svg", "el => el.dataset.opened") == "1"
    steps = recorder.stop().steps
    assert [(s.element, s.action, s.note) for s in steps] == [("icon@price", "click", None)]
