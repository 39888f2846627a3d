"""The cache of documents read before (planner/readers/cache.py).

A hit gives back what the reader gave (values, every location, cell problems), so plans and
error messages are the same from the cache as from a fresh read; a changed file, a corrupt
entry or a failed read is read afresh; the directory stays bounded; no environment value is
ever written there.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pacts.models import SourceRef
from pytest_pacts.planner import LoaderOptions, RequirementFileError, cache_files, load_file
from pytest_pacts.planner.readers import READERS, Document, ReadFailure, ReadLimits
from pytest_pacts.planner.readers import cache as doc_cache
from pytest_pacts.planner.readers.cache import entry_key, prune, read_cached
from tests.planner.conftest import problems
from tests.planner.test_errors import TEXT_CASES, XLSX_CASES

H: list[object] = [
    "Req ID",
    "URL",
    "Title",
    "Tags",
    "Element@Region",
    "Action",
    "Value",
    "Expected Outcome",
]
SHEETS: dict[str, list[list[object]]] = {
    "Notes": [["free text"]],
    "Reqs": [
        ["A title row"],
        H,
        ["R1", "/", "Log in", "smoke", "Login", "use", "user=alice", None],
        [None, None, None, None, "Menu", "click", None, "text_visible:{{vars.greet}}"],
        ["R2", "/b", None, None, "Logout", "click", 3.0, None],
    ],
    "Blocks": [
        ["Block", "Params", "Element@Region", "Action", "Value", "Expected Outcome"],
        ["Login", "user; password=pw", "Username", "fill", "{{params.user}}", None],
        [None, None, "Password", "fill", "{{params.password}}", None],
    ],
    "Config": [["Key", "Value"], ["base_url", "http://127.0.0.1:9"], ["greet", "Hello"]],
}
YAML = """\
vars: {greet: Hello}
requirements:
  - req_id: R1
    url: /
    tags: [smoke]
    steps:
      - Username@LoginForm | fill | {{ env.PACTS_TEST_USER }}
      - action: click
        element: Login
        value: 2026-01-01
"""
JSON = '{"req_id": "R1", "url": "/", "steps": [{"action": "click", "element": "X"}]}'


class Counting:
    """The real reader of a suffix, counting its calls."""

    def __init__(self, suffix: str) -> None:
        self.reader = READERS[suffix]
        self.calls = 0

    def __call__(self, path: Path, display: str, limits: ReadLimits) -> Document:
        self.calls += 1
        return self.reader(path, display, limits)


def _same(cached: Document, fresh: Document) -> None:
    """Everything a reader's caller sees is the same."""
    assert cached.path == fresh.path
    assert cached.data == fresh.data
    assert cached.cell_problems == fresh.cell_problems
    assert cached.positions.keys() == fresh.positions.keys()
    for key in fresh.positions:
        assert cached.locate(key) == fresh.locate(key), key
    assert cached.locate(("nowhere",)) == fresh.locate(("nowhere",))


@pytest.fixture
def files(
    tmp_path: Path, xlsx: Callable[..., Path], write: Callable[[str, str], Path]
) -> dict[str, Path]:
    return {
        ".xlsx": xlsx(SHEETS),
        ".yaml": write("reqs.req.yaml", YAML),
        ".json": write("reqs.req.json", JSON),
    }


@pytest.mark.parametrize("suffix", [".xlsx", ".yaml", ".json"])
def test_a_hit_gives_back_what_the_reader_gave(
    suffix: str, files: dict[str, Path], tmp_path: Path
) -> None:
    path, cache_dir, limits = files[suffix], tmp_path / "cache", ReadLimits()
    reader = Counting(suffix)
    fresh = reader(path, "shown/as.name", limits)
    first = read_cached(reader, path, "shown/as.name", limits, cache_dir)
    second = read_cached(reader, path, "shown/as.name", limits, cache_dir)
    assert reader.calls == 2  # the fresh read above and the miss; the hit read nothing
    _same(first, fresh)
    _same(second, fresh)
    (entry,) = cache_dir.iterdir()
    # private: it holds what the file says
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    # the display path is given back, not kept: the same file shown under another name
    elsewhere = read_cached(reader, path, "other.name", limits, cache_dir)
    assert reader.calls == 2
    _same(elsewhere, reader.reader(path, "other.name", limits))


def test_the_workbook_s_cell_problems_survive(xlsx: Callable[..., Path], tmp_path: Path) -> None:
    rows = [*SHEETS["Reqs"], [None, None, None, None, "Total", "fill", "=1+1", None]]
    path = xlsx({**SHEETS, "Reqs": rows}, name="formula.xlsx")
    reader = Counting(".xlsx")
    fresh = reader.reader(path, "formula.xlsx", ReadLimits())
    for _ in range(2):
        doc = read_cached(reader, path, "formula.xlsx", ReadLimits(), tmp_path / "c")
        _same(doc, fresh)
        assert [(s.render(), m[:20]) for s, m, _ in doc.cell_problems] == [
            ("formula.xlsx:Reqs:6:G", "cell holds a formula")
        ]
    assert reader.calls == 1


@pytest.mark.parametrize("case", sorted(XLSX_CASES))
def test_an_error_in_a_cached_workbook_is_located_as_in_a_fresh_read(
    case: str, xlsx: Callable[..., Path], tmp_path: Path
) -> None:
    rows, expected = XLSX_CASES[case]
    path = xlsx({"Reqs": rows})
    cache_dir = tmp_path / "cache"
    assert problems(path) == expected
    assert problems(path, cache_dir=cache_dir) == expected  # miss
    assert problems(path, cache_dir=cache_dir) == expected  # hit (unless the read failed)


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_an_error_in_a_cached_text_file_is_located_as_in_a_fresh_read(
    name: str, write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    text, expected = TEXT_CASES[name]
    path = write(name, text)
    cache_dir = tmp_path / "cache"
    assert problems(path, cache_dir=cache_dir) == expected
    assert problems(path, cache_dir=cache_dir) == expected


def test_plans_from_the_cache_are_the_plans_of_a_fresh_read(
    files: dict[str, Path], tmp_path: Path
) -> None:
    for path in files.values():
        options = LoaderOptions(env={"PACTS_TEST_USER": "bob"}, cache_dir=tmp_path / "cache")
        fresh = load_file(path, LoaderOptions(env={"PACTS_TEST_USER": "bob"}))
        assert load_file(path, options) == fresh
        assert load_file(path, options) == fresh


def test_a_changed_file_is_read_again(files: dict[str, Path], tmp_path: Path) -> None:
    path = files[".yaml"]
    reader = Counting(".yaml")
    read_cached(reader, path, "r.yaml", ReadLimits(), tmp_path / "c")
    path.write_text(YAML.replace("req_id: R1", "req_id: R9"), encoding="utf-8")
    doc = read_cached(reader, path, "r.yaml", ReadLimits(), tmp_path / "c")
    assert reader.calls == 2
    assert "R9" in json.dumps(doc.data)
    assert len(list((tmp_path / "c").glob("*.json"))) == 2


def test_the_key_holds_limits_format_and_version(monkeypatch: pytest.MonkeyPatch) -> None:
    key = entry_key(b"x", ".yaml", ReadLimits())
    assert entry_key(b"x", ".yaml", ReadLimits()) == key
    assert entry_key(b"y", ".yaml", ReadLimits()) != key
    assert entry_key(b"x", ".json", ReadLimits()) != key
    assert entry_key(b"x", ".yaml", ReadLimits(max_rows=10)) != key
    monkeypatch.setattr(doc_cache, "FORMAT_VERSION", doc_cache.FORMAT_VERSION + 1)
    assert entry_key(b"x", ".yaml", ReadLimits()) != key
    monkeypatch.undo()
    monkeypatch.setattr(doc_cache, "__version__", "99.0")
    assert entry_key(b"x", ".yaml", ReadLimits()) != key


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b"[1, 2]",
        b'{"format": 1}',
        b'{"format": 1, "data": {}, "positions": [[["a"], ["s", "row", null, null]]], '
        b'"cell_problems": []}',
        b'{"format": 1, "data": {}, "positions": "abcd", "cell_problems": []}',
        b'{"format": 1, "data": {}, "positions": [], "cell_problems": [[[null, 1, null, null]]]}',
        b"\xff\xfe",
        b"[" * 100_000,
    ],
    ids=range(9),
)
def test_a_corrupt_entry_is_ignored_and_written_again(
    content: bytes, files: dict[str, Path], tmp_path: Path
) -> None:
    path = files[".xlsx"]
    limits = ReadLimits()
    (tmp_path / "c").mkdir()
    entry = tmp_path / "c" / f"{entry_key(path.read_bytes(), '.xlsx', limits)}.json"
    entry.write_bytes(content)
    reader = Counting(".xlsx")
    doc = read_cached(reader, path, "reqs.xlsx", limits, tmp_path / "c")
    assert reader.calls == 1
    _same(doc, reader.reader(path, "reqs.xlsx", limits))
    assert json.loads(entry.read_bytes())["format"] == doc_cache.FORMAT_VERSION
    read_cached(reader, path, "reqs.xlsx", limits, tmp_path / "c")
    assert reader.calls == 1


def test_an_entry_over_the_size_limit_is_not_read_nor_written(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = files[".xlsx"]
    reader = Counting(".xlsx")
    read_cached(reader, path, "reqs.xlsx", ReadLimits(), tmp_path / "c")
    monkeypatch.setattr(cache_files, "MAX_ENTRY_BYTES", 100)  # shared by both caches
    read_cached(reader, path, "reqs.xlsx", ReadLimits(), tmp_path / "c")
    assert reader.calls == 2
    (entry,) = (tmp_path / "c").glob("*.json")
    entry.unlink()
    read_cached(reader, path, "reqs.xlsx", ReadLimits(), tmp_path / "c")
    assert list((tmp_path / "c").iterdir()) == []


def test_a_failed_read_is_not_cached(xlsx: Callable[..., Path], tmp_path: Path) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_text("Req ID,URL\nR1,/\n")
    no_header = xlsx({"Reqs": [["just", "notes"]]}, name="notes.xlsx")
    cache_dir = tmp_path / "cache"
    for path in (bad, no_header):
        reader = Counting(".xlsx")
        for _ in range(2):
            with pytest.raises(ReadFailure):
                read_cached(reader, path, path.name, ReadLimits(), cache_dir)
        assert reader.calls == 2
    assert not cache_dir.exists()


def test_a_file_changed_while_it_is_read_is_not_cached(
    files: dict[str, Path], tmp_path: Path
) -> None:
    path = files[".json"]

    def reader(p: Path, display: str, limits: ReadLimits) -> Document:
        doc = READERS[".json"](p, display, limits)
        p.write_text(JSON.replace("R1", "R2"), encoding="utf-8")
        return doc

    read_cached(reader, path, "r.json", ReadLimits(), tmp_path / "c")
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    "doc",
    [
        Document("x.json", {1: "a key that is not text"}),  # type: ignore[dict-item]
        Document("x.json", {"a": (1, 2)}),  # type: ignore[dict-item]
        Document("x.json", {"a": float("nan")}),
        Document("x.json", {"a": [{"b": object()}]}),  # type: ignore[dict-item]
        Document("x.json", {}, {("a",): SourceRef(path="another.file", line=1)}),
        Document("elsewhere.json", {}),
    ],
    ids=["int-key", "tuple", "nan", "object", "other-file", "other-path"],
)
def test_a_document_that_would_not_read_back_as_it_is_is_not_cached(
    doc: Document, tmp_path: Path
) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}")
    got = read_cached(lambda p, d, limits: doc, path, "x.json", ReadLimits(), tmp_path / "c")
    assert got is doc
    assert not (tmp_path / "c").exists()


def test_a_lone_surrogate_is_read_and_not_cached(tmp_path: Path) -> None:
    # JSON may escape half a surrogate pair; the text cannot be written as UTF-8
    path = tmp_path / "x.req.json"
    path.write_text('{"req_id": "R1", "url": "/", "title": "\\ud800", "steps": []}')
    reader = Counting(".json")
    for _ in range(2):
        doc = read_cached(reader, path, "x.req.json", ReadLimits(), tmp_path / "c")
        assert doc.data == {"req_id": "R1", "url": "/", "title": "\ud800", "steps": []}
    assert reader.calls == 2
    assert not (tmp_path / "c").exists()


def test_a_cache_that_cannot_be_written_is_no_error(files: dict[str, Path], tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    reader = Counting(".yaml")
    for _ in range(2):
        doc = read_cached(reader, files[".yaml"], "r.yaml", ReadLimits(), not_a_dir / "cache")
        assert doc.data is not None
    assert reader.calls == 2


def test_the_directory_stays_bounded(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    now = time.time()
    day = 24 * 3600

    def entry(name: str, days_ago: float) -> Path:
        path = cache_dir / name
        path.write_text("{}")
        os.utime(path, (now - days_ago * day, now - days_ago * day))
        return path

    old = entry("old.json", doc_cache.MAX_AGE_DAYS + 1)
    recent = [entry(f"recent{i}.json", i + 1) for i in range(5)]
    stale_tmp = entry(".tmp-dead.json", 2)
    fresh_tmp = entry(".tmp-writing.json", 0)
    other = entry("README", 400)
    monkeypatch.setattr(cache_files, "MAX_ENTRIES", 3)  # shared by both caches
    prune(cache_dir, now=now)
    assert sorted(p.name for p in cache_dir.iterdir()) == sorted(
        [p.name for p in recent[:3]] + [fresh_tmp.name, other.name]
    )
    assert not old.exists() and not stale_tmp.exists()

    # a write prunes; a hit marks its entry as used, so it outlives entries used less lately
    monkeypatch.setattr(cache_files, "MAX_ENTRIES", 2)
    reader = Counting(".yaml")
    read_cached(reader, files[".yaml"], "r.yaml", ReadLimits(), cache_dir)
    (written,) = (p for p in cache_dir.glob("*.json") if p.name[0] != "." and len(p.stem) == 64)
    os.utime(written, (now - 3 * day, now - 3 * day))
    read_cached(reader, files[".yaml"], "r.yaml", ReadLimits(), cache_dir)  # a hit
    assert reader.calls == 1
    assert written.stat().st_mtime > now - day
    read_cached(reader, files[".json"], "r.json", ReadLimits(), cache_dir)  # a write
    kept = {p.name for p in cache_dir.glob("*.json") if not p.name.startswith(".")}
    assert written.name in kept and len(kept) == 2


def test_no_environment_value_reaches_the_cache(
    files: dict[str, Path], tmp_path: Path, xlsx: Callable[..., Path]
) -> None:
    secret = "s3cr3t-value-from-the-environment"
    sheet = xlsx(
        {"Reqs": [H[:2] + H[4:], ["R1", "/", "Password", "fill", "{{ env.PACTS_TEST_USER }}"]]},
        name="env.xlsx",
    )
    options = LoaderOptions(env={"PACTS_TEST_USER": secret}, cache_dir=tmp_path / "cache")
    for path in (files[".yaml"], sheet):
        for _ in range(2):
            assert load_file(path, options).plans  # env values are resolved when a step runs
    written = b"".join(p.read_bytes() for p in (tmp_path / "cache").iterdir())
    assert b"{{ env.PACTS_TEST_USER }}" in written
    assert secret.encode() not in written


ENV = {"PACTS_TEST_USER": "alice"}
SECRET_VARS_YAML = """\
vars: {api_token: "lit-3e9a", greet: Hello, password: "{{ env.PACTS_TEST_USER }}"}
requirements:
  - req_id: R1
    url: /
    vars: {VAR: "VAL"}
    steps:
      - Username@LoginForm | fill | {{ vars.greet }}
"""


@pytest.mark.parametrize(
    ("var", "value", "kept"),
    [
        ("greet", "plain", True),  # not a secret's name
        ("session_key", "{{ env.PACTS_TEST_USER }}", True),  # only a template
        ("session_key", "lit-{{ env.PACTS_TEST_USER }}", False),  # text of its own
        ("session_key", "lit-3e9a", False),
        ("mine", "lit-3e9a", False),  # listed in secret_vars
    ],
)
def test_a_file_that_writes_a_secret_var_s_value_is_kept_only_sealed(
    tmp_path: Path, var: str, value: str, kept: bool
) -> None:
    """A secret var's value written in the file itself must not be copied into the cache
    in the clear (no secret in anything the run writes): such a file's entry is sealed."""
    path = tmp_path / "reqs.yaml"
    path.write_text(SECRET_VARS_YAML.replace('api_token: "lit-3e9a"', "x: y").replace(
        "VAR: \"VAL\"", f"{var}: \"{value}\""
    ))  # fmt: skip
    options = LoaderOptions(env=ENV, secret_vars=frozenset({"mine"}), cache_dir=tmp_path / "cache")
    for _ in range(2):
        assert load_file(path, options).plans
    written = list((tmp_path / "cache").glob("*.json"))
    assert len(written) == (1 if kept else 0)
    assert len(list((tmp_path / "cache").glob("*.sealed"))) == (0 if kept else 1)
    assert all(b"lit-3e9a" not in p.read_bytes() for p in (tmp_path / "cache").iterdir())


def test_a_sealed_entry_is_read_back_and_shows_no_secret(tmp_path: Path) -> None:
    """A file holding a secret is not parsed again at every collection (the samples' login
    workbook imported openpyxl and numpy each time: collect-only cost 1.79x plain pytest's
    CPU, issue 40); its entry reads back only with the file's own bytes. Secrets are
    never written in the clear (docs/user-guide.md, the document cache)."""
    path = tmp_path / "reqs.yaml"
    path.write_text(SECRET_VARS_YAML)
    reader, limits, cache_dir = Counting(".yaml"), ReadLimits(), tmp_path / "cache"
    keep = lambda doc: "lit-3e9a" not in str(doc.data)  # noqa: E731
    first = read_cached(reader, path, "reqs.yaml", limits, cache_dir, keep)
    second = read_cached(reader, path, "reqs.yaml", limits, cache_dir, keep)
    assert reader.calls == 1  # the second came from the sealed entry
    _same(second, first)
    (entry,) = cache_dir.iterdir()
    assert entry.name.endswith(".sealed")
    content = entry.read_bytes()
    assert b"lit-3e9a" not in content and b"api_token" not in content
    # the key is the file's bytes: the entry's name does not give it
    assert doc_cache.seal_key(path.read_bytes(), ".yaml", limits).hex() not in entry.name
    assert b"lit-3e9a" in doc_cache.seal(content, doc_cache.seal_key(path.read_bytes(),
                                                                      ".yaml", limits))  # fmt: skip


def test_an_entry_whose_var_became_secret_is_dropped(tmp_path: Path) -> None:
    """Written before the var was listed in ``pacts_secret_vars``: not served, deleted (and
    written again, sealed)."""
    path = tmp_path / "reqs.yaml"
    path.write_text(SECRET_VARS_YAML.replace("api_token", "plain_name"))
    assert load_file(path, LoaderOptions(env=ENV, cache_dir=tmp_path / "cache")).plans
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1
    listed = LoaderOptions(
        env=ENV, secret_vars=frozenset({"plain_name"}), cache_dir=tmp_path / "cache"
    )
    assert load_file(path, listed).plans[0].requirement.vars["plain_name"] == "lit-3e9a"
    assert list((tmp_path / "cache").glob("*.json")) == []
    (sealed,) = (tmp_path / "cache").glob("*.sealed")
    assert b"lit-3e9a" not in sealed.read_bytes()


def test_the_cache_is_off_unless_a_directory_is_given(files: dict[str, Path]) -> None:
    assert LoaderOptions().cache_dir is None


def test_an_error_from_a_cached_document_is_raised_as_from_a_fresh_one(
    tmp_path: Path, xlsx: Callable[..., Path]
) -> None:
    path = xlsx({"Reqs": [H, ["R1", "/", None, None, "Login", "jump", None, None]]})
    messages = []
    for cache_dir in (None, tmp_path / "c", tmp_path / "c"):
        with pytest.raises(RequirementFileError) as info:
            load_file(path, LoaderOptions(env={}, cache_dir=cache_dir), display="reqs.xlsx")
        messages.append([str(p) for p in info.value.problems])
    assert messages[0][0].startswith("reqs.xlsx:Reqs:2:F: ")
    assert messages[0] == messages[1] == messages[2]


def test_importing_the_readers_and_the_loader_imports_no_parser() -> None:
    # openpyxl (and numpy through it) and PyYAML are imported when a file is read, so a
    # collection that takes every document from the cache imports none of them
    probe = (
        "import sys, pytest_pacts.planner.readers, pytest_pacts.planner.loader; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openpyxl', 'numpy', 'yaml')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


SECRET_PARAM_YAML = """\
blocks:
  SignIn:
    params: [user=standard_user, DEFAULT]
    steps:
      - Username | fill | {{params.user}}
      - Password | fill | {{params.password}}
requirements:
  - req_id: R1
    url: /
    steps:
      - USE
"""


@pytest.mark.parametrize(
    ("default", "use", "kept"),
    [
        ("password", "use | SignIn | password={{ env.PACTS_TEST_USER }}", True),  # a template
        ("password=lit-3e9a", "use | SignIn", False),  # a literal default
        ("password", "use | SignIn | password=lit-3e9a", False),  # a literal passed in
        ("password", "{action: use, element: SignIn, params: {password: lit-3e9a}}", False),
    ],
)
def test_a_file_that_gives_a_secret_block_parameter_a_value_is_kept_only_sealed(
    tmp_path: Path, default: str, use: str, kept: bool
) -> None:
    path = tmp_path / "reqs.yaml"
    path.write_text(SECRET_PARAM_YAML.replace("DEFAULT", default).replace("USE", use))
    options = LoaderOptions(env=ENV, cache_dir=tmp_path / "cache")
    for _ in range(2):
        (plan,) = load_file(path, options).plans
    written = list((tmp_path / "cache").glob("*.json"))
    assert len(written) == (1 if kept else 0)
    assert all(b"lit-3e9a" not in p.read_bytes() for p in (tmp_path / "cache").iterdir())
    # the parameter's value is a secret var of the requirement, typed only when used
    assert plan.steps[1].value == "{{vars.SignIn-password}}"
    assert "SignIn-password" in plan.secret_vars
