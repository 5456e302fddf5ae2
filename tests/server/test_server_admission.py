"""Admission: silent sockets give way to newer connections, new logins stop at the cap, resumes always get in; the
connections of one address share a budget of messages. On virtual time: the hello's deadline and the budget are
measured on the server's clock."""

from __future__ import annotations

from dataclasses import dataclass

import msgpack
import pytest
import trio
import trio.testing
from hanabi.protocol import HEADER, PROTOCOL_VERSION
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import ErrorReply, Goodbye, Hello, Joined, ListTables, Tables, Welcome
from hanabi.server import Server, ServerConfig
from hanabi.server.admission import Door, PerAddress

from .conftest import Client, Connect, config_with, eventually, memory_client
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


@dataclass(eq=False)
class Sock:
    name: str
    unwelcomed: bool = True


def test_the_oldest_silent_connection_of_an_address_gives_way_past_its_cap() -> None:
    door: Door[Sock] = Door(ServerConfig(max_unwelcomed=10, max_unwelcomed_per_address=2))
    a1, a2, a3, b1 = Sock("a1"), Sock("a2"), Sock("a3"), Sock("b1")
    assert door.arrive(a1, "10.0.0.9") == [] and door.arrive(b1, "10.0.0.2") == []
    assert door.arrive(a2, "10.0.0.9") == []
    assert door.arrive(a3, "10.0.0.9") == [a1]  # not b1, from another address
    a2.unwelcomed = False  # said hello: no longer counts
    assert door.arrive(Sock("a4"), "10.0.0.9") == []


def test_an_address_opens_a_few_connections_a_second_and_others_are_not_held_back() -> None:
    door: Door[Sock] = Door(ServerConfig(connects_per_second=10.0))
    assert all(door.knock("10.0.0.9", 0.0) for _ in range(20))  # twice the rate at once
    assert not door.knock("10.0.0.9", 0.0)
    assert door.knock("10.0.0.2", 0.0)  # another address
    assert door.knock("10.0.0.9", 0.1) and not door.knock("10.0.0.9", 0.1)  # one more every 0.1 s


def test_an_address_past_its_budget_waits_its_turn_behind_those_of_it_already_waiting() -> None:
    budget = PerAddress(10.0, 2)
    assert [budget.wait("10.0.0.9", 0.0) for _ in range(2)] == [0.0, 0.0]  # the burst
    assert [round(budget.wait("10.0.0.9", 0.0), 6) for _ in range(3)] == [0.1, 0.2, 0.3]  # a queue, 0.1 s apart
    assert budget.wait("10.0.0.2", 0.0) == 0.0  # another address
    assert round(budget.wait("10.0.0.9", 0.3), 6) == 0.1  # the three waited for are paid: one more, one more wait


@pytest.mark.parametrize("fast_config", [config_with(address_rate=10.0, address_burst=5)])
async def test_the_connections_of_one_address_share_a_budget_and_past_it_wait_without_a_refusal(
        server: Server, nursery: trio.Nursery) -> None:
    start = trio.current_time()
    crowd = [await memory_client(server, nursery, f"Crowd{i}", address="10.0.0.66") for i in range(3)]
    alice = await memory_client(server, nursery, "Alice", address="10.0.0.7")
    for client in crowd:  # 10 requests each in one segment: 33 messages with the hellos, 5 at once, 10 a second
        await client.send_raw(b"".join(encode(ListTables(id=n)) for n in range(1, 11)))
    await alice.send(ListTables(id=99))
    assert (await alice.expect(Tables)).id == 99
    assert trio.current_time() - start < 0.1, "another address's request waited behind the crowd's"
    for client in crowd:
        assert [(await client.expect(Tables)).id for _ in range(10)] == list(range(1, 11))
        assert not [m for m in client.seen if isinstance(m, ErrorReply)], "a request past the budget was refused"
    # The 28 past the burst came one every 0.1 s (the crowd's pongs to the server's pings also count).
    assert trio.current_time() - start >= 2.8


def test_past_the_overall_cap_the_oldest_silent_connection_gives_way() -> None:
    door: Door[Sock] = Door(ServerConfig(max_unwelcomed=3, max_unwelcomed_per_address=8))
    socks = [Sock(str(i)) for i in range(5)]
    gone = [door.arrive(s, f"10.0.0.{i}") for i, s in enumerate(socks)]
    assert gone == [[], [], [], [socks[0]], [socks[1]]]
    door.left(socks[2])
    assert door.arrive(Sock("x"), "10.0.0.7") == []


@pytest.mark.parametrize("fast_config", [config_with(max_unwelcomed_per_address=3, max_connections=2,
                                                   handshake_timeout=60.0)])  # none times out: they give way
async def test_silent_sockets_cannot_keep_a_new_login_or_a_resume_out(connect: Connect, server: Server) -> None:
    cid = await connect("Cid")
    await table_of(cid, [], seats=2)
    await cid.stream.aclose()  # Cid drops out; their seat waits for them
    await eventually(lambda: not server.lobby.online, "the server to see Cid go")
    ann, bob = await connect("Ann"), await connect("Bob")  # the server holds as many players as it takes
    silent = []
    for _ in range(3):  # from one address, "memory:Mute", in this order (each let in before the next comes)
        silent.append(await connect("Mute", hello=False))
        await trio.testing.wait_all_tasks_blocked()
    dan = await connect("Dan", hello=False)
    await dan.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Dan"))
    bye = await dan.expect(Goodbye)
    assert bye.reason == "server_full" and "2 players are connected" in bye.message
    late = await connect("Mute", hello=False)  # a fourth from the same address: the first gives way
    bye = await silent[0].expect(Goodbye)
    assert bye.reason == "server_full" and "say hello at once" in bye.message
    back = await connect("Cid", resume=cid.token)  # type: ignore[attr-defined]
    assert (await back.expect(Joined)).seat == 0  # a resume is always let in, even when the server is full
    assert late is not None and ann is not None and bob is not None


@pytest.mark.parametrize("fast_config", [config_with(handshake_timeout=0.2)])
async def test_a_silent_socket_is_closed_at_the_short_handshake_deadline(connect: Connect) -> None:
    came = trio.current_time()
    mute = await connect("Mute", hello=False)
    bye = await mute.expect(Goodbye)
    assert trio.current_time() - came == pytest.approx(0.2), "not closed at the hello's deadline"
    assert bye.reason == "idle" and "no hello within 0.2 seconds" in bye.message


@pytest.mark.parametrize("fast_config", [config_with(handshake_timeout=0.2, ping_interval=30.0, idle_timeout=60.0)])
async def test_the_hello_deadline_passing_while_bytes_are_read_slowly_closes_the_connection(connect: Connect) -> None:
    # Two reads' worth of frames (not a hello): the second waits for the byte rate (about a second), past the
    # hello's deadline, while the heartbeat waits for the reader (what it carries out is not silence).
    came = trio.current_time()
    mute = await connect("Slow", hello=False)
    body = msgpack.packb({"v": PROTOCOL_VERSION, "t": "chat", "text": "x" * 3980})
    await mute.send_raw((HEADER.pack(len(body)) + body) * 2)
    bye = await mute.expect(Goodbye)
    assert trio.current_time() - came > 0.2, "closed before the second read had waited for the byte rate"
    assert bye.reason == "idle" and "no hello within 0.2 seconds" in bye.message


@pytest.mark.parametrize("fast_config", [config_with(max_players_per_address=2)])
async def test_one_address_holds_a_few_players_at_most_and_others_still_get_in(server: Server,
                                                                             nursery: trio.Nursery) -> None:
    async def login(name: str, address: str) -> Client:
        ours, theirs = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, theirs, f"{address}:{name}", address)
        client = Client(ours, name)
        await client.send(Hello(protocol=PROTOCOL_VERSION, program="test", name=name))
        return client

    for name in ("A1", "A2"):
        await (await login(name, "10.0.0.66")).expect(Welcome)
    third = await login("A3", "10.0.0.66")
    bye = await third.expect(Goodbye)
    assert bye.reason == "server_full" and "2 players are connected from your address" in bye.message
    await (await login("B1", "10.0.0.7")).expect(Welcome)
