"""The engine's values on the wire: cards, options, actions, events, outcomes and views.

The protocol carries engine types, so it also says how they look as plain
msgpack trees and checks them on the way back, so that a client can rebuild
a ``PlayerView`` and render it with the engine's own helpers.

Shapes (docs/protocol.md has the full tables):

* a card is its short name, ``"R3"`` (suit letter R Y G B W M, then rank);
* a card in a hand is an array ``[order, card or nil, possible, colours,
  ranks, not_colours, not_ranks]`` (the knowledge bitmasks of
  ``CardKnowledge``), because a view holds up to 25 of them;
* an event is an array whose first item is its kind, and a view's history
  travels in pages of at most 64 events (no array is longer than 64);
* everything else is a map with the engine's field names.

Decoding checks every item in turn and names the first bad one. A view's
history is not converted again with every view: a connection sends each
event only once (``framing.Encoder``), and its ``Decoder`` keeps the history
it received.
"""

from __future__ import annotations

from typing import Any, TypeVar

from hanabi.engine import (
    CLUE_TOKENS,
    MAX_PLAYERS,
    MAX_RANK,
    MAX_STRIKES,
    MIN_PLAYERS,
    SUITS,
    Card,
    CardKnowledge,
    CardView,
    ChatPolicy,
    Clue,
    Discard,
    EndReason,
    Event,
    GameConfig,
    Outcome,
    Play,
    PlayerView,
    RearrangeEvent,
    TurnAction,
    TurnEvent,
    Variant,
)
from hanabi.engine.action_fields import ActionFieldError, action_fields, turn_action_from_fields

from .fields import FieldError, Text, as_map, check_plain, kind_of, quote

# Bounds that keep a hostile view small and a confused one readable.
MAX_DECK = max(len(v.deck()) for v in Variant)  # 60 cards: six suits
MAX_HAND = 5
# No array on the wire holds more than MAX_ARRAY items, so a decoder can refuse
# a msgpack header that claims millions of items (5 bytes can claim 4 billion,
# and msgpack allocates for the claim before reading the items). A view's
# history is longer than that, so it travels in pages of at most MAX_ARRAY
# events. A game has at most about 140 turns, but every rearrangement of a
# hand adds an event too; the frame cap (about 3600 events) binds first.
MAX_ARRAY = 64
MAX_EVENTS = MAX_ARRAY * MAX_ARRAY
MAX_TURN = 10_000
MAX_DETAIL = 500  # characters of an outcome's sentence
_DETAIL = Text(0, MAX_DETAIL, multiline=True)

_IDENTITIES = len(SUITS) * MAX_RANK  # 30 possible card identities
_ALL_POSSIBLE = (1 << _IDENTITIES) - 1
_ALL_COLOURS = (1 << len(SUITS)) - 1
_ALL_RANKS = (1 << MAX_RANK) - 1

CARD_NAMES: dict[str, Card] = {str(Card.from_identity(i)): Card.from_identity(i) for i in range(_IDENTITIES)}
# A card's short name by its identity: str(card) reads two enum properties, and a view names many cards.
_NAME_OF = tuple(CARD_NAMES)
_SUIT_BY_VALUE = {s.value: s for s in SUITS}
_VARIANT_BY_NAME = {v.value: v for v in Variant}
_CHAT_BY_VALUE = {c.value: c for c in ChatPolicy}
_REASON_BY_VALUE = {r.value: r for r in EndReason}
_VARIANT_CARDS = {v: {str(c): c for c in v.deck()} for v in Variant}
_DECK_SIZE = {v: len(v.deck()) for v in Variant}


# The checks below name a bad value by ``where`` followed by ``item`` (``view.hands[0][2]`` and ``[0] (order)``):
# a view holds hundreds of values, and the two are put together only for the one that is refused.


def _where_int(value: object, where: str, lo: int, hi: int, item: str = "") -> int:
    if type(value) is not int:
        raise FieldError(where + item, f"expected an integer, got {kind_of(value)}")
    if not lo <= value <= hi:
        raise FieldError(where + item, f"{value} is out of range: it must be from {lo} to {hi}")
    return value


def _where_bool(value: object, where: str, item: str = "") -> bool:
    if type(value) is not bool:
        raise FieldError(where + item, f"expected a boolean, got {kind_of(value)}")
    return value


def _get(data: dict[str, Any], key: str, where: str) -> Any:
    try:
        return data[key]
    except KeyError:
        raise FieldError(f"{where}.{key}", "missing") from None


def _ignore_unknown(data: dict[str, Any], known: frozenset[str], where: str) -> None:
    """Unknown keys are tolerated (a newer peer may add optional fields), but must still be plain msgpack."""
    for key in data.keys() - known:
        check_plain(data[key], f"{where}.{key}")


# -- cards ---------------------------------------------------------------------------------------


def card_to_wire(card: Card) -> str:
    return _NAME_OF[card.identity]


def card_from_wire(value: object, where: str, variant: Variant | None = None, item: str = "") -> Card:
    """A card from its short name; with ``variant``, it must also belong to that deck."""
    table = CARD_NAMES if variant is None else _VARIANT_CARDS[variant]
    card = table.get(value) if type(value) is str else None
    if card is None:
        where += item
        if type(value) is str and value in CARD_NAMES and variant is not None:
            raise FieldError(where, f"{quote(value)} is not a card of the {variant.value} deck")
        got = quote(value) if type(value) is str else kind_of(value)
        raise FieldError(where, f"{got} is not a card: write a suit letter (R Y G B W M) and a rank 1-5, like \"R3\"")
    return card


# -- options -------------------------------------------------------------------------------------

# hanab.live's rule options (version 3): on the wire only when on, so a game without them looks as it always did.
_RULE_OPTIONS = ("end_when_no_points", "deck_plays")
_CONFIG_KEYS = frozenset({"players", "variant", "empty_clues", "all_or_nothing", "first_seat", "chat", *_RULE_OPTIONS})


def config_to_wire(config: GameConfig) -> dict[str, Any]:
    wire: dict[str, Any] = {
        "players": config.players,
        "variant": config.variant.value,
        "empty_clues": config.empty_clues,
        "all_or_nothing": config.all_or_nothing,
        "first_seat": config.first_seat,
        "chat": config.chat.value,
    }
    for option in _RULE_OPTIONS:
        if getattr(config, option):
            wire[option] = True
    return wire


_Named = TypeVar("_Named", Variant, ChatPolicy)


def _named(by_name: dict[str, _Named], value: object, where: str) -> _Named:
    """The enum member whose wire name is ``value``; anything else names the choices."""
    member = by_name.get(value) if type(value) is str else None
    if member is None:
        names = ", ".join(repr(name) for name in by_name)
        raise FieldError(where, f"{quote(value) if type(value) is str else kind_of(value)} is not one of {names}")
    return member


def variant_from_wire(value: object, where: str) -> Variant:
    return _named(_VARIANT_BY_NAME, value, where)


def chat_from_wire(value: object, where: str) -> ChatPolicy:
    return _named(_CHAT_BY_VALUE, value, where)


def config_from_wire(value: object, where: str) -> GameConfig:
    data = as_map(value, where)
    players = _where_int(_get(data, "players", where), f"{where}.players", MIN_PLAYERS, MAX_PLAYERS)
    first = data.get("first_seat")
    if first is not None:
        _where_int(first, f"{where}.first_seat", 0, players - 1)
    variant_name = _get(data, "variant", where)
    variant = variant_from_wire(variant_name, f"{where}.variant")
    empty = _where_bool(_get(data, "empty_clues", where), f"{where}.empty_clues")
    aon = _where_bool(_get(data, "all_or_nothing", where), f"{where}.all_or_nothing")
    chat_name = data.get("chat", ChatPolicy.BETWEEN_GAMES.value)
    chat = chat_from_wire(chat_name, f"{where}.chat")
    rules = {option: _where_bool(data[option], f"{where}.{option}") for option in _RULE_OPTIONS if option in data}
    if len(data) > 6 + len(rules):
        _ignore_unknown(data, _CONFIG_KEYS, where)
    return GameConfig(players, variant, empty, aon, first, chat, **rules)


# -- actions -------------------------------------------------------------------------------------


def action_to_wire(action: TurnAction) -> dict[str, Any]:
    """The five flat fields of a turn action (``action_fields``): kind, order, target, colour, rank (unused ones
    nil)."""
    if type(action) not in (Play, Discard, Clue):
        raise FieldError("action", f"{action!r} is not a turn action (play, discard or clue)")
    try:
        return action_fields(action)
    except ActionFieldError as exc:
        raise FieldError("action", exc.problem) from None


def action_from_wire(data: dict[str, Any], where: str) -> TurnAction:
    """A turn action from the flat fields; the fields a kind does not use must be nil or absent."""
    try:
        return turn_action_from_fields(data)
    except ActionFieldError as exc:
        raise FieldError(f"{where}.{exc.field}" if exc.field else where, exc.problem) from None


# -- events --------------------------------------------------------------------------------------
#
# An event is an array whose first item names its kind; a view holds the whole
# history, so arrays keep it small (a map would repeat every key per event):
#
#   ["play", turn, seat, order, card, success, drawn, clue_gained]
#   ["discard", turn, seat, order, card, drawn, clue_gained]
#   ["clue", turn, seat, target, colour or rank, touched]
#   ["rearrange", seat, hand]
#
# A later revision may append items; receivers ignore items past these.

_EVENT_LENGTHS = {"play": 8, "discard": 7, "clue": 6, "rearrange": 3}


def event_to_wire(event: Event) -> list[Any]:
    if type(event) is RearrangeEvent:
        return ["rearrange", event.seat, list(event.hand)]
    assert type(event) is TurnEvent
    action = event.action
    kind = type(action)
    if kind is Clue:
        assert type(action) is Clue
        value: str | int | None = action.colour.value if action.colour is not None else action.rank
        return ["clue", event.turn, event.seat, action.target, value, list(event.touched)]
    card = _NAME_OF[event.card.identity] if event.card is not None else None
    if kind is Play:
        assert type(action) is Play
        return ["play", event.turn, event.seat, action.order, card, event.success, event.drawn, event.clue_gained]
    assert type(action) is Discard
    return ["discard", event.turn, event.seat, action.order, card, event.drawn, event.clue_gained]


def _orders(value: object, where: str, deck_size: int, hi: int) -> tuple[int, ...]:
    if type(value) is not list:
        raise FieldError(where, f"expected an array of card orders, got {kind_of(value)}")
    if len(value) > hi:
        raise FieldError(where, f"holds {len(value)} card orders; at most {hi} are possible")
    for i, o in enumerate(value):
        if type(o) is not int or not 0 <= o < deck_size:
            _where_int(o, where, 0, deck_size - 1, f"[{i}]")
    return tuple(value)


def event_from_wire(value: object, where: str, players: int = MAX_PLAYERS, variant: Variant | None = None,
                    deck_size: int = MAX_DECK) -> Event:
    """An event from its array; ``players``, ``variant`` and ``deck_size`` bound seats, cards and orders."""
    if type(value) is not list or not value:
        raise FieldError(where, f'expected an event array such as ["play", turn, seat, ...], got {kind_of(value)}')
    kind = value[0]
    size = _EVENT_LENGTHS.get(kind) if type(kind) is str else None
    if size is None:
        got = quote(kind) if type(kind) is str else kind_of(kind)
        raise FieldError(f"{where}[0]", f'{got} is not an event kind: "play", "discard", "clue" or "rearrange"')
    if len(value) < size:
        raise FieldError(where, f"a {kind} event has {size} items, not {len(value)}")
    if len(value) > size:  # items a later revision may add: ignored, but plain
        for i in range(size, len(value)):
            check_plain(value[i], f"{where}[{i}]")
    if kind == "rearrange":
        return RearrangeEvent(_where_int(value[1], where, 0, players - 1, "[1] (seat)"),
                              _orders(value[2], f"{where}[2] (hand)", deck_size, MAX_HAND))
    turn = _where_int(value[1], where, 0, MAX_TURN, "[1] (turn)")
    seat = _where_int(value[2], where, 0, players - 1, "[2] (seat)")
    if kind == "clue":
        target = _where_int(value[3], where, 0, players - 1, "[3] (target)")
        clue_value = value[4]
        clue: Clue
        if type(clue_value) is int:
            clue = Clue(target, rank=_where_int(clue_value, where, 1, MAX_RANK, "[4] (rank)"))
        elif type(clue_value) is str and clue_value in _SUIT_BY_VALUE:
            clue = Clue(target, colour=_SUIT_BY_VALUE[clue_value])
        else:
            got = quote(clue_value) if type(clue_value) is str else kind_of(clue_value)
            raise FieldError(f"{where}[4] (colour or rank)", f"{got} is neither a colour nor a rank 1-5")
        return TurnEvent(turn, seat, clue, touched=_orders(value[5], f"{where}[5] (touched)", deck_size, MAX_HAND))
    order = _where_int(value[3], where, 0, deck_size - 1, "[3] (order)")
    card = card_from_wire(value[4], where, variant, "[4] (card)")
    success, rest = (_where_bool(value[5], where, "[5] (success)"), 6) if kind == "play" else (False, 5)
    drawn = value[rest]
    if drawn is not None:
        _where_int(drawn, where, 0, deck_size - 1, f"[{rest}] (drawn)")
    gained = _where_bool(value[rest + 1], where, f"[{rest + 1}] (clue_gained)")
    action: TurnAction = Play(order) if kind == "play" else Discard(order)
    return TurnEvent(turn, seat, action, card, success, (), drawn, gained)


def event_pages(events: list[list[Any]]) -> list[list[list[Any]]]:
    """Wire events in pages of MAX_ARRAY (the last one shorter), as a view carries its history."""
    return [events[i:i + MAX_ARRAY] for i in range(0, len(events), MAX_ARRAY)]


def events_to_wire(events: tuple[Event, ...] | list[Event]) -> list[list[Any]]:
    """Events as wire arrays (not yet in pages)."""
    return [event_to_wire(e) for e in events]


def events_from_wire(value: object, where: str, players: int, variant: Variant, deck_size: int) -> tuple[Event, ...]:
    """Events from their pages of wire arrays."""
    if type(value) is not list or len(value) > MAX_ARRAY:
        raise FieldError(where, f"expected an array of at most {MAX_ARRAY} pages of events")
    pages = value
    events: list[Event] = []
    for i, page in enumerate(pages):
        last = i == len(pages) - 1
        if type(page) is not list or not (0 < len(page) <= MAX_ARRAY if last else len(page) == MAX_ARRAY):
            raise FieldError(f"{where}[{i}]", f"expected a page of events: {MAX_ARRAY} of them in every page "
                                              f"but the last, which holds 1 to {MAX_ARRAY}")
        events += (event_from_wire(item, f"{where}[{i}][{j}]", players, variant, deck_size)
                   for j, item in enumerate(page))
    return tuple(events)


# -- outcomes ------------------------------------------------------------------------------------

_OUTCOME_KEYS = frozenset({"reason", "score", "max_score", "detail", "all_or_nothing", "rating"})


def outcome_to_wire(outcome: Outcome) -> dict[str, Any]:
    """``rating`` is derived, sent for clients that do not know the rulebook's table; receivers ignore it."""
    return {"reason": outcome.reason.value, "score": outcome.score, "max_score": outcome.max_score,
            "detail": outcome.detail, "all_or_nothing": outcome.all_or_nothing, "rating": outcome.rating}


def outcome_from_wire(value: object, where: str) -> Outcome:
    data = as_map(value, where)
    raw_reason = _get(data, "reason", where)
    reason = _REASON_BY_VALUE.get(raw_reason) if type(raw_reason) is str else None
    if reason is None:
        names = ", ".join(repr(r.value) for r in EndReason)
        got = quote(raw_reason) if type(raw_reason) is str else kind_of(raw_reason)
        raise FieldError(f"{where}.reason", f"{got} is not one of {names}")
    max_score = _where_int(_get(data, "max_score", where), f"{where}.max_score", 0, len(SUITS) * MAX_RANK)
    score = _where_int(_get(data, "score", where), f"{where}.score", 0, max_score)
    detail = _DETAIL.decode(_get(data, "detail", where), f"{where}.detail")
    outcome = Outcome(reason, score, max_score, detail,
                      _where_bool(data.get("all_or_nothing", False), f"{where}.all_or_nothing"))
    if len(data) > 6:
        _ignore_unknown(data, _OUTCOME_KEYS, where)
    return outcome


# -- views ---------------------------------------------------------------------------------------

_VIEW_KEYS = frozenset({"seat", "config", "hands", "fireworks", "clue_tokens", "strikes", "discard", "deck_left",
                        "deck_size", "current", "turn", "final_turns_left", "outcome", "events"})


def view_to_wire(view: PlayerView, since: int = 0) -> dict[str, Any]:
    """A view as a map; cards in hands are 7-item arrays (see the module docstring). Its ``events`` are the
    history from event ``since`` on (0: all of it; a ``view`` message says where they start)."""
    if len(view.events) > MAX_EVENTS:
        raise FieldError("view.events", f"{len(view.events)} events; a view carries at most {MAX_EVENTS}")
    name_of = _NAME_OF
    return {
        "seat": view.seat,
        "config": config_to_wire(view.config),
        "hands": [[[cv.order, None if cv.card is None else name_of[cv.card.identity], k.possible, k.colours,
                    k.ranks, k.not_colours, k.not_ranks] for cv in hand for k in (cv.knowledge,)]
                  for hand in view.hands],
        "fireworks": list(view.fireworks),
        "clue_tokens": view.clue_tokens,
        "strikes": view.strikes,
        "discard": [[order, name_of[card.identity]] for order, card in view.discard],
        "deck_left": view.deck_left,
        "deck_size": view.deck_size,
        "current": view.current,
        "turn": view.turn,
        "final_turns_left": view.final_turns_left,
        "outcome": None if view.outcome is None else outcome_to_wire(view.outcome),
        "events": event_pages(events_to_wire(view.events[since:])),
    }


def _card_view_from_wire(value: object, where: str, deck_size: int, variant: Variant) -> CardView:
    if type(value) is list and len(value) > 7:  # items a later revision may add: ignored, but plain
        for j in range(7, len(value)):
            check_plain(value[j], f"{where}[{j}]")
        value = value[:7]
    if type(value) is not list or len(value) != 7:
        raise FieldError(where, "expected [order, card or nil, possible, colours, ranks, not_colours, not_ranks], "
                                f"got {kind_of(value)}" + (f" of {len(value)} items" if type(value) is list else ""))
    order, card, p, c, r, nc, nr = value
    return CardView(
        _where_int(order, where, 0, deck_size - 1, "[0] (order)"),
        None if card is None else card_from_wire(card, where, variant, "[1] (card)"),
        CardKnowledge(_where_int(p, where, 0, _ALL_POSSIBLE, "[2] (possible)"),
                      _where_int(c, where, 0, _ALL_COLOURS, "[3] (colours)"),
                      _where_int(r, where, 0, _ALL_RANKS, "[4] (ranks)"),
                      _where_int(nc, where, 0, _ALL_COLOURS, "[5] (not_colours)"),
                      _where_int(nr, where, 0, _ALL_RANKS, "[6] (not_ranks)")),
    )


def _hands_from_wire(value: object, where: str, players: int, deck_size: int,
                     variant: Variant) -> tuple[tuple[CardView, ...], ...]:
    if type(value) is not list or len(value) != players:
        raise FieldError(where, f"expected an array of {players} hands, got "
                                + (f"{len(value)}" if type(value) is list else kind_of(value)))
    hands = []
    for s, hand in enumerate(value):
        if type(hand) is not list or len(hand) > MAX_HAND:
            raise FieldError(f"{where}[{s}]", f"expected an array of at most {MAX_HAND} cards")
        hands.append(tuple(_card_view_from_wire(item, f"{where}[{s}][{i}]", deck_size, variant)
                           for i, item in enumerate(hand)))
    return tuple(hands)


def view_from_wire(value: object, where: str = "view", before: tuple[Event, ...] = ()) -> PlayerView:
    """Check a wire view item by item and rebuild the engine's ``PlayerView``; its wire ``events`` follow the
    events ``before`` (the history this connection already holds), and the view holds them all."""
    data = as_map(value, where)
    config = config_from_wire(_get(data, "config", where), f"{where}.config")
    players, variant = config.players, config.variant
    deck_size = _where_int(_get(data, "deck_size", where), f"{where}.deck_size", 1, MAX_DECK)
    if deck_size != _DECK_SIZE[variant]:
        raise FieldError(f"{where}.deck_size", f"the {variant.value} deck has {_DECK_SIZE[variant]} cards, "
                                               f"not {deck_size}")
    seat = data.get("seat")
    if seat is not None:
        _where_int(seat, f"{where}.seat", 0, players - 1)
    fireworks = _get(data, "fireworks", where)
    suits = len(variant.suits)
    if (type(fireworks) is not list or len(fireworks) != suits
            or not all(type(h) is int and 0 <= h <= MAX_RANK for h in fireworks)):
        raise FieldError(f"{where}.fireworks", f"expected an array of {suits} heights from 0 to {MAX_RANK}")
    discard_raw = _get(data, "discard", where)
    if type(discard_raw) is not list or len(discard_raw) > deck_size:
        raise FieldError(f"{where}.discard", f"expected an array of at most {deck_size} [order, card] pairs")
    discard = []
    for i, pair in enumerate(discard_raw):
        if type(pair) is not list or len(pair) != 2:
            raise FieldError(f"{where}.discard[{i}]", "expected an [order, card] pair")
        discard.append((_where_int(pair[0], f"{where}.discard[{i}][0]", 0, deck_size - 1),
                        card_from_wire(pair[1], f"{where}.discard[{i}][1]", variant)))
    final = data.get("final_turns_left")
    if final is not None:
        _where_int(final, f"{where}.final_turns_left", 0, players)
    outcome = data.get("outcome")
    events = events_from_wire(_get(data, "events", where), f"{where}.events", players, variant, deck_size)
    if before:
        if len(before) + len(events) > MAX_EVENTS:
            raise FieldError(f"{where}.events", f"{len(before)} events held and {len(events)} more; a game's "
                                                f"history holds at most {MAX_EVENTS}")
        events = before + events
    view = PlayerView(
        seat=seat,
        config=config,
        hands=_hands_from_wire(_get(data, "hands", where), f"{where}.hands", players, deck_size, variant),
        fireworks=tuple(fireworks),
        clue_tokens=_where_int(_get(data, "clue_tokens", where), f"{where}.clue_tokens", 0, CLUE_TOKENS),
        strikes=_where_int(_get(data, "strikes", where), f"{where}.strikes", 0, MAX_STRIKES),
        discard=tuple(discard),
        deck_left=_where_int(_get(data, "deck_left", where), f"{where}.deck_left", 0, deck_size),
        deck_size=deck_size,
        current=_where_int(_get(data, "current", where), f"{where}.current", 0, players - 1),
        turn=_where_int(_get(data, "turn", where), f"{where}.turn", 0, MAX_TURN),
        final_turns_left=final,
        outcome=None if outcome is None else outcome_from_wire(outcome, f"{where}.outcome"),
        events=events,
    )
    if len(data) > 14:
        _ignore_unknown(data, _VIEW_KEYS, where)
    return view
