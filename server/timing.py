"""Time at a table: a game's chess clocks (timed tables) and pause, and the ``Alarm`` that wakes the table.

The clocks' arithmetic is the engine's (``hanabi.engine.clocks``); ``GameTime`` keeps the wall-clock side: which
seat's bank runs, since when. A game is paused by a player (``paused_by``), or at a timed table by itself while
the player to act is disconnected (``away``): then no bank runs, moves are refused and bots wait.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
from hanabi.engine import Clocks, GameConfig, after_move, spend, starting_clocks
from hanabi.protocol import GameClock

MS = 1000  # milliseconds in a second: the wire carries banks in milliseconds


class GameTime:
    def __init__(self, config: GameConfig, clocks: Clocks | None = None) -> None:
        self.config = config
        self.clocks: Clocks = (clocks or starting_clocks(config)) if config.timed else ()
        self.paused_by: str | None = None  # who paused the game by hand
        self.away: str | None = None  # timed games: the player to act, while disconnected
        self.ticking: int | None = None  # the seat whose bank runs down now (the wire's GameClock.running)
        self._since = 0.0  # trio time at which the ticking bank last started to run
        self._alarm = Alarm()

    @property
    def paused(self) -> bool:
        return self.paused_by is not None or self.away is not None

    def used(self) -> float:
        """Seconds the ticking bank has run since it last started."""
        return trio.current_time() - self._since if self.ticking is not None else 0.0

    def now(self) -> Clocks:
        """The banks as they stand this instant."""
        return spend(self.clocks, self.ticking, self.used()) if self.ticking is not None else self.clocks

    def after_move(self, seat: int) -> Clocks:
        """The banks once ``seat`` has moved now (the bonus added); changes nothing."""
        if not self.config.timed:
            return ()
        return after_move(self.config, self.clocks, seat, self.used() if self.ticking == seat else 0.0)

    def set(self, clocks: Clocks, current: int | None) -> None:
        """The banks are ``clocks`` from now on, and ``current``'s runs unless paused (None: the game is over)."""
        self.clocks = clocks
        self.ticking = None
        if self.config.timed and current is not None and not self.paused:
            self.ticking, self._since = current, trio.current_time()

    def message(self, game: int, resumed_by: str | None = None) -> GameClock:
        """The clock as it stands; ``resumed_by``: the player whose ``pause`` false it answers."""
        return GameClock(game=game, remaining=tuple(round(c * MS) for c in self.now()), running=self.ticking,
                         paused=self.paused, note=self.note(), paused_by=self.paused_by, resumed_by=resumed_by)

    def note(self) -> str:
        if self.paused_by is not None:
            return f"{self.paused_by} paused the game"
        if self.away is not None:
            return f"the game paused itself: {self.away}, whose turn it is, is disconnected"
        return ""

    def arm(self, nursery: trio.Nursery | None, expired: Callable[[], Awaitable[None]]) -> None:
        """(Re)start the timer for the ticking bank; without one ticking, only stop the old timer."""
        if self.ticking is None:
            self._alarm.cancel()
        else:
            self._alarm.set(nursery, self.clocks[self.ticking] - self.used(), expired)


class Alarm:
    """``expired()`` called in a task of a table's nursery after some seconds, unless cancelled (or set again)."""

    def __init__(self) -> None:
        self._scope: trio.CancelScope | None = None

    def set(self, nursery: trio.Nursery | None, seconds: float, expired: Callable[[], Awaitable[None]]) -> bool:
        """Start it (the one before stops); False when there is no nursery to run it in (the table stopped)."""
        self.cancel()
        if nursery is None:
            return False
        scope = self._scope = trio.CancelScope()

        async def ring() -> None:
            with scope:
                await trio.sleep(max(0.0, seconds))
                await expired()
        try:
            nursery.start_soon(ring)
        except RuntimeError:  # the table's task has ended (the server is stopping)
            self._scope = None
            return False
        return True

    def cancel(self) -> None:
        if self._scope is not None:
            self._scope.cancel()
            self._scope = None


def duration(seconds: float) -> str:
    """``90`` as "1.5 minutes", ``30`` as "30 seconds"."""
    if seconds >= 60:
        minutes = round(seconds / 60, 1)
        return f"{minutes:g} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"
