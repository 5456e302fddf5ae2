"""Timed games: each player's chess clock, and the end of the game when one runs out.

A timed table (``GameConfig.timed``) gives every player a bank of
``time_base`` seconds that runs only while it is their turn; after each of
their moves ``time_per_turn`` seconds are added to it (hanab.live's timed
tables). The engine knows no wall clock: whoever keeps the time (the
server) says how many seconds a turn used, and these pure functions do the
arithmetic. A bank that reaches zero loses the game for the whole table:
score 0, end reason ``timeout``, as on hanab.live.
"""

from __future__ import annotations

from dataclasses import replace

from .options import GameConfig
from .outcome import EndReason, Outcome
from .state import GameEnded, GameState

Clocks = tuple[float, ...]  # seconds left in each seat's bank, by seat


def starting_clocks(config: GameConfig) -> Clocks:
    """Every bank full, as a game starts."""
    return (float(config.time_base),) * config.players


def spend(clocks: Clocks, seat: int, used: float) -> Clocks:
    """``seat``'s bank after ``used`` seconds of its turn (never below zero): a pause stops it there."""
    return clocks[:seat] + (max(0.0, clocks[seat] - used),) + clocks[seat + 1:]


def after_move(config: GameConfig, clocks: Clocks, seat: int, used: float) -> Clocks:
    """``seat``'s bank after a move that took ``used`` seconds of its turn: spent, then the bonus added."""
    spent = spend(clocks, seat, used)
    return spent[:seat] + (spent[seat] + config.time_per_turn,) + spent[seat + 1:]


def out_of_time(clocks: Clocks, seat: int, used: float) -> bool:
    """Whether ``seat``'s bank is empty once ``used`` seconds of its turn are spent."""
    return clocks[seat] - used <= 0


def time_out(state: GameState, detail: str) -> GameState:
    """The player to act ran out of time: the table loses, score 0 (hanab.live's end "timeout").

    Only the player to act can run out, since only their clock runs; ``detail``
    is the sentence saying who (the engine knows seats, the caller names).
    """
    if state.outcome is not None:
        raise GameEnded(state.outcome)
    config = state.config
    return replace(state, outcome=Outcome(EndReason.TIMEOUT, 0, config.variant.max_score, detail,
                                          config.all_or_nothing))
