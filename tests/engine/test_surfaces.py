"""Special surfaces: a step whose target is on a canvas, in a PDF viewer, in a closed shadow
root or in another origin's iframe fails with that surface's type and says what was found
and what to do, never "selector drift". Real servers: two 127.0.0.1 ports are two origins."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models.locator import BoundingBox, Fingerprint

from .helpers import css, plan, run

# the smallest valid PDF: one empty page
_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)
_PAGES = {
    "chart.html": "<h1>Sales</h1><canvas width='400' height='200'></canvas><button>Export</button>",
    "pdf.html": "<h1>Invoice</h1><embed type='application/pdf' src='/invoice.pdf' "
    "width='500' height='300'>",
    "closed.html": "<h1>Shop</h1><pay-widget></pay-widget><script>"
    "customElements.define('pay-widget', class extends HTMLElement { connectedCallback() {"
    " const r = this.attachShadow({mode: 'closed'});"
    " r.innerHTML = '<button>Pay securely</button>'; } });</script>",
    # a chart, and far below it the place a cookie banner's button used to be
    "long-chart.html": "<h1>Sales</h1><canvas width='400' height='200'></canvas>"
    "<div style='height:1500px'></div><p>Footer</p>",
    # a chart beside a list whose rows say their words, with no field among them
    "chart-rows.html": "<h1>Sales</h1><canvas width='400' height='200'></canvas>"
    "<div role='table'><div role='row'><span role='cell'>Quarterly totals</span>"
    "<span role='cell'>1,204</span></div></div>",
    "plain.html": "<h1>Nothing special</h1><canvas width='20' height='20'></canvas>"
    "<my-tag>light text</my-tag>",
}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _serve(root: Path) -> tuple[ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def origins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    main, other = tmp_path_factory.mktemp("main"), tmp_path_factory.mktemp("other")
    (other / "checkout.html").write_text(
        "<!doctype html><h2>Card</h2><button>Pay with card</button>", encoding="utf-8"
    )
    other_server, other_url = _serve(other)
    (main / "frame.html").write_text(
        f"<!doctype html><h1>Checkout</h1><iframe src='{other_url}/checkout.html' "
        "title='Payment' width='400' height='200'></iframe>",
        encoding="utf-8",
    )
    for name, body in _PAGES.items():
        (main / name).write_text(f"<!doctype html>{body}", encoding="utf-8")
    (main / "invoice.pdf").write_bytes(_PDF)
    main_server, main_url = _serve(main)
    yield main_url, other_url
    main_server.shutdown()
    other_server.shutdown()


def test_each_special_surface_is_named_with_what_to_do(tab: Page, origins: tuple[str, str]) -> None:
    main, other = origins
    cases = {
        "chart.html": ("March bar", "canvas_detected", "canvas (400x200 px)", "image target"),
        "pdf.html": ("Total", "pdf_embed_detected", "invoice.pdf", "network capture"),
        "closed.html": (
            "Pay securely",
            "closed_shadow_root_detected",
            "pay-widget",
            "open shadow root",
        ),
        "frame.html": (
            "Pay with card",
            "cross_origin_iframe_detected",
            f'from {other}), where "Pay with card" is written',
            "goto",
        ),
    }
    for page, (element, kind, found, todo) in cases.items():
        record = run(tab, plan(f"{main}/{page}", ("click", element)))
        step = record.failed_step
        assert step is not None and step.failure is not None, page
        assert step.failure.type.value == kind, (page, step.failure.message)
        assert found in step.failure.message, (page, step.failure.message)
        assert record.rca.rca_class.value == "unsupported_surface", page
        assert todo in record.rca.recommendation, page
        text = render_failure(record)
        assert "selector drift" not in text.lower() and "selector_drift" not in text, page

    # a misspelt name on a page with a chart: the typo, not the chart ("did you mean")
    record = run(tab, plan(f"{main}/chart.html", ("click", "Exports")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert (
        step.failure.type.value == "not_found" and "did you mean 'Export'" in step.failure.message
    )
    assert any("the page also has a canvas" in e for e in step.failure.evidence)

    # a small canvas and a custom element with light content explain nothing: not found
    record = run(tab, plan(f"{main}/plain.html", ("click", "Buy now")))
    assert record.failed_step is not None and record.failed_step.failure is not None
    assert record.failed_step.failure.type.value == "not_found"

    # a recorded locator whose element is now drawn on a canvas: after healing abstains,
    # the canvas is named, not drift
    record = run(
        tab,
        plan(f"{main}/chart.html", ("click", "March bar")),
        pom={0: css("#march", "March bar")},
        healer=HealingLadder(),
    )
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == "canvas_detected", step.failure.message
    assert record.rca.rca_class.value == "unsupported_surface"


@pytest.mark.parametrize(
    ("was_at", "kind"),
    [
        # the button sat where the chart is now: it may be drawn on the canvas
        (BoundingBox(x=60, y=120, width=80, height=24), "canvas_detected"),
        # the button sat at the bottom of the page, far from the chart: the canvas explains
        # nothing, the element is gone (the demo's cookie button on v2 was blamed on its chart)
        (BoundingBox(x=20, y=1500, width=120, height=32), "not_unique"),
    ],
)
def test_a_canvas_is_blamed_only_where_the_element_was(
    tab: Page, origins: tuple[str, str], was_at: BoundingBox, kind: str
) -> None:
    main, _ = origins
    found = css("#accept", "Accept cookies")
    cached = found.model_copy(
        update={
            "fingerprint": Fingerprint(tag="button", text="Accept cookies", bounding_box=was_at)
        }
    )
    record = run(
        tab, plan(f"{main}/long-chart.html", ("click", "Accept cookies")), pom={0: cached},
        healer=HealingLadder(),
    )  # fmt: skip
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == kind, step.failure.message
    if kind == "not_unique":
        assert record.rca.rca_class.value != "unsupported_surface", record.rca
        assert any("away from where the element was" in e for e in step.failure.evidence)


def test_a_canvas_is_not_blamed_for_words_the_page_shows(
    tab: Page, origins: tuple[str, str]
) -> None:
    """A canvas is pixels: what it draws has no elements and no text in the document (HTML's
    canvas element; its fallback content is not drawn). So it explains a step's missing
    element only when the step's words are nowhere in the page's own text (Playwright's
    text matching). Where the page shows them beside the chart, the element they name is
    an element, named otherwise or hidden: the failure stays ``not_found``, the canvas goes
    to the evidence. Before, any chart on the page took the blame (TensorBoard 2.10.1 and
    2.19.0, REQ-TENSORBOARD-004 and -006, docs/real-apps.md: words in a row and in a
    caption beside the chart)."""
    main, _ = origins
    record = run(tab, plan(f"{main}/chart-rows.html", ("fill", "Quarterly totals", "5")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == "not_found", step.failure.message
    assert "canvas" not in step.failure.message
    assert any("but its own text shows" in e for e in step.failure.evidence)
    assert record.rca.rca_class.value != "unsupported_surface"
