"""A running game's time: the players' chess clocks (timed tables), its pause, and the timer that ends it.

The table's task owns one ``GameTime`` per game. The clocks' arithmetic is
the engine's (``hanabi.engine.clocks``); this keeps the wall-clock side of
it: when the running bank started to run, which seat's bank runs, and a
sleeping task that wakes the table when that bank would be empty. The
timer never ends a game itself: it queues a request (``OutOfTime``) in the
table's channel like any other, and the table checks that the same turn is
still running down before it ends the game, since a move may have come in
meanwhile.

A game is paused by a player (``paused_by``, untimed games too), or, at a
timed table, by itself while the player to act is disconnected (``away``).
While paused no bank runs, moves are refused and bots wait.
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
        self.running: int | None = None  # the seat whose bank runs down now
        self._since = 0.0  # trio time at which the running bank last started to run
        self._scope: trio.CancelScope | None = None

    @property
    def paused(self) -> bool:
        return self.paused_by is not None or self.away is not None

    def used(self) -> float:
        """Seconds the running bank has run since it last started."""
        return trio.current_time() - self._since if self.running is not None else 0.0

    def now(self) -> Clocks:
        """The banks as they stand this instant."""
        return spend(self.clocks, self.running, self.used()) if self.running is not None else self.clocks

    def after_move(self, seat: int) -> Clocks:
        """The banks once ``seat`` has moved now (the bonus added); changes nothing."""
        if not self.config.timed:
            return ()
        return after_move(self.config, self.clocks, seat, self.used() if self.running == seat else 0.0)

    def set(self, clocks: Clocks, current: int | None) -> None:
        """The banks are ``clocks`` from now on, and ``current``'s runs unless paused (None: the game is over)."""
        self.clocks = clocks
        self.running = None
        if self.config.timed and current is not None and not self.paused:
            self.running, self._since = current, trio.current_time()

    def message(self, game: int) -> GameClock:
        return GameClock(game=game, remaining=tuple(round(c * MS) for c in self.now()), running=self.running,
                         paused=self.paused, note=self.note(), paused_by=self.paused_by)

    def note(self) -> str:
        if self.paused_by is not None:
            return f"{self.paused_by} paused the game"
        if self.away is not None:
            return f"the game paused itself: {self.away}, whose turn it is, is disconnected"
        return ""

    def arm(self, nursery: trio.Nursery | None, expired: Callable[[], Awaitable[None]]) -> None:
        """(Re)start the timer for the running bank; without one running, only stop the old timer."""
        if self._scope is not None:
            self._scope.cancel()
            self._scope = None
        if self.running is None or nursery is None:
            return
        self._scope = scope = trio.CancelScope()
        left = self.clocks[self.running] - self.used()
        try:
            nursery.start_soon(self._sleep, scope, left, expired)
        except RuntimeError:  # the table's task has ended (the server is stopping): no time to keep
            self._scope = None

    @staticmethod
    async def _sleep(scope: trio.CancelScope, seconds: float, expired: Callable[[], Awaitable[None]]) -> None:
        with scope:
            await trio.sleep(max(0.0, seconds))
            await expired()
