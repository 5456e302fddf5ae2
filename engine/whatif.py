"""What if: a finished game played on from one of its steps with moves it never had, to ask "what if she had
clued red instead?".

A ``WhatIf`` is a value: the step it starts from, the game there, the moves played on since (each through
``apply``, as the seat to act, so every rule of a real game holds) and whether the cards drawn since are shown.
The game at a step is dealt again from the game's deck and replayed by its turns alone, as a replay file holds
it, so that a server and every client build the same positions from the same file. The cards drawn during a what
if come from the real deck (the game is over, so every card of it is public), but they show as unknown until
someone reveals them: a what if asks what the players could have known, not what the deck held.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .actions import TurnAction, TurnEvent
from .playback import replay_actions
from .state import GameState, IllegalAction, apply, game_from_deck
from .views import CardView, PlayerView, view_for

MOVES_MAX = 64  # moves a what if holds: past that, step back or leave it (the wire carries at most 64 of them)


@dataclass(frozen=True, slots=True)
class WhatIf:
    step: int  # the step of the game it starts from: 0 the deal, n after the game's n-th turn
    base: GameState  # the game at that step
    state: GameState  # the game after ``moves``
    moves: tuple[TurnAction, ...] = ()
    revealed: bool = False  # the cards drawn since ``step`` show

    @property
    def drawn_since(self) -> frozenset[int]:
        """The orders of the cards drawn during the what if."""
        drawn = len(self.base.deck) - self.base.deck_left
        return frozenset(range(drawn, len(self.state.deck) - self.state.deck_left))


def turns_of(final: GameState) -> list[TurnAction]:
    """The turns the game took, in order: what its replay file holds (rearranged hands are no turns)."""
    return [e.action for e in final.events if isinstance(e, TurnEvent)]


def last_step(final: GameState) -> int:
    """The game's last step: one per turn taken, one more when it was stopped from outside (no turn ended it: a
    host's stop, a clock run out), as every viewer of its replay counts them."""
    return len(turns_of(final)) + (final.outcome is not None and final.outcome.stopped)


def game_at(final: GameState, step: int) -> GameState:
    """The game ``final`` at ``step``: dealt again from its deck, then its first ``step`` turns. A step past its
    turns is the game's end as it was (a game stopped from outside has one more step than turns)."""
    turns = turns_of(final)
    if not 0 <= step <= len(turns) + 1:
        raise IllegalAction(f"the game has no step {step}: its steps run from 0 to {len(turns) + 1}")
    if step > len(turns):
        return final
    return replay_actions(game_from_deck(final.config, final.deck, final.seed), turns[:step])


def what_if(final: GameState, step: int) -> WhatIf:
    """A what if of the game ``final`` from ``step``, no move made yet."""
    base = game_at(final, step)
    return WhatIf(step, base, base)


def played(what: WhatIf, action: TurnAction) -> WhatIf:
    """``what`` once the seat to act makes ``action``; raises ``IllegalAction`` saying why it may not."""
    if len(what.moves) >= MOVES_MAX:
        raise IllegalAction(f"a what if holds at most {MOVES_MAX} moves: take one back, or leave it and start again")
    return replace(what, state=apply(what.state, action), moves=(*what.moves, action))


def taken_back(what: WhatIf) -> WhatIf:
    """``what`` without its last move (no move: as it is)."""
    if not what.moves:
        return what
    return replay(what, what.moves[:-1])


def replay(what: WhatIf, moves: Sequence[TurnAction]) -> WhatIf:
    """``what`` with ``moves`` played from its step instead of its own; raises ``IllegalAction``."""
    state = what.base
    for action in moves:
        state = apply(state, action)
    return replace(what, state=state, moves=tuple(moves))


def what_if_view(what: WhatIf) -> PlayerView:
    """The what if as everyone looking at it sees it: every hand, but the cards drawn during it unknown (``card``
    None, their clues still shown) unless they are revealed. A card played or discarded shows, as in a game."""
    view = view_for(what.state, None)
    hidden = what.drawn_since
    if what.revealed or not hidden:
        return view
    hands = tuple(tuple(CardView(cv.order, None, cv.knowledge) if cv.order in hidden else cv for cv in hand)
                  for hand in view.hands)
    return replace(view, hands=hands)


def seat_view(what: WhatIf) -> PlayerView:
    """The view of the seat to act in the what if: what the house bot chooses its move from."""
    return view_for(what.state, what.state.current)
