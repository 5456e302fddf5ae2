"""Notes on cards at the server: kept in the store, redacted over the real wire, in the replay at the end.

The redaction test reads the raw bytes of every frame each client received
before the game ended, so no decoder can hide a leak: a seat's note text
never reaches another seat while the game runs.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
import trio
from hanabi.protocol import HEADER, PROTOCOL_VERSION
from hanabi.protocol.messages import (
    CardNote,
    CardNotes,
    CreateTable,
    ErrorReply,
    GameOver,
    GameStarted,
    GetReplay,
    Join,
    Joined,
    ReplayFile,
    Spectate,
    Start,
    ViewUpdate,
    WriteNote,
)

from .conftest import Client, Connect, alone_with_bots
from .test_server_tables import play_out
from .test_server_tcp import _client, _start_server_process, kill_and_restart, playing_pair

pytestmark = pytest.mark.virtual_time


async def _table_of_two(connect: Connect) -> tuple[Client, Client, Client, ViewUpdate, ViewUpdate]:
    """Alice (seat 0) and Bob (seat 1) playing, Cy watching: their clients and the players' first views."""
    alice, bob, cy = await connect("Alice"), await connect("Bob"), await connect("Cy")
    await alice.send(CreateTable(name="notes", seats=2))
    table = (await alice.expect(Joined)).table.id
    await bob.send(Join(table=table))
    await bob.expect(Joined)
    await cy.send(Spectate(table=table))
    await cy.expect(Joined)
    await alice.send(Start())
    for c in (alice, bob, cy):
        await c.expect(GameStarted)
    return alice, bob, cy, await alice.expect(ViewUpdate), await bob.expect(ViewUpdate)


@pytest.mark.real_time  # redaction, over the real wire
async def test_notes_stay_private_to_their_seat_over_tcp_until_the_game_ends(tcp_connect: Connect) -> None:
    alice, bob, cy, a_view, b_view = await _table_of_two(tcp_connect)
    alice_own = a_view.view.hands[0][0].order
    bobs_card = a_view.view.hands[1][2].order
    await alice.send(WriteNote(order=alice_own, text="alice-secret-own", id=1))
    ack = await alice.expect(CardNotes, where=lambda m: m.id == 1)
    assert ack.seat == 0 and ack.notes == (CardNote(alice_own, "alice-secret-own"),)
    await alice.send(WriteNote(order=bobs_card, text="alice-secret-f", id=2))
    ack = await alice.expect(CardNotes, where=lambda m: m.id == 2)
    assert [n.text for n in ack.notes] == ["alice-secret-own", "alice-secret-f"][::1 if alice_own < bobs_card else -1]
    await bob.send(WriteNote(order=b_view.view.hands[0][1].order, text="bob-secret-cm", id=3))
    await bob.expect(CardNotes, where=lambda m: m.id == 3)
    # The spectator sees both players' notes as they are written.
    watched = [m for m in [await cy.expect(CardNotes) for _ in range(3)]]
    assert {(m.seat, n.text) for m in watched for n in m.notes} >= {(0, "alice-secret-f"), (1, "bob-secret-cm")}

    over = await play_out({0: alice, 1: bob})
    assert over.outcome is not None
    for client, others in ((alice, b"bob-secret"), (bob, b"alice-secret")):
        if not any(t["t"] == "game_over" for t in client.trees):
            await client.expect(GameOver)
        over_at = next(i for i, t in enumerate(client.trees) if t["t"] == "game_over")
        assert not any(others in body for body in client.raw[:over_at]), "a seat received another's note mid-game"
        # Once the game is over, everyone gets every seat's notes, and the replay carries them.
        replay = await client.expect(ReplayFile)
        notes = json.loads(replay.json)["notes"]
        assert notes[0][bobs_card] == "alice-secret-f" and "bob-secret-cm" in notes[1]
        told = {n.text for t in client.trees[over_at:] if t["t"] == "notes" for n in
                (CardNote(x["order"], x["text"]) for x in t["notes"])}
        assert {"alice-secret-f", "bob-secret-cm"} <= told
    for c in (alice, bob, cy):
        await c.stream.aclose()


async def test_a_note_is_refused_with_a_sentence_when_it_may_not_be_written(connect: Connect) -> None:
    alice, _, cy, a_view, _ = await _table_of_two(connect)
    await cy.send(WriteNote(order=0, text="f", id=1))
    assert (await cy.expect(ErrorReply)).code == "not_seated"
    in_deck = a_view.view.deck_size - a_view.view.deck_left
    await alice.send(WriteNote(order=in_deck, text="f", id=2))
    refused = await alice.expect(ErrorReply)
    assert refused.code == "illegal_action" and "still in the deck" in refused.message
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "write_note", "order": 0, "text": "x" * 101, "id": 3})
    await alice.send_raw(HEADER.pack(len(body)) + body)  # our encoder would not even send it
    assert (await alice.expect(ErrorReply, where=lambda m: m.id == 3)).code == "bad_field"
    await alice.send(WriteNote(order=0, text="f", id=5))
    await alice.expect(CardNotes, where=lambda m: m.id == 5)
    # Deleting: the empty text.
    await alice.send(WriteNote(order=0, text="", id=4))
    ack = await alice.expect(CardNotes, where=lambda m: m.id == 4)
    assert all(n.order != 0 for n in ack.notes)


async def test_a_seat_may_note_every_card_it_sees_at_the_start(connect: Connect) -> None:
    alice, view = await alone_with_bots(connect, seats=5)
    dealt = view.deck_size - view.deck_left  # 20 cards: 20 notes of 100 characters are the 2,000 allowed
    for order in range(dealt):
        await alice.send(WriteNote(order=order, text=f"{order:<100}", id=order))
        await alice.expect(CardNotes, where=lambda m, order=order: m.id == order)
    await alice.send(WriteNote(order=0, text="y" * 100, id=50))  # replacing one keeps the total
    assert len((await alice.expect(CardNotes, where=lambda m: m.id == 50)).notes) == dealt


def test_a_seat_s_notes_together_have_a_limit() -> None:
    from hanabi.engine import GameConfig, Play, apply, new_game
    from hanabi.server.game import Game
    from hanabi.server.session import Refused

    state = new_game(GameConfig(players=5, first_seat=0), "s")
    state = apply(state, Play(state.hands[0][0]))
    state = apply(state, Play(state.hands[1][0]))
    game = Game(1, "s", ("a", "b", "c", "d", "e"), state)  # 22 cards drawn
    for order in range(20):
        game.check_note(0, order, "n" * 100)
        game.write_note(0, order, "n" * 100)
    game.check_note(0, 5, "m" * 100)  # replacing a note: the same total
    game.check_note(0, 20, "")  # no note adds nothing
    with pytest.raises(Refused, match="2001 characters") as refused:
        game.check_note(0, 20, "m")
    assert refused.value.code == "bad_field"
    game.write_note(0, 5, "")  # deleted: room again
    game.check_note(0, 20, "m" * 100)


async def test_after_the_game_notes_are_refused(connect: Connect) -> None:
    alice, bob, _, _, _ = await _table_of_two(connect)
    await play_out({0: alice, 1: bob})
    await alice.send(WriteNote(order=0, text="late", id=9))
    refused = await alice.expect(ErrorReply, where=lambda m: m.id == 9)
    assert refused.code == "game_not_running"


@pytest.mark.real_time  # a server process, killed and started again
async def test_notes_survive_a_kill_of_the_server_and_come_back_on_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, port = await _start_server_process(db)
    try:
        alice, bob, views = await playing_pair(port)
        view, game = views[0].view, views[0].game
        bobs = view.hands[1][0].order
        await alice.send(WriteNote(order=bobs, text="finessed ✓", id=7))
        await alice.expect(CardNotes, where=lambda m: m.id == 7)  # acknowledged: it must survive what follows
    finally:
        proc, port = await kill_and_restart(proc, db, alice, bob)
    try:
        # Alice comes back (from another machine: only her token), Bob too.
        again = await _client(port, "x", alice.token)  # type: ignore[attr-defined]
        await again.expect(ViewUpdate)
        notes = await again.expect(CardNotes)
        assert notes.seat == 0 and notes.notes == (CardNote(bobs, "finessed ✓"),)
        bob_again = await _client(port, "y", bob.token)  # type: ignore[attr-defined]
        await bob_again.expect(ViewUpdate)
        assert (await bob_again.expect(CardNotes)).notes == ()  # his own (none), not Alice's
        await bob_again.flush()
        assert not any(b"finessed" in body for body in bob_again.raw)
        await play_out({0: again, 1: bob_again})
        await again.send(GetReplay(game=game, id=3))
        replay = await again.expect(ReplayFile, where=lambda m: m.id == 3)
        assert json.loads(replay.json)["notes"][0][bobs] == "finessed ✓"
    finally:
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(10):
            await proc.wait()
    out = subprocess.run([sys.executable, "-m", "hanabi.server", "export", str(game), "--db", str(db)],
                         capture_output=True, text=True, timeout=30, check=True)
    assert json.loads(out.stdout)["notes"][0][bobs] == "finessed ✓"


def test_every_seat_s_notes_at_their_limit_fit_the_frames_of_the_game_s_end() -> None:
    """Five seats, each with 2,000 characters of notes in 4-byte characters, at the end of a long six-suit
    game: the notes and the replay still go out as themselves, not as the error a frame too big becomes."""
    import random

    from hanabi.engine import Clue, Discard, GameConfig, Variant, apply, legal_actions, new_game
    from hanabi.protocol import Decoder
    from hanabi.server.game import Game

    rng = random.Random(5)
    state = new_game(GameConfig(players=5, variant=Variant.SIX_SUITS), "long")
    while not state.over:  # a clue whenever possible, else a discard, never a strike: the longest games
        actions = legal_actions(state)
        state = apply(state, rng.choice([a for a in actions if isinstance(a, Clue)]
                                        or [a for a in actions if isinstance(a, Discard)]))
    game = Game(1, "long", tuple(f"{'Ω' * 30}{i}" for i in range(5)), state)
    for seat in range(5):
        for order in range(20):
            game.write_note(seat, order * 3 % len(state.deck), "🎆" * 100)
    received = Decoder(peer="server").feed(game.over_frames(game.replay_json()))
    assert [type(m).__name__ for m in received] == ["GameOver"] + ["CardNotes"] * 5 + ["ReplayFile"]
    replay = json.loads(received[-1].json)  # type: ignore[union-attr]
    assert sum(len(note) for note in replay["notes"][4]) == 2000 and state.turn > 60


def test_a_note_of_two_lines_is_refused_by_the_game_too() -> None:
    """The protocol refuses it first; the game's own check (the engine's rule) says the same."""
    from hanabi.engine import GameConfig, new_game
    from hanabi.server.game import Game
    from hanabi.server.session import Refused

    game = Game(1, "s", ("a", "b"), new_game(GameConfig(players=2), "s"))
    with pytest.raises(Refused, match="one line") as refused:
        game.check_note(0, 0, "two\nlines")
    assert refused.value.code == "bad_field"
