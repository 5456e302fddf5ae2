"""What the server must withstand: bad frames, wrong requests, slow, silent and flooding clients, reconnections.

Each fault is checked three ways where it applies: the sender gets a precise
error (or a goodbye saying why), everyone else notices nothing, and the
table's game does not change.
"""

from __future__ import annotations

import contextlib
import struct

import msgpack
import pytest
import trio
from hanabi.engine import ChatPolicy, Clue, Discard, Play, PlayerView
from hanabi.engine.bots import Decision, Level
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import (
    ActionRequest,
    BotReason,
    Chat,
    CreateTable,
    ErrorReply,
    GameStarted,
    Goodbye,
    Joined,
    ListGames,
    ListTables,
    Ping,
    Pong,
    RearrangeRequest,
    SeatStatus,
    Start,
    Tables,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import PROTOCOL_VERSION
from hanabi.server import Server, ServerConfig

from .conftest import Client, Connect, alone_with_bots, config_with, eventually, settle
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


async def started_game(connect: Connect, names: tuple[str, ...] = ("Alice", "Bob")) -> list[Client]:
    clients = [await connect(n) for n in names]
    await table_of(clients[0], clients[1:])
    await clients[0].send(Start())
    for c in clients:
        await c.expect(GameStarted)
        await c.expect(ViewUpdate)
        c.inbox.clear()
    return clients


async def quiet(client: Client) -> list[object]:
    """What reached ``client`` lately, pings aside: should be nothing when a fault was someone else's."""
    await settle(client)
    got = list(client.inbox)
    client.inbox.clear()
    return got


def last_view(client: Client) -> ViewUpdate:
    return [m for m in client.seen if isinstance(m, ViewUpdate)][-1]


async def test_a_malformed_frame_gets_an_error_and_the_connection_goes_on(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    before = last_view(bob).view
    await alice.send_raw(struct.pack(">I", 3) + b"\xc1\xc1\xc1")  # 0xc1 is never valid msgpack
    assert (await alice.expect(ErrorReply)).code == "bad_frame"
    await alice.send_raw(struct.pack(">I", 1) + msgpack.packb([1, 2, 3])[:1])  # an array, not a map
    assert (await alice.expect(ErrorReply)).code == "bad_frame"
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "teleport", "id": 4})
    await alice.send_raw(struct.pack(">I", len(body)) + body)
    err = await alice.expect(ErrorReply)
    assert (err.code, err.id) == ("unknown_type", 4)
    # a server's message, from a client
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "view", "game": 1, "view": {}})
    await alice.send_raw(struct.pack(">I", len(body)) + body)
    assert (await alice.expect(ErrorReply)).code == "unknown_type"
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "join", "table": "one"})
    await alice.send_raw(struct.pack(">I", len(body)) + body)
    err = await alice.expect(ErrorReply)
    assert err.code == "bad_field" and "table" in err.message
    assert await quiet(bob) == []
    await alice.send(ListTables())
    assert (await alice.expect(Tables)).tables[0].running
    assert last_view(bob).view == before


async def test_an_oversized_frame_ends_the_connection_before_its_body_is_read(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    await alice.send_raw(struct.pack(">I", 4 * 1024**3 - 1))
    bye = await alice.expect(Goodbye)
    assert bye.reason == "protocol_error" and "frame" in bye.message
    await alice.expect_closed()
    status = await bob.expect(SeatStatus)
    assert (status.seat, status.connected) == (0, False)


async def test_a_client_frame_over_the_inbound_cap_ends_the_connection(connect: Connect,
                                                                       fast_config: ServerConfig) -> None:
    """Requests are small: the server reads at most ``max_inbound_frame`` (4 KiB), far below the 64 KiB it sends."""
    alice = await connect("Alice")
    await alice.send_raw(struct.pack(">I", fast_config.max_inbound_frame + 1) + b"\x80" * 100)
    bye = await alice.expect(Goodbye)
    assert bye.reason == "protocol_error" and str(fast_config.max_inbound_frame) in bye.message
    await alice.expect_closed()


async def test_bytes_past_their_rate_are_read_later_not_decoded_at_once(connect: Connect) -> None:
    """60 pings of 2 KiB each (an ignored field pads them) sent at once: the server reads 20 KiB, then 10 KiB a
    second, so within half a second it has answered far fewer than the 40 its request rate alone would let by."""
    alice = await connect("Alice")
    alice.answer_pings = False
    padded = msgpack.packb({"v": PROTOCOL_VERSION, "t": "ping", "n": 1, "pad": "x" * 2000})
    await alice.send_raw((struct.pack(">I", len(padded)) + padded) * 60)
    await alice.listen(0.5)
    pongs = [m for m in alice.seen if isinstance(m, Pong)]
    assert 0 < len(pongs) <= 25 and not alice.take(ErrorReply) and not alice.take(Goodbye)


@pytest.mark.parametrize("fast_config", [config_with(byte_rate=10**7, byte_burst=10**7, bulk_rate=1024)])
async def test_big_reads_share_one_budget_and_small_ones_go_first(connect: Connect) -> None:
    """Five 3.9 KiB frames from one peer: four go in the server's budget for big reads (16 KiB at once, here
    1 KiB a second after that), the fifth waits; another peer's small ping is answered meanwhile."""
    heavy, light = await connect("Heavy"), await connect("Light")
    heavy.answer_pings = False
    padded = msgpack.packb({"v": PROTOCOL_VERSION, "t": "ping", "n": 1, "pad": "x" * 3900})
    await heavy.send_raw((struct.pack(">I", len(padded)) + padded) * 5)
    await light.send(ListTables(id=7))
    assert (await light.expect(Tables)).id == 7
    await heavy.listen(0.5)
    assert 0 < len([m for m in heavy.seen if isinstance(m, Pong)]) <= 4


async def test_out_of_turn_illegal_and_unseated_actions_change_nothing(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    carol, dan = await started_game(connect, ("Carol", "Dan"))
    view = last_view(alice).view
    mover, waiter = (alice, bob) if view.current == 0 else (bob, alice)
    waiting_seat = 1 - view.current
    own = last_view(waiter).view.hands[waiting_seat][0].order
    await waiter.send(ActionRequest(Discard(own), id=1))
    err = await waiter.expect(ErrorReply)
    assert (err.code, err.request, err.id) == ("not_your_turn", "action", 1)
    mine = last_view(mover).view.hands[view.current]
    await mover.send(ActionRequest(Discard(mine[0].order)))  # eight clue tokens: no discarding
    err = await mover.expect(ErrorReply)
    assert err.code == "illegal_action" and "clue tokens" in err.message
    other = last_view(mover).view.hands[waiting_seat][0].order
    await mover.send(ActionRequest(Play(other)))  # a card of someone else's hand
    assert (await mover.expect(ErrorReply)).code == "illegal_action"
    await mover.send(ActionRequest(Clue(view.current, rank=1)))  # a clue to oneself
    assert (await mover.expect(ErrorReply)).code == "illegal_action"
    await mover.send(RearrangeRequest(hand=(1, 2, 3, 4, 5)))  # not the cards of one's hand
    assert (await mover.expect(ErrorReply)).code == "illegal_action"
    lobby = await connect("Lurker")
    await lobby.send(ActionRequest(Play(0)))
    assert (await lobby.expect(ErrorReply)).code == "not_seated"
    # Nothing happened anywhere: no one got a new view, the other table least of all.
    for c in (alice, bob, carol, dan):
        assert [m for m in await quiet(c) if not isinstance(m, ErrorReply)] == []
    # The mover can still move: the refusals left the game as it was.
    await mover.send(ActionRequest(last_view(mover).view.legal_actions()[0]))
    assert (await waiter.expect(ViewUpdate)).view.turn == 1


async def test_rearranging_is_allowed_out_of_turn_and_everyone_sees_it(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    seat = 1 - last_view(alice).view.current
    waiter, other = (alice, bob) if seat == 0 else (bob, alice)
    hand = tuple(cv.order for cv in last_view(waiter).view.hands[seat])
    await waiter.send(RearrangeRequest(hand=hand[::-1]))
    seen = await other.expect(ViewUpdate)
    assert tuple(cv.order for cv in seen.view.hands[seat]) == hand[::-1]


@pytest.mark.parametrize("fast_config", [config_with(outbound_frames=4, send_timeout=0.5)])
async def test_a_client_that_stops_reading_is_dropped_and_can_resume(connect: Connect,
                                                                     fast_config: ServerConfig) -> None:
    alice = await connect("Alice")
    sloth = await connect("Sloth", lockstep=True)
    await table_of(alice, [sloth], chat=ChatPolicy.ALWAYS)
    # Sloth stops reading; Alice talks a lot. Sloth's queue fills and it is dropped, not waited for.
    for i in range(40):
        await alice.send(Chat(text=f"message {i}"))
    status = await alice.expect(SeatStatus, where=lambda m: not m.connected)
    assert status.seat == 1
    back = await connect("Sloth", resume=sloth.token)  # type: ignore[attr-defined]
    joined = await back.expect(Joined)
    assert joined.seat == 1
    assert (await alice.expect(SeatStatus, where=lambda m: m.connected)).seat == 1


@pytest.mark.parametrize("fast_config", [config_with(idle_timeout=0.6, ping_interval=0.2)])
async def test_a_client_that_stops_talking_is_found_by_heartbeats(connect: Connect, fast_config: ServerConfig) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob])
    bob.answer_pings = False  # Bob's machine went to sleep
    asleep = trio.current_time()
    bob_dropped = trio.Event()
    dropped_after: list[float] = []

    async def bob_listens() -> None:
        with trio.move_on_after(3):
            await bob.expect(Goodbye)
            dropped_after.append(trio.current_time() - asleep)
            bob_dropped.set()

    async with trio.open_nursery() as n:
        n.start_soon(bob_listens)
        status = await alice.expect(SeatStatus, timeout=3)  # Alice keeps answering pings meanwhile
    assert (status.seat, status.connected) == (1, False)
    assert bob_dropped.is_set()
    # Heard from last at most a ping's interval before he slept, dropped the idle timeout after that.
    assert 0.6 - 0.2 <= dropped_after[0] <= 0.6, f"dropped {dropped_after[0]:.3f} s after the last he could answer"
    assert any(isinstance(m, Ping) for m in bob.seen)
    assert next(m for m in bob.seen if isinstance(m, Goodbye)).reason == "idle"


@pytest.mark.parametrize("fast_config", [config_with(rate=5.0, burst=5, flood_limit=10)])
async def test_a_flood_gets_an_error_then_a_disconnect_and_harms_no_one_else(connect: Connect,
                                                                              fast_config: ServerConfig) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob])
    flooder = await connect("Flood")
    with contextlib.suppress(trio.BrokenResourceError):  # the server hangs up mid-flood
        for _ in range(40):
            await flooder.send(ListTables())
    err = await flooder.expect(ErrorReply)
    assert err.code == "rate_limited"
    bye = await flooder.expect(Goodbye)
    assert bye.reason == "flood"
    assert len(flooder.take(Tables)) <= 6  # the burst, then nothing
    await alice.send(Start())
    assert (await bob.expect(GameStarted)).table >= 1


async def test_reconnecting_puts_the_player_back_in_the_seat_within_one_round_trip(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    await bob.stream.aclose()
    await alice.expect(SeatStatus, where=lambda m: not m.connected)
    again = await connect("Bob", hello=False)
    welcome_sent = trio.current_time()
    welcome = await again.hello("whoever", resume=bob.token)  # type: ignore[attr-defined]
    assert welcome.player == "Bob" and welcome.resume == bob.token  # type: ignore[attr-defined]
    joined = await again.expect(Joined)
    view = await again.expect(ViewUpdate)
    assert joined.seat == 1 and view.view.seat == 1
    assert trio.current_time() - welcome_sent < 1.0
    assert (await alice.expect(SeatStatus, where=lambda m: m.connected)).seat == 1


async def test_a_second_connection_with_the_same_token_replaces_the_first(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    twin = await connect("Bob", resume=bob.token)  # type: ignore[attr-defined]
    bye = await bob.expect(Goodbye)
    assert bye.reason == "replaced"
    await bob.expect_closed()
    assert (await twin.expect(Joined)).seat == 1
    # The seat never showed as empty to the others: the newer connection holds it.
    assert all(m.connected for m in alice.take(SeatStatus))
    await twin.send(ListTables())
    assert (await twin.expect(Tables)).tables[0].players[1].connected  # type: ignore[union-attr]


async def test_an_unknown_token_gets_a_fresh_identity_and_a_warning(connect: Connect) -> None:
    c = await connect("Ghost", hello=False)
    welcome = await c.hello("Ghost", resume="no-such-token-at-all")
    assert welcome.resume != "no-such-token-at-all"
    assert (await c.expect(ErrorReply)).code == "bad_resume"


async def test_a_seat_cannot_be_taken_without_its_token(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    await bob.stream.aclose()
    await alice.expect(SeatStatus, where=lambda m: not m.connected)
    thief = await connect("Bob")
    assert thief.player != "Bob"  # type: ignore[attr-defined]
    await thief.send(ActionRequest(Play(0)))
    assert (await thief.expect(ErrorReply)).code == "not_seated"


@pytest.mark.parametrize("fast_config", [config_with(handshake_timeout=0.3)])  # the wait is the test's time
async def test_no_hello_in_time_means_goodbye(connect: Connect, server: Server, fast_config: ServerConfig) -> None:
    c = await connect("Mute", hello=False)
    with trio.fail_after(fast_config.handshake_timeout + 2):
        bye = await c.expect(Goodbye, timeout=fast_config.handshake_timeout + 1)
    assert bye.reason == "idle"
    assert not [m for m in c.seen if isinstance(m, Welcome)]


async def test_a_bad_create_request_is_refused_with_the_field_named(connect: Connect) -> None:
    alice = await connect("Alice")
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "create_table", "name": "x", "seats": 9})
    await alice.send_raw(struct.pack(">I", len(body)) + body)
    err = await alice.expect(ErrorReply)
    assert err.code == "bad_field" and "seats" in err.message
    await alice.send(CreateTable(name="fine"))
    assert (await alice.expect(Joined)).seat == 0
    assert encode(ListTables())  # the connection is still usable


async def test_a_server_bug_costs_one_request_not_the_connection(connect: Connect, server: Server,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(server.store, "read", broken)
    alice = await connect("Alice")
    await alice.send(ListGames(id=9))
    err = await alice.expect(ErrorReply)
    assert (err.code, err.id) == ("internal", 9)
    await alice.send(ListTables())
    await alice.expect(Tables)


async def test_a_bot_that_fails_still_makes_a_legal_move(connect: Connect, server: Server) -> None:
    def broken_bot(view: object, bot_seats: object, level: object) -> object:
        raise ValueError("the bot is confused")

    server.lobby.policy = broken_bot  # type: ignore[assignment]
    alice, view = await alone_with_bots(connect)
    if view.current == 0:
        await alice.send(ActionRequest(view.legal_actions()[-1]))
        view = (await alice.expect(ViewUpdate)).view
    after = await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)
    assert after.view.current == 0


async def test_a_bot_that_chooses_an_illegal_move_makes_its_first_legal_one(connect: Connect, server: Server) -> None:
    def wrong_bot(view: PlayerView, bot_seats: frozenset[int], level: Level) -> Decision:
        return Decision(Play(999), "I play a card no one holds")

    server.lobby.policy = wrong_bot
    alice, view = await alone_with_bots(connect)
    if view.current == 0:
        await alice.send(ActionRequest(view.legal_actions()[-1]))
        view = (await alice.expect(ViewUpdate)).view
    after = await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)
    assert after.view.current == 0  # the bot moved all the same
    said = await alice.expect(BotReason, where=lambda r: r.turn == view.turn)
    assert said.reason == "my first choice was not allowed: I took my first legal move"


async def test_a_second_hello_on_one_connection_is_refused(connect: Connect) -> None:
    from hanabi.protocol.messages import Hello

    alice = await connect("Alice")
    await alice.send(Hello(protocol=1, program="again", name="Mallory", id=2))
    err = await alice.expect(ErrorReply)
    assert (err.code, err.request, err.id) == ("already_logged_in", "hello", 2)
    await alice.send(ListTables())
    await alice.expect(Tables)


async def test_a_bot_is_told_which_seats_are_house_bots(connect: Connect, server: Server) -> None:
    # Beside a person the house bot must read that person's clues literally: it can only if it knows who is who.
    seen: list[frozenset[int]] = []
    house = server.lobby.policy

    def recording(view: PlayerView, bot_seats: frozenset[int], level: Level) -> Decision:
        seen.append(bot_seats)
        return house(view, bot_seats, level)

    server.lobby.policy = recording
    alice, view = await alone_with_bots(connect, seats=3)
    if view.current == 0:
        await alice.send(ActionRequest(view.legal_actions()[-1]))
    await eventually(lambda: bool(seen), "a bot to choose a move")
    assert seen[0] == frozenset({1, 2})
