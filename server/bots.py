"""Bots' seats: what a bot sees and how long it waits before acting.

A bot is a pure function from its seat's ``PlayerView`` (the same redacted
view a human gets, so a bot cannot cheat) to a turn action. The server only
decides *when* a bot acts: after a short delay, so humans can follow, and in
a worker thread, so a slow bot never stalls the event loop.
"""

from __future__ import annotations

from collections.abc import Callable

import trio
from hanabi.engine import PlayerView, TurnAction

Policy = Callable[[PlayerView], TurnAction]


def _first_legal(view: PlayerView) -> TurnAction:
    """The fallback bot: the first legal action. Used only if ``hanabi.engine.bots`` is missing."""
    actions = view.legal_actions()
    if not actions:
        raise ValueError("the bot has no legal action: it is not its turn or the game is over")
    return actions[0]


def default_policy() -> Policy:
    """The engine's bot when it exists; the first legal action otherwise."""
    try:
        from hanabi.engine.bots import choose_action  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return _first_legal
    return choose_action  # type: ignore[no-any-return,unused-ignore]


BOT_NAMES = ("Bot Ada", "Bot Basil", "Bot Cleo", "Bot Dex", "Bot Eve")


async def decide(policy: Policy, view: PlayerView, delay: float) -> TurnAction:
    """Wait ``delay`` seconds, then let the bot choose, off the event loop."""
    if delay > 0:
        await trio.sleep(delay)
    return await trio.to_thread.run_sync(policy, view)
