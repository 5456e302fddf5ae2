"""The replay viewer works out each step once: its log is the whole game's told once per seat and cut at the step,
and the moment under the board is made once per step, width and search; what shows is what a fresh telling shows."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hanabi.client.model import ClientModel, Link, log_new_events
from hanabi.client.moments import Found
from hanabi.client.replayer import ReplayViewer
from hanabi.client.snapshot import SizedOutput
from hanabi.engine import Discard, apply, view_for
from hanabi.engine.replay import dumps, from_json
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import to_plain_text
from prompt_toolkit.input import DummyInput


def viewer_of(kit, state, columns: int = 80) -> ReplayViewer:
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    return ReplayViewer(replay, input=DummyInput(), output=SizedOutput(columns, 24))


def played(kit, turns: int = 30):
    state = kit.game()
    for _ in range(turns):
        state = kit.clue_something(state) if state.clue_tokens else apply(
            state, Discard(state.hands[state.current][-1]))
    return state


def test_each_step_and_seat_tells_the_log_a_fresh_telling_tells(kit) -> None:
    viewer = viewer_of(kit, played(kit))
    for seat in (None, 0, 1):
        viewer.pos.seat = seat
        for step in (0, 1, 7, len(viewer.states) - 1, 3):
            viewer.go(step)
            view = view_for(viewer.states[step], seat)
            blank = ClientModel(address=viewer.name, link=Link.REPLAY, seat_names=viewer.replay.players, seat=seat)
            fresh = log_new_events(replace(blank, view=view), view)
            shown = viewer.model()
            assert shown.view == view and shown.seat == seat
            assert shown.log == fresh.log and len(shown.log) == step and shown.logged_events == step


@pytest.mark.moments
def test_the_moment_line_follows_the_step_the_width_and_the_search(kit) -> None:
    viewer = viewer_of(kit, played(kit))
    found = viewer.moments.wait(30)
    assert found is not None
    viewer.moments._found = Found(())  # no moment: the line is empty
    viewer.go(3)
    assert viewer._moment() == [] and viewer._moment_made()[1] == 0
    viewer.said = "no moment after this step"  # m at the last moment
    assert "no moment after this step" in to_plain_text(viewer._moment()) and viewer._moment_made()[1] == 1
    viewer.said = "a longer sentence that the replay viewer must wrap over more than one line on a narrow screen"
    one_line = viewer._moment_made()[1]
    viewer.application.output.size = Size(rows=24, columns=40)  # type: ignore[attr-defined]
    assert viewer._moment_made()[1] > one_line
    viewer.said = ""
    assert viewer._moment() == []
