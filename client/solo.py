"""``hanabi-client --solo``: a private server inside the client, a table full of bots, and straight to the game.

The server is the real one (``hanabi.server.serve``) on loopback, on a free
port, with a throwaway in-memory store; the client talks to it over TCP like
any other. Once the handshake is done we create a table, seat a bot in every
other seat and start, so the first screen the player sees is the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import trio
from hanabi.engine import ChatPolicy, Variant
from hanabi.protocol import TABLE_NAME_MAX
from hanabi.protocol.messages import AddBot, CreateTable, Start

from .runner import ModelStore
from .session import Address, Session

SOLO_BOT_DELAY = 0.6  # seconds: long enough to follow what the bots do


@dataclass(frozen=True, slots=True)
class Solo:
    """A ``--solo`` game as asked for on the command line."""

    players: int
    variant: Variant
    bot_delay: float = SOLO_BOT_DELAY


def table_setup(name: str, players: int, variant: Variant) -> Callable[[Session, bool], Awaitable[None]]:
    """What to send once connected: a table of ``players`` seats, bots in all but ours, and start."""

    async def set_up(session: Session, resumed: bool) -> None:
        if resumed:
            return  # after a reconnection the server puts us back in the game we already have
        # Chat is always open: at a private table there is no one to hint to but bots.
        title = f"{name}'s solo game"[:TABLE_NAME_MAX]
        await session.request(CreateTable(title, variant, players, chat=ChatPolicy.ALWAYS))
        for seat in range(1, players):
            await session.request(AddBot(seat))
        await session.request(Start())

    return set_up


async def run_solo(name: str, players: int, variant: Variant, store: ModelStore, box: list[Session],
                   bot_delay: float = SOLO_BOT_DELAY) -> None:
    from hanabi.server.app import serve
    from hanabi.server.config import ServerConfig

    async with trio.open_nursery() as nursery:
        server = await nursery.start(lambda task_status: serve(
            "127.0.0.1", 0, ":memory:", config=ServerConfig(bot_delay=bot_delay), task_status=task_status))
        session = Session(Address("127.0.0.1", server.port), name, store.get, store.dispatch,
                          on_welcome=table_setup(name, players, variant))
        box.append(session)
        await session.run()
        nursery.cancel_scope.cancel()
