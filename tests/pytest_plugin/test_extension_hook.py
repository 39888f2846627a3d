"""The extension hook as users implement it: the examples of ``docs/healing.md`` in a real
conftest and in a registered plugin, run by pytest in a subprocess.

The step's element drifts so that no built-in rung can heal it (its text changed and a
look-alike stands next to it); only the hook's proposal heals it, and only when the budget
allows a call.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
V1 = "<!doctype html><title>Pay</title><main><h1>Basket</h1><div><button>Pay</button></div></main>"
V2 = (
    "<!doctype html><title>Pay</title><main><h1>Basket</h1><div>"
    '<button class="pay">Zahlen</button><button>Abbrechen</button></div></main>'
)
INI = (
    "[pytest]\npacts_store = store.db\nfilterwarnings =\n"
    "    ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning\n"
)


def _examples() -> list[str]:
    """The python code blocks of the extension-hook section of docs/healing.md."""
    text = (ROOT / "docs" / "healing.md").read_text(encoding="utf-8")
    section = text.split("## The extension hook", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2, "docs/healing.md should show a conftest and a plugin example"
    return blocks


def _requirement(pytester: pytest.Pytester) -> Path:
    page = pytester.path / "page.html"
    page.write_text(V1, encoding="utf-8")
    pytester.makefile(
        ".req.yaml",
        pay=f"req_id: REQ-PAY\nurl: {page.as_uri()}\nsteps:\n  - Pay | click\n",
    )
    pytester.makeini(INI)
    return page


def _heal_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "extension:" in line]


@pytest.fixture(scope="module")
def after_v1(module_pytester: Callable[[], pytest.Pytester]) -> Path:
    """The project after its run on the first page, made once for both examples (a whole
    session with Chromium costs several seconds of CPU; each example ran its own): the store
    holds the button, and the conftest example was loaded (the hook is not called on a
    pass). Each test works on a copy of it; the page stays here (its URL is in the plan)."""
    conftest_example, _ = _examples()
    pytester = module_pytester()
    _requirement(pytester)
    pytester.makeconftest(conftest_example)
    first = pytester.runpytest_subprocess("-q", "-W", "always")
    first.assert_outcomes(passed=1)
    return pytester.path


def _copy(after_v1: Path, pytester: pytest.Pytester) -> None:
    shutil.copytree(after_v1, pytester.path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("runpytest-*", "stdout", "stderr", "page.html",
                                                  "__pycache__", "conftest.py"))  # fmt: skip


@pytest.fixture(scope="module")
def budget_zero(after_v1: Path, module_pytester: Callable[[], pytest.Pytester]) -> pytest.RunResult:
    """The run on the drifted page with the default budget (0), both examples registered
    (the conftest and the plugin): one session for both tests, each of which ran its own
    with its example alone. From here on the page is the drifted one."""
    _, plugin_example = _examples()
    pytester = module_pytester()
    _copy(after_v1, pytester)
    shutil.copyfile(after_v1 / "conftest.py", pytester.path / "conftest.py")
    pytester.makepyfile(my_healer=plugin_example)
    pytester.syspathinsert()
    (after_v1 / "page.html").write_text(V2, encoding="utf-8")  # "Pay" is gone; two buttons
    return pytester.runpytest_subprocess("-q", "-W", "always", "-p", "my_healer")


@pytest.mark.parametrize("example", ["conftest", "plugin"])
def test_documented_hook_example_heals_within_its_budget(
    after_v1: Path, budget_zero: pytest.RunResult, pytester: pytest.Pytester, example: str
) -> None:
    _, plugin_example = _examples()
    # the budget is 0 by default: neither example's hook is called (both were registered)
    budget_zero.assert_outcomes(failed=1)
    assert not _heal_lines(budget_zero)

    _copy(after_v1, pytester)
    if example == "conftest":
        shutil.copyfile(after_v1 / "conftest.py", pytester.path / "conftest.py")
        extra: tuple[str, ...] = ()
    else:
        pytester.makepyfile(my_healer=plugin_example)
        pytester.syspathinsert()
        extra = ("-p", "my_healer")
    on = pytester.runpytest_subprocess("-q", "-W", "always", "--pacts-extension-budget=1", *extra)
    on.assert_outcomes(passed=1)
    heals = _heal_lines(on)
    assert heals and "button.pay" in heals[0], on.stdout.str()
