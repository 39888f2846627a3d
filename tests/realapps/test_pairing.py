"""The element-level benchmark's pairs ask every tool the question the flow asks
(``bench/realapps/pairing.py``, ``bench_peers.load_pairs``, ``peers/common.Snapshot``):
the step's ordinal, a truth that names an element and what is inside it, and truth
selectors on addresses a saved page writes as absolute ones. Pure logic, no browser: the
failures they fix are docs/real-apps.md's "Peers on the held-out cases" (pinnwand's `[2]`
steps not recorded, 26 pinnwand and sqlite-web pairs left out on `href`/`action`, 37 Swagger
UI, Node-RED, I hate money and Radicale pairs left out on `X, X *`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import Page

from pytest_pacts.planner.steps import parse_target

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps import bench_peers  # noqa: E402
from realapps.harness import load_apps  # noqa: E402
from realapps.pairing import (  # noqa: E402
    absolute_urls,
    current_truths,
    flow_ordinals,
    give_ordinals,
    selector_parts,
    split_selector_list,
    step_words,
)
from realapps.peers.common import ORIGIN, Snapshot, blind, load, truth_set  # noqa: E402


def test_address_tests_are_resolved_against_the_page_as_a_saved_page_writes_them() -> None:
    """HTML resolves ``href``/``action`` against the document's base URL, and a saved MHTML
    page writes the resolved form (sqlite-web and pinnwand, docs/real-apps.md)."""
    page = "http://127.0.0.1:8080/plant/query/"
    assert absolute_urls('a.nav-link[href="/plant/"]', page) == (
        'a.nav-link[href="http://127.0.0.1:8080/plant/"]'
    )
    assert absolute_urls('form[action="."] button.btn-primary[type=submit]', page) == (
        'form[action="http://127.0.0.1:8080/plant/query/"] button.btn-primary[type=submit]'
    )
    assert absolute_urls("main a[href^='/remove/']", page) == (
        'main a[href^="http://127.0.0.1:8080/remove/"]'
    )
    assert absolute_urls('#tabs a[href="#tab2"]', page) == (
        '#tabs a[href="http://127.0.0.1:8080/plant/query/#tab2"]'
    )
    assert absolute_urls("li a[href=issue1]", "http://127.0.0.1:8080/tracker/issue?x=1") == (
        'li a[href="http://127.0.0.1:8080/tracker/issue1"]'
    )


def test_tests_that_hold_on_an_absolute_address_and_other_attributes_are_kept() -> None:
    page = "http://127.0.0.1:8080/project/"
    for selector in (
        'aside a[href$="/invite"]',  # a suffix holds on the absolute form
        "p.export-links a[href*='.json']",  # so does a substring
        'a[data-href="/plant/"]',  # not an address attribute
        'a[href="http://example.org/doc"]',  # already absolute
        'button:has-text("[href=/x]")',
    ):
        assert absolute_urls(selector, page) == selector


def test_a_selector_list_is_split_at_its_own_commas_only() -> None:
    assert split_selector_list("#navbar, #navbar *") == ["#navbar", "#navbar *"]
    assert split_selector_list('button:has-text("Save, then close"), a[title="a,b"]') == [
        'button:has-text("Save, then close")',
        'a[title="a,b"]',
    ]
    assert split_selector_list("li:is(.a, .b) span") == ["li:is(.a, .b) span"]
    # a chain is not a list of elements
    assert split_selector_list("#frame >> internal:control=enter-frame >> a, b") == [
        "#frame >> internal:control=enter-frame >> a, b"
    ]


def test_the_outermost_part_of_an_element_and_what_is_inside_it_is_tried_first() -> None:
    """``X, X *``: the element and anything inside it (I hate money, Radicale, Jupyter);
    Swagger UI 3.24.3 names an operation's row and its parts one by one."""
    assert selector_parts("#new-bill a.btn *, #new-bill a.btn") == [
        "#new-bill a.btn",
        "#new-bill a.btn *",
    ]
    row = "#operations-books-listBooks"
    swagger = (
        f"{row} .opblock-summary, {row} .opblock-summary-method, {row} .opblock-summary-path, "
        f"{row} .opblock-summary-path *, {row} .opblock-summary-description"
    )
    assert selector_parts(swagger)[0] == f"{row} .opblock-summary"
    assert selector_parts(swagger)[-1] == f"{row} .opblock-summary-path *"
    assert selector_parts("#id_username") == ["#id_username"]
    # in a frame (django CMS's wizard: a label and what is inside it), each part keeps the
    # chain to the frame; a chain ending in another engine's selector is one part
    frame = "iframe >> internal:control=enter-frame >> "
    assert selector_parts(f"{frame}label.choice, label.choice *") == [
        f"{frame}label.choice",
        f"{frame}label.choice *",
    ]
    assert selector_parts(f"{frame}label.choice") == [f"{frame}label.choice"]
    assert selector_parts('#x >> text="a, b"') == ['#x >> text="a, b"']
    # every tool records from the outermost element; acting on any element the truth names
    # counts as acting on it, for every tool (as the corpus run counts it)
    case = {"truth": "#new-bill a.btn", "truth_set": "#new-bill a.btn, #new-bill a.btn *"}
    assert truth_set(case) == "#new-bill a.btn, #new-bill a.btn *"
    assert truth_set({"truth": "#id_username"}) == "#id_username"


def test_the_step_words_carry_the_ordinal_as_the_flow_writes_it() -> None:
    assert step_words("Enter code to paste.", None, 2) == "Enter code to paste.[2]"
    assert step_words("Delete", "Cart", 3) == "Delete[3]@Cart"
    assert step_words("Notes [draft]", None, None) == "Notes \\[draft]"
    for words in ("Filename (optional)[2]", "Delete[3]@Cart", "Notes \\[draft]@Box"):
        target = parse_target(words)
        assert step_words(target.element, target.region, target.ordinal) == target.key == words


def test_a_name_holding_an_at_sign_without_a_region_ends_in_one_as_the_flows_write_it() -> None:
    """Verdaccio's package ``@bakery/order-form`` (its flow: ``@bakery/order-form@``) was
    asked of the library API as ``@bakery/order-form``, which the step syntax reads as a
    region with no element (a StepSyntaxError: the case was not recorded); an e-mail-like
    name (``orders@bakery.invalid``, MailDev) would be read as a region too."""
    for element in ("@bakery/order-form", "orders@bakery.invalid"):
        words = step_words(element, None, None)
        assert words == f"{element}@"
        target = parse_target(words)
        assert (target.element, target.region) == (element, None)
    assert step_words("a@b", "Form", None) == "a@b@Form"


def test_cases_written_without_the_ordinal_get_it_from_their_flow() -> None:
    """pinnwand's REQ-PINNWAND-005 names the second file's fields ``[2]``; the cases of the
    last runs were written without it, so the benchmark asked for the first file's field."""
    (app,) = load_apps(["pinnwand"])
    ordinals = flow_ordinals(app.flows, app.env)
    assert ordinals == {("REQ-PINNWAND-005", 4): 2, ("REQ-PINNWAND-005", 5): 2}
    old = {"req_id": "REQ-PINNWAND-005", "step": 4, "element": "Enter code to paste."}
    plain = {"req_id": "REQ-PINNWAND-005", "step": 1, "element": "Enter code to paste."}
    own = {"req_id": "REQ-PINNWAND-005", "step": 5, "ordinal": None}
    give_ordinals([old, plain, own], ordinals)
    assert (old["ordinal"], plain["ordinal"], own["ordinal"]) == (2, None, None)


def test_a_case_is_judged_by_the_truth_file_as_it_is_now() -> None:
    """TiddlyWiki's REQ-TIDDLYWIKI-007 truth was corrected after the run that saved its
    pages (docs/real-apps.md); a step or version the file does not list keeps the case's."""
    truth = {"REQ-A": {1: {"1.0": "#fixed", "2.0": None}}}
    cases: list[dict[str, object]] = [
        {"req_id": "REQ-A", "step": 1, "version": "1.0", "truth": "#old"},
        {"req_id": "REQ-A", "step": 1, "version": "2.0", "truth": "#old"},
        {"req_id": "REQ-A", "step": 2, "version": "1.0", "truth": "#own"},
    ]
    current_truths(cases, truth)
    assert [c["truth"] for c in cases] == ["#fixed", None, "#own"]


def _case(folder: Path, version: str, port: int, step: int, element: str) -> dict[str, object]:
    page = f"http://127.0.0.1:{port}/"
    snapshot = folder / f"{version}-{step}.mhtml"
    snapshot.write_text(
        "From: <Saved by Blink>\r\n"
        f"Snapshot-Content-Location: {page}\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/html\r\n"
        f"Content-Location: {page}\r\n\r\n"
        f'<a href="{page}plant/">plant</a><a href="http://127.0.0.1:{port}0/">other port</a>'
        "\r\n--B--\r\n",
        encoding="utf-8",
    )
    return {"app": "pinnwand", "version": version, "req_id": "REQ-PINNWAND-005", "step": step,
            "element": element, "region": None, "action": "fill", "truth": "#x",
            "truth_written": "#x", "snapshot": str(snapshot)}  # fmt: skip


def test_both_versions_are_served_at_one_address_and_pairs_carry_the_ordinal(
    tmp_path: Path,
) -> None:
    """Each version ran on its own free port, but an upgraded app keeps its address: both
    snapshots are served at one origin, their links written there (and only their own
    origin's: port 51234 is not port 512340). Pairs of old cases get the flow's ordinal, and
    what a tool may read of the new case holds no truth."""
    for version, port in (("1.1.3", 40769), ("1.5.0", 51234)):
        folder = tmp_path / "pinnwand" / version
        folder.mkdir(parents=True)
        lines = [_case(folder, version, port, n, "Enter code to paste.") for n in (1, 4)]
        (folder / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in lines))
    pairs = bench_peers.load_pairs(tmp_path, None)
    assert [(p["id"], p["new"]["ordinal"]) for p in pairs] == [
        ("pinnwand/1.1.3->1.5.0/REQ-PINNWAND-005/1", None),
        ("pinnwand/1.1.3->1.5.0/REQ-PINNWAND-005/4", 2),
    ]
    old, new = (Snapshot(pairs[1][side]["snapshot"]) for side in ("old", "new"))
    assert old.url == new.url == f"{ORIGIN}/"
    body = new.answer(f"{ORIGIN}/")
    assert body is not None
    assert f'href="{ORIGIN}/plant/"'.encode() in body[1]
    assert b'href="http://127.0.0.1:512340/"' in body[1]
    assert not {k for k in blind(pairs[1]["new"]) if k.startswith("truth")}


def _spa_snapshot(path: Path, port: int, body: str) -> dict[str, object]:
    page = f"http://127.0.0.1:{port}/v1/admin/#/"
    path.write_text(
        "From: <Saved by Blink>\r\n"
        f"Snapshot-Content-Location: {page}\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/html\r\n"
        f"Content-Location: {page}\r\n\r\n{body}\r\n--B--\r\n",
        encoding="utf-8",
    )
    return {"snapshot": str(path)}


def test_the_new_snapshot_replaces_the_old_one_at_an_address_with_a_fragment(
    tab: Page, tmp_path: Path
) -> None:
    """Both versions are served at one address; a single-page app's address ends in a
    fragment (Kinto Admin's ``/v1/admin/#/``), and Playwright's ``goto`` to the same address
    with a fragment is a same-document navigation (the HTML standard's "navigate to a
    fragment"), which loads nothing: every tool then relocated on the old version's page,
    and the truth of a drifted element was not found there (Kinto's 12 "Basic Auth" pairs
    left out, docs/real-apps.md, "New held-out app: reader")."""
    old = _spa_snapshot(tmp_path / "old.mhtml", 40769, '<input type="radio" value="basicauth">')
    new = _spa_snapshot(tmp_path / "new.mhtml", 51234, '<input type="radio" id="root-1">')
    load(tab, old)
    assert tab.locator("input[value=basicauth]").count() == 1
    load(tab, new)
    assert tab.locator("#root-1").count() == 1
    assert tab.locator("input[value=basicauth]").count() == 0
