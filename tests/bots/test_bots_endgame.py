"""The endgame look-ahead (engine/bots/endgame.py): two house bots, the deck nearly out.

The position comes from a real deal (seed 37, two players) played by the house bots up to the turn
where the look-ahead first changed their choice: the actions are written out here, so that the
position does not move when the conventions change.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hanabi.engine import Clue, Discard, GameConfig, GameState, Play, Suit, apply, new_game, view_for
from hanabi.engine.bots import endgame, hgroup
from hanabi.engine.bots.hgroup import ConventionBot

# c<target><colour letter or rank>, p<order> (play), d<order> (discard)
SEED_37 = ("c11 p7 c1Y p6 d0 c0W c1R c05 p1 p9 d3 d8 d4 d10 c1R p11 d12 c03 c1W p5 p13 d18 c11 p21 c1B c05 c1B "
           "p19 d15 p23 d17 c04 p22 d24 d20 c0Y p2 d25 d26 c0W c11 c02 p34 c03 p29 c05 c14 p33 c1R c0G p36 p37 "
           "d35 p14 c1W c0R p31 p41 p32 p16 p28 d30 c1R c0G")
COLOURS = {s.name[0]: s for s in Suit}


def action(text: str) -> Play | Discard | Clue:
    kind, rest = text[0], text[1:]
    if kind == "p":
        return Play(int(rest))
    if kind == "d":
        return Discard(int(rest))
    target, what = int(rest[0]), rest[1]
    return Clue(target, rank=int(what)) if what.isdigit() else Clue(target, colour=COLOURS[what])


def position() -> GameState:
    """Seed 37 after 64 turns: 2 cards in the deck, 1 clue token, seat 0 to move."""
    state = new_game(GameConfig(players=2), 37)
    for text in SEED_37.split():
        state = apply(state, action(text), seat=state.current)
    assert (state.deck_left, state.clue_tokens, state.current) == (2, 1, 0)
    return state


def finish(state: GameState) -> int:
    bots = [ConventionBot(), ConventionBot()]
    while state.outcome is None:
        state = apply(state, bots[state.current].choose(view_for(state, state.current)), seat=state.current)
    return state.outcome.score


def test_with_the_last_token_the_look_ahead_discards_where_a_stall_loses_two_points() -> None:
    state = position()
    view = view_for(state, 0)
    plain = ConventionBot(search=False).decide(view).action
    searched = ConventionBot().decide(view)
    # Without the look-ahead: a harmless clue to keep the deck (the stall rule near the end).
    assert isinstance(plain, Clue)
    assert isinstance(searched.action, Discard) and "the deck is nearly out" in searched.reason
    assert finish(apply(state, searched.action, seat=0)) > finish(apply(state, plain, seat=0))


def test_the_look_ahead_is_off_when_a_person_sits_at_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = endgame.search

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hgroup, "search", counted)
    view = view_for(position(), 0)
    ConventionBot(bot_seats=frozenset({0})).decide(view)  # seat 1 is a person
    assert calls == []
    ConventionBot().decide(view)
    assert calls == [1]


def test_a_sampled_world_keeps_all_the_seat_sees() -> None:
    state = position()
    view = view_for(state, 0)
    masks = {cv.order: cv.knowledge.possible for cv in view.my_hand}
    for seed in range(5):
        world = endgame.world(view, masks, random.Random(seed))
        assert world is not None
        assert world.hands == state.hands and world.discard == state.discard
        assert [world.deck[o] for o in state.hands[1]] == [state.deck[o] for o in state.hands[1]]
        assert all(masks[o] >> world.deck[o].identity & 1 for o in state.hands[0])
        assert Counter(world.deck) == Counter(state.deck)  # the same cards, only ours and the deck's drawn anew
        assert finish(world) >= 0  # it plays to the end
