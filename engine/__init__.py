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
from .clocks import Clocks, after_move, out_of_time, spend, starting_clocks, time_out
from .counting import possible_cards, possible_masks, unseen_copies
from .hands import Hands, hands_after, opening_hands
from .knowledge import CardKnowledge
from .options import (
    CLUE_TOKENS,
    MAX_PLAYERS,
    MAX_STRIKES,
    MAX_TIME,
    MIN_PLAYERS,
    TIME_BASE,
    TIME_PER_TURN,
    ChatPolicy,
    GameConfig,
)
from .outcome import EndReason, Outcome, rating
from .playback import ActionDoesNotApply, action_of, replay_actions, replay_steps
from .premoves import PreMove, cancelled_by, premove_refusal
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
    "Action", "action_of", "ActionDoesNotApply", "apply", "Card", "CardKnowledge", "CardView", "ChatPolicy",
    "check_deck", "check_turn", "Clue", "CLUE_TOKENS", "COPIES", "Discard", "EndReason", "Event", "game_from_deck",
    "GameConfig", "GameEnded", "GameState", "Hands", "hands_after", "IllegalAction", "legal_actions", "MAX_PLAYERS",
    "MAX_RANK", "MAX_STRIKES", "MIN_PLAYERS", "new_game", "NotYourTurn", "opening_hands", "Outcome", "Play",
    "PlayerView", "possible_cards", "possible_masks", "RANKS", "rating", "Rearrange", "RearrangeEvent", "Replay",
    "replay_actions", "replay_steps", "ReplayError", "Reveal", "reveal", "spectator_view", "Suit", "SUITS",
    "terminate", "TurnAction", "TurnEvent", "unseen_copies", "Variant", "view_for", "views_for",
    "after_move", "cancelled_by", "Clocks", "MAX_TIME", "out_of_time", "PreMove", "premove_refusal", "spend",
    "starting_clocks", "TIME_BASE", "TIME_PER_TURN", "time_out",
]
