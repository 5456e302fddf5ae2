"""The program version every side sends comes from the installed package's metadata, never from a literal."""

from __future__ import annotations

from importlib import metadata

from hanabi.protocol.lan import txt_record
from hanabi.protocol.version import CLIENT_PROGRAM, SERVER_PROGRAM, VERSION, version_mismatch


def test_the_program_names_carry_the_installed_version() -> None:
    installed = metadata.version("hanabi-lan")
    assert installed == VERSION
    assert f"hanabi-lan {installed}" == CLIENT_PROGRAM
    assert f"hanabi-server {installed}" == SERVER_PROGRAM


def test_each_side_names_its_own_program() -> None:
    # The server names itself alike in ``welcome``, in a version mismatch and on the LAN; the client as in ``hello``.
    assert txt_record(1, 2)["program"] == SERVER_PROGRAM
    assert f"this server ({SERVER_PROGRAM})" in (version_mismatch(2, 3) or "")
    assert f"this client ({CLIENT_PROGRAM})" in (version_mismatch(2, 3, we_are="client") or "")
