"""Shared helpers for the engine tests: stacked decks and scripted players.

A stacked deck puts chosen cards on top (in dealing order: player 0's hand
first, then player 1's, then the draws) and the rest of the variant's cards
after them in suit-then-rank order, so a test reads like a card table.
The helpers are handed out as fixtures because pytest's importlib mode does
not let test modules import one another.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hanabi.engine import (
    CLUE_TOKENS,
    Card,
    Clue,
    Discard,
    GameConfig,
    GameState,
    Play,
    TurnAction,
    Variant,
    apply,
    game_from_deck,
    legal_actions,
    new_game,
)


def stacked_deck(variant: Variant, top: str) -> list[Card]:
    """The variant's deck with the cards named in ``top`` ("R1 R2 ...") first, in that order."""
    rest = variant.deck()
    front = []
    for name in top.split():
        card = Card.parse(name)
        rest.remove(card)  # ValueError here means the test asked for a card the deck does not have
        front.append(card)
    return front + rest


def stacked_game(top: str = "", players: int = 2, variant: Variant = Variant.NONE, **options: object) -> GameState:
    config = GameConfig(players=players, variant=variant, **options)  # type: ignore[arg-type]
    return game_from_deck(config, stacked_deck(variant, top))


def playable(state: GameState, order: int) -> bool:
    card = state.deck[order]
    return state.fireworks[state.config.variant.suits.index(card.suit)] == card.rank - 1


def some_clue(state: GameState) -> Clue:
    """The first legal clue for the seat to move (the tests use it to pass a turn)."""
    for action in legal_actions(state):
        if isinstance(action, Clue):
            return action
    raise AssertionError("the scripted player wanted to clue but no clue is legal")


def oracle_move(state: GameState) -> TurnAction:
    """A player who peeks at their own cards: play a playable card, else discard a card that is not needed, else clue.

    Never strikes and never throws away the last copy of a card still needed,
    so it drives stacked games to their ending without touching the rules.
    """
    variant = state.config.variant
    hand = state.hands[state.current]
    for order in reversed(hand):  # oldest first, like a careful player
        if playable(state, order):
            return Play(order)
    if state.clue_tokens < CLUE_TOKENS:
        for order in reversed(hand):
            card = state.deck[order]
            if state.fireworks[variant.suits.index(card.suit)] >= card.rank:
                return Discard(order)
            gone = sum(1 for o in state.discard if state.deck[o] == card)
            if gone + 1 < variant.copies(card):
                return Discard(order)
    return some_clue(state)


def random_states(config: GameConfig, seed: int, rng: random.Random, calm: float = 0.0) -> Iterator[GameState]:
    """Every state of a game of random legal moves, the deal first; ``calm``: how often to avoid a play
    (random plays strike out within a few turns, calm games reach the deck's end)."""
    state = new_game(config, seed)
    yield state
    while not state.over:
        actions = legal_actions(state)
        quiet = [a for a in actions if not isinstance(a, Play)]
        state = apply(state, rng.choice(quiet if quiet and rng.random() < calm else actions))
        yield state


class Kit:
    """What the fixture hands out: the helpers above, under one name."""

    deal = staticmethod(stacked_game)
    deck = staticmethod(stacked_deck)
    playable = staticmethod(playable)
    some_clue = staticmethod(some_clue)
    oracle_move = staticmethod(oracle_move)
    random_states = staticmethod(random_states)


@pytest.fixture(scope="session")
def kit() -> Kit:
    return Kit()
