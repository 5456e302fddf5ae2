"""The Hanabi rules engine: pure, deterministic, standard library only.

``new_game(config, seed)`` deals; ``legal_actions(state)`` lists what the seat
to move may do; ``apply(state, action)`` checks and applies one action and
returns the new state; ``view_for(state, seat)`` is what one seat may see.
Every rule of the project lives in this package.
"""

from __future__ import annotations

from .actions import Action, Clue, Discard, Event, Play, Rearrange, RearrangeEvent, TurnAction, TurnEvent
from .cards import COPIES, MAX_RANK, RANKS, SUITS, Card, Suit
from .counting import possible_cards, possible_masks, unseen_copies
from .knowledge import CardKnowledge
from .options import CLUE_TOKENS, MAX_PLAYERS, MAX_STRIKES, MIN_PLAYERS, ChatPolicy, GameConfig
from .outcome import EndReason, Outcome, rating
from .replay import Replay, ReplayError
from .state import GameState, IllegalAction, apply, check_deck, game_from_deck, legal_actions, new_game, terminate
from .variants import Variant
from .views import CardView, PlayerView, Reveal, reveal, spectator_view, view_for, views_for

__all__ = [
    "Action", "Card", "CardKnowledge", "CardView", "ChatPolicy", "Clue", "CLUE_TOKENS", "COPIES", "Discard",
    "EndReason", "Event", "GameConfig", "GameState", "IllegalAction", "MAX_PLAYERS", "MAX_RANK", "MAX_STRIKES",
    "MIN_PLAYERS", "Outcome", "Play", "PlayerView", "RANKS", "Rearrange", "RearrangeEvent", "Replay",
    "ReplayError", "Reveal", "SUITS", "Suit", "TurnAction", "TurnEvent", "Variant", "apply", "check_deck",
    "game_from_deck", "legal_actions", "new_game", "possible_cards", "possible_masks", "rating", "reveal",
    "spectator_view", "terminate", "unseen_copies", "view_for", "views_for",
]
