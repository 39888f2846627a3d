"""The layering of docs/architecture.md, written down as a test so it cannot rot.

- models import nothing from the rest of the package;
- the engine side (planner, discovery, engine, governance, store) never imports pytest or
  the pytest layer;
- the engine and discovery reach the store only through narrow protocols
  (``engine/ports.py``, ``discovery/pom.py``): of the store they import its plain record
  types and errors, never ``Store``, its repositories or backends;
- the in-page runtime (``runtime/``: the bridge to the page, the bounded page calls, the
  JavaScript modules) sits below discovery and the engine: it imports nothing of the package
  but the error root, the settings and the generated-name pattern (``generated.py``, which
  governance reads too); Playwright's private attributes (``_impl_obj``,
  ``_loop``, ``_sync``) are read in ``runtime/playwright_private.py`` only;
- no package imports a private module (``_name``) of another package;
- the store imports nothing of the package but the error root; ``errors.py`` and
  ``generated.py`` import nothing;
- ``settings.py`` imports nothing of the package but the evidence rule;
- no import cycles anywhere in the package (every import counts: module level, inside
  functions, under ``TYPE_CHECKING``);
- the pytest layer (``pytest_plugin/``) is thin: it never composes a run's services itself
  (the store's recipes and proposals, the healing ladder, the generator); it translates pytest
  objects to and from the application layer (``application/``), which does;
- the reports never import pytest (``reports/session.py`` writes them; the pytest layer's
  ``reporting.py`` adapts hooks to it); the xdist role is asked in ``pytest_plugin/workers.py``
  only;
- reports and the CLI never import engine internals beyond their public entry points
  (checked in their own issues).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_pacts"


@functools.cache
def _parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed once per test process: about 640 checks read the
    package's 330 modules (read only; no check changes a tree)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _module_names(root: Path) -> frozenset[str]:
    return frozenset(_module_name(p, root) for p in root.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = _parsed(path)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(sub: str) -> list[Path]:
    return (
        sorted((PACKAGE / sub).rglob("*.py"))
        if (PACKAGE / sub).is_dir()
        else [PACKAGE / f"{sub}.py"]
    )


@pytest.mark.parametrize("path", _modules("models"), ids=lambda p: p.name)
def test_models_depend_on_nothing(path: Path) -> None:
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    assert inner <= {m for m in inner if m.startswith("pytest_pacts.models")}, inner


ENGINE_SIDE = [
    "planner",
    "discovery",
    "engine",
    "governance",
    "store",
    "browser",
    "demo_app",
    "application",
    "settings",
    "elements",
    "errors",
    "contexts",
    "auth",
]


@pytest.mark.parametrize(
    "path",
    [p for sub in ENGINE_SIDE for p in _modules(sub)],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_engine_side_never_imports_pytest(path: Path) -> None:
    bad = {
        m
        for m in _imports(path)
        if m == "pytest"
        or m.startswith(
            ("_pytest", "pytest_pacts.pytest_plugin", "pytest_pacts.cli", "pytest_pacts.reports")
        )
    }
    assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


# -- reports out of the pytest layer -----------------------------------------------------------


@pytest.mark.parametrize("path", _modules("reports"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_reports_never_import_pytest(path: Path) -> None:
    """The reports (entries, artifacts, workbooks, the index) are written by
    ``reports/session.py``; the pytest layer's ``reporting.py`` only adapts hooks to it."""
    bad = {
        m
        for m in _imports(path)
        if m == "pytest" or m.startswith(("_pytest", "pytest_html", "pytest_pacts.pytest_plugin"))
    }
    assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_the_xdist_role_is_asked_in_one_place() -> None:
    """Whether this process is an xdist worker, its number and its output are read in
    ``pytest_plugin/workers.py`` only (a controller-side node's attributes are not the role)."""
    asking = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if any(f'"{name}"' in p.read_text(encoding="utf-8") for name in ("workerinput", "workerid"))
    )
    assert asking == ["pytest_plugin/workers.py"], asking


# -- a thin pytest layer ------------------------------------------------------------------------

# What a run is made of, composed by the application package only (prepare_run, finish_run,
# discover_plans): recipes and proposals, the generator, the healing ladder, the POM cache
# and the discovery of a plan.
COMPOSED_BY_THE_APPLICATION = (
    "pytest_pacts.governance",
    "pytest_pacts.generator",
    "pytest_pacts.engine.healing",
    "pytest_pacts.discovery",
)


def _composes(path: Path) -> set[str]:
    found = {
        m
        for m in _imports(path)
        if any(m == p or m.startswith(p + ".") for p in COMPOSED_BY_THE_APPLICATION)
    }
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module in (
            "pytest_pacts",
            "pytest_pacts.engine",
        ):
            found.update(
                f"{node.module}.{a.name}"
                for a in node.names
                if f"{node.module}.{a.name}" in COMPOSED_BY_THE_APPLICATION
            )
    return found


@pytest.mark.parametrize(
    "path", _modules("pytest_plugin"), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_pytest_layer_leaves_composing_a_run_to_the_application_layer(path: Path) -> None:
    bad = _composes(path)
    assert not bad, (
        f"{path.relative_to(PACKAGE)} imports {sorted(bad)}: build the run's services in "
        "the application package (prepare_run, finish_run) and call that"
    )


@pytest.mark.parametrize(
    "path", [*_modules("cli"), *_modules("web")], ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_cli_and_the_web_layer_run_the_engine_through_the_application_layer(
    path: Path,
) -> None:
    """A run (``engine.api.run_requirement`` with its ``Runtime`` and options) is built by
    the application package (``prepare_run``, ``walk_run``), never by a command."""
    bad = {
        m
        for m in _imports(path)
        if m in ("pytest_pacts.engine.api", "pytest_pacts.engine.contracts")
        or m.startswith("pytest_pacts.engine.healing")
    }
    assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_the_composition_check_would_catch_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text(
        "from pytest_pacts import generator\n"
        "from pytest_pacts.engine import healing\n"
        "def f():\n    from pytest_pacts.governance.review import accept\n"
        "from pytest_pacts.discovery.pom import save_pom\n"
    )
    assert _composes(sample) == {
        "pytest_pacts.generator",
        "pytest_pacts.engine.healing",
        "pytest_pacts.governance.review",
        "pytest_pacts.discovery.pom",
    }


# -- the in-page runtime below discovery and the engine -----------------------------------------

RUNTIME = PACKAGE / "runtime"
RUNTIME_MAY_IMPORT = (
    "pytest_pacts.runtime",
    "pytest_pacts.errors",
    "pytest_pacts.settings",
    "pytest_pacts.generated",
)
PLAYWRIGHT_PRIVATE = {"_impl_obj", "_loop", "_sync"}


def test_the_runtime_holds_the_bridge_the_bounded_calls_and_the_page_code() -> None:
    modules = {p.name for p in RUNTIME.glob("*.py")}
    assert {"bridge.py", "bounded.py", "scripts.py", "healing.py", "playwright_private.py"} <= (
        modules
    ), modules
    assert {"api.js", "realm.js", "healing.js"} <= {p.name for p in (RUNTIME / "js").glob("*.js")}
    stray = sorted(
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.js") if p.parent.name == "js"
    )
    assert all(s.startswith("runtime/js/") for s in stray), f"page code outside runtime/: {stray}"


@pytest.mark.parametrize("path", _modules("runtime"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_runtime_sits_below_discovery_and_the_engine(path: Path) -> None:
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    bad = {m for m in inner if not m.startswith(RUNTIME_MAY_IMPORT)}
    assert not bad, (
        f"{path.relative_to(PACKAGE)} imports {sorted(bad)}: the runtime is below discovery "
        "and the engine; pass what it needs in as arguments"
    )


def _playwright_private(path: Path) -> set[str]:
    """Playwright's private attributes ``path`` reads (``x._impl_obj``, ``"_impl_obj"``)."""
    found: set[str] = set()
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Attribute) and node.attr in PLAYWRIGHT_PRIVATE:
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and node.value in PLAYWRIGHT_PRIVATE:
            found.add(str(node.value))
    return found


def test_playwright_private_attributes_are_read_in_one_module() -> None:
    """``runtime/playwright_private.py`` reads them, and tests/runtime checks them against the
    installed Playwright; a second reader would escape that check."""
    readers = sorted(
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if _playwright_private(p)
    )
    assert readers == ["runtime/playwright_private.py"], (
        f"{readers} read Playwright's private attributes: go through runtime/playwright_private.py"
    )


def _private_imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """The private modules (a ``_name`` part) of another package that ``path`` imports: a
    module ``a.b._c`` is private to ``a.b`` and the packages inside it."""
    modules = _module_names(root)
    name = _module_name(path, root)
    own = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = own.split(".")[: len(own.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets.add(base)
            targets.update(f"{base}.{a.name}" for a in node.names)
    bad: set[str] = set()
    for target in targets & modules:
        parts = target.split(".")
        for i, part in enumerate(parts):
            if part.startswith("_") and not part.startswith("__"):
                owner = ".".join(parts[:i])
                if own != owner and not own.startswith(owner + "."):
                    bad.add(".".join(parts[: i + 1]))
                break
    return bad


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_package_imports_another_packages_private_modules(path: Path) -> None:
    bad = _private_imports(path)
    assert not bad, (
        f"{path.relative_to(PACKAGE)} imports {sorted(bad)}, private to another package: "
        "import that package's public names (or make the module public)"
    )


def test_the_private_import_check_would_catch_one(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    for sub in ("a", "a/inner", "b"):
        (pkg / sub).mkdir(parents=True, exist_ok=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "_js.py").write_text("")
    (pkg / "a" / "inner" / "m.py").write_text("from pkg.a._js import f\n")
    (pkg / "a" / "m.py").write_text("from . import _js\n")
    (pkg / "b" / "m.py").write_text("from pkg.a import _js\nimport pkg.a._js\n")
    (pkg / "b" / "n.py").write_text("from pkg.a._js import f\n")
    assert _private_imports(pkg / "a" / "inner" / "m.py", pkg) == set()
    assert _private_imports(pkg / "a" / "m.py", pkg) == set()
    assert _private_imports(pkg / "b" / "m.py", pkg) == {"pkg.a._js"}
    assert _private_imports(pkg / "b" / "n.py", pkg) == {"pkg.a._js"}


# -- the store behind narrow protocols -------------------------------------------------------

STORE_DATA = {"pytest_pacts.store.records", "pytest_pacts.store.errors"}


def _store_imports(path: Path) -> set[str]:
    """The store modules ``path`` imports (``from pytest_pacts import store`` included)."""
    found = {
        m
        for m in _imports(path)
        if m == "pytest_pacts.store" or m.startswith("pytest_pacts.store.")
    }
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module == "pytest_pacts":
            found.update(f"pytest_pacts.{a.name}" for a in node.names if a.name == "store")
    return found


@pytest.mark.parametrize(
    "path",
    [*_modules("discovery"), *_modules("engine"), PACKAGE / "elements.py"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_engine_and_discovery_reach_the_store_only_through_protocols(path: Path) -> None:
    bad = _store_imports(path) - STORE_DATA
    assert not bad, (
        f"{path.relative_to(PACKAGE)} imports {sorted(bad)}: declare what it needs of a store "
        "as a Protocol (engine/ports.py, discovery/pom.py) and let the caller pass the store"
    )


def test_the_store_check_would_catch_a_store_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("from pytest_pacts import store\nfrom pytest_pacts.store import Store\n")
    assert _store_imports(sample) - STORE_DATA == {"pytest_pacts.store"}


@pytest.mark.parametrize("path", _modules("store"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_store_depends_on_nothing_but_the_error_root(path: Path) -> None:
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    bad = {
        m for m in inner if not m.startswith("pytest_pacts.store") and m != "pytest_pacts.errors"
    }
    assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_the_settings_import_only_the_evidence_rule() -> None:
    """Every layer takes its defaults from settings.py (the engine, discovery, the readers,
    the CLI's parser), so it may import nothing that imports them back, nor pydantic."""
    inner = {m for m in _imports(PACKAGE / "settings.py") if m.startswith("pytest_pacts")}
    assert inner <= {"pytest_pacts.models.evidence"}, inner


def test_the_error_root_imports_nothing() -> None:
    assert not {m for m in _imports(PACKAGE / "errors.py") if m != "__future__"}


def test_the_generated_name_pattern_imports_nothing_of_the_package() -> None:
    """The runtime and governance both read it (``generated.py``): a leaf, so that reading it
    pulls in neither the page code's Playwright nor the engine."""
    assert {m for m in _imports(PACKAGE / "generated.py")} <= {"__future__", "re"}


# -- no import cycles -------------------------------------------------------------------------


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package modules it imports, every import counted. ``from pkg import
    sub`` is an edge to ``pkg.sub`` when that is a module, else to ``pkg``."""
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                subs = {f"{base}.{a.name}" for a in node.names} & paths.keys()
                targets |= subs
                if len(subs) < len(node.names):
                    targets.add(base)
        edges: set[str] = set()
        for target in targets:
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_package_has_no_import_cycles() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 100
    assert not cycles(graph), "import cycles (break each with a module both sides import):\n" + (
        "\n".join(" <-> ".join(c) for c in cycles(graph))
    )


def test_the_cycle_check_would_catch_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
    )
    (pkg / "d.py").write_text("import pkg.a\n")
    assert cycles(import_graph(pkg)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_schema_in_docs_is_the_packaged_one() -> None:
    docs = PACKAGE.parent / "docs" / "requirements.schema.json"
    packaged = PACKAGE / "planner" / "requirements.schema.json"
    assert docs.read_text() == packaged.read_text(), (
        "run: cp pytest_pacts/planner/requirements.schema.json docs/"
    )


# -- the web observer: DTO isolation ------------------------------------------------------
# The web layer reads projections, never core types: only web/projection/ may import the
# store, governance, models or engine; every other web module imports the web package and
# the package version only, and compares no core value (a verdict, a status, a track) in
# code, templates or scripts: labels, tones and booleans come from the projection.

WEB = PACKAGE / "web"
PROJECTION = WEB / "projection"
WEB_MODULES = [p for p in _modules("web") if not p.is_relative_to(PROJECTION)]


def _core_literals() -> set[str]:
    from typing import get_args

    from pytest_pacts.models.locator import GatePointName
    from pytest_pacts.models.outcome import RcaClass, StepStatus
    from pytest_pacts.store import records

    values: set[str] = {c.value for c in RcaClass}
    for alias in (
        records.RunStatus,
        records.Verdict,
        records.ProposalStatus,
        records.Severity,
        records.Track,
        StepStatus,
        GatePointName,
    ):
        values.update(get_args(alias))
    return values


def _compared_strings(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for leaf in ast.walk(side):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str):
                        found.add(leaf.value)
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found.add(node.value.value)
    return found


def test_web_modules_exist() -> None:
    assert (PROJECTION / "__init__.py").is_file() and len(WEB_MODULES) >= 5


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_web_layer_imports_no_core_types(path: Path) -> None:
    tree = _parsed(path)
    relative = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
    assert not relative, f"{path.name}: use absolute imports so this rule sees them"
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    # the version and the error root (which imports nothing) are not core types
    allowed = {"pytest_pacts", "pytest_pacts.errors"}
    bad = {m for m in inner if m not in allowed and not m.startswith("pytest_pacts.web")}
    assert not bad, f"{path.relative_to(PACKAGE)} imports core modules {sorted(bad)}"


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_web_layer_compares_no_core_literals(path: Path) -> None:
    bad = _compared_strings(path) & _core_literals()
    assert not bad, f"{path.relative_to(PACKAGE)} compares core values {sorted(bad)}"


@pytest.mark.parametrize(
    "path",
    sorted([*(WEB / "templates").glob("*.j2"), *(WEB / "static").glob("*.js")]),
    ids=lambda p: p.name,
)
def test_web_templates_and_scripts_compare_no_core_literals(path: Path) -> None:
    import re

    text = path.read_text(encoding="utf-8")
    quoted = {
        m.group(2)
        for m in re.finditer(r"(==|!=|===|!==|\bin)\s*(?:\(|\[)?\s*['\"]([\w-]+)['\"]", text)
    }
    quoted |= {m.group(1) for m in re.finditer(r"['\"]([\w-]+)['\"]\s*(?:==|!=|===|!==)", text)}
    bad = quoted & _core_literals()
    assert not bad, f"{path.name} compares core values {sorted(bad)}"


def test_the_literal_check_would_catch_a_comparison(tmp_path: Path) -> None:
    sample = tmp_path / "route.py"
    sample.write_text('def f(run):\n    return "ok" if run.verdict == "pass" else "no"\n')
    assert _compared_strings(sample) & _core_literals() == {"pass"}
