"""A replay file says who held each seat (a person or a bot) and the level of the table's bots, so that its moments
are the same wherever the file is read; hanab.live still takes the file, and a file that does not say keeps
reading as before."""

from __future__ import annotations

import json
import random

import pytest
from hanabi.engine import Discard, GameConfig, GameState, Play, apply, new_game, view_for
from hanabi.engine.bots import make_bot
from hanabi.engine.coach import UNSAID_LEVEL, Judged, find_moments, judged, replay_moments
from hanabi.engine.replay import (
    BOT_LEVEL,
    SEAT_HOLDERS,
    ReplayError,
    SeatHolder,
    dumps,
    from_json,
    handed_on,
    to_json,
)

from .hanablive_loader import problems

NAMES = ("ann", "ben", "Bot Cleo")


def bot_game(seed: int = 9) -> GameState:
    """Three seats: two people who now and then play or throw a card on a whim, then a house bot; from turn 12
    on, a house bot holds ben's seat too."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=3), seed)
    while not state.over:
        seat = state.current
        bots = frozenset({1, 2}) if state.turn >= 12 else frozenset({2})
        action = make_bot(bot_seats=bots).choose(view_for(state, seat))
        if seat not in bots and rng.random() < 0.3:
            newest, oldest = state.hands[seat][0], state.hands[seat][-1]
            action = Play(newest) if rng.random() < 0.5 or state.clue_tokens == 8 else Discard(oldest)
        state = apply(state, action)
    return state


HOLDERS = (SeatHolder(0, 2, "Bot Cleo", True), SeatHolder(0, 1, "ben", False), SeatHolder(12, 1, "Bot Dan", True))


def test_the_file_says_who_held_each_seat_and_the_level_and_hanablive_still_takes_it() -> None:
    data = to_json(bot_game(), NAMES, holders=HOLDERS, bot_level="basic")
    assert data["options"][BOT_LEVEL] == "basic" and len(data["options"][SEAT_HOLDERS]) == 3
    assert problems(data) == []  # hanab.live's decoder ignores option names it does not know
    replay = from_json(json.loads(json.dumps(data)))
    assert replay.bot_level == "basic"
    assert [replay.bots_at(turn) for turn in (0, 11, 12, 40)] == [frozenset({2})] * 2 + [frozenset({1, 2})] * 2
    assert judged(replay) == Judged("basic", True)


def test_a_seat_a_bot_held_at_the_deal_gets_its_turn_0_entry_once_and_only_with_the_level() -> None:
    handed = [SeatHolder(0, 1, "ben", False), SeatHolder(12, 1, "Bot Dan", True)]  # ben's seat, handed on
    data = to_json(bot_game(), NAMES, holders=handed, bot_level="basic", dealt_bots={2, 1})
    # Seat 2, the bot's from the deal, first; seat 1's first entry already names its holder at the deal.
    assert from_json(json.loads(json.dumps(data))).holders == (SeatHolder(0, 2, "Bot Cleo", True), *handed)
    without_level = to_json(bot_game(), NAMES, holders=handed, dealt_bots={2})
    assert from_json(json.loads(json.dumps(without_level))).holders == tuple(handed)


def test_the_moments_of_a_file_judge_a_seat_while_a_person_held_it_at_the_files_level() -> None:
    state = bot_game()
    replay = from_json(json.loads(dumps(state, NAMES, holders=HOLDERS, bot_level="basic")))
    moments = replay_moments(replay)
    assert any(m.seat == 1 for m in moments), moments  # ben's, before the hand-over
    assert all(m.seat != 2 and (m.seat != 1 or m.turn - 1 < 12) for m in moments), moments
    assert moments != find_moments(state, level="basic", names_at=replay.names_at)  # every seat: a bot's move too
    # Told with who held the seats then: after the hand-over, ben's seat is Bot Dan's.
    assert all(m.done.startswith(f"{replay.names_at(m.turn - 1)[m.seat]} ") for m in moments), moments
    later = " ".join(" ".join(m.lines()) for m in moments if m.turn - 1 >= 12)
    assert later and "ben" not in later.split() and "ben:" not in later, later
    # The same as judging the game itself, seat by seat and turn by turn, at the file's level.
    by_turn = lambda turn: frozenset({1, 2}) if turn >= 12 else frozenset({2})  # noqa: E731
    assert moments == find_moments(state, level="basic", names_at=replay.names_at, bots_at=by_turn)
    assert moments == replay_moments(from_json(json.loads(dumps(state, NAMES, holders=HOLDERS, bot_level="basic"))))


def test_a_file_that_does_not_say_who_the_bots_were_judges_every_seat_at_beginner_level() -> None:
    state = bot_game()
    replay = from_json(json.loads(dumps(state, NAMES, holders=HOLDERS)))  # an older file: hand-overs, no level
    assert replay.bot_level is None and replay.bots_at(0) is None
    how = judged(replay)
    assert how == Judged(UNSAID_LEVEL, False) and "does not say who the bots were" in how.words()
    assert replay_moments(replay) == find_moments(state, level=UNSAID_LEVEL, names_at=replay.names_at)


@pytest.mark.parametrize("level", ["expert", 3, True, ""])
def test_a_level_that_is_none_of_the_tables_is_refused_in_a_sentence(level: object) -> None:
    data = to_json(new_game(GameConfig(players=2), 1), ("a", "b"))
    data["options"][BOT_LEVEL] = level
    with pytest.raises(ReplayError, match=r"options\.botLevel is .*, not a convention level: it is one of "
                                          r'"beginner", "basic", "h-group"'):
        from_json(data)


def test_a_seats_first_hand_over_also_names_its_holder_from_the_deal_and_a_later_one_does_not() -> None:
    first = handed_on([2], 1, 12, "ben", "Bot Dan", bot=True)
    assert first == [SeatHolder(0, 1, "ben", False), SeatHolder(12, 1, "Bot Dan", True)]
    again = handed_on([2, 1, 1], 1, 20, "Bot Dan", "ben 2")
    assert again == [SeatHolder(20, 1, "ben 2", False)]
    assert handed_on([], 0, 3, "Bot Ada", "ann", was_bot=True)[0] == SeatHolder(0, 0, "Bot Ada", True)
