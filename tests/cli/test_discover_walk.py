"""``pacts discover`` walks the whole flow (a dry run of the engine) in real Chromium.

Multi-page flows used to stop at the start page ("on a later page" / NOT RESOLVED); the walk
performs the flow's steps and discovers every page on the state the step meets. ``--until``
stops before a step, which is then located and never performed; nothing is written.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest

from pytest_pacts.cli.main import main
from tests.made_once import made_once

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_requirements"

CHECKOUT = """\
req_id: R-CHECKOUT
url: /
steps:
  - Username | fill | standard_user
  - Password | fill | secret_sauce
  - Login | click | | navigates_to:Products
  - Add to cart@Sauce Labs Backpack | click | | text_visible:Remove
  - Shopping cart | click | | navigates_to:Your Cart
  - Checkout | click | | navigates_to:Your Information
  - First Name | fill | Ada
  - Last Name | fill | Lovelace
  - Zip/Postal Code | fill | 10115
  - Continue | click | | navigates_to:Overview
  - Finish | click | | text_visible:Thank you for your order
"""


TYPO = """\
req_id: R-TYPO
url: /
steps:
  - Username | fill | standard_user
  - Password | fill | secret_sauce
  - Login | click | | navigates_to:Products
  - Shoping Cart | click
  - Checkout | click
"""


def pacts(*args: str, cwd: Path, timeout: float = 170) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# Two walks on the demo app serve the module's demo tests, each walk several requirements
# (one ``pacts discover`` with its demo server and Chromium costs a few seconds of CPU;
# docs/testing.md): each requirement has a context of its own, so they meet the same pages
# as when walked alone, and each test reads its own requirement's report. A walk is made once
# per test session even when the module's tests end on two xdist workers (tests/made_once.py).


@dataclass(frozen=True)
class Walk:
    folder: Path
    result: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def json_walk(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    """The checkout (every step resolves) and the typo (step 4 does not) in one project."""

    def walk(folder: Path) -> Walk:
        (folder / "checkout.req.yaml").write_text(CHECKOUT)
        (folder / "typo.req.yaml").write_text(TYPO)
        result = pacts(
            "discover", "checkout.req.yaml", "typo.req.yaml", "--demo", "v1", "--json",
            cwd=folder, timeout=300,
        )  # fmt: skip
        return Walk(folder, result)

    return made_once(tmp_path_factory, "json-walk", walk)


def _report(walk: Walk, req_id: str) -> dict[str, Any]:
    reports = json.loads(walk.result.stdout)
    assert [r["req_id"] for r in reports] == ["R-CHECKOUT", "R-TYPO"], walk.result.stderr
    (report,) = [r for r in reports if r["req_id"] == req_id]
    return cast(dict[str, Any], report)


@dataclass(frozen=True)
class SamplesWalk:
    result: subprocess.CompletedProcess[str]
    auth_before: list[Path]
    auth_after: list[Path]

    def sections(self, file: str) -> list[str]:
        """The text of each requirement of ``file`` the walk printed (its header names it)."""
        return [s for s in self.result.stdout.split("\n\n") if f"  [{file}:" in s]


@pytest.fixture(scope="module")
def samples_walk(tmp_path_factory: pytest.TempPathFactory) -> SamplesWalk:
    """From the samples' folder (its pytest.ini, blocks and auth profiles), the shopping
    file's two multi-page flows and the account file's two signed-in requirements."""

    def walk(_: Path) -> SamplesWalk:
        auth = SAMPLES / ".pacts" / "auth"
        before = sorted(auth.iterdir()) if auth.is_dir() else []
        result = pacts(
            "discover", "shopping.req.yaml", "account.req.yaml", "--demo", "v1",
            cwd=SAMPLES, timeout=300,
        )  # fmt: skip
        after = sorted(auth.iterdir()) if auth.is_dir() else []
        return SamplesWalk(result, before, after)

    return made_once(tmp_path_factory, "samples-walk", walk)


def test_a_multi_page_flow_resolves_every_step(json_walk: Walk) -> None:
    report = _report(json_walk, "R-CHECKOUT")
    # the walk's exit code is the typo's 1 (test below); a walk with no problem exits 0
    # (the samples' walks below)
    assert report["problems"] == [], json_walk.result.stderr
    steps = report["steps"]
    assert len(steps) == 11
    assert [s["status"] for s in steps] == ["resolved"] * 11
    assert all(s["code"].startswith("page.") for s in steps)
    # each page's steps were discovered on that page
    assert "checkout-step-one" in steps[6]["url"] and "checkout-step-two" in steps[10]["url"]
    # a dry run writes nothing: no store was created in the project
    assert not (json_walk.folder / ".pacts").exists()


def test_the_samples_checkout_with_the_projects_blocks(samples_walk: SamplesWalk) -> None:
    """Run from the samples' folder: its pytest.ini's pacts_blocks_files give the SignIn
    block, as for pytest; every step of both multi-page requirements resolves."""
    result = samples_walk.result
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "on a later page" not in out and "NOT RESOLVED" not in out
    shopping = samples_walk.sections("shopping.req.yaml")
    assert len(shopping) == 2, out  # both requirements of the file walked
    walked = "\n\n".join(shopping) + "\n"
    # 8 + 15 steps; the cart's last one and two of the checkout's are waits on an
    # expectation, with no element (one on the order number's JSON response)
    assert walked.count("\n       found and performed\n") == 20
    assert walked.count("\n       performed\n") == 3
    assert "4 requirement(s) walked, 0 problem(s)" in out  # with the account file's two
    assert "fills fields and clicks the links and buttons the steps name" in out


def test_a_step_on_a_later_page_that_does_not_resolve_says_why(json_walk: Walk) -> None:
    assert json_walk.result.returncode == 1
    report = _report(json_walk, "R-TYPO")
    statuses = [s["status"] for s in report["steps"]]
    assert statuses == ["resolved", "resolved", "resolved", "unresolved", "not_reached"]
    typo = report["steps"][3]
    assert "did you mean 'Shopping cart'?" in typo["message"]
    assert report["steps"][4]["message"] == "step 4 did not pass"
    # where to look next: the names the page of step 4 offers
    hint = "pacts elements --after typo.req.yaml::R-TYPO --until 4 --demo v1"
    assert report["elements_hint"] == hint
    listed = pacts(*hint.split()[1:], "--json", "--no-screenshot", cwd=json_walk.folder)
    assert listed.returncode == 0, listed.stderr
    page = json.loads(listed.stdout)
    assert page["url"].endswith("/inventory.html")
    assert "Shopping cart" in [e["text"] for e in page["elements"]]
    assert report["problems"] == [
        f'typo.req.yaml:7:5: R-TYPO: step 4 (click "Shoping Cart"): {typo["message"]}'
    ]


class _Shop(BaseHTTPRequestHandler):
    orders: ClassVar[list[bytes]] = []

    PAGES: ClassVar[dict[str, str]] = {
        "/": "<h1>Basket</h1><label>Name <input id=n name=n></label><a href='/confirm'>Next</a>",
        "/confirm": "<h1>Confirm</h1><form method=post action='/order'>"
        "<button>Place order</button> <button type=button>Cancel</button></form>",
        "/done": "<h1>Thank you</h1>",
    }

    def do_GET(self) -> None:
        body = self.PAGES.get(self.path.split("?")[0])
        self._send(200 if body else 404, body or "not found")

    def do_POST(self) -> None:
        self.orders.append(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        self.send_response(303)
        self.send_header("Location", "/done")
        self.end_headers()

    def _send(self, status: int, body: str) -> None:
        data = f"<!doctype html><html><body>{body}</body></html>".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def shop() -> Iterator[tuple[str, list[bytes]]]:
    _Shop.orders = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Shop)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Shop.orders
    finally:
        server.shutdown()
        server.server_close()


ORDER = """\
req_id: R-ORDER
url: /
steps:
  - Name | fill | Ada
  - Next | click | | navigates_to:Confirm
  - Place order | click | | text_visible:Thank you
"""


def test_until_locates_the_step_and_never_performs_it(
    tmp_path: Path, shop: tuple[str, list[bytes]]
) -> None:
    base, orders = shop
    (tmp_path / "order.req.yaml").write_text(ORDER)
    held = pacts(
        "discover", "order.req.yaml", "--base-url", base, "--until", "3", "--json", cwd=tmp_path
    )
    assert held.returncode == 0, held.stdout + held.stderr
    (report,) = json.loads(held.stdout)
    assert [s["status"] for s in report["steps"]] == ["resolved", "resolved", "located"]
    assert report["stopped_before"] == 2
    assert (
        report["steps"][2]["code"] == 'page.get_by_role("button", name="Place order", exact=True)'
    )
    assert orders == []  # located on the confirm page, never clicked
    walked = pacts("discover", "order.req.yaml", "--base-url", base, "--json", cwd=tmp_path)
    assert walked.returncode == 0, walked.stdout + walked.stderr
    assert [s["status"] for s in json.loads(walked.stdout)[0]["steps"]] == ["resolved"] * 3
    assert len(orders) == 1  # without --until the walk does what the flow says


def test_until_zero_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answered before any browser starts: in this process (the console script is the
    other tests'), where a subprocess cost a fresh interpreter."""
    (tmp_path / "order.req.yaml").write_text(ORDER)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["discover", "order.req.yaml", "--until", "0"]) == 2
    assert "--until counts steps from 1" in capsys.readouterr().err


def test_the_base_url_comes_from_the_ini_file(
    tmp_path: Path, shop: tuple[str, list[bytes]]
) -> None:
    base, orders = shop
    (tmp_path / "pytest.ini").write_text(f"[pytest]\nbase_url = {base}\n")
    (tmp_path / "order.req.yaml").write_text(ORDER)
    result = pacts("discover", "order.req.yaml", "--until", "1", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    (report,) = json.loads(result.stdout)
    assert report["url"] == base + "/"
    # nothing performed: the start page's steps located, the confirm page's not reached
    assert [s["status"] for s in report["steps"]] == ["located", "located", "not_reached"]
    assert report["steps"][0]["code"] == 'page.get_by_label("Name", exact=True)'
    assert report["steps"][2]["message"] == (
        "the walk stopped before step 1 (--until) and this step acts on a later page"
    )
    assert orders == []


def test_requirements_behind_a_login_are_walked_signed_in(samples_walk: SamplesWalk) -> None:
    """``auth: shopper`` (the samples' pacts-auth.yaml): the profile logs in once, its
    session kept in a temporary folder; both requirements start on the shop, not on the
    login page the shop redirects to."""
    result = samples_walk.result
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.count("auth profile 'shopper': logging in") == 1
    assert len(samples_walk.sections("account.req.yaml")) == 2, result.stdout
    assert "4 requirement(s) walked, 0 problem(s)" in result.stdout  # with shopping's two
    assert result.stdout.count("/inventory.html  [account.req.yaml") == 2
    assert samples_walk.auth_after == samples_walk.auth_before  # writes nothing
