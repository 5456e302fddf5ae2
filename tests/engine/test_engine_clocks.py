"""Timed games and pre-moves at the engine: the clocks' arithmetic, the end when one runs out (the last turn
included), its hanab.live export, and the one rule that cancels a queued move."""

from __future__ import annotations

import pytest
from hanabi.engine import (
    Clue,
    Discard,
    EndReason,
    GameConfig,
    GameEnded,
    GameState,
    Play,
    after_move,
    apply,
    cancelled_by,
    legal_actions,
    new_game,
    out_of_time,
    premove_refusal,
    spend,
    starting_clocks,
    time_out,
)
from hanabi.engine.replay import from_json, to_json

TIMED = GameConfig(players=3, timed=True, time_base=60, time_per_turn=5)


def _calm_turn(state: GameState) -> GameState:
    """A move that never strikes: a discard when one is allowed, else a clue."""
    actions = legal_actions(state)
    move = next((a for a in actions if isinstance(a, Discard)), None) or next(a for a in actions
                                                                              if isinstance(a, Clue))
    return apply(state, move)


def _last_turn(config: GameConfig) -> GameState:
    state = new_game(config, "last turn")
    while state.final_turns_left != 1:
        state = _calm_turn(state)
    return state


def test_a_bank_starts_full_runs_down_and_gains_the_bonus_after_a_move() -> None:
    clocks = starting_clocks(TIMED)
    assert clocks == (60.0, 60.0, 60.0)
    assert spend(clocks, 1, 12.5) == (60.0, 47.5, 60.0)
    assert spend(clocks, 1, 99) == (60.0, 0.0, 60.0)  # a bank never goes below empty
    assert after_move(TIMED, clocks, 2, 10) == (60.0, 60.0, 55.0)
    assert not out_of_time(clocks, 0, 59.9)
    assert out_of_time(clocks, 0, 60)


def test_time_running_out_on_the_last_turn_loses_the_game_for_the_table() -> None:
    state = _last_turn(TIMED)
    assert state.score >= 0 and not state.over
    ended = time_out(state, "Cathy ran out of time")
    assert ended.outcome is not None
    assert ended.outcome.reason is EndReason.TIMEOUT and ended.score == 0 and ended.outcome.detail.startswith("Cathy")
    # Without the timeout, that same last move would have ended the game by the final round, with its score.
    assert _calm_turn(state).outcome is not None and _calm_turn(state).outcome.reason is EndReason.FINAL_ROUND  # type: ignore[union-attr]
    with pytest.raises(GameEnded):
        time_out(ended, "again")
    with pytest.raises(GameEnded):
        apply(ended, legal_actions(state)[0])


def test_a_timed_game_exports_hanablives_timers_and_its_timeout() -> None:
    state = time_out(_last_turn(TIMED), "ran out")
    data = to_json(state, ["Ann", "Ben", "Cy"])
    assert data["options"]["timed"] is True
    assert (data["options"]["timeBase"], data["options"]["timePerTurn"]) == (60, 5)
    assert data["actions"][-1] == {"type": 4, "target": state.current, "value": 3}
    again = from_json(data).state
    assert again.config.timed and (again.config.time_base, again.config.time_per_turn) == (60, 5)
    assert again.outcome is not None and again.outcome.reason is EndReason.TIMEOUT and again.score == 0
    assert "Cy" in again.outcome.detail or state.current != 2


def test_an_untimed_game_exports_no_timers() -> None:
    data = to_json(new_game(GameConfig(), 1))
    assert not {"timed", "timeBase", "timePerTurn"} & data["options"].keys()


@pytest.mark.parametrize(("options", "words"), [({"time_base": 0}, "1 to 86400 seconds"),
                                                ({"time_per_turn": -1}, "0 to 86400 seconds")])
def test_clock_settings_out_of_range_are_refused_with_a_sentence(options: dict[str, int], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        GameConfig(timed=True, **options)  # type: ignore[arg-type]


def test_a_premove_is_one_of_your_cards_while_it_is_not_your_turn() -> None:
    state = new_game(GameConfig(players=3, first_seat=0), 5)
    mine = state.hands[1][0]
    assert premove_refusal(state, 1, Play(mine)) is None
    assert premove_refusal(state, 1, Discard(mine)) is None
    assert "it is your turn" in (premove_refusal(state, 0, Play(state.hands[0][0])) or "")
    assert "not in your hand" in (premove_refusal(state, 1, Play(state.hands[2][0])) or "")
    over = time_out(state, "x")
    assert "game is over" in (premove_refusal(over, 1, Play(mine)) or "")


def test_a_clue_touching_the_queued_card_cancels_the_premove_and_no_other_event_does() -> None:
    state = new_game(GameConfig(players=3, first_seat=0), 5)
    hand = state.hands[1]
    first = state.deck[hand[0]]
    touching = apply(state, Clue(1, colour=first.suit))
    move = Play(hand[0])
    sentence = cancelled_by(touching.events[-1], move)
    assert sentence is not None and "cancelled" in sentence and "play" in sentence
    assert cancelled_by(touching.events[-1], Discard(hand[0])) is not None
    # A card the clue did not touch keeps its pre-move; so does a clue to someone else, or a discard.
    untouched = [o for o in hand if o not in touching.events[-1].touched]  # type: ignore[union-attr]
    for order in untouched:
        assert cancelled_by(touching.events[-1], Play(order)) is None
    other = next(a for a in legal_actions(state) if isinstance(a, Clue) and a.target == 2)
    assert cancelled_by(apply(state, other).events[-1], move) is None
