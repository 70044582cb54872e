"""No import cycle among the package's modules, imports inside functions included.

import-linter's contracts (pyproject.toml) keep the layers; a cycle inside one layer, held
together by an import deferred into a function, is what they do not see. Here every
``import`` and ``from ... import`` of every module counts, wherever it is written, except
those under ``if TYPE_CHECKING:`` (which never run). ``from package import name`` counts as
importing the submodule ``package.name`` when there is one, else the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent


def _modules(top: Path) -> dict[str, Path]:
    modules = {}
    for path in top.rglob("*.py"):
        parts = path.relative_to(top.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def _typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def import_graph(top: Path) -> nx.DiGraph:
    """Which module of the package at ``top`` imports which."""
    modules = _modules(top)
    package = top.name

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skipped = _typing_only(tree)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                subs = [f"{base}.{alias.name}" for alias in node.names]
                targets = [s for s in subs if s in modules]
                if len(targets) < len(subs):
                    targets.append(base)
            for target in targets:
                if target == package or target.startswith(package + "."):
                    found = known(target)
                    if found is not None and found != name:
                        graph.add_edge(name, found)
    return graph


def cycles(top: Path) -> list[list[str]]:
    graph = import_graph(top)
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def test_no_module_of_the_package_imports_itself_back() -> None:
    assert cycles(ROOT / "verifier") == []


def test_the_graph_sees_every_module_and_the_imports_in_functions() -> None:
    graph = import_graph(ROOT / "verifier")
    assert "verifier.rules.turn" in graph and "verifier.engines.catalog" in graph
    # A deferred import (z3 loads only when the SMT engine is asked for).
    assert graph.has_edge("verifier.engines.catalog", "verifier.engines.smt.engine")
    assert graph.has_edge("verifier.rules.turn", "verifier.rules.timing")


def test_a_cycle_through_an_import_in_a_function_is_found(tmp_path: Path) -> None:
    top = tmp_path / "pkg"
    top.mkdir()
    (top / "__init__.py").write_text("")
    (top / "a.py").write_text("from pkg import b\n")
    (top / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg import c\n"
        "def f():\n"
        "    from pkg.a import g\n"
    )
    (top / "c.py").write_text("from . import b\n")
    assert cycles(top) == [["pkg.a", "pkg.b"]]
