"""A seat's own past: the game as that seat saw it after each event, and the clues each card got.

``seat_history(view)`` rebuilds, from one view alone, the views its seat
received along the way: step 0 is the deal, step i the table after the
view's i-th event. It needs nothing but the view, so it cannot tell more
than the seat was told: every card of another hand is in the view or left
it face up (played or discarded), and the seat's own cards are shown as it
knew them then, from its knowledge only.

How: the engine replays the game itself. The cards the view names go where
they are; the others (the viewer's own, and the deck's undrawn cards) get
stand-ins that agree with every clue given so far, so each clue touches
exactly the cards it touched. Stand-ins only ever sit in the viewer's hand,
which each past view hides, or in the deck, which no view holds. The
option that ends a game when no point is left looks at those stand-ins, so
the replay runs without it; a game it ended is over at its last step only,
which is the view itself.

``clue_history(view, order)`` lists the clues given to a card's holder
while the card was in hand: which touched it and which passed it by.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .actions import Clue, TurnEvent
from .cards import Card
from .hands import hands_after, opening_hands
from .playback import action_of, replay_steps
from .state import game_from_deck
from .views import PlayerView, view_for


def _stand_ins(candidates: Sequence[int], left: Counter[int]) -> list[int] | None:
    """An identity for each card from its ``candidates`` mask, using at most ``left`` copies of each."""
    if not candidates:
        return []
    mask = candidates[0]
    for identity in range(mask.bit_length()):
        if mask >> identity & 1 and left[identity] > 0:
            left[identity] -= 1
            rest = _stand_ins(candidates[1:], left)
            left[identity] += 1
            if rest is not None:
                return [identity, *rest]
    return None


def _deck_for(view: PlayerView) -> list[Card]:
    """A whole deck that agrees with everything ``view`` says (see the module's docstring)."""
    known: dict[int, Card] = {cv.order: cv.card for hand in view.hands for cv in hand if cv.card is not None}
    for event in view.events:
        if isinstance(event, TurnEvent) and event.card is not None and not isinstance(event.action, Clue):
            known[event.action.order] = event.card
    left = Counter(card.identity for card in view.config.variant.deck())
    left.subtract(card.identity for card in known.values())
    if any(n < 0 for n in left.values()):
        raise ValueError("this view shows more copies of a card than the deck holds")
    hidden = [cv for hand in view.hands for cv in hand if cv.card is None]
    chosen = _stand_ins([cv.knowledge.possible for cv in hidden], left)
    if chosen is None:
        raise ValueError("this view contradicts itself: no cards agree with every clue it shows")
    for cv, identity in zip(hidden, chosen, strict=True):
        known[cv.order] = Card.from_identity(identity)
        left[identity] -= 1
    rest = iter(sorted(left.elements()))
    return [known[o] if o in known else Card.from_identity(next(rest)) for o in range(view.deck_size)]


def seat_history(view: PlayerView) -> list[PlayerView]:
    """The views ``view``'s seat was shown: after the deal, then after each of its events; the last is ``view``.

    Raises ``ValueError`` for a view no real game can produce.
    """
    config = view.config
    state = game_from_deck(replace(config, end_when_no_points=False), _deck_for(view))
    try:
        states = [state, *replay_steps(state, map(action_of, view.events))]
    except ValueError as e:  # IllegalAction included: the events do not replay on any deck the view allows
        raise ValueError(f"this view's events cannot be replayed: {e}") from None
    if any(s.outcome is not None for s in states[:-1]):
        raise ValueError("this view's game ends before its last event")
    # Past views are read while the game runs: the own hand is hidden (a stand-in never shows).
    past = [replace(view_for(s, view.seat), config=config) for s in states[:-1]]
    return [*past, view]


@dataclass(frozen=True, slots=True)
class ClueOnCard:
    """One clue given to a card's holder while the card was in hand: ``touched`` or passing it by."""

    event: TurnEvent
    touched: bool

    @property
    def clue(self) -> Clue:
        assert isinstance(self.event.action, Clue)
        return self.event.action


def clue_history(view: PlayerView, order: int) -> list[ClueOnCard]:
    """Every clue given to the holder of card ``order`` while they held it, oldest first."""
    hands = opening_hands(view.config)
    out = []
    for event in view.events:
        if isinstance(event, TurnEvent) and isinstance(event.action, Clue) and order in hands[event.action.target]:
            out.append(ClueOnCard(event, order in event.touched))
        hands = hands_after(hands, event)
    return out
