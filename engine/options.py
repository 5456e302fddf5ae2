"""Table options: everything RULES.md lets a table choose before dealing.

A ``GameConfig`` is all the engine needs besides the seed: how many players,
which deck, and the rule options. ``chat`` is carried here because RULES.md
lists it among the table options, but only the server enforces it.

Two options come from hanab.live rather than the printed game, both off by
default: ``end_when_no_points`` ends the game as soon as no more points can
be scored (hanab.live always does), and ``deck_plays`` lets the player to act
play the deck's last card blind, straight from the deck (hanab.live's
"bottom-deck blind play", ``deckPlays``).

The printed rulebook stops at five players; a sixth is offered beyond it,
with hanab.live's hand of 3 cards each (``hand_size``).

A timed table (``timed``, off by default) gives each player a chess clock:
``time_base`` seconds to start with, which run only on their turn, and
``time_per_turn`` seconds more after each of their moves (hanab.live's
``timeBase`` and ``timePerTurn``, 2 minutes + 20 seconds by default). The
arithmetic of the clocks and the end when one runs out are in ``clocks.py``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .variants import Variant

MIN_PLAYERS = 2
MAX_PLAYERS = 6  # beyond the printed rules (which stop at 5), as hanab.live deals it
CLUE_TOKENS = 8
MAX_STRIKES = 3
TIME_BASE = 120  # seconds in each player's bank at the start of a timed game (hanab.live's default)
TIME_PER_TURN = 20  # seconds added to a player's bank after each of their moves (hanab.live's default)
MAX_TIME = 24 * 60 * 60  # the longest bank or bonus a table may set, in seconds


class ChatPolicy(enum.Enum):
    ALWAYS = "always"
    BETWEEN_GAMES = "between-games"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The options of one game. ``first_seat=None`` lets the seed pick the first player."""

    players: int = 2
    variant: Variant = Variant.NONE
    empty_clues: bool = False
    all_or_nothing: bool = False
    first_seat: int | None = None
    chat: ChatPolicy = ChatPolicy.BETWEEN_GAMES
    end_when_no_points: bool = False
    deck_plays: bool = False
    timed: bool = False
    time_base: int = TIME_BASE
    time_per_turn: int = TIME_PER_TURN

    def __post_init__(self) -> None:
        if not 1 <= self.time_base <= MAX_TIME:
            raise ValueError(f"a timed game starts with 1 to {MAX_TIME} seconds per player, not {self.time_base}")
        if not 0 <= self.time_per_turn <= MAX_TIME:
            raise ValueError(f"the time added after a move is 0 to {MAX_TIME} seconds, not {self.time_per_turn}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if self.first_seat is not None and not 0 <= self.first_seat < self.players:
            raise ValueError(f"first seat {self.first_seat} is not a seat of a {self.players}-player game")

    @property
    def hand_size(self) -> int:
        """5 cards each with 2 or 3 players, 4 with 4 or 5, and 3 with 6 (hanab.live's hand for six)."""
        if self.players <= 3:
            return 5
        return 4 if self.players <= 5 else 3

    @property
    def max_score(self) -> int:
        return self.variant.max_score
