"""The offline replay viewer (every prefix of a saved game, from any seat) and the command line's refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hanabi.client.cli import main
from hanabi.client.replayer import ReplayViewer, game_steps
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine import Play, apply, legal_actions
from hanabi.engine.replay import dumps, from_json
from prompt_toolkit.formatted_text import to_plain_text
from prompt_toolkit.input import create_pipe_input


def finished_game(kit):
    state = kit.game()
    state = kit.clue_something(state)
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    return state


def test_game_steps_rebuild_every_prefix(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    steps = game_steps(replay)
    assert len(steps) == len(state.events) + 1
    assert steps[0].turn == 0 and not steps[0].events
    assert steps[-1].outcome == state.outcome
    assert [s.turn for s in steps] == list(range(len(steps)))


def test_viewer_steps_forward_and_back_and_changes_seat(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        start = screen_text(viewer.application)
        assert "step 0/" in start and "seen by a spectator" in start
        assert "no action yet" in start
        pipe.send_text("\x1b[C\x1b[C\x1b[Dv" + "q")  # → → ← v, then quit
        viewer.application.run()
        text = screen_text(viewer.application)
    assert viewer.pos.step == 1 and viewer.pos.seat == 0
    assert "step 1/" in text and "seen by alice" in text
    assert "You (alice)" in text  # as alice, her own hand is knowledge, not cards
    assert "alice clues bob" in text
    assert "your turn" not in text  # a replay is nobody's turn to play


def test_the_replay_names_whose_turn_it_is_from_their_seat(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    viewer = ReplayViewer(replay, "game.json", output=SizedOutput(80, 24))
    viewer.cycle_seat()  # alice, who acts first
    assert "turn 1 · alice's turn" in screen_text(viewer.application).splitlines()[0]


def test_viewer_end_shows_the_outcome(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    viewer = ReplayViewer(replay, "game.json", output=SizedOutput(80, 24))
    viewer.go(10_000)
    assert "Game over: 0/25" in screen_text(viewer.application)


def test_viewer_keeps_the_newest_action_in_sight_and_its_keys_fit(kit) -> None:
    state = kit.game()
    for _ in range(30):  # many more log lines than the screen holds
        state = kit.clue_something(state) if state.clue_tokens else apply(
            state, next(a for a in legal_actions(state) if not isinstance(a, Play)))
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("\x1b[F\x1b[A" + "v" + "q")  # End, ↑ (10 steps back), v, then quit
        viewer.application.run()
        lines = screen_text(viewer.application).splitlines()
    assert viewer.pos.step == 20
    assert lines[-1].rstrip().endswith("q quit") and all(len(line) <= 80 for line in lines)
    assert " v view " in lines[-1]  # the key to change seats is never the one dropped
    log = [line for line in lines if line[:4].strip().isdigit()]
    assert log and log[-1].split()[0] == "20"  # the step just reached is the bottom line of the log


def test_replay_of_a_missing_file_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--replay", str(tmp_path / "nope.json")]) == 2
    assert "nope.json: no such file" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "words"), [
    (["host:99999"], "is not a port"),
    (["--solo", "--players", "7"], "--players must be 2 to 6"),
    (["--solo", "--variant", "purple"], "unknown variant"),
    (["--solo", "somehost"], "--solo and HOST[:PORT] do not go together"),
    (["--name", "", "host"], "--name must be"),
    (["--name", "a\tb", "host"], "--name holds the control character U+0009"),
    ([":21777"], "':21777' has no host"),
    (["127.0.0.1:"], "no port after the colon"),
    (["256.1.1.1"], "'256.1.1.1' is not an IPv4 address"),
    (["256.1.1.1:7777"], "'256.1.1.1' is not an IPv4 address"),
    (["ho st"], "is not a host name"),
    (["[::1]:"], "([::1]:7777)"),
    (["--replay", "game.json", "--solo"], "--replay and --solo do not go together"),
    (["--replay", "game.json", "host"], "do not go together"),
    (["--variant", "wild", "host"], "--variant is for --solo"),
    (["--players", "4", "host"], "--players is for --solo"),
    (["--bot-delay", "0", "host"], "--bot-delay is for --solo"),
    (["--solo", "--bot-delay", "-1"], "--bot-delay -1.0 is not a span of time"),
    (["--solo", "--bot-delay", "nan"], "--bot-delay nan is not a span of time"),
])
def test_bad_arguments_say_what_to_type(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert words in capsys.readouterr().err


def test_the_bell_rings_at_a_server_unless_told_not_to_and_never_solo() -> None:
    from hanabi.client.cli import build_parser, wants_bell

    assert wants_bell(build_parser().parse_args(["host"]))
    assert not wants_bell(build_parser().parse_args(["--no-bell", "host"]))
    assert not wants_bell(build_parser().parse_args(["--solo"]))


def test_variant_help_and_error_list_names_that_all_work(capsys: pytest.CaptureFixture[str]) -> None:
    from hanabi.client.cli import VARIANT_CHOICES, VARIANT_NAMES, build_parser
    from hanabi.engine import Variant

    typed = [word for pair in VARIANT_NAMES for word in pair if word]
    assert {Variant.parse(word) for word in typed} == set(Variant)
    assert all(repr(v.title) in VARIANT_CHOICES and repr(v.value) in VARIANT_CHOICES for v in Variant)
    help_text = " ".join(build_parser().format_help().split())
    assert "short_multicolor (or short)" in help_text and "'wild multicolor'" in help_text
    with pytest.raises(SystemExit):
        main(["--solo", "--variant", "purple"])
    err = " ".join(capsys.readouterr().err.split())
    assert "unknown variant 'purple'" in err and "wild_multicolor (or wild)" in err and "'Black (6 Suits)'" in err


def test_a_server_name_that_does_not_resolve_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuchhost.invalid"]) == 2  # .invalid never resolves (RFC 6761)
    err = capsys.readouterr().err
    assert "cannot find the server 'nosuchhost.invalid'" in err and len(err.splitlines()) == 1


class _Drawn(Exception):
    """A screen began to be drawn where no terminal was."""


@pytest.mark.parametrize("mode", ["server", "solo", "replay"])
def test_without_a_terminal_one_line_and_exit_2(mode: str, kit, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    import hanabi.client.cli
    import hanabi.client.replayer

    def drawn(*_args: object, **_options: object) -> None:
        raise _Drawn("a screen was started without a terminal")

    # main runs here, its input a file (as a redirected stdin is); a screen started all the same fails the test
    # at once rather than waiting on input that never comes.
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    monkeypatch.setattr(hanabi.client.cli, "_run", drawn)
    monkeypatch.setattr(hanabi.client.replayer, "ReplayViewer", drawn)
    replay = tmp_path / "game.json"
    replay.write_text(dumps(finished_game(kit), kit.NAMES))
    argv = {"server": ["127.0.0.1:1"], "solo": ["--solo"], "replay": ["--replay", str(replay)]}[mode]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.startswith("hanabi-client needs a terminal") and len(err.splitlines()) == 1
    assert out == ""


def test_the_command_without_a_terminal_says_so_in_one_line_and_exits_2() -> None:
    """The real command, its input from /dev/null: one line, exit status 2, no traceback from anywhere."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "hanabi.client", "--solo"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("hanabi-client needs a terminal") and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr + done.stdout


def test_the_replays_last_step_counts_the_turns_taken(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    viewer = ReplayViewer(replay, "game.json", output=SizedOutput(80, 24))
    viewer.go(10_000)
    assert f"{state.turn} turns · game over" in screen_text(viewer.application).splitlines()[0]


def test_the_replay_has_a_help_screen_and_every_key_shows_at_80_columns(kit) -> None:
    state = finished_game(kit)
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        bar = screen_text(viewer.application).splitlines()[-1]
        for key in ("←→ step", "v view", "m/M moments", "↑↓ ±10", "k knows", "Home/End ends", "? help", "q quit"):
            assert key in bar, key  # at step 0 too
        pipe.send_text("?" + "\x03")  # ? then Ctrl-C, which quits even from the help
        viewer.application.run()
        shown = screen_text(viewer.application)
        pipe.send_text("\x1b[C" + "\x1b[C" + "q")  # the first → only closes the help; the second steps
        viewer.application.run()
    assert "Keys in a replay" in shown and "Press any key to close this help" in shown
    assert all(len(line) < 80 for line in shown.splitlines()[1:])  # no line of the help wraps
    assert viewer.pos.step == 1 and not viewer.show_help


@pytest.mark.parametrize(("argv", "delay"), [(["--solo"], 0.6), (["--solo", "--bot-delay", "0"], 0.0),
                                             (["--solo", "--bot-delay", "1.5"], 1.5)])
def test_solo_bots_wait_the_bot_delay(argv: list[str], delay: float, monkeypatch: pytest.MonkeyPatch) -> None:
    from hanabi.client import cli

    asked: list[object] = []
    monkeypatch.setattr(cli, "terminal_problem", lambda: None)
    monkeypatch.setattr(cli, "_run", lambda address, name, solo=None, bell=True: asked.append(solo) or 0)
    assert main(argv) == 0
    assert [getattr(solo, "bot_delay", None) for solo in asked] == [delay]


@pytest.mark.moments
def test_m_and_big_m_jump_between_the_moments_that_mattered_found_in_the_background() -> None:
    from hanabi.client.moments import NONE_FOUND
    from hanabi.engine import GameConfig, Play, new_game, view_for
    from hanabi.engine.bots import make_bot

    # Two people who play like the house bot, but now and then play their newest card on a whim: misplays.
    state = new_game(GameConfig(players=2), 3)
    bots = [make_bot(bot_seats=frozenset()), make_bot(bot_seats=frozenset())]
    while not state.over:
        action = bots[state.current].choose(view_for(state, state.current))
        if state.turn % 5 == 4:
            action = Play(state.hands[state.current][0])
        state = apply(state, action)
    replay = from_json(json.loads(dumps(state, ("ann", "ben"))))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        found = viewer.moments.wait(60)
        assert found is not None and found.moments, "the moments were not found within 60 s"
        first, second = found.moments[0].step, found.moments[min(1, len(found.moments) - 1)].step
        pipe.send_text("mmM" + "q")
        viewer.application.run()
        text = screen_text(viewer.application)
    assert viewer.pos.step == first
    # The file does not say who the bots were: every seat is judged, and the line says so.
    said = (f"Moment 1 of {len(found.moments)}, every seat judged, at beginner level: the file does not say who the "
            f"bots were nor the table's level · Turn {found.moments[0].turn}: ")
    assert said in " ".join(text.split())
    assert "The house bot would " in text
    assert " m/M moments " in text  # the keys' line names them at 80 columns
    # Wrapped at word boundaries: every word of the moment shows whole.
    words = set(text.split())
    assert all(word in words for line in found.moments[0].lines() for word in line.split())
    assert second >= first
    viewer.go(found.moments[-1].step)
    viewer.jump(forward=True)  # at the last moment, m says why it stays, under the moment
    assert viewer.pos.step == found.moments[-1].step
    assert "no moment after this step" in to_plain_text(viewer._moment())
    with create_pipe_input() as pipe:  # at 60x15 the log gives way: the bot's move and why show whole
        small = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(60, 15))
        assert small.moments.wait(60) is not None
        pipe.send_text("m" + "q")
        small.application.run()
        shown = screen_text(small.application, 60, 15)
    assert "The house bot would " in shown and set(found.moments[0].lines()[1].split()) <= set(shown.split())
    viewer.go(0)
    viewer.jump(forward=False)
    assert viewer.pos.step == 0 and "no moment before this step" in viewer.said
    assert NONE_FOUND  # the sentence for a game without moments exists (its use is tested in the review)


def test_a_replay_played_with_advice_says_so(kit) -> None:
    state = finished_game(kit)
    plain = ReplayViewer(from_json(json.loads(dumps(state, kit.NAMES))), "a.json", output=SizedOutput(80, 24))
    assert "played with advice" not in screen_text(plain.application)
    marked = from_json(json.loads(dumps(state, kit.NAMES, advice_used=True)))
    viewer = ReplayViewer(marked, "b.json", output=SizedOutput(80, 24))
    assert "step 0/" in screen_text(viewer.application) and "played with advice" in screen_text(viewer.application)


def test_a_game_without_moments_says_so_and_how_it_was_judged() -> None:
    from hanabi.client.moments import NONE_FOUND, Found, jump
    from hanabi.engine.coach import Judged

    assert jump(Found((), how=Judged("basic", True)), 0, True) == (None, f"{NONE_FOUND} (judged at basic level)")
    step, said = jump(Found((), how=Judged("beginner", False)), 0, False)
    assert step is None and said.startswith(NONE_FOUND) and "the file does not say who the bots were" in said


def test_quitting_a_game_says_the_seat_waits_and_how_to_take_it_back(kit) -> None:
    from hanabi.client.cli import parting_words
    from hanabi.client.model import ClientModel, Link, LinkChanged, reduce
    from hanabi.client.session import Address
    from hanabi.protocol.messages import GameStarted, Joined, Welcome

    model = ClientModel()
    for message in (Welcome(1, "server", "Ann Lee", "tok", ""), Joined(kit.table(("Ann Lee", "bob", "cathy"),
                                                                             running=True), 0),
                    GameStarted(1, 1), kit.view_message(kit.game(), 0)):
        model = reduce(model, message)
    address = Address("127.0.0.1", 7777)
    assert parting_words(model, False, address) == (
        "your seat at table 'table 1' waits for you: hanabi-client 127.0.0.1:7777 --name 'Ann Lee' takes it back")
    assert parting_words(model, True, None) == "solo game ended at turn 1, 0 points (solo games are not kept)"
    closed = reduce(model, LinkChanged(Link.CLOSED, detail="the server speaks protocol 2; this client speaks 3"))
    assert parting_words(closed, False, address) == "the server speaks protocol 2; this client speaks 3"
    lobby = reduce(ClientModel(), Welcome(1, "server", "Ann Lee", "tok", ""))
    assert parting_words(lobby, False, address) is None  # nothing waits for a player in the lobby


def test_a_long_line_of_the_replays_log_goes_on_under_its_text_at_60_columns(kit) -> None:
    from hanabi.engine import Discard, apply, legal_actions

    state = kit.game()
    while not state.over:  # discards while there are any: the deck runs out, and its last card is told at length
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    replay = from_json(json.loads(dumps(state, kit.NAMES)))
    viewer = ReplayViewer(replay, "game.json", output=SizedOutput(60, 24))
    for step in range(1, 10_000):  # to the step whose log line is the longest: it needs a second row at 60
        viewer.go(step)
        if any(len(to_plain_text(line.fragments)) > 59 for line in viewer.model().log[-1:]) or viewer.pos.step < step:
            break
    rows = screen_text(viewer.application).splitlines()
    log = rows[next(i for i, row in enumerate(rows) if row.startswith("──")) + 1:]
    # The long line goes on under its text, clear of the turn numbers, and broken between words.
    assert any(row.startswith("    ") and row.strip() for row in log), rows
    assert all(not row or row.startswith(" ") for row in log), rows
