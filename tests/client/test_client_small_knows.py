"""``k`` (what each seat knows) on a small screen: every screen shows what fits, never prompt_toolkit's "Window too
small"; when the knows rows do not fit they are left out and the board's corner says ``k`` needs more rows."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hanabi.client.replayer import ReplayViewer
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine import Discard, GameState, apply, legal_actions
from hanabi.engine.replay import dumps, from_json
from hanabi.protocol.messages import GameOver, GameStarted, Joined, ReplayFile, Review, Welcome
from prompt_toolkit.input import create_pipe_input

NAMES = ("alice", "bob", "cathy", "dave", "emma", "fred")
TOO_SMALL = "Window too small"
MORE_ROWS = "k: more rows"


@cache
def played(kit, players: int, over: bool = False) -> GameState:
    """A game of ``players`` a few turns in (the rewind has steps), or to its end: discards when allowed. Played
    once for all the cases that show it (a state is immutable)."""
    state = kit.clue_something(kit.game(players))
    while not state.over and (over or state.turn < 4):
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    return state


def check(screen: str, knows: bool, rows: int) -> None:
    lines = screen.splitlines()
    assert TOO_SMALL not in screen and len(lines) == rows, screen
    shown = any(line.startswith("    knows") for line in lines)  # a knows row under a hand
    assert shown or MORE_ROWS in screen if knows else not shown and MORE_ROWS not in screen, screen


@pytest.mark.parametrize("knows", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", [(60, 15), (80, 15), (70, 20)])
def test_the_game_and_its_rewind_fit_a_small_screen_with_k_on_or_off(kit, tmp_path: Path, players: int, knows: bool,
                                                                       size: tuple[int, int]) -> None:
    names = NAMES[:players]
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, columns=size[0], rows=size[1])
        term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(names, running=True), 0),
                  GameStarted(1, 1), kit.view_message(played(kit, players), 0))
        # k and r by what their keys do (typed in test_client_app.py and test_client_counting.py): a sweep of
        # layouts, not of keys, so no app runs for them.
        term.app.ui.show_knowledge = knows
        check(term.screen(), knows, size[1])
        term.app.open_rewind()  # the rewind
        assert term.app.ui.rewind is not None
        check(term.screen(), knows, size[1])
        term.type(":")  # the command line takes a row too
        check(term.screen(), knows, size[1])


@pytest.mark.parametrize("knows", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", [(60, 15), (80, 15), (70, 20)])
def test_the_review_fits_a_small_screen_with_k_on_or_off(kit, tmp_path: Path, players: int, knows: bool,
                                                           size: tuple[int, int]) -> None:
    names = NAMES[:players]
    state = played(kit, players, over=True)
    text = dumps(state, names)
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, columns=size[0], rows=size[1])
        term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(names), 1), GameStarted(1, 1),
                  kit.view_message(state, 1), GameOver(1, state.outcome, state.deck, "7"), ReplayFile(1, text),
                  Review(1, 1, "alice", 3, state.turn, None))
        if knows:
            term.type("k")
        assert term.app.looking_back() == "review"
        check(term.screen(), knows, size[1])


@pytest.mark.parametrize("knows", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", [(60, 15), (80, 15), (70, 20)])
def test_the_replay_viewer_fits_a_small_screen_with_k_on_or_off(kit, players: int, knows: bool,
                                                                 size: tuple[int, int]) -> None:
    replay = from_json(json.loads(dumps(played(kit, players, over=True), NAMES[:players])))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(*size))
        pipe.send_text(("k" if knows else "") + "\x1b[C" * 3 + "q")
        viewer.application.run()
        check(screen_text(viewer.application, *size), knows, size[1])
