"""The one stepping model of the game viewers (rewind, review, replay): moves through a game's history."""

from __future__ import annotations

from hanabi.client.stepping import PAGE, Place
from hypothesis import given
from hypothesis import strategies as st

MOVES = (Place.back, Place.on, Place.round_back, Place.round_on, Place.page_back, Place.page_on, Place.start,
         Place.end)


def test_each_move_goes_where_its_name_says() -> None:
    here = Place(20, 50, 4)
    assert [m(here).at for m in MOVES] == [19, 21, 16, 24, 20 - PAGE, 20 + PAGE, 0, 50]
    assert here.to(33) == Place(33, 50, 4)


def test_moves_stop_at_the_deal_and_at_the_last_step() -> None:
    assert Place(1, 5, 3).round_back().at == 0
    assert Place(4, 5, 3).round_on().at == 5
    assert Place(0, 5, 3).back().at == 0 and Place(5, 5, 3).on().at == 5
    assert Place(0, 5, 3).to(-7).at == 0 and Place(0, 5, 3).to(99).at == 5


@given(st.integers(0, 80), st.integers(2, 6), st.integers(0, 80), st.lists(st.sampled_from(MOVES), max_size=30))
def test_no_move_leaves_the_history(last: int, players: int, start: int, moves: list) -> None:
    place = Place(min(start, last), last, players)
    for move in moves:
        after = move(place)
        assert 0 <= after.at <= last and (after.last, after.players) == (last, players)
        # A step that is not stopped by an end moves by exactly what it says.
        if move is Place.round_on and place.at + players <= last:
            assert after.at == place.at + players
        place = after
