"""The connection to the server: Trio code that connects, shakes hands, reads, writes and reconnects.

One ``Session`` owns one TCP stream at a time, spoken through a ``Wire``
(``wire.py``, which the network bot uses too). The reader hands each message to
``dispatch`` (the model's reducer); the writer sends what the app queued.
When the stream breaks, the session reconnects by itself, presenting its
resume token so the server puts us back in our seat, and says so on screen
through ``LinkChanged``. Every await that faces the network has a deadline.

``send`` may be called from outside Trio (a prompt_toolkit key handler on the
host loop): it hops into Trio with the run's token, which is thread-safe.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import trio
from hanabi.protocol import DEFAULT_PORT
from hanabi.protocol.errors import ProtocolError
from hanabi.protocol.messages import (
    ErrorReply,
    Goodbye,
    Hello,
    ListOnline,
    ListTables,
    Message,
    Ping,
    Pong,
    Spectate,
    Welcome,
)
from hanabi.protocol.version import CLIENT_PROGRAM, PROTOCOL_VERSION, version_mismatch

from .model import ClientModel, Incoming, Link, LinkChanged, Note
from .tokens import TokenStore
from .wire import Wire

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0
HANDSHAKE_TIMEOUT = 10.0
PING_EVERY = 10.0
SILENCE_LIMIT = 35.0  # no byte from the server for this long: the link is dead, reconnect
OUTBOX = 256
# Goodbyes after which reconnecting would be wrong: another connection took our seat, or we cannot talk.
GOODBYE_VERSION = "protocol_version"
GOODBYE_SHUTDOWN = "server_shutdown"  # the host stopped the server (Ctrl-C, SIGTERM)
NOT_HANABI = "not_hanabi"  # our own reason: what answered is no hanabi server (a web server, an SSH banner)
NAME_REFUSED = "name_refused"  # our own reason: the server refused our hello's name; we wait for another
FINAL_GOODBYES = frozenset({"replaced", GOODBYE_VERSION, "client_quit", NOT_HANABI})


# How a broken link shows itself; the session then reconnects.
FAREWELL_GRACE = 1.0  # seconds a quitting client gives its goodbye to leave, so the others hear it left on purpose
LINK_BROKEN = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, trio.TooSlowError)


@dataclass(frozen=True, slots=True)
class Address:
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


HOST_NAME = re.compile(r"[\w.-]+")  # letters (any script), digits, dots, hyphens, underscores
LOOKS_LIKE_IPV4 = re.compile(r"[\d.]+")


def parse_address(text: str) -> Address:
    """``HOST[:PORT]`` (``[::1]:7777`` for IPv6); the port defaults to 7777 when there is no colon.

    Only the form is checked here (``resolve_problem`` asks whether the name exists): an address that
    cannot be right is refused at once, rather than retried for ever.
    """
    text = text.strip()
    if not text:
        raise ValueError("give a server address: HOST or HOST:PORT")
    host, port_text = text, None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(f"{text!r}: an IPv6 address in brackets needs its closing ]")
        host, rest = text[1:end], text[end + 1:]
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r}: write [ADDRESS]:PORT")
        port_text = rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(host.split("%")[0])
        except ValueError:
            raise ValueError(f"{text!r}: {host!r} in brackets is not an IPv6 address") from None
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif text.count(":") > 1:
        try:
            ipaddress.IPv6Address(text.split("%")[0])
        except ValueError:
            raise ValueError(f"{text!r} is not an address: write HOST:PORT, or [IPV6]:PORT") from None
    if not host:
        raise ValueError(f"{text!r} has no host before the port: write HOST:PORT, such as 192.168.1.10:{DEFAULT_PORT}")
    if not text.startswith("[") and text.count(":") <= 1:
        _check_host(host)
    if port_text is None:
        return Address(host, DEFAULT_PORT)
    if not port_text:
        shown = f"[{host}]" if ":" in host else host
        raise ValueError(f"{text!r} has no port after the colon: give one ({shown}:{DEFAULT_PORT}), "
                         f"or leave out the colon for {DEFAULT_PORT}")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{port_text!r} is not a port: give a number from 1 to 65535")
    return Address(host, int(port_text))


def _check_host(host: str) -> None:
    if LOOKS_LIKE_IPV4.fullmatch(host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv4 address: four numbers from 0 to 255, "
                             "separated by dots (such as 192.168.1.10)") from None
    elif not HOST_NAME.fullmatch(host) or host.startswith(("-", ".")) or ".." in host:
        raise ValueError(f"{host!r} is not a host name: give the server's name or IP address")


def resolve_problem(address: Address) -> str | None:
    """Why ``address``'s host cannot be found, or None when it can (blocking: used once, at start-up).

    A name that does not resolve is a typo far more often than a server still starting, so it is said
    at once; a refused connection, by contrast, is retried, since the server may not be up yet.
    """
    try:
        socket.getaddrinfo(address.host, address.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        reason = e.strerror if isinstance(e, socket.gaierror) and e.strerror else str(e)
        return (f"cannot find the server {address.host!r} ({reason}): check the spelling, "
                "or give its IP address")
    return None


def _cancelled(error: BaseException) -> bool:
    """Whether ``error`` is (or carries) Trio's cancellation, as a nursery may hand it on inside a group."""
    if isinstance(error, BaseExceptionGroup):
        return error.subgroup(trio.Cancelled) is not None
    return isinstance(error, trio.Cancelled)


async def _farewell(wire: Wire) -> None:
    """``goodbye`` ``client_quit``, so the server tells the others we left rather than lost the connection; given
    a moment even while cancelled, and dropped if the line is already broken."""
    with trio.CancelScope(shield=True), trio.move_on_after(FAREWELL_GRACE), \
            contextlib.suppress(*LINK_BROKEN, ProtocolError):
        await wire.send(Goodbye("client_quit", "the player quit"))


def _why(error: BaseException) -> str:
    """A few words on why a connection failed (trio wraps the OS's reasons in an exception group)."""
    if isinstance(error, trio.TooSlowError):
        return "no answer"
    causes: list[BaseException] = [error]
    cause = error.__cause__
    if isinstance(cause, BaseExceptionGroup):
        causes += list(cause.exceptions)
    elif cause is not None:
        causes.append(cause)
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return "connection refused: is the server running?"
    for c in causes:
        if isinstance(c, OSError) and c.strerror:
            return c.strerror
    return str(error) or "no answer"


async def _open_tcp(address: Address) -> trio.abc.Stream:
    return await trio.open_tcp_stream(address.host, address.port)


class Session:
    """A self-healing connection; ``run`` until cancelled, ``send`` from anywhere on the same thread."""

    def __init__(self, address: Address, name: str, get_model: Callable[[], ClientModel],
                 dispatch: Callable[[Incoming], None],
                 on_welcome: Callable[[Session, bool], Awaitable[None]] | None = None,
                 tokens: TokenStore | None = None,
                 open_stream: Callable[[Address], Awaitable[trio.abc.Stream]] | None = None,
                 shown_as: str | None = None) -> None:
        self.address = address
        # What the title calls the server: its address, or "solo" for the private one a solo game runs (its
        # loopback port means nothing to the player).
        self.shown_as = shown_as or str(address)
        # How a connection is made: TCP to ``address``; the tests hand in-memory streams to a server of theirs, so
        # that reconnection runs on Trio's virtual clock (a real socket's wait would let that clock jump).
        self.open_stream = open_stream or _open_tcp
        self.name = name
        self.get_model = get_model
        self.dispatch = dispatch
        self.on_welcome = on_welcome
        self.tokens = tokens  # where the resume token is kept between runs (None: nowhere)
        self._kept_as = name  # the name ``tokens`` keeps the token under: the one the server last gave us
        self._send, self._receive = trio.open_memory_channel[Message](OUTBOX)
        # The name to say hello with once the server refused ours: the player types another (``rename``).
        self._names, self._new_names = trio.open_memory_channel[str](1)
        self._token: trio.lowlevel.TrioToken | None = None
        self._online = False
        self.stopped = False

    # -- called by the app --------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        """Queue a message for the server; safe to call from the host loop or from Trio."""
        if not self._online:
            self.dispatch(Note("not connected — reconnecting; try again once back", True))
            return
        if self._token is None:
            return
        self._token.run_sync_soon(self._enqueue, message)

    def _enqueue(self, message: Message) -> None:
        try:
            self._send.send_nowait(message)
        except trio.WouldBlock:
            self.dispatch(Note("too many requests waiting for the server: slow down", True))

    def rename(self, name: str) -> None:
        """The name to say hello with, after the server refused ours; safe to call from the host loop."""
        if self._token is not None:
            self._token.run_sync_soon(self._rename, name)

    def _rename(self, name: str) -> None:
        with contextlib.suppress(trio.WouldBlock):  # one is already waiting: the player pressed Enter twice
            self._names.send_nowait(name)

    async def request(self, message: Message) -> None:
        """Queue a message from Trio code (used by --solo to set its table up)."""
        await self._send.send(message)

    # -- the connection loop ------------------------------------------------------------------------

    async def run(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        delay = 0.5
        first = True
        stopped_by_host = False  # the server said it was shutting down: it is gone on purpose, not broken
        while not self.stopped:
            self.dispatch(LinkChanged(Link.CONNECTING if first else Link.RECONNECTING, self.shown_as))
            try:
                with trio.fail_after(CONNECT_TIMEOUT):
                    stream = await self.open_stream(self.address)
            except (OSError, trio.TooSlowError) as e:
                why = _why(e)
                text = f"Cannot reach {self.address} ({why}); retrying in {delay:g} s…"
                if stopped_by_host:
                    text = self._host_stopped(f"trying again in {delay:g} s, in case it starts again…")
                self.dispatch(LinkChanged(Link.OFFLINE if first else Link.RECONNECTING, self.shown_as, text))
                await trio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            reason = await self._serve(stream)
            self._online = False
            stopped_by_host = reason == GOODBYE_SHUTDOWN
            if self.stopped:
                return
            if reason == NAME_REFUSED:
                # The model says why and the app asks for another name; no retry with the same one.
                self.dispatch(LinkChanged(Link.OFFLINE, self.shown_as, self.get_model().status))
                self.name = await self._new_names.receive()
                continue
            if reason in FINAL_GOODBYES:
                self.stopped = True
                self.dispatch(LinkChanged(Link.CLOSED, self.shown_as, self.get_model().status))
                return
            if self.get_model().resume is not None:
                first = False
                delay = 0.5
            text = f"Lost the connection to {self.address}; reconnecting…"
            if stopped_by_host:
                text = self._host_stopped("reconnecting in case it starts again…")
            self.dispatch(LinkChanged(Link.RECONNECTING, self.shown_as, text))
            await trio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _host_stopped(self, then: str) -> str:
        return f"The host stopped the server at {self.address}; {then} (Ctrl-C quits)"

    async def _serve(self, stream: trio.abc.Stream) -> str | None:
        """Handshake, then read and write until the stream breaks; the goodbye reason, if any."""
        wire = Wire(stream)
        goodbye: list[str] = []
        try:
            async with stream:
                resume = self.get_model().resume
                if resume is None and self.tokens is not None:
                    resume = await self.tokens.wait_for()  # a previous run of this client may have left us a seat
                await wire.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, self.name, resume))
                try:
                    welcome = await self._handshake(wire, goodbye)
                except ProtocolError as e:
                    # Unreadable before any welcome: another kind of server listens there, and asking again
                    # will not change that. Said once, and we stop.
                    self.dispatch(Note(f"{self.address} is not a hanabi server (its first bytes are not the hanabi "
                                       f"protocol: {e}): check the address and the port", True))
                    return NOT_HANABI
                if welcome is None:
                    return goodbye[0] if goodbye else None
                if isinstance(welcome, ErrorReply):
                    return NAME_REFUSED
                mismatch = version_mismatch(PROTOCOL_VERSION, welcome.protocol, their_program=welcome.program,
                                            we_are="client")
                if mismatch is not None:
                    # Nothing after the handshake can be trusted to mean what we think: part, and do not retry.
                    self.dispatch(Note(mismatch, True))
                    with contextlib.suppress(ProtocolError):
                        await wire.send(Goodbye(GOODBYE_VERSION, mismatch))
                    return GOODBYE_VERSION
                if self.tokens is not None:
                    # Kept under the name the server gave, which the quit line tells the player to come back with.
                    self.tokens = self.tokens.for_name(self._kept_as, welcome.player)
                    self._kept_as = welcome.player
                    self.tokens.save(welcome.resume)
                self._online = True
                self._drain_stale()
                table = self.get_model().table
                if resume is not None and table is not None and self.get_model().seat is None \
                        and not table.has_password:
                    # A spectator's place is not kept when the connection drops: ask for it again, before
                    # the list of tables (whose reply tells the model whether we are back at our table).
                    await wire.send(Spectate(table.id))
                await wire.send(ListTables())
                await wire.send(ListOnline())  # who is here; the server tells changes from now on
                try:
                    await self._connected(wire, goodbye, resumed=resume is not None)
                except BaseException as quitting:
                    if _cancelled(quitting):  # the player quits (the app cancels us): say so before the line closes
                        await _farewell(wire)
                    raise
        except LINK_BROKEN:
            pass
        except ProtocolError as e:
            self._unreadable(e)
        return goodbye[0] if goodbye else None

    async def _connected(self, wire: Wire, goodbye: list[str], resumed: bool) -> None:
        """Read and write on a connection that is logged in, until it breaks or the server says goodbye."""
        # What breaks inside the nursery comes out as an exception group (a reset read by the reader,
        # a write that timed out): caught here, or it would end the whole session instead of reconnecting.
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, wire)
                nursery.start_soon(self._pinger, wire, nursery.cancel_scope)
                if self.on_welcome is not None:
                    nursery.start_soon(self.on_welcome, self, resumed)
                await self._reader(wire, goodbye)
                nursery.cancel_scope.cancel()
        except* LINK_BROKEN:
            pass
        except* ProtocolError as group:
            self._unreadable(group.exceptions[0])

    def _unreadable(self, error: BaseException) -> None:
        self.dispatch(Note(f"The server sent something this client cannot read: {error}", True))

    async def _handshake(self, wire: Wire, goodbye: list[str]) -> Welcome | ErrorReply | None:
        """Every message up to the welcome, or up to the refusal of our hello (its name); None: the server closed
        or said goodbye first. What follows the welcome in the same read stays in the wire's decoder for the
        reader."""
        with trio.fail_after(HANDSHAKE_TIMEOUT):
            while (message := await wire.receive()) is not None:
                self.dispatch(message)
                if isinstance(message, Welcome) or (isinstance(message, ErrorReply) and message.request == Hello.TYPE):
                    return message
                if isinstance(message, Goodbye):
                    goodbye.append(message.reason)
                    return None
            return None

    def _drain_stale(self) -> None:
        """Requests queued for a connection that broke are dropped: they may no longer make sense."""
        while True:
            try:
                self._receive.receive_nowait()
            except trio.WouldBlock:
                return

    async def _reader(self, wire: Wire, goodbye: list[str]) -> None:
        while True:
            try:
                got = await wire.receive()
            except ProtocolError as e:
                if e.fatal:
                    raise
                self.dispatch(Note(f"Skipped a message this client cannot read: {e}", True))
                continue
            if got is None:
                return
            await self._handle(got, goodbye)
            if goodbye:
                return

    async def _handle(self, message: Message, goodbye: list[str]) -> None:
        if isinstance(message, Ping):
            await self._send.send(Pong(message.n))
        if isinstance(message, Goodbye):
            goodbye.append(message.reason)
        self.dispatch(message)

    async def _writer(self, wire: Wire) -> None:
        async for message in self._receive:
            await wire.send(message)

    async def _pinger(self, wire: Wire, scope: trio.CancelScope) -> None:
        """Ask the server for a sign of life now and then; hang up on a silent link so we can reconnect."""
        n = 0
        while True:
            await trio.sleep(PING_EVERY)
            if trio.current_time() - wire.heard_at > SILENCE_LIMIT:
                scope.cancel()
                return
            n += 1
            await self._send.send(Ping(n))

    def stop(self) -> None:
        self.stopped = True
