"""A seat at a table, and what a table tells the lobby about itself (the lobby keeps where everyone is)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .session import Player

if TYPE_CHECKING:
    from .table import Table


@dataclass(slots=True)
class Seat:
    name: str
    player: Player | None  # None for a bot

    @property
    def bot(self) -> bool:
        return self.player is None

    @property
    def network_bot(self) -> bool:
        return self.player is not None and self.player.network_bot


class LobbySide(Protocol):
    """What a table tells the lobby: its public state changed (for the players in the lobby), and it closed."""

    def table_changed(self, table: Table) -> None: ...
    def table_closed(self, table: Table, members: list[Player]) -> None: ...
