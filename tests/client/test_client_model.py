"""The client's model is a pure reducer of server messages: no loop, no sockets, just values in and out."""

from __future__ import annotations

import re
from dataclasses import replace

from hanabi.client.history import describe_all
from hanabi.client.model import ClientModel, ClockAt, LeftTable, Link, LinkChanged, Note, reduce
from hanabi.engine import Discard, EndReason, Outcome, Play, Rearrange, apply
from hanabi.protocol.messages import (
    Chat,
    ErrorReply,
    GameOver,
    GameStarted,
    Goodbye,
    Joined,
    ReplayFile,
    SeatStatus,
    TableChanged,
    TableGone,
    Tables,
    Welcome,
)
from prompt_toolkit.formatted_text import to_plain_text


def text_of(model: ClientModel) -> list[str]:
    """The log's lines without their turn numbers."""
    return [re.sub(r"^ *\d* ", "", to_plain_text(line.fragments)) if line.kind == "event"
            else to_plain_text(line.fragments) for line in model.log]


def seated(kit, seat: int | None = 0) -> ClientModel:
    model = reduce(ClientModel(), Welcome(1, "test", "alice", "tok", "hello"))
    return reduce(model, Joined(kit.table(), seat))


def test_welcome_sets_identity_and_link() -> None:
    model = reduce(ClientModel(), Welcome(1, "hanabi-server", "alice", "secret-token", "Have fun"))
    assert model.player == "alice"
    assert model.resume == "secret-token"
    assert model.motd == "Have fun"
    assert model.link is Link.ONLINE
    assert "alice" in model.status


def test_reducer_does_not_change_its_input(kit) -> None:
    before = ClientModel()
    after = reduce(before, Tables((kit.table(),)))
    assert before.tables == ()
    assert len(after.tables) == 1


def test_tables_changed_and_gone(kit) -> None:
    model = reduce(ClientModel(), Tables((kit.table(id=2), kit.table(id=1))))
    assert [t.id for t in model.tables] == [1, 2]
    changed = kit.table(("alice", None, None), id=2, running=True)
    model = reduce(model, TableChanged(changed))
    assert model.tables[1].running
    model = reduce(model, TableGone(1))
    assert [t.id for t in model.tables] == [2]


def test_joined_then_our_table_closes(kit) -> None:
    model = seated(kit, 1)
    assert model.seat == 1 and model.table is not None and model.names == kit.NAMES
    model = reduce(model, TableGone(1))
    assert model.table is None and model.seat is None
    assert model.status_error


def test_host_is_known_from_the_table(kit) -> None:
    assert seated(kit, 0).is_host
    assert not seated(kit, 1).is_host


def test_view_updates_log_every_event_once(kit) -> None:
    model = reduce(seated(kit), GameStarted(1, 1))
    state = kit.game()
    state = kit.clue_something(state)
    model = reduce(model, kit.view_message(state, 0))
    state = kit.clue_something(state)
    model = reduce(model, kit.view_message(state, 0))
    model = reduce(model, kit.view_message(state, 0))  # the same view again adds nothing
    lines = [t for t in text_of(model) if "clues" in t]
    assert len(lines) == 2
    assert lines[0].startswith("alice clues bob: ")
    assert lines[1].startswith("bob clues cathy: ")
    assert model.logged_events == 2
    numbered = [to_plain_text(line.fragments) for line in model.log if line.kind == "event"]
    assert numbered[0].startswith("  1 alice clues") and numbered[1].startswith("  2 bob clues")


def test_log_names_slots_of_plays_and_discards(kit) -> None:
    model = reduce(seated(kit), GameStarted(1, 1))
    state = kit.clue_something(kit.game())
    bob_slot_3 = state.hands[1][2]
    state = apply(state, Discard(bob_slot_3))
    cathy_slot_1 = state.hands[2][0]
    state = apply(state, Play(cathy_slot_1))
    model = reduce(model, kit.view_message(state, 0))
    lines = text_of(model)
    card = state.deck[bob_slot_3]
    assert f"bob discards {card} from slot 3 (+1 clue)" in lines
    played = state.deck[cathy_slot_1]
    assert any(line.startswith("cathy ") and f"{played} from slot 1" in line for line in lines)


def test_log_follows_a_rearranged_hand(kit) -> None:
    state = kit.game()
    hand = state.hands[0]
    state = apply(state, Rearrange(0, hand[::-1]))
    state = apply(state, Play(hand[0]))  # was slot 1, now the last slot
    lines, hands = describe_all(state.config, state.events, kit.NAMES, len(state.deck))
    assert to_plain_text(lines[0]) == "alice rearranges their hand"
    assert f"from slot {len(hand)}" in to_plain_text(lines[1])
    assert hands == state.hands


def test_a_new_game_restarts_the_log_count(kit) -> None:
    model = reduce(seated(kit), GameStarted(1, 1))
    state = kit.clue_something(kit.game())
    model = reduce(model, kit.view_message(state, 0, game_id=1))
    model = reduce(model, GameStarted(1, 2))
    assert model.view is None and model.logged_events == 0
    fresh = kit.clue_something(kit.game(seed=8))
    model = reduce(model, kit.view_message(fresh, 0, game_id=2))
    assert model.game == 2
    assert sum("clues" in t for t in text_of(model)) == 2  # one line per game, both kept in the log


def test_chat_goes_to_chat_and_log(kit) -> None:
    model = reduce(seated(kit), Chat("hi there", 1, "bob"))
    assert model.chat == (("bob", "hi there"),)
    assert text_of(model)[-1] == "<bob> hi there"
    assert model.log[-1].kind == "chat"


def test_error_reply_shows_in_the_status_line(kit) -> None:
    model = reduce(seated(kit), ErrorReply("action", "not_your_turn", "it is not your turn", None))
    assert model.status_error
    assert "it is not your turn" in model.status


def test_an_unknown_resume_token_takes_us_back_to_the_lobby(kit) -> None:
    model = reduce(seated(kit), kit.view_message(kit.game(), 0))
    assert model.view is not None
    model = reduce(model, LinkChanged(Link.RECONNECTING))
    model = reduce(model, Welcome(1, "test", "alice", "new-token", ""))
    model = reduce(model, ErrorReply("hello", "bad_resume", "that resume token is not known here", None))
    assert model.table is None and model.view is None and model.seat is None
    assert model.status == ("This server does not know your earlier seat (its store may have been reset): you are "
                            "in the lobby.") and not model.status_error
    assert "back in the lobby" in text_of(model)[-1]
    # Tables arriving next do not bring the old table back as ours.
    assert reduce(model, Tables((kit.table(),))).table is None


def test_a_first_connection_with_a_token_from_another_server_is_told_what_happened_not_refused(kit) -> None:
    model = reduce(ClientModel(), Welcome(1, "test", "alice", "new-token", ""))
    model = reduce(model, ErrorReply("hello", "bad_resume", "that resume token is not known here", None))
    assert "Refused" not in model.status and not model.status_error
    assert model.status.startswith("This server does not know your earlier seat")


def test_after_a_reconnection_without_our_seat_the_table_is_left(kit) -> None:
    model = reduce(seated(kit), kit.view_message(kit.game(), 0))
    model = reduce(model, LinkChanged(Link.RECONNECTING))
    model = reduce(model, Welcome(1, "test", "alice", "tok", ""))
    assert model.rejoining and model.table is not None
    model = reduce(model, Tables((kit.table(),)))  # the list came, and no ``joined`` before it
    assert model.table is None and model.view is None and not model.rejoining
    assert "no longer at table" in model.status


def test_after_a_reconnection_with_our_seat_the_table_stays(kit) -> None:
    model = reduce(seated(kit), kit.view_message(kit.game(), 0))
    model = reduce(model, LinkChanged(Link.RECONNECTING))
    model = reduce(model, Welcome(1, "test", "alice", "tok", ""))
    model = reduce(model, Joined(kit.table(), 0))
    model = reduce(model, Tables((kit.table(),)))
    assert model.table is not None and model.view is not None and model.seat == 0


def test_reconnected_says_the_game_goes_on_only_at_a_game(kit) -> None:
    at_game = reduce(reduce(seated(kit), kit.view_message(kit.game(), 0)), LinkChanged(Link.RECONNECTING))
    assert reduce(at_game, Welcome(1, "test", "alice", "tok", "")).status == "Reconnected as alice: the game goes on."
    lobby = reduce(reduce(ClientModel(), Welcome(1, "test", "alice", "tok", "")), LinkChanged(Link.RECONNECTING))
    assert reduce(lobby, Welcome(1, "test", "alice", "tok", "")).status == "Reconnected as alice."


def test_a_refusal_is_cleared_when_the_turn_moves_on(kit) -> None:
    state = kit.game()
    model = reduce(seated(kit), kit.view_message(state, 0))
    model = reduce(model, ErrorReply("action", "not_your_turn", "it is not your turn", None))
    model = reduce(model, kit.view_message(state, 0))  # the same turn again: the refusal stays
    assert model.status_error and "not your turn" in model.status
    model = reduce(model, kit.view_message(kit.clue_something(state), 0))
    assert not model.status_error and model.status == ""
    model = reduce(model, Note("Replay saved"))  # a plain notice is not an error: the next turn keeps it
    later = kit.clue_something(kit.clue_something(state))
    model = reduce(model, kit.view_message(later, 0))
    assert model.status == "Replay saved"
    # ... but not for ever: our turn, when it comes, is said in its place (three players: alice clued, bob, then cathy)
    assert kit.clue_something(later).current == 0
    assert reduce(model, kit.view_message(kit.clue_something(later), 0)).status == "Your turn."
    # and, with no turn of ours (watching), two moves after it was said
    eve = reduce(reduce(seated(kit, None), kit.view_message(state, None)), Note("You lead the review"))
    eve = reduce(eve, kit.view_message(kit.clue_something(state), None))
    assert eve.status == "You lead the review"
    assert reduce(eve, kit.view_message(later, None)).status == ""


def test_seat_status_marks_a_player_disconnected_and_back(kit) -> None:
    model = seated(kit)
    model = reduce(model, SeatStatus(1, 2, False))
    assert model.table is not None and model.table.players[2] is not None
    assert not model.table.players[2].connected
    assert text_of(model)[-1] == "cathy lost their connection."
    model = reduce(model, SeatStatus(1, 2, True))
    assert text_of(model)[-1] == "cathy is back."
    other_table = reduce(model, SeatStatus(9, 2, False))
    assert other_table == model


def test_game_over_and_replay(kit) -> None:
    model = reduce(seated(kit), GameStarted(1, 1))
    outcome = Outcome(EndReason.STRIKEOUT, 0, 25, "the third strike: the fireworks exploded")
    state = kit.game()
    model = reduce(model, GameOver(1, outcome, state.deck, "7"))
    assert model.game_over is not None and model.game_over.outcome.score == 0
    assert text_of(model)[-1] == "— the game ends —"  # the end screen shows the result: once is enough
    assert model.status == ""  # nor the status line
    again = reduce(model, GameStarted(1, 2))
    assert text_of(again)[-2:] == ["— the last game ended 0/25: horrible, booed by the crowd —",
                                   "— a new game starts —"]
    model = reduce(model, ReplayFile(1, '{"players": []}'))
    assert model.replay == (1, '{"players": []}')


def test_goodbye_keeps_the_reason(kit) -> None:
    model = reduce(seated(kit), Goodbye("server_shutdown", "the server is shutting down"))
    assert model.farewell == "the server is shutting down"
    assert model.status_error


def test_local_notes(kit) -> None:
    model = reduce(ClientModel(), LinkChanged(Link.RECONNECTING, "host:7777", "reconnecting…"))
    assert model.link is Link.RECONNECTING and model.address == "host:7777"
    model = reduce(model, Note("saved", log=True))
    assert model.status == "saved" and text_of(model)[-1] == "saved"
    seated_model = replace(seated(kit), view=kit.view_message(kit.game(), 0).view)
    left = reduce(seated_model, LeftTable())
    assert left.table is None and left.view is None


def test_a_clock_of_the_table_just_left_says_nothing_in_the_lobby(kit) -> None:
    from hanabi.protocol.messages import GameClock

    model = replace(seated(kit), view=kit.view_message(kit.game(), 0).view, game=1)
    left = reduce(model, LeftTable())
    # The table pauses itself as our seat empties; its clock may come after we are in the lobby.
    late = reduce(left, ClockAt(GameClock(1, (), None, True, "the game paused itself: alice is away"), 1.0))
    assert late.status == "You left the table." and late.clock is None


def test_a_table_watched_earlier_leaves_nothing_in_the_next_tables_log(kit) -> None:
    model = reduce(ClientModel(), Welcome(1, "test", "dave", "tok", ""))
    model = reduce(model, Joined(kit.table(id=1, running=True), None))  # watching table 1
    model = reduce(model, GameStarted(1, 3))
    model = reduce(model, kit.view_message(kit.clue_something(kit.game()), None, game_id=3))
    model = reduce(model, Chat("gg", 1, "bob"))
    assert text_of(model) and model.chat
    model = reduce(model, LeftTable())
    model = reduce(model, Joined(kit.table(("dave", None), id=2), 0))  # our own table now
    assert text_of(model) == [] and model.chat == ()
    model = reduce(model, GameStarted(2, 4))
    assert text_of(model) == ["— a new game starts —"]  # not "game 4": the server counts every table's games


def test_the_end_of_a_game_we_left_does_not_bring_it_back(kit) -> None:
    state = kit.game()
    model = reduce(seated(kit), GameStarted(1, 1))
    model = reduce(model, kit.view_message(state, 0))
    model = reduce(model, LeftTable())
    # The server ends the game for everyone, the player who left included, after the client has left.
    outcome = Outcome(EndReason.TERMINATED, 0, 25, "alice left the table")
    late = reduce(model, GameOver(1, outcome, state.deck, "7"))
    late = reduce(late, kit.view_message(state, 0))
    assert late == model and late.view is None and late.game_over is None


def test_the_log_names_who_held_a_handed_seat_at_each_turn(kit) -> None:
    from hanabi.protocol.messages import Holder, SeatHanded

    state = kit.game()
    for _ in range(5):  # turns 0..4: seats 0, 1, 2, 0, 1 give a clue each
        state = kit.clue_something(state)
    # bob held seat 1 at the deal, Bot Ada from turn 1, bob again from turn 4: he gets it back and reads the log.
    holders = (Holder(0, 1, "bob"), Holder(1, 1, "Bot Ada"), Holder(4, 1, "bob"))
    model = reduce(ClientModel(), Welcome(1, "test", "bob", "tok", ""))
    model = reduce(model, Joined(kit.table(running=True), 1, holders=holders))
    model = reduce(model, kit.view_message(state, 1))
    lines = text_of(model)
    assert lines[1].startswith("Bot Ada clues") and lines[4].startswith("bob clues"), lines
    # The one clued is named as at that turn too: bob at turn 0, the bot at turn 3.
    assert lines[0].startswith("alice clues bob:") and lines[3].startswith("alice clues Bot Ada:"), lines
    # Told live: a hand-over at turn 5 names the new holder from then on, and the old one before.
    handed = reduce(model, SeatHanded(1, 2, "Bot Basil", True, "cathy", "alice", turn=5))
    assert handed.names_at(4)[2] == "cathy" and handed.names_at(5)[2] == "Bot Basil"


def test_our_turn_is_said_at_its_start_and_again_after_a_reconnection(kit) -> None:
    state = kit.game()
    assert state.current == 0
    model = reduce(seated(kit), kit.view_message(state, 0))
    assert model.status == "Your turn."
    model = reduce(model, Note("Note written"))
    assert reduce(model, kit.view_message(state, 0)).status == "Note written"  # the same turn: said once
    model = reduce(model, LinkChanged(Link.RECONNECTING))
    model = reduce(model, Welcome(1, "test", "alice", "tok", ""))
    model = reduce(model, Joined(kit.table(), 0))
    assert model.status == "You are at table 'table 1', seat 1."
    model = reduce(model, kit.view_message(state, 0))
    assert model.status == "Your turn."
    # Once we moved, it is no longer true: the move, a newer line of the log, takes it away.
    model = reduce(model, kit.view_message(kit.clue_something(state), 0))
    assert model.status == ""
