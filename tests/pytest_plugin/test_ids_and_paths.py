"""Requirement ids and the files named after them (issue 11 item 5): ids that name nothing
are refused with a located error; distinct ids never share a file name, also on
case-insensitive file systems; the same id in two files never shares an artifact folder;
``--pacts-report-dir=off`` writes no screenshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_pacts.generator.writer import generated_path
from pytest_pacts.models.text import file_stem
from pytest_pacts.planner import RequirementFileError, load_file

INI = (
    "[pytest]\npacts_store = store.db\nfilterwarnings =\n"
    "    ignore:Session-scoped fixtures defined as instance methods:"
    "pytest.PytestRemovedIn10Warning\n"
)


@pytest.mark.parametrize("req_id", ["..", "...", "-", "_"])
def test_an_id_without_letter_or_digit_is_a_located_error(tmp_path: Path, req_id: str) -> None:
    path = tmp_path / "ids.req.yaml"
    path.write_text(f'req_id: "{req_id}"\nurl: /\nsteps:\n  - Save | click\n')
    with pytest.raises(RequirementFileError) as err:
        load_file(path)
    text = str(err.value)
    assert "has no letter or digit" in text and "ids.req.yaml:1" in text, text


def test_distinct_ids_get_distinct_file_names_even_ignoring_case() -> None:
    ids = ["REQ-A-1", "REQ-A.1", "REQ-A_1", "REQ-a-1", "req-a-1", "REQ-A-1-0", "REQ A 1"]
    stems = [file_stem(i) for i in ids]
    assert len({s.lower() for s in stems}) == len(ids), stems
    names = {generated_path(Path("out"), i).name.lower() for i in ids}
    assert len(names) == len(ids)
    # the usual ids keep their readable names
    assert generated_path(Path("out"), "REQ-LOGIN-001").name == "test_req_login_001.py"


def test_same_id_in_two_files_has_its_own_artifacts_and_off_means_off(
    pytester: pytest.Pytester,
) -> None:
    page = pytester.path / "page.html"
    page.write_text("<!doctype html><title>t</title><button>Save</button>")
    failing = f"req_id: REQ-SAME\nurl: {page.as_uri()}\nsteps:\n  - Delete | click\n"
    pytester.makefile(".req.yaml", a=failing, b=failing)
    pytester.makeini(INI)
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    shots = sorted(p.relative_to(pytester.path) for p in pytester.path.rglob(".pacts/**/*.png"))
    folders = {p.parent for p in shots}
    assert len(folders) == 2, shots  # one per file, nothing overwritten

    shutil.rmtree(pytester.path / ".pacts")
    off = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider", "--pacts-report-dir=off")
    off.assert_outcomes(failed=2)
    assert not list(pytester.path.rglob("*.png")), list(pytester.path.rglob("*.png"))


def test_same_id_in_two_files_generates_two_tests_and_regenerating_keeps_their_names(
    pytester: pytest.Pytester,
) -> None:
    page = pytester.path / "page.html"
    page.write_text("<!doctype html><title>t</title><button>Save</button><a href='#'>Help</a>")
    pytester.makefile(
        ".req.yaml",
        a=f"req_id: REQ-SAME\nurl: {page.as_uri()}\nsteps:\n  - Save | click\n",
        b=f"req_id: REQ-SAME\nurl: {page.as_uri()}\nsteps:\n  - Help | click\n",
    )
    pytester.makeini(INI + "pacts_generate = true\n")
    for _ in range(2):  # the second run finds both files in place and keeps them
        result = pytester.runpytest_subprocess(
            "-q", "-p", "no:cacheprovider", "a.req.yaml", "b.req.yaml"
        )
        result.assert_outcomes(passed=2)
        generated = sorted((pytester.path / "generated_tests").glob("test_*.py"))
        assert len(generated) == 2, generated
        bodies = {p.name: p.read_text() for p in generated}
        sources = sorted(
            name for name, body in bodies.items() for line in body.splitlines()
            if line.startswith("SOURCE_FILE = ")
        )  # fmt: skip
        assert len(sources) == 2, bodies
        clicked = sorted("'Save'" in b or '"Save"' in b for b in bodies.values())
        assert clicked == [False, True], bodies  # each file's own steps, none overwritten
    assert "test_req_same.py" in bodies  # the first keeps the plain name
