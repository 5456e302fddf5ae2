"""Review together, history and who is here, on virtual time over in-memory streams (a restart over TCP).

A finished game puts its table in a review that every screen follows: the
leader steps and points, hands the lead on, the host takes it back from a
leader who is gone; a new game ends it. Any finished game opens as a review,
never one still running. The history lists the asker's games first; the lobby
hears who is online, a table who watches it.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.engine import replay
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    Games,
    GameStarted,
    Join,
    Joined,
    Leave,
    ListGames,
    ListOnline,
    Online,
    OpenReview,
    ReplayFile,
    Review,
    ReviewLead,
    ReviewPoint,
    ReviewStep,
    SeatStatus,
    Spectate,
    Start,
    ViewUpdate,
    Watchers,
)

from .conftest import Client, Connect, settle
from .test_server_tables import play_out
from .test_server_tcp import _client as tcp_client
from .test_server_tcp import _start_server_process as start_server_process


async def started_table(connect: Connect, host: str, guest: str) -> tuple[Client, Client, int, int]:
    """``host`` and ``guest`` at a 2-seat table whose game has started; their clients, the table and the game."""
    alice, bob = await connect(host), await connect(guest)
    await alice.send(CreateTable(name=f"{host}'s", seats=2))
    table = (await alice.expect(Joined)).table.id
    await bob.send(Join(table=table))
    await bob.expect(Joined)
    await alice.send(Start())
    return alice, bob, table, (await alice.expect(GameStarted)).game


async def finished_table(connect: Connect, host: str = "Alice", guest: str = "Bob") -> tuple[Client, Client, int,
                                                                                              int]:
    """``host`` and ``guest`` play a 2-seat game to its end; their clients, the table and the game."""
    alice, bob, table, game = await started_table(connect, host, guest)
    await play_out({0: alice, 1: bob})
    return alice, bob, table, game


async def refusal(client: Client, code: str) -> ErrorReply:
    error = await client.expect(ErrorReply)
    assert error.code == code, error
    return error


def steps_in(text: str) -> int:
    """The last step of a replay file as the client's viewer counts it."""
    from hanabi.client.replayer import game_steps

    return len(game_steps(replay.from_json(json.loads(text)))) - 1


pytestmark = pytest.mark.virtual_time


async def test_a_finished_game_is_reviewed_together_following_the_leader(connect: Connect) -> None:
    alice, bob, table, game = await finished_table(connect)
    replays = {c.name: await c.expect(ReplayFile) for c in (alice, bob)}
    for c in (alice, bob):
        start = await c.expect(Review)
        # The host leads, showing the end of the game, whose last step the client counts the same way.
        assert (start.table, start.game, start.leader, start.pointer) == (table, game, "Alice", None)
        assert start.step == start.last == steps_in(replays[c.name].json) > 10
    await alice.send(ReviewStep(step=3))
    for c in (alice, bob):
        assert (await c.expect(Review)).step == 3
    await bob.send(ReviewStep(step=5))  # only the leader steps for everyone
    assert "Alice leads" in (await refusal(bob, "not_leader")).message
    await alice.send(ReviewStep(step=99_999 % 10_002))  # past the end: the end
    assert (await bob.expect(Review)).step == start.last


async def test_a_spectator_arriving_gets_the_game_and_the_review_and_everyone_sees_who_watches(
        connect: Connect) -> None:
    alice, bob, table, game = await finished_table(connect)
    await alice.send(ReviewStep(step=4))
    await bob.expect(Review, where=lambda r: r.step == 4)
    carol = await connect("Carol")
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    assert (await carol.expect(ReplayFile)).game == game
    review = await carol.expect(Review)
    assert (review.step, review.leader) == (4, "Alice")
    assert (await carol.expect(Watchers, where=lambda w: "Carol" in w.names)).table == table
    for c in (alice, bob):
        assert (await c.expect(Watchers, where=lambda w: bool(w.names))).names == ("Carol",)
    await carol.send(Leave())
    for c in (alice, bob):
        assert (await c.expect(Watchers, where=lambda w: not w.names)).names == ()


async def test_the_lead_is_handed_on_and_taken_back_by_the_host_when_the_leader_is_gone(
        connect: Connect) -> None:
    alice, bob, _table, _ = await finished_table(connect)
    carol = await connect("Carol")
    await carol.send(ReviewLead(name="Bob"))  # not at the table
    await refusal(carol, "not_seated")
    await alice.send(ReviewLead(name="Nobody"))
    assert "not at this table" in (await refusal(alice, "not_seated")).message
    await alice.send(ReviewLead(name="Bob"))
    for c in (alice, bob):
        assert (await c.expect(Review, where=lambda r: r.leader == "Bob")).leader == "Bob"
    await bob.send(ReviewStep(step=2))
    assert (await alice.expect(Review, where=lambda r: r.step == 2)).leader == "Bob"
    await alice.send(ReviewStep(step=1))  # Bob is here: the host does not take over
    await refusal(alice, "not_leader")
    await bob.stream.aclose()
    await alice.expect(SeatStatus, where=lambda s: s.seat == 1 and not s.connected)
    await alice.send(ReviewStep(step=1))  # Bob has gone: the host takes the lead back
    back = await alice.expect(Review, where=lambda r: r.step == 1)
    assert back.leader == "Alice"


async def test_the_leader_points_at_a_card_and_everyone_sees_it(connect: Connect) -> None:
    alice, bob, _, _ = await finished_table(connect)
    await alice.send(ReviewStep(step=2))
    await bob.expect(Review, where=lambda r: r.step == 2)
    await alice.send(ReviewPoint(order=7))
    for c in (alice, bob):
        pointed = await c.expect(Review, where=lambda r: r.pointer is not None)
        assert (pointed.pointer, pointed.step) == (7, 2)
    await alice.send(ReviewPoint(order=55))  # a No Variant deck has 50 cards
    assert "50 cards" in (await refusal(alice, "bad_field")).message
    await bob.send(ReviewPoint(order=3))
    await refusal(bob, "not_leader")
    await alice.send(ReviewStep(step=3))  # a step ends the pointing
    assert (await bob.expect(Review, where=lambda r: r.step == 3)).pointer is None
    await alice.send(ReviewPoint(order=7))
    await bob.expect(Review, where=lambda r: r.pointer == 7)
    await alice.send(ReviewLead(name="Bob"))  # so does handing the lead on: the arrow would name Bob as its author
    handed = await bob.expect(Review, where=lambda r: r.leader == "Bob")
    assert (handed.pointer, handed.step) == (None, 3)


async def test_a_new_game_ends_the_review(connect: Connect) -> None:
    alice, bob, _, _ = await finished_table(connect)
    await bob.expect(Review)
    await alice.send(Start())
    await bob.expect(GameStarted)
    await bob.send(ReviewStep(step=0))
    assert "being played" in (await refusal(bob, "no_review")).message


async def test_the_host_opens_any_finished_game_but_never_a_running_one(connect: Connect) -> None:
    alice, bob, _, first = await finished_table(connect)
    # Another table plays on: its game is running.
    dave = await connect("Dave")
    await dave.send(CreateTable(name="busy", seats=2))
    await dave.expect(Joined)
    await dave.send(AddBot(seat=1))
    await dave.send(Start())
    running = (await dave.expect(GameStarted)).game
    await bob.send(OpenReview(game=first))
    await refusal(bob, "not_host")
    await alice.send(OpenReview(game=running))
    assert "no finished game" in (await refusal(alice, "no_such_game")).message
    await alice.send(OpenReview(game=running + 100))
    await refusal(alice, "no_such_game")
    # A new table that never played reviews the first game: the game and the review come to everyone at it.
    await alice.send(Leave())
    await bob.send(Leave())
    await alice.send(CreateTable(name="looking back", seats=2))
    table = (await alice.expect(Joined, where=lambda j: j.table.name == "looking back")).table.id
    await bob.send(Join(table=table))
    await bob.expect(Joined, where=lambda j: j.table.id == table)
    await alice.send(OpenReview(game=first))
    for c in (alice, bob):
        assert (await c.expect(ReplayFile, where=lambda r: r.id is None and r.game == first)).game == first
        review = await c.expect(Review, where=lambda r: r.table == table)
        assert (review.game, review.step, review.leader) == (first, 0, "Alice")
    # Nothing of the running game reached anyone here.
    for c in (alice, bob):
        assert not any(isinstance(m, (ReplayFile, Review)) and m.game == running for m in c.seen)
        assert not any(isinstance(m, ViewUpdate) and m.game == running for m in c.seen)


async def test_the_history_lists_the_askers_games_first(connect: Connect) -> None:
    alice, bob, _, first = await finished_table(connect)
    # Away while the next game is played (a client that reads nothing for that long is dropped as idle), then
    # back with her token: her games are known by it.
    token = alice.token  # type: ignore[attr-defined]
    for c in (alice, bob):
        await c.stream.aclose()
    carol, _dave, _, second = await finished_table(connect, "Carol", "Dave")  # later, without Alice
    alice = await connect("Alice", resume=token)
    await alice.send(ListGames(id=3))
    games = (await alice.expect(Games)).games
    assert [(g.id, g.yours) for g in games] == [(first, True), (second, False)]
    await carol.send(ListGames())
    assert [(g.id, g.yours) for g in (await carol.expect(Games)).games] == [(second, True), (first, False)]
    eve = await connect("Eve")  # played nothing: newest first
    await eve.send(ListGames())
    assert [(g.id, g.yours) for g in (await eve.expect(Games)).games] == [(second, False), (first, False)]


async def test_who_is_online_is_listed_and_the_lobby_hears_of_newcomers(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    bob = await connect("bob")
    autojump_clock.jump(1)
    await settle(bob)  # the lobby's news that bob alone is online reaches him before Alice comes
    alice = await connect("Alice")
    await alice.send(ListOnline(id=4))
    online = await alice.expect(Online, where=lambda o: o.id == 4)
    assert online.players == ("Alice", "bob") and online.total is None
    carol = await connect("Carol")
    # Told in the lobby's batch, unasked (at most once a second).
    heard = await bob.expect(Online, where=lambda o: "Carol" in o.players)
    assert heard.players == ("Alice", "bob", "Carol") and heard.id is None
    bob.inbox.clear()  # news older than Carol's coming (it said who was online before Alice came) is out of date
    await carol.stream.aclose()
    gone = await bob.expect(Online, where=lambda o: "Carol" not in o.players and o.id is None)
    assert gone.players == ("Alice", "bob")


async def test_a_waiting_table_hears_who_comes_online_and_a_game_s_players_do_not(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    ann = await connect("Ann")
    await ann.send(CreateTable(name="waiting", seats=3))
    await ann.expect(Joined)
    gus, hal, _, _ = await started_table(connect, "Gus", "Hal")
    autojump_clock.jump(1)
    await settle(ann, gus, hal)
    gus.inbox.clear()
    await connect("Dee")
    # Ann's screen lists the lobby under her table: its "Online" is told in the lobby's batch, as in the lobby.
    heard = await ann.expect(Online, where=lambda o: "Dee" in o.players)
    assert heard.id is None and heard.players == ("Ann", "Dee", "Gus", "Hal")
    autojump_clock.jump(1)
    await settle(gus)
    assert not gus.take(Online), "a player in a game was sent the lobby's news"


@pytest.mark.real_time  # a server process, killed and started again
async def test_a_server_killed_during_a_review_brings_it_back_as_last_shown(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, port = await start_server_process(db)
    try:
        async def connect(name: str) -> Client:
            return await tcp_client(port, name)

        alice, bob, table, game = await finished_table(connect)
        await alice.send(ReviewLead(name="Bob"))
        await bob.expect(Review, where=lambda r: r.leader == "Bob")
        await bob.send(ReviewStep(step=6))
        await bob.send(ReviewPoint(order=4))
        shown = await alice.expect(Review, where=lambda r: r.pointer == 4)
        assert (shown.leader, shown.step) == ("Bob", 6)
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    await alice.stream.aclose()
    await bob.stream.aclose()

    proc, port = await start_server_process(db)
    try:
        again = await tcp_client(port, "x", alice.token)  # type: ignore[attr-defined]
        await again.expect(Joined)
        assert (await again.expect(ReplayFile)).game == game
        back = await again.expect(Review)
        assert (back.table, back.game, back.leader, back.step, back.pointer) == (table, game, "Bob", 6, 4)
        assert back.last == shown.last
    finally:
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(10):
            await proc.wait()


async def test_a_player_leaving_ends_the_game_into_a_review_for_those_who_stay(connect: Connect) -> None:
    alice, bob, _, _ = await started_table(connect, "Alice", "Bob")
    views = {0: (await alice.expect(ViewUpdate)).view, 1: (await bob.expect(ViewUpdate)).view}
    first = views[0].current
    await (alice, bob)[first].send(ActionRequest(views[first].legal_actions()[-1]))  # one turn, then Bob walks out
    await bob.expect(ViewUpdate, where=lambda v: v.view.turn == 1)
    await bob.send(Leave())
    replay_file = await alice.expect(ReplayFile)
    review = await alice.expect(Review)
    # Stopped from outside: one step per turn, and one more for the stop, as the client's viewer counts them.
    assert (review.leader, review.step, review.last) == ("Alice", 2, 2) == ("Alice", 2, steps_in(replay_file.json))
    await settle(bob)
    assert not any(isinstance(m, Review) for m in bob.seen)


async def test_who_leaves_a_table_hears_who_is_online_again(connect: Connect) -> None:
    _alice, bob, _, _ = await finished_table(connect)  # kept: a client dropped is one offline
    _carol = await connect("Carol")  # came while Bob was at the table: the lobby heard it, not he
    await bob.send(Leave())
    back = await bob.expect(Online, where=lambda o: "Carol" in o.players)
    assert back.players == ("Alice", "Bob", "Carol")


async def test_when_the_leader_leaves_the_host_leads_and_everyone_is_told(connect: Connect) -> None:
    alice, bob, table, _ = await finished_table(connect)
    carol = await connect("Carol")
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    await carol.expect(Review)
    await alice.send(Leave())  # the host and leader goes: Bob is the host now, and leads
    for c in (bob, carol):
        assert (await c.expect(Review, where=lambda r: r.leader != "Alice")).leader == "Bob"
    await bob.send(ReviewLead(name="Carol"))
    for c in (bob, carol):
        await c.expect(Review, where=lambda r: r.leader == "Carol")
    bob.take(Review)  # the reviews before
    await carol.send(Leave())  # a watching leader goes too: back to the host
    assert (await bob.expect(Review, where=lambda r: r.leader != "Carol")).leader == "Bob"
