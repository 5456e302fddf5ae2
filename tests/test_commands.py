"""What every command promises on its command line: ``--version``, and a mistake said in one line.

The four commands share their parser (``hanabi.engine.commandline.CommandParser``); these run each command's
``main`` as the installed script would.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hanabi.client.botcli import main as bot_main
from hanabi.client.cli import main as client_main
from hanabi.engine import MAX_PLAYERS, MIN_PLAYERS
from hanabi.engine.cli import main as replay_main
from hanabi.engine.commandline import program_version
from hanabi.protocol.version import PROTOCOL_VERSION, VERSION
from hanabi.server.cli import main as server_main

Main = Callable[[list[str]], int]
COMMANDS: dict[str, Main] = {"hanabi-client": client_main, "hanabi-server": server_main,  # type: ignore[dict-item]
                             "hanabi-bot": bot_main, "hanabi-replay": replay_main}
SPEAKING = ("hanabi-client", "hanabi-server", "hanabi-bot")  # the replay reader speaks no wire protocol


def _exit_of(main: Main, argv: list[str]) -> int | str | None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    return caught.value.code


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_answers_version(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_of(COMMANDS[command], ["--version"]) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1 and line.startswith(f"{command} {program_version()} (")
    assert program_version() == VERSION  # the one version, from the installed package's metadata
    if command in SPEAKING:
        assert f"(protocol {PROTOCOL_VERSION})" in line


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_help_says_what_version_prints(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_of(COMMANDS[command], ["--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())  # argparse wraps the help's lines
    speaks = "the protocol it speaks" in said
    assert speaks == (command in SPEAKING), said  # the replay reader's --version names what it reads instead
    assert "--version print the program's version and" in said


@pytest.mark.parametrize(("command", "argv", "words"), [
    ("hanabi-client", ["--colour"], "unrecognized arguments: --colour"),
    ("hanabi-client", ["--solo", "--players", "9"], f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not 9"),
    ("hanabi-client", ["--solo", "--players", "many"], "invalid int value: 'many'"),
    ("hanabi-client", ["--json"], "--json is for --list"),
    ("hanabi-client", ["--solo", "--level", "expert"], "--level 'expert' is not a level: choose beginner, basic"),
    ("hanabi-server", ["--port", "x"], "invalid int value: 'x'"),
    ("hanabi-server", ["export"], "the following arguments are required: GAME_ID"),
    ("hanabi-bot", [], "the following arguments are required: address"),
    ("hanabi-bot", ["host", "--games", "0"], "--games must be at least 1"),
    ("hanabi-replay", [], "the following arguments are required: FILE.json"),
])
def test_an_argument_error_is_one_line_pointing_at_help(command: str, argv: list[str], words: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_of(COMMANDS[command], argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, f"more than one line:\n{err}"
    assert "usage:" not in err and words in err
    # What was wrong, then where to read more: the command's own --help (a subcommand's for a subcommand).
    assert re.fullmatch(rf"{command}: .* \(see {command}( export)? --help\)\n", err)
