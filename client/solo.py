"""A server inside the client: ``--solo`` (a private one, full of bots) and ``--serve`` (a LAN server).

This is the one module of the client that imports ``hanabi.server``.

``--solo``: the server is the real one (``hanabi.server.serve``) on loopback,
on a free port, with a throwaway in-memory store; the client talks to it over
TCP like any other. Once the handshake is done we create a table, seat a bot
in every other seat and start, so the first screen the player sees is the game.

``--serve``: the same server on every interface, on port 7777 or the next free
one, its games kept in the user's data folder, announced on the LAN
(``hanabi.server.announce``); the client joins it like any player and opens
its lobby. When the client quits, the server stops after telling everyone the
host stopped it.
"""

from __future__ import annotations

import errno
import functools
import logging
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import trio
from hanabi.engine import TIME_BASE, TIME_PER_TURN, ChatPolicy, Variant
from hanabi.engine.bots import Level
from hanabi.protocol import DEFAULT_PORT, TABLE_NAME_MAX
from hanabi.protocol.messages import AddBot, CreateTable, Start

from .arguments import SOLO_BOT_DELAY
from .model import Note
from .runner import ModelStore
from .session import Address, Session
from .tokens import TokenStore

if TYPE_CHECKING:
    from hanabi.server.app import Server


@dataclass(frozen=True, slots=True)
class Solo:
    """A ``--solo`` game as asked for on the command line."""

    players: int
    variant: Variant
    bot_delay: float = SOLO_BOT_DELAY
    timer: tuple[int, int] | None = None  # --clock: (seconds to start with, seconds added after each move)
    level: Level | None = None  # the bots' convention level; None: the server's default (beginner beside a person)


def table_setup(name: str, players: int, variant: Variant, timer: tuple[int, int] | None = None,
                level: Level | None = None) -> Callable[[Session, bool], Awaitable[None]]:
    """What to send once connected: a table of ``players`` seats, bots in all but ours, and start. A solo table
    gives advice (``a``): there is no one else whose scores it could make look worse."""

    async def set_up(session: Session, resumed: bool) -> None:
        if resumed:
            return  # after a reconnection the server puts us back in the game we already have
        # Chat is always open: at a private table there is no one to hint to but bots.
        title = f"{name}'s solo game"[:TABLE_NAME_MAX]
        base, bonus = timer if timer is not None else (TIME_BASE, TIME_PER_TURN)
        await session.request(CreateTable(title, variant, players, chat=ChatPolicy.ALWAYS, timed=timer is not None,
                                          time_base=base, time_per_turn=bonus, level=level, advice=True))
        for seat in range(1, players):
            await session.request(AddBot(seat))
        await session.request(Start())

    return set_up


async def run_solo(name: str, players: int, variant: Variant, store: ModelStore, box: list[Session],
                   bot_delay: float = SOLO_BOT_DELAY, timer: tuple[int, int] | None = None,
                   level: Level | None = None) -> None:
    from hanabi.server.app import serve
    from hanabi.server.config import ServerConfig

    async with trio.open_nursery() as nursery:
        server = await nursery.start(lambda task_status: serve(
            "127.0.0.1", 0, ":memory:", config=ServerConfig(bot_delay=bot_delay), task_status=task_status))
        session = Session(Address("127.0.0.1", server.port), name, store.get, store.dispatch, shown_as="solo",
                          on_welcome=table_setup(name, players, variant, timer, level))
        box.append(session)
        await session.run()
        nursery.cancel_scope.cancel()


HOSTED_PORT = DEFAULT_PORT  # the port players expect; the next free one when it is taken
_PORTS_TRIED = 20
HOSTED_STOP_GRACE = 5.0  # seconds: the most that telling everyone and stopping may take when the host quits
HOST_STOPPED = "the host stopped this server (they quit their hanabi-client --serve)"


class HostingError(Exception):
    """The server could not be started (no free port, the store cannot be opened): one sentence why."""


def free_port(first: int = HOSTED_PORT, tries: int = _PORTS_TRIED) -> int:
    """The first port from ``first`` on which every interface can be listened on."""
    for port in range(first, first + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server's listener does
            try:
                probe.bind(("", port))
            except OSError as e:
                if e.errno in (errno.EADDRINUSE, errno.EACCES):
                    continue
                raise HostingError(f"cannot listen on port {port}: {e.strerror or e}") from None
            return port
    raise HostingError(f"ports {first} to {first + tries - 1} are all in use: stop another server first")


def hosted_db() -> Path:
    """Where a hosting client keeps its games: the user's data folder, beside (not in) hanabi-server's store,
    so a client hosting and a hanabi-server on the same machine never share unfinished games."""
    from hanabi.server.cli import default_db

    return default_db().with_name("hosted.sqlite3")


async def run_hosted(name: str, lan_name: str, store: ModelStore, box: list[Session], *, port: int | None = None,
                     db: str | None = None, on_welcome: Callable[[Session, bool], Awaitable[None]] | None = None,
                     started: Callable[[int], None] | None = None) -> None:
    """``--serve``: a LAN server announced as ``lan_name``, joined by this client as ``name``. Returns (the
    server stopped, everyone told) when cancelled, that is when the client quits. ``started`` gets the port;
    ``HostingError`` says why the server could not start."""
    from hanabi.server.app import serve

    port = free_port() if port is None else port
    db = str(hosted_db()) if db is None else db
    serving = trio.CancelScope(shield=True)

    async def shielded(task_status: trio.TaskStatus[Server]) -> None:
        # The client quitting cancels everything here at once; the server must outlive that long enough to
        # say goodbye to its players, so it is stopped on purpose (in _host) rather than cancelled.
        with serving:
            await serve(None, port, db, task_status=task_status)

    failed: str | None = None
    async with trio.open_nursery() as nursery:
        try:
            server: Server = await nursery.start(shielded)
        except Exception as e:  # OSError or StoreError, inside the groups of serve's nurseries
            failed = _why_not_started(e)
        else:
            if started is not None:
                started(server.port)
            await _host(server, serving, name, lan_name, store, box, on_welcome)
            nursery.cancel_scope.cancel()
    if failed is not None:  # raised out here: inside the nursery it would come out wrapped in a group
        raise HostingError(f"could not start the server on port {port}: {failed}")


def _why_not_started(error: BaseException) -> str:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "the port is in use (another server?)"
    return (error.strerror if isinstance(error, OSError) else None) or str(error) or type(error).__name__


async def _host(server: Server, serving: trio.CancelScope, name: str, lan_name: str, store: ModelStore,
                box: list[Session], on_welcome: Callable[[Session, bool], Awaitable[None]] | None) -> None:
    """Announce ``server`` and play on it until cancelled; then stop it, telling everyone the host did."""
    from hanabi.server.announce import announce

    async def announce_and_say() -> None:
        async with trio.open_nursery() as inner:
            announced = await inner.start(functools.partial(announce, lan_name, None, server.port, server.counts))
            if announced is None:
                store.dispatch(Note(f"Could not announce {lan_name!r} on this network: players connect by "
                                    f"address, port {server.port}", True))
            else:
                store.dispatch(Note(f"Hosting {announced.name!r} on port {server.port}: players on this "
                                    "network find it in hanabi-client's list"))

    for logger in ("hanabi.server", "zeroconf"):
        # Their lines would be written over the full-screen app; what the host must know is said above.
        logging.getLogger(logger).addHandler(logging.NullHandler())
    address = Address("127.0.0.1", server.port)
    session = Session(address, name, store.get, store.dispatch, tokens=TokenStore(f"{name}@{address}"),
                      on_welcome=on_welcome)
    box.append(session)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(announce_and_say)
        try:
            await session.run()
        finally:
            with trio.CancelScope(shield=True):
                with trio.move_on_after(HOSTED_STOP_GRACE):
                    await server.stop(HOST_STOPPED)
                serving.cancel()  # stopped by now, or stuck: either way it ends here
            nursery.cancel_scope.cancel()
