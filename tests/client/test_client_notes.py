"""Notes on cards in the client, keys typed through a pipe: n + seat + slot, the one-key notes, x, Enter,
:note, N (the panel), and what the board shows (the * mark, a note's card on your own hand, R1! when a clue
says no); the model keeps each seat's notes of the current game."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
import trio
from hanabi.client.commands import CommandCompleter
from hanabi.client.model import ClientModel, reduce
from hanabi.client.replayer import ReplayViewer
from hanabi.client.runner import ModelStore
from hanabi.client.session import Address, Session
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.client.solo import table_setup
from hanabi.engine import (
    Card,
    CardKnowledge,
    ChatPolicy,
    Clue,
    Discard,
    GameConfig,
    GameState,
    Suit,
    Variant,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.engine.replay import dumps, from_json
from hanabi.protocol.messages import (
    CardNote,
    CardNotes,
    GameStarted,
    Joined,
    SeatInfo,
    TableInfo,
    ViewUpdate,
    Welcome,
    WriteNote,
)
from hanabi.server import ServerConfig, serve
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input

from .conftest import Terminal


def playing(term: Terminal, kit, seat: int | None = 0, state: GameState | None = None) -> GameState:
    """Our client at seat ``seat`` (None: watching) of a 3-player game that has started."""
    name = kit.NAMES[seat] if seat is not None else "eve"
    term.feed(Welcome(1, "server", name, "tok", ""), Joined(kit.table(running=True), seat), GameStarted(1, 1))
    state = state if state is not None else kit.game()
    term.feed(kit.view_message(state, seat))
    return state


def test_n_seat_slot_then_the_notes_text_typed_straight_away_sends_it(term: Terminal, kit) -> None:
    state = playing(term, kit)
    sent = term.type("n23f\r" "n11cm\r" "n32kt\r" "n21b\r")
    assert sent == [WriteNote(state.hands[1][2], "f"), WriteNote(state.hands[0][0], "cm"),
                    WriteNote(state.hands[2][1], "kt"), WriteNote(state.hands[1][0], "b")]


def test_every_letter_typed_at_the_prompt_goes_into_the_note_none_runs_as_a_game_key(term: Terminal, kit) -> None:
    state = playing(term, kit)
    app = term.app
    # a asks the coach, z pauses, t opens the chat, r rewinds, x deleted the note: here they are the note's text.
    assert term.type("n12azt rx\r") == [WriteNote(state.hands[0][1], "azt rx")]
    assert app.ui.rewind is None and app.ui.note_keys == []


def test_ctrl_u_on_a_note_line_clears_the_text_typed_not_the_card_it_is_for(term: Terminal, kit) -> None:
    state = playing(term, kit)
    assert term.type("n12oops\x15kt\r") == [WriteNote(state.hands[0][1], "kt")]


@pytest.mark.parametrize("key", ["\x7f", "\x1b[3~"])  # Backspace, Delete
def test_backspace_or_delete_at_the_prompt_deletes_the_note(term: Terminal, kit, key: str) -> None:
    state = playing(term, kit)
    order = state.hands[1][3]
    term.feed(CardNotes(1, 0, (CardNote(order, "cm"),)))
    assert term.type("n24" + key) == [WriteNote(order, "")]


def test_the_prompt_shows_the_current_note(term: Terminal, kit) -> None:
    state = playing(term, kit)
    term.feed(CardNotes(1, 0, (CardNote(state.hands[1][3], "cm"),)))
    app = term.app
    term.type("n24")  # the note's prompt waits for its key when Ctrl-C leaves the app
    assert 'slot 4: "cm (chop moved)"' in app.ui.prompt and "Backspace deletes it" in app.ui.prompt
    app.cancel()
    assert app.ui.note_keys == [] and app.ui.prompt == ""


def test_enter_at_the_note_prompt_types_the_text_on_the_command_line(term: Terminal, kit) -> None:
    state = playing(term, kit)
    term.feed(CardNotes(1, 0, (CardNote(state.hands[0][0], "r"),)))
    # Our own card: "note 1 r" is there already; typing adds to it.
    assert term.type("n11\r1\r") == [WriteNote(state.hands[0][0], "r1")]
    # Another's card: named by name; a letter starts the note with it.
    assert term.type("n32red 1\r")[-1] == WriteNote(state.hands[2][1], "red 1")


@pytest.mark.parametrize(("line", "seat", "slot", "text"), [
    ("note 2 hello  world", 0, 2, "hello  world"),
    ("note bob 3 red 1", 1, 3, "red 1"),
    ("note cat 1 f", 2, 1, "f"),
    ("note alice 4 mine", 0, 4, "mine"),  # our own name: our own card
    ("note 5", 0, 5, ""),  # no text: deletes
])
def test_note_on_the_command_line(term: Terminal, kit, line: str, seat: int, slot: int, text: str) -> None:
    state = playing(term, kit)
    assert term.type(f":{line}\r") == [WriteNote(state.hands[seat][slot - 1], text)]


@pytest.mark.parametrize(("line", "said"), [
    ("note", "type: note SLOT TEXT"),
    ("note 9 f", "there is no slot 9"),
    ("note zed 3 f", "no player called 'zed'"),
    ("note bob f", "type: note NAME SLOT TEXT"),
    ("note 1 " + "x" * 101, "at most 100 characters"),
])
def test_a_bad_note_command_says_what_to_type(term: Terminal, kit, line: str, said: str) -> None:
    playing(term, kit)
    assert term.type(f":{line}\r") == []
    assert said in term.app.get_model().status


@pytest.mark.parametrize(("keys", "said"), [
    ("n9", "no player '9'"),
    ("n2z", "no slot 'z'"),
])
def test_a_wrong_key_in_the_note_sequence_is_refused(term: Terminal, kit, keys: str, said: str) -> None:
    playing(term, kit)
    assert term.type(keys) == []
    assert said in term.app.get_model().status


def test_spectators_read_notes_but_write_none(term: Terminal, kit) -> None:
    state = playing(term, kit, seat=None)
    assert term.type("n") == []
    assert "spectators read every player's notes" in term.app.get_model().status
    assert term.type(":note 1 f\r") == []
    term.feed(CardNotes(1, 0, (CardNote(state.hands[1][0], "alice thinks f"),)),
              CardNotes(1, 1, (CardNote(state.hands[0][0], "bob says cm"),)))
    term.type("N")
    screen = term.screen()
    assert "alice: " in screen and "alice thinks f" in screen and "bob: " in screen and "bob says cm" in screen


def test_the_notes_panel_lists_every_note_and_n_closes_it(term: Terminal, kit) -> None:
    state = playing(term, kit)
    term.feed(CardNotes(1, 0, (CardNote(state.hands[1][0], "cm"), CardNote(state.hands[0][2], "r1"))))
    term.type("N")
    screen = term.screen()
    assert "Notes (N closes this panel)" in screen
    assert "bob's slot 1" in screen and "cm (chop moved)" in screen
    assert "your slot 3" in screen and "r1" in screen and "likely R1" in screen
    term.type("N")
    assert "Notes (N closes" not in term.screen()


def test_a_noted_card_is_marked_and_a_note_naming_a_card_shows_it(term: Terminal, kit) -> None:
    state = playing(term, kit)
    own = state.hands[0][1]
    term.feed(CardNotes(1, 0, (CardNote(state.hands[1][0], "f"), CardNote(own, "b4"))))
    lines = term.screen().splitlines()
    bob = next(line for line in lines if "bob" in line)
    assert "*" in bob
    me = next(line for line in lines if "You (alice)" in line)
    assert "B4?" in me and "B4≠" not in me


def test_a_clue_that_rules_out_the_noted_card_flags_it(term: Terminal, kit) -> None:
    state = kit.game()
    own = state.hands[0][1]
    rank = state.deck[own].rank
    wrong = 1 if rank != 1 else 2
    # Seat 0 clues seat 1, seat 1 clues seat 0 with the rank of our slot 2: it cannot be of another rank.
    state = apply(kit.clue_something(state), Clue(0, rank=rank))
    playing(term, kit, state=state)
    term.feed(CardNotes(1, 0, (CardNote(own, f"r{wrong}"),)))
    me = next(line for line in term.screen().splitlines() if "You (alice)" in line)
    assert f"R{wrong}≠" in me and f"R{wrong}!" not in me  # "!" after a card is the last copy's mark
    term.feed(CardNotes(1, 0, (CardNote(own, f"g{rank}"),)))
    me = next(line for line in term.screen().splitlines() if "You (alice)" in line)
    assert f"G{rank}?" in me


def test_the_model_keeps_each_seat_s_notes_of_the_current_game_only(kit) -> None:
    model = ClientModel()
    for message in (Welcome(1, "s", "alice", "t", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
                    kit.view_message(kit.game(), 0)):
        model = reduce(model, message)
    model = reduce(model, CardNotes(1, 0, (CardNote(3, "f"), CardNote(1, "cm"))))
    model = reduce(model, CardNotes(1, 2, (CardNote(12, "x"),)))
    assert model.card_notes == ((0, 1, "cm"), (0, 3, "f"), (2, 12, "x"))
    model = reduce(model, CardNotes(1, 0, (CardNote(3, "f"),)))  # the whole set replaces the seat's
    assert model.card_notes == ((0, 3, "f"), (2, 12, "x"))
    assert reduce(model, CardNotes(7, 1, (CardNote(5, "old"),))) == model  # another game's: dropped
    assert reduce(model, GameStarted(1, 2)).card_notes == ()


# Many random games, every seat and screen: untraced by coverage (docs/developing.md); focused tests reach their lines.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant))
def test_random_games_with_notes_and_the_panel_fit_80x24(variant: Variant, tmp_path: Path) -> None:
    """Every seat and a spectator of random games of every size, with a note on every card in sight (some
    naming cards), the panel open or not: 24 rows of at most 80 columns, the keys bar whole."""
    rng = random.Random(f"notes {variant.value}")
    for players in range(2, 6):
        names = tuple(f"player {i} with a long name"[: 10 + i] for i in range(players))
        seats = tuple(SeatInfo(n, False, True) for n in names)
        info = TableInfo(1, "t", variant, False, False, ChatPolicy.ALWAYS, players, seats, False, True, 0, 0)
        state = new_game(GameConfig(players=players, variant=variant), rng.randrange(1000))
        for _ in range(rng.randrange(5, 40)):
            if state.over:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        drawn = len(state.deck) - state.deck_left
        notes = tuple(CardNote(o, rng.choice(["f", "cm", "r1", "b5 | y2", "x" * 100, "kt"])) for o in range(drawn))
        for seat in [*range(players), None]:
            with create_pipe_input() as pipe:
                term = Terminal(pipe, tmp_path)
                term.feed(Welcome(1, "s", names[seat] if seat is not None else "eve", "tok", ""),
                          Joined(info, seat), ViewUpdate(1, view_for(state, seat)))
                for writer in range(players) if seat is None else [seat]:
                    term.feed(CardNotes(1, writer, notes))
                for panel in (False, True):
                    term.app.ui.show_notes = panel
                    term.app.ui.show_knowledge = rng.random() < 0.5
                    lines = term.screen().splitlines()
                    assert len(lines) == 24 and all(len(line) <= 80 for line in lines), "\n".join(lines)
                    assert lines[-1].rstrip().endswith("quit"), "\n".join(lines)
                    assert ("Notes (N closes" in "\n".join(lines)) == panel


def test_the_replay_viewer_shows_the_notes_of_the_file(kit) -> None:
    state = kit.clue_something(kit.game())
    late = len(state.deck) - state.deck_left  # the card drawn after the first play: not in sight at the deal
    state = apply(state, next(a for a in legal_actions(state) if not isinstance(a, Clue)))
    notes = ({state.hands[2][0]: "alice's f"}, {0: "bob's cm", late: "drawn later"}, {})
    replay = from_json(json.loads(dumps(state, kit.NAMES, notes)))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        assert "N the players' notes" in screen_text(viewer.application)
        pipe.send_text("N" + "q")
        viewer.application.run()
        shown = screen_text(viewer.application)
        assert "alice: " in shown and "alice's f" in shown and "bob's cm" in shown
        assert "drawn later" not in shown  # at the deal that card is still in the deck
        pipe.send_text("\x1b[F" + "vv" + "q")  # End, then seen by bob: his notes only
        viewer.application.run()
        shown = screen_text(viewer.application)
    assert "drawn later" in shown and "bob's cm" in shown and "alice's f" not in shown


async def test_a_note_written_by_the_client_comes_back_on_another_machine(nursery: trio.Nursery, kit) -> None:
    """Over loopback TCP, with the real server: the note's acknowledgement reaches the model, and a fresh
    client (nothing but the resume token, as on another machine) gets it back with its seat."""
    config = ServerConfig(bot_delay=0.0, ping_interval=0.5, idle_timeout=5.0, shutdown_grace=0.2)
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=config,
                                                           task_status=task_status))
    address = Address("127.0.0.1", server.port)

    first = ModelStore()
    session = Session(address, "alice", first.get, first.dispatch, on_welcome=table_setup("alice", 2, Variant.NONE))
    nursery.start_soon(session.run)
    await kit.wait_for(first, lambda m: m.view is not None and m.seat == 0, "the game")
    assert first.model.view is not None
    order = first.model.view.hands[1][0].order
    session.send(WriteNote(order=order, text="f"))
    await kit.wait_for(first, lambda m: m.card_notes == ((0, order, "f"),), "the note's acknowledgement")
    token = first.model.resume
    session.stop()

    again = ModelStore(ClientModel(resume=token))
    elsewhere = Session(address, "alice", again.get, again.dispatch)
    nursery.start_soon(elsewhere.run)
    await kit.wait_for(again, lambda m: m.card_notes == ((0, order, "f"),), "the note back on the new client")
    elsewhere.stop()
    nursery.cancel_scope.cancel()


def test_a_long_note_shows_whole_in_the_prompt_at_80_columns(term: Terminal, kit) -> None:
    state = playing(term, kit)
    long = "turn 7: bob clued 4 here, so this is " + "y" * 60 + " end"
    term.feed(CardNotes(1, 0, (CardNote(state.hands[1][0], long[:100]),)))
    term.type("n21")
    assert long[:100] in term.app.ui.prompt and len(term.app.ui.prompt) <= 158
    status = [line for line in term.screen().splitlines()[-3:-1]]
    assert "".join(line.strip() for line in status).count("y") >= 60  # on screen in full, over two lines


def test_at_the_end_n_is_refused_and_the_panel_shows_every_seat_s_notes(term: Terminal, kit) -> None:
    state = kit.game()
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if not isinstance(a, Clue)))
    playing(term, kit, state=state)
    term.type("N")
    assert "Notes: none yet (n writes a note on a card)" in term.screen()
    term.feed(CardNotes(1, 0, (CardNote(0, "mine"),)), CardNotes(1, 2, (CardNote(1, "cathy's"),)))
    assert term.type("n") == []
    assert "the game is over: notes are written while it runs" in term.app.get_model().status
    screen = term.screen()
    assert "alice: " in screen and "mine" in screen and "cathy: " in screen and "cathy's" in screen


def test_without_a_game_note_says_so(term: Terminal, kit) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(), 0))
    assert term.type(":note 1 f\r") == []
    assert "notes are written during a game" in term.app.get_model().status


def test_tab_completes_note_with_our_slots_and_the_others_names(kit) -> None:
    view = view_for(kit.game(), 0)
    completer = CommandCompleter(lambda: view, lambda: kit.NAMES)
    assert [c.text for c in completer.get_completions(Document("no"), CompleteEvent())] == ["note"]
    offered = [c.text for c in completer.get_completions(Document("note "), CompleteEvent())]
    assert offered == ["1", "2", "3", "4", "5", "bob", "cathy"]


def test_a_note_follows_its_card_when_the_hand_moves(term: Terminal, kit) -> None:
    state = playing(term, kit)
    first = state.hands[0][0]
    term.feed(CardNotes(1, 0, (CardNote(first, "f"),)))
    term.app.ui.show_notes = True
    assert "your slot 1" in term.screen()
    for _ in range(3):  # a clue from each seat: our turn again, with clue tokens to spare
        state = kit.clue_something(state)
    state = apply(state, Discard(state.hands[0][2]))  # a new card comes into slot 1; the noted one moves on
    term.feed(kit.view_message(state, 0))
    assert state.hands[0][1] == first
    assert "your slot 2" in term.screen() and "your slot 1" not in term.screen()


def test_pgdn_and_pgup_scroll_a_long_notes_panel(term: Terminal, kit) -> None:
    state = playing(term, kit)
    cards = [cv for hand in state.hands for cv in hand]
    term.feed(CardNotes(1, 0, tuple(CardNote(order, f"note {i}") for i, order in enumerate(cards))))
    term.type("N")
    screen = term.screen()
    assert "PgDn scrolls" in screen and "note 0" in screen
    term.type("\x1b[6~")  # PgDn: five notes further
    screen = term.screen()
    assert "5 above" in screen and "note 0" not in screen and "note 5" in screen
    term.type("\x1b[5~")  # PgUp: back to the top
    assert "note 0" in term.screen()


def test_the_panel_names_an_own_card_the_clues_pinned_down_as_the_board_does(term: Terminal, kit) -> None:
    """A card known from clues that passed it by (none touched it) shows as W3 on the board: the panel says W3
    too, not the "·" of a card no clue touched."""
    state = playing(term, kit)
    view = view_for(state, 0)
    w3 = Card(Suit.WHITE, 3)
    pinned = CardKnowledge(1 << w3.identity, not_colours=0b01111, not_ranks=0b11011)  # every clue but white, 3
    hand = (dataclasses.replace(view.hands[0][0], knowledge=pinned), *view.hands[0][1:])
    term.feed(ViewUpdate(1, dataclasses.replace(view, hands=(hand, *view.hands[1:]))),
              CardNotes(1, 0, (CardNote(hand[0].order, "keep"),)))
    term.type("N")
    lines = term.screen().splitlines()
    assert "W3" in next(line for line in lines if "You (alice)" in line)
    assert "your slot 1 W3 keep" in [line.strip() for line in lines]


def test_esc_closes_the_replay_viewer_s_notes_panel(kit) -> None:
    replay = from_json(json.loads(dumps(kit.game(), kit.NAMES, ({}, {}, {}))))
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(replay, "game.json", input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("N" + "q")
        viewer.application.run()
        assert "Notes: none in this file" in screen_text(viewer.application)  # n is no note key here
        pipe.send_text("\x1b" + "q")
        viewer.application.run()
        assert "Notes: none in this file" not in screen_text(viewer.application)
