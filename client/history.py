"""The action log: each public event of a game told as one line a player reads.

A line names players and hand slots ("Bob clues Alice: red → slots 2, 4"), so
it needs the hands as they were *before* the event. Views carry only the
current hands, so we follow every hand from the deal through the events with
the engine's own ``opening_hands`` and ``hands_after``. Lines are fragments ``(style, text)`` so that cards
can be drawn in their colours; the styles are class names the app's style maps.
"""

from __future__ import annotations

from collections.abc import Sequence

from hanabi.engine import Card, Clue, Event, GameConfig, Hands, Play, RearrangeEvent, hands_after, opening_hands
from prompt_toolkit.formatted_text import StyleAndTextTuples

Fragments = StyleAndTextTuples


def card_style(card: Card | None) -> str:
    """The style class of a card: its suit's colour, or "unknown" for a hidden card."""
    return "class:card.unknown" if card is None else f"class:card.{card.suit.value}"


def slots_of(hand: Sequence[int], orders: Sequence[int]) -> list[int]:
    """1-based slots of ``orders`` in ``hand`` (slot 1 is the newest card)."""
    return [i + 1 for i, o in enumerate(hand) if o in orders]


def _slot_text(slots: Sequence[int]) -> str:
    if not slots:
        return "no card"
    word = "slot" if len(slots) == 1 else "slots"
    return f"{word} {', '.join(str(s) for s in slots)}"


def describe(event: Event, before: Hands, names: Sequence[str], deck_size: int | None = None) -> Fragments:
    """One event as a line of fragments; ``before`` are the hands just before it happened."""
    who = names[event.seat] if event.seat < len(names) else f"seat {event.seat + 1}"
    if isinstance(event, RearrangeEvent):
        return [("class:log.rearrange", f"{who} rearranges their hand")]
    action = event.action
    if isinstance(action, Clue):
        target = names[action.target] if action.target < len(names) else f"seat {action.target + 1}"
        slots = slots_of(before[action.target], event.touched)
        value_style = f"class:card.{action.colour.value}" if action.colour is not None else "class:log.rank"
        return [
            ("class:log.clue", f"{who} clues {target}: "),
            (value_style, action.value),
            ("class:log.clue", f" → {_slot_text(slots)}"),
        ]
    slot = slots_of(before[event.seat], [action.order])
    # A card in no hand was played blind from the deck (option deck_plays): the deck's last card.
    where = f" from slot {slot[0]}" if slot else " blind from the deck"
    card = event.card
    card_frag = (card_style(card), str(card) if card is not None else "a card")
    extra = " (+1 clue)" if event.clue_gained else ""
    last = ""
    if deck_size is not None and deck_size - 1 in (event.drawn, None if slot else action.order):
        last = "; that was the last card: everyone plays once more"
    if isinstance(action, Play):
        if event.success:
            return [("class:log.play", f"{who} plays "), card_frag, ("class:log.play", where + extra + last)]
        return [("class:log.misplay", f"{who} misplays "), card_frag,
                ("class:log.misplay", where + ": strike!" + last)]
    return [("class:log.discard", f"{who} discards "), card_frag, ("class:log.discard", where + extra + last)]


def describe_all(config: GameConfig, events: Sequence[Event], names: Sequence[str],
                 deck_size: int | None = None) -> tuple[list[Fragments], Hands]:
    """Every event as a line, and the hands after the last one."""
    hands = opening_hands(config)
    lines = []
    for event in events:
        lines.append(describe(event, hands, names, deck_size))
        hands = hands_after(hands, event)
    return lines, hands
