"""A spectator watching as one player: v asks for the next seat, and the board shows that seat's view as its own."""

from __future__ import annotations

from hanabi.engine import view_for
from hanabi.protocol.messages import (
    CardNote,
    CardNotes,
    GameStarted,
    Joined,
    ViewUpdate,
    WatchingSeat,
    WatchSeat,
    Welcome,
)


def test_v_walks_the_seats_then_every_hand_again(term, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              ViewUpdate(1, view_for(state, None)))
    assert " v as a player " in term.screen().splitlines()[-1]
    assert term.type("v") == [WatchSeat(0)]
    term.feed(WatchingSeat(1, 2))
    term.sent.clear()
    assert term.type("v") == [WatchSeat(None)]  # after the last seat: every hand again


def test_watching_as_a_seat_shows_its_hand_hidden_and_named_and_keeps_only_its_notes(term, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              ViewUpdate(1, view_for(state, None)),
              CardNotes(1, 0, (CardNote(state.hands[1][0], "alice's"),)),
              CardNotes(1, 1, (CardNote(state.hands[0][0], "bob's"),)))
    term.feed(WatchingSeat(1, 1), ViewUpdate(1, view_for(state, 1)))
    model = term.store.model
    assert model.watching_as == 1 and model.seat is None
    assert [n[0] for n in model.card_notes] == [1]  # alice's note is not bob's to read
    assert "Watching as bob" in model.status
    text = term.screen()
    assert "You (" not in text and "your turn" not in text
    row = next(line for line in text.splitlines() if "bob (watched)" in line)
    assert str(state.deck[state.hands[1][0]]) not in row
    alice = next(line for line in text.splitlines() if " alice " in line)
    assert str(state.deck[state.hands[0][0]]) in alice
    assert term.type("p1") == [] and "spectators watch" in term.store.model.status  # bob's view, not his seat
    assert term.type(":play 1\r") == [] and "spectators watch" in term.store.model.status
    sent = term.type("n")  # watching as bob is no seat: no note is written from it
    assert sent == [] and "spectators read every player's notes" in term.store.model.status
    term.feed(Joined(kit.table(running=True), None))  # back after the server's restart: every hand, unless told
    assert term.store.model.watching_as is None
    term.feed(WatchingSeat(1, 1))
    term.feed(Joined(kit.table(running=True), 2))  # taking a seat: one's own view, no longer another's
    assert term.store.model.watching_as is None


def test_no_bell_rings_for_the_turn_of_the_player_watched(term, kit, monkeypatch) -> None:
    rings: list[int] = []
    monkeypatch.setattr(term.app.application.output, "bell", lambda: rings.append(1))
    state = kit.game()  # alice acts first
    term.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              WatchingSeat(1, 0), ViewUpdate(1, view_for(state, 0)))
    term.screen()
    assert rings == []


def test_a_rewind_watching_as_the_player_to_act_does_not_say_it_is_our_turn(term, kit) -> None:
    state = kit.clue_something(kit.game())  # bob to act
    term.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              WatchingSeat(1, 1), ViewUpdate(1, view_for(state, 1)))
    term.type("r")
    status = term.app.ui.rewind.status(term.store.model)  # type: ignore[union-attr]
    assert "REWIND" in status and "YOUR TURN" not in status and "live: bob to act" in status
