"""The player's ``--name``, checked at start-up by the protocol's own rule for ``hello.name``.

``hanabi-client`` and ``hanabi-bot`` both take a name on the command line; a
name the server would refuse (empty, too long, a tab in it) is said in one
line at once, rather than as a protocol error after connecting.
"""

from __future__ import annotations

from hanabi.protocol import NAME_MAX
from hanabi.protocol.fields import FieldError, Text

_NAME = Text(1, NAME_MAX, trimmed=True)  # what ``hello.name`` accepts


def name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped of outer spaces) cannot be a player's name, or None when it can."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"--name must be 1 to {NAME_MAX} characters, not {len(name)}"
    try:
        _NAME.decode(name, "--name")
    except FieldError as e:
        return f"--name {e.problem}"
    return None
