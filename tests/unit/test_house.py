"""The house's shape, checked the way a reviewer would: no import circle among the service's
modules, no arrow from the stores into `sync` (`sync` reads and writes the stores, never the
other way), workflows' inputs and outputs loadable without the service, and domain modules
that stay small (the ones still over the bound are listed with their size, and may only
shrink). Function complexity is ruff's (`C901`, max 25, pyproject)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "governed_memory"
#: The package's parts; `workflows` and `activities` are links to the top-level folders.
PARTS = ("memory", "shell", "activities", "workflows")
#: Lines a domain module may hold.
MAX_LINES = 600
#: Domain modules still over the bound, with the size they may not grow past (issue 28: split).
STILL_LARGE: dict[str, int] = {}


def _name(path: Path, part: Path) -> str:
    parts = [PACKAGE.name, part.name, *path.relative_to(part.resolve()).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _name(p, part): p
        for part in (PACKAGE / name for name in PARTS)
        for p in part.resolve().rglob("*.py")
        if "migrations" not in p.parts
    }


def _loaded_on_import(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports that run when the module is imported (not those in functions, nor under
    `TYPE_CHECKING`)."""

    def walk(nodes: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
        for n in nodes:
            if isinstance(n, ast.Import | ast.ImportFrom):
                yield n
            elif isinstance(n, ast.If) and "TYPE_CHECKING" not in ast.unparse(n.test):
                yield from walk(n.body)
                yield from walk(n.orelse)
            elif isinstance(n, ast.With):
                yield from walk(n.body)
            elif isinstance(n, ast.Try):
                yield from walk(n.body)
                for handler in n.handlers:
                    yield from walk(handler.body)
                yield from walk(n.orelse)
                yield from walk(n.finalbody)

    return walk(tree.body)


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, is_pkg: bool, modules: dict[str, Path]
) -> Iterator[str]:
    """The modules an import names: `from a import b` is `a.b` where that is a module, else
    `a`."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names)
        return
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_pkg else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join([*here, *([node.module] if node.module else [])])
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in modules else base


def import_graph(*, on_import_only: bool = True) -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text())
        nodes = (
            _loaded_on_import(tree)
            if on_import_only
            else (n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom))
        )
        for node in nodes:
            for target in _targets(node, module, path.name == "__init__.py", modules):
                if target in modules and target != module:
                    graph[module].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_the_stores_never_import_sync() -> None:
    graph = import_graph(on_import_only=False)  # not even inside a function
    arrows = [
        (m, t)
        for m, targets in graph.items()
        if m.startswith("governed_memory.memory.stores")
        for t in targets
        if t.startswith("governed_memory.memory.sync")
    ]
    assert arrows == []


def test_the_page_and_the_api_do_not_import_each_other() -> None:
    graph = import_graph(on_import_only=False)
    pages = {
        m for m in graph if m.split(".")[-1] == "page" and m.startswith("governed_memory.shell")
    }
    apps = {
        m for m in graph if m in ("governed_memory.shell.api", "governed_memory.shell.http.app")
    }
    for page in pages:
        assert not graph[page] & apps, page


def test_every_workflows_input_and_output_is_a_model_of_the_models_home() -> None:
    """Each workflow takes and returns models of `memory.models` (or the feedback run's, in
    `memory.feedback`), so a process that starts workflows and reads their results need not
    load the service."""
    from typing import get_type_hints

    from governed_memory.workflows.registry import WORKFLOWS

    homes = ("governed_memory.memory.models", "governed_memory.memory.feedback")
    for workflow in WORKFLOWS:
        hints = get_type_hints(workflow.run)
        for name, hint in hints.items():
            kinds = [a for a in getattr(hint, "__args__", (hint,)) if isinstance(a, type)]
            models = [k for k in kinds if k.__module__.startswith(homes)]
            assert models, (workflow.__name__, name, hint)


def _loaded_by(imports: str, roots: tuple[str, ...]) -> set[str]:
    """The modules under `roots` that importing `imports` loads, in a new interpreter."""
    code = (
        f"import sys, {imports};"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {roots!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return set(ast.literal_eval(out))


def test_the_models_home_loads_without_the_service() -> None:
    loaded = _loaded_by(
        "governed_memory.memory.models, governed_memory.memory.feedback", ("governed_memory",)
    )
    loaded.discard("governed_memory")
    assert {m.split(".")[1] for m in loaded} == {"memory"}
    assert {m.split(".")[2] for m in loaded if m.count(".") > 1} <= {
        "errors",
        "feedback",
        "models",
        "namespaces",
        "policy",  # feedback's bounds are a policy section
        "sameness",
        "vocabulary",  # the service's words: kinds, source types, sensitivities
    }


def test_memctl_starts_without_loading_a_model() -> None:
    """`memctl --help` (and every command before it runs) loads the CLI and the service's
    words, not the models (a quarter of a second to import) nor the settings (pydantic-settings
    and asyncio, a tenth): a command loads them when it runs."""
    loaded = _loaded_by("governed_memory.shell.cli", ("governed_memory", "asyncio"))
    assert "governed_memory.memory.models" not in loaded
    assert "governed_memory.memory.settings" not in loaded
    assert "asyncio" not in loaded


def test_the_workflows_load_without_the_service() -> None:
    """Every workflow, with the activity classes it calls, loads pydantic, Temporal and the
    models and contracts, never the stores, the services, the detectors, SQL or numpy: the
    activity classes name their service for typing only (issue 28, point 2)."""
    loaded = _loaded_by(
        "governed_memory.workflows.registry",
        ("governed_memory", "sqlalchemy", "numpy", "ahocorasick", "jieba", "jwt", "fastapi"),
    )
    assert {m.split(".")[0] for m in loaded} == {"governed_memory"}
    assert {m.split(".")[1] for m in loaded if "." in m} == {"memory", "workflows", "activities"}
    assert {m.split(".")[2] for m in loaded if m.startswith("governed_memory.memory.")} <= {
        "contracts",
        "errors",
        "feedback",
        "metrics",
        "models",
        "namespaces",
        "plans",
        "policy",  # feedback's bounds are a policy section
        "sameness",
        "vocabulary",  # the service's words: kinds, source types, sensitivities
    }


def test_domain_modules_stay_small() -> None:
    over = {
        str(p.relative_to(ROOT)): len(p.read_text().splitlines())
        for p in (PACKAGE / "memory").rglob("*.py")
        if "migrations" not in p.parts
    }
    over = {path: n for path, n in over.items() if n > MAX_LINES}
    grown = {p: n for p, n in over.items() if n > STILL_LARGE.get(p, MAX_LINES)}
    assert grown == {}, f"over {MAX_LINES} lines: split them"
    shrunk = {p for p in STILL_LARGE if p not in over}
    assert shrunk == set(), "under the bound now: take them off STILL_LARGE"
