"""The Hanabi rules engine: pure, deterministic, standard library only.

``new_game(config, seed)`` deals; ``legal_actions(state)`` lists what the seat
to move may do; ``apply(state, action)`` checks and applies one action and
returns the new state; ``view_for(state, seat)`` is what one seat may see.
``replay_actions(state, actions)`` replays stored actions; ``opening_hands``
and ``hands_after`` follow the hands through a game's public events.
Every rule of the project lives in this package.
"""

from __future__ import annotations

from .actions import Action, Clue, Discard, Event, Play, Rearrange, RearrangeEvent, TurnAction, TurnEvent
from .cards import COPIES, MAX_RANK, RANKS, SUITS, Card, Suit
from .hands import Hands, hands_after, opening_hands
from .knowledge import CardKnowledge
from .options import CLUE_TOKENS, MAX_PLAYERS, MAX_STRIKES, MIN_PLAYERS, ChatPolicy, GameConfig
from .outcome import EndReason, Outcome, rating
from .playback import ActionDoesNotApply, action_of, replay_actions, replay_steps
from .replay import Replay, ReplayError
from .state import (
    GameEnded,
    GameState,
    IllegalAction,
    NotYourTurn,
    apply,
    check_deck,
    check_turn,
    game_from_deck,
    legal_actions,
    new_game,
    terminate,
)
from .variants import Variant
from .views import CardView, PlayerView, Reveal, reveal, spectator_view, view_for, views_for

__all__ = [
    "Action", "ActionDoesNotApply", "Card", "CardKnowledge", "CardView", "ChatPolicy", "Clue", "CLUE_TOKENS",
    "COPIES", "Discard", "EndReason", "Event", "GameConfig", "GameEnded", "GameState", "Hands", "IllegalAction",
    "MAX_PLAYERS", "MAX_RANK", "MAX_STRIKES", "MIN_PLAYERS", "NotYourTurn", "Outcome", "Play", "PlayerView", "RANKS",
    "Rearrange", "RearrangeEvent", "Replay", "ReplayError", "Reveal", "SUITS", "Suit", "TurnAction", "TurnEvent",
    "Variant", "action_of", "apply", "check_deck", "check_turn", "game_from_deck", "hands_after", "legal_actions",
    "new_game", "opening_hands", "rating", "replay_actions", "replay_steps", "reveal", "spectator_view", "terminate",
    "view_for", "views_for",
]
