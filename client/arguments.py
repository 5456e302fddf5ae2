"""Command-line values that ``hanabi-client`` and ``hanabi-bot`` both take, checked one way for both.

A name the server would refuse (empty, too long, a tab in it) is said in one
line at start-up by the protocol's own rule for ``hello.name``, rather than as
a protocol error after connecting; a bot's delay must be a pause in seconds.
Importing this module costs next to nothing: the commands' help is built from it.
"""

from __future__ import annotations

from hanabi.engine.names import NAME_MAX

# The defaults the commands' help states. They are here, with nothing heavy imported, so that ``--help`` need not
# load the modules that use them (the LAN browser, the solo server).
LIST_WAIT = 2.5  # seconds ``--list`` listens: servers answer a query within a few tenths of a second
SOLO_BOT_DELAY = 0.6  # seconds a --solo bot waits before its move: long enough to follow what the bots do
RECONNECT_FOR = 120.0  # seconds hanabi-bot keeps trying after the link is lost: long enough to restart a server


def parse_clock(text: str) -> tuple[int, int]:
    """``--clock BASE+BONUS`` ("120+20") as (seconds to start with, seconds added after each move)."""
    from hanabi.engine.options import GameConfig

    base, _, bonus = text.partition("+")
    try:
        clock = int(base), int(bonus or "0")
        GameConfig(timed=True, time_base=clock[0], time_per_turn=clock[1])  # the engine's own limits
    except ValueError as e:
        numbers = base.strip().isdigit() and (not bonus or bonus.strip().isdigit())
        why = str(e) if numbers else "give whole seconds"
        raise ValueError(f"--clock {text!r} is not a clock: {why}, as BASE+BONUS (120+20: 2 minutes to start "
                         "with, 20 seconds more after each move)") from None
    return clock


def name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped of outer spaces) cannot be a player's name, or None when it can."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"--name must be 1 to {NAME_MAX} characters, not {len(name)}"
    from hanabi.protocol.fields import FieldError, Text  # msgpack's types come with it: imported once needed

    try:
        Text(1, NAME_MAX, trimmed=True).decode(name, "--name")  # what ``hello.name`` accepts
    except FieldError as e:
        return f"--name {e.problem}"
    return None
