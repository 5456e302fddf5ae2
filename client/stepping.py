"""A place in a game's history, and the moves through it: a step, a round, a page, the start, the end.

Every viewer of a game's past steps the same way: the rewind of a game in
progress (``rewind.py``), the table's review and a finished game looked at
alone (``review.py``), and a saved replay (``replayer.py``). Step 0 is the
deal, step ``last`` the game as it stands or ended; no move leaves that
range. Each viewer keeps its own step (the rewind's end grows as the live
game goes on, the review may follow its leader) and asks a ``Place`` where
a key takes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PAGE = 10  # steps of a page (↑/↓, PgUp/PgDn)


@dataclass(frozen=True, slots=True)
class Place:
    """Step ``at`` of a history whose steps run from 0 (the deal) to ``last``; a round is ``players`` steps."""

    at: int
    last: int
    players: int

    def to(self, step: int) -> Place:
        """Step ``step``, or the nearest end when it is out of the history."""
        return Place(max(0, min(self.last, step)), self.last, self.players)

    def step(self, steps: int) -> Place:
        return self.to(self.at + steps)

    def back(self) -> Place:
        return self.step(-1)

    def on(self) -> Place:
        return self.step(1)

    def round_back(self) -> Place:
        return self.step(-self.players)

    def round_on(self) -> Place:
        return self.step(self.players)

    def page_back(self) -> Place:
        return self.step(-PAGE)

    def page_on(self) -> Place:
        return self.step(PAGE)

    def start(self) -> Place:
        return self.to(0)

    def end(self) -> Place:
        return self.to(self.last)


Move = Callable[[Place], Place]  # Place.back, Place.round_on, Place.end…
