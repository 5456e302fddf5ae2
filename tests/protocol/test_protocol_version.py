"""The program version every side sends comes from the installed package's metadata, never from a literal."""

from __future__ import annotations

from importlib import metadata

from hanabi.protocol.version import PROGRAM, VERSION
from hanabi.server.config import PROGRAM as SERVER_PROGRAM


def test_the_program_names_carry_the_installed_version() -> None:
    installed = metadata.version("hanabi-lan")
    assert installed == VERSION
    assert f"hanabi-lan {installed}" == PROGRAM
    assert f"hanabi-server {installed}" == SERVER_PROGRAM
