"""The client's side of timed games, pause and pre-moves: the reducer, the clock line (counted down locally,
a warning when low), and the keys and commands that pause, queue and cancel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hanabi.client.app import ClientApp
from hanabi.client.board import clock_text
from hanabi.client.clockface import LOW, bank_left, time_fragments
from hanabi.client.model import ClientModel, ClockAt, Link, LinkChanged, Newer, Note, reduce
from hanabi.client.runner import ModelStore
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.protocol.messages import (
    CardNotes,
    ErrorReply,
    GameClock,
    GameStarted,
    Joined,
    Message,
    PauseRequest,
    PreMoveKind,
    Queued,
    QueueMove,
    Welcome,
)
from prompt_toolkit.input import PipeInput, create_pipe_input

CTRL_C = "\x03"


def _at_game(kit, seat: int | None = 1) -> ClientModel:
    model = ClientModel()
    name = kit.NAMES[seat] if seat is not None else "eve"
    for message in (Welcome(1, "server", name, "tok", ""), Joined(kit.table(running=True), seat),
                    GameStarted(1, 1), kit.view_message(kit.game(), seat)):
        model = reduce(model, message)
    return model


def test_the_running_bank_counts_down_from_when_the_clock_arrived_and_no_other(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=100.0))
    assert bank_left(model, 0, 100.0) == 90.0
    assert bank_left(model, 0, 130.5) == 59.5
    assert bank_left(model, 0, 500.0) == 0.0  # never below empty, whatever the local clock says
    assert bank_left(model, 1, 130.5) == 25.0  # not running: as sent
    unstamped = reduce(_at_game(kit), GameClock(1, (90_000, 25_000, 120_000), 0, False))
    assert bank_left(unstamped, 0, 130.5) == 90.0  # no arrival time: shown as sent


def test_clock_text_rounds_up_so_zero_means_empty() -> None:
    assert [clock_text(s) for s in (125.4, 120.0, 0.2, 0.0, 9.0)] == ["2:06", "2:00", "0:01", "0:00", "0:09"]


def test_a_bank_is_written_in_one_form_wherever_it_shows(kit) -> None:
    """Name then time, in the clock line, the note of banks restored and a table's clock ("2:00 + 0:20 a move")."""
    from hanabi.client.board import bank_words
    from hanabi.client.form import timer_text

    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, 25_000, 600_000), 2, False), at=0.0))
    line = "".join(t for _, t in time_fragments(model, 0.0))
    for words in (bank_words(model.names, 0, 90.0), bank_words(model.names, 1, 25.0),
                  bank_words(model.names, 2, 600.0)):
        assert words in line, (words, line)
    assert bank_words(model.names, 2, 600.0) == "cathy 10:00"
    assert timer_text(600, 30) == f"{clock_text(600)} + {clock_text(30)} a move" == "10:00 + 0:30 a move"


def test_the_clock_line_marks_the_running_bank_and_warns_when_one_runs_low(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, int(LOW * 1000) + 5_000, 120_000), 1, False), 0.0))
    line = time_fragments(model, 0.0)
    text = "".join(t for _, t in line)
    assert "▶bob 0:25" in text and " alice 1:30" in text and "cathy 2:00" in text
    assert ("class:clock", "0:25") in line
    later = time_fragments(model, 10.0)  # bob's bank, running, is down to 15 s: the warning style
    assert ("class:clock.low", "0:15") in later


def test_an_untimed_game_going_on_shows_no_clock_line(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (), None, False), 0.0))
    assert time_fragments(model, 0.0) == []


def test_a_pause_is_told_in_the_log_and_the_line_and_its_end_too(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (), None, False), 0.0))
    model = reduce(model, Note("Note written", log=True))
    paused = reduce(model, ClockAt(GameClock(1, (), None, True, "alice paused the game", "alice"), 1.0))
    # The log's newest line says it, right above the status line: the status does not repeat it (nor keep older news)
    assert paused.status == ""
    assert "alice paused the game" in "".join(t for _, t in paused.log[-1].fragments)
    assert "⏸ alice paused the game (z resumes)" in "".join(t for _, t in time_fragments(paused, 1.0))
    # Paused by the server for the absent player to act: the whole sentence in the log, short on the line.
    away = "the game paused itself: alice, whose turn it is, is disconnected"
    absent = reduce(model, ClockAt(GameClock(1, (9_000, 9_000, 9_000), None, True, away), 1.0))
    assert away in "".join(t for _, t in absent.log[-1].fragments)
    line = "".join(t for _, t in time_fragments(absent, 1.0))
    assert "⏸ paused until alice is back" in line and len(line) <= 80, line
    going = reduce(paused, ClockAt(GameClock(1, (), None, False, resumed_by="bob"), 2.0))
    assert going.status == "" and time_fragments(going, 2.0) == []
    assert "bob let the game go on." in "".join(t for _, t in going.log[-1].fragments)
    # A game that paused itself for an absent player goes on with no one to name.
    back = reduce(paused, ClockAt(GameClock(1, (), None, False), 2.0))
    assert back.status == "" and "The game goes on." in "".join(t for _, t in back.log[-1].fragments)


def test_a_move_refused_while_paused_names_the_key_that_lets_the_game_go_on(kit) -> None:
    refused = reduce(_at_game(kit), ErrorReply("action", "game_paused", "the game is paused (bob paused the game): "
                                                                         "moves wait until a player resumes it"))
    assert refused.status.endswith("moves wait until a player resumes it (z lets it go on)")


def test_a_queued_move_is_shown_by_slot_until_the_server_says_it_is_gone(kit) -> None:
    model = _at_game(kit)
    assert model.view is not None
    order = model.view.hands[1][2].order
    queued = reduce(model, Queued(1, PreMoveKind.DISCARD, order, "queued: your discard is made at the start"))
    assert queued.premove is not None and queued.status.startswith("Queued: your discard of slot 3")
    assert "(u cancels it)" in queued.status
    assert "queued: discard slot 3 (u cancels)" in "".join(t for _, t in time_fragments(queued, 0.0))
    why = "a clue touched the card you queued to discard, so the pre-move was cancelled: choose again"
    cancelled = reduce(queued, Queued(1, note=why))
    assert cancelled.premove is None and "cancelled" in cancelled.status
    assert time_fragments(cancelled, 0.0) == []


def test_why_a_queued_move_went_is_news_that_something_newer_takes_away(kit) -> None:
    model = _at_game(kit)
    why = "your queued discard was not made, it is your turn now: cannot discard with all 8 clue tokens available"
    told = reduce(model, Queued(1, note=why))
    assert told.status.startswith("Your queued discard was not made")
    assert not reduce(told, Newer()).status.startswith("Your queued")  # a line typed, a form opened: it goes


def test_a_new_game_forgets_the_last_ones_clock_and_premove(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (1_000, 1_000, 1_000), 0, False), 0.0))
    model = reduce(model, Queued(1, PreMoveKind.PLAY, 3))
    again = reduce(model, GameStarted(1, 2))
    assert again.clock is None and again.premove is None
    assert reduce(again, ClockAt(GameClock(1, (5, 5, 5), 0, False), 0.0)).clock is None  # game 1's: not shown


def test_a_running_bank_stops_where_it_stood_when_the_connection_drops_until_the_next_clock(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=100.0))
    model = reduce(model, LinkChanged(Link.ONLINE))
    lost = reduce(model, LinkChanged(Link.RECONNECTING, at=110.0))
    # Ten seconds counted before the link dropped; none after, however long the server stays away.
    assert [bank_left(lost, seat, 500.0) for seat in range(3)] == [80.0, 25.0, 120.0]
    assert "stopped while not connected" in "".join(t for _, t in time_fragments(lost, 500.0))
    assert "stopped" not in "".join(t for _, t in time_fragments(model, 105.0))
    back = reduce(lost, ClockAt(GameClock(1, (85_000, 25_000, 120_000), 0, False), at=600.0))
    assert bank_left(back, 0, 610.0) == 75.0  # the server's figure, counted down again


def _log_text(model: ClientModel) -> str:
    return "\n".join("".join(t for _, t in line.fragments) for line in model.log)


def test_banks_given_back_by_a_restarted_server_are_said_once_in_the_log(kit) -> None:
    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=100.0))
    model = reduce(model, LinkChanged(Link.ONLINE))
    lost = reduce(model, LinkChanged(Link.RECONNECTING, at=130.0))  # alice's bank stopped at 1:00
    back = reduce(reduce(lost, LinkChanged(Link.ONLINE)), kit.view_message(kit.game(), 1))  # no move since
    # A restarted server: its last save had alice at 1:30, and the game paused itself until she is back.
    paused = reduce(back, ClockAt(GameClock(1, (), None, True), at=200.0))
    assert "restored" not in _log_text(paused)  # no banks in it: nothing to compare yet
    restored = reduce(paused, ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=210.0))
    said = [line for line in _log_text(restored).splitlines() if "restored" in line]
    assert said == ["Clocks restored from the server's last save: alice 1:30 (the time used since that save is "
                    "given back)."]
    again = reduce(restored, ClockAt(GameClock(1, (88_000, 25_000, 120_000), 0, False), at=220.0))
    assert _log_text(again).count("restored") == 1  # once
    # The same server, still up: the bank stood where it was, or went on running; nothing to say.
    kept = reduce(back, ClockAt(GameClock(1, (59_600, 25_000, 120_000), 0, False), at=210.0))
    assert "restored" not in _log_text(kept)
    # A move was made meanwhile: the mover's bonus raised a bank, which is no restore.
    moved = reduce(reduce(lost, LinkChanged(Link.ONLINE)), kit.view_message(kit.clue_something(kit.game()), 1))
    bonus = reduce(moved, ClockAt(GameClock(1, (80_000, 25_000, 120_000), 1, False), at=210.0))
    assert "restored" not in _log_text(bonus)


def test_on_our_turn_the_restored_banks_note_leaves_your_turn_on_the_status_line(kit) -> None:
    model = reduce(_at_game(kit, seat=0), ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=100.0))
    assert model.status == "Your turn."
    lost = reduce(reduce(model, LinkChanged(Link.ONLINE)), LinkChanged(Link.RECONNECTING, at=130.0))
    back = reduce(reduce(lost, LinkChanged(Link.ONLINE)), kit.view_message(kit.game(), 0))
    assert back.status == "Your turn."  # back at the table on our turn: said again
    restored = reduce(back, ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=210.0))
    assert "restored" in _log_text(restored)  # a newer line of the log...
    assert restored.status == "Your turn."  # ...which does not make our turn any less true


def test_the_store_stamps_a_clock_with_when_it_arrived(kit) -> None:
    store = ModelStore(_at_game(kit))
    store.dispatch(GameClock(1, (1_000, 1_000, 1_000), 0, False))
    assert store.model.clock is not None and store.model.clock_at is not None
    store.dispatch(LinkChanged(Link.RECONNECTING))  # stamped too: the running bank stops counting
    assert store.model.clock is not None and store.model.clock_at is None


class _Terminal:
    def __init__(self, pipe: PipeInput, tmp: Path) -> None:
        self.store = ModelStore()
        self.sent: list[Message] = []
        self.pipe = pipe
        self.app = ClientApp(self.store.get, self.store.dispatch, self.sent.append, input=pipe,
                             output=SizedOutput(80, 24), replay_dir=tmp)
        self.store.listeners.append(self.app.on_model)

    def type(self, keys: str) -> list[Message]:
        self.pipe.send_text(keys + CTRL_C)
        self.app.application.run()
        return self.sent


@pytest.fixture
def term(tmp_path: Path, kit) -> Iterator[_Terminal]:
    with create_pipe_input() as pipe:
        t = _Terminal(pipe, tmp_path)
        t.store.model = _at_game(kit)  # bob (seat 2 on the board) while alice is to act
        yield t


def test_playing_out_of_turn_queues_a_premove_by_key_or_command(term: _Terminal) -> None:
    view = term.store.model.view
    assert view is not None
    third, first = view.hands[1][2].order, view.hands[1][0].order
    assert term.type("p3y") == [QueueMove(PreMoveKind.PLAY, third)]
    term.sent.clear()
    assert term.type(":discard 1\r") == [QueueMove(PreMoveKind.DISCARD, first)]


def test_z_pauses_and_resumes_and_u_cancels_the_queued_move(term: _Terminal, kit) -> None:
    assert term.type("z") == [PauseRequest(True)]
    term.sent.clear()
    assert ("z", "pause") in term.app.key_line(term.store.model)
    term.store.dispatch(GameClock(1, (), None, True, "alice paused the game", "alice"))
    assert term.type(":pause\r") == [PauseRequest(False)]
    screen = screen_text(term.app.application, 80, 24)
    assert "alice paused the game" in screen
    assert "turn · paused" in screen.splitlines()[0]  # the top bar says no one may move, whose turn it is
    keys = term.app.key_line(term.store.model)
    assert ("z", "resume") in keys and ("z", "pause") not in keys
    term.sent.clear()
    assert term.type("u") == []  # nothing queued: said, not sent
    assert "no move is queued" in term.store.model.status
    term.store.dispatch(Queued(1, PreMoveKind.PLAY, 3))
    assert term.type("u") == [QueueMove()]


def test_a_game_that_paused_itself_for_an_absent_player_is_not_resumed_by_z(term: _Terminal) -> None:
    note = "the game paused itself: alice, whose turn it is, is disconnected"
    term.store.dispatch(GameClock(1, (1_000, 1_000, 1_000), None, True, note))
    assert term.type("z") == []
    assert "goes on once they are back" in term.store.model.status
    assert "z" not in dict(term.app.key_line(term.store.model))  # z neither pauses nor resumes it


def test_the_lobby_shows_a_timed_tables_clock(kit) -> None:
    from dataclasses import replace

    from hanabi.client.screens import lobby_fragments

    timed = replace(kit.table(), timed=True, time_base=120, time_per_turn=20)
    model = ClientModel(tables=(timed,))
    text = "".join(t for _, t in lobby_fragments(model, 0, 200))
    assert "clock 2:00 + 0:20 a move" in text
    assert "clock" not in "".join(t for _, t in lobby_fragments(ClientModel(tables=(kit.table(),)), 0, 200))


def test_the_pause_line_offers_z_only_to_those_it_resumes_for(kit) -> None:
    paused = GameClock(1, (), None, True, "alice paused the game", "alice")
    watching = reduce(_at_game(kit, seat=None), ClockAt(paused, 1.0))
    line = "".join(t for _, t in time_fragments(watching, 1.0))
    assert "⏸ alice paused the game" in line and "z resumes" not in line
    absent = GameClock(1, (), None, True, "waiting for bob to come back")  # paused for an absent player
    assert "z resumes" not in "".join(t for _, t in time_fragments(reduce(_at_game(kit), ClockAt(absent, 1.0)), 1.0))


def test_z_from_a_spectator_of_a_paused_game_says_only_a_seated_player_resumes_it(term: _Terminal, kit) -> None:
    paused = GameClock(1, (), None, True, "alice paused the game", "alice")
    term.store.model = reduce(_at_game(kit, seat=None), ClockAt(paused, 1.0))
    assert term.type("z") == []
    assert "only a seated player can resume a running game" in term.store.model.status


def test_rewinding_shows_the_live_clocks_as_now_not_as_stopped(kit) -> None:
    from hanabi.client.rewind import Rewind

    model = reduce(_at_game(kit), ClockAt(GameClock(1, (90_000, 25_000, 120_000), 0, False), at=100.0))
    model = reduce(reduce(model, LinkChanged(Link.ONLINE)), Queued(1, PreMoveKind.PLAY, 3))
    model = reduce(model, kit.view_message(kit.clue_something(kit.game()), 1))
    rewind = Rewind.open(model.view)
    assert isinstance(rewind, Rewind)
    text = "".join(t for _, t in time_fragments(rewind.shown(model), 110.0))
    # Connected: the live banks, counting down, said to be now's; no slot counted in the hand of the step shown.
    assert text.startswith("Clocks now") and "▶alice 1:20" in text, text
    assert "stopped" not in text and "queued" not in text, text


def test_a_premove_the_server_no_longer_holds_after_a_resume_is_dropped_and_said(kit) -> None:
    model = _at_game(kit)
    assert model.view is not None
    order = model.view.hands[1][2].order
    model = reduce(model, Queued(1, PreMoveKind.PLAY, order))
    assert model.premove is not None
    back = reduce(model, Joined(kit.table(running=True), 1))  # a resume: the table again, then the view...
    back = reduce(back, kit.view_message(kit.game(), 1))
    assert back.premove is None
    lost = reduce(back, CardNotes(1, 1, ()))  # ...and the seat's notes, with no ``queued`` before them
    assert "queued play was not kept" in lost.status and "not kept" in lost.log[-1].fragments[0][1]
    kept = reduce(reduce(back, Queued(1, PreMoveKind.PLAY, order)), CardNotes(1, 1, ()))  # the server still has it
    assert kept.premove is not None and "not kept" not in kept.status


# Short names fit four clocks on one line at 60 columns, leaving the pause its own; a name of wide characters
# (two columns each) and the house bots' two-word names do not, and a bot's clock went to a line of its own.
PLAYERS = {"short names": (("alice", "bob", "cathy", "dave"), ()),
           "wide name and bots": (("ソロ🎉player", "Bot Ada", "Bot Bea", "Bot Cleo"), (1, 2, 3))}


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("size", [(80, 24), (60, 15)])
def test_a_pause_says_how_to_resume_on_a_line_that_fits_with_four_players_clocks(kit, tmp_path: Path, size,
                                                                                   players: str) -> None:
    names, bots = PLAYERS[players]
    who = names[0] if bots else names[1]  # a person pauses: a house bot never does
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, *size)
        term.feed(Welcome(1, "server", names[0], "tok", ""), Joined(kit.table(names, running=True, bots=bots), 0),
                  GameStarted(1, 1), kit.view_message(kit.game(players=4), 0),
                  ClockAt(GameClock(1, (120_000, 95_000, 30_000, 118_000), None, True, f"{who} paused the game",
                                    who), 0.0))
        term.type("")
        lines = term.screen().splitlines()
    paused = [line for line in lines if "⏸" in line]
    # The sentence said shorter, at the end of the clocks' one line or first on their first: never the key cut or
    # wrapped, never on a line of its own that a short screen has no row for.
    assert len(paused) == 1 and "(z resumes)" in paused[0], "\n".join(lines)
    assert paused[0].rstrip().endswith("(z resumes)") or paused[0].startswith("⏸"), "\n".join(lines)
    assert "⏸ paused (z resumes)" in paused[0] or f"⏸ {who} paused the game (z resumes)" in paused[0]
    assert f"⏸ {who} paused the game (z resumes)" in "".join(t for _, t in time_fragments(term.store.model, 0.0))
    # Every player's clock whole on one line, none split between two.
    for name, time in zip(names, ("2:00", "1:35", "0:30", "1:58"), strict=True):
        assert any(f"{name} {time}" in line for line in lines), "\n".join(lines)


def test_a_pause_says_how_to_resume_where_a_short_screen_leaves_the_clocks_one_line(kit, tmp_path: Path) -> None:
    names = ("ソロ🎉player", "Bot Ada", "Bot Bea", "Bot Cleo", "Bot Dee")
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, 60, 15)  # five hands under the clocks: one row is all they get
        term.feed(Welcome(1, "server", names[0], "tok", ""),
                  Joined(kit.table(names, running=True, bots=(1, 2, 3, 4)), 0), GameStarted(1, 1),
                  kit.view_message(kit.game(players=5), 0),
                  ClockAt(GameClock(1, (120_000, 95_000, 30_000, 118_000, 60_000), None, True,
                                    f"{names[0]} paused the game", names[0]), 0.0))
        term.type("")
        lines = term.screen().splitlines()
    paused = [line for line in lines if "⏸" in line]
    assert len(paused) == 1 and "(z resumes)" in paused[0] and "Clocks" in paused[0], "\n".join(lines)


def test_a_queued_move_not_made_at_the_turn_is_said_once_on_the_status_line_not_in_the_log(kit) -> None:
    from hanabi.engine import Play, apply

    model = _at_game(kit)  # bob, alice to act
    assert model.view is not None
    order = model.view.hands[1][-1].order
    model = reduce(model, Queued(1, PreMoveKind.DISCARD, order, "queued: your discard is made at the start"))
    state = kit.game()
    played = apply(state, Play(state.hands[0][0]))  # alice plays: all 8 clue tokens are still there on bob's turn
    # What the server sends bob then, in its order (seen over the wire): the move's view, then the queue's end.
    model = reduce(model, kit.view_message(played, 1))
    why = ("your queued discard was not made, it is your turn now: cannot discard with all 8 clue tokens "
           "available: clue or play instead")
    model = reduce(model, Queued(1, note=why))
    assert model.status == ("Your queued discard was not made, it is your turn now: cannot discard with all 8 clue "
                            "tokens available: clue or play instead.")
    assert not any("not made" in "".join(t for _, t, *_ in line.fragments) for line in model.log)
    assert model.premove is None and time_fragments(model, 0.0) == []
