"""Who gets in: the caps on connections that have not said hello, and which of them gives way to a newer one.

An address may open ``connects_per_second`` connections a second (twice as many at once): past that a new one
is told so and closed before anything of it is read, the cheapest answer to a flood of connections.
A connection is *silent* until it says hello: the cheap kind to open in bulk. Silent connections have caps
of their own, ``max_unwelcomed`` in all and ``max_unwelcomed_per_address`` from one address, and a short
deadline (``handshake_timeout``). A new connection over either cap does not wait for a silent one to time
out, nor is it turned away: the oldest silent one (of its address, or of all) gives way, so a few sockets
cannot keep anyone out, and a player coming back to a game always gets to say hello. Logged-in players
are capped at the hello (``Lobby.login``), where a resume is told apart and always let in.

No I/O here: the server asks ``arrive`` and closes the connections it names.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .config import ServerConfig
from .lifecycle import RateLimit


class Knock(Protocol):
    @property
    def silent(self) -> bool: ...  # not logged in yet


C = TypeVar("C", bound=Knock)


class Door(Generic[C]):
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._silent: dict[C, str] = {}  # connections not yet logged in (as far as we know), oldest first
        self._knocks: dict[str, RateLimit] = {}  # by address

    def knock(self, address: str, now: float) -> bool:
        """Whether a new connection from ``address`` may come in at ``now``."""
        if len(self._knocks) > 4096:  # addresses seen lately: a bound, not a record
            self._knocks.clear()
        rate = self.config.connects_per_second
        return self._knocks.setdefault(address, RateLimit(rate, int(2 * rate), now)).allow(now)

    def arrive(self, conn: C, address: str) -> list[C]:
        """``conn``, from ``address``, is let in; returns the silent connections that give way to it."""
        self._silent = {c: a for c, a in self._silent.items() if c.silent}
        gone = []
        same = [c for c, a in self._silent.items() if a == address]
        if len(same) >= self.config.max_unwelcomed_per_address:
            gone.append(same[0])
        if len(self._silent) - len(gone) >= self.config.max_unwelcomed:
            gone.append(next(c for c in self._silent if c not in gone))
        for c in gone:
            del self._silent[c]
        self._silent[conn] = address
        return gone

    def left(self, conn: C) -> None:
        self._silent.pop(conn, None)
