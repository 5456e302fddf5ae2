"""The server's house rules, read from its source with ``ast`` (nothing is imported or run): only the Table changes
a table, the server's modules import one another without a circle, and every frame and write takes the plain path
(Trio's streams, SQLite's own checkpoints, Python's own collector). docs/design.md ("Who owns what") says why."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"


@functools.cache
def _modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in SERVER.glob("*.py")}


def _imports(tree: ast.Module, names: set[str]) -> set[str]:
    """The server modules ``tree`` imports, those under ``if TYPE_CHECKING:`` and inside functions included."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module.split(".")[0]} if node.module else {alias.name for alias in node.names}
    return found & names


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in ``graph``, as the modules along it, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for other in sorted(graph[module]):
            found = visit(other, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    return next((c for c in (visit(m, []) for m in sorted(graph)) if c), None)


def test_the_servers_modules_import_one_another_without_a_circle() -> None:
    modules = _modules()
    graph = {name: _imports(tree, set(modules)) for name, tree in modules.items()}
    assert _circle(graph) is None, " -> ".join(_circle(graph) or [])


def test_a_circle_of_imports_is_found() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def _table_writes(tree: ast.Module) -> list[int]:
    """The lines that assign to an attribute of something called ``table`` (``table.host = ...``)."""
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        while any(isinstance(target, ast.Tuple) for target in targets):
            targets = [e for target in targets for e in (target.elts if isinstance(target, ast.Tuple) else [target])]
        for target in targets:
            while isinstance(target, ast.Subscript):  # table.seats[0] = ... changes the table too
                target = target.value
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id in ("table", "t"):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("module", sorted(p.stem for p in SERVER.glob("*.py") if p.stem != "table"))
def test_only_the_table_changes_a_table(module: str) -> None:
    assert _table_writes(_modules()[module]) == [], f"server/{module}.py assigns to a table's attribute"


def test_a_write_to_a_table_is_found() -> None:
    code = "table.host = 1\nx.table = 2\ntable.seats[0] = None\nt.game, y = 1, 2\ntables[table.id] = table"
    assert _table_writes(ast.parse(code)) == [1, 3, 4]


def _calls(tree: ast.Module) -> set[str]:
    """``module.function`` for each call of an attribute of a plain name (``os.write(...)``)."""
    return {f"{node.func.value.id}.{node.func.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)}


def test_every_frame_and_write_takes_the_plain_path() -> None:
    modules = _modules()
    assert "os.write" not in _calls(modules["connection"])  # a connection's bytes go through its Trio stream
    for name, tree in modules.items():  # Python's own collector, untuned
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert "gc" not in imported, f"server/{name}.py imports gc"
    store = ast.unparse(modules["store"])
    assert "wal_autocheckpoint" not in store and "wal_checkpoint" not in store  # SQLite checkpoints by itself
