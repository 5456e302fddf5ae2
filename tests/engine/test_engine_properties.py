"""Hypothesis properties over random legal games, for every variant, player count and option.

Each example deals a game from a seed and plays it to the end with a random player (reckless, careful or
in between, so that games end in every way), checking after every action that cards are conserved, the
counters stay in range, fireworks never shrink, clues touch exactly what they should and knowledge never
excludes the truth, and that no view leaks its seat's own cards, the undrawn deck or the seed. At the end
the same seed and actions must give the same game, and the replay file must give it back.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import itertools
import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hanabi.engine import (
    CLUE_TOKENS,
    MAX_STRIKES,
    Card,
    Clue,
    GameConfig,
    GameState,
    Play,
    TurnAction,
    TurnEvent,
    Variant,
    apply,
    legal_actions,
    new_game,
    views_for,
)
from hanabi.engine.replay import from_json, to_json
from hypothesis import given, settings
from hypothesis import strategies as st

CONFIGS = [
    pytest.param(v, p, e, a, id=f"{v.name.lower()}-{p}p{'-empty' if e else ''}{'-aon' if a else ''}")
    for v, p, e, a in itertools.product(Variant, range(2, 7), (False, True), (False, True))
]
# Two games of each configuration (80 of them), three under the thorough profile (HYPOTHESIS_PROFILE=thorough,
# tests/conftest.py): each game's view checks cost about 40 ms, a quarter of this suite's hypothesis time.
PROFILE = settings(max_examples=3 if settings.get_current_profile_name() == "thorough" else 2)


def seed_text(n: int) -> str:
    # A seed no view could contain by accident: it must never appear in one.
    return f"zq-secret-seed-{n}-qz"


def choose(state: GameState, rng: random.Random, care: float) -> TurnAction:
    """A random legal action; with probability ``care`` never a misplay (peeking at the deck to know)."""
    actions = legal_actions(state)
    if rng.random() < care:
        suits = state.config.variant.suits

        def safe(action: TurnAction) -> bool:
            if not isinstance(action, Play):
                return True
            card = state.deck[action.order]
            return state.fireworks[suits.index(card.suit)] == card.rank - 1

        actions = [a for a in actions if safe(a)] or actions
    return rng.choice(actions)


# ---- invariants of one state ------------------------------------------------------------------


def check_state(state: GameState) -> None:
    config = state.config
    variant = config.variant
    deck = state.deck
    held = [o for hand in state.hands for o in hand]
    undrawn = list(range(state.next_draw, len(deck)))
    # Cards are conserved: every order is in exactly one place.
    assert sorted(held + undrawn + list(state.discard) + list(state.played)) == list(range(len(deck)))
    assert len(deck) == len(variant.deck())
    assert all(len(hand) <= config.hand_size for hand in state.hands)
    assert 0 <= state.clue_tokens <= CLUE_TOKENS
    assert 0 <= state.strikes <= MAX_STRIKES
    assert state.strikes < MAX_STRIKES or state.over
    # The fireworks are exactly what was played, in order.
    for i, suit in enumerate(variant.suits):
        ranks = [deck[o].rank for o in state.played if deck[o].suit is suit]
        assert ranks == list(range(1, state.fireworks[i] + 1))
    if not state.over:
        assert state.score == sum(state.fireworks)
    # Knowledge is about clues only, and never rules out the card the holder really has.
    for order in held:
        k = state.knowledge[order]
        card = deck[order]
        assert k.can_be(card)
        assert k.possible & ~variant.all_identities == 0
        for suit in variant.suits:
            if k.colours >> suit.index & 1:
                assert variant.touches_colour(card, suit)
            if k.not_colours >> suit.index & 1:
                assert not variant.touches_colour(card, suit)
        for rank in range(1, 6):
            if k.ranks >> (rank - 1) & 1:
                assert card.rank == rank
            if k.not_ranks >> (rank - 1) & 1:
                assert card.rank != rank


def check_step(before: GameState, action: TurnAction, after: GameState) -> None:
    event = after.events[-1]
    assert isinstance(event, TurnEvent) and event.action == action and event.seat == before.current
    assert after.events[:-1] == before.events  # the history before it is kept as it was (check_event saw it)
    assert after.turn == before.turn + 1
    assert all(a >= b for a, b in zip(after.fireworks, before.fireworks, strict=True))  # never shrink
    assert after.discard[: len(before.discard)] == before.discard
    assert after.played[: len(before.played)] == before.played
    assert after.next_draw >= before.next_draw
    if not after.over:
        assert after.current == (before.current + 1) % before.players
    if isinstance(action, Clue):
        variant = before.config.variant
        hand = before.hands[action.target]

        def matches(card: Card) -> bool:
            if action.colour is not None:
                return variant.touches_colour(card, action.colour)
            return card.rank == action.rank

        # The whole set, and only it, in hand order.
        assert event.touched == tuple(o for o in hand if matches(before.deck[o]))
        assert after.clue_tokens == before.clue_tokens - 1
        assert after.hands == before.hands
        for o in hand:
            k = after.knowledge[o]
            if action.colour is not None:
                bit, positive, negative = 1 << action.colour.index, k.colours, k.not_colours
            else:
                bit, positive, negative = 1 << ((action.rank or 0) - 1), k.ranks, k.not_ranks
            assert bool(positive & bit) == (o in event.touched)
            assert bool(negative & bit) == (o not in event.touched)


# ---- no view leaks ------------------------------------------------------------------------------


# What walk does not look inside: a Card is a leaf (its parts are the card itself).
LEAVES = (Card, enum.Enum, str, int, type(None))


@functools.cache
def field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def walk(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[tuple[object, ...], object]]:
    """Every value inside a view, with where it sits. A stack rather than recursion: the views are walked every
    few turns of every game, and each level of nested generators cost every value below it a step."""
    stack: list[tuple[tuple[object, ...], object]] = [(path, value)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, LEAVES):
            continue
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            stack.extend(((*path, name), getattr(value, name)) for name in field_names(type(value)))
        elif isinstance(value, (tuple, list)):
            stack.extend(((*path, i), item) for i, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in value.items())
        else:
            raise AssertionError(f"unexpected {type(value).__name__} at {path} in a view")


def check_views(state: GameState, secret: str, deep: bool) -> None:
    """Every seat's and the spectator's view; ``deep`` also walks every field and searches repr and pickle."""
    deck = state.deck
    seats: list[int | None] = [*range(state.players), None]
    legal = legal_actions(state)
    # Built together, as the server builds the views it sends; each is view_for's (test_engine_views_together).
    for seat, view in zip(seats, views_for(state, seats), strict=True):
        # The public history is the engine's own record; its events are checked one by one in check_event.
        assert view.events is state.events
        for s, hand in enumerate(view.hands):
            assert [cv.order for cv in hand] == list(state.hands[s])
            hidden = s == seat and not state.over
            assert all(cv.card is None if hidden else cv.card == deck[cv.order] for cv in hand)
        if seat is None or seat == state.current:
            assert view.legal_actions() == legal
        if not deep:
            continue
        # Its events are the state's, each searched once as it was made (check_event), not again in every view.
        lean = dataclasses.replace(view, events=())
        for path, value in walk(lean):
            if isinstance(value, str):
                assert secret not in value, path
            assert not isinstance(value, GameState), path
            if not isinstance(value, Card):
                continue
            match path:
                case ("hands", int(s), int(i), "card"):
                    assert s != seat or state.over, f"seat {seat} sees its own card at {path}"
                    assert value == deck[state.hands[s][i]]
                case ("discard", int(i), 1):
                    assert i < len(state.discard) and value == deck[state.discard[i]], f"{path} of seat {seat}"
                case _:
                    raise AssertionError(f"a card at {path} in the view of seat {seat}")
        assert secret not in repr(lean)
        assert secret.encode() not in pickle.dumps(lean)


def check_event(state: GameState, secret: str) -> None:
    """The newest event holds only public facts: the identity of a card that has left every hand, never the seed."""
    event = state.events[-1]
    assert isinstance(event, TurnEvent)
    for path, value in walk(event):
        assert not isinstance(value, str) or "secret" not in value
        if isinstance(value, Card):
            assert path == ("card",)
            assert not isinstance(event.action, Clue)
            order = event.action.order
            assert value == state.deck[order]
            assert order in state.discard or order in state.played
    if event.drawn is not None:
        assert event.drawn == state.next_draw - 1
    assert secret not in repr(event)
    assert secret.encode() not in pickle.dumps(event)


# ---- the properties -----------------------------------------------------------------------------


# Many whole games: coverage pauses during them, to keep the suite fast (docs/developing.md, "Tests and checks").
@pytest.mark.no_cover
@pytest.mark.parametrize(("variant", "players", "empty_clues", "all_or_nothing"), CONFIGS)
@PROFILE
@given(seed=st.integers(0, 2**32), chooser=st.integers(0, 2**32), care=st.sampled_from([0.0, 0.9, 1.0]))
def test_random_legal_games(variant: Variant, players: int, empty_clues: bool, all_or_nothing: bool,
                            seed: int, chooser: int, care: float) -> None:
    config = GameConfig(players=players, variant=variant, empty_clues=empty_clues, all_or_nothing=all_or_nothing)
    secret = seed_text(seed)
    state = new_game(config, secret)
    rng = random.Random(chooser)
    actions: list[TurnAction] = []
    midway: GameState | None = None
    check_state(state)
    check_views(state, secret, deep=True)
    while not state.over:
        action = choose(state, rng, care)
        before, state = state, apply(state, action)
        actions.append(action)
        check_state(state)
        check_step(before, action, state)
        check_event(state, secret)
        check_views(state, secret, deep=state.turn % 8 == 0 or state.over)
        if midway is None and rng.random() < 0.05:
            midway = state
    assert state.outcome is not None and legal_actions(state) == []

    # The same seed and the same actions give the same game.
    again = new_game(config, secret)
    for action in actions:
        again = apply(again, action)
    assert again == state

    # Export then import gives the same game back, finished or still running.
    for game in (state, midway):
        if game is None:
            continue
        data: Any = json.loads(json.dumps(to_json(game)))
        back = from_json(data).state
        # A replay file never carries the seed (hanab.live would shuffle its own deck from it): the deck is the game.
        assert "seed" not in data
        assert back.seed is None
        assert dataclasses.replace(back, seed=game.seed) == game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=10)
@given(seed=st.integers(0, 2**64))
def test_a_finished_game_comes_back_from_its_replay_file_without_its_seed(players: int, seed: int) -> None:
    state = new_game(GameConfig(players=players), seed)
    while not state.over:
        state = apply(state, legal_actions(state)[-1])
    data = json.loads(json.dumps(to_json(state)))
    assert "seed" not in data
    back = from_json(data).state
    assert back.seed is None and dataclasses.replace(back, seed=seed) == state
