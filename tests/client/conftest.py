"""Shared builders for the client tests: tables, games and the server messages about them.

Tests reach them through the ``kit`` fixture (this module itself): with
pytest's importlib mode a test file cannot import a sibling module.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest
from hanabi.engine import ChatPolicy, Clue, GameConfig, GameState, Variant, apply, new_game, view_for
from hanabi.protocol.messages import SeatInfo, TableInfo, ViewUpdate

NAMES = ("alice", "bob", "cathy")


def table(players: tuple[str | None, ...] = NAMES, *, id: int = 1, running: bool = False,
          host: int | None = 0, bots: tuple[int, ...] = ()) -> TableInfo:
    seats = tuple(None if name is None else SeatInfo(name, i in bots, True) for i, name in enumerate(players))
    return TableInfo(id, f"table {id}", Variant.NONE, False, False, ChatPolicy.ALWAYS, len(players), seats, False,
                     running, 0, host)


def game(players: int = 3, seed: int = 7, first_seat: int = 0) -> GameState:
    return new_game(GameConfig(players=players, first_seat=first_seat), seed)


def clue_something(state: GameState) -> GameState:
    """The seat to act gives the next seat a clue of the rank of its first card (always legal)."""
    target = (state.current + 1) % state.players
    rank = state.deck[state.hands[target][0]].rank
    return apply(state, Clue(target, rank=rank))


def view_message(state: GameState, seat: int | None, game_id: int = 1) -> ViewUpdate:
    return ViewUpdate(game_id, view_for(state, seat))


@pytest.fixture
def kit() -> ModuleType:
    return sys.modules[__name__]
