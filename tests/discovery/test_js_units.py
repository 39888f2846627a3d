"""The in-page JavaScript: module boundaries (read from the files) and unit tests of its pure
functions (accessible names, text normalisation, match tiers, similarity), run in Chromium.

Each file is one module (``runtime/scripts.py`` ``modules_source``): its first lines read
what it uses from earlier modules (``const { a, b } = modules.dom;``), its last statement
returns what later modules use. Nothing else is shared between files.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_pacts.governance.locators import is_auto_generated
from pytest_pacts.runtime.healing import SHARED_FILES, pure_function
from pytest_pacts.runtime.scripts import API_FILES, PACKAGE, module_function, read_modules
from tests.hostile_pages import SIMILARITY_OF_TWO_BUTTONS

_IMPORT = re.compile(r"^const \{([^}]*)\} = modules\.(\w+);", re.M)
_EXPORT = re.compile(r"\nreturn \{([^}]*)\};\s*$")
_TOP_LEVEL = re.compile(
    r"^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|^(?:const|let|var|class)\s+([A-Za-z_$][\w$]*)",
    re.M,
)


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.sub(r"//[^\n]*", "", text).split(",") if n.strip()]


def _modules() -> list[tuple[str, str]]:
    return [*read_modules(PACKAGE, API_FILES), *read_modules(PACKAGE, ("healing.js",))]


def test_each_file_imports_only_what_earlier_files_export() -> None:
    order = [name for name, _ in _modules()]
    exports: dict[str, set[str]] = {}
    declared: dict[str, str] = {}
    for name, text in _modules():
        top = {a or b for a, b in _TOP_LEVEL.findall(text)}
        for imported_from, names in ((m, _names(n)) for n, m in _IMPORT.findall(text)):
            assert order.index(imported_from) < order.index(name), (name, imported_from)
            missing = set(names) - exports[imported_from]
            assert not missing, (
                f"{name}.js imports {missing} that {imported_from}.js does not export"
            )
        for n in top:
            assert n not in declared or (name == "healing" and declared[n] == "api"), (
                f"{n} is declared by {declared.get(n)}.js and {name}.js"
            )
            declared.setdefault(n, name)
        assert not re.search(r"^(?:let|var) ", text, re.M), f"{name}.js has a mutable global"
        if name in ("api", "healing"):  # the API of its installer
            continue
        found = _EXPORT.search(text)
        assert found is not None, f"{name}.js ends without its exports"
        exported = set(_names(found.group(1)))
        assert exported <= top, exported - top
        exports[name] = exported
    assert API_FILES[:-1] == SHARED_FILES  # healing loads discovery's modules but its API


def _call(page: Page, module: str, name: str, *args: Any) -> Any:
    return page.evaluate(module_function(module, name), list(args))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("fooBarBaz_qux-1", ["foo", "bar", "baz", "qux", "1"]),
        ("HTMLParser", ["html", "parser"]),
        ("  Log\u00a0in  ", ["log", "in"]),
        ("Größe ändern", ["größe", "ändern"]),
        ("", []),
    ],
)
def test_tokens(tab: Page, text: str, words: list[str]) -> None:
    assert _call(tab, "dom", "tokens", text) == words


def test_norm_and_bare(tab: Page) -> None:
    assert _call(tab, "dom", "norm", "  Add \n to\tcart ") == "Add to cart"
    assert _call(tab, "dom", "low", "Add To CART") == "add to cart"
    assert _call(tab, "dom", "bare", " Add  To cart ") == _call(tab, "dom", "bare", "add to cart")


def test_match_tiers(tab: Page) -> None:
    def tier(kind: str, value: str, query: str) -> int:
        fn = "textTier" if kind == "text" else "tokenTier"
        # the call's own arguments: the last "(...args)" (the installer has others)
        head, tail = module_function("scan", fn).rsplit("(...args)", 1)
        call = head + "(args[0], api.__modules['scan'].makeQuery(args[1]))" + tail
        return int(tab.evaluate(call, [value, query]))

    assert tier("text", "Add to cart", "add to cart") == 2
    assert tier("text", "Add to cart now", "add to cart") == 1
    assert tier("text", "Address", "add") == 0  # whole words only
    assert tier("token", "login-button", "Login button") == 2
    assert tier("token", "rename-experiment-button", "Rename") == 1
    assert tier("token", "_filter_op", "Filter operator") == 1  # an abbreviation it stands for
    assert tier("token", "open-menu", "op") == 0


ACCESSIBLE_NAMES = """
<button data-t="text">Save</button>
<button data-t="aria" aria-label="Close dialog">×</button>
<label for="e">Email address</label><input data-t="label-for" id="e">
<label>Remember me <input data-t="label-wrap" type="checkbox"></label>
<input data-t="placeholder" placeholder="Search">
<img data-t="alt" alt="Company logo" src="data:,">
<span id="l1">Billing</span><span id="l2">address</span>
<input data-t="labelledby" aria-labelledby="l1 l2">
<a data-t="title" href="#" title="Help"><svg></svg></a>
"""


def test_accessible_names(tab: Page) -> None:
    tab.set_content(ACCESSIBLE_NAMES)
    names = tab.evaluate(
        module_function("dom", "makeDom").replace(
            "return await api.__modules['dom']['makeDom'](...args);",
            "const dom = api.__modules['dom'].makeDom(document); return [...document"
            ".querySelectorAll('[data-t]')].map((e) => [e.dataset.t, dom.accName(e)]);",
        ),
        [],
    )
    assert dict(names) == {
        "text": "Save",
        "aria": "Close dialog",
        "label-for": "Email address",
        "label-wrap": "Remember me",
        "placeholder": "Search",
        "alt": "Company logo",
        "labelledby": "Billing address",
        "title": "Help",
    }


def _pure(page: Page, name: str, *args: Any) -> Any:
    return page.evaluate(pure_function(name), list(args))


def test_similarity_functions(tab: Page) -> None:
    assert _pure(tab, "textSim", "Log in", "Log in") == 1
    assert _pure(tab, "textSim", "Log in", "Checkout") < 0.2
    assert _pure(tab, "textSim", "Sign in", "Log in") == _pure(tab, "textSim", "Log in", "Sign in")
    assert _pure(tab, "tokenSim", "login-button", "login_button") == 1
    assert 0 < _pure(tab, "tokenSim", "login-button", "login-submit") < 1
    assert _pure(tab, "classSim", ["btn", "btn-primary"], ["btn", "btn-primary"]) == 1
    assert _pure(tab, "classSim", ["btn"], ["card"]) == 0


@pytest.mark.parametrize(
    ("recorded", "now"),
    [
        ("5 hidden tables", "1 hidden table"),
        ("1 item left", "2 items left"),
        ("12 entries", "1 entry"),
        ("Inbox (3)", "Inbox (12)"),
        ("Cart [2]", "cart [0]"),
        ("1,024 results", "7 results"),
    ],
)
def test_a_count_in_the_words_is_data(tab: Page, recorded: str, now: str) -> None:
    """The same words around another count are the same element's words, as close as a
    synonym (above the anchor a relocation needs)."""
    assert _pure(tab, "textSim", recorded, now) == pytest.approx(0.9)


@pytest.mark.parametrize(
    ("recorded", "now"),
    [
        ("Page 2", "Page 3"),  # a number after a word names something
        ("Order 1001", "Order 1002"),
        ("Step 3 of 5", "Step 4 of 5"),
        ("Step 3 (2)", "Step 4 (2)"),
        ("5 hidden tables", "5 hidden views"),  # another word
        ("(3)", "(4)"),  # nothing but a count
        ("3 items", "items"),  # a count on one side only
    ],
)
def test_a_number_that_names_something_is_not_a_count(tab: Page, recorded: str, now: str) -> None:
    """Not raised by the count rule: judged by the words and characters they share (under
    the 0.9 of a count or a synonym)."""
    assert _pure(tab, "textSim", recorded, now) < 0.9


def test_similarity_of_a_fingerprint_to_itself_and_to_another_element(tab: Page) -> None:
    tab.set_content(
        "<form id='f'><button id='login' class='btn primary'>Log in</button>"
        "<button id='reset' class='btn'>Reset</button></form>"
    )
    scores = tab.evaluate(
        pure_function("similarity").replace(
            "return await api.pure['similarity'](...args);", SIMILARITY_OF_TWO_BUTTONS
        ),
        [_weights()],
    )
    same, other = scores
    assert same == pytest.approx(1.0)
    assert other < 0.75  # a sibling button stays under the heal threshold


def _weights() -> dict[str, float]:
    from pytest_pacts.engine.healing.scoring import WEIGHTS

    return dict(WEIGHTS)


def test_answers_sent_as_json_read_back_as_playwright_would_pass_them(tab: Page) -> None:
    """``toJson`` (js/dom.js): every answer of the in-page API crosses as one JSON string.
    Read back with ``decoded`` it equals what Playwright's own serialisation gives for the
    same value, a page's ``toJSON`` methods notwithstanding."""
    from pytest_pacts.runtime.scripts import decoded

    value = """() => ({
        text: 'say "hi"\\\\ \\n\\t\\u0001 \\u2028 é 😀 end',
        lone: 'a\\ud800b',
        numbers: [0, 1, -7, 0.1, 1e21, 5e-324, 2 ** 53],
        flags: [true, false, null],
        nested: { list: [[1, [2, [3]]], {}], empty: [] },
        missing: undefined,
        holes: [undefined, () => 1],
    })"""
    expected = tab.evaluate(value)
    tab.evaluate("() => { Array.prototype.toJSON = function () { return 'patched'; }; }")
    sent = tab.evaluate(
        f"async () => {{ const f = {module_function('dom', 'toJson')}; "
        f"return await f([({value})()]); }}"
    )
    assert isinstance(sent, str)
    assert decoded(sent) == expected
    assert expected["missing"] is None and expected["holes"] == [None, None]
    odd = tab.evaluate(
        f"async () => {{ const f = {module_function('dom', 'toJson')}; "
        "return await f([[NaN, Infinity, -Infinity]]); }"
    )
    answer = decoded(odd)
    assert isinstance(answer, list)
    nan, inf, minus = answer
    assert nan != nan and inf == float("inf") and minus == float("-inf")


def test_an_answer_that_is_not_json_is_a_page_script_error() -> None:
    """A page that replaced what the serializer uses could send something else: it fails
    as any exception thrown in the page does (a Playwright error every handler catches)."""
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.runtime.scripts import PageScriptError, decoded

    assert decoded('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}
    with pytest.raises(
        PageScriptError, match=r"the in-page 'rank' call answered .* not JSON"
    ) as caught:
        decoded("[object Object]", "the in-page 'rank' call")
    assert isinstance(caught.value, PlaywrightError)


@pytest.mark.parametrize(
    ("name", "generated"),
    [
        # framework counters and hashes (Ember, React's useId, styled-components, emotion)
        ("ember9", True),
        (":r1:", True),
        ("sc-bdVaJa", True),
        ("css-1x2y3z", True),
        ("a3f9c2e1", True),
        ("item-1048", True),
        # English words spelt with the letters a-f only are words, not hex hashes: an id
        # like "feedback" or "decade" names what it holds and is a locator worth keeping
        ("feedback", False),
        ("decade-list", False),
        ("defaced", False),
        ("main-nav", False),
    ],
)
def test_a_hex_run_is_generated_only_with_a_digit(tab: Page, name: str, generated: bool) -> None:
    assert _call(tab, "scan", "looksGenerated", name) is generated


GENERATED_OR_NOT = (
    # frameworks' counters and hashes, each from the framework's own scheme
    "ember9 ember-view :r1: «r1» sc-bdVaJa Title-sc-1q0jw6k-0 css-1x2y3z jss12 ui-id-3"
    " mat-input-0 cdk-overlay-2 react-select-3-input headlessui-menu-button-1 yui_3_18_1_1_17"
    " gwt-uid-7 ext-gen1042 makeStyles-root-12 App_main__01fkz a3f9c2e1 item-1048 ng-tns-c12-3"
    " svelte-ucbydv",
    # names a person wrote
    "login-button user-name btn-primary col-md-6 step2 top10 h1 v2beta1 feedback decade-list"
    " defaced main-nav card__title mat-card material-icons cssmenu emberish",
)


def test_the_scan_and_governance_read_one_generated_name_pattern(tab: Page) -> None:
    """The scan rendered ``#mat-input-0`` and ``#ui-id-3`` while governance flagged them as
    generated (two lists that had drifted apart), and governance flagged ``top10`` and
    ``v2beta1``, which the scan kept. One definition now (``pytest_pacts/generated.py``), which the
    page is handed: both halves answer alike on every name, each name as expected."""
    generated, written = (part.split() for part in GENERATED_OR_NOT)
    for name in generated + written:
        expected = name in generated
        assert _call(tab, "scan", "looksGenerated", name) is expected, name
        assert is_auto_generated(name) is expected, name
