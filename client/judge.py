"""Ask the engine, before sending, whether an action is legal, and why not.

The client holds no rule of its own. To give the engine's own reason for a
refusal without a round trip, we rebuild a game state from what the view
shows: every card the viewer can see is in place, and the viewer's own
hidden cards and the undrawn deck get a stand-in identity. No rule that
decides legality depends on those identities (one cannot clue oneself, and
whether a play succeeds is not a matter of legality), so ``apply`` refuses
exactly what the server would refuse, with the same sentence (naming the
player to act by name where the engine, which knows no names, says "seat 2").
"""

from __future__ import annotations

from collections.abc import Sequence

from hanabi.engine import Action, Card, CardKnowledge, GameState, IllegalAction, NotYourTurn, PlayerView, Suit, apply

from .board import seat_name

_STAND_IN = Card(Suit.RED, 1)
SPECTATORS_CANNOT_ACT = "spectators watch; they cannot act"
NO_GAME = "there is no game in progress"


def state_from_view(view: PlayerView) -> GameState:
    """A ``GameState`` that agrees with ``view`` on everything the rules of legality read."""
    deck = [_STAND_IN] * view.deck_size
    knowledge = [CardKnowledge(view.config.variant.all_identities)] * view.deck_size
    hands = []
    for hand in view.hands:
        for cv in hand:
            if cv.card is not None:
                deck[cv.order] = cv.card
            knowledge[cv.order] = cv.knowledge
        hands.append(tuple(cv.order for cv in hand))
    for order, card in view.discard:
        deck[order] = card
    return GameState(
        config=view.config,
        seed=None,
        deck=tuple(deck),
        hands=tuple(hands),
        knowledge=tuple(knowledge),
        next_draw=view.deck_size - view.deck_left,
        fireworks=view.fireworks,
        clue_tokens=view.clue_tokens,
        strikes=view.strikes,
        discard=tuple(o for o, _ in view.discard),
        played=(),
        current=view.current,
        turn=view.turn,
        final_turns_left=view.final_turns_left,
        outcome=view.outcome,
        events=view.events,
    )


def refusal(view: PlayerView, action: Action, names: Sequence[str] = ()) -> str | None:
    """The engine's reason ``action`` is illegal for the viewer now, or None when it is legal; ``names``, the
    players by seat, name the player to act when it is not the viewer's turn."""
    if view.seat is None:
        return SPECTATORS_CANNOT_ACT
    try:
        apply(state_from_view(view), action, seat=view.seat)
    except NotYourTurn as e:
        return NotYourTurn.sentence(seat_name(names, e.current))
    except IllegalAction as e:
        return str(e)
    return None
