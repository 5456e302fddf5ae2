"""One client connection over a Trio stream: the reader and the writer; and the heartbeats of them all.

Two tasks per connection. The reader decodes
what arrives, asks the ``Lifecycle`` (the connection's state machine) what
each message calls for, and hands requests to the lobby one at a time, in
order. The writer drains a bounded queue of frames into the
stream, with a deadline per write. ``Heartbeats``, one task for the whole
server, keeps every connection's time: it pings a logged-in peer, says
goodbye to one silent past its deadline (no hello in time, or nothing heard
for ``idle_timeout``), and drops one whose write has taken ``send_timeout``
(it stopped reading), so neither the reader nor the writer makes a cancel
scope per read or write. Nothing else ever waits on this peer:
tables queue frames with ``send_frame``, which never blocks.

What a task waits in lives until it wakes: a connection waits most of the
time, so its waits, made again at each wake, would outlive the cycle
collector's young generations and fill its oldest, whose full passes then
hold up every move. Hence one task for every connection's heartbeat (a
task each would wait ten seconds between pings, in a cancel scope made
again each time), and the writer waiting on its queue with Trio's lowest
wait (``wait_task_rescheduled``) and an abort made once, not on a memory
channel, whose receive makes a closure and three coroutines each time. A
peer that lets its queue fill up, stops talking, floods, or breaks the protocol is told why in a
``goodbye`` (when it can still hear one) and dropped; its player keeps the
seat and can resume with the token.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import math
import random
from collections import deque

import trio
from hanabi.protocol import (
    HEADER,
    PROTOCOL_VERSION,
    SERVER_PROGRAM,
    Decoder,
    Encoder,
    ErrorCode,
    Goodbye,
    GoodbyeReason,
    Message,
    Ping,
    ProtocolError,
    Welcome,
)

from .admission import PerAddress
from .config import ServerConfig
from .lifecycle import Answer, Close, Handle, Lifecycle, Login, Phase, RateLimit, refusal
from .lobby import Lobby
from .session import SERVER_FAULT, Player, Refused, frame, unsendable
from .store import StoreFailure

log = logging.getLogger(__name__)

NOT_DUE = (math.inf, -1)  # a connection's time in ``Heartbeats`` while it has none


class Heartbeats:
    """The time of every connection of a server, kept by one task (``run``): each connection is looked at when
    its next ping or one of its deadlines is due (``Connection.beat``), and says when to look again. A connection
    may ask to be looked at sooner (``watch``): the time it asked for before is then let go."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Connection]] = []  # a heap: when, an order among equals, whose
        self._order = itertools.count()
        self._sleep: trio.CancelScope | None = None  # the task's wait, until the soonest time due

    def watch(self, conn: Connection, at: float) -> None:
        """Look at ``conn`` at ``at`` (trio time), instead of when it asked before."""
        self._push(conn, at)
        if self._sleep is not None and at < self._sleep.deadline:
            self._sleep.deadline = at

    def _push(self, conn: Connection, at: float) -> None:
        conn.due = (at, next(self._order))  # its one time in the heap: any other of its entries is stale
        heapq.heappush(self._due, (*conn.due, conn))

    async def run(self) -> None:
        while True:
            with trio.CancelScope(deadline=self._due[0][0] if self._due else math.inf) as self._sleep:
                await trio.sleep_forever()
            self._sleep = None
            self._look(trio.current_time())

    def _look(self, now: float) -> None:
        """Look at every connection due by ``now``. A function of its own, so that the last connection looked at
        is not kept by the task's wait until the next look (a closed one would outlive its use)."""
        while self._due and self._due[0][0] <= now:
            at, order, conn = heapq.heappop(self._due)
            if (at, order) != conn.due:
                continue  # it asked to be looked at sooner since (a write under way)
            conn.due = NOT_DUE
            try:
                again = conn.beat(now)
            except Exception:  # a bug of ours must cost one connection, not every connection's heartbeat
                log.exception("the heartbeat of %s failed", conn.peer)
                conn.abort()
                continue
            if again is not None:
                self._push(conn, again)


class Connection:
    def __init__(self, lobby: Lobby, stream: trio.abc.Stream, config: ServerConfig, peer: str, address: str | None,
                 bulk: RateLimit, by_address: PerAddress, *, heartbeats: Heartbeats) -> None:
        self.lobby = lobby
        self.stream = stream
        self.config = config
        self.peer = peer
        self.address = address or peer  # the peer's host, for the caps by address
        self._bulk = bulk  # the server's budget for decoding big reads, shared by every connection
        self._by_address = by_address  # the budget of messages of each address, shared by its connections
        self.player: Player | None = None
        self.life = Lifecycle(config, trio.current_time())
        # Frames waiting for the writer (at most ``outbound_frames``); ``_ended`` once nothing more will come. The
        # writer, while it waits for them, is ``_parked`` (``_unpark`` is its abort, made once: see the top).
        self._frames: deque[bytes] = deque()
        self._ended = False
        self._parked: trio.lowlevel.Task | None = None
        self._unpark = self._aborted
        self._decoder = Decoder(max_frame=config.max_inbound_frame, peer="client")
        self._read_size = HEADER.size + config.max_inbound_frame  # one read takes at most one frame at the cap
        # Sends each event of a game's history once on this connection (a view carries only what is new).
        self._encoder = Encoder(max_frame=config.max_frame)
        # When the peer must have been heard by (trio time), and what to tell it if not (``_too_late``): kept by
        # the reader, watched by ``beat``; ``_busy`` while the reader carries out what came (which is not
        # silence, however long).
        self._deadline = trio.current_time() + config.handshake_timeout
        self._too_late = f"no hello within {config.handshake_timeout:g} seconds"
        self._busy = False
        self._heartbeats = heartbeats
        self.due = NOT_DUE  # when ``Heartbeats`` looks at this connection next (and its place in the order)
        self._beating = False  # while the reader runs: ``beat`` then pings and watches the deadlines
        self._writing_since = math.inf  # when the write under way began (trio time; none: inf), watched by ``beat``
        # A random phase, so that connections opened together do not all ping in the same instant; still, the
        # first ping comes within ``ping_interval`` of the hello, as docs/protocol.md says.
        self._ping_at = trio.current_time() + config.ping_interval * random.uniform(0.5, 1.0)
        self._pings = 0
        self._reader_scope = trio.CancelScope()  # cancelled by close(): stop reading, flush, say goodbye
        # Cancelled to stop at once (too slow, or the server's last resort); in ``run``, the nursery's.
        self._scope = trio.CancelScope()

    @property
    def unwelcomed(self) -> bool:
        return self.player is None  # has not said hello (yet)

    # --- the outside's handle -----------------------------------------------------------------------------------

    def send_frame(self, data: bytes) -> None:
        """Queue a frame for the writer task without waiting; a peer whose queue is full is too slow and is
        dropped."""
        if not self.life.reading or self._ended:
            return
        if len(self._frames) >= self.config.outbound_frames:
            self.close(GoodbyeReason.TOO_SLOW, "you did not read what the server sent in time; reconnect to "
                                               "resume your seat", tell=False)
            return
        self._frames.append(data)
        self._wake_writer()

    def _wake_writer(self) -> None:
        writer, self._parked = self._parked, None
        if writer is not None:
            trio.lowlevel.reschedule(writer)

    def _aborted(self, _: object) -> trio.lowlevel.Abort:
        self._parked = None  # cancelled while waiting for frames
        return trio.lowlevel.Abort.SUCCEEDED

    def _queued(self) -> bytes:
        """What is queued, up to 64 frames: one write for what piled up, not one per frame."""
        frames = self._frames
        if len(frames) == 1:
            return frames.popleft()
        return b"".join(frames.popleft() for _ in range(min(64, len(frames))))

    def encode(self, message: Message) -> bytes:
        """The frame of ``message`` on this connection (a view sends only the events it has not sent yet); never
        raises. Send the frame: the peer's decoder counts on getting it."""
        try:
            return self._encoder.encode(message)
        except ProtocolError as error:
            return unsendable(message, error)

    def send(self, message: Message) -> None:
        self.send_frame(self.encode(message))

    def replaced(self) -> None:
        self.close(GoodbyeReason.REPLACED, "you connected again from elsewhere; this older connection is closed")

    def close(self, reason: GoodbyeReason, message: str, *, tell: bool = True) -> None:
        """Stop this connection. With ``tell``, what is queued and then a goodbye go out first (within the
        shutdown grace); without, it stops at once (a peer that does not read would not hear it anyway)."""
        if not self.life.close(reason, message, tell=tell):
            return
        if tell:
            self._reader_scope.cancel()
        else:
            self._scope.cancel()

    def abort(self) -> None:
        """Stop now, even in the middle of a write (the server's last resort when stopping)."""
        self.life.close(GoodbyeReason.SERVER_SHUTDOWN, "", tell=False)
        self._scope.cancel()

    # --- the tasks ----------------------------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            async with trio.open_nursery() as nursery:
                # The nursery's scope is the connection's from now on: one scope less, kept for the connection's
                # life (each is five tracked objects, see the top).
                if self._scope.cancel_called:  # stopped before it ran
                    nursery.cancel_scope.cancel()
                self._scope = nursery.cancel_scope
                nursery.start_soon(self._writer)
                self._beating = True
                self._heartbeats.watch(self, min(self._ping_at, self._deadline))
                try:
                    with self._reader_scope:
                        await self._reader()
                finally:
                    self._beating = False
                # The peer left (nothing to tell it); if the server was closing it already, its first reason stands.
                self.life.close(GoodbyeReason.CLIENT_QUIT, "", tell=False)
                # Done reading: the writer sends what is queued, then the goodbye, then stops; a peer that
                # does not take them within the grace is cut off.
                self._ended = True
                self._wake_writer()
                nursery.cancel_scope.deadline = trio.current_time() + self.config.shutdown_grace
        finally:
            # The writer's abort is a method of this connection kept on it, a cycle: let go of it now the writer
            # has stopped, so that the connection is freed once the heartbeat lets go of it, not by a collection.
            del self._unpark
            self.life.closed()
            if self.player is not None:
                self.lobby.disconnected(self.player, self, left=self.life.said_goodbye)
            name = self.player.name if self.player else "-"
            log.info("%s (%s) disconnected: %s", self.peer, name, self.life.why or "closed")
            await trio.aclose_forcefully(self.stream)

    async def _writer(self) -> None:
        while self._frames or not self._ended:
            if not self._frames:
                # Parked here, the writer holds nothing but this wait (see the top): no coroutine of ours below it.
                self._parked = trio.lowlevel.current_task()
                await trio.lowlevel.wait_task_rescheduled(self._unpark)
            else:
                # A write has ``send_timeout`` to finish, or the peer has stopped reading (its queue may not be
                # full): ``beat`` drops it then. A cancel scope per write (``move_on_after``) would be left in
                # Trio's heap of deadlines until pruned, about a second at a party's pace, long enough to reach
                # the collector's oldest generation: five an action.
                self._writing_since = now = trio.current_time()
                if self._beating and now + self.config.send_timeout < self.due[0]:  # the heartbeat would look too late
                    self._heartbeats.watch(self, now + self.config.send_timeout)
                await self._write(self._queued())
                self._writing_since = math.inf
        if self.life.farewell is not None:
            await self._write(frame(Goodbye(reason=str(self.life.farewell.reason),
                                            message=self.life.farewell.message)))

    async def _write(self, data: bytes) -> None:
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.life.close(GoodbyeReason.CLIENT_QUIT, "", tell=False)
            self.life.why = self.life.why or "connection lost"
            self._scope.cancel()  # the peer is gone: nothing more to read or write

    def beat(self, now: float) -> float | None:
        """What ``Heartbeats`` does at the time this connection asked for: ping a logged-in peer every
        ``ping_interval`` unless it was heard from within it, close the connection once the peer has been silent
        past its deadline (``_deadline``, which the reader moves on as it hears from the peer), and drop it once a
        write has taken ``send_timeout``. Returns when to look again, or None once the reader has stopped (no
        read has a deadline scope of its own: docs/performance.md, "The waits a connection keeps")."""
        if not self._beating:
            return None
        if now >= self._writing_since + self.config.send_timeout:
            self.close(GoodbyeReason.TOO_SLOW, "you did not read what the server sent in time", tell=False)
            return None
        if now >= self._deadline and not self._busy:
            self.close(GoodbyeReason.IDLE, self._too_late)
            return None
        if now >= self._ping_at:
            interval = self.config.ping_interval
            # A peer heard from within the interval is alive, and a ping would cost a wake of its writer and of its
            # reader for nothing; the first ping goes out anyway (docs/protocol.md promises it).
            heard = self._deadline - self.config.idle_timeout  # when the reader last moved the deadline on
            if self.life.phase is Phase.OPEN and (self._pings == 0 or now - heard >= interval):
                self._pings += 1
                self.send(Ping(n=self._pings))
            self._ping_at = now + interval
        # Past the deadline while the reader is busy: when done, it sets the next one, idle_timeout from then at
        # the soonest (or, for a hello too late, closes the connection itself). The deadline only ever moves
        # later, so looking at it when it was due is enough.
        return min(self._ping_at, self._deadline if self._deadline > now else now + self.config.idle_timeout,
                   self._writing_since + self.config.send_timeout)

    async def _reader(self) -> None:
        while self.life.reading:
            try:
                if isinstance(self.stream, trio.SocketStream):
                    # Parked here until the peer sends (most of a connection's life), the reader holds only the
                    # wait for its socket: parked inside ``receive_some``, it kept six more objects (the stream's
                    # and the socket's layers), made again at every read (see the top).
                    await trio.lowlevel.wait_readable(self.stream.socket)
                data = bytes(await self.stream.receive_some(self._read_size))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                # A reset (the peer's process died, or closed with unread data): gone, like a clean close.
                self.life.closed("connection lost (reset by the client)")
                return
            if not data:
                self.life.closed("the client closed the connection")
                return
            self._busy = True
            # Over its byte rate, a peer waits (and its next bytes wait in its socket). So does a big read when
            # the server's budget for them is spent: many peers decoding big frames at once would keep the
            # others waiting, while a move's frame is a few dozen bytes.
            now = trio.current_time()
            pause = self.life.read(len(data), now)
            if len(data) > self.config.bulk_read:
                pause = max(pause, self._bulk.take(now, len(data)))
            if pause:
                await trio.sleep(pause)
            await self._take(data)  # what it decoded is let go when it returns (nothing kept while idle)
            if not self.life.reading:
                return
            self._busy = False
            if self.life.phase is Phase.OPEN:
                self._deadline = trio.current_time() + self.config.idle_timeout
                self._too_late = f"nothing heard for {self.config.idle_timeout:g} seconds"
            elif trio.current_time() >= self._deadline:  # the hello's deadline passed while this was carried out
                self.close(GoodbyeReason.IDLE, self._too_late)
                return

    async def _take(self, data: bytes) -> None:
        for item in self._decoder.take(data):
            # Past its address's budget, a message waits its turn: the next read waits with it, so the bytes
            # behind it wait in the peer's socket. Nothing is refused: an honest machine's few messages a
            # second never wait, and a crowd of connections from one costs what one budget allows.
            pause = self._by_address.wait(self.address, trio.current_time())
            if pause:
                await trio.sleep(pause)
            step = self.life.receive(item, trio.current_time())
            if isinstance(step, Answer):
                self.send(step.message)
            elif isinstance(step, Close):
                self._reader_scope.cancel()
            elif isinstance(step, Login):
                await self._login(step)
            elif isinstance(step, Handle):
                await self._request(step.request)
            if not self.life.reading:
                return

    async def _login(self, step: Login) -> None:
        try:
            player, token, notice = await self.lobby.login(self, step.hello)
        except Refused as refused:  # the server is full, or the name: the peer may say hello again with another
            if refused.code == GoodbyeReason.SERVER_FULL:
                self.close(GoodbyeReason.SERVER_FULL, refused.message)
            else:
                self.send(refusal(step.hello, refused.code, refused.message))
            return
        except StoreFailure:
            self.send(refusal(step.hello, ErrorCode.INTERNAL, "the server could not save your login (its store "
                                                               "failed, not your fault): connect again in a moment"))
            self.life.close(GoodbyeReason.SERVER_SHUTDOWN, "", tell=False)
            self.life.why = "login not saved: the store failed"
            return
        self.player = player  # so that leaving lets go of it, even if this connection closed meanwhile
        if not self.life.logged_in():
            return  # closing meanwhile: what it says last is the goodbye (the seat waits, as for any drop)
        self.send(Welcome(protocol=PROTOCOL_VERSION, program=SERVER_PROGRAM, player=player.name, resume=token,
                          motd=self.config.motd))
        if notice is not None:
            self.send(refusal("hello", notice.code, notice.message))
        log.info("%s is %s", self.peer, player.name)
        self.lobby.arrived(player)

    async def _request(self, request: Message) -> None:
        player = self.player
        if player is None or player.conn is not self:
            # A newer connection took this player over: what this one still had queued is dropped, so two
            # connections never act for one player at once.
            return
        try:
            await self.lobby.handle(player, request)
        except Refused as refused:
            self.send(refusal(request, refused.code, refused.message))
        except Exception:  # a bug of ours must cost one request, not the connection or the server
            log.exception("request %r of %s failed", request, player.name)
            self.send(refusal(request, ErrorCode.INTERNAL, SERVER_FAULT))
