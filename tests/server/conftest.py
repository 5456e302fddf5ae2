"""Shared fixtures of the server tests: a fast server in the test's nursery and protocol-speaking clients.

``connect()`` gives a client over an in-memory stream (no socket);
``tcp_connect()`` one over real loopback TCP. A client records every frame
it receives, raw and decoded, so tests can look at exactly what was sent.

Tests wait for what they expect, never for time to pass: a message
(``expect``), the server having nothing left to do (``settle``, on virtual
time over in-memory streams), everything sent so far (``flush``, TCP too),
a condition (``eventually``). On virtual time (``virtual_time``, see
tests/conftest.py) ``listen(s)`` lets ``s`` of the server's clock pass.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

import msgpack
import pytest
import trio
import trio.testing
from hanabi.protocol.framing import Decoder, encode
from hanabi.protocol.messages import Hello, Message, Ping, Pong, Welcome
from hanabi.protocol.transport import HEADER
from hanabi.protocol.version import PROTOCOL_VERSION
from hanabi.server import Server, ServerConfig, serve

M = TypeVar("M")

# How long a test waits for a message it expects before it fails: only a bound that stops a hung test, never a
# measure of speed. Generous, because the suite must pass on a machine busy with other work (load 20 on 2 cores
# has been seen to hold a reply for seconds).
PATIENCE = 15.0

# The server of most tests: no bot delay, short intervals. Its idle and send timeouts are long, because on a busy
# machine a client of the test can go seconds without a turn to read: dropped as idle, it left a game waiting for
# it until the test's bound ran out (seen at load 15-20 under coverage). No rate limit: a test plays whole games as
# fast as it can send, and a quick server let one exceed 20 requests a second. Tests of those limits set their own.
FAST = ServerConfig(bot_delay=0.0, handshake_timeout=2.0, ping_interval=0.5, idle_timeout=60.0, send_timeout=30.0,
                    shutdown_grace=0.5, lobby_interval=0.05, rate=10_000.0, burst=10_000, address_rate=10_000.0,
                    address_burst=10_000)


class Client:
    """A test client: sends messages, collects what arrives, answers pings (unless told to be silent)."""

    def __init__(self, stream: trio.abc.Stream, name: str = "?") -> None:
        self.stream = stream
        self.name = name
        self.decoder = Decoder(peer="server")
        self.inbox: list[Any] = []  # decoded messages not yet taken by expect()
        self.seen: list[Any] = []  # every decoded message, in order
        self.raw: list[bytes] = []  # every frame body as received
        self.trees: list[dict[str, Any]] = []  # every frame as a plain msgpack tree
        self.closed = False
        self.answer_pings = True
        self._buffer = bytearray()
        self._flushes = 0

    async def send(self, message: Message) -> None:
        await self.stream.send_all(encode(message))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def _pump(self) -> None:
        data = await self.stream.receive_some(65536)
        if not data:
            self.closed = True
            raise EOFError(f"{self.name}: the server closed the connection")
        self._buffer += data
        while len(self._buffer) >= 4:
            (length,) = HEADER.unpack_from(self._buffer)
            if len(self._buffer) < 4 + length:
                break
            body = bytes(self._buffer[4:4 + length])
            del self._buffer[:4 + length]
            self.raw.append(body)
            self.trees.append(msgpack.unpackb(body))
        pongs: list[Pong] = []
        for message in self.decoder.feed(data):
            self.seen.append(message)
            if isinstance(message, Ping) and self.answer_pings:
                pongs.append(Pong(n=message.n))
            if isinstance(message, (Ping, Pong)):
                continue
            self.inbox.append(message)
        # Answered once every message of this read is kept, and shielded: a deadline (``listen``'s) cancelling the
        # send at its checkpoint lost the messages read after the ping, a view among them, and the game waited
        # for a move no one was shown (play_out ran into its 120 s bound on a loaded machine).
        with trio.CancelScope(shield=True):
            for pong in pongs:
                await self.send(pong)

    async def expect(self, kind: type[M], timeout: float = PATIENCE, where: Callable[[M], bool] | None = None) -> M:
        """The first message of ``kind`` (matching ``where``), skipping (and keeping) others."""
        try:
            with trio.fail_after(timeout):
                while True:
                    for i, message in enumerate(self.inbox):
                        if isinstance(message, kind) and (where is None or where(message)):
                            del self.inbox[i]
                            return message
                    await self._pump()
        except trio.TooSlowError:
            wanted = kind.__name__ + ("" if where is None else " matching the test's condition")
            raise AssertionError(f"{self.name} waited {timeout} s for a {wanted}; it holds "
                                 f"{[type(m).__name__ for m in self.inbox]}") from None

    async def expect_closed(self, timeout: float = PATIENCE) -> None:
        try:
            with trio.fail_after(timeout):
                try:
                    while True:
                        await self._pump()
                except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                    return
        except trio.TooSlowError:
            raise AssertionError(f"{self.name} waited {timeout} s for the server to close the connection") from None

    async def flush(self, timeout: float = PATIENCE) -> None:
        """Read everything the server sent before now, by a condition rather than a wait: the server answers a
        ping in order with what it queued for this connection, so its pong comes after all of that."""
        self._flushes += 1
        n = 1_000_000 + self._flushes  # apart from the numbers the server's own pings carry
        await self.send(Ping(n=n))
        try:
            with trio.fail_after(timeout):
                while not any(isinstance(m, Pong) and m.n == n for m in self.seen):
                    await self._pump()
        except trio.TooSlowError:
            raise AssertionError(f"{self.name} waited {timeout} s for the answer to its ping") from None

    async def listen(self, seconds: float) -> None:
        """Read (answering pings) while ``seconds`` of the test's clock pass: for a test on virtual time, where
        the server's timers fire meanwhile and no real time goes by. What arrives goes to the inbox."""
        assert isinstance(trio.lowlevel.current_clock(), trio.testing.MockClock), (
            "listen() lets time pass: on the real clock, wait for a message or a state instead")
        with trio.move_on_after(seconds):
            while True:
                await self._pump()

    async def settle(self) -> None:
        """Take in everything the server sends until it has nothing left to do without time passing.

        For a test on virtual time over in-memory streams: once every task waits, all the server had to say is
        in the stream, and no time has passed (a task waiting for all to be blocked holds the autojump back)."""
        await settle(self)

    def take(self, kind: type[M]) -> list[M]:
        found = [m for m in self.inbox if isinstance(m, kind)]
        self.inbox = [m for m in self.inbox if not isinstance(m, kind)]
        return found

    async def hello(self, name: str, resume: str | None = None) -> Welcome:
        await self.send(Hello(protocol=PROTOCOL_VERSION, program="test-client", name=name, resume=resume))
        return await self.expect(Welcome)



async def read_any(clients: Iterable[Client]) -> None:
    """Wait until any of ``clients`` has read from the server (what it read goes to its inbox, pings answered).

    For a loop over several clients: waiting on all at once wakes it as soon as one hears something, where a
    read of each client in turn would wait on a quiet one."""

    async def read(client: Client, done: trio.CancelScope) -> None:
        await client._pump()  # a cancelled read loses nothing: Trio's receive takes no data when cancelled
        done.cancel()

    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(read, client, nursery.cancel_scope)

async def settle(*clients: Client) -> None:
    """``Client.settle`` for several clients at once (on virtual time, over in-memory streams)."""
    async def read_on(client: Client) -> None:
        while True:
            await client._pump()

    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(read_on, client)
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()


async def eventually(check: Callable[[], bool | Awaitable[bool]], what: str, within: float = PATIENCE,
                     every: float = 0.01) -> None:
    """Wait until ``check()`` holds, looking every ``every`` s of the test's clock; fail naming ``what`` if it
    does not within ``within`` s. On virtual time the looks cost no real time."""
    with trio.move_on_after(within):
        while True:
            result = check()
            if not isinstance(result, bool):
                result = await result
            if result:
                return
            await trio.sleep(every)
    raise AssertionError(f"waited {within} s for {what}")


Connect = Callable[..., Awaitable[Client]]


@pytest.fixture
def fast_config() -> ServerConfig:
    return FAST


@pytest.fixture
async def server(nursery: trio.Nursery, fast_config: ServerConfig) -> AsyncIterator[Server]:
    started: Server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=fast_config,
                                                                     task_status=task_status))
    yield started


async def memory_client(server: Server, nursery: trio.Nursery, name: str, *, resume: str | None = None,
                        address: str | None = None) -> Client:
    """A logged-in client of ``server`` (started by the test itself) over an in-memory stream, from ``address``."""
    ours, theirs = trio.testing.memory_stream_pair()
    if address is None:
        nursery.start_soon(server.handle, theirs, f"memory:{name}")
    else:
        nursery.start_soon(server.handle, theirs, f"{address}:{name}", address)
    client = Client(ours, name)
    welcome = await client.hello(name, resume)
    client.token = welcome.resume  # type: ignore[attr-defined]
    client.player = welcome.player  # type: ignore[attr-defined]
    return client


@pytest.fixture
def connect(server: Server, nursery: trio.Nursery) -> Connect:
    """A logged-in client over an in-memory stream (``hello=False`` for a bare one)."""

    async def make(name: str = "Alice", *, hello: bool = True, resume: str | None = None,
                   lockstep: bool = False) -> Client:
        pair = trio.testing.lockstep_stream_pair() if lockstep else trio.testing.memory_stream_pair()
        ours, theirs = pair
        nursery.start_soon(server.handle, theirs, f"memory:{name}")
        client = Client(ours, name)
        if hello:
            welcome = await client.hello(name, resume)
            client.token = welcome.resume  # type: ignore[attr-defined]
            client.player = welcome.player  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def tcp_connect(server: Server) -> Connect:
    async def make(name: str = "Alice", *, hello: bool = True, resume: str | None = None) -> Client:
        assert not isinstance(trio.lowlevel.current_clock(), trio.testing.MockClock), (
            "real TCP on virtual time: the clock would jump while bytes cross the loopback; mark the test real_time")
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
        client = Client(stream, name)
        if hello:
            welcome = await client.hello(name, resume)
            client.token = welcome.resume  # type: ignore[attr-defined]
        return client

    return make


def config_with(**changes: Any) -> ServerConfig:
    return replace(FAST, **changes)


async def alone_with_bots(connect: Connect, seats: int = 2) -> tuple[Client, Any]:
    """Alice at a new table of ``seats``, every other seat a bot, the game started: her client and first view."""
    from hanabi.protocol.messages import AddBot, CreateTable, Joined, Start, ViewUpdate

    alice = await connect("Alice")
    await alice.send(CreateTable(name="t", seats=seats))
    await alice.expect(Joined)
    for seat in range(1, seats):
        await alice.send(AddBot(seat=seat))
    await alice.send(Start())
    return alice, (await alice.expect(ViewUpdate)).view
