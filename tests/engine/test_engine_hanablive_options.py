"""hanab.live's two rule options, at the engine: the early end and the bottom-deck blind play; and how a
replay file reads and writes them, with hanab.live's end conditions and the options this program refuses.

Positions near the end of a game are set up directly (``dataclasses.replace`` on a dealt game): the rules
under test read only the fireworks, the discard pile, the deck and the hands.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hanabi.engine import (
    Card,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    GameState,
    IllegalAction,
    Play,
    Variant,
    apply,
    game_from_deck,
    legal_actions,
    terminate,
    view_for,
)
from hanabi.engine.replay import ReplayError, from_json, to_json
from hypothesis import given, settings
from hypothesis import strategies as st


# The deck's cards in suit-then-rank order, with the named cards first (in dealing order).
def _deck(top: str, bottom: str = "") -> list[Card]:
    rest = Variant.NONE.deck()
    front = [Card.parse(n) for n in top.split()]
    back = [Card.parse(n) for n in bottom.split()]
    for card in front + back:
        rest.remove(card)
    return front + rest + back


def _game(top: str, bottom: str = "", players: int = 2, **options: bool) -> GameState:
    return game_from_deck(GameConfig(players=players, **options), _deck(top, bottom))


def test_both_options_are_off_by_default() -> None:
    config = GameConfig()
    assert not config.end_when_no_points and not config.deck_plays


# --- the early end ---------------------------------------------------------------------------------------

def _every_one_gone_but_white(**options: bool) -> GameState:
    """Seat 0 holds the last W1; the 14 other 1s are in the discard pile; 26 cards are left in the deck."""
    state = _game("W1 R2 R3 R4 R5 Y2 Y3 Y4 Y5 G2", "", **options)
    ones = [o for o in range(10, len(state.deck)) if state.deck[o].rank == 1]
    state = replace(state, deck=state.deck[:10] + tuple(state.deck[o] for o in ones)
                    + tuple(c for o, c in enumerate(state.deck[10:], 10) if o not in ones))
    return replace(state, discard=tuple(range(10, 24)), next_draw=24, clue_tokens=7)


def test_the_game_ends_when_the_last_card_that_could_be_played_is_discarded() -> None:
    state = apply(_every_one_gone_but_white(end_when_no_points=True), Discard(0))
    assert state.outcome is not None and state.outcome.reason is EndReason.NO_MORE_POINTS
    assert state.outcome.score == 0 and state.deck_left == 25  # with cards still in the deck
    assert "no more points" in state.outcome.detail
    assert legal_actions(state) == []


def test_without_the_option_the_game_goes_on() -> None:
    state = apply(_every_one_gone_but_white(), Discard(0))
    assert state.outcome is None and legal_actions(state)


def _final_round(red_five_seat: int, **options: bool) -> GameState:
    """Every firework complete but red at 4; the deck is empty and seat 1 drew the last card: the final
    round has begun and seat 0 is to act. The R5 is in ``red_five_seat``'s hand."""
    top = "R5 Y1 Y1 G1 G1 B1 B1 W1 W1 Y2" if red_five_seat == 0 else "Y1 Y1 G1 G1 B1 R5 B1 W1 W1 Y2"
    state = _game(top, **options)
    return replace(state, fireworks=(4, 5, 5, 5, 5), next_draw=len(state.deck), final_turns_left=2, current=0,
                   clue_tokens=4)


def test_the_game_ends_when_the_card_needed_is_held_by_a_player_whose_last_turn_is_over() -> None:
    # Seat 0 gives a clue for its last turn: the R5 it holds can never be played, so nothing more can score.
    state = apply(_final_round(0, end_when_no_points=True), Clue(1, rank=1))
    assert state.outcome is not None and state.outcome.reason is EndReason.NO_MORE_POINTS
    assert state.outcome.score == 24 and state.outcome.rating == "amazing, talked about for weeks"


def test_the_game_goes_on_while_a_player_with_a_turn_to_come_holds_the_card() -> None:
    state = apply(_final_round(1, end_when_no_points=True), Clue(1, rank=1))
    assert state.outcome is None
    state = apply(state, Play(5))  # seat 1's last turn: the R5
    assert state.outcome is not None and state.outcome.reason is EndReason.PERFECT and state.score == 25


def test_without_the_option_the_final_round_is_played_out() -> None:
    state = apply(_final_round(0), Clue(1, rank=1))
    assert state.outcome is None
    state = apply(state, Clue(0, rank=5))
    assert state.outcome is not None and state.outcome.reason is EndReason.FINAL_ROUND and state.score == 24


def test_strikes_and_a_perfect_score_keep_their_own_ending() -> None:
    state = apply(_final_round(0, end_when_no_points=True), Play(0))
    assert state.outcome is not None and state.outcome.reason is EndReason.PERFECT


# --- the bottom-deck blind play ----------------------------------------------------------------------------

def _one_card_left(last: str, **options: bool) -> GameState:
    """Seat 0 to act with one card, ``last``, left in the deck; fireworks red 4, yellow 1."""
    state = _game("R1 R2 R3 R4 Y1 G1 G2 G3 B1 B2", last, **options)
    return replace(state, fireworks=(4, 1, 0, 0, 0), next_draw=len(state.deck) - 1, clue_tokens=5)


def test_the_deck_card_cannot_be_played_without_the_option() -> None:
    state = _one_card_left("R5")
    last = len(state.deck) - 1
    assert Play(last) not in legal_actions(state)
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, Play(last))


def test_the_deck_card_cannot_be_played_while_more_than_one_card_is_left() -> None:
    state = _one_card_left("R5", deck_plays=True)
    state = replace(state, next_draw=state.next_draw - 1)
    last = len(state.deck) - 1
    assert Play(last) not in legal_actions(state)
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, Play(last))
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, Play(state.next_draw))  # the top card is not the bottom one either


def test_playing_the_last_card_of_the_deck_blind() -> None:
    state = _one_card_left("R5", deck_plays=True)
    last = len(state.deck) - 1
    assert Play(last) in legal_actions(state)
    assert Play(last) in view_for(state, 0).legal_actions()  # a seat judges it by the same rule
    hands = state.hands
    after = apply(state, Play(last))
    event = after.events[-1]
    assert after.fireworks[0] == 5 and after.clue_tokens == 6  # a 5 gives a clue token back
    assert after.deck_left == 0 and after.hands == hands  # it never entered a hand; nothing was drawn
    assert event.card == Card.parse("R5") and event.success and event.drawn is None
    # The deck is empty: the final round has begun, seat 0 included.
    assert after.final_turns_left == 2 and after.outcome is None
    after = apply(apply(after, Clue(0, rank=1)), Clue(1, rank=1))
    assert after.outcome is not None and after.outcome.reason is EndReason.FINAL_ROUND


def test_a_blind_misplay_from_the_deck_is_a_strike_and_a_discard() -> None:
    state = _one_card_left("W5", deck_plays=True)
    last = len(state.deck) - 1
    after = apply(state, Play(last))
    assert after.strikes == 1 and after.discard[-1] == last and after.deck_left == 0
    third = apply(replace(state, strikes=2), Play(last))
    assert third.outcome is not None and third.outcome.reason is EndReason.STRIKEOUT and third.deck_left == 0


def test_a_deck_play_that_leaves_nothing_to_score_ends_the_game_with_both_options() -> None:
    # White is at 3 and every other firework complete: the W5 misplayed blind was the only one, so nothing
    # can be scored any more, though the players still had their final turns to come.
    state = _one_card_left("W5", deck_plays=True, end_when_no_points=True)
    state = replace(state, fireworks=(5, 5, 5, 5, 3))
    after = apply(state, Play(len(state.deck) - 1))
    assert after.strikes == 1
    assert after.outcome is not None and after.outcome.reason is EndReason.NO_MORE_POINTS
    assert after.outcome.score == 23


# --- the replay file -----------------------------------------------------------------------------------

def _file(**changes: Any) -> dict[str, Any]:
    game = _game("R1 R2 R3 R4 Y1 G1 G2 G3 B1 B2")
    data = to_json(apply(game, Play(4)))
    data["options"].pop("endWhenNoPoints", None)
    data["options"].update(changes.pop("options", {}))
    data.update(changes)
    return data


def _played_to_a_deck_play(**options: bool) -> GameState:
    """A real game (no position set by hand): discards and clues until one card is left, then a deck play."""
    state = _game("R1", "R5", **options)
    while state.deck_left > 1:
        if state.clue_tokens < 8:
            state = apply(state, Discard(state.hands[state.current][-1]))
        else:
            state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Clue)))
    return apply(state, Play(len(state.deck) - 1))


def test_both_options_survive_a_replay_file() -> None:
    state = _played_to_a_deck_play(deck_plays=True, end_when_no_points=True)
    assert state.events[-1].card == Card.parse("R5") and state.deck_left == 0
    data = json.loads(json.dumps(to_json(state)))
    assert data["options"]["deckPlays"] is True and "endWhenNoPoints" not in data["options"]
    assert from_json(data).state == state
    plain = to_json(_game("R1 R2"))
    assert plain["options"]["endWhenNoPoints"] is False and "deckPlays" not in plain["options"]
    assert from_json(plain).state.config.end_when_no_points is False


def test_a_hanablive_file_ends_early_as_hanablive_does() -> None:
    assert from_json(_file()).state.config.end_when_no_points is True


@pytest.mark.parametrize("option", ["oneExtraCard", "oneLessCard", "cardCycle", "detrimentalCharacters",
                                    "speedrun"])
def test_an_option_that_changes_the_deal_or_the_rules_is_refused_by_name(option: str) -> None:
    with pytest.raises(ReplayError, match=f"the option {option} .* is not played here"):
        from_json(_file(options={option: True}))
    assert from_json(_file(options={option: False})).state.turn == 1  # off is the same as absent


def test_options_without_effect_on_the_rules_are_read() -> None:
    state = from_json(_file(options={"timed": True, "timeBase": 120, "timePerTurn": 20})).state
    assert state.turn == 1
    with pytest.raises(ReplayError, match=r"options\.timeBase must be a whole number"):
        from_json(_file(options={"timeBase": "2 minutes"}))
    with pytest.raises(ReplayError, match=r"options\.timed must be true or false"):
        from_json(_file(options={"timed": 1}))


@pytest.mark.parametrize(("value", "words"), [(3, "Bob ran out of time"), (4, "Bob stopped the game"),
                                              (6, "idle"), (10, "voted"), (0, "Bob stopped the game")])
def test_a_game_over_action_carries_hanablives_end_condition(value: int, words: str) -> None:
    data = _file()
    data["actions"].append({"type": 4, "target": 1, "value": value})
    state = from_json(data).state
    # A timeout is its own end (the table lost on time); every other condition stops the game from outside.
    reason = EndReason.TIMEOUT if value == 3 else EndReason.TERMINATED
    assert state.outcome is not None and state.outcome.reason is reason and state.score == 0
    assert words in state.outcome.detail


def test_a_game_ended_by_vote_is_read() -> None:
    data = _file()
    data["actions"].append({"type": 5, "target": -1, "value": 10})
    state = from_json(data).state
    assert state.outcome is not None and state.outcome.reason is EndReason.TERMINATED
    assert "voted" in state.outcome.detail


@pytest.mark.parametrize(("action", "words"), [
    ({"type": 4, "target": 1, "value": 7}, "condition 7, which is not one of hanab.live's"),
    ({"type": 4, "target": 2, "value": 4}, "out of range -1..1"),
    ({"type": 5, "target": 0, "value": 10}, "out of range -1..-1"),
    ({"type": 5, "target": -1, "value": 4}, "out of range 10..10"),
    ({"type": 6, "target": 0, "value": 0}, "type is 6, out of range 0..5"),
])
def test_a_bad_game_over_action_is_one_sentence(action: dict[str, int], words: str) -> None:
    data = _file()
    data["actions"].append(action)
    with pytest.raises(ReplayError) as refused:
        from_json(data)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_an_export_never_carries_the_seed_and_a_stopped_game_is_terminated_by_a_player() -> None:
    game = game_from_deck(GameConfig(), _deck("R1"), seed="42")
    stopped = terminate(apply(game, Play(4)), "the table closed")
    data = to_json(stopped)
    assert "seed" not in data
    assert data["actions"][-1] == {"type": 4, "target": stopped.current, "value": 4}


_ODD_VALUES = st.sampled_from([None, True, False, 0, -1, 1.5, 10**30, "x", "", [], {}, [1], {"a": 1}, 2**31, 7, 99])


@settings(max_examples=300)
@given(data=st.data())
def test_a_damaged_file_is_one_sentence_never_a_traceback(data: st.DataObject) -> None:
    # One field of a real-looking file (with a deck play, a vote and timers) replaced or removed.
    game = _file(options={"deckPlays": True, "timed": True, "timeBase": 60, "timePerTurn": 5})
    game["actions"].append({"type": 5, "target": -1, "value": 10})
    where: Any = game
    path = []
    while isinstance(where, (dict, list)) and where and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(where)) if isinstance(where, dict)
                        else st.integers(0, len(where) - 1))
        path.append(key)
        if not isinstance(where[key], (dict, list)) or not where[key]:
            break
        where = where[key]
    if path:
        parent: Any = game
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_ODD_VALUES)
    try:
        from_json(game)
    except ReplayError as e:
        assert str(e) and "\n" not in str(e)
