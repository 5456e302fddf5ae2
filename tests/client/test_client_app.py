"""The prompt_toolkit app with a pipe for keys and a dummy output: keys become the right protocol messages,
and the screen (laid out at 80x24, as a terminal would show it) says the right things."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import trio
from hanabi.client.app import ClientApp
from hanabi.client.cli import main
from hanabi.client.commands import LobbyIntent
from hanabi.client.model import ClientModel, Link, LinkChanged
from hanabi.client.runner import ModelStore
from hanabi.client.saving import save_new_file
from hanabi.client.screens import HELP_PAGES, discards, keys_line
from hanabi.client.snapshot import SizedOutput
from hanabi.client.solo import table_setup
from hanabi.engine import (
    ChatPolicy,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    GameState,
    Outcome,
    Play,
    Variant,
    apply,
    legal_actions,
    new_game,
    terminate,
    view_for,
)
from hanabi.engine.notes import NOTE_MAX
from hanabi.engine.replay import dumps
from hanabi.protocol import CHAT_MAX, NAME_MAX
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    AdviceReply,
    BotReason,
    Chat,
    CreateTable,
    ErrorReply,
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    GetAdvice,
    GetReplay,
    GetStats,
    GiveHost,
    HandSeat,
    Join,
    Joined,
    Leave,
    ListGames,
    ListOnline,
    ListTables,
    Message,
    Online,
    RearrangeRequest,
    RemoveBot,
    ReplayFile,
    Review,
    SeatHanded,
    SeatInfo,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableInfo,
    Tables,
    ViewUpdate,
    Welcome,
)
from hanabi.server import serve
from prompt_toolkit.formatted_text import to_plain_text
from prompt_toolkit.input import create_pipe_input

if TYPE_CHECKING:
    from .conftest import Terminal


def at_game(term: Terminal, kit, seat: int = 0, state=None):
    """alice (seat 0) at a 3-player table whose game has started; returns the game state shown."""
    term.feed(Welcome(1, "server", kit.NAMES[seat], "tok", ""), Joined(kit.table(running=True), seat),
              GameStarted(1, 1))
    state = state if state is not None else kit.game()
    term.feed(kit.view_message(state, seat))
    return state


def at_game_over(term: Terminal, kit):
    """alice at the end of a game where every move was a play (it ends by the third strike or the deck)."""
    state = kit.game()
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    at_game(term, kit, state=state)
    assert state.outcome is not None
    term.feed(GameOver(1, state.outcome, state.deck, "7"))
    assert term.sent == [GetStats()]  # our record, for the end screen's best score
    term.sent.clear()
    return state


def test_clue_shortcut_sends_the_clue(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    suit = state.deck[state.hands[1][0]].suit
    assert term.type(f"c2{suit.letter.lower()}") == [ActionRequest(Clue(1, colour=suit))]  # bob: seat 2


def test_clue_shortcut_by_rank(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    rank = state.deck[state.hands[2][0]].rank
    assert term.type(f"c3{rank}") == [ActionRequest(Clue(2, rank=rank))]


def test_blind_play_asks_first(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    assert term.type("p3n") == []
    assert term.type("p3y") == [ActionRequest(Play(state.hands[0][2]))]


def test_escape_cancels_a_shortcut(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type("p\x1b") == []
    assert term.app.ui.pending == []


def test_illegal_discard_is_refused_with_the_engines_reason(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type("d1") == []
    assert "cannot discard with all 8 clue tokens" in term.store.model.status
    assert "cannot discard" in term.screen()


def test_out_of_turn_is_refused_with_a_name(term: Terminal, kit) -> None:
    at_game(term, kit, seat=1)
    assert term.type(":clue alice 1\r") == []
    assert "alice is to act" in term.store.model.status


def test_command_line_play_discard_move_and_say(term: Terminal, kit) -> None:
    state = kit.clue_something(kit.game(first_seat=2))  # cathy clued alice: now alice may discard
    state = kit.clue_something(state)
    state = apply(state, Play(state.hands[1][0]))
    assert state.current == 2
    state = kit.clue_something(state)
    at_game(term, kit, state=state)
    hand = state.hands[0]
    sent = term.type(":play 2\r:discard 4\r:move 5 1\r:say good luck\r")
    assert sent == [
        ActionRequest(Play(hand[1])),
        ActionRequest(Discard(hand[3])),
        RearrangeRequest((hand[4], *hand[:4])),
        Chat("good luck"),
    ]


def test_talk_key_opens_a_chat_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type("thello all\r") == [Chat("hello all")]


def test_a_chat_line_over_the_limit_is_not_sent_and_stays_to_be_shortened(term: Terminal, kit) -> None:
    at_game(term, kit)
    line = "x" * (CHAT_MAX + 1)
    assert term.type(f"t{line}\r") == []  # nothing sent: the server would refuse it (it dropped the link before)
    assert f"at most {CHAT_MAX} characters, this one is {CHAT_MAX + 1}" in term.store.model.status
    assert term.app.command.text == f"say {line}"  # the line opens again with every letter typed
    assert term.type("\x7f\r") == [Chat("x" * CHAT_MAX)]  # one letter less is said
    assert "at most" not in term.store.model.status  # and the refusal no longer shows


def test_a_chat_line_over_the_limit_is_said_while_it_is_typed(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type("t" + "x" * CHAT_MAX)
    assert "at most" not in term.store.model.status
    term.type("y")  # one letter over: said before Enter
    assert f"at most {CHAT_MAX} characters, this one is {CHAT_MAX + 1}" in term.store.model.status
    term.type("\x7f")  # mended: no longer said
    assert "at most" not in term.store.model.status
    assert term.type("\r") == [Chat("x" * CHAT_MAX)]


def test_w_after_a_hanabi_bot_moved_says_where_its_reasons_show(term: Terminal, kit) -> None:
    state = kit.clue_something(kit.game())  # alice clues: bob, a hanabi-bot, is to move
    table = kit.table(running=True)
    robo = replace(table.players[1], network_bot=True)
    term.feed(Welcome(1, "server", "alice", "tok", ""),
              Joined(replace(table, players=(table.players[0], robo, table.players[2])), 0),
              GameStarted(1, 1), kit.view_message(state, 0))
    term.type("w")
    assert term.store.model.status == "no bot has moved in this game yet"  # alice is no bot
    term.feed(kit.view_message(kit.clue_something(state), 0))  # bob's move
    term.type("w")
    assert term.store.model.status == "bob is a hanabi-bot: its reasons show where it runs (hanabi-bot --explain)"


def test_ctrl_u_on_a_chat_line_keeps_say_and_a_line_whose_verb_was_erased_stays_to_be_mended(term: Terminal,
                                                                                           kit) -> None:
    at_game(term, kit)
    assert term.type("txx\x15hello all\r") == [Chat("hello all")]  # Ctrl-U takes what was typed, not "say "
    term.sent.clear()
    # Ctrl-U twice erases the whole line, "say " with it; what is typed next is no command, and is not lost.
    assert term.type("tx\x15\x15hello all\r") == []
    assert "unknown command 'hello'" in term.store.model.status
    assert term.app.command.text == "hello all"
    assert term.type("\x01say \r") == [Chat("hello all")]  # Ctrl-A, then the verb typed again


def test_a_key_typed_right_after_esc_is_a_key_of_the_game_not_an_alt_key_of_the_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type("txx")
    # Esc then c at once: without waiting to see whether Esc starts a longer key (Alt-c would capitalise a word),
    # Esc leaves the line and c starts a clue.
    term.type("\x1bc")
    assert not term.app.application.layout.has_focus(term.app.command), term.app.command.text
    assert term.app.ui.pending == ["c"]  # the clue asks whom


def test_a_note_over_the_limit_stays_on_the_command_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    line = "note 1 " + "y" * (NOTE_MAX + 1)
    assert term.type(f":{line}\r") == []
    assert f"at most {NOTE_MAX} characters" in term.store.model.status
    assert term.app.command.text == line


def test_a_refused_name_opens_a_line_for_another(term: Terminal) -> None:
    chosen: list[str] = []
    term.app.rename = chosen.append
    term.store.dispatch(LinkChanged(Link.CONNECTING, address="192.168.100.200:7777"))
    term.feed(ErrorReply("hello", "name_taken", "'\u0410lice' looks too much like 'Alice', who is here: choose a "
                                                "name others can tell apart"))
    assert term.type("") == []
    screen = term.screen()
    assert "'\u0410lice' looks too much like 'Alice'" in screen and "Type another name (Ctrl-C quits)" in screen
    assert term.app.ui.naming  # the command line waits for a name ("name: ")
    # The server answered: not "not connected"; and the line offers what its keys do (Esc clears, no cancel).
    assert "Not connected" not in screen and "did not take the name" in screen
    assert "type another below to come in." in " ".join(screen.split())  # whole, wrapped at 80 columns
    keys = screen.splitlines()[-1]
    assert "Esc clear" in keys and "Esc cancel" not in keys and "Tab" not in keys, keys
    term.type("Al" + "\x1b")
    assert term.app.command.text == "" and term.app.ui.naming
    assert term.type("\r") == [] and chosen == []  # an empty name is no name
    assert "the name must be 1 to" in term.store.model.status
    term.type("A" * 40)  # over the limit: said while it is typed, as for a chat line
    assert "the name must be 1 to 32 characters, not 40" in term.store.model.status
    term.type("\x1b")
    assert "the name must be" not in term.store.model.status  # mended (cleared): what was said goes
    assert term.type("Alicia\r") == [] and chosen == ["Alicia"]
    assert term.store.model.name_refused == "" and "Connecting as Alicia" in term.store.model.status


def test_the_lobby_of_a_server_not_reached_does_not_offer_to_create_a_table(term: Terminal) -> None:
    term.feed(LinkChanged(Link.OFFLINE, "10.0.0.9:7777", "Cannot reach 10.0.0.9:7777 (refused); retrying in 1 s…"))
    screen = term.screen()
    assert "Not connected to 10.0.0.9:7777" in screen and "No tables yet" not in screen
    term.feed(Welcome(1, "server", "alice", "tok", ""), Tables(()))
    assert "No tables yet. Press n to create one." in term.screen()


def test_the_key_line_keeps_help_and_quit_at_80_columns_however_many_keys_there_are(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 1, False))  # an away player: the host's H key joins the line too
    line = term.screen().splitlines()[-1]
    assert " ? help " in line and " H hand seat " in line and line.rstrip().endswith("^C quit"), line
    assert " p play " in line  # the line still starts with the moves


def test_bad_command_says_what_to_type(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type(":clue nobody red\r") == []
    assert "no player called 'nobody'" in term.store.model.status


def test_move_shortcut_rearranges(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    hand = state.hands[0]
    assert term.type("m21") == [RearrangeRequest((hand[1], hand[0], *hand[2:]))]


def test_game_screen_fits_80x24_and_shows_the_table(term: Terminal, kit) -> None:
    state = kit.game()
    rng = random.Random(4)
    for _ in range(8):
        state = apply(state, rng.choice([a for a in legal_actions(state) if not isinstance(a, Play)]))
    at_game(term, kit, state=state)
    term.feed(Chat("nice clue", 1, "bob"))
    text = term.screen()
    lines = text.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    assert "Fireworks R0 Y0 G0 B0 W0" in text
    assert f"Clues {state.clue_tokens}/8" in text
    assert f"Deck {state.deck_left}" in text
    assert "You (alice)" in text and "can be" in text
    bob_cards = " ".join(str(state.deck[o]) for o in state.hands[1])
    assert bob_cards.split()[0] in lines[3] and "bob" in lines[3]
    assert "<bob> nice clue" in text
    assert "clues" in text  # the log
    assert lines[-1].strip().startswith("p play")
    # Our own cards never show: the view does not have them, and the screen does not invent them.
    assert "??" not in text


def test_clued_cards_are_bracketed_in_plain_text(term: Terminal, kit) -> None:
    state = kit.clue_something(kit.game(first_seat=2))  # cathy clues alice the rank of her slot 1
    state = kit.clue_something(state)  # alice clues bob the rank of his slot 1
    at_game(term, kit, state=state)
    lines = term.screen().splitlines()
    bob = next(line for line in lines if " bob " in line)
    touched = state.events[-1].touched
    for order in state.hands[1]:
        face = str(state.deck[order])
        assert (f"[{face}]" in bob) == (order in touched), bob
    # The columns hold: a clued card's face sits right under an unclued one's, and under its slot number.
    header = lines[2]
    for slot, order in enumerate(state.hands[1], start=1):
        assert bob.index(str(state.deck[order])) == header.index(str(slot))
    mine = next(line for line in lines if "You (alice)" in line)
    rank = state.deck[state.hands[0][0]].rank
    assert f"[{rank}]" in mine


def test_leaving_a_game_in_progress_asks_first(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type(":leave\r") == []
    assert "Leaving ends this game for everyone" in term.screen()
    assert term.type("n") == []
    assert "You stay at the table" in term.store.model.status
    assert term.store.model.table is not None
    assert term.type(":leave\ry") == [Leave()]
    assert term.store.model.table is None


def test_leaving_after_the_game_needs_no_confirmation(term: Terminal, kit) -> None:
    state = kit.game()
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike")
    at_game(term, kit, state=state)
    term.feed(ViewUpdate(1, replace(view_for(state, 0), outcome=outcome)))
    assert term.type("l") == [Leave()]


def test_a_long_chat_line_wraps_and_the_newest_line_stays_in_sight(term: Terminal, kit) -> None:
    at_game(term, kit)
    for i in range(30):
        term.feed(Chat(f"message {i}", 1, "bob"))
    words = " ".join(f"word{i}" for i in range(20))  # about 130 columns: two rows at 80
    term.feed(Chat(words, 2, "cathy"))
    text = term.screen()
    assert "message 29" in text and "message 5" not in text
    rows = [line.strip() for line in text.splitlines()]
    start = next(i for i, row in enumerate(rows) if row.startswith("<cathy>"))
    assert (rows[start] + rows[start + 1]).replace(" ", "") == f"<cathy>{words}".replace(" ", "")
    assert "word19" in text


def test_the_chat_column_shows_the_newest_messages(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, 140, 30)
        at_game(term, kit)
        for i in range(40):
            term.feed(Chat(f"message {i}", 1, "bob"))
        text = term.screen()
    assert "<bob> message 39" in text
    assert "<bob> message 0" not in text


def test_knowledge_toggle_shows_what_others_know(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert "    knows " not in term.screen()
    term.type("k")
    assert term.screen().count("    knows ") == 2
    # Written as your own hand's "can be" is: suits on one row, ranks under them (no clue yet: everything).
    lines = term.screen().splitlines()
    for label in ("    knows ", "    can be "):
        row = next(i for i, line in enumerate(lines) if line.startswith(label))
        assert lines[row].split()[-5:] == ["RYGBW"] * 5 and lines[row + 1].split() == ["1-5"] * 5


def test_wide_terminal_gives_chat_its_own_column(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, 140, 30)
        at_game(term, kit)
        term.feed(Chat("over here", 1, "cathy"))
        wide = term.screen()
    assert "<cathy> over here" in wide
    # The chat column sits to the right of the log, not in it.
    line = next(line for line in wide.splitlines() if "<cathy> over here" in line)
    assert line.index("<cathy>") > 60


def test_lobby_keys(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", "Welcome!"),
              Tables((kit.table(id=1), kit.table(("x", None), id=2))))
    text = term.screen()
    assert "Welcome!" in text and "table 1" in text and "table 2" in text
    assert term.type("\x1b[Bj") == [Join(2)]  # ↓ then j joins the second table
    term.sent.clear()
    assert term.type("s") == [Spectate(2)]
    term.sent.clear()
    assert term.type("r") == [ListTables(), ListOnline()]  # r asks who is online too


def test_new_table_form(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    sent = term.type("n" + "\x7f" * 40 + "Friday\t\x1b[C\t\x1b[C\t \r")
    assert len(sent) == 1
    create = sent[0]
    assert isinstance(create, CreateTable)
    assert create.name == "Friday" and create.seats == 4 and create.empty_clues
    assert create.variant.value == "6 Suits"


def test_the_form_s_missing_name_is_said_until_one_is_typed(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    assert term.type("n" + "\x7f" * 40 + "\r") == []
    assert "the table needs a name" in term.screen()
    term.type("F")
    assert "the table needs a name" not in term.screen()
    term.type("\x7f\r")  # empty again: said again, and Esc (closing the form) takes it away
    assert "the table needs a name" in term.screen()
    term.type("\x1b")
    assert "New table" not in term.screen() and "the table needs a name" not in term.screen()


def test_ctrl_u_clears_the_forms_name_and_a_name_too_long_is_said_not_cut_silently(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    [create] = term.type("n\x15Friday\r")  # Ctrl-U empties the name the form suggested
    assert isinstance(create, CreateTable) and create.name == "Friday"
    term.sent.clear()
    term.type("n\x15" + "x" * NAME_MAX)
    assert "at most" not in term.store.model.status
    term.type("y")
    assert f"the name is at most {NAME_MAX} characters" in term.store.model.status
    [create] = term.type("\r")
    assert isinstance(create, CreateTable) and create.name == "x" * NAME_MAX


def test_host_adds_a_bot_and_starts(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", None, None)), 0))
    text = term.screen()
    assert "you are the host" in text and "seat 2: (free)" in text
    assert term.type("b") == [AddBot(1)]
    term.feed(TableChanged(kit.table(("alice", "Bot Ada", None), bots=(1,))))
    assert term.type("g") == [AddBot(1)]  # seat 3 is still empty: said here, counting seats as the lobby does
    assert "seat 3 is empty" in term.store.model.status
    term.feed(TableChanged(kit.table(("alice", "Bot Ada", "Bot Basil"), bots=(1, 2))))
    assert term.type("g") == [AddBot(1), Start()]


def test_only_the_host_starts(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "bob", "tok", ""), Joined(kit.table(), 1))
    assert term.type("g") == []
    assert "only the host" in term.store.model.status


def test_end_screen_saves_the_replay(term: Terminal, kit, tmp_path: Path) -> None:
    state = at_game_over(term, kit)
    text = term.screen()
    assert f"Game over: 0/25 — {state.outcome.rating}" in text
    assert "save the replay" in text
    term.app.clock = lambda: datetime(2026, 11, 24, 15, 30, 59)
    assert term.type("s") == [GetReplay(1)]
    replay = dumps(state, kit.NAMES)
    term.feed(ReplayFile(1, replay))
    saved = tmp_path / "hanabi-2026-11-24-1530-no-variant.json"  # when, and what was played
    assert json.loads(saved.read_text()) == json.loads(replay)
    assert str(saved) in term.store.model.status


def test_replays_are_saved_in_the_data_folder_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Not the folder the client was started from: one place for every replay (the status line says where).
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    store = ModelStore()
    with create_pipe_input() as pipe:
        app = ClientApp(store.get, store.dispatch, lambda message: True, input=pipe, output=SizedOutput(80, 24))
    folder = tmp_path / "data" / "hanabi" / "replays"
    assert app.replay_dir == folder
    saved = save_new_file(app.replay_dir, "hanabi-2026-11-24-1530-no-variant", "{}")  # the folder made on the way
    assert saved == folder / "hanabi-2026-11-24-1530-no-variant.json" and saved.read_text() == "{}"


def test_a_replay_saved_under_home_is_named_with_a_tilde(term: Terminal, kit, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    term.app.replay_dir = tmp_path / "a-rather-long-data-folder" / "hanabi" / "replays"
    term.app.clock = lambda: datetime(2026, 11, 24, 15, 30)
    state = at_game_over(term, kit)
    term.type("s")
    term.feed(ReplayFile(1, dumps(state, kit.NAMES)))
    shown = "~/a-rather-long-data-folder/hanabi/replays/hanabi-2026-11-24-1530-no-variant.json"
    assert term.store.model.status == f"Replay saved to {shown}"
    assert Path(shown).expanduser().is_file()  # what a shell makes of it is the file


def test_a_saved_replay_never_overwrites_an_older_one(term: Terminal, kit, tmp_path: Path) -> None:
    older = tmp_path / "hanabi-2026-11-24-1530-no-variant.json"
    older.write_text("an earlier game of the same variant, saved in the same minute")
    term.app.clock = lambda: datetime(2026, 11, 24, 15, 30)
    state = at_game_over(term, kit)
    term.type("s")
    replay = dumps(state, kit.NAMES)
    term.feed(ReplayFile(1, replay))
    assert older.read_text() == "an earlier game of the same variant, saved in the same minute"
    saved = tmp_path / "hanabi-2026-11-24-1530-no-variant-2.json"
    assert json.loads(saved.read_text()) == json.loads(replay)
    assert term.store.model.status == f"Replay saved to {saved}"  # the whole path: what --replay takes
    term.type("s")  # again: the same game is not written a second time under a third name
    assert not (tmp_path / "hanabi-2026-11-24-1530-no-variant-3.json").exists()
    assert str(saved) in term.store.model.status


def test_end_screen_play_again_for_the_host(term: Terminal, kit) -> None:
    state = kit.game()
    view = view_for(state, 0)
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike")
    at_game(term, kit, state=state)
    term.feed(GameOver(1, outcome, state.deck, "7"))
    # The view's own outcome is what switches to the end screen; the server sends that view too.

    term.feed(ViewUpdate(1, replace(view, outcome=outcome)))
    assert term.type("a") == [GetStats(), Start()]  # our record was asked for as the game ended


def test_help_screen(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type("?")
    lines = term.screen().splitlines()
    # Each page whole at 80x24, no line wrapped: its last line shows and each sentence ends on its own line.
    assert any("Keys during a game (help page 1 of 2)" in line for line in lines)
    assert any(line.rstrip().endswith("other keys close this help.") for line in lines)
    assert any("[R3] a card that got a clue" in line for line in lines)
    assert any("clue player P (the seat number on the board)" in line for line in lines)  # one numbering
    term.type("?")  # the next page
    lines = term.screen().splitlines()
    assert "Keys during a game" not in term.screen() and any("help page 2 of 2" in line for line in lines)
    assert any("other keys close this help." in line for line in lines)
    assert any(line.rstrip().endswith("it asks for a password") for line in lines)
    assert term.screen().count("PgUp/PgDn scroll") == 1  # the page's last line shows: the status does not repeat it
    term.type("?")  # and round to the first
    assert "help page 1 of 2" in term.screen()
    assert term.type("x") == []  # closing the help does nothing else
    assert "Keys during a game" not in term.screen()


def test_the_new_tables_name_is_one_no_table_has(term: Terminal, kit) -> None:
    taken = replace(kit.table(), name="dave's table")
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((taken, replace(taken, id=2, name="dave's table 2"))))
    term.type("n")
    assert term.app.ui.form is not None and term.app.ui.form.name == "dave's table 3"


def test_a_shortcuts_question_goes_once_the_table_moves_on(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    assert term.type("p1") == [] and "play it anyway?" in term.screen()
    term.feed(kit.view_message(kit.clue_something(state), 0))  # a move came in meanwhile (a bot's, the clock)
    assert "play it anyway?" not in term.screen() and "moved on" in term.store.model.status
    assert term.type("y") == []  # the old question's answer plays nothing


def test_a_premoves_question_is_asked_again_when_the_turn_comes_and_its_answer_plays(term: Terminal, kit) -> None:
    state = at_game(term, kit, seat=1)  # bob, alice to act
    assert term.type("p1") == [] and "play it anyway?" in term.screen()  # a play queued out of turn, asked first
    cathy = state.deck[state.hands[2][0]]
    term.feed(kit.view_message(apply(state, Clue(2, rank=cathy.rank)), 1))  # alice clues cathy: bob's turn
    assert "Your turn now. No clue on slot 1: play it anyway?" in " ".join(term.screen().split())
    assert term.type("y") == [ActionRequest(Play(state.hands[1][0]))]  # played now, as the player asked


def test_a_move_key_answers_a_question_no_and_begins_that_move(term: Terminal, kit) -> None:
    state = at_game(term, kit)  # alice's turn
    assert term.type("p1") == [] and "play it anyway?" in term.screen()
    assert term.type("p4y") == [ActionRequest(Play(state.hands[0][3]))]  # p: no to slot 1, then slot 4's play


def test_a_premoves_question_a_clue_answered_is_dropped_saying_why(term: Terminal, kit) -> None:
    state = at_game(term, kit, seat=1)
    assert term.type("p1") == [] and "play it anyway?" in term.screen()
    term.feed(kit.view_message(kit.clue_something(state), 1))  # alice's clue touches bob's slot 1
    assert "play it anyway?" not in term.screen()
    assert term.store.model.status == "Not played: a clue touched slot 1 while you were asked: choose again."
    assert term.type("y") == []


def test_a_premoves_question_about_a_slot_whose_card_went_is_dropped(term: Terminal, kit) -> None:
    state = at_game(term, kit, seat=1)
    assert term.type("p1") == [] and "play it anyway?" in term.screen()
    cathy = state.deck[state.hands[2][0]]
    moved = apply(apply(state, Clue(2, rank=cathy.rank)), Discard(state.hands[1][0]))  # a move queued before, made
    term.feed(kit.view_message(moved, 1))
    assert "play it anyway?" not in term.screen() and "Your hand changed" in term.store.model.status
    assert term.type("y") == []


def test_the_help_covers_the_lobby_keys_do_not_reach_under_it(term: Terminal, kit) -> None:
    second = replace(kit.table(), id=2, name="second")
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((kit.table(), second)))
    assert term.type("?\x1b[B") == [] and term.app.ui.selected == 0  # the arrow did not move the choice below
    assert term.type("\r") == []  # Enter closes the help, and joins no table
    assert not term.app.ui.help_page and "Keys" not in term.screen()
    assert term.type("\r") == [Join(kit.table().id)]  # with the help closed, Enter joins as ever


def test_two_apps_bind_the_same_keys_and_a_key_acts_on_the_app_it_is_typed_in(tmp_path: Path, kit) -> None:
    """The keys are bound once for every app: each handler, filter and key line asks for the app that runs it."""
    with create_pipe_input() as first_pipe, create_pipe_input() as second_pipe:
        first, second = kit.Terminal(first_pipe, tmp_path), kit.Terminal(second_pipe, tmp_path)
        assert first.app.application.key_bindings is second.app.application.key_bindings
        at_game(second, kit)  # the second app at a game, the first in the lobby
        first.feed(Welcome(1, "server", "dave", "tok", ""), Tables((kit.table(),)))
        assert second.type("?") == [] and second.app.ui.help_page == 1 and not first.app.ui.help_page
        assert ("n", "new") in first.app.key_line(first.store.model)
        assert ("p", "play") not in first.app.key_line(first.store.model)
        assert first.type("n") == [] and first.app.ui.form is not None and second.app.ui.form is None
        assert first.app.key_line(first.store.model) == [("Enter", "create"), ("Esc", "cancel")]
        second.type("x")  # closes the help
        assert ("p", "play") in second.app.key_line(second.store.model)
        assert "▶ Name" not in second.screen() and "▶ Name" in first.screen()


def test_every_help_page_fits_an_80x24_screen() -> None:
    for page in HELP_PAGES:
        assert len(page) <= 22 and all(len(line) <= 80 for line in page)


def test_five_players_with_knowledge_shown_keep_every_hand_row(kit, tmp_path: Path) -> None:
    names = ("alice", "bob", "cathy", "donald", "emily")
    state = new_game(GameConfig(players=5, first_seat=0), 3)
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        seats = tuple(SeatInfo(n, False, True) for n in names)
        info = TableInfo(1, "five", Variant.NONE, False, False, ChatPolicy.ALWAYS, 5, seats, False, True, 0, 0)
        term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
        assert isinstance(term.store.model, ClientModel)
        term.app.ui.show_knowledge = True
        lines = term.screen().splitlines()
    assert sum(1 for line in lines if "    knows " in line) == 4
    can_be = next(i for i, line in enumerate(lines) if "can be" in line)
    assert "1-5" in lines[can_be + 1]  # the ranks row under "can be" is still there
    assert len(lines) == 24


def test_final_round_countdown_fits_80_columns(kit, tmp_path: Path) -> None:
    state = new_game(GameConfig(players=2, variant=Variant.SIX_SUITS, first_seat=0), 5)
    while state.final_turns_left is None:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        seats = (SeatInfo("alice", False, True), SeatInfo("bob", False, True))
        info = TableInfo(1, "six", Variant.SIX_SUITS, False, False, ChatPolicy.ALWAYS, 2, seats, False, True, 0, 0)
        term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
        line = term.screen().splitlines()[1]
    assert "M0" in line or "M1" in line
    assert f"FINAL ROUND: {state.final_turns_left} turns left" in line
    assert "Deck 0" in line


def test_page_up_scrolls_the_log_back(term: Terminal, kit) -> None:
    state = kit.game()
    for _ in range(30):
        state = kit.clue_something(state) if state.clue_tokens else apply(
            state, Discard(state.hands[state.current][-1]))
    at_game(term, kit, state=state)
    bottom = term.screen()
    term.type("\x1b[5~")  # PgUp
    scrolled = term.screen()
    assert "newer lines below: PgDn" in scrolled
    assert scrolled != bottom
    term.type("\x1b[6~")  # PgDn
    assert term.screen() == bottom


def test_a_table_with_a_password_asks_for_it(term: Terminal, kit) -> None:
    locked = replace(kit.table(("x", None)), has_password=True)
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((locked,)))
    assert term.type("j") == []
    assert "has a password" in term.screen()
    sent = term.type("sesame\r")
    assert sent == [Join(1, None, "sesame")]
    # The password never shows on screen while typed.
    assert term.type("s" + "hunter2") == [Join(1, None, "sesame")]
    assert "hunter2" not in term.screen() and "*******" in term.screen()
    assert term.type("\r") == [Join(1, None, "sesame"), Spectate(1, "hunter2")]


def test_a_disconnected_player_is_marked_away(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 2, False))
    text = term.screen()
    assert "cathy (away)" in text
    assert "cathy lost their connection." in text


def test_chat_at_the_table_shows_in_the_lobby(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", "bob", None)), 0),
              Chat("ready when you are", 1, "bob"))
    assert "<bob> ready when you are" in term.screen()
    assert term.type("tgo!\r") == [Chat("go!")]


def test_a_bug_in_a_key_handler_does_not_crash_the_app(term: Terminal, kit, monkeypatch) -> None:
    at_game(term, kit)

    def broken(key: str) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(term.app, "start_shortcut", broken)
    assert term.type("p") == []  # the app ran to the Ctrl-C after the key instead of dying
    assert "Something went wrong in the client (RuntimeError: boom)" in term.store.model.status


def test_a_spectator_sees_every_hand_and_cannot_act(term: Terminal, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              ViewUpdate(1, view_for(state, None)))
    text = term.screen()
    assert "You (" not in text
    for seat, name in enumerate(kit.NAMES):
        row = next(line for line in text.splitlines() if f" {name} " in line)
        assert str(state.deck[state.hands[seat][0]]) in row
    assert term.type("p1") == []
    assert "spectators watch" in term.store.model.status
    keys = term.screen().splitlines()[-1]
    assert " p play " not in keys and " l stop watching " in keys
    assert term.type("l") == [Leave()]
    assert term.store.model.table is None


def test_lobby_commands_on_the_command_line(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", "bob", None)), 0))
    assert term.type(":bot 3\r") == [AddBot(2)]
    term.feed(TableChanged(kit.table(("alice", "bob", "Bot Ada"), bots=(2,))))
    sent = term.type(":unbot 3\r:host 2\r:refresh\r:leave\r")
    assert sent == [AddBot(2), RemoveBot(2), GiveHost(1), ListTables(), ListOnline(), Leave()]
    assert term.store.model.table is None


def test_discards_are_grouped_by_suit_with_ranks_apart(term: Terminal, kit) -> None:
    state = kit.game()
    while len(state.discard) < 8:
        state = kit.clue_something(state) if state.clue_tokens == 8 else apply(
            state, Discard(state.hands[state.current][-1]))
    at_game(term, kit, state=state)
    by_suit: dict[str, list[int]] = {}
    for order in state.discard:
        card = state.deck[order]
        by_suit.setdefault(card.suit.letter, []).append(card.rank)
    line = next(line for line in term.screen().splitlines() if line.startswith("Discards "))
    for letter, ranks in by_suit.items():
        assert f"{letter}:{','.join(str(r) for r in sorted(ranks))}" in line
    assert any(len(r) > 1 for r in by_suit.values()), by_suit  # the case the commas are for


def test_the_title_keeps_our_name_and_whose_turn_it_is(term: Terminal, kit) -> None:
    names = ("alice 2", "Bot Ada", "bob 2")
    info = replace(kit.table(names, running=True, bots=(1,)), name="alice 2's table")
    term.feed(Welcome(1, "server", "alice 2", "tok", ""), Joined(info, 0), GameStarted(1, 1),
              kit.view_message(kit.game(first_seat=2), 0))
    title = term.screen().splitlines()[0]
    assert "turn 1 · bob 2's turn" in title and "…" not in title
    assert title.rstrip().endswith("alice 2 ● online")


def test_a_long_discard_pile_wraps_between_suits(term: Terminal, kit) -> None:
    state = kit.game()
    while state.deck_left > 3:
        state = kit.clue_something(state) if state.clue_tokens == 8 else apply(
            state, Discard(state.hands[state.current][-1]))
    at_game(term, kit, state=state)
    lines = term.screen().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Discards "))
    following = lines[start + 1:start + 3]
    block = [lines[start], *(line for line in following if line.startswith("         ") and ":" in line)]
    assert len(block) >= 2, block  # the pile needs more than one line at 80 columns
    group = r"[RYGBW]:[1-5](,[1-5])*"
    for line in block:
        assert re.fullmatch(rf"(Discards | {{9}}){group}( {group})*", line.rstrip()), line
    assert sum(line.count(",") + line.count(":") for line in block) == len(state.discard)


def test_the_end_screen_offers_fit_80_columns_for_a_guest(term: Terminal, kit) -> None:
    state = kit.game()
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike")
    at_game(term, kit, seat=1, state=state)
    term.feed(GameOver(1, outcome, state.deck, "7"), ViewUpdate(1, replace(view_for(state, 1), outcome=outcome)))
    lines = term.screen().splitlines()
    assert " The third strike." in lines  # the reason, whole, on its own line
    offer = next(line for line in lines if "save the replay" in line)
    assert offer.rstrip().endswith("q quit")
    assert "ask the host for another game" in offer


def test_chat_closed_during_the_game_is_said_before_typing(term: Terminal, kit) -> None:
    state = kit.game()
    quiet = replace(kit.table(running=True), chat=ChatPolicy.BETWEEN_GAMES)
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(quiet, 0), GameStarted(1, 1),
              kit.view_message(state, 0))
    assert term.type("t") == []
    assert "open only between games" in term.screen()  # said before a word is typed
    assert term.type("hello\r") == []  # the words went to the line, not to shortcuts
    assert "Not sent: at this table chat is open only between games" in term.store.model.status
    assert " t chat " not in term.screen().splitlines()[-1]
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike")
    term.feed(ViewUpdate(1, replace(view_for(state, 0), outcome=outcome)))
    assert term.type("tgg\r") == [Chat("gg")]


def test_chat_in_the_lobby_needs_a_table(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((kit.table(),)))
    assert term.type("t") == []
    assert "join or watch one first" in term.screen()
    assert term.type("hi james\r") == []  # the j of james joined no table
    assert "Not sent: chat is per table" in term.store.model.status


def test_tab_shows_the_completions_in_a_menu(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type(":clue bob \t")
    text = term.screen()
    assert term.app.command.text == "clue bob "  # several choices: nothing inserted yet
    # (a menu holding more than it shows has ^ and v at its side)
    menu = [line for line in text.splitlines()
            if line.strip().rstrip("^v").strip() in ("red", "yellow", "green", "blue", "white")]
    assert len(menu) >= 5, text


def test_the_bell_rings_once_when_our_turn_comes(term: Terminal, kit, monkeypatch) -> None:
    rings: list[int] = []
    monkeypatch.setattr(term.app.application.output, "bell", lambda: rings.append(1))
    state = at_game(term, kit)  # alice acts first
    term.feed(kit.view_message(state, 0))  # the same turn again (a reconnection, a chat): no second ring
    assert len(rings) == 1
    for _ in range(2):
        state = kit.clue_something(state)
        term.feed(kit.view_message(state, 0))
    assert len(rings) == 1  # bob's and cathy's turns
    state = kit.clue_something(state)
    term.feed(kit.view_message(state, 0))
    assert len(rings) == 2


def test_no_bell_keeps_quiet(kit, tmp_path: Path, monkeypatch) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        term.app.bell = False
        rings: list[int] = []
        monkeypatch.setattr(term.app.application.output, "bell", lambda: rings.append(1))
        at_game(term, kit)
    assert rings == []


def test_six_suits_tokens_line_keeps_single_gaps(kit, tmp_path: Path) -> None:
    state = new_game(GameConfig(players=3, variant=Variant.SIX_SUITS, first_seat=0), 2)
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        seats = tuple(SeatInfo(n, False, True) for n in ("alice", "bob", "cathy"))
        info = TableInfo(1, "six", Variant.SIX_SUITS, False, False, ChatPolicy.ALWAYS, 3, seats, False, True, 0, 0)
        term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
        line = term.screen().splitlines()[1]
    assert "Clues 8/8  Strikes" in line and "M0" in line and len(line) <= 80


def test_what_players_know_stays_in_the_card_columns_in_six_suits(kit, tmp_path: Path) -> None:
    names = ("alice", "bob", "cathy", "donald", "emily")
    state = new_game(GameConfig(players=5, variant=Variant.SIX_SUITS, first_seat=0), 3)
    rng = random.Random(1)
    for _ in range(60):  # clues and discards only: hands full of negative knowledge ("RYBWM1245")
        actions = legal_actions(state)
        state = apply(state, rng.choice([a for a in actions if not isinstance(a, Play)]))
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        seats = tuple(SeatInfo(n, False, True) for n in names)
        info = TableInfo(1, "five", Variant.SIX_SUITS, False, False, ChatPolicy.ALWAYS, 5, seats, False, True, 0, 0)
        term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
        term.app.ui.show_knowledge = True
        lines = term.screen().splitlines()
    header = lines[2]
    columns = {m.start() for m in re.finditer(r"\d", header)}
    at = [i for i, line in enumerate(lines) if line.startswith("    knows ")]
    knows = [lines[i] for i in at] + [lines[i + 1] for i in at]  # the suits rows, then the ranks rows
    assert any(len(word) == 6 for line in knows for word in line.split()), knows  # six suits, all still possible
    for line in knows:
        starts = {m.start() for m in re.finditer(r"\S+", line[18:])}
        assert {s + 18 for s in starts} <= columns, (header, line)
    assert all(len(line) <= 80 for line in lines)


def test_the_end_screen_says_the_result_once(term: Terminal, kit) -> None:
    state = at_game_over(term, kit)
    text = term.screen()
    assert text.count(state.outcome.rating) == 1  # the end box only: the log just marks where the game ended
    assert f"Left in the deck ({state.deck_left}):" in text  # cards nobody drew, after a strike-out


def test_q_during_a_game_says_how_to_quit(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type("q") == []
    assert "Ctrl-C quits" in term.store.model.status


def test_a_guest_asks_the_host_for_another_game(term: Terminal, kit) -> None:
    state = kit.game()
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike")
    at_game(term, kit, seat=1, state=state)
    term.feed(ViewUpdate(1, replace(view_for(state, 1), outcome=outcome)))
    sent = term.type("a")
    assert len(sent) == 1 and isinstance(sent[0], Chat) and "another game" in sent[0].text
    assert "You asked the host" in term.store.model.status


def test_join_with_no_table_says_how_to_make_one(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables(()))
    assert term.type("j") == []
    assert "press n to create one" in term.store.model.status
    assert term.type("\r") == []  # Enter joins too: same answer, not silence
    assert "press n to create one" in term.store.model.status


def test_lobby_keys_on_our_own_table(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", None, None)), 0))
    assert term.type("j") == []
    assert "already sit at this table" in term.store.model.status
    term.feed(Joined(kit.table(("bob", None, None)), None))  # now watching it instead
    assert term.type("s") == []
    assert "already watching" in term.store.model.status
    assert term.type("j") == [Join(1)]  # a spectator may take a free seat


def test_the_lobby_highlights_the_table_we_arrive_at(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "ann", "tok", ""), Tables((kit.table(id=1), kit.table(id=2))))
    assert term.app.ui.selected == 0
    term.feed(Joined(kit.table(("ann", None), id=2), 0))
    assert term.app.ui.selected == 1
    marked = next(line for line in term.screen().splitlines() if line.startswith("▶"))
    assert "table 2" in marked


# Many random games, every seat and screen: untraced by coverage (docs/developing.md); focused tests reach their lines.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant))
def test_every_seat_of_random_games_fits_80x24(kit, variant: Variant, tmp_path: Path) -> None:
    """Random games of every size, seen from every seat and as a spectator, knowledge shown or not: 24 rows of
    at most 80 columns, every hand on screen, the tokens line and the keys bar whole."""
    rng = random.Random(variant.value)
    for players in range(2, 6):
        names = tuple(f"player {i} with a long name"[: 10 + i] for i in range(players))
        state = new_game(GameConfig(players=players, variant=variant), rng.randrange(1000))
        seats = tuple(SeatInfo(n, False, True) for n in names)
        info = TableInfo(1, "t", variant, False, False, ChatPolicy.ALWAYS, players, seats, False, True, 0, 0)
        snapshots = 0
        while snapshots < 3:
            for _ in range(rng.randrange(5, 25)):
                if state.over:
                    break
                state = apply(state, rng.choice(legal_actions(state)))
            snapshots += 1
            for seat in [*range(players), None]:
                with create_pipe_input() as pipe:
                    term = kit.Terminal(pipe, tmp_path)
                    term.feed(Welcome(1, "s", names[seat] if seat is not None else "eve", "tok", ""),
                              Joined(info, seat), ViewUpdate(1, view_for(state, seat)))
                    term.app.ui.show_knowledge = rng.random() < 0.5
                    lines = term.screen().splitlines()
                assert len(lines) == 24 and all(len(line) <= 80 for line in lines), "\n".join(lines)
                for other in range(players):
                    if other != seat:
                        assert any(names[other] in line for line in lines[2:3 + 3 * players]), "\n".join(lines)
                assert "Deck " in lines[1] and lines[-1].rstrip().endswith("quit")
            if state.over:
                break


def test_clue_ada_on_the_command_line_reaches_bot_ada(term: Terminal, kit) -> None:
    names = ("alice", "Bot Ada", "Bot Basil")
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(names, running=True, bots=(1, 2)), 0),
              GameStarted(1, 1))
    state = kit.game()
    term.feed(kit.view_message(state, 0))
    rank = state.deck[state.hands[1][0]].rank
    assert term.type(f":clue ada {rank}\r") == [ActionRequest(Clue(1, rank=rank))]
    assert term.type(":clue bot 1\r") == [ActionRequest(Clue(1, rank=rank))]  # ambiguous: nothing more sent
    assert "could be 2 Bot Ada, 3 Bot Basil" in term.store.model.status


def test_discarding_a_clued_card_asks_first(term: Terminal, kit) -> None:
    state = kit.clue_something(kit.game(first_seat=2))  # cathy clues alice the rank of her slot 1
    at_game(term, kit, state=state)
    hand = state.hands[0]
    assert term.type("d1n") == []
    assert "not discarded" in term.store.model.status
    assert term.type("d1y") == [ActionRequest(Discard(hand[0]))]
    term.sent.clear()
    unclued = next(i for i, order in enumerate(hand) if not state.knowledge[order].clued)
    assert term.type(f"d{unclued + 1}") == [ActionRequest(Discard(hand[unclued]))]  # no question for the rest


@pytest.mark.parametrize(("line", "words"), [
    ("bot 2", "seat 2 is taken by bob"),
    ("bot 4", "there is no seat 4: this table has seats 1 to 3"),
    ("unbot 1", "alice is not a bot: only bots can be removed"),
    ("unbot 3", "seat 3 is empty: there is no bot to remove"),
    ("host 3", "seat 3 is empty: only a seated player can be host"),
])
def test_seat_commands_are_checked_in_the_lobbys_numbering(term: Terminal, kit, line: str, words: str) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", "bob", None)), 0))
    assert term.type(f":{line}\r") == []
    assert words in term.store.model.status


def test_join_a_taken_or_missing_seat_says_so_in_the_lobbys_numbering(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((kit.table(("x", None, None), id=4),)))
    assert term.type(":join 4 1\r") == []
    assert "table 4: seat 1 is taken by x" in term.store.model.status
    assert term.type(":join 4 9\r") == []
    assert "table 4: there is no seat 9: this table has seats 1 to 3" in term.store.model.status
    assert term.type(":join 4 3\r") == [Join(4, 2)]


def test_a_new_table_while_seated_says_to_leave_first(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", None, None)), 0))
    assert term.type("n") == []
    assert term.app.ui.form is None
    assert "leave it before creating another (l leaves)" in term.store.model.status


def test_players_see_the_variants_title_not_hanab_lives_name(term: Terminal, kit) -> None:
    short = replace(kit.table(id=1), variant=Variant.SHORT_MULTICOLOR)
    wild = replace(kit.table(id=2), variant=Variant.WILD_MULTICOLOR)
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((short, wild)))
    text = term.screen()
    assert "Black" not in text and "Rainbow" not in text
    assert "short multicolor" in text and "wild multicolor" in text
    assert "six suits, short multicolor" in text  # whole on the selected table's line of options
    assert all(len(line) <= 80 for line in text.splitlines())
    term.type("n\t")  # the new-table form, on its variant field
    assert "◂ no variant ▸" in term.screen()
    term.type("\x1b[C\x1b[C")
    assert "◂ six suits, short multicolor ▸" in term.screen()


def test_the_game_title_names_the_variant_as_players_know_it(term: Terminal, kit) -> None:
    state = new_game(GameConfig(players=3, variant=Variant.SHORT_MULTICOLOR, first_seat=0), 3)
    info = replace(kit.table(running=True), variant=Variant.SHORT_MULTICOLOR)
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(info, 0), GameStarted(1, 1),
              kit.view_message(state, 0))
    title = term.screen().splitlines()[0]
    assert "six suits, short multicolor" in title and "Black" not in title


def test_keys_pressed_while_reconnecting_say_so_and_send_nothing(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    term.feed(LinkChanged(Link.RECONNECTING, "server:7777", "Lost the connection to server:7777; reconnecting…"))
    rank = state.deck[state.hands[1][0]].rank
    assert term.type(f"c2{rank}") == []
    assert term.store.model.status == "not connected — reconnecting; try again once back"
    assert "not connected — reconnecting" in term.screen()
    assert term.type(":say hello\r") == []
    assert term.store.model.status_error
    assert term.app.command.text == "say hello"  # the line stays, to be sent once back
    term.feed(Welcome(1, "server", "alice", "tok", ""))  # back: the same keys go through
    assert term.type("\r") == [Chat("hello")]
    assert term.type(f"c2{rank}") == [Chat("hello"), ActionRequest(Clue(1, rank=rank))]


def test_a_server_never_reached_has_no_tables_to_join_nor_a_form_to_fill(term: Terminal) -> None:
    term.feed(LinkChanged(Link.CONNECTING, "server:7799"))
    for key in ("j", "n"):
        assert term.type(key) == []
        assert term.store.model.status.startswith("not connected yet") and term.app.ui.form is None


def test_the_new_table_form_is_kept_when_it_cannot_be_sent(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""), LinkChanged(Link.RECONNECTING, "server:7777"))
    assert term.type("n\r") == []
    assert term.app.ui.form is not None and "reconnecting" in term.store.model.status


def test_with_chat_off_a_guest_is_not_told_to_say_anything(term: Terminal, kit) -> None:
    quiet = replace(kit.table(), chat=ChatPolicy.OFF)
    term.feed(Welcome(1, "server", "bob", "tok", ""), Joined(quiet, 1))
    assert term.type("g") == []
    status = term.store.model.status
    assert "only the host starts the game" in status and "wait for alice" in status
    assert "say" not in status and "t, then" not in status
    state = kit.game()
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    assert state.outcome is not None
    term.feed(GameStarted(1, 1), kit.view_message(state, 1), GameOver(1, state.outcome, state.deck, "7"))
    assert "ask the host" not in term.screen()
    assert term.type("a") == [GetStats()]  # only the record asked for as the game ended
    assert "chat is closed here, so wait for alice" in term.store.model.status


def test_with_chat_open_a_guest_is_told_how_to_ask(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "bob", "tok", ""), Joined(kit.table(), 1))
    assert term.type("g") == []
    assert "ask them (t, then type your message)" in term.store.model.status


def test_the_end_counts_turns_taken_and_gives_the_score_once(term: Terminal, kit) -> None:
    state = at_game_over(term, kit)
    text = term.screen()
    assert f"· {state.turn} turns · game over" in text.splitlines()[0]  # as hanabi-replay counts them
    assert f"turn {state.turn + 1}" not in text
    assert text.count("Game over") == 1
    assert "— the game ends —" in text


def test_a_long_variant_title_gives_way_before_whose_turn_it_is(term: Terminal, kit) -> None:
    state = new_game(GameConfig(players=2, variant=Variant.SHORT_MULTICOLOR, first_seat=0), 3)
    info = replace(kit.table(("alice", "Bot Ada"), running=True, bots=(1,)), name="alice's solo game",
                   variant=Variant.SHORT_MULTICOLOR)
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(info, 0), GameStarted(1, 1),
              kit.view_message(state, 0))
    title = term.screen().splitlines()[0]
    assert "short multicolor · turn 1 · your turn" in title and "…" not in title


def test_the_password_prompt_shows_its_label_and_masks_only_what_is_typed(term: Terminal, kit) -> None:
    locked = replace(kit.table(("x", None)), has_password=True)
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((locked,)))
    term.type("j")
    lines = term.screen().splitlines()
    assert "password:" in "\n".join(lines) and not any("*" in line for line in lines)
    term.type("ab\x7f")  # two letters, then Backspace takes one back
    typed = [line for line in term.screen().splitlines() if line.startswith("password:")]
    assert [line.rstrip() for line in typed] == ["password: *"]


def test_c_with_no_clue_token_left_is_refused_at_once(term: Terminal, kit) -> None:
    state = kit.game(first_seat=1)
    for _ in range(8):
        state = kit.clue_something(state)
    assert state.clue_tokens == 0 and state.current == 0
    at_game(term, kit, state=state)
    assert term.type("c") == []
    assert term.app.ui.pending == [] and "Clue whom" not in term.screen()
    assert "cannot clue with no clue tokens left" in term.store.model.status


@pytest.mark.parametrize("seat", [0, 1])
def test_start_during_a_running_game_says_it_runs(term: Terminal, kit, seat: int) -> None:
    at_game(term, kit, seat=seat)  # seat 0 hosts, seat 1 does not
    assert term.type(":start\r") == []
    assert term.store.model.status == "a game is already running at this table"


@pytest.mark.parametrize(("variant", "name"), [
    (Variant.NONE, "hanabi-2026-01-02-0304-no-variant"),
    (Variant.SIX_SUITS, "hanabi-2026-01-02-0304-six-suits"),
    (Variant.SHORT_MULTICOLOR, "hanabi-2026-01-02-0304-six-suits-short-multicolor"),
    (Variant.WILD_MULTICOLOR, "hanabi-2026-01-02-0304-wild-multicolor"),
])
def test_a_saved_replay_is_named_for_when_and_what(variant: Variant, name: str) -> None:
    from hanabi.client.saving import replay_stem

    assert replay_stem(datetime(2026, 1, 2, 3, 4, 5), variant) == name


def test_in_solo_leaving_quits_instead_of_showing_the_private_servers_lobby(term: Terminal, kit) -> None:
    term.app.solo = True
    at_game_over(term, kit)
    text = term.screen()
    assert "a play again · q quit" in text and "leave" not in text
    assert term.type("l") == []  # no leave request: the client quits, and the private server with it


def test_one_numbering_the_board_shows_seats_and_keys_and_commands_take_them(term: Terminal, kit) -> None:
    # bob sits in seat 2 and is to act. The board lists the others in turn order after him, each under the
    # seat number the lobby gives them; c 1 and clue 1 mean seat 1 (alice), whatever the order shown.
    state = kit.clue_something(kit.game())
    at_game(term, kit, seat=1, state=state)
    rows = [line.split()[:2] for line in term.screen().splitlines() if re.match(r"^[ ▶]\d ", line)]
    assert rows == [["3", "cathy"], ["1", "alice"], ["▶2", "You"]]
    alices, cathys = (state.deck[state.hands[seat][0]].rank for seat in (0, 2))
    assert term.type(f"c1{alices}") == [ActionRequest(Clue(0, rank=alices))]
    assert term.type(f":clue 3 {cathys}\r")[-1] == ActionRequest(Clue(2, rank=cathys))
    assert term.type("c2") == term.sent and "cannot clue yourself" in term.store.model.status


def assert_words_whole(lines: list[str], text: str) -> None:
    """Every word of ``text`` shows on one line of the screen: none was cut at the edge into two rows."""
    cut = [word for word in text.split() if not any(word in line for line in lines)]
    assert not cut, f"cut at the edge: {cut}\n" + "\n".join(lines)


def test_long_status_lines_break_between_words_at_80_columns(term: Terminal, kit) -> None:
    state = at_game(term, kit)
    absent = next(r for r in range(1, 6) if all(state.deck[o].rank != r for o in state.hands[1]))
    term.type(f":clue bob {absent}\r")  # an empty clue, which this table does not allow
    status = term.store.model.status
    assert "does not allow empty clues" in status and len(status) > 80
    assert_words_whole(term.screen().splitlines(), status)
    saved = ("Replay saved to /home/alice/games/hanabi-2026-11-24-1530-six-suits.json (open it with "
             "hanabi-client --replay hanabi-2026-11-24-1530-six-suits.json)")
    term.app.note(saved)
    assert_words_whole(term.screen().splitlines(), saved)


def test_long_log_lines_break_between_words_at_80_columns(kit, tmp_path: Path) -> None:
    names = ("alice", "Bot Basilisk the Second")
    state = new_game(GameConfig(players=2, first_seat=0), 5)
    while state.deck_left:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        seats = tuple(SeatInfo(n, False, True) for n in names)
        info = TableInfo(1, "t", Variant.NONE, False, False, ChatPolicy.ALWAYS, 2, seats, False, True, 0, 0)
        term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
        lines = term.screen().splitlines()
    last = next(line for line in term.store.model.log if "everyone plays once more" in str(line.fragments))
    text = "".join(f[1] for f in last.fragments)
    assert len(text) > 80
    assert_words_whole(lines, text)
    assert any(line.startswith("    ") and "once more" in line for line in lines)  # under the text, not the number


FIVE = ("alice", "Bartholomew Longname", "Bot Dexter the Third", "Christina Verylongname", "Bot Ada")


def five_at_80(term: Terminal, table_name: str, current: int) -> str:
    """alice (seat 1) at a five-player short-multicolor table of long names; ``current`` is to act."""
    seats = tuple(SeatInfo(n, n.startswith("Bot"), True) for n in FIVE)
    info = TableInfo(1, table_name, Variant.SHORT_MULTICOLOR, False, False, ChatPolicy.ALWAYS, 5, seats, False,
                     True, 0, 0)
    state = new_game(GameConfig(players=5, variant=Variant.SHORT_MULTICOLOR, first_seat=current), 3)
    term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
    return term.screen()


@pytest.mark.parametrize("current", [0, 2, 3])
def test_five_long_names_and_a_long_variant_keep_every_name_at_80_columns(term: Terminal, current: int) -> None:
    lines = five_at_80(term, "Bot Dexter's table for the family", current).splitlines()
    title = lines[0]
    assert all(len(line) <= 80 for line in lines), "\n".join(lines)
    assert title.rstrip().endswith(" alice ● online"), title  # our own name never gives way
    assert ("your turn" if current == 0 else f"{FIVE[current]}'s turn") in title, title
    for name in FIVE[1:]:  # every other player, whole, on the board
        assert any(re.match(rf"^[ ▶]\d {re.escape(name)} ", line) for line in lines), (name, "\n".join(lines))
    assert any(line.startswith("▶1 You (alice)") or line.startswith(" 1 You (alice)") for line in lines)
    if current == 0:  # room for part of the table's name: cut visibly, to exactly what is left
        assert title.startswith(" Bot Dexter's table fo… · short multicolor · turn 1 · your turn  alice"), title


def test_the_lobby_cuts_a_long_name_visibly_and_shows_it_whole_when_chosen(term: Terminal, kit) -> None:
    seats = tuple(SeatInfo(n, n.startswith("Bot"), True) for n in FIVE)
    carol = TableInfo(1, "Carol's table", Variant.NONE, False, False, ChatPolicy.ALWAYS, 5, seats, True, False, 0, 0)
    term.feed(Welcome(1, "s", "dave", "tok", ""), Tables((carol,)))
    lines = term.screen().splitlines()
    row = next(line for line in lines if line.startswith("▶   1"))
    assert "Carol's tab… [p]" in row and row.rstrip().endswith("…")  # cut, and marked as cut
    assert_words_whole(lines, "Carol's table " + " ".join(FIVE))  # whole under the chosen table


# -- seats that survive lost laptops: the host's H key and hand command, and what players see ------


def test_the_host_hands_an_away_players_seat_to_a_bot_with_three_keys(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 1, False))
    assert " H hand seat " in term.screen().splitlines()[-1]
    assert term.type("H") == []
    assert "Hand which seat on? 2 bob (away)" in term.screen()
    assert term.type("2") == []
    assert "Give seat 2 (bob, away) to? b a house bot · p a player in the lobby" in term.screen()
    assert term.type("b") == [HandSeat(1)]


def test_the_host_hands_a_seat_to_a_player_in_the_lobby_by_name(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 2, False))
    assert term.type("H3p") == [ListOnline()]  # who is online now: the names Tab offers
    assert term.app.command.text == "hand 3 "
    assert "Type the name of the player in the lobby who takes seat 3 (now cathy)" in term.screen()
    assert term.type("Cathy 2\r") == [ListOnline(), HandSeat(2, "Cathy 2")]


def test_a_bots_seat_takes_the_same_three_keys_as_an_away_players(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", "bob", "Bot Ada"), bots=(2,),
                                                                         running=True), 0))
    assert term.type("H3") == []
    assert "Give seat 3 (Bot Ada) to? p a player in the lobby" in term.screen()
    assert term.type("b") == []  # it is a bot's already
    assert "seat 3 is a bot's already: press p" in term.store.model.status
    assert term.type("H3p") == [ListOnline()]
    assert term.app.command.text == "hand 3 "  # the p chose, it is not the first letter of a name
    assert term.type("Bob\r") == [ListOnline(), HandSeat(2, "Bob")]


@pytest.mark.parametrize(("keys", "words"), [
    ("H", "every player is here: only the seat of a player who is away"),
    ("H1", "seat '1' cannot be handed on: press one of 2"),
    ("H2x", "'x': press b (a house bot) or p (a player in the lobby); seat 2 stays as it is"),
])
def test_the_hand_key_says_what_cannot_be_handed(term: Terminal, kit, keys: str, words: str) -> None:
    at_game(term, kit)
    if keys != "H":
        term.feed(SeatStatus(1, 1, False))
    assert term.type(keys) == []
    assert words in term.store.model.status


def test_a_guest_is_told_only_the_host_hands_seats_on(term: Terminal, kit) -> None:
    at_game(term, kit, seat=1)
    term.feed(SeatStatus(1, 2, False))
    assert term.type("H") == []
    assert "only the host can hand a seat on; the host is alice" in term.store.model.status
    assert " H hand seat " not in term.screen().splitlines()[-1]


def test_a_stand_in_host_whose_host_comes_back_between_two_keys_is_told_so(term: Terminal, kit) -> None:
    at_game(term, kit, seat=1)
    term.feed(SeatStatus(1, 0, False), SeatStatus(1, 2, False))  # alice, the host, and cathy are away
    assert term.type("H") == []
    assert "Hand which seat on?" in term.screen()
    term.feed(SeatStatus(1, 0, True))  # alice is back before bob's next key: hers to decide again
    assert term.type("3") == []
    assert "only the host can hand a seat on; the host is alice" in term.store.model.status


@pytest.mark.parametrize(("line", "sent", "words"), [
    ("hand 2 bot", [HandSeat(1)], ""),
    ("hand 2 Bob Two", [HandSeat(1, "Bob Two")], ""),
    ("hand 2", [], "type: hand SEAT bot (a house bot takes it) or hand SEAT NAME"),
    ("hand 1 bot", [], "alice is here: only the seat of a player who is away"),
    ("hand 3 bot", [], "cathy is here"),
    ("hand 2 " + "x" * 40, [], "no name is that long (at most 32 characters)"),
])
def test_the_hand_command_is_checked_before_it_is_sent(term: Terminal, kit, line: str, sent: list[Message],
                                                        words: str) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 1, False))
    assert term.type(f":{line}\r") == [ListOnline(), *sent]  # who is online, asked as "hand" is typed
    assert words in term.store.model.status


def test_the_player_given_a_seat_is_told_so_at_the_table(term: Terminal, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", "bob 2", "tok", ""), Tables((kit.table(running=True),)))
    assert term.store.model.table is None
    term.feed(Joined(kit.table(("alice", "bob 2", "cathy"), running=True), 1), kit.view_message(state, 1),
              SeatHanded(1, 1, "bob 2", False, "bob", "alice"))
    text = term.screen()
    assert "alice handed you seat 2 at table 'table 1', which was bob's." in text
    assert term.store.model.seat == 1 and term.store.model.view is not None


def test_the_player_whose_seat_was_handed_on_is_back_in_the_lobby(term: Terminal, kit) -> None:
    at_game(term, kit, seat=1)
    term.feed(SeatHanded(1, 1, "Bot Ada", True, "bob", "alice"))
    model = term.store.model
    assert model.table is None and model.view is None
    assert "While you were away, alice gave your seat 2 at table 'table 1' to a house bot." in model.status
    assert "ask alice to hand it back" in model.status


def test_a_seat_handed_at_a_table_the_lobby_does_not_list_yet_is_told_by_its_number(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "bob", "tok", ""), SeatHanded(4, 1, "Bot Ada", True, "bob", "alice"))
    assert "alice gave your seat 2 at table 4 to a house bot." in term.store.model.status


def test_the_others_at_the_table_read_who_took_the_seat(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatHanded(1, 1, "Bot Ada", True, "bob", "alice"))
    assert "alice gave bob's seat 2 to Bot Ada (a house bot)." in term.screen()
    assert term.store.model.table is not None


def test_between_games_the_host_hands_an_away_seat_from_the_lobby_screen(term: Terminal, kit) -> None:
    table = kit.table(("alice", "bob", "Bot Ada"), bots=(2,))
    away = replace(table, players=(table.players[0], SeatInfo("bob", False, False), table.players[2]))
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(table, 0))
    assert "H hand on an away player's seat" not in term.screen()  # a bot's seat alone does not call for it
    term.feed(TableChanged(away))
    assert "H hand on an away player's seat" in term.screen()
    assert term.type("H2b") == [HandSeat(1)]


# --- the table options: form, lobby, table, deck play (b), why the last bot moved (w), who else played a seed ---

RIGHT = "\x1b[C"


def seated(term: Terminal, kit, state: GameState, **options: object) -> None:
    """alice in seat 0 of a running 3-seat table with bots in seats 1 and 2 and ``options``, shown ``state``."""
    table = replace(kit.table(("alice", "Bot Ada", "Bot Basil"), running=True, bots=(1, 2)), **options)
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(table, 0), GameStarted(1, 1),
              kit.view_message(state, 0))


def test_the_tables_options_under_the_discards_break_between_words(term: Terminal, kit) -> None:
    seated(term, kit, kit.game(), level="basic", seeded=True, end_when_no_points=True, deck_plays=True)
    for width in range(24, 81):
        lines = "".join(text for _, text in discards(term.store.model, width)).split("\n")
        table = lines[next(i for i, line in enumerate(lines) if line.startswith("Table: ")):]
        assert all(len(line) <= width for line in table), (width, table)
        words = " ".join(table).split()
        assert "playable" in words and "blind" in words and "points" in words, (width, table)


def down_to_the_last_card(config: GameConfig) -> GameState:
    """A game run down (clues and discards only) until one card is left in the deck and seat 0 is to act."""
    state = new_game(config, 7)
    while state.deck_left > 1 or state.current != 0:
        if state.clue_tokens == 8 or (state.deck_left == 1 and state.current != 0):
            target = (state.current + 1) % state.players
            state = apply(state, Clue(target, rank=state.deck[state.hands[target][0]].rank))
        else:
            state = apply(state, Discard(state.hands[state.current][-1]))
    return state


def test_the_form_sends_the_level_the_seed_and_the_rule_options(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    keys = "n" + "\x7f" * 40 + "Friday" + "\t" * 8 + RIGHT * 2 + "\t" + "  monday " + "\t " + "\t " + "\r"
    [create] = term.type(keys)
    assert isinstance(create, CreateTable)
    assert (create.name, create.level, create.seed, create.end_when_no_points, create.deck_plays) == (
        "Friday", "basic", "monday", True, True)


def test_the_forms_defaults_leave_every_option_to_the_server(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    term.type("n")
    text = term.screen()
    assert "as fits the table" in text and "a random deal each game" in text
    # "off" says what off means: the explanation of "on" after "off" read as if the option were on.
    assert "off: the game ends as usual, even with no points left" in text
    assert "off: the deck's last card cannot be played blind" in text
    assert "can be scored" not in text and "may be played blind" not in text
    assert all(len(line) <= 80 for line in text.splitlines())
    [create] = term.type("\r")
    assert isinstance(create, CreateTable)
    assert (create.level, create.seed, create.end_when_no_points, create.deck_plays) == (None, None, False, False)


def test_the_lobby_shows_a_tables_options(term: Terminal, kit) -> None:
    table = replace(kit.table(id=4), level="h-group", seeded=True, end_when_no_points=True, deck_plays=True)
    term.feed(Welcome(1, "server", "dave", "tok", ""), Tables((table,)))
    text = " ".join(term.screen().split())
    assert "bots play h-group" in text and "seeded deal" in text
    assert "ends when no points are left" in text and "deck's last card playable blind" in text


def test_the_game_screen_shows_the_bots_level(term: Terminal, kit) -> None:
    seated(term, kit, kit.game(), level="basic", seeded=True)
    assert "Table: bots play basic · seeded deal" in term.screen()


def test_b_plays_the_decks_last_card_blind_after_a_yes(term: Terminal, kit) -> None:
    state = down_to_the_last_card(GameConfig(players=3, first_seat=0, deck_plays=True))
    seated(term, kit, state)
    assert term.type("bn") == []
    assert "Play the deck's last card blind?" not in term.store.model.status
    assert term.type("by") == [ActionRequest(Play(len(state.deck) - 1))]
    term.sent.clear()
    assert term.type(":deckplay\r") == [ActionRequest(Play(len(state.deck) - 1))]


def test_without_the_option_b_says_the_table_does_not_allow_it(term: Terminal, kit) -> None:
    state = down_to_the_last_card(GameConfig(players=3, first_seat=0))
    seated(term, kit, state)
    assert term.type("b") == []
    assert "does not let the deck's last card be played blind" in term.store.model.status
    assert term.type(":deck\r") == []
    assert "does not let the deck's last card be played blind" in term.store.model.status


def test_b_with_more_cards_in_the_deck_says_how_many(term: Terminal, kit) -> None:
    seated(term, kit, new_game(GameConfig(players=3, first_seat=0, deck_plays=True), 7))
    assert term.type("b") == []
    assert "only when it is the last one left: 35 cards are" in term.store.model.status


def test_w_tells_why_the_last_bot_moved_or_that_it_comes_at_the_end(term: Terminal, kit) -> None:
    state = kit.game()  # alice (seat 0) first, then Bot Ada (seat 1)
    state = kit.clue_something(kit.clue_something(state))
    seated(term, kit, state)
    assert term.type("w") == []
    assert "Bot Ada's reason for turn 2 names your own cards" in term.store.model.status
    term.feed(BotReason(1, 1, 1, "cluing seat 3 red: their R1 (slot 2) can be played"))
    term.type("w")
    # The server's "seat 3" (counted from 1) by the name the board shows.
    assert term.store.model.status == "Bot Ada, turn 2: cluing Bot Basil red: their R1 (slot 2) can be played"
    # In the log as well, where a reason longer than the status line's two lines is read whole.
    assert "their R1 (slot 2) can be played" in "".join(t for _, t in term.store.model.log[-1].fragments)
    term.feed(BotReason(2, 1, 1, "a reason of another game"))
    term.type(":why\r")
    assert "can be played" in term.store.model.status


def test_the_end_of_a_seeded_game_lists_who_else_played_it(term: Terminal, kit) -> None:
    state = terminate(kit.game(), "stopped")
    seated(term, kit, state, seeded=True)
    assert state.outcome is not None
    term.feed(GameOver(1, state.outcome, state.deck, "monday"))
    assert term.sent == [ListGames(seed="monday"), GetStats()]
    assert "no one else has played this deal here yet" in term.screen()
    others = (GameSummary(1, 1, ("alice", "Bot Ada", "Bot Basil"), Variant.NONE, 0, EndReason.TERMINATED, 0,
                          seed="monday"),
              GameSummary(9, 5, ("cat", "dan", "eve"), Variant.NONE, 24, EndReason.FINAL_ROUND, 0, seed="monday"))
    term.feed(Games(others))
    assert "Seed 'monday' was also played by cat, dan, eve: 24." in term.screen()
    term.feed(GameOver(1, state.outcome, state.deck, "monday"))
    assert term.sent == [ListGames(seed="monday"), GetStats()]  # asked once per game


@pytest.mark.parametrize(("argv", "said"), [
    (["--level", "basic", "host"], "--level is for --solo"),
    (["--solo", "--level", "expert"], "--level 'expert' is not a level: choose beginner, basic, h-group"),
])
def test_level_is_a_solo_flag_with_known_values(argv: list[str], said: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1  # one line, no usage block


@pytest.mark.virtual_time
async def test_a_solo_table_is_created_at_the_level_asked_for(nursery: trio.Nursery, kit) -> None:
    from hanabi.client.session import Address, Session
    from hanabi.server import ServerConfig

    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:",
                                                           config=ServerConfig(bot_delay=0.0),
                                                           task_status=task_status))
    store = ModelStore()
    session = Session(Address("127.0.0.1", server.port), "alice", store.get, store.dispatch,
                      on_welcome=table_setup("alice", 2, Variant.NONE, level="h-group"),
                      open_stream=kit.Line(server, nursery).open)
    nursery.start_soon(session.run)
    await kit.wait_for(store, lambda m: m.table is not None and m.view is not None, "the table and its game")
    assert store.model.table is not None
    assert store.model.table.level == "h-group"
    assert store.model.table.advice  # a solo table gives advice (a)
    session.stop()
    nursery.cancel_scope.cancel()


async def test_a_solo_game_calls_its_private_server_solo_in_the_title(nursery: trio.Nursery, kit) -> None:
    from hanabi.client.model import Link
    from hanabi.client.screens import title_fragments
    from hanabi.client.solo import run_solo

    store = ModelStore()
    # The real solo path, its own server on loopback TCP: on the real clock (a socket's wait is not virtual).
    nursery.start_soon(run_solo, "alice", 2, Variant.NONE, store, [], 0.0)
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE and m.view is not None, "the solo game")
    title = "".join(text for _, text, *_ in title_fragments(store.model, 120))
    assert "alice@solo" in title and "127.0.0.1" not in title, title
    nursery.cancel_scope.cancel()


def test_a_asks_the_coach_on_our_turn_where_the_host_allows_it(term: Terminal, kit) -> None:
    state = kit.game()  # alice (seat 0) to act
    seated(term, kit, state)
    assert term.type("a") == []  # a table without advice: said at once, nothing sent
    assert "did not allow advice" in term.store.model.status and term.store.model.status_error
    assert "advice" not in [what for _, what in term.app.key_line(term.store.model)]
    seated(term, kit, state, advice=True)
    assert ("a", "advice") in term.app.key_line(term.store.model)
    shown = to_plain_text(keys_line(term.app.key_line(term.store.model), 80))
    assert " a advice " in shown and len(shown) <= 80  # on the key line as drawn at 80 columns
    assert term.type("a") == [GetAdvice()]
    term.feed(AdviceReply(1, 0, "clue Bot Ada: 3", "their R3 will be playable after the cards before it",
                          "delayed play clue", "Delayed play clues"))
    assert term.store.model.status == "Coach: clue Bot Ada: 3 — their R3 will be playable after the cards before it"
    logged = [to_plain_text(line.fragments) for line in term.store.model.log[-2:]]
    assert logged == ["Coach, turn 1: The house bot would clue Bot Ada: 3: their R3 will be "
                      "playable after the cards before it",
                      '  Convention: delayed play clue (read docs/bots.md, "Delayed play clues")']
    term.sent.clear()
    seated(term, kit, kit.clue_something(state), advice=True)  # Bot Ada's turn now
    assert term.type("a") == []
    assert "your own turn" in term.store.model.status


def test_a_player_who_quit_is_said_to_have_quit_with_their_seat_waiting_not_to_have_left(term: Terminal, kit) -> None:
    at_game(term, kit)  # we host
    term.feed(SeatStatus(1, 1, False, left=True))
    shown = " ".join(term.screen().split())
    assert f"{kit.NAMES[1]} quit; the seat waits for them (H hands it on)." in shown
    assert f"{kit.NAMES[1]} left" not in shown


@pytest.mark.parametrize("size", [(80, 24), (60, 15)])
def test_the_lobby_key_line_of_a_player_at_a_table_shows_chat_and_commands(kit, tmp_path: Path, size) -> None:
    from prompt_toolkit.input import create_pipe_input

    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, *size)
        term.feed(Welcome(1, "server", "alice", "tok", ""), Tables((kit.table(("alice", None, None)),)))
        alone = term.screen().splitlines()[-1]
        assert " ? help " in alone and " q quit" in alone
        term.feed(Joined(kit.table(("alice", None, None)), 0))
        keys = term.screen().splitlines()[-1]
        assert " t chat " in keys and " : cmd " in keys, keys
        assert keys.rstrip().endswith("q quit") and len(keys) <= size[0]


def test_a_reason_that_starts_with_a_players_name_keeps_the_names_case(term: Terminal, kit) -> None:
    from hanabi.client.board import opening

    state = kit.game()
    outcome = Outcome(EndReason.TIMEOUT, 0, 25, "bob ran out of time: the table loses the game")
    at_game(term, kit, seat=0, state=state)
    term.feed(GameOver(1, outcome, state.deck, "7"), ViewUpdate(1, replace(view_for(state, 0), outcome=outcome)))
    lines = term.screen().splitlines()
    assert " bob ran out of time: the table loses the game." in lines, lines  # "bob" is not "Bob"
    assert opening("the third strike", ("bob",)) == "The third strike"  # a sentence of words still starts big
    assert opening("bobby left", ("bob",)) == "Bobby left"  # a longer word is not the name


def test_ctrl_c_at_a_solo_games_end_asks_before_its_unsaved_replay_is_lost(term: Terminal, kit) -> None:
    term.app.solo = True
    at_game_over(term, kit)
    term.app.ask_to_quit()  # Ctrl-C, in the game's review or at its end
    assert term.app.application.is_running is False and term.app.ui.confirm_quit
    assert "replay is not saved (solo games are not kept). Quit? y quits, s saves it" in " ".join(term.screen().split())
    term.app.answer_quit("x")
    assert "You stay: s saves the replay, Ctrl-C quits." in term.store.model.status
    term.app.lobby.act(LobbyIntent("leave"))  # l: leaving is quitting, in solo
    assert term.app.ui.confirm_quit  # asked too, as Ctrl-C and q are
    term.app.answer_quit("x")
    term.app.ask_to_quit()
    term.app.answer_quit("s")  # saves instead: the replay is asked of the solo server
    assert term.sent[-1] == GetReplay(1)
    term.app.ui.saved[1] = "kept.json"
    assert term.type("") == term.sent  # saved: Ctrl-C quits at once, as in a game
    assert not term.app.ui.confirm_quit


@pytest.mark.parametrize("size", [(80, 24), (60, 15)])
def test_the_completions_menu_sits_above_the_command_line_over_neither_the_hands_nor_the_key_line(
        kit, tmp_path: Path, size) -> None:
    from prompt_toolkit.input import create_pipe_input

    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, *size)
        at_game(term, kit, state=new_game(GameConfig(players=3, first_seat=0, deck_plays=True), 7))
        term.type(":")
        before = term.screen().splitlines()
        term.type("d\t")  # two choices at a table that lets the deck's last card be played blind: discard, deckplay
        lines = term.screen().splitlines()
        command = lines.index(": d")
        assert lines[command + 1:] == before[command + 1:]  # the status and the key line, as they were
        assert lines[-1].startswith(" Enter send") and "Tab complete" in lines[-1]
        assert lines[command - 1].strip() in ("discard", "deckplay"), lines
        hands = [line for line in before if re.match(r"^[ ▶]\d ", line)]
        assert hands and all(line in lines for line in hands)  # every hand in sight, none covered


def test_tab_in_a_game_offers_what_acts_in_a_game_and_no_lobby_only_command(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type(":\t")
    state = term.app.command.complete_state
    assert state is not None
    offered = {c.text for c in state.completions}
    assert {"play", "clue", "say", "note", "pause", "unqueue", "leave", "hand", "help", "quit"} <= offered, offered
    assert not offered & {"join", "spectate", "new", "start", "bot", "unbot", "refresh", "again", "review"}, offered


def test_esc_in_the_completions_menu_closes_the_menu_and_keeps_the_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type(":clue bob \t")
    term.type("\t")  # the menu, then its first entry chosen
    chosen = term.app.command.text
    assert term.app.command.complete_state is not None and chosen.startswith("clue bob ") and chosen[9:], chosen
    term.type("\x1b")
    assert term.app.command.complete_state is None
    assert term.app.command.text == chosen and ": " + chosen.strip() in term.screen()  # the line, still open
    term.type("\x1b")  # a second Esc closes the line, as ever
    assert term.app.command.text == "" and ": clue" not in term.screen()


def offered_on_tab(term: Terminal) -> set[str]:
    """What Tab after ``:`` offers on the screen up."""
    term.type(":\t")
    state = term.app.command.complete_state
    assert state is not None
    return {c.text for c in state.completions}


@pytest.mark.parametrize("deck_plays", [False, True])
def test_tab_offers_deckplay_only_at_a_table_that_lets_the_deck_last_card_be_played_blind(
        term: Terminal, kit, deck_plays: bool) -> None:
    at_game(term, kit, state=new_game(GameConfig(players=3, first_seat=0, deck_plays=deck_plays), 7))
    term.type(":deckplay\r")
    refused = "does not let the deck's last card be played blind" in term.store.model.status
    assert refused is not deck_plays  # what the completion keeps back is what the command line refuses
    assert ("deckplay" in offered_on_tab(term)) is deck_plays


def test_tab_offers_save_once_the_game_is_over_not_while_it_runs(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.type(":save\r")
    assert "a replay can be saved once the game is over" in term.store.model.status  # what the completion keeps back
    assert "save" not in offered_on_tab(term)
    term.type("\x1b\x1b")
    state = kit.game()
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    term.feed(kit.view_message(state, 0), GameOver(1, state.outcome, state.deck, "7"))
    assert "save" in offered_on_tab(term)


def test_tab_in_the_lobby_offers_no_note(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Tables((kit.table(),)))
    term.type(":note 1 x\r")
    assert "notes are written during a game" in term.store.model.status  # what the completion keeps back
    offered = offered_on_tab(term)
    assert "note" not in offered and {"join", "new", "say", "help"} <= offered, offered


@pytest.mark.parametrize("size", [(80, 24), (60, 15)])
def test_the_completions_menu_takes_the_rows_under_the_hands_and_shows_when_it_holds_more(
        kit, tmp_path: Path, size) -> None:
    from prompt_toolkit.input import create_pipe_input

    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, *size)
        at_game(term, kit)
        term.type(":")
        before = term.screen().splitlines()
        term.type("\t")  # every verb a game takes: more than a short screen has rows for
        lines = term.screen().splitlines()
        command = lines.index(":")
        assert lines[command + 1:] == before[command + 1:]  # the status and the key line, as they were
        hands = [line for line in before if re.match(r"^[ ▶]\d ", line)]
        assert hands and all(line in lines for line in hands)  # every hand in sight
        menu = lines[lines.index(next(line for line in lines if line.startswith(" play"))):command]
        assert len(menu) >= 4, lines  # not one row: the discards, the figures and the rule give theirs
        assert menu[-1].rstrip().endswith("v"), menu  # more than it shows, below
        assert not menu[0].rstrip().endswith("^"), menu  # and nothing above: the list starts here


def menu_marks(term: Terminal) -> tuple[str, ...]:
    """The completions menu's rows as (the first row's mark, the last row's mark), "" where there is none."""
    lines = term.screen().splitlines()
    command = next(i for i, line in enumerate(lines) if line.startswith(":"))
    offered = {c.text for c in term.app.command.complete_state.completions}
    top = command
    while lines[top - 1].split() and lines[top - 1].split()[0] in offered:  # the menu's rows, a completion each
        top -= 1
    menu = [line.rstrip() for line in lines[top:command]]
    assert len(menu) >= 3, lines
    return tuple(row[-1] if row[-1] in "^v" and row[-2] == " " else "" for row in (menu[0], menu[-1]))


@pytest.mark.parametrize("size", [(80, 24), (60, 15)])
def test_the_completions_menu_marks_more_above_and_more_below_only_when_there_is(
        kit, tmp_path: Path, size) -> None:
    from prompt_toolkit.input import create_pipe_input

    up = "\x1b[A"
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path, *size)
        at_game(term, kit)
        term.type(":\t")
        verbs = [c.text for c in term.app.command.complete_state.completions]
        assert len(verbs) > 6 + 2  # more than the menu's rows, with some to spare on both sides of a middle
        assert menu_marks(term) == ("", "v")  # the list's start: more below only
        term.type(up)  # Up from the typed line goes round to the list's end
        assert term.app.command.text == verbs[-1]
        assert menu_marks(term) == ("^", "")  # the end: more above only
        term.type(up * 6)
        assert menu_marks(term) == ("^", "v")  # the middle: more both ways


# -- the status line says what is true now ---------------------------------------------------------------------


def test_a_refusal_goes_once_the_player_types_a_new_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type(":play 9\r") == []
    refused = term.store.model.status
    assert "no slot 9" in refused
    term.type(":")
    assert refused in " ".join(term.screen().split())  # read while the next line is begun
    term.type("pl")
    assert "no slot 9" not in term.screen()  # it was about the line sent, not this one
    assert term.store.model.status == "Your turn."  # what the status says when nothing newer is to be said


def test_a_chat_line_sent_on_our_turn_leaves_your_turn_on_the_status_line(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.store.model.status == "Your turn."
    assert term.type(":say hi\r") == [Chat("hi")]
    assert term.store.model.status == "Your turn."  # saying something does not make it less our turn


def test_a_seat_handed_on_replaces_the_refusal_of_an_earlier_try(term: Terminal, kit) -> None:
    at_game(term, kit)
    assert term.type("H") == []
    assert "every player is here" in term.store.model.status
    term.feed(SeatStatus(1, 2, False))
    assert term.type("H3b") == [HandSeat(2)]
    term.feed(SeatHanded(1, 2, "Bot Ada", True, "cathy", "alice"))
    assert "alice gave cathy's seat 3 to Bot Ada (a house bot)." in term.screen()
    assert "every player is here" not in term.screen()
    assert term.store.model.status == "Your turn."  # alice's: what the status says once the refusal goes


def test_a_seat_given_by_name_replaces_the_usage_said_of_an_empty_name(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 2, False))
    assert term.type(":hand 3\r") == [ListOnline()]
    assert term.store.model.status_error and "type: hand SEAT bot" in term.store.model.status
    term.sent.clear()
    assert term.type("H3pdave\r") == [ListOnline(), HandSeat(2, "dave")]
    term.feed(SeatHanded(1, 2, "dave", False, "cathy", "alice"))
    assert "alice gave cathy's seat 3 to dave." in term.screen()
    assert not term.store.model.status_error and term.store.model.status == "Your turn."  # as a newer log line


def test_news_leaves_the_status_line_when_the_log_tells_something_newer(term: Terminal, kit) -> None:
    at_game(term, kit, seat=1)  # alice's turn: bob waits
    assert term.store.model.status == "The game starts."
    term.feed(SeatStatus(1, 2, False, left=True))
    assert "cathy quit; the seat waits for them." in term.screen()
    assert term.store.model.status == ""


def test_chat_does_not_take_a_refusal_away(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(ErrorReply("action", "not_your_turn", "it is not your turn", None), Chat("hi", 1, "bob"))
    assert "it is not your turn" in term.store.model.status


def test_a_form_opened_takes_older_news_away(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Tables(()))
    term.feed(ErrorReply("hello", "bad_resume", "that resume token is not known here", None))
    assert term.store.model.status
    assert term.type("n") == []
    assert term.app.ui.form is not None
    assert term.store.model.status == ""


def test_the_top_bar_has_one_shape_in_the_lobby_a_game_its_rewind_and_its_review(kit, tmp_path: Path) -> None:
    """Every bar reads "Hanabi · table · variant · where we are", then who we are and the live connection."""
    from prompt_toolkit.input import create_pipe_input

    def parts(title: str) -> tuple[list[str], str]:
        left, right = re.split(r"\s{2,}", title.strip(), maxsplit=1)
        return left.split(" · "), right

    bars: dict[str, str] = {}
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        term.feed(Welcome(1, "server", "alice", "tok", ""), Tables((kit.table(("bob", None, None)),)))
        bars["lobby"] = term.screen().splitlines()[0]
        term.feed(Joined(kit.table(("alice", None, None)), 0))
        bars["waiting"] = term.screen().splitlines()[0]
        state = at_game(term, kit)
        bars["game"] = term.screen().splitlines()[0]
        term.feed(kit.view_message(kit.clue_something(state), 0))
        term.type("r" + "\x1b[D")  # rewind, a step back
        bars["rewind"] = term.screen().splitlines()[0]
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        over = at_game_over(term, kit)
        term.feed(ReplayFile(1, dumps(over, kit.NAMES)), Review(1, 1, "alice", 1, 5))
        bars["review"] = term.screen().splitlines()[0]
    assert parts(bars["lobby"]) == (["Hanabi", "lobby"], "alice@ ● online")
    assert parts(bars["waiting"]) == (["Hanabi", "table 1", "no variant", "waiting"], "alice@ ● online")
    assert parts(bars["game"]) == (["Hanabi", "table 1", "no variant", "turn 1", "your turn"], "alice@ ● online")
    assert parts(bars["rewind"])[0][:4] == ["Hanabi", "table 1", "no variant", "rewind"], bars["rewind"]
    assert parts(bars["rewind"])[1].endswith("● online"), bars["rewind"]  # rewinding, we are still online
    assert parts(bars["review"])[0][:4] == ["Hanabi", "table 1", "no variant", "review"], bars["review"]
    assert parts(bars["review"])[1].endswith("● online"), bars["review"]


def test_a_narrow_top_bar_lets_the_word_hanabi_go_before_the_servers_address(term: Terminal, kit) -> None:
    from hanabi.client.screens import title_fragments

    at_game(term, kit)
    term.feed(LinkChanged(Link.ONLINE, "192.168.1.20:7777"))
    bar = "".join(text for _, text, *_ in title_fragments(term.store.model, 80))
    assert len(bar) <= 80 and "alice@192.168.1.20:7777" in bar and "Hanabi" not in bar, bar
    assert "table 1 · no variant · turn 1 · your turn" in bar
    wide = "".join(text for _, text, *_ in title_fragments(term.store.model, 100))
    assert wide.startswith(" Hanabi · table 1") and "alice@192.168.1.20:7777" in wide, wide  # with room, both


def test_the_line_for_a_players_name_offers_only_people_and_enter_on_no_name_says_what_to_type(term: Terminal,
                                                                                                kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 2, False), Online(("alice", "bob", "cathy", "dave", "erin")))
    term.type("H3p\t")
    menu = term.screen()
    assert "dave" in menu and "erin" in menu
    assert not re.search(r"^\s*bot\s*$", menu, re.M), menu  # a house bot is b, not a name to type
    term.app.command.text = "hand 3 "
    term.sent.clear()
    assert term.type("\r") == []
    assert "Type the name of a player in the lobby (Tab lists them)" in term.store.model.status
    assert "hand SEAT bot" not in term.store.model.status
    assert term.app.command.text == "hand 3 "  # the line stays open for the name


def test_hand_seat_tab_offers_the_players_online_now_not_those_known_when_we_sat_down(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(SeatStatus(1, 1, False))
    assert term.store.model.online == ()  # at a table, the lobby's news of who is online does not come
    assert term.type(":hand 2") == [ListOnline()]
    term.feed(Online(("alice", "bob", "cathy", "dave", "erin")))
    term.type("\t")
    assert term.app.command.text != "hand 2 bot"  # several choices: none taken for the player
    menu = term.screen()
    assert "dave" in menu and "erin" in menu and "bot" in menu


def test_a_shortcut_begun_then_cancelled_does_not_bring_back_an_older_refusal(term: Terminal, kit) -> None:
    at_game(term, kit)
    term.feed(ErrorReply("action", "game_paused", "the game is paused", None))
    assert "the game is paused" in term.store.model.status
    assert term.type("c\x1b") == []  # a clue begun (whom?), then Esc
    assert "the game is paused" not in term.screen()
