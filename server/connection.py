"""One client connection: handshake, reading with deadlines, a bounded outbound queue, heartbeats, rate limit.

Three tasks per connection: the reader (decode, check the rate, hand each
request to the lobby and wait for it), the writer (drain the outbound queue
into the socket, with a deadline per write) and the heartbeat (a ping every
few seconds, so a silent peer is noticed). Nothing else ever waits on this
peer: tables queue frames with ``send_frame``, which never blocks. A peer
that lets its queue fill up, stops talking, floods, or breaks the protocol
is told why in a ``goodbye`` (when it can still hear one) and dropped; its
player keeps the seat and can resume with the token.
"""

from __future__ import annotations

import logging
import math
import os
import random
from collections import deque
from dataclasses import dataclass

import trio

from . import wire
from .config import PROGRAM, ServerConfig
from .handoff import Reply
from .lobby import Lobby
from .session import Player, Refused, Transfer
from .store import StoreFailure

log = logging.getLogger(__name__)
E = wire.ErrorCode
_DEADLINE_SLACK = 1.0  # seconds an idle deadline may run late, to move it less often (see _next)
G = wire.GoodbyeReason


class RateLimit:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = trio.current_time()

    def allow(self) -> bool:
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _goodbye(reason: str, message: str) -> bytes:
    return wire.frame(wire.Goodbye(reason=str(reason), message=message[:500]))


@dataclass(frozen=True, slots=True)
class Adopted:
    """A connection another process of this server handed over (``shard``): whose it is, the bytes it had read
    and not handled, and whether the player was just welcomed back (give them their seat and view)."""

    key: str
    name: str
    unread: bytes
    resumed: bool
    tokens: float  # what was left of the rate limit, and the requests refused in a row: a move must not reset them
    refused: int


class Connection:
    def __init__(self, lobby: Lobby, stream: trio.abc.Stream, config: ServerConfig, peer: str = "?",
                 adopted: Adopted | None = None) -> None:
        self.lobby = lobby
        self.stream = stream
        self.config = config
        self.peer = peer
        self.player: Player | None = None
        self._out_send, self._out_receive = trio.open_memory_channel[bytes](config.outbound_frames)
        self._decoder = wire.Decoder(max_frame=config.max_frame, peer="client")
        # Sends each event of a game's history once on this connection (a view carries only what is new).
        self._encoder = wire.Encoder(max_frame=config.max_frame)
        self._pending: deque[wire.Message | wire.ProtocolError] = deque()
        self._handed: Reply | None = None  # a request a table has yet to finish (see hand_over)
        self._limit = RateLimit(config.rate, config.burst)
        self._refused_in_a_row = 0
        self._scope = trio.CancelScope()  # cancelled to stop at once (too slow, or the server's last resort)
        self._reader_scope = trio.CancelScope()  # cancelled by close(): stop reading, flush, say goodbye
        self._idle = trio.CancelScope()  # its deadline is when the peer counts as silent
        self._idle_why = ""
        self._closing = False
        self._farewell: bytes | None = None  # the goodbye to send last, if the peer can still hear one
        self._writing = False  # the writer is in the middle of a write (frames must wait their turn behind it)
        self._queued = 0  # frames in the outbound queue
        # A TCP stream's socket, for writing at once when it can take a frame (see send_frame).
        self._fd: int | None = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else None
        self.why: str = ""
        self._adopted = adopted
        self._transfer: Transfer | None = None  # set: this connection moves to another process once drained
        self._reading = False  # waiting for the peer's bytes (nothing taken from the socket is in hand)
        self._drained = False  # the writer sent everything queued, and stopped

    # --- the outside's handle -----------------------------------------------------------------------------------

    def send_frame(self, frame: bytes) -> None:
        """Queue a frame without waiting; a peer whose queue is full is too slow and is dropped.

        When nothing is queued or being written (so frames keep their order), the frame is first handed to the
        kernel at once: most fit in the socket's buffer, and this skips a task switch and a trip through the
        writer per frame, which the load test showed to be a fifth of the server's time. What the socket does
        not take is queued for the writer (after an error too: the writer meets it again and ends the
        connection the usual way)."""
        if self._closing:
            return
        fd = self._fd
        if fd is not None and not self._writing and self._queued == 0:
            try:
                sent = os.write(fd, frame)
            except OSError:  # a full buffer (BlockingIOError), or a broken connection
                sent = 0
            if sent == len(frame):
                return
            frame = frame[sent:]
        try:
            self._out_send.send_nowait(frame)
            self._queued += 1
        except trio.WouldBlock:
            self.close(G.TOO_SLOW, "you did not read what the server sent in time; reconnect to resume your seat",
                       tell=False)

    def encode(self, message: wire.Message) -> bytes:
        """The frame of ``message`` on this connection (a view sends only the events it has not sent yet);
        never raises (see ``wire.frame``, whose work this does without the extra call). Send the frame: the
        peer's decoder counts on getting it."""
        try:
            return self._encoder.encode(message)
        except wire.ProtocolError as error:
            return wire.safely(message, error)

    def send(self, message: wire.Message) -> None:
        self.send_frame(self.encode(message))

    def hand_over(self, request: Reply) -> None:
        """A request of this connection that its table finishes later (a move): the reader goes back to
        reading at once, and waits for it before it takes the next request (``_settle``)."""
        self._handed = request

    def refused(self, request: object, refusal: Refused) -> None:
        """A handed-over request was refused: the error goes out now, before any reply to a later request."""
        self._error(request, refusal)

    async def _settle(self) -> None:
        """Wait until the request handed over last is done: one request at a time, answered in order."""
        handed, self._handed = self._handed, None
        if handed is not None and not handed.finished:
            await handed.wait()

    def replaced(self) -> None:
        why = "you connected again from elsewhere; this older connection is closed"
        if self._transfer is not None:
            # Stopped reading to move to another process, and replaced meanwhile: it must not move (it would act
            # for the player beside the newer connection); it says goodbye once what is queued has gone out.
            self._transfer.abandoned()
            self._transfer = None
            self.why = str(G.REPLACED)
            self._farewell = _goodbye(G.REPLACED, why)
            return
        self.close(G.REPLACED, why)

    def transfer(self, move: Transfer) -> None:
        """Move this connection to another process (its player is at none of this process's tables any more)
        once it is not in the middle of a request; a request in progress may change that (see ``_conversation``)."""
        if self._closing or self._transfer is not None or self._fd is None:
            return
        self._transfer = move
        if self._reading:
            self._reader_scope.cancel()  # waiting for the peer: nothing read is lost by stopping the wait

    def close(self, reason: str, message: str, *, tell: bool = True) -> None:
        """Stop this connection. With ``tell``, what is queued and then a goodbye go out first (within the
        shutdown grace); without, it stops at once (a peer that does not read would not hear it anyway)."""
        if self._closing:
            return
        self._closing = True
        self.why = str(reason)
        if tell:
            self._farewell = _goodbye(reason, message)
            self._reader_scope.cancel()
        else:
            self._scope.cancel()

    def abort(self) -> None:
        """Stop now, even in the middle of a write (the server's last resort when stopping)."""
        self._closing = True
        self._scope.cancel()

    # --- the tasks ----------------------------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    watch = trio.CancelScope()
                    nursery.start_soon(self._watchdog, watch)
                    with self._reader_scope:
                        await self._reader()
                    # Done reading (the peer left, or close()): the writer sends what is queued, then the
                    # goodbye, then stops; a peer that does not take them within the grace is cut off.
                    self._closing = True
                    watch.cancel()
                    self._out_send.close()
                    nursery.cancel_scope.deadline = trio.current_time() + self.config.shutdown_grace
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.why = self.why or "connection lost"
        finally:
            self._closing = True
            if self._move():
                log.debug("%s (%s) transferred to another process", self.peer, self.player.name if self.player else "-")
            else:
                if self.player is not None:
                    self.lobby.disconnected(self.player, self)
                await trio.aclose_forcefully(self.stream)
                log.info("%s (%s) disconnected: %s", self.peer, self.player.name if self.player else "-",
                         self.why or "closed")

    def _move(self) -> bool:
        """Hand the socket over (see ``Transfer``) if a move was asked for and everything queued went out."""
        move, player = self._transfer, self.player
        if move is None:
            return False
        if not self._drained or player is None or not isinstance(self.stream, trio.SocketStream):
            move.abandoned()
            return False
        if player.conn is not self:
            move.abandoned()
            return False  # replaced by a newer connection while draining: only that one may act for the player
        # What was read and not handled goes along: the request that caused the move, the requests decoded
        # after it, and the start of a frame not yet whole.
        unread = [wire.encode(move.request)] if move.request is not None else []
        unread += [wire.encode(m) for m in self._pending if isinstance(m, wire.Message)]
        unread.append(self._decoder.take_unread())
        sock = self.stream.socket
        trio.lowlevel.notify_closing(sock)
        try:
            fd = sock.detach()
        except OSError:
            return False
        move.move(player, fd, b"".join(unread), move.resumed, self._limit.tokens, self._refused_in_a_row)
        return True

    async def _writer(self) -> None:
        try:
            async for frame in self._out_receive:
                frames = [frame]
                while len(frames) < 64:  # one write for what piled up, not one per frame
                    try:
                        frames.append(self._out_receive.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                self._queued -= len(frames)
                self._writing = True
                # A peer whose socket takes nothing for so long has stopped reading (its queue may not be full).
                with trio.move_on_after(self.config.send_timeout) as stuck:
                    await self.stream.send_all(b"".join(frames) if len(frames) > 1 else frame)
                if stuck.cancelled_caught:
                    self.close(G.TOO_SLOW, "you did not read what the server sent in time", tell=False)
                    return
                self._writing = False
            if self._farewell is not None:
                await self.stream.send_all(self._farewell)
            self._drained = True
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._closing = True
            self._reader_scope.cancel()  # the peer is gone: nothing more to read either

    async def _watchdog(self, scope: trio.CancelScope) -> None:
        """Pings a logged-in peer every ``ping_interval``, so that a silent one is noticed (see ``_next``).

        One wake-up per ping and connection: a peer that stops reading is the writer's to drop (a deadline on
        each write), not something to poll for here, which doubled this task's wake-ups (a thousand connections
        cost the loop hundreds of timer expiries a second)."""
        interval = self.config.ping_interval
        n = 0
        with scope:
            # A random phase: connections opened together must not all wake (and ping) in the same instant.
            await trio.sleep(interval * random.uniform(1.0, 1.5))
            while True:
                if self.player is not None:
                    n += 1
                    self.send(wire.Ping(n=n))
                await trio.sleep(interval)

    async def _next(self, deadline: float, why: str) -> wire.Message | wire.ProtocolError | None:
        """The next message (or ProtocolError) from the peer; None when it closed. Silence past ``deadline``
        cancels the reader (see ``_reader``)."""
        while not self._pending:
            # Moving a deadline costs Trio a heap operation, twice per request if done each time: it is moved
            # only when it is not already a little after the one wanted (a second, or a tenth of the time
            # left), so silence is cut off after the timeout plus at most that.
            if not deadline <= self._idle.deadline <= deadline + _DEADLINE_SLACK:
                slack = min(_DEADLINE_SLACK, max(0.0, deadline - trio.current_time()) / 10)
                self._idle.deadline = deadline + slack
            self._idle_why = why
            self._reading = True
            try:
                data = await self._receive()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                # A reset (the peer's process died, or closed with unread data): gone, like a clean close.
                self.why = self.why or "connection lost (reset by the client)"
                return None
            finally:
                self._reading = False
            if not data:
                self.why = self.why or "the client closed the connection"
                return None
            self._take(data)
        # Handling a request may take a while; that is not the peer's silence. After a long silence the deadline
        # is near: then it is lifted until the next wait (otherwise it is still most of a timeout away).
        if self._idle.deadline - trio.current_time() < self.config.idle_timeout / 2:
            self._idle.deadline = math.inf
        return self._pending.popleft()

    def _take(self, data: bytes) -> None:
        """Decode what the peer sent into ``_pending``: messages, and errors for the frames that were bad."""
        try:
            self._decoder.receive(data)
        except wire.ProtocolError as e:
            self._pending.append(e)  # fatal: a frame over the cap
            return
        while True:
            try:
                message = self._decoder.next_message()
            except wire.ProtocolError as e:
                self._pending.append(e)  # a bad frame is skipped; the next ones may be fine
                if e.fatal:
                    return
                continue
            if message is None:
                return
            self._pending.append(message)

    async def _receive(self) -> bytes:
        """The next bytes from the peer; b"" once it has closed its side.

        On a TCP socket this waits until the socket is readable and then reads: one system call per request.
        The stream's ``receive_some`` reads first and waits only if that fails, and it nearly always fails
        here (a peer rarely has its next request ready when the last one is done), which costs a failed call,
        an exception and a second read per request."""
        fd = self._fd
        if fd is None:
            return bytes(await self.stream.receive_some(65536))
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                return os.read(fd, 65536)
            except BlockingIOError:
                continue  # woken with nothing to read after all: wait again
            except OSError as e:  # a reset, or the socket closed under us: the peer is gone
                raise trio.BrokenResourceError(str(e)) from e

    async def _reader(self) -> None:
        with self._idle:
            await self._conversation()
        if self._idle.cancelled_caught:
            self.close(G.IDLE, self._idle_why)

    async def _conversation(self) -> None:
        adopted = self._adopted
        if adopted is not None:
            # Moved here from another process of this server: the handshake is done, the player known.
            player = self.player = self.lobby.adopt(self, adopted.key, adopted.name)
            self._limit.tokens, self._refused_in_a_row = adopted.tokens, adopted.refused
            self._take(adopted.unread)
            resumed = adopted.resumed
        else:
            hello = await self._handshake()
            if hello is None:
                return
            try:
                player, token, notice = await self.lobby.login(self, hello)
            except StoreFailure:
                self._error(hello, Refused(E.INTERNAL, "the server could not save your login (its store failed, "
                                                       "not your fault): connect again in a moment"))
                self.why = "login not saved: the store failed"
                return
            self.player = player
            self.send(wire.Welcome(protocol=wire.PROTOCOL_VERSION, program=PROGRAM, player=player.name,
                                   resume=token, motd=self.lobby.config.motd))
            if notice is not None:
                self._error("hello", notice)
            log.info("%s is %s", self.peer, player.name)
            resumed = True
        if resumed:
            try:
                self.lobby.arrived(player)
            except Transfer as move:
                self._transfer = move  # the player's table is in another process: the connection goes there
                return
        silent = f"nothing heard for {self.config.idle_timeout:g} seconds"
        while True:
            item = await self._next(trio.current_time() + self.config.idle_timeout, silent)
            if self._handed is not None:
                await self._settle()
            if self._transfer is not None:  # asked to move while the last move was being finished
                if item is not None:
                    self._pending.appendleft(item)  # it goes along, unhandled
                return
            if item is None:
                return
            if player.conn is not self:
                return  # replaced by a newer connection (which closes this one): nothing more is read here
            throttled = self._throttled(item)
            if throttled is None:
                return
            if throttled:
                continue
            if isinstance(item, wire.ProtocolError):
                if not self._protocol_error(item):
                    return
                continue
            if isinstance(item, wire.Goodbye):
                self.why = f"client said goodbye: {item.reason}"
                return
            wanted = await self._request(player, item)
            # Where the player is now decides (a move asked from outside during the request, because their table
            # closed, is void if the request sat them down again here).
            self._transfer = wanted or self.lobby.moves(player)
            if self._transfer is not None:
                return

    async def _handshake(self) -> wire.Hello | None:
        deadline = trio.current_time() + self.config.handshake_timeout
        while True:
            item = await self._next(deadline, f"no hello within {self.config.handshake_timeout:g} seconds")
            if item is None:
                return None
            throttled = self._throttled(item)
            if throttled is None:
                return None
            if throttled:
                continue
            if isinstance(item, wire.ProtocolError):
                if not self._protocol_error(item):
                    return None
                continue
            if isinstance(item, wire.Hello):
                if item.protocol != wire.PROTOCOL_VERSION:
                    text = wire.version_mismatch(wire.PROTOCOL_VERSION, item.protocol,
                                                 their_program=item.program, our_program=PROGRAM) or ""
                    self.close(G.PROTOCOL_VERSION, text)
                    return None
                return item
            self._error(item, Refused(E.NOT_LOGGED_IN, "say hello first: the handshake comes before "
                                                       "any other request"))

    def _throttled(self, item: object) -> bool | None:
        """Count ``item`` (a request, or a bad frame: those cost the server work too) against the rate limit.
        False: handle it; True: drop it; None: the flood went on too long and the connection is closing."""
        if isinstance(item, wire.ProtocolError) and item.fatal:
            return False  # ends the connection anyway, with the reason that says what was wrong
        if self._limit.allow():
            self._refused_in_a_row = 0
            return False
        self._refused_in_a_row += 1
        if self._refused_in_a_row >= self.config.flood_limit:
            self.close(G.FLOOD, "too many requests, too fast: the server closed this connection")
            return None
        if self._refused_in_a_row == 1:
            kind = (item.request or "") if isinstance(item, wire.ProtocolError) else item
            self._error(kind, Refused(E.RATE_LIMITED, f"slow down: at most {self.config.rate:g} requests a "
                                                      "second; requests are dropped until you do"))
        return True

    async def _request(self, player: Player, request: object) -> Transfer | None:
        """Carry out ``request``; returns the move to another process that it calls for, if any."""
        if player.conn is not self:
            # A newer connection took this player over: what this one still had queued is dropped, so two
            # connections never act for one player at once.
            return None
        if isinstance(request, wire.Ping):
            self.send(wire.Pong(n=request.n, id=request.id))
            return None
        if isinstance(request, wire.Pong):
            return None
        try:
            await self.lobby.handle(player, request)
        except Transfer as move:
            return move  # carried out in another process of this server, where the connection goes
        except Refused as refusal:
            self._error(request, refusal)
        except Exception:  # a bug of ours must cost one request, not the connection or the server
            log.exception("request %r of %s failed", request, player.name)
            self._error(request, Refused(E.INTERNAL, "the server failed on this request (its fault, not yours); "
                                                     "it has been logged"))
        return None

    def _protocol_error(self, error: wire.ProtocolError) -> bool:
        """Answer a bad frame; False when the stream cannot be trusted any more and the connection must end."""
        if error.code == E.PROTOCOL_VERSION:
            # A frame of another version: the goodbye's reason says so (docs/protocol.md, section 4).
            self.close(G.PROTOCOL_VERSION, f"{error}; this server is {PROGRAM}")
            return False
        if error.fatal:
            self.close(G.PROTOCOL_ERROR, str(error))
            return False
        self.send(wire.ErrorReply.for_error(error))
        return True

    def _error(self, request: object, refusal: Refused) -> None:
        """Refuse ``request`` (a message, or the type name of one), echoing its id."""
        kind = request if isinstance(request, str) else getattr(request, "TYPE", type(request).__name__)
        self.send(wire.ErrorReply(request=kind, id=getattr(request, "id", None), code=refusal.code,
                                  message=refusal.message[:500]))

