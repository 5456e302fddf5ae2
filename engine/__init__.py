"""The Hanabi rules engine: pure, deterministic, standard library only.

``new_game(config, seed)`` deals; ``legal_actions(state)`` lists what the seat
to move may do; ``apply(state, action)`` checks and applies one action and
returns the new state; ``view_for(state, seat)`` is what one seat may see.
``replay_actions(state, actions)`` replays stored actions; ``opening_hands``
and ``hands_after`` follow the hands through a game's public events;
``seat_history`` rebuilds what a seat saw at each step, ``glance`` the
game's figures (maximum score, pace, efficiency) and ``Prospects`` what a
card is worth (playable, trash, critical).
Every rule of the project lives in this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import loader

if TYPE_CHECKING:
    from .actions import Action, Clue, Discard, Event, Play, Rearrange, RearrangeEvent, TurnAction, TurnEvent
    from .cards import COPIES, MAX_RANK, RANKS, SUITS, Card, Suit
    from .clocks import Clocks, after_move, out_of_time, spend, starting_clocks, time_out
    from .counting import possible_cards, possible_masks, unseen_copies
    from .hands import Hands, hands_after, opening_hands
    from .knowledge import CardKnowledge
    from .notes import (
        NOTE_MAX,
        SEAT_NOTES_MAX,
        SeatNotes,
        contradicted,
        likely_identity,
        named_cards,
        note_problem,
        note_target_problem,
        seat_notes_problem,
    )
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
    from .rewind import ClueOnCard, clue_history, seat_history
    from .state import (
        GameEnded,
        GameState,
        IllegalAction,
        NotYourTurn,
        apply,
        check_deck,
        check_turn,
        deck_play_order,
        game_from_deck,
        legal_actions,
        new_game,
        terminate,
    )
    from .stats import Glance, Prospects, Worth, clues_usable, glance, pace, starting_efficiency
    from .variants import Variant
    from .views import CardView, PlayerView, Reveal, reveal, spectator_view, view_for, views_for
    from .whatif import MOVES_MAX, WhatIf, game_at, last_step, played, seat_view, taken_back, what_if, what_if_view

# Where each name lives. A module is loaded when one of its names is first asked for, not when the package
# is, so a command that needs little (``--help``, ``--version``) starts without loading the rest.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "actions": ("Action", "Clue", "Discard", "Event", "Play", "Rearrange", "RearrangeEvent", "TurnAction", "TurnEvent"),
    "cards": ("COPIES", "MAX_RANK", "RANKS", "SUITS", "Card", "Suit"),
    "clocks": ("Clocks", "after_move", "out_of_time", "spend", "starting_clocks", "time_out"),
    "counting": ("possible_cards", "possible_masks", "unseen_copies"),
    "hands": ("Hands", "hands_after", "opening_hands"),
    "knowledge": ("CardKnowledge",),
    "notes": (
        "NOTE_MAX", "SEAT_NOTES_MAX", "SeatNotes", "contradicted", "likely_identity", "named_cards", "note_problem",
        "note_target_problem", "seat_notes_problem",
    ),
    "options": (
        "CLUE_TOKENS", "MAX_PLAYERS", "MAX_STRIKES", "MAX_TIME", "MIN_PLAYERS", "TIME_BASE", "TIME_PER_TURN",
        "ChatPolicy", "GameConfig",
    ),
    "outcome": ("EndReason", "Outcome", "rating"),
    "playback": ("ActionDoesNotApply", "action_of", "replay_actions", "replay_steps"),
    "premoves": ("PreMove", "cancelled_by", "premove_refusal"),
    "replay": ("Replay", "ReplayError"),
    "rewind": ("ClueOnCard", "clue_history", "seat_history"),
    "state": (
        "GameEnded", "GameState", "IllegalAction", "NotYourTurn", "apply", "check_deck", "check_turn",
        "deck_play_order", "game_from_deck", "legal_actions", "new_game", "terminate",
    ),
    "stats": ("Glance", "Prospects", "Worth", "clues_usable", "glance", "pace", "starting_efficiency"),
    "variants": ("Variant",),
    "views": ("CardView", "PlayerView", "Reveal", "reveal", "spectator_view", "view_for", "views_for"),
    "whatif": ("MOVES_MAX", "WhatIf", "game_at", "last_step", "played", "seat_view", "taken_back", "what_if",
               "what_if_view"),
}
if not TYPE_CHECKING:  # for mypy every name is imported above, with its type
    __getattr__ = loader(__name__, _EXPORTS, globals())

__all__ = [
    "Action", "action_of", "ActionDoesNotApply", "apply", "Card", "CardKnowledge", "CardView", "ChatPolicy",
    "check_deck", "check_turn", "Clue", "clue_history", "CLUE_TOKENS", "ClueOnCard", "clues_usable", "COPIES",
    "deck_play_order",
    "Discard", "EndReason", "Event", "game_from_deck", "GameConfig", "GameEnded", "GameState", "glance", "Glance",
    "Hands", "hands_after", "IllegalAction", "legal_actions", "MAX_PLAYERS", "MAX_RANK", "MAX_STRIKES", "MIN_PLAYERS",
    "new_game", "NotYourTurn", "opening_hands", "Outcome", "pace", "Play", "PlayerView", "possible_cards",
    "possible_masks", "Prospects", "RANKS", "rating", "Rearrange", "RearrangeEvent", "Replay", "replay_actions",
    "replay_steps", "ReplayError", "reveal", "Reveal", "seat_history", "spectator_view", "starting_efficiency",
    "Suit", "SUITS", "terminate", "TurnAction", "TurnEvent", "unseen_copies", "Variant", "view_for", "views_for",
    "Worth", "NOTE_MAX", "SeatNotes", "contradicted", "likely_identity", "named_cards", "note_problem",
    "note_target_problem", "SEAT_NOTES_MAX", "seat_notes_problem",
    "after_move", "cancelled_by", "Clocks", "MAX_TIME", "out_of_time", "PreMove", "premove_refusal", "spend",
    "starting_clocks", "TIME_BASE", "TIME_PER_TURN", "time_out",
    "MOVES_MAX", "WhatIf", "game_at", "last_step", "played", "seat_view", "taken_back", "what_if", "what_if_view",
]
