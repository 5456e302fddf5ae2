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

import contextlib
import logging
from collections import deque

import trio

from . import wire
from .config import PROGRAM, ServerConfig
from .lobby import Lobby
from .session import Player, Refused

log = logging.getLogger(__name__)
E = wire.ErrorCode
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


class Connection:
    def __init__(self, lobby: Lobby, stream: trio.abc.Stream, config: ServerConfig, peer: str = "?") -> None:
        self.lobby = lobby
        self.stream = stream
        self.config = config
        self.peer = peer
        self.player: Player | None = None
        self._out_send, self._out_receive = trio.open_memory_channel[bytes](config.outbound_frames)
        self._decoder = wire.Decoder(max_frame=config.max_frame, peer="client")
        self._pending: deque[object] = deque()
        self._limit = RateLimit(config.rate, config.burst)
        self._refused_in_a_row = 0
        self._scope = trio.CancelScope()
        self._closing = False
        self._farewell: bytes | None = None  # the goodbye to send before closing, if the peer can hear it
        self._writing = False  # a write is in progress: the byte stream is mid-frame
        self._write_scope: trio.CancelScope | None = None
        self.why: str = ""

    # --- the outside's handle -----------------------------------------------------------------------------------

    def send_frame(self, frame: bytes) -> None:
        """Queue a frame without waiting; a peer whose queue is full is too slow and is dropped."""
        if self._closing:
            return
        try:
            self._out_send.send_nowait(frame)
        except trio.WouldBlock:
            self.close(G.TOO_SLOW, "you did not read what the server sent in time; reconnect to resume your seat",
                       tell=False)

    def send(self, message: object) -> None:
        self.send_frame(wire.encode(message))  # type: ignore[arg-type]

    def replaced(self) -> None:
        self.close(G.REPLACED, "you connected again from elsewhere; this older connection is closed")

    def close(self, reason: str, message: str, *, tell: bool = True) -> None:
        """Stop this connection; with ``tell``, the queued frames and a goodbye go out first (briefly)."""
        if self._closing:
            return
        self._closing = True
        self.why = reason
        if tell:
            self._farewell = wire.encode(wire.Goodbye(reason=str(reason), message=message[:500]))
        elif self._write_scope is not None:
            self._write_scope.cancel()  # the peer is not reading: do not wait for this write either
        self._scope.cancel()

    def abort(self) -> None:
        """Stop now, even in the middle of a write (the server's last resort when stopping)."""
        self.close(wire.GoodbyeReason.SERVER_SHUTDOWN, "", tell=False)
        if self._write_scope is not None:
            self._write_scope.cancel()

    # --- the tasks ----------------------------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    await self._reader()
                    nursery.cancel_scope.cancel()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.why = self.why or "connection lost"
        finally:
            self._closing = True
            if self.player is not None:
                self.lobby.disconnected(self.player, self)
            with trio.CancelScope(shield=True):
                await self._goodbye()
            log.info("%s (%s) disconnected: %s", self.peer, self.player.name if self.player else "-",
                     self.why or "closed")

    async def _goodbye(self) -> None:
        frames = []
        while True:
            try:
                frames.append(self._out_receive.receive_nowait())
            except (trio.WouldBlock, trio.ClosedResourceError, trio.EndOfChannel):
                break
        if self._farewell is not None and not self._writing:
            with trio.move_on_after(self.config.shutdown_grace):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    await self.stream.send_all(b"".join(frames) + self._farewell)
        await trio.aclose_forcefully(self.stream)

    async def _writer(self) -> None:
        async for frame in self._out_receive:
            frames = [frame]
            while len(frames) < 64:  # one write for what piled up, not one per frame
                try:
                    frames.append(self._out_receive.receive_nowait())
                except trio.WouldBlock:
                    break
            self._writing = True
            # Shielded, with its own deadline: a write is never cut mid-frame by a close, so the goodbye
            # that follows is readable; only a peer that does not read for send_timeout leaves it cut.
            with trio.CancelScope(shield=True, deadline=trio.current_time() + self.config.send_timeout) as scope:
                self._write_scope = scope
                await self.stream.send_all(b"".join(frames))
                self._writing = False
            self._write_scope = None
            if self._writing:
                self.close(G.TOO_SLOW, "you did not read what the server sent in time", tell=False)
                return

    async def _heartbeat(self) -> None:
        n = 0
        while True:
            await trio.sleep(self.config.ping_interval)
            n += 1
            self.send(wire.Ping(n=n))

    async def _next(self, timeout: float, why: str) -> object | None:
        """The next message (or ProtocolError) from the peer; None when it closed or went silent for ``timeout``."""
        while not self._pending:
            data = None
            with trio.move_on_after(timeout):
                data = await self.stream.receive_some(65536)
            if data is None:
                self.close(G.IDLE, why)
                return None
            if not data:
                self.why = self.why or "the client closed the connection"
                return None
            try:
                self._decoder.receive(bytes(data))
            except wire.ProtocolError as e:
                self._pending.append(e)  # fatal: a frame over the cap
                break
            while True:
                try:
                    message = self._decoder.next_message()
                except wire.ProtocolError as e:
                    self._pending.append(e)  # a bad frame is skipped; the next ones may be fine
                    if e.fatal:
                        break
                    continue
                if message is None:
                    break
                self._pending.append(message)
        return self._pending.popleft()

    async def _reader(self) -> None:
        hello = await self._handshake()
        if hello is None:
            return
        player, token, notice = await self.lobby.login(self, hello)
        self.player = player
        self.send(wire.Welcome(protocol=wire.PROTOCOL_VERSION, program=PROGRAM, player=player.name, resume=token,
                               motd=self.lobby.config.motd))
        if notice is not None:
            self._error("hello", notice)
        log.info("%s is %s", self.peer, player.name)
        self.lobby.arrived(player)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._heartbeat)
            while True:
                item = await self._next(self.config.idle_timeout,
                                        f"nothing heard for {self.config.idle_timeout:g} seconds")
                if item is None:
                    break
                if isinstance(item, wire.ProtocolError):
                    if not self._protocol_error(item):
                        break
                    continue
                if not self._limit.allow():
                    self._refused_in_a_row += 1
                    if self._refused_in_a_row >= self.config.flood_limit:
                        self.close(G.FLOOD, "too many requests, too fast: the server closed this connection")
                        break
                    if self._refused_in_a_row == 1:
                        self._error(item, Refused(
                            E.RATE_LIMITED, f"slow down: at most {self.config.rate:g} requests a second; "
                                            "requests are dropped until you do"))
                    continue
                self._refused_in_a_row = 0
                if isinstance(item, wire.Goodbye):
                    self.why = f"client said goodbye: {item.reason}"
                    break
                await self._request(player, item)
            nursery.cancel_scope.cancel()

    async def _handshake(self) -> wire.Hello | None:
        with trio.move_on_after(self.config.handshake_timeout):
            while True:
                item = await self._next(self.config.handshake_timeout, "no hello")
                if item is None:
                    return None
                if isinstance(item, wire.ProtocolError):
                    if not self._protocol_error(item):
                        return None
                    continue
                if isinstance(item, wire.Hello):
                    if item.protocol != wire.PROTOCOL_VERSION:
                        text = wire.version_mismatch(wire.PROTOCOL_VERSION, item.protocol,
                                                     their_program=item.program) or ""
                        self.close(G.PROTOCOL_VERSION, text)
                        return None
                    return item
                self._error(item, Refused(E.NOT_LOGGED_IN, "say hello first: the handshake comes before "
                                                                 "any other request"))
        self.close(G.IDLE, f"no hello within {self.config.handshake_timeout:g} seconds")
        return None

    async def _request(self, player: Player, request: object) -> None:
        if isinstance(request, wire.Ping):
            self.send(wire.Pong(n=request.n))
            return
        if isinstance(request, wire.Pong):
            return
        try:
            await self.lobby.handle(player, request)
        except Refused as refusal:
            self._error(request, refusal)

    def _protocol_error(self, error: wire.ProtocolError) -> bool:
        """Answer a bad frame; False when the stream cannot be trusted any more and the connection must end."""
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

