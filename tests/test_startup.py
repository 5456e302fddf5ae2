"""The commands start light: what their command-line modules import, and the packages that load on first use.

``--help``, ``--version`` and a mistyped argument must answer at once, so the modules the four commands start
from may load only the command line's own needs; the screen (prompt_toolkit), the network (Trio, msgpack,
zeroconf), the store and the bots come when a command uses them. This is a test of structure, not of time:
``bench/startup.py`` measures the time. Each check runs in a fresh interpreter, since this one has loaded
everything already.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parent.parent
COMMAND_MODULES = ("hanabi.client.cli", "hanabi.client.botcli", "hanabi.server.cli", "hanabi.engine.cli")
HEAVY = ("prompt_toolkit", "trio", "msgpack", "zeroconf", "sqlite3", "importlib.metadata",
         "hanabi.protocol.messages", "hanabi.engine.state", "hanabi.engine.bots.hgroup")
# The packages whose ``__init__`` loads a module only when one of its names is first asked for.
LAZY_PACKAGES = {"hanabi.engine": "engine", "hanabi.engine.bots": "engine/bots", "hanabi.protocol": "protocol",
                 "hanabi.client": "client", "hanabi.server": "server"}


# What a command's module is put through, in this order, in one fresh interpreter: each step may load only the
# heavy modules named. Modules only pile up in an interpreter, so a step that loaded something heavy is caught at
# that step whatever ran before it; one interpreter a command rather than one a step (a start is about a tenth of
# a second of CPU, 24 of them in all before).
STEPS: tuple[tuple[str, list[str] | None, list[str]], ...] = (
    ("the import of the module", None, []),
    ("--help", ["--help"], []),
    ("a mistyped option (--colour)", ["--colour"], []),
    ("a mistyped value (--players many)", ["--players", "many"], []),
    # --version reads the installed version from the package's metadata, and only it does.
    ("--version", ["--version"], ["importlib.metadata"]),
)


def _loaded_after_each_step(module: str) -> list[list[str]]:
    """The heavy modules loaded once each of ``STEPS`` has run, in a fresh interpreter that runs them in turn."""
    probe = "\n".join([
        "import contextlib, io, json, sys",
        f"heavy = {list(HEAVY)!r}",
        "loaded = []",
        f"from {module} import main",
        "loaded.append([m for m in heavy if m in sys.modules])",
        f"for argv in {[argv for _, argv, _ in STEPS[1:]]!r}:",
        "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()), \\",
        "            contextlib.redirect_stderr(io.StringIO()):",
        "        main(argv)",
        "    loaded.append([m for m in heavy if m in sys.modules])",
        "print(json.dumps(loaded))",
    ])
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    loaded: list[list[str]] = json.loads(run.stdout.splitlines()[-1])
    return loaded


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_a_commands_module_its_help_version_and_mistakes_load_nothing_heavy(module: str) -> None:
    loaded = _loaded_after_each_step(module)
    assert len(loaded) == len(STEPS)
    for (step, _argv, expected), after in zip(STEPS, loaded, strict=True):
        assert after == expected, f"{module}: after {step}, loaded {after} (expected {expected})"


def _declared(package: str) -> tuple[set[str], dict[str, tuple[str, ...]]]:
    """The names a lazy package's ``__init__`` imports for the type checker, and its table of where each lives."""
    tree = ast.parse((TOP / LAZY_PACKAGES[package] / "__init__.py").read_text(encoding="utf-8"))
    typed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            typed |= {alias.name for stmt in node.body if isinstance(stmt, ast.ImportFrom) for alias in stmt.names}
    exports: dict[str, tuple[str, ...]] = importlib.import_module(package)._EXPORTS
    return typed, exports


@pytest.mark.parametrize("package", sorted(LAZY_PACKAGES))
def test_a_lazy_package_gives_every_name_it_declares(package: str) -> None:
    typed, exports = _declared(package)
    table = {name for names in exports.values() for name in names}
    assert typed == table, "the type checker's imports and the table of where names live disagree"
    module = importlib.import_module(package)
    assert set(module.__all__) <= table
    for home, names in exports.items():
        for name in names:
            assert getattr(module, name) is getattr(importlib.import_module(f"{package}.{home}"), name)
    # A submodule of the same name as an exported value would shadow it once loaded.
    submodules = {p.stem for p in (TOP / LAZY_PACKAGES[package]).glob("*.py")}
    assert not table & submodules
    with pytest.raises(AttributeError, match="no attribute 'nothing_by_that_name'"):
        module.nothing_by_that_name  # noqa: B018


def test_a_server_loads_the_bots_and_the_coach_when_first_asked() -> None:
    """The running server's modules leave the house bots and the coach to their first use (a table's first bot
    move, the first advice asked): a server starts without them, about a seventh less CPU to import
    (docs/performance.md, "Start-up")."""
    bots_and_coach = ["hanabi.engine.bots.hgroup", "hanabi.engine.bots.simple", "hanabi.engine.coach"]
    probe = ("import json, sys\nimport hanabi.server.app, hanabi.server.cli, hanabi.server.store\n"
             f"print(json.dumps([m for m in {bots_and_coach!r} if m in sys.modules]))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == []
