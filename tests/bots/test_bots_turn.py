"""A turn of the house bot keeps what it works out more than once: each candidate clue's reading and each card's
belief. Kept, they must still be what the table says when the turn ends: nothing may change the table once the
turn has settled what was pending."""

from __future__ import annotations

import pytest
from hanabi.engine import Clue, GameConfig, apply, new_game, view_for
from hanabi.engine.bots.conventions import Reading, read_clue, touched_by
from hanabi.engine.bots.decision import table_level
from hanabi.engine.bots.hgroup import Turn
from hanabi.engine.bots.memory import Table
from people import Beginner  # bench/people.py: the simulated person


class Forgetful(Turn):
    """A turn that keeps nothing: every reading and belief worked out again each time it is asked."""

    def reading(self, clue: Clue, touched: tuple[int, ...]) -> Reading:
        return read_clue(self.t, self.me, clue, touched)

    def belief(self, order: int, reading: Reading | None = None) -> int:
        return self.belief_after(order, reading)


# Whole games: coverage pauses during them, to keep the suite fast (docs/developing.md, "Tests and checks").
@pytest.mark.no_cover
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("players", "people"), [(2, ()), (3, ()), (4, ()), (5, ()), (2, (1,)), (3, (0,))])
def test_what_a_turn_keeps_is_what_the_table_says_when_it_ends(players: int, people: tuple[int, ...],
                                                               seed: int) -> None:
    """The same decision as a turn that keeps nothing, and what it kept as the table says when it ends."""
    bot_seats = frozenset(s for s in range(players) if s not in people)
    level = table_level(None, players, bot_seats)
    state = new_game(GameConfig(players=players), seed=10 * seed + players)
    tables: dict[int, Table] = {}
    person = Beginner(players)
    readings = beliefs = 0
    while not state.over:
        seat = state.current
        view = view_for(state, seat)
        if seat in people:
            state = apply(state, person.choose(view))
            continue
        table = tables.setdefault(seat, Table(view.config, seat, level, bot_seats))
        table.catch_up(view)
        forgetful = Forgetful(table.fork(), view)
        turn = Turn(table, view)
        decision = turn.decide()
        assert decision == forgetful.decide(), f"turn {state.turn}"
        action = decision.action
        for clue, reading in turn._readings.items():
            assert reading == read_clue(table, seat, clue, touched_by(table, clue.target, clue)), \
                f"turn {state.turn}: {clue}"
            readings += 1
        for order, belief in turn._beliefs.items():
            assert belief == turn.belief_after(order, None), f"turn {state.turn}: card {order}"
            beliefs += 1
        state = apply(state, action)
    assert readings > 20 and beliefs > 20
