"""Running a server: open the store, bring back unfinished games, listen, and stop cleanly.

``serve`` is what the command line, the tests and the client's solo mode run in a Trio nursery
(``server = await nursery.start(serve, "127.0.0.1", 0, ":memory:")``, then ``await server.stop()``).
Stopping tells every client why (``goodbye``), lets the store commit what it was given, then closes.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field

import trio
from hanabi.protocol import Goodbye, GoodbyeReason, encode

from .admission import Door, PerAddress
from .announce import Counts
from .config import ServerConfig
from .connection import Connection, Heartbeats
from .lifecycle import RateLimit
from .lobby import Lobby
from .store import Store
from .table import Policy

log = logging.getLogger(__name__)


_TOO_MANY = encode(Goodbye(reason=str(GoodbyeReason.SERVER_FULL), message="too many connections from your "
                                                                          "address: try again in a few seconds"))


async def _turn_away(stream: trio.abc.Stream, goodbye: bytes) -> None:
    """Say ``goodbye`` (if the peer takes it at once) and close: a connection not let in."""
    with trio.move_on_after(0.5), contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await stream.send_all(goodbye)
    await trio.aclose_forcefully(stream)


@dataclass
class Server:
    """A running server. ``port`` is the port actually bound (useful after asking for port 0)."""

    host: str
    port: int
    lobby: Lobby
    store: Store
    restored: int  # unfinished games brought back from the store
    config: ServerConfig
    _connections: set[Connection] = field(default_factory=set)
    _door: Door[Connection] = field(init=False)
    _bulk: RateLimit = field(init=False)
    _by_address: PerAddress = field(init=False)  # the messages read from each address (``Connection._take``)
    _heartbeats: Heartbeats = field(default_factory=Heartbeats)  # every connection's pings and deadline
    _stop: trio.Event = field(default_factory=trio.Event)
    _stopped: trio.Event = field(default_factory=trio.Event)
    _all_left: trio.Event = field(default_factory=trio.Event)  # set when the last connection ends
    _stop_message: str = "the server is shutting down"

    async def handle(self, stream: trio.abc.Stream, peer: str = "?", address: str | None = None) -> None:
        """Serve one client on ``stream`` until it leaves (TCP, or an in-memory stream in tests); ``address``:
        where it comes from (the peer's host), for the caps on connections that have not said hello."""
        if self._stop.is_set():  # stopping: a newcomer would only hold the stop up, to be cut off without a word
            await _turn_away(stream, encode(Goodbye(reason=str(GoodbyeReason.SERVER_SHUTDOWN),
                                                    message=self._stop_message)))
            return
        if not self._door.knock(address or peer, trio.current_time()):
            await _turn_away(stream, _TOO_MANY)
            return
        conn = Connection(self.lobby, stream, self.config, peer, address, self._bulk, self._by_address,
                          heartbeats=self._heartbeats)
        for older in self._door.arrive(conn, conn.address):
            log.info("%s gave way to %s: it had not said hello", older.peer, peer)
            older.close(GoodbyeReason.SERVER_FULL, "the server takes only so many connections that have not said "
                                                   "hello, and newer ones came: connect again and say hello at once")
        self._connections.add(conn)
        try:
            await conn.run()
        except Exception:  # never let one connection's failure reach the listener and stop the server
            log.exception("connection %s failed", peer)
        finally:
            self._door.left(conn)
            self._connections.discard(conn)
            if not self._connections:
                self._all_left.set()

    async def _handle_tcp(self, stream: trio.SocketStream) -> None:
        try:
            host, port, *_ = stream.socket.getpeername()
            peer = f"{host}:{port}"
        except OSError:
            host, peer = "?", "?"
        await self.handle(stream, peer, host)

    def __post_init__(self) -> None:
        self._door = Door(self.config)
        self._bulk = RateLimit(self.config.bulk_rate, 4 * self.config.max_inbound_frame, trio.current_time())
        self._by_address = PerAddress(self.config.address_rate, self.config.address_burst)

    # What the LAN announcement (announce.py) says about this server.
    def counts(self) -> Counts:
        return Counts(tables=len(self.lobby.tables), players=len(self.lobby.online))

    def request_stop(self, message: str) -> None:
        """Like ``stop``, without waiting for it."""
        self._stop_message = message
        self._stop.set()

    async def stop(self, message: str = "the server is shutting down") -> None:
        """Say goodbye to every client, then stop serving. Returns once the server has stopped."""
        self.request_stop(message)
        await self._stopped.wait()

    async def _wait_for_stop(self, cancel: trio.CancelScope) -> None:
        await self._stop.wait()
        self._all_left = trio.Event()  # not an earlier moment when nobody was connected
        for conn in list(self._connections):
            conn.close(GoodbyeReason.SERVER_SHUTDOWN, self._stop_message)
        with trio.move_on_after(self.config.shutdown_grace + 0.5):
            if self._connections:
                await self._all_left.wait()
        for conn in list(self._connections):
            conn.abort()
        cancel.cancel()


async def serve(host: str | None, port: int, db: str = ":memory:", *, config: ServerConfig | None = None,
                policy: Policy | None = None, task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve on ``host`` (None: every interface) and ``port`` (0: any free) with the store at ``db``; returns after
    ``Server.stop()`` or when cancelled, once every write the store was given is committed."""
    config = config or ServerConfig()
    server: Server | None = None
    store = Store(db)
    await trio.to_thread.run_sync(store.open_sync, True)  # exclusive: the one server on this store
    try:
        async with trio.open_nursery() as outer:
            await outer.start(store.run)
            try:
                async with trio.open_nursery() as nursery:
                    lobby = Lobby(store, config, nursery, policy)
                    restored = await lobby.restore()
                    listeners = await trio.open_tcp_listeners(port, host=host)
                    bound = listeners[0].socket.getsockname()[1]
                    server = Server(host or "*", bound, lobby, store, restored, config)
                    nursery.start_soon(server._wait_for_stop, nursery.cancel_scope)
                    nursery.start_soon(server._heartbeats.run)
                    nursery.start_soon(trio.serve_listeners, server._handle_tcp, listeners)
                    task_status.started(server)
            finally:
                # Every table and connection has stopped: the store commits what it was given, then stops.
                store.stop()
    finally:
        store.close_sync()
        if server is not None:
            server._stopped.set()
