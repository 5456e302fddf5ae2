"""A game is its seed plus its actions: replaying actions, and the action behind each event.

A server restores a game from its stored actions, and writes a finished
game's replay file from them; a replay viewer steps through a game's
states. All of them replay actions the same way, with these functions: each
action is applied as the seat that took it (a rearrangement as its own
seat, a turn action as the seat to act), so a stored game replays exactly
as it was played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .actions import Action, Event, Rearrange, RearrangeEvent
from .state import GameState, IllegalAction, apply


class ActionDoesNotApply(IllegalAction):
    """Action number ``index`` of a replay (``action``) is refused in ``state``, the game replayed up to it."""

    def __init__(self, index: int, action: Action, state: GameState, reason: IllegalAction) -> None:
        super().__init__(f"action {index} ({action}) does not apply: {reason}")
        self.index = index
        self.action = action
        self.state = state
        self.reason = reason


def replay_steps(state: GameState, actions: Iterable[Action]) -> Iterator[GameState]:
    """The game after each of ``actions`` in turn, from ``state``; raises ``ActionDoesNotApply``."""
    for index, action in enumerate(actions):
        try:
            state = apply(state, action, seat=action.seat if isinstance(action, Rearrange) else None)
        except IllegalAction as e:
            raise ActionDoesNotApply(index, action, state, e) from None
        yield state


def replay_actions(state: GameState, actions: Iterable[Action]) -> GameState:
    """The game once ``actions`` are applied in turn to ``state``; raises ``ActionDoesNotApply``."""
    last = state
    for last in replay_steps(state, actions):  # noqa: B007 - the loop leaves the last state in it
        pass
    return last


def action_of(event: Event) -> Action:
    """The action that made ``event``."""
    if isinstance(event, RearrangeEvent):
        return Rearrange(event.seat, event.hand)
    return event.action
