"""A connection's lifecycle as a state machine without I/O, in the manner of h11.

``Lifecycle.receive(item, now)`` takes what the peer sent (a message, or the
``ProtocolError`` of a bad frame) and answers what the connection must do
with it: ``Login`` (a hello to let in), ``Handle`` (a request for the
lobby), ``Answer`` (a frame to send back: an error, a pong), ``Drop`` (say
nothing) or ``Close`` (say goodbye and stop). The rules about which
message may come next live here: hello first and once, the rate limit and
its flood cut-off, which bad frames end the connection. The clocks (the
hello's deadline, the idle timeout) are the connection's: its heartbeat
and its reader close the machine when one has run out. The states:

    HANDSHAKE --logged_in()--> OPEN
    HANDSHAKE, OPEN --close()--> CLOSING   (stop reading; what is queued, then a goodbye, goes out)
    any --closed()--> CLOSED

``server/connection.py`` drives it with Trio streams; the tests drive it
with plain values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hanabi.protocol import (
    PROTOCOL_VERSION,
    SENTENCE_MAX,
    SERVER_PROGRAM,
    ErrorCode,
    ErrorReply,
    Goodbye,
    GoodbyeReason,
    Hello,
    Message,
    Ping,
    Pong,
    ProtocolError,
    version_mismatch,
)

from .config import ServerConfig


class Phase(enum.Enum):
    HANDSHAKE = "handshake"  # waiting for the hello
    OPEN = "open"  # logged in: requests are carried out
    CLOSING = "closing"  # no more reading; the queued frames and the goodbye go out
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Login:
    hello: Hello


@dataclass(frozen=True, slots=True)
class Handle:
    request: Message


@dataclass(frozen=True, slots=True)
class Answer:
    message: Message


@dataclass(frozen=True, slots=True)
class Drop:
    pass


@dataclass(frozen=True, slots=True)
class Close:
    reason: GoodbyeReason
    message: str


Step = Login | Handle | Answer | Drop | Close


class RateLimit:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def allow(self, now: float) -> bool:
        return self.take(now, 1.0, only_if_there=True) == 0.0

    def take(self, now: float, cost: float, only_if_there: bool = False) -> float:
        """Take ``cost`` (or, ``only_if_there``, nothing when less is left); returns the seconds until the bucket
        is out of debt (0: it is not), or, when nothing was taken, until ``cost`` would be there."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost or not only_if_there:
            self.tokens -= cost
            return max(0.0, -self.tokens / self.rate)
        return (cost - self.tokens) / self.rate


def refusal(request: object, code: str, message: str) -> ErrorReply:
    """The ``error`` reply refusing ``request`` (a message, or the wire name of one), echoing its id."""
    kind = request if isinstance(request, str) else str(getattr(request, "TYPE", ""))
    return ErrorReply(request=kind, id=getattr(request, "id", None), code=str(code), message=message[:SENTENCE_MAX])


class Lifecycle:
    def __init__(self, config: ServerConfig, now: float) -> None:
        self.config = config
        self.phase = Phase.HANDSHAKE
        self.why = ""  # why the connection ended, for the log
        self.farewell: Close | None = None  # the goodbye to send last, if the peer may still hear one
        self.said_goodbye = False  # the peer left on purpose (its goodbye came), rather than its line dropping
        self._limit = RateLimit(config.rate, config.burst, now)
        self._bytes = RateLimit(config.byte_rate, config.byte_burst, now)  # decoding is the work a frame costs
        self._refused_in_a_row = 0

    # --- transitions --------------------------------------------------------------------------------------------

    def logged_in(self) -> bool:
        """The hello is let in; False when the connection began closing while the login was saved (the server
        stopping, the peer gone): it stays closing."""
        if self.phase is not Phase.HANDSHAKE:
            return False
        self.phase = Phase.OPEN
        return True

    def close(self, reason: GoodbyeReason, message: str, *, tell: bool = True) -> bool:
        """Start closing; ``tell``: the peer gets a goodbye once what is queued has gone out. False when the
        connection was already closing (the first reason stands)."""
        if self.phase in (Phase.CLOSING, Phase.CLOSED):
            return False
        self.phase = Phase.CLOSING
        self.why = self.why or str(reason)
        if tell:
            self.farewell = Close(reason, message[:SENTENCE_MAX])
        return True

    def closed(self, why: str = "") -> None:
        self.phase = Phase.CLOSED
        self.why = self.why or why

    @property
    def reading(self) -> bool:
        return self.phase in (Phase.HANDSHAKE, Phase.OPEN)

    # --- what the peer sent -------------------------------------------------------------------------------------

    def read(self, size: int, now: float) -> float:
        """``size`` bytes came in at ``now``: the seconds to wait before reading more. A peer sending more bytes
        than their rate is read more slowly (TCP makes it wait), so what the server decodes stays in bounds."""
        return self._bytes.take(now, size)

    def receive(self, item: Message | ProtocolError, now: float) -> Step:
        if isinstance(item, ProtocolError) and (item.fatal or item.code == ErrorCode.PROTOCOL_VERSION):
            return self._fatal(item)
        if not self._limit.allow(now):
            return self._throttled(item)
        self._refused_in_a_row = 0
        if isinstance(item, ProtocolError):
            return Answer(ErrorReply.for_error(item))
        if isinstance(item, Goodbye):
            self.close(GoodbyeReason.CLIENT_QUIT, "", tell=False)
            self.said_goodbye = True
            self.why = f"client said goodbye: {item.reason}"
            return Drop()
        if self.phase is Phase.HANDSHAKE:
            return self._handshake(item)
        if isinstance(item, Hello):
            return Answer(refusal(item, ErrorCode.ALREADY_LOGGED_IN, "this connection has said hello already: a "
                                                                       "connection logs in once"))
        if isinstance(item, Ping):
            return Answer(Pong(n=item.n, id=item.id))
        if isinstance(item, Pong):
            return Drop()
        return Handle(item)

    def _handshake(self, item: Message) -> Step:
        if not isinstance(item, Hello):
            return Answer(refusal(item, ErrorCode.NOT_LOGGED_IN,
                                  "say hello first: the handshake comes before any other request"))
        if item.protocol != PROTOCOL_VERSION:
            text = version_mismatch(PROTOCOL_VERSION, item.protocol, their_program=item.program) or ""
            return self._closing(GoodbyeReason.PROTOCOL_VERSION, text)
        return Login(item)

    def _fatal(self, error: ProtocolError) -> Step:
        if error.code == ErrorCode.PROTOCOL_VERSION:
            # A frame of another version: the goodbye's reason says so (docs/protocol.md, section 4).
            return self._closing(GoodbyeReason.PROTOCOL_VERSION, f"{error}; this server is {SERVER_PROGRAM}")
        return self._closing(GoodbyeReason.PROTOCOL_ERROR, str(error))

    def _throttled(self, item: Message | ProtocolError) -> Step:
        """Over the rate limit (bad frames count too: they cost the server work): the first request refused
        is answered, the next ones dropped, and a flood that goes on ends the connection."""
        self._refused_in_a_row += 1
        if self._refused_in_a_row >= self.config.flood_limit:
            return self._closing(GoodbyeReason.FLOOD, "too many requests, too fast: the server closed this connection")
        if self._refused_in_a_row > 1:
            return Drop()
        kind = (item.request or "") if isinstance(item, ProtocolError) else item
        return Answer(refusal(kind, ErrorCode.RATE_LIMITED, f"slow down: at most {self.config.rate:g} requests "
                                                            "a second; requests are dropped until you do"))

    def _closing(self, reason: GoodbyeReason, message: str) -> Close:
        self.close(reason, message)
        return Close(reason, message)
