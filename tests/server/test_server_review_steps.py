"""A review's last step is the one every viewer of the game's replay reaches: a game that ended outside any turn (a
host's stop, a clock run out) has its end as one step more, on the server as in the client."""

from __future__ import annotations

import pytest
from hanabi.client.review import game_of
from hanabi.engine import Clue, GameConfig, GameState, apply, last_step, new_game, terminate, time_out
from hanabi.engine.replay import dumps


def two_clues() -> GameState:
    state = new_game(GameConfig(players=2), 5)
    for _ in range(2):
        target = (state.current + 1) % state.players
        state = apply(state, Clue(target, rank=state.deck[state.hands[target][0]].rank))
    return state


@pytest.mark.parametrize("end", [
    lambda s: s,
    lambda s: terminate(s, "the host stopped the game"),
    lambda s: time_out(s, "alice ran out of time"),
], ids=["running", "stopped", "timed out"])
def test_the_servers_last_step_is_the_replays(end) -> None:
    state = end(two_clues())
    loaded = game_of(dumps(state, ("alice", "bob")))
    assert loaded is not None
    _, states = loaded
    assert last_step(state) == len(states) - 1
    ended, shown = state.outcome, states[-1].outcome
    # The last step shows how the game ended ("ran out of time", 0), in the replay's own words for who.
    assert (shown and (shown.reason, shown.score)) == (ended and (ended.reason, ended.score))


def test_a_timed_out_games_review_ends_on_its_time_out() -> None:
    state = time_out(two_clues(), "alice ran out of time")
    assert last_step(state) == 3  # two clues, then the clock
