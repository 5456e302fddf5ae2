"""A ``view`` frame's body joined from parts that the views of one moment share, each packed once.

After every move the server sends each seat (and spectator) its view, and
the views differ only in ``seat`` and the viewer's own hand: the options,
the other hands and everything after the hands (``view_rest_to_wire``) are
the same. A msgpack map is a header followed by its keys and values one
after the other, so a body can be joined from values packed on their own:
the very bytes that packing ``to_wire``'s whole map gives (a test holds the
two to it). Encoding the five views of a move of a 5-player game took
100 µs of CPU when each view's whole map was packed (before this
module); joined from parts packed once for the move, 64-66 µs; with the
hands a move left alone taken from the last move's parts, 46-48 µs
(``python bench/movebench.py``, its last line, which also shows that a
view joined alone costs more than packing its map: the parts pay from a
move's second view on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
from hanabi.engine import PlayerView

from .engine_wire import config_to_wire, hand_to_wire, view_rest_to_wire
from .fields import FieldError
from .messages import ViewUpdate, cannot_send, view_envelope
from .version import PROTOCOL_VERSION

# The settings of framing's packer (strict_types off: tuples pack as arrays).
_packer = msgpack.Packer(use_bin_type=True, datetime=False, strict_types=False)
_pack = _packer.pack

# The message's six keys and the view's fourteen, in to_wire's order (both maps have fewer than 16 keys: the
# header is one byte). ``view_rest_to_wire`` gives the view's last eleven.
_MESSAGE = b"\x86" + _pack("v") + _pack(PROTOCOL_VERSION) + _pack("t") + _pack("view") + _pack("game")
_SINCE = _pack("since")
_VIEW = _pack("view") + b"\x8e" + _pack("seat")
_CONFIG = _pack("config")
_HANDS = _pack("hands")
_ID = _pack("id")


class ViewParts:
    """The packed parts of the views of one moment of a game, for every connection that sends one of them.

    Make one per moment (a table makes one per move, from the last move's)
    and pass it to each connection's ``Encoder.encode``. A part is found by
    the identity of the value it was packed from (``engine.views_for`` gives
    the views of one moment the same objects), and the value is kept with
    it: while this lives, no other value can take that identity. Views that
    share nothing get no help, and the same bytes.
    """

    __slots__ = ("_before", "_parts")

    def __init__(self, before: ViewParts | None = None) -> None:
        self._parts: dict[object, tuple[object, bytes]] = {}
        # The parts of the moment before: a move changes one or two hands, and ``views_for`` hands out the
        # others again as the same objects, so their bytes are taken from there (64 -> 46 µs per move, see
        # above). Only what this moment uses is carried on: a chain of them does not grow.
        self._before = {} if before is None else before._parts

    def packed(self, key: object, value: Any, to_wire: Callable[[Any], object]) -> bytes:
        """``to_wire(value)`` packed, once for every ``key`` (which must say which value it is)."""
        part = self._parts.get(key) or self._before.get(key)
        if part is None:
            part = (value, _pack(to_wire(value)))
        self._parts[key] = part
        return part[1]

    def rest(self, view: PlayerView, since: int) -> bytes:
        """The keys and values of ``view_rest_to_wire(view, since)``, without the map's header."""
        # The rest's values, by identity where they are containers: equal keys pack to equal bytes.
        key = (since, id(view.events), id(view.discard), id(view.fireworks), id(view.outcome), view.clue_tokens,
               view.strikes, view.deck_left, view.deck_size, view.current, view.turn, view.final_turns_left)
        return self.packed(key, view, lambda v: view_rest_to_wire(v, since))[1:]  # 11 keys: a one-byte header


def view_body(message: ViewUpdate, since: int, parts: ViewParts) -> bytes:
    """The body of ``message``'s frame with the events from ``since`` on: ``to_wire(message, since)`` packed.
    Raises ProtocolError as ``to_wire`` does."""
    view = message.view
    try:
        game, request_id = view_envelope(message, since)
        hands = view.hands
        return b"".join([
            _MESSAGE, _pack(game), _SINCE, _pack(since), _VIEW, _pack(view.seat),
            _CONFIG, parts.packed(id(view.config), view.config, config_to_wire),
            _HANDS, _packer.pack_array_header(len(hands)),
            *[parts.packed(id(hand), hand, hand_to_wire) for hand in hands],
            parts.rest(view, since), _ID, _pack(request_id)])
    except FieldError as exc:
        raise cannot_send(message, exc) from None

