"""How a game ended, its score and the rating RULES.md gives that score."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class EndReason(enum.Enum):
    STRIKEOUT = "strikeout"  # the third strike: score 0
    PERFECT = "perfect"  # every firework complete (all-or-nothing victory too)
    FINAL_ROUND = "final_round"  # everyone took their turn after the last draw
    ALL_OR_NOTHING_DEFEAT = "all_or_nothing_defeat"  # a firework became impossible, or no legal action
    NO_MORE_POINTS = "no_more_points"  # option end_when_no_points: no card left that could still be played
    TERMINATED = "terminated"  # stopped from outside (hanab.live's "game over" action): score 0
    TIMEOUT = "timeout"  # a timed game: the player to act ran out of time, and the table lost (score 0)


# (lowest score, text), highest first. Six-suit games reach "divine" only at 30.
_RATINGS = (
    (30, "divine"),
    (25, "legendary"),
    (21, "amazing, talked about for weeks"),
    (16, "excellent, crowd pleasing"),
    (11, "honourable, but soon forgotten"),
    (6, "mediocre, scattered applause"),
    (0, "horrible, booed by the crowd"),
)


def rating(score: int) -> str:
    """The rulebook's rating text for a score (six suits: 25-29 legendary, 30 divine)."""
    for floor, text in _RATINGS:
        if score >= floor:
            return text
    return _RATINGS[-1][1]


@dataclass(frozen=True, slots=True)
class Outcome:
    reason: EndReason
    score: int
    max_score: int
    detail: str  # one sentence a player can read: why the game ended
    all_or_nothing: bool = False

    @property
    def stopped(self) -> bool:
        """Ended from outside any turn (stopped, or the clock of the player to act ran out): the game's history
        has one step more than its turns, the end itself."""
        return self.reason in (EndReason.TERMINATED, EndReason.TIMEOUT)

    @property
    def victory(self) -> bool:
        return self.reason is EndReason.PERFECT

    @property
    def rating(self) -> str:
        """RULES.md: all or nothing has no rating scale, only victory or defeat."""
        if self.reason is EndReason.TERMINATED:
            return "not rated: the game was stopped"
        if self.all_or_nothing:
            return "victory" if self.victory else "defeat"
        return rating(self.score)
