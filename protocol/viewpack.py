"""The body of a ``view`` frame, packed from parts that the views of one moment share.

After every move a server sends each seat (and spectator) its own view. The
views differ only in ``seat`` and in the viewer's own hand; everything else
is the same, and so are the bytes msgpack makes of it. A msgpack map is its
header followed by its keys and values, one after the other, so a body can
be put together from parts packed separately, byte for byte what packing
the whole map at once gives (a test holds the two to it).

``PackMemo`` keeps the parts while the views of one moment are encoded:
the options, each hand, and the public rest of the view (with the history
from ``since``). Parts are found by the identity of the engine values they
were packed from (``engine.views_for`` builds the views so that they share
them) and keep those values alive, so an identity can never be reused by
another value while the memo lives. Views that share nothing just get no
help: the result is the same.

The move's ``event`` frame, which goes out with the views, is put together
here too (``pack_event_body``): the generic ``to_wire`` walks the message's
field plan, too slow for a frame of every move of every table.
"""

from __future__ import annotations

from typing import Any

import msgpack
from hanabi.engine import CardView, Event, PlayerView, RearrangeEvent, TurnEvent

from .engine_wire import (
    _NAME_OF,
    MAX_DECK,
    MAX_EVENTS,
    config_to_wire,
    event_pages,
    event_to_wire,
    events_to_wire,
    outcome_to_wire,
)
from .fields import MAX_SAFE_INT, FieldError
from .version import PROTOCOL_VERSION

# The same settings as framing's packer (strict_types off: tuples pack as arrays).
_pack = msgpack.Packer(use_bin_type=True, datetime=False, strict_types=False).pack


def _array_header(items: int) -> bytes:
    return bytes([0x90 | items]) if items < 16 else b"\xdc" + items.to_bytes(2, "big")


# Small integers (seats, counts, ids) are one byte each; looking them up skips a call into msgpack.
_SMALL = tuple(_pack(n) for n in range(128))
_NIL = _pack(None)
_HAND_ARRAYS = tuple(_array_header(n) for n in range(16))


def _pack_int(value: int | None) -> bytes:
    """``value`` packed: small integers are looked up (msgpack packs anything else, a bool as a bool)."""
    return _SMALL[value] if type(value) is int and 0 <= value < 128 else _pack(value)


# Every [order, card] pair a discard pile can hold, packed. The pile is most of a view's public rest, and the
# rest is packed anew after every move: looked up, a pair costs a fifth of what msgpack takes to pack it.
_DISCARD_ITEMS = tuple(tuple(_pack([order, name]) for name in _NAME_OF) for order in range(MAX_DECK))
# The keys of a view's public rest, in the order ``view_rest_to_wire`` writes them.
_FIREWORKS, _CLUE_TOKENS, _STRIKES, _DISCARD, _DECK_LEFT, _DECK_SIZE, _CURRENT, _TURN, _FINAL, _OUTCOME, _EVENTS = (
    _pack(key) for key in ("fireworks", "clue_tokens", "strikes", "discard", "deck_left", "deck_size", "current",
                           "turn", "final_turns_left", "outcome", "events"))


def _same_rest(view: PlayerView, other: PlayerView) -> bool:
    """Whether the values after the hands are the very same objects in both views (they pack the same)."""
    # Written out: a third of the cost of fetching them into tuples to compare.
    return (view.events is other.events and view.discard is other.discard and view.fireworks is other.fireworks
            and view.outcome is other.outcome and view.clue_tokens is other.clue_tokens
            and view.strikes is other.strikes and view.deck_left is other.deck_left
            and view.deck_size is other.deck_size and view.current is other.current and view.turn is other.turn
            and view.final_turns_left is other.final_turns_left)


def _pack_rest(view: PlayerView, since: int) -> bytes:
    """The keys and values of ``view`` after ``hands``: the bytes of ``view_rest_to_wire(view, since)`` packed
    as a map, less the map's header (a msgpack map is its header, then its keys and values one after the other).
    """
    items = _DISCARD_ITEMS
    pile = [items[order][card.identity] if type(order) is int and 0 <= order < MAX_DECK
            else _pack([order, _NAME_OF[card.identity]]) for order, card in view.discard]
    outcome = None if view.outcome is None else outcome_to_wire(view.outcome)
    return b"".join((
        _FIREWORKS, _pack(view.fireworks), _CLUE_TOKENS, _pack_int(view.clue_tokens), _STRIKES,
        _pack_int(view.strikes), _DISCARD, _array_header(len(pile)), *pile, _DECK_LEFT, _pack_int(view.deck_left),
        _DECK_SIZE, _pack_int(view.deck_size), _CURRENT, _pack_int(view.current), _TURN, _pack_int(view.turn),
        _FINAL, _pack_int(view.final_turns_left), _OUTCOME, _pack(outcome),
        _EVENTS, _pack_events(view.events, since),
    ))


_ONE_PAGE_OF_ONE = b"\x91\x91"  # [[event]]: the history a view brings after every move


def _pack_events(events: tuple[Event, ...], since: int) -> bytes:
    """The history from event ``since`` on, in pages (``engine_wire.event_pages``), packed."""
    if len(events) == since + 1:  # one new event, as after every move: no pages to make
        return _ONE_PAGE_OF_ONE + _pack(event_to_wire(events[since]))
    return _pack(event_pages(events_to_wire(events[since:] if since else events)))


# {"v", "t", "game", "since", "view", "id"} and the view's 14 keys, in the order ``to_wire`` writes them.
_MESSAGE_HEAD = b"\x86" + _pack("v") + _pack(PROTOCOL_VERSION) + _pack("t") + _pack("view") + _pack("game")
_SINCE = _pack("since")
_VIEW = _pack("view") + b"\x8e" + _pack("seat")
_CONFIG = _pack("config")
_HANDS = _pack("hands")
_ID = _pack("id")
_NO_ID = _ID + _NIL


def _hand_to_wire(hand: tuple[CardView, ...]) -> list[list[Any]]:
    name_of = _NAME_OF
    return [[cv.order, None if cv.card is None else name_of[cv.card.identity], k.possible, k.colours, k.ranks,
             k.not_colours, k.not_ranks] for cv in hand for k in (cv.knowledge,)]


class PackMemo:
    """Parts of ``view`` bodies packed once for every view of one moment of a game (see the module docstring).

    Make one per moment (a table makes one per move) and hand it to each
    connection's ``Encoder.encode``. Made from the memo of the moment
    before, it starts with the hands and options packed then: a hand that a
    move left alone (``engine.views_for`` can hand out the same object
    again) is not packed again. Only what the last moment used is carried,
    so a chain of memos stays small.

    Every part is found by the identity of the values it was packed from,
    and the memo keeps those values: while it lives, no other value can
    have their identity, so finding a part by ``id`` finds the part of that
    very value.
    """

    __slots__ = ("_config", "_hands", "_head", "_rests", "_used")

    def __init__(self, before: PackMemo | None = None) -> None:
        self._hands: dict[int, tuple[object, bytes]] = {} if before is None else dict(before._used)
        self._used: dict[int, tuple[object, bytes]] = {}  # the hands packed or reused at this moment
        # The options with the keys around them, and the message up to the seat: the same for every view of a
        # moment (the game and ``since`` too, but for a connection that is new to the game).
        self._config: tuple[object, bytes] | None = None if before is None else before._config
        self._head: tuple[int, int, bytes] | None = None
        # Per ``since``: the view the rest was packed from (kept, for the identity of its values) and its bytes.
        self._rests: dict[int, tuple[PlayerView, bytes]] = {}

    def pack_view(self, game: int, view: PlayerView, since: int, request_id: int | None) -> bytes:
        """The msgpack body of a ``view`` message, equal to packing ``to_wire(ViewUpdate(...), since)``.

        Raises FieldError for what ``to_wire`` refuses: a view that is no PlayerView, a game id out of range,
        a ``since`` outside the history, a history over the limit.
        """
        if type(view) is not PlayerView:
            raise FieldError("view.view", f"expected PlayerView, got {view!r:.60}")
        if type(game) is not int or not 0 <= game <= MAX_SAFE_INT:
            raise FieldError("view.game", f"expected an integer from 0 to {MAX_SAFE_INT}, got {game!r:.40}")
        if request_id is not None and (type(request_id) is not int or not 0 <= request_id <= MAX_SAFE_INT):
            raise FieldError("view.id", f"expected an integer from 0 to {MAX_SAFE_INT} or nil, "
                                        f"got {request_id!r:.40}")
        events = len(view.events)
        if not 0 <= since <= events:
            raise FieldError("view.since", f"{since} is not within the view's {events} events")
        if events > MAX_EVENTS:
            raise FieldError("view.events", f"{events} events; a view carries at most {MAX_EVENTS}")
        head = self._head
        if head is None or head[0] != game or head[1] != since:
            head = self._head = (game, since, b"".join((_MESSAGE_HEAD, _pack_int(game), _SINCE, _pack_int(since),
                                                        _VIEW)))
        config = self._config
        if config is None or config[0] is not view.config:
            config = self._config = (view.config, _CONFIG + _pack(config_to_wire(view.config)) + _HANDS)
        rest = self._rests.get(since)
        if rest is None or not _same_rest(view, rest[0]):
            rest = self._rests[since] = (view, _pack_rest(view, since))
        hands = view.hands
        memo, used = self._hands, self._used
        packed = []
        for hand in hands:
            key = id(hand)
            known = memo.get(key)
            if known is None:
                known = memo[key] = (hand, _pack(_hand_to_wire(hand)))
            used[key] = known
            packed.append(known[1])
        return b"".join((head[2], _pack_int(view.seat), config[1],
                         _HAND_ARRAYS[len(hands)] if len(hands) < 16 else _array_header(len(hands)), *packed,
                         rest[1], _NO_ID if request_id is None else _ID + _pack_int(request_id)))


# {"v", "t", "game", "event", "id"}: the ``event`` frame a table sends with the views of every move.
_EVENT_HEAD = b"\x85" + _pack("v") + _pack(PROTOCOL_VERSION) + _pack("t") + _pack("event") + _pack("game")
_EVENT = _pack("event")


def pack_event_body(game: int, event: Event, request_id: int | None) -> bytes | None:
    """The msgpack body of an ``event`` message, equal to packing ``to_wire(GameEvent(...))``; None for values
    that ``to_wire`` has to judge (it says what is wrong with them)."""
    if (type(game) is not int or not 0 <= game <= MAX_SAFE_INT or (type(event) is not TurnEvent and
            type(event) is not RearrangeEvent) or (request_id is not None and (type(request_id) is not int
                                                                            or not 0 <= request_id <= MAX_SAFE_INT))):
        return None
    return b"".join((_EVENT_HEAD, _pack_int(game), _EVENT, _pack(event_to_wire(event)),
                     _NO_ID if request_id is None else _ID + _pack_int(request_id)))
