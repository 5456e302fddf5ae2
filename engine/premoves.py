"""Pre-moves: a play or a discard a player queues while it is not their turn, made at the start of their turn.

A player who already knows what they will do queues it, and the table acts
it as soon as their turn comes, so a game moves on without waiting for them.
A queued move names one of their own cards by order. A clue that touches
that card changes what the player knows of it, so the clue cancels the
pre-move: ``cancelled_by`` is that rule, the only place it is written.
"""

from __future__ import annotations

from .actions import Discard, Event, Play, TurnEvent
from .state import GameState

PreMove = Play | Discard


def premove_refusal(state: GameState, seat: int, move: PreMove) -> str | None:
    """Why ``seat`` may not queue ``move`` now (a sentence), or None when it may."""
    if state.outcome is not None:
        return "the game is over: there is no next turn to queue a move for"
    if state.current == seat:
        return "it is your turn: play or discard now instead of queueing it"
    if move.order not in state.hands[seat]:
        return f"card #{move.order} is not in your hand: a pre-move plays or discards one of your own cards"
    return None


def cancelled_by(event: Event, move: PreMove) -> str | None:
    """The sentence saying why ``event`` cancels the queued ``move`` (a clue touched its card), or None."""
    if isinstance(event, TurnEvent) and move.order in event.touched:
        verb = "play" if isinstance(move, Play) else "discard"
        # Players know their cards by slot, which moves; the sentence names the card by what was queued.
        return f"a clue touched the card you queued to {verb}, so the pre-move was cancelled: choose again"
    return None
