"""Record the demo's checkout as ``pacts record`` does, for the user guide ("Record a
sheet"): the demo app v1 served on loopback, a headless Chromium driven through the steps
while the recorder runs (the recording service the CLI calls, with the recording page's
overlay), a screenshot of the page mid-way (``docs/images/record-in-progress.png``) and
the file as written (``docs/examples/checkout.req.yaml``).

Run: ``.venv/bin/python scripts/record_demo_checkout.py``
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.service import record, recording_page, write_checked

DOCS = Path(__file__).resolve().parent.parent / "docs"


def checkout(page: Page, recorder: Recorder) -> bool:
    """The steps a person does; a screenshot once five rows are recorded."""
    page.fill("#user-name", "standard_user")
    page.fill("#password", "secret_sauce")
    page.click("#login-button")
    page.wait_for_url("**/inventory.html")
    page.select_option("#sort", "lohi")
    page.click("#add-to-cart-sauce-labs-backpack")
    recorder.idle()
    page.screenshot(path=str(DOCS / "images" / "record-in-progress.png"))
    page.click(".shopping_cart_link")
    page.click("#checkout")
    page.fill("#first-name", "Ada")
    page.fill("#last-name", "Lovelace")
    page.fill("#postal-code", "10115")
    page.press("#postal-code", "Enter")
    page.click("#finish")
    page.click("text=Thank you for your order", modifiers=["Alt"])  # expect this text
    return True  # the recording stops here


def main() -> None:
    with DemoServer("v1") as demo, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_options(None))  # type: ignore[arg-type]
        url = demo.url + "/"
        with recording_page(browser, url, session=None, auth=None) as page:
            page.set_viewport_size({"width": 1100, "height": 760})
            recorder = Recorder(title="Check out the backpack", say=print)
            recording = record(page, url, recorder, lambda p: checkout(p, recorder))
        out = DOCS / "examples" / "checkout.req.yaml"
        out.parent.mkdir(exist_ok=True)
        write_checked(recording, out, source="pacts record")
        browser.close()
        print(f"wrote {out} and docs/images/record-in-progress.png")


if __name__ == "__main__":
    main()
