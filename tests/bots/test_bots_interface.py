"""The bots' interface: legal moves only, and decisions made from the seat's view alone."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hanabi.engine import GameConfig, GameState, Variant, apply, new_game, view_for
from hanabi.engine.bots import BOTS, choose_action, make_bot

CONFIGS = [
    GameConfig(players=p, variant=v, empty_clues=e, all_or_nothing=a)
    for p, v, e, a in [
        (2, Variant.NONE, False, False),
        (3, Variant.SIX_SUITS, True, False),
        (4, Variant.SHORT_MULTICOLOR, False, True),
        (5, Variant.WILD_MULTICOLOR, True, True),
        (2, Variant.WILD_MULTICOLOR, False, False),
        (3, Variant.NONE, False, True),
    ]
]


def _play_out(config: GameConfig, seed: int, bot_name: str) -> GameState:
    bots = [make_bot(bot_name) for _ in range(config.players)]
    state = new_game(config, seed)
    while not state.over:
        view = view_for(state, state.current)
        action = bots[state.current].choose(view)
        assert action in view.legal_actions(), f"{bot_name} chose an illegal {action} at turn {state.turn}"
        state = apply(state, action, seat=state.current)
    return state


# Many whole games: coverage pauses during them, to keep the suite fast (docs/developing.md, "Tests and checks").
@pytest.mark.no_cover
@pytest.mark.parametrize("bot_name", sorted(BOTS))
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.variant.name}")
def test_bot_only_makes_legal_moves(bot_name: str, config: GameConfig) -> None:
    for seed in range(3):
        state = _play_out(config, seed, bot_name)
        assert state.outcome is not None


@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_house_bot_is_legal_in_every_variant_and_player_count(variant: Variant, players: int) -> None:
    seed = players * 10 + list(Variant).index(variant)
    config = GameConfig(players=players, variant=variant, empty_clues=seed % 2 == 0, all_or_nothing=seed % 3 == 0)
    state = _play_out(config, seed, "hgroup")
    assert state.outcome is not None


@pytest.mark.no_cover
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bot_stays_legal_beside_players_who_ignore_the_conventions(players: int) -> None:
    """Half the seats move at random (as a confused human might): the bots still only make legal moves."""
    rng = random.Random(players)
    for seed in range(3):
        config = GameConfig(players=players, variant=list(Variant)[seed], empty_clues=seed == 1)
        bots = [make_bot() for _ in range(players)]
        state = new_game(config, seed)
        while not state.over:
            view = view_for(state, state.current)
            if state.current % 2:
                action = rng.choice(view.legal_actions())
            else:
                action = bots[state.current].choose(view)
                assert action in view.legal_actions()
            state = apply(state, action, seat=state.current)


def _hidden_twin(state: GameState, rng: random.Random) -> GameState:
    """The same table seen from the seat to move, with its own cards and the deck's rest shuffled."""
    seat = state.current
    hidden = list(state.hands[seat]) + list(range(state.next_draw, len(state.deck)))
    cards = [state.deck[o] for o in hidden]
    rng.shuffle(cards)
    deck = list(state.deck)
    for order, card in zip(hidden, cards, strict=True):
        deck[order] = card
    return replace(state, deck=tuple(deck), seed=None)


def test_decision_depends_only_on_the_view() -> None:
    """Two games that differ only in what the seat cannot see get the same decision."""
    rng = random.Random(1)
    state = new_game(GameConfig(players=3), seed=11)
    checked = 0
    while not state.over and checked < 30:
        twin = _hidden_twin(state, rng)
        mine, other = view_for(state, state.current), view_for(twin, twin.current)
        assert mine == other  # the twin really is indistinguishable from that seat
        assert choose_action(mine) == choose_action(other)
        state = apply(state, choose_action(mine))
        checked += 1
    assert checked == 30


def test_view_holds_no_game_state() -> None:
    """The only thing a bot receives is a PlayerView, and nothing reachable from it is a GameState."""
    state = new_game(GameConfig(players=2), seed=3)
    view = view_for(state, state.current)
    seen: list[object] = []
    stack: list[object] = [view]
    while stack:
        item = stack.pop()
        if any(item is s for s in seen):
            continue
        seen.append(item)
        assert not isinstance(item, GameState)
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, name) for name in item.__slots__ if hasattr(item, name))
    assert len(seen) > 20


def test_unknown_bot_name_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="there is no bot named 'nobody'"):
        make_bot("nobody")


def test_bot_refuses_to_move_out_of_turn() -> None:
    state = new_game(GameConfig(players=2), seed=5)
    with pytest.raises(ValueError, match="seat to move"):
        choose_action(view_for(state, 1 - state.current))
