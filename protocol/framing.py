"""Frames: a 4-byte big-endian length, then that many bytes holding one msgpack map.

``encode`` turns a message into one frame. ``Decoder`` is fed whatever
bytes arrive, in pieces of any size, and hands back whole messages. It is
sans-IO: it never reads a socket, so the Trio server, the client and the
tests all use it as is.

Defences, in order: the length prefix is checked against the cap as soon as
its 4 bytes are in, so a frame claiming 4 GiB is refused before any of its
body is buffered; the body is decoded by msgpack with every container and
string bounded by the body's own size, string keys only, UTF-8 strings
only, and no extension types (an ext raises, the timestamp ext is refused
after decoding); then the message layer checks every field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal, NoReturn

import msgpack
from hanabi.engine import PlayerView

from .engine_wire import MAX_ARRAY
from .errors import ErrorCode, ProtocolError, printable
from .fields import IDENT_MAX
from .messages import CLIENT_TYPES, SERVER_TYPES, History, Message, ViewUpdate, from_wire, to_wire
from .transport import DEFAULT_MAX_FRAME, HEADER

MAX_MAP = 64  # entries in any map: a message has at most 14 fields, the rest is room for additions


def encode(message: Message, *, max_frame: int = DEFAULT_MAX_FRAME, since: int = 0) -> bytes:
    """One frame holding ``message``. Raises ProtocolError if a field is bad or the frame would exceed ``max_frame``.

    On its own it sends a view with its whole history; a connection's ``Encoder`` sends only what is new.
    """
    return _framed(msgpack.packb(to_wire(message, since)), message.TYPE, max_frame)


def _framed(body: bytes, kind: str, max_frame: int) -> bytes:
    if len(body) > max_frame:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE,
                            f"a {kind} message of {len(body)} bytes exceeds the frame cap of {max_frame} bytes",
                            request=kind)
    return HEADER.pack(len(body)) + body


class Encoder:
    """Turns messages into frames for one connection, sending each event of a game's history only once.

    A ``view`` message carries the events its connection has not received
    yet, and says where they start (``since``); the peer's ``Decoder`` adds
    them to the history it holds, so both sides still see whole views. The
    encoder remembers the latest game it sent a view of and how many of its
    events went out; a view of another game, or a new connection, starts
    from the first event. A game's history only grows, which is what makes
    a count enough. Every other message is encoded as ``encode`` does.

    Use one per connection, and send every frame it makes, in order: a frame
    made and not sent leaves the peer behind (its decoder then refuses the
    next view with ``history_gap``).
    """

    __slots__ = ("_game", "_sent", "max_frame")

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._game: int | None = None
        self._sent = 0  # events of game ``_game`` already sent on this connection

    def encode(self, message: Message) -> bytes:
        """One frame holding ``message`` (see ``encode``); raises ProtocolError as ``encode`` does."""
        if type(message) is not ViewUpdate:
            return encode(message, max_frame=self.max_frame)
        view = message.view
        events = len(view.events) if type(view) is PlayerView else 0
        since = self._sent if message.game == self._game and self._sent <= events else 0
        frame = encode(message, max_frame=self.max_frame, since=since)
        self._game, self._sent = message.game, events
        return frame


class _ExtRefused(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise _ExtRefused(code)


def decode_body(body: bytes, accept: Iterable[str] | None = None, history: History | None = None) -> Message:
    """The message in one frame's body (without its length prefix); ``history`` as for ``from_wire``."""
    allowed = None if accept is None else accept if isinstance(accept, frozenset) else frozenset(accept)
    size = max(len(body), 1)
    try:
        tree = msgpack.unpackb(
            body,
            raw=False,  # msgpack str must be valid UTF-8 and becomes str; bin stays bytes and fails text checks
            strict_map_key=True,  # str or bin keys only; bin keys are refused below
            use_list=True,
            ext_hook=_refuse_ext,
            timestamp=0,  # timestamps come back as msgpack.Timestamp (ext_hook is not called), refused below
            max_str_len=size,
            max_bin_len=size,
            # msgpack allocates for an array's or a map's claimed length before reading its items, at
            # each of up to 1024 levels; capping claims at what the protocol uses keeps a hostile frame
            # to a fraction of a megabyte (a cap of the frame size would let one frame cost 80 MB).
            max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP,
            max_ext_len=size,
        )
    except _ExtRefused as exc:
        raise ProtocolError(ErrorCode.BAD_FRAME, f"msgpack extension types are not part of this protocol "
                                                 f"(found ext type {exc.code})") from None
    except msgpack.ExtraData:
        raise ProtocolError(ErrorCode.BAD_FRAME, "the frame holds bytes after its msgpack map: "
                                                 "one frame carries exactly one map") from None
    except UnicodeDecodeError as exc:
        raise _not_utf8(body, exc) from None
    except msgpack.StackError:
        raise ProtocolError(ErrorCode.BAD_FRAME, "the frame nests maps and arrays too deeply") from None
    except (ValueError, TypeError, msgpack.UnpackException, OverflowError, RecursionError) as exc:
        # The text says what was wrong in the protocol's words, never msgpack's own (a Python internal).
        raise ProtocolError(ErrorCode.BAD_FRAME, _invalid(str(exc))) from None
    return from_wire(tree, allowed, history)


def _not_utf8(body: bytes, exc: UnicodeDecodeError) -> ProtocolError:
    """The error for a string that is not UTF-8, naming its field when the frame can be read as raw bytes."""
    where, request, req_id = "a msgpack string", None, None
    try:
        tree = msgpack.unpackb(body, raw=True, strict_map_key=False, ext_hook=_refuse_ext, timestamp=0,
                               max_array_len=MAX_ARRAY, max_map_len=MAX_MAP)
    except Exception:  # only a better message is at stake: the frame is refused either way
        tree = None
    if type(tree) is dict:
        kind = tree.get(b"t")
        if type(kind) is bytes and kind.isascii() and kind.decode().isidentifier() and len(kind) <= IDENT_MAX:
            request = kind.decode()
        raw_id = tree.get(b"id")
        req_id = raw_id if type(raw_id) is int and 0 <= raw_id < 2**53 else None
        path = _first_bad_text(tree, request or "frame")
        if path is not None:
            where = path
    return ProtocolError(ErrorCode.BAD_FRAME, f"{where}: not valid UTF-8 ({exc.reason}); text must be UTF-8, "
                                             "and binary data is not allowed as text", request=request, id=req_id)


def _first_bad_text(tree: object, where: str) -> str | None:
    """The path of the first raw string in ``tree`` that is not UTF-8 (keys included), if any."""
    stack: list[tuple[object, str]] = [(tree, where)]
    while stack:
        node, path = stack.pop()
        if type(node) is bytes:
            try:
                node.decode("utf-8")
            except UnicodeDecodeError:
                return path
        elif type(node) is dict:
            for key, value in reversed(list(node.items())):
                try:
                    name = key.decode("utf-8") if type(key) is bytes else str(key)
                except UnicodeDecodeError:
                    return f"{path} (a key)"
                stack.append((value, f"{path}.{printable(name, 24)}"))  # a peer's key: quoted short
        elif type(node) is list:
            stack.extend((item, f"{path}[{i}]") for i, item in reversed(list(enumerate(node))))
    return None


def _invalid(why: str) -> str:
    """What was wrong with a frame msgpack refused, from the text of msgpack's exception."""
    if "exceeds max_array_len" in why or "exceeds max_map_len" in why:
        return (f"the frame holds a map or an array longer than the protocol allows ({MAX_MAP} entries, "
                f"{MAX_ARRAY} items)")
    if "map key" in why:
        return "the frame holds a map key that is not a string: every key is a msgpack str"
    return "the frame is not valid msgpack: it ends too early or holds a byte msgpack does not define"


class Decoder:
    """Turns a byte stream into messages, enforcing the frame cap and every field check.

    ``peer`` says who is on the other end: a server decodes with
    ``peer="client"`` and refuses server-only types such as "view"; None
    accepts every type (tools, tests).

    Three ways to use it. ``feed(data)`` buffers the bytes and returns every
    complete message; if a frame is bad it raises ProtocolError, whose
    ``messages`` holds the good ones decoded before it in the same call.
    ``take(data)`` returns them with a ProtocolError in the place of each
    bad frame, which lets a server answer a bad request and go on; so does
    ``receive(data)`` then ``next_message()`` until it returns None. After a non-fatal
    error the bad frame is skipped; after a fatal one (``frame_too_large``,
    ``protocol_version``, ``history_gap``) the decoder refuses everything:
    close the connection.

    It keeps the history of the latest game it received a view of, so a
    ``view`` that sends only new events (see ``Encoder``) still comes out
    whole: ``ViewUpdate.view.events`` is always the game's entire history.
    """

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME, *,
                 peer: Literal["client", "server"] | None = None) -> None:
        if max_frame < 1:
            raise ValueError("max_frame must be at least 1 byte")
        self.max_frame = max_frame
        self._accept: frozenset[str] | None = (
            None if peer is None else frozenset(CLIENT_TYPES if peer == "client" else SERVER_TYPES)
        )
        self._buffer = bytearray()
        self._start = 0  # where the next frame begins: whole frames are dropped from the front lazily
        self._broken: ProtocolError | None = None
        self._history: History | None = None  # the latest game viewed and its events, as views continue it

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole frame."""
        return len(self._buffer) - self._start

    def receive(self, data: bytes) -> None:
        """Add bytes from the peer; refuses at once a frame header over the cap."""
        if self._broken is not None:
            raise self._broken
        if self._start:
            # Drop the frames already read in one move, rather than one memmove per frame.
            del self._buffer[:self._start]
            self._start = 0
        self._buffer += data
        self._check_header()

    def _check_header(self) -> None:
        buffer, start = self._buffer, self._start
        if len(buffer) - start >= 4:
            (length,) = HEADER.unpack_from(buffer, start)
            if length > self.max_frame:
                self._fail(ProtocolError(
                    ErrorCode.FRAME_TOO_LARGE,
                    f"a frame declares {length} bytes, over the cap of {self.max_frame} bytes; "
                    "the connection cannot go on", fatal=True))

    def _fail(self, error: ProtocolError) -> NoReturn:
        """A fatal error: nothing after it can be trusted, so drop every byte and refuse from now on."""
        self._buffer = bytearray()
        self._start = 0
        self._broken = error
        raise error

    def next_message(self) -> Message | None:
        """The next complete message, or None until more bytes arrive."""
        if self._broken is not None:
            raise self._broken
        buffer, start = self._buffer, self._start
        if len(buffer) - start < 4:
            return None
        (length,) = HEADER.unpack_from(buffer, start)
        if length > self.max_frame:
            self._check_header()  # raises frame_too_large
        end = start + 4 + length
        if len(buffer) < end:
            return None
        body = bytes(buffer[start + 4:end])
        self._start = end
        if end == len(buffer):
            self._buffer = bytearray()  # a new one: the old one's memory (a big frame's) is given back
            self._start = 0
        if length == 0:
            raise ProtocolError(ErrorCode.BAD_FRAME, "an empty frame: every frame holds one msgpack map")
        try:
            message = decode_body(body, self._accept, self._history)
        except ProtocolError as exc:
            if exc.fatal:
                self._fail(exc)
            # Without its traceback and context, the error holds nothing of the frame (its decoded tree may be
            # megabytes, reachable from the frames of the decoding).
            exc.__context__ = None
            raise exc.with_traceback(None) from None
        if type(message) is ViewUpdate:
            self._history = (message.game, message.view.events)
        return message

    def take(self, data: bytes) -> Iterator[Message | ProtocolError]:
        """Add bytes; then every message now complete, and an error in the place of each bad frame (skipped: the
        next ones may be fine). A fatal error comes last: nothing after it is read. An error keeps no traceback,
        which would hold the bad frame's decoded tree.

        Each message is decoded when the caller asks for the next, not all at once: a server that carries out a
        peer's messages at its own pace (a budget per address) keeps the rest as bytes, rather than a decoded
        object each, alive for as long as they wait."""
        try:
            self.receive(data)
        except ProtocolError as e:
            return iter([e.with_traceback(None)])  # fatal: a frame over the cap
        return self._taken()

    def _taken(self) -> Iterator[Message | ProtocolError]:
        while True:
            try:
                message = self.next_message()
            except ProtocolError as e:
                yield e.with_traceback(None)
                if e.fatal:
                    return
                continue
            if message is None:
                return
            yield message

    def feed(self, data: bytes) -> list[Message]:
        """Add bytes and return every message now complete (see the class docstring for errors)."""
        self.receive(data)
        messages: list[Message] = []
        while True:
            try:
                message = self.next_message()
            except ProtocolError as exc:
                exc.messages = list(messages)
                raise
            if message is None:
                return messages
            messages.append(message)


