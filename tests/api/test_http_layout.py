"""The HTTP package's layout holds: one router per resource, who calls (`deps`) shared by the
routers and the memory page, and no import cycle. The page never imports the app or a router,
nor does anything but the app import them: read from the modules' own import statements, and
from what importing the page loads in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HTTP = ROOT / "governed_memory" / "shell" / "http"
#: The modules that hold routes of the API.
ROUTERS = {
    "consents",
    "deletions",
    "exports",
    "feedback",
    "me",
    "operations",
    "reads",
    "registry",
    "reviews",
    "writes",
}
#: What the page may import of the package.
PAGE_MAY_IMPORT = {"deps", "bodies", "problems", "streams"}


def _imports() -> dict[str, set[str]]:
    """Each module of shell/http and the modules of shell/http it imports (by short name)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(HTTP.glob("*.py")):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                if node.module == "governed_memory.shell.http":
                    found.update(a.name for a in node.names)
                elif node.module.startswith("governed_memory.shell.http."):
                    found.add(node.module.removeprefix("governed_memory.shell.http.").split(".")[0])
            elif isinstance(node, ast.Import):
                found.update(
                    a.name.removeprefix("governed_memory.shell.http.").split(".")[0]
                    for a in node.names
                    if a.name.startswith("governed_memory.shell.http.")
                )
        graph[name] = found - {name}
    return graph


def test_the_package_has_one_router_per_resource_and_no_api_module() -> None:
    modules = {p.stem for p in HTTP.glob("*.py")}
    assert ROUTERS | {"app", "deps", "problems", "guards", "bodies", "page"} <= modules
    assert not (ROOT / "governed_memory" / "shell" / "api.py").exists()
    assert not (ROOT / "governed_memory" / "shell" / "page.py").exists()
    for name in ROUTERS:
        assert "router = APIRouter(" in (HTTP / f"{name}.py").read_text(encoding="utf-8"), name


def test_no_module_of_the_package_imports_another_in_a_cycle() -> None:
    graph = _imports()
    assert graph["__init__"] == set()
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for nxt in sorted(graph.get(name, ())):
            assert state.get(nxt) != "open", f"import cycle: {' -> '.join([*path, nxt])}"
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = "done"

    for name in graph:
        if name not in state:
            visit(name, [name])


def test_only_the_app_imports_the_app_the_routers_and_the_page() -> None:
    graph = _imports()
    assert graph["page"] <= PAGE_MAY_IMPORT, graph["page"]
    for name, imported in graph.items():
        if name == "app":
            continue
        assert "app" not in imported, name
        assert "page" not in imported, name
        assert not (imported & ROUTERS), f"{name} imports a router: {imported & ROUTERS}"
    assert ROUTERS | {"page"} <= graph["app"]
    for name in ("deps", "problems", "guards", "bodies", "streams"):
        assert not (graph[name] & (ROUTERS | {"app", "page"})), name


def test_importing_the_page_loads_neither_the_app_nor_a_router() -> None:
    script = (
        "import sys, governed_memory.shell.http.page\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('governed_memory.shell.http'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert "governed_memory.shell.http.page" in loaded
    assert "governed_memory.shell.http.deps" in loaded
    assert "governed_memory.shell.http.app" not in loaded
    assert not {f"governed_memory.shell.http.{r}" for r in ROUTERS} & set(loaded), loaded
