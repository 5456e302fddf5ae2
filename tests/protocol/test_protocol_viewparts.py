"""A view's frame joined from shared parts (``ViewParts``) is byte for byte the frame of its ``to_wire`` map, and
the parts one view packs serve the others of the same moment, never a view they do not belong to."""

from __future__ import annotations

import random

import msgpack
import pytest
from hanabi.engine import GameConfig, GameState, PlayerView, Variant, apply, new_game, views_for
from hanabi.protocol import ProtocolError, ViewParts, ViewUpdate, encode, to_wire
from hanabi.protocol.viewparts import view_body

_pack = msgpack.Packer(use_bin_type=True, datetime=False, strict_types=False).pack


def moments(game: int) -> list[list[PlayerView]]:
    """Every moment of a random legal game: the views of every seat and a spectator, built together (as a
    server builds them, from the last moment's views)."""
    rnd = random.Random(game)
    state: GameState = new_game(GameConfig(players=rnd.randint(2, 5), variant=rnd.choice(list(Variant))), seed=game)
    out: list[list[PlayerView]] = []
    views: list[PlayerView] = []
    while True:
        views = views_for(state, [*range(state.players), None], views)
        out.append(views)
        if state.outcome is not None:
            return out
        state = apply(state, rnd.choice(views[state.current].legal_actions()), seat=state.current)


@pytest.mark.parametrize("game", range(6))
def test_joined_from_shared_parts_a_view_is_the_bytes_of_its_map(game: int) -> None:
    rnd = random.Random(game)
    for views in moments(game):
        parts = ViewParts()
        for view in views:
            since = rnd.choice([0, len(view.events), rnd.randint(0, len(view.events))])
            message = ViewUpdate(game=game, view=view, id=rnd.choice([None, 12]))
            assert view_body(message, since, parts) == _pack(to_wire(message, since))


def test_parts_are_not_taken_for_another_moment_or_another_since() -> None:
    first, *_, last = moments(3)
    parts = ViewParts()
    for views in (first, last):  # one ViewParts misused across two moments still gives each view its own bytes
        for view in views:
            for since in (0, len(view.events)):
                message = ViewUpdate(game=3, view=view)
                assert view_body(message, since, parts) == _pack(to_wire(message, since))


def test_a_bad_view_message_is_refused_as_to_wire_refuses_it() -> None:
    view = moments(1)[0][0]
    with pytest.raises(ProtocolError) as joined:
        encode(ViewUpdate(game=-1, view=view), parts=ViewParts())
    with pytest.raises(ProtocolError) as mapped:
        to_wire(ViewUpdate(game=-1, view=view))
    assert joined.value.code == mapped.value.code == "bad_field"
    assert str(joined.value) == str(mapped.value)
    with pytest.raises(ProtocolError, match="since"):
        encode(ViewUpdate(game=1, view=view), since=len(view.events) + 1)


def test_parts_carried_from_the_last_move_give_the_same_bytes_and_do_not_pile_up() -> None:
    parts: ViewParts | None = None
    for views in moments(4):
        parts = ViewParts(parts)
        for view in views:
            message = ViewUpdate(game=4, view=view)
            assert view_body(message, 0, parts) == _pack(to_wire(message))
        # One options part, the shown and hidden hands, one rest: nothing kept from earlier moments.
        assert len(parts._parts) <= 1 + 2 * len(views[0].hands) + 1
