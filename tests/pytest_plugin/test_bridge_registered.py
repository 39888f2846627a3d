"""The plugin registers the bridge (``pytest_pacts.register_bridge``) with the session's
Playwright: a real pytest session on a page whose array methods throw, where Playwright's
selector code in the page's own world (``Locator.evaluate_all``) stops at the first
step, passes because the gate and discovery get their elements from Playwright's isolated
world (docs/discovery.md, "The bridge")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hostile_pages import BROKEN_ARRAYS
from tests.loopback import serve

PAGE = (
    "<title>Account</title>"
    + BROKEN_ARRAYS
    + "<form onsubmit=\"document.querySelector('#out').textContent = 'Saved ' + this.user.value;"
    ' return false"><label for="u">Username</label><input id="u" name="user">'
    "<button>Save</button></form><p id='out'></p>"
)


@pytest.fixture
def server() -> Iterator[str]:
    with serve({"/account": PAGE}) as url:
        yield url


def test_a_session_runs_on_a_page_whose_array_methods_throw(
    pytester: pytest.Pytester, server: str
) -> None:
    pytester.makefile(
        ".req.yaml",
        account=(
            f"req_id: REQ-ACCOUNT\nurl: {server}/account\nsteps:\n"
            "  - Username | fill | ada | value:ada\n"
            "  - Save | click | | text_visible:Saved ada\n"
        ),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    result = pytester.runpytest_subprocess("-q", timeout=240)
    result.assert_outcomes(passed=1)
