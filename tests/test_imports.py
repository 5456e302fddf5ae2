"""The import table of docs/design.md, enforced: which package may import what.

Every module of the four packages is read with ``ast`` (nothing is imported or
run), every ``import`` and ``from ... import`` in it, at any depth (inside a
function or under ``TYPE_CHECKING`` too), is resolved to a top-level name, and
that name must be the standard library, the package itself, or one the table
allows. An allow list rather than a deny list: a new dependency has to be
written down here (and in the design) before a package may use it.

Exceptions are per module, in ``ALLOWED_EXCEPTIONS``, so that allowing one file
never waives the rule for its whole package.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "server", "client")
STDLIB = frozenset(sys.stdlib_module_names)

# What each package may import besides the standard library and itself: the design's table.
# Our own packages are named by their folder ("engine"); third-party ones by their import name.
ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "protocol": frozenset({"engine", "msgpack"}),
    "server": frozenset({"engine", "protocol", "trio", "platformdirs", "zeroconf"}),
    # outcome: the guest-run glue (client/runner.py) hands Trio's result back through it.
    "client": frozenset({"engine", "protocol", "trio", "prompt_toolkit", "outcome", "platformdirs", "filelock",
                         "zeroconf"}),
}

# Modules allowed one thing more than their package, each with its reason. Keys are paths from the repo root.
ALLOWED_EXCEPTIONS: dict[str, frozenset[str]] = {
    # hanabi-client --solo runs a private server in the client process (and talks to it over loopback TCP);
    # hanabi-client --serve runs the announced LAN server there too.
    "client/solo.py": frozenset({"server"}),
}


@dataclass(frozen=True)
class Import:
    path: Path  # the module that imports
    line: int
    name: str  # the top-level name imported: "trio", or one of PACKAGES for our own


def _top_level(dotted: str) -> str:
    """Our own packages by folder name ("hanabi.server.app" -> "server"), anything else by its first part."""
    parts = dotted.split(".")
    if parts[0] == "hanabi" and len(parts) > 1:
        return parts[1]
    return parts[0]


def imports_of(path: Path, package: str, root: Path = REPO) -> list[Import]:
    """Every import written in the module at ``path``, which belongs to ``package`` (a folder under ``root``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    # The module's own dotted place, to resolve relative imports: engine/bots/hgroup.py -> hanabi.engine.bots
    folder = path.parent.relative_to(root / package).parts
    here = ["hanabi", package, *folder]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(path, node.lineno, _top_level(alias.name)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module is not None
                found.append(Import(path, node.lineno, _top_level(node.module)))
                continue
            if node.level > len(here):  # level 1 is the package holding the module, len(here) is "hanabi"
                pytest.fail(f"{path.relative_to(root)}:{node.lineno}: a relative import reaches above 'hanabi'")
            base = here[: len(here) - (node.level - 1)]
            target = ".".join([*base, node.module] if node.module else base)
            found.append(Import(path, node.lineno, _top_level(target)))
    return found


def violations(package: str, root: Path = REPO) -> list[str]:
    """One sentence for each import in ``package`` that the table does not allow."""
    problems: list[str] = []
    for path in sorted((root / package).rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        allowed = ALLOWED[package] | ALLOWED_EXCEPTIONS.get(relative, frozenset()) | {package, "__future__"}
        for found in imports_of(path, package, root):
            if found.name in allowed or (found.name in STDLIB and found.name not in PACKAGES):
                continue
            kind = "our package" if found.name in PACKAGES else "package"
            problems.append(
                f"{relative}:{found.line}: {package}/ imports {kind} '{found.name}', which docs/design.md's "
                f"import table does not allow (allowed: the standard library"
                f"{', ' if ALLOWED[package] else ''}{', '.join(sorted(ALLOWED[package]))}); move the code, "
                "or, if the design changes, change the table there and in tests/test_imports.py"
            )
    return problems


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_follow_the_design(package: str) -> None:
    problems = violations(package)
    assert not problems, "\n".join(problems)


def test_every_exception_names_a_module_that_exists() -> None:
    stale = [name for name in ALLOWED_EXCEPTIONS if not (REPO / name).is_file()]
    assert not stale, f"ALLOWED_EXCEPTIONS names modules that are gone; remove them: {', '.join(stale)}"


def test_a_forbidden_import_is_caught(tmp_path: Path) -> None:
    """The check can fail: a copy of the rules over a made-up tree with one import of each kind."""
    engine = tmp_path / "engine"
    (engine / "bots").mkdir(parents=True)
    (engine / "state.py").write_text("import json\nfrom . import cards\nfrom hanabi.engine.bots import x\n")
    (engine / "bots" / "bad.py").write_text(
        "def f():\n    import trio\n    from ...protocol import framing\n    from hanabi.client import app\n"
    )
    problems = violations("engine", tmp_path)
    assert [p.split(": ", 1)[0] for p in problems] == ["engine/bots/bad.py:2", "engine/bots/bad.py:3",
                                                       "engine/bots/bad.py:4"]
    assert "'trio'" in problems[0] and "our package 'protocol'" in problems[1] and "'client'" in problems[2]


def test_the_solo_exception_is_one_module_only(tmp_path: Path) -> None:
    client = tmp_path / "client"
    client.mkdir()
    for name in ("solo.py", "app.py"):
        (client / name).write_text("from hanabi.server.app import serve\n")
    problems = violations("client", tmp_path)
    assert len(problems) == 1 and problems[0].startswith("client/app.py:1:")
