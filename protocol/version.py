"""Protocol and program versions, and the handshake rule that compares them.

The protocol version is one integer; it changes only when a change would
break an existing peer. Within one version, changes are additive (new
optional fields, new message types a peer may ignore) and never alter
``hello``, ``welcome`` or ``goodbye``, so that two peers of different
versions can always read each other's handshake and part with a clear
sentence naming both versions.
"""

from __future__ import annotations

from hanabi.engine.commandline import program_version

# 2: a ``view`` carries only the events its connection has not received yet (``since``).
# 3: notes, review together, who is here, seat handover, table options, clocks, pause and pre-moves; the list is in
# docs/protocol.md, section 11.
PROTOCOL_VERSION = 3

# Message types whose shape no future version may change: the decoder reads
# them whatever their frame's "v", so a version mismatch is always explained.
HANDSHAKE_TYPES = frozenset({"hello", "welcome", "goodbye"})


# The installed distribution's version: the one number a release changes (pyproject.toml's ``version``).
VERSION = program_version()

# What each program calls itself: the client and hanabi-bot in ``hello``; the server in ``welcome`` and on the LAN.
CLIENT_PROGRAM = f"hanabi-lan {VERSION}"
SERVER_PROGRAM = f"hanabi-server {VERSION}"


def version_mismatch(ours: int, theirs: int, *, their_program: str = "", we_are: str = "server") -> str | None:
    """The sentence to put in a ``goodbye`` when two protocol versions differ, or None when they agree."""
    if ours == theirs:
        return None
    our_program = SERVER_PROGRAM if we_are == "server" else CLIENT_PROGRAM
    other = "client" if we_are == "server" else "server"
    program = f" ({their_program})" if their_program else ""
    newer = "this " + we_are if ours > theirs else "the " + other
    older = "the " + other if ours > theirs else "this " + we_are
    return (
        f"protocol version mismatch: this {we_are} ({our_program}) speaks protocol {ours}, "
        f"the {other}{program} speaks protocol {theirs}; {newer} is newer, so upgrade {older}"
    )
