"""Bots' seats: what a bot sees and how long it waits before acting.

A bot is a pure function from its seat's ``PlayerView`` (the same redacted
view a human gets, so a bot cannot cheat) and the seats house bots hold (the
table shows them: a bot reads a person's clues the way a person meant them,
and its fellow bots' by its full conventions) to a turn action. The server only
decides *when* a bot acts: after a short delay, so humans can follow, and in
a worker thread, so a slow bot never stalls the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

import trio
from hanabi.engine import PlayerView, TurnAction
from hanabi.engine.bots import choose_action

log = logging.getLogger(__name__)

Policy = Callable[[PlayerView, frozenset[int]], TurnAction]  # (the bot's view, the seats of house bots)


def default_policy() -> Policy:
    """The house bot of ``hanabi.engine.bots``: the one line to change to seat another bot. Beside a person it
    plays at the beginner level (a person's clues read literally); with only bots, by its full conventions."""
    return lambda view, bot_seats: choose_action(view, bot_seats=bot_seats)


BOT_NAMES = ("Bot Ada", "Bot Basil", "Bot Cleo", "Bot Dex", "Bot Eve")


def free_bot_name(taken: Iterable[str]) -> str:
    """The first bot name no one at the table has (a table has at most 5 seats, so one is always free)."""
    used = set(taken)
    return next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(99))) if n not in used)


async def decide(policy: Policy, view: PlayerView, bot_seats: frozenset[int], delay: float) -> TurnAction:
    """Wait ``delay`` seconds, then let the bot choose, off the event loop. A bot that fails (a bug of its own)
    takes its first legal action, so that the game goes on."""
    if delay > 0:
        await trio.sleep(delay)
    try:
        return await trio.to_thread.run_sync(policy, view, bot_seats)
    except Exception:
        log.exception("a bot failed to choose (seat %s, counted from 0); it takes its first legal action", view.seat)
        return view.legal_actions()[0]
