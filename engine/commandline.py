"""What the four commands' argument parsers share: a mistake said in one line, ``--version``, a span of time.

argparse answers a wrong argument with the whole usage block, the line that matters last; a player who typed
``--players 9`` needs that line and where to look next, so ``CommandParser.error`` prints only it, with a
pointer to ``--help``. It lives here, at the bottom of the import table, because every command's package may
import the engine and the engine imports nothing of ours.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

DISTRIBUTION = "hanabi-lan"


def program_version() -> str:
    """The installed distribution's version (pyproject.toml's ``version``), or "dev" in a checkout not installed."""
    from importlib import metadata  # tens of milliseconds to import: paid by --version alone

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "dev"


def seconds_problem(flag: str, seconds: float, zero: str = "acts at once") -> str | None:
    """Why ``seconds`` given to ``flag`` is not a span of time (``zero`` says what 0 does), or None when it is."""
    if math.isfinite(seconds) and seconds >= 0:
        return None
    return f"{flag} {seconds} is not a span of time: give seconds, 0 or more (0 {zero})"


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line: what was wrong, and ``PROG --help``. Exit status 2."""

    def error(self, message: str) -> NoReturn:
        # The command's own name (``hanabi-server``, not ``hanabi-server games``) is the one --help is asked of.
        self.exit(2, f"{self.prog.split()[0]}: {message} (see {self.prog} --help)\n")

    def add_version(self, speaks: Callable[[], str], what: str = "the protocol it speaks") -> None:
        """``--version``: this program's name and version, then what it speaks (``speaks()``: "protocol 3"),
        which its help calls ``what``."""
        self.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS, speaks=speaks,
                          help=f"print the program's version and {what}, then exit")


class _Version(argparse.Action):
    """argparse's own version action, but the version is looked up only when asked for."""

    def __init__(self, *args: Any, speaks: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.speaks = speaks

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        print(f"{parser.prog} {program_version()} ({self.speaks()})")  # on stdout, as argparse's own
        parser.exit()

