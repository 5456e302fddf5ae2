"""Watching as one seat: a spectator is sent that seat's view and nothing more, switching seats or back to all.

The game test runs over real loopback TCP and reads the raw msgpack of every frame the spectator received, as
the redaction test of whole games does: while she watches as a seat, no frame shows her that seat's own cards,
another seat's notes or a bot's reason the seat itself was not sent.
"""

from __future__ import annotations

from typing import Any

import trio
from hanabi.protocol.messages import (
    AddBot,
    CreateTable,
    ErrorReply,
    GameOver,
    GameStarted,
    Join,
    Joined,
    Leave,
    Spectate,
    Start,
    TableChanged,
    ViewUpdate,
    WatchingSeat,
    WatchSeat,
    WriteNote,
)

from .conftest import Client, Connect
from .test_server_tables import play_out


def _before_the_end(client: Client) -> list[tuple[bytes, dict[str, Any]]]:
    """The frames ``client`` received from the game's start until its game_over."""
    start = next(i for i, t in enumerate(client.trees) if t["t"] == "game_started")
    over = next(i for i, t in enumerate(client.trees) if t["t"] == "game_over")
    return list(zip(client.raw[start:over], client.trees[start:over], strict=True))


def _reasons(client: Client) -> set[int]:
    """The turns of the bot reasons ``client`` was sent while the game ran."""
    return {t["turn"] for _, t in _before_the_end(client) if t["t"] == "bot_reason"}


def check_watched(carol: Client, seed: str, held: dict[int, set[int]]) -> dict[int | None, int]:
    """Every frame of the running game Carol got shows only what the seat she watched as may see; ``held``: the
    bot reasons each seat was sent. Returns how many views she got as each seat (None: every hand)."""
    told = [t["seat"] for t in carol.trees[:carol.trees.index(_before_the_end(carol)[0][1])]
            if t["t"] == "watching_seat"]
    seen: int | None = told[-1] if told else None
    counted: dict[int | None, int] = {}
    for body, tree in _before_the_end(carol):
        assert seed.encode() not in body and not {"deck", "seed"} & set(tree)
        kind = tree["t"]
        if kind == "watching_seat":
            seen = tree["seat"]
        elif kind == "view" and tree["view"]["outcome"] is None:
            counted[seen] = counted.get(seen, 0) + 1
            for seat, hand in enumerate(tree["view"]["hands"]):
                hidden = [card[1] is None for card in hand]
                assert all(hidden) if seat == seen else not any(hidden), (seen, seat, hand)
            assert tree["view"]["seat"] == seen
        elif kind == "notes" and seen is not None:
            assert tree["seat"] == seen, f"watching as seat {seen}, she got seat {tree['seat']}'s notes"
        elif kind == "bot_reason" and seen is not None:
            assert tree["turn"] in held[seen], f"a reason seat {seen} was not sent reached her: {tree['reason']}"
    return counted


async def test_a_spectator_watching_as_a_seat_over_tcp_gets_that_seat_s_view_and_no_more(
        tcp_connect: Connect) -> None:
    alice, bob, carol = [await tcp_connect(n) for n in ("alice", "bob", "carol")]
    await alice.send(CreateTable(name="as one seat", seats=3))
    table = (await alice.expect(Joined)).table.id
    await bob.send(Join(table=table))
    await bob.expect(Joined)
    await alice.send(AddBot(seat=2))
    await alice.expect(TableChanged, where=lambda m: m.table.players[2] is not None)
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    await carol.send(WatchSeat(seat=0, id=5))
    assert (await carol.expect(WatchingSeat)) == WatchingSeat(table=table, seat=0, id=5)
    await alice.send(Start())
    for c in (alice, bob, carol):
        await c.expect(GameStarted)
    first = await alice.expect(ViewUpdate)
    # Each writes a note on a card of the bot's: a spectator watching as one of them may read only theirs.
    await alice.send(WriteNote(order=first.view.hands[2][0].order, text="alice's"))
    await bob.send(WriteNote(order=first.view.hands[2][1].order, text="bob's"))

    async def views_as(seat: int, count: int) -> None:
        for _ in range(count):
            await carol.expect(ViewUpdate, where=lambda m: m.view.seat == seat)

    async def watch() -> None:  # three views as alice, three as bob, then every hand: a game has 30 turns or more
        await views_as(0, 3)
        await carol.send(WatchSeat(seat=1))
        await carol.expect(WatchingSeat)
        await views_as(1, 3)
        await carol.send(WatchSeat(seat=None))
        await carol.expect(WatchingSeat)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch)
        over = await play_out({0: alice, 1: bob})
    for c in (bob, carol):
        if not any(t["t"] == "game_over" for t in c.trees):
            await c.expect(GameOver)
    counted = check_watched(carol, over.seed, {0: _reasons(alice), 1: _reasons(bob)})
    assert counted.get(0, 0) >= 3 and counted.get(1, 0) >= 3 and counted.get(None, 0) >= 1, counted
    # What makes the check bite: the reasons kept from a seat, and the other seat's note, exist.
    assert _reasons(alice) != _reasons(bob)
    for c in (alice, bob, carol):
        await c.stream.aclose()


async def test_watch_seat_is_refused_with_a_reason_and_a_resume_keeps_the_seat_watched(connect: Connect) -> None:
    alice, carol = await connect("alice"), await connect("carol")
    await carol.send(WatchSeat(seat=0, id=1))
    assert (await carol.expect(ErrorReply)).code == "not_seated"
    await alice.send(CreateTable(name="t", seats=2))
    table = (await alice.expect(Joined)).table.id
    await alice.send(AddBot(seat=1))
    await alice.send(WatchSeat(seat=1, id=2))
    refused = await alice.expect(ErrorReply)
    assert refused.code == "already_seated" and "spectators" in refused.message
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    await carol.send(WatchSeat(seat=2, id=3))
    refused = await carol.expect(ErrorReply)
    assert refused.code == "bad_field" and "seats 0 to 1" in refused.message
    await carol.send(WatchSeat(seat=1))
    await carol.expect(WatchingSeat)
    await alice.send(Start())
    view = await carol.expect(ViewUpdate)
    assert view.view.seat == 1 and all(cv.card is None for cv in view.view.hands[1])
    # Coming back on a new connection, she is still watching as seat 1: told so before the view.
    await carol.stream.aclose()
    again = await connect("carol", resume=carol.token)  # type: ignore[attr-defined]
    await again.expect(Joined)
    assert (await again.expect(WatchingSeat)).seat == 1
    assert (await again.expect(ViewUpdate)).view.seat == 1
    await again.send(Leave())
    await again.expect(TableChanged)
    # The bot plays on at once: views of seat 1 sent before she left may still be on their way. Read all the
    # server sent until now (her Leave answered) and put those aside, so the next view is the new visit's.
    await again.flush()
    again.take(ViewUpdate)
    await again.send(Spectate(table=table))
    await again.expect(Joined)
    # She left: a new visit sees every hand. (Seat 1's views the bot's moves sent her before she left may still
    # wait in her inbox, so the view looked for is one of every hand: none comes if the server kept the seat.)
    assert (await again.expect(ViewUpdate, where=lambda m: m.view.seat is None)).view.seat is None
    assert not again.take(WatchingSeat)
