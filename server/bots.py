"""Bots' seats: the bot's choice, made after a delay (so humans can follow) in a worker thread (so a slow bot
never stalls the event loop). A bot is a pure function of its seat's redacted ``PlayerView`` (it cannot cheat),
the seats house bots hold and the table's convention level, to a ``Decision``: an action and its reason.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

import trio
from hanabi.engine import PlayerView
from hanabi.engine.bots import Decision, Level
from hanabi.engine.bots import decide as house_decide

log = logging.getLogger(__name__)

# (the bot's view, the seats of house bots, the table's convention level) -> the bot's decision
Policy = Callable[[PlayerView, frozenset[int], Level], Decision]


def house_policy(view: PlayerView, bot_seats: frozenset[int], level: Level) -> Decision:
    """The house bot of ``hanabi.engine.bots``, at the table's level (a person's clues read literally at
    "beginner"; with only bots, by its full conventions)."""
    return house_decide(view, bot_seats=bot_seats, level=level)


BOT_NAMES = ("Bot Ada", "Bot Basil", "Bot Cleo", "Bot Dex", "Bot Eve", "Bot Fay")


def free_bot_name(taken: Iterable[str]) -> str:
    """The first bot name no one at the table has (a table has at most 6 seats, so one is always free)."""
    used = set(taken)
    return next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(99))) if n not in used)


async def decide(policy: Policy, view: PlayerView, bot_seats: frozenset[int], level: Level,
                 delay: float) -> Decision:
    """Wait ``delay`` seconds, then let the bot decide, off the event loop. A bot that fails or chooses an illegal
    action (a bug of its own) takes its first legal action, so that the game goes on."""
    if delay > 0:
        await trio.sleep(delay)
    legal = view.legal_actions()
    try:
        decision = await trio.to_thread.run_sync(policy, view, bot_seats, level)
    except Exception:
        log.exception("a bot failed to choose (seat %s, counted from 0); it takes its first legal action", view.seat)
        return Decision(legal[0], "I was confused (a bug of mine): I took my first legal move")
    if decision.action not in legal:
        log.error("the bot in seat %s (counted from 0) chose an illegal action (%s); it takes its first legal action",
                  view.seat, decision.action)
        return Decision(legal[0], "my first choice was not allowed: I took my first legal move")
    return decision
