"""The clock that gives up a table whose seated players have all been away too long.

A dropped connection keeps its seat, so a table of people who all went
home would wait for ever. When no seated human is connected any more the
clock starts; when one comes back it stops. If it runs out, it asks the
table (through the table's own queue, like any request) to close; the
table closes only if the absence that request names is still the current
one, since someone may have come back while the request was queued.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio


def duration(seconds: float) -> str:
    """``90`` as "1.5 minutes", ``30`` as "30 seconds"."""
    if seconds >= 60:
        minutes = round(seconds / 60, 1)
        return f"{minutes:g} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


class AbsenceClock:
    def __init__(self, limit: float | None, expired: Callable[[float], Awaitable[None]]) -> None:
        self.limit = limit  # seconds; None: tables wait for ever
        self._expired = expired  # called with when the absence began, once it has lasted ``limit``
        self.since: float | None = None  # when the current absence began (None: someone is here)
        self._scope: trio.CancelScope | None = None

    def update(self, away: bool, nursery: trio.Nursery | None) -> None:
        """Everyone seated is ``away`` now (or not): start the clock, or stop it."""
        if not away or self.limit is None:
            self.since = None
            if self._scope is not None:
                self._scope.cancel()
                self._scope = None
            return
        if self.since is not None or nursery is None:
            return  # already counting (or the table is not running)
        self.since = since = trio.current_time()
        self._scope = scope = trio.CancelScope()
        try:
            nursery.start_soon(self._run, scope, since, self.limit)
        except RuntimeError:  # the table's task has ended (the server is stopping): no clock to keep
            self.since = self._scope = None

    def current(self, since: float) -> bool:
        """Whether the absence that began at ``since`` still goes on."""
        return self.since == since

    async def _run(self, scope: trio.CancelScope, since: float, limit: float) -> None:
        with scope:
            await trio.sleep(limit)
            await self._expired(since)
