"""Which card orders each seat holds: after the deal, and after each event.

The one place that says how hands move: the deal gives seat 0 the first
cards of the deck, then seat 1, and so on, each card dealt going to slot 1;
a played or discarded card leaves its hand, and its replacement is drawn
into slot 1, so the last slot holds the oldest card; a rearrangement puts
the hand in its new order. ``apply`` moves hands with these functions, and
anyone who follows a game from its public events (a client's action log, a
bot's memory) calls them too, so that they cannot disagree with the engine.
"""

from __future__ import annotations

from .actions import Clue, Event, RearrangeEvent
from .options import GameConfig

Hands = tuple[tuple[int, ...], ...]


def opening_hands(config: GameConfig) -> Hands:
    """The card orders each seat holds after the deal, slot 1 first (the same for every shuffle)."""
    size = config.hand_size
    return tuple(tuple(reversed(range(seat * size, (seat + 1) * size))) for seat in range(config.players))


def hands_after(hands: Hands, event: Event) -> Hands:
    """The hands once ``event`` has happened: a played or discarded card leaves, the drawn card enters slot 1."""
    if isinstance(event, RearrangeEvent):
        changed = event.hand
    elif isinstance(event.action, Clue):
        return hands
    else:
        order = event.action.order
        kept = tuple([o for o in hands[event.seat] if o != order])
        changed = kept if event.drawn is None else (event.drawn, *kept)
    return hands[:event.seat] + (changed,) + hands[event.seat + 1:]
