"""Who gets in: rate limits by address, and the caps on connections that have not said hello yet.

A connection is *unwelcomed* until its hello: the cheap kind to open in bulk, so those have caps of their
own (``max_unwelcomed`` in all, ``max_unwelcomed_per_address``) and a short deadline. A new one over a cap is
not turned away: the oldest unwelcomed one (of its address, or of all) gives way, so a few sockets cannot keep
anyone out. Logged-in players are capped at the hello (``Lobby.login``), where a resume always gets in.
No I/O here: the server asks ``arrive`` and closes the connections it names.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .config import ServerConfig
from .lifecycle import RateLimit


class Knock(Protocol):
    @property
    def unwelcomed(self) -> bool: ...  # not logged in yet


C = TypeVar("C", bound=Knock)


class PerAddress:
    """A rate limit for each address (connections opened, tables opened, messages read)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._limits: dict[str, RateLimit] = {}

    def _of(self, address: str, now: float) -> RateLimit:
        if len(self._limits) > 4096:  # addresses seen lately: a bound, not a record
            self._limits.clear()
        return self._limits.setdefault(address, RateLimit(self.rate, self.burst, now))

    def allow(self, address: str, now: float) -> bool:
        return self._of(address, now).allow(now)

    def wait(self, address: str, now: float) -> float:
        """One more from ``address`` at ``now``, taken even past the limit: the seconds it must wait to keep to it
        (0: none). Those that wait together queue, each waiting one token longer than the one before."""
        return self._of(address, now).take(now, 1.0)


class Door(Generic[C]):
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._unwelcomed: dict[C, str] = {}  # connections not yet logged in (as far as we know), oldest first
        self._knocks = PerAddress(config.connects_per_second, int(2 * config.connects_per_second))

    def knock(self, address: str, now: float) -> bool:
        return self._knocks.allow(address, now)

    def arrive(self, conn: C, address: str) -> list[C]:
        """``conn``, from ``address``, is let in; returns the unwelcomed connections that give way to it."""
        self._unwelcomed = {c: a for c, a in self._unwelcomed.items() if c.unwelcomed}
        gone = []
        same = [c for c, a in self._unwelcomed.items() if a == address]
        if len(same) >= self.config.max_unwelcomed_per_address:
            gone.append(same[0])
        if len(self._unwelcomed) - len(gone) >= self.config.max_unwelcomed:
            gone.append(next(c for c in self._unwelcomed if c not in gone))
        for c in gone:
            del self._unwelcomed[c]
        self._unwelcomed[conn] = address
        return gone

    def left(self, conn: C) -> None:
        self._unwelcomed.pop(conn, None)
