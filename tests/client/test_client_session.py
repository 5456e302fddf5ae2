"""The client's Trio session against the real server over loopback TCP: set-up, play, and reconnection.

A small proxy sits between the client and the server so the test can cut the
connection the way a network blip would; the session must come back by
itself with its resume token, in the same seat, with the game where it was.
"""

from __future__ import annotations

import contextlib
import itertools

import pytest
import trio
import trio.testing
from hanabi.client.model import Link
from hanabi.client.runner import ModelStore
from hanabi.client.session import Address, Session, parse_address
from hanabi.client.solo import table_setup
from hanabi.client.tokens import TokenStore
from hanabi.engine import Play, Variant
from hanabi.protocol.messages import ActionRequest, Spectate
from hanabi.server import ServerConfig, serve

FAST = ServerConfig(bot_delay=0.0, ping_interval=0.5, idle_timeout=5.0, shutdown_grace=0.2)


class Proxy:
    """Forwards loopback TCP to the server; ``cut()`` breaks every open connection at once."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.scopes: list[trio.CancelScope] = []
        self.connections = 0

    async def handle(self, downstream: trio.SocketStream) -> None:
        self.connections += 1
        upstream = await trio.open_tcp_stream("127.0.0.1", self.upstream)
        async with downstream, upstream, trio.open_nursery() as nursery:
            self.scopes.append(nursery.cancel_scope)
            nursery.start_soon(self._pump, downstream, upstream, nursery.cancel_scope)
            nursery.start_soon(self._pump, upstream, downstream, nursery.cancel_scope)

    async def _pump(self, source: trio.SocketStream, sink: trio.SocketStream, scope: trio.CancelScope) -> None:
        try:
            async for data in source:
                await sink.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()

    def cut(self) -> None:
        for scope in self.scopes:
            scope.cancel()
        self.scopes.clear()


async def test_session_sets_up_plays_and_reconnects(nursery: trio.Nursery, kit) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    proxy = Proxy(server.port)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    nursery.start_soon(trio.serve_listeners, proxy.handle, listeners)

    store = ModelStore()
    links: list[Link] = []
    store.listeners.append(lambda: links.append(store.model.link))
    session = Session(Address("127.0.0.1", port), "alice", store.get, store.dispatch,
                      on_welcome=table_setup("alice", 2, Variant.NONE))
    nursery.start_soon(session.run)

    await kit.wait_for(store, lambda m: m.view is not None and m.seat == 0, "the game to start")
    token = store.model.resume
    assert token and store.model.link is Link.ONLINE
    game = store.model.game

    proxy.cut()
    await kit.wait_for(store, lambda m: m.link is Link.RECONNECTING, "the client to notice the cut")
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE, "the client to reconnect")
    await kit.wait_for(store, lambda m: m.view is not None, "the view to come back")
    model = store.model
    assert proxy.connections == 2
    assert model.resume == token
    assert model.seat == 0 and model.game == game
    assert model.table is not None and model.table.running
    assert Link.RECONNECTING in links

    # The game goes on after the reconnection: on our turn, a play is answered with a new view.
    await kit.wait_for(store, lambda m: m.view is not None and m.view.current == 0, "our turn")
    view = store.model.view
    assert view is not None
    session.send(ActionRequest(Play(view.hands[0][0].order)))
    await kit.wait_for(store, lambda m: m.view is not None and m.view.turn > view.turn, "the play to be applied")
    session.stop()
    nursery.cancel_scope.cancel()


@pytest.mark.virtual_time
async def test_a_cut_session_is_back_in_its_seat_half_a_second_later(nursery: trio.Nursery, kit) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    line = kit.Line(server, nursery)
    store = ModelStore()
    session = Session(Address("127.0.0.1", 1), "alice", store.get, store.dispatch,
                      on_welcome=table_setup("alice", 2, Variant.NONE), open_stream=line.open)
    nursery.start_soon(session.run)
    await kit.wait_for(store, lambda m: m.view is not None and m.seat == 0, "the game to start")
    token, game = store.model.resume, store.model.game
    await line.cut()
    cut = trio.current_time()
    await kit.wait_for(store, lambda m: m.link is Link.RECONNECTING, "the client to notice the cut")
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE, "the client to reconnect")
    await kit.wait_for(store, lambda m: m.view is not None, "the view to come back")
    assert len(line.opened) == 2 and line.opened[1] - cut == pytest.approx(0.5), "not back after the first delay"
    assert store.model.resume == token and store.model.seat == 0 and store.model.game == game
    session.stop()
    nursery.cancel_scope.cancel()


@pytest.mark.virtual_time
async def test_a_session_no_server_answers_tries_again_ever_more_slowly_up_to_five_seconds() -> None:
    tried: list[float] = []
    enough = trio.Event()

    async def refused(address: Address) -> trio.abc.Stream:
        tried.append(trio.current_time())
        if len(tried) == 7:
            enough.set()
        raise ConnectionRefusedError(111, "Connection refused")

    store = ModelStore()
    session = Session(Address("127.0.0.1", 1), "alice", store.get, store.dispatch, open_stream=refused)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.run)
        with trio.fail_after(60):
            await enough.wait()
        nursery.cancel_scope.cancel()
    gaps = [round(later - earlier, 6) for earlier, later in itertools.pairwise(tried)]
    assert gaps == [0.5, 1, 2, 4, 5, 5]
    assert "Cannot reach 127.0.0.1:1" in store.model.status and store.model.link is Link.OFFLINE


async def test_a_spectator_is_back_at_the_table_after_a_cut(nursery: trio.Nursery, kit) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    host = ModelStore()
    alice = Session(Address("127.0.0.1", server.port), "alice", host.get, host.dispatch,
                    on_welcome=table_setup("alice", 2, Variant.NONE))
    nursery.start_soon(alice.run)
    await kit.wait_for(host, lambda m: m.view is not None and m.table is not None, "alice's game")
    assert host.model.table is not None
    table = host.model.table.id

    proxy = Proxy(server.port)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    nursery.start_soon(trio.serve_listeners, proxy.handle, listeners)

    async def watch(session: Session, resumed: bool) -> None:
        if not resumed:
            await session.request(Spectate(table))

    store = ModelStore()
    carol = Session(Address("127.0.0.1", listeners[0].socket.getsockname()[1]), "carol", store.get,
                    store.dispatch, on_welcome=watch)
    nursery.start_soon(carol.run)
    await kit.wait_for(store, lambda m: m.view is not None and m.seat is None, "carol watching")

    proxy.cut()
    await kit.wait_for(store, lambda m: m.link is Link.RECONNECTING, "the client to notice the cut")
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE and not m.rejoining, "the client to reconnect")
    assert store.model.table is not None and store.model.table.id == table and store.model.seat is None

    # Still watching: alice's next move reaches carol's screen.
    await kit.wait_for(host, lambda m: m.view is not None and m.view.current == 0, "alice's turn")
    view = host.model.view
    assert view is not None
    alice.send(ActionRequest(Play(view.hands[0][0].order)))
    await kit.wait_for(store, lambda m: m.view is not None and m.view.turn > view.turn, "carol to see the play")
    alice.stop()
    carol.stop()
    nursery.cancel_scope.cancel()


async def test_an_unreachable_server_is_said_on_screen(kit) -> None:
    with trio.socket.socket() as s:
        await s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: connections are refused
        store = ModelStore()
        session = Session(Address("127.0.0.1", port), "alice", store.get, store.dispatch)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            await kit.wait_for(store, lambda m: "Cannot reach" in m.status, "the refusal")
            nursery.cancel_scope.cancel()
    assert store.model.link is Link.OFFLINE
    assert store.model.status_error


@pytest.mark.parametrize(("text", "host", "port"), [
    ("example", "example", 7777),
    ("10.0.0.2:8000", "10.0.0.2", 8000),
    ("[::1]:9000", "::1", 9000),
    ("[fe80::1]", "fe80::1", 7777),
])
def test_parse_address(text: str, host: str, port: int) -> None:
    assert parse_address(text) == Address(host, port)


@pytest.mark.parametrize("text", ["", "host:port", "host:70000", "[::1", ":21777", "127.0.0.1:", "256.1.1.1", "[zz]:1",
                                  "a b", "fe80::zz"])
def test_parse_address_refuses_nonsense(text: str) -> None:
    with pytest.raises(ValueError):
        parse_address(text)


async def test_a_server_of_another_protocol_is_left_with_its_sentence_and_not_retried(nursery: trio.Nursery) -> None:
    from hanabi.protocol.framing import Decoder, encode
    from hanabi.protocol.messages import Goodbye, Hello, Welcome
    from hanabi.protocol.version import PROTOCOL_VERSION, version_mismatch

    other = PROTOCOL_VERSION + 1
    heard: list[object] = []
    connections: list[int] = []

    async def fake_server(stream: trio.SocketStream) -> None:
        """Welcomes anyone, in a protocol this client does not speak, then records what it is told."""
        connections.append(1)
        decoder = Decoder(peer="client")
        async with stream:
            welcomed = False
            async for data in stream:
                decoder.receive(data)
                while (message := decoder.next_message()) is not None:
                    heard.append(message)
                    if isinstance(message, Hello) and not welcomed:
                        welcomed = True
                        await stream.send_all(encode(Welcome(other, "hanabi-lan 9.9", message.name, "tok")))

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    nursery.start_soon(trio.serve_listeners, fake_server, listeners)
    store = ModelStore()
    session = Session(Address("127.0.0.1", port), "alice", store.get, store.dispatch)
    with trio.fail_after(5):
        await session.run()  # returns by itself: no reconnecting to a server we cannot understand
        while not any(isinstance(m, Goodbye) for m in heard):
            await trio.sleep(0.01)
    sentence = version_mismatch(PROTOCOL_VERSION, other, their_program="hanabi-lan 9.9", we_are="client")
    assert sentence is not None and "upgrade this client" in sentence
    assert store.model.status == sentence and store.model.status_error
    assert store.model.link is Link.CLOSED and session.stopped
    assert connections == [1]
    assert Goodbye("protocol_version", sentence) in heard


@pytest.mark.parametrize("answer", [
    b"SSH-2.0-OpenSSH_9.6\r\n",
    b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
])
async def test_something_that_is_not_a_hanabi_server_is_said_once_and_left(nursery: trio.Nursery,
                                                                          answer: bytes) -> None:
    connections: list[int] = []

    async def other_server(stream: trio.SocketStream) -> None:
        connections.append(1)
        async with stream:
            await stream.send_all(answer)
            with trio.move_on_after(2):
                async for _ in stream:
                    pass

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    nursery.start_soon(trio.serve_listeners, other_server, listeners)
    store = ModelStore()
    session = Session(Address("127.0.0.1", port), "alice", store.get, store.dispatch)
    with trio.fail_after(5):
        await session.run()  # returns by itself: no "reconnecting…" for ever
    assert f"127.0.0.1:{port} is not a hanabi server" in store.model.status and store.model.status_error
    assert store.model.link is Link.CLOSED and session.stopped
    assert connections == [1]


async def test_a_server_stopped_by_its_host_is_said_so_while_retrying(kit) -> None:
    from hanabi.protocol.framing import Decoder, encode
    from hanabi.protocol.messages import Goodbye, Hello, Welcome
    from hanabi.protocol.version import PROTOCOL_VERSION

    async def stopping_server(stream: trio.SocketStream) -> None:
        """Welcomes the client, then shuts down as the real server does on Ctrl-C."""
        decoder = Decoder(peer="client")
        # The client hangs up as soon as it reads the goodbye, maybe before this side has finished.
        with contextlib.suppress(trio.BrokenResourceError):
            async with stream:
                async for data in stream:
                    decoder.receive(data)
                    while (message := decoder.next_message()) is not None:
                        if isinstance(message, Hello):
                            welcome = Welcome(PROTOCOL_VERSION, "hanabi-lan", message.name, "tok")
                            await stream.send_all(encode(welcome))
                            await stream.send_all(encode(Goodbye("server_shutdown", "the server is shutting down")))
                            return

    store = ModelStore()
    async with trio.open_nursery() as outer:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        session = Session(Address("127.0.0.1", port), "alice", store.get, store.dispatch)
        with trio.fail_after(10):
            async with trio.open_nursery() as server:
                server.start_soon(trio.serve_listeners, stopping_server, listeners)
                outer.start_soon(session.run)
                await kit.wait_for(store, lambda m: m.farewell is not None, "the goodbye")
                server.cancel_scope.cancel()  # the server is gone: nothing listens on the port any more
            await kit.wait_for(store, lambda m: "retrying" in m.status or "trying again" in m.status, "a retry")
        assert store.model.status.startswith(f"The host stopped the server at 127.0.0.1:{port}; trying again")
        assert store.model.link is Link.RECONNECTING
        outer.cancel_scope.cancel()


async def test_a_connection_reset_mid_game_is_a_reconnection_not_a_crash() -> None:
    import socket
    import struct

    from hanabi.protocol.framing import Decoder, encode
    from hanabi.protocol.messages import Hello, Welcome
    from hanabi.protocol.version import PROTOCOL_VERSION

    connections: list[int] = []

    async def resetting_server(stream: trio.SocketStream) -> None:
        """Welcomes the client, then drops the connection with a reset (as a killed server's host does)."""
        connections.append(1)
        decoder = Decoder(peer="client")
        async for data in stream:
            decoder.receive(data)
            if any(isinstance(m, Hello) for m in iter(decoder.next_message, None)):
                await stream.send_all(encode(Welcome(PROTOCOL_VERSION, "hanabi-lan", "alice", "tok")))
                await trio.sleep(0.1)
                # Linger 0: closing sends a reset rather than an orderly end of stream.
                stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                stream.socket.close()
                return

    store = ModelStore()
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(trio.serve_listeners, resetting_server, listeners)
        session = Session(Address("127.0.0.1", listeners[0].socket.getsockname()[1]), "alice", store.get,
                          store.dispatch)
        nursery.start_soon(session.run)
        with trio.fail_after(10):
            while len(connections) < 2:  # the session came back by itself
                await trio.sleep(0.02)
        nursery.cancel_scope.cancel()


@pytest.mark.virtual_time
async def test_a_refused_name_is_said_and_the_session_waits_for_another(nursery: trio.Nursery, kit) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    first = ModelStore()
    alice = Session(Address("127.0.0.1", 1), "Alice", first.get, first.dispatch,
                    open_stream=kit.Line(server, nursery).open)
    nursery.start_soon(alice.run)
    await kit.wait_for(first, lambda m: m.link is Link.ONLINE, "Alice online")

    line = kit.Line(server, nursery)
    store = ModelStore()
    lookalike = "\u0410lice"  # a Cyrillic capital A, then "lice"
    session = Session(Address("127.0.0.1", 1), lookalike, store.get, store.dispatch, open_stream=line.open)
    nursery.start_soon(session.run)
    await kit.wait_for(store, lambda m: m.name_refused != "" and m.link is Link.OFFLINE,
                       "the refusal of the name, the session off line")
    assert "looks too much like 'Alice'" in store.model.name_refused
    assert "Type another name" in store.model.status and store.model.link is Link.OFFLINE
    await trio.sleep(60)  # a minute of the test's clock: the session does not say hello again with that name
    assert len(line.opened) == 1 and store.model.link is Link.OFFLINE

    session.rename("Alicia")
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE, "the session to come in under the new name")
    assert store.model.player == "Alicia" and len(line.opened) == 2
    alice.stop()
    session.stop()
    nursery.cancel_scope.cancel()


async def test_the_token_is_kept_under_the_name_the_server_gave(nursery: trio.Nursery, kit, tmp_path) -> None:
    """A player whose name was taken types another: the token is kept under the name they came in as (the one the
    quit line tells them to come back with), and the taken name's entry stays its own."""
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    path = tmp_path / "resume.json"
    TokenStore("Alice@host:1", path).save("alices-own-token")  # the real Alice's, from an earlier run
    first = ModelStore()
    alice = Session(Address("127.0.0.1", 1), "Alice", first.get, first.dispatch,
                    open_stream=kit.Line(server, nursery).open)
    nursery.start_soon(alice.run)
    await kit.wait_for(first, lambda m: m.link is Link.ONLINE, "Alice online")

    store = ModelStore()
    tokens = TokenStore("Alice@host:1", path)
    session = Session(Address("127.0.0.1", 1), "Alice", store.get, store.dispatch, tokens=tokens,
                      open_stream=kit.Line(server, nursery).open)
    nursery.start_soon(session.run)
    await kit.wait_for(store, lambda m: m.name_refused != "", "the refusal of the name taken")
    session.rename("Alicia")
    await kit.wait_for(store, lambda m: m.link is Link.ONLINE, "the session to come in under the new name")
    assert store.model.player == "Alicia"
    session.tokens.release()  # type: ignore[union-attr]
    assert TokenStore("Alicia@host:1", path).load() == store.model.resume
    assert TokenStore("Alice@host:1", path).load() == "alices-own-token"
    alice.stop()
    session.stop()
    nursery.cancel_scope.cancel()


@pytest.mark.virtual_time
async def test_a_player_who_quits_is_said_to_have_left_and_a_dropped_line_to_have_lost_it(
        nursery: trio.Nursery, kit) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                           task_status=task_status))
    line = kit.Line(server, nursery)
    host = ModelStore()
    alice = Session(Address("127.0.0.1", 1), "alice", host.get, host.dispatch,
                    on_welcome=table_setup("alice", 2, Variant.NONE), open_stream=line.open)
    alice_runs = trio.CancelScope()

    async def run_alice() -> None:
        with alice_runs:
            await alice.run()

    nursery.start_soon(run_alice)
    await kit.wait_for(host, lambda m: m.view is not None and m.table is not None, "alice's game")
    assert host.model.table is not None
    table = host.model.table.id

    async def watch(session: Session, resumed: bool) -> None:
        await session.request(Spectate(table))

    store = ModelStore()
    carol = Session(Address("127.0.0.1", 1), "carol", store.get, store.dispatch, on_welcome=watch,
                    open_stream=line.open)
    nursery.start_soon(carol.run)
    await kit.wait_for(store, lambda m: m.view is not None and m.seat is None, "carol watching")

    def told(m) -> str:
        return " ".join("".join(t for _, t in entry.fragments) for entry in m.log)

    await line.theirs[0].aclose()  # alice's line drops: she comes back by herself
    await kit.wait_for(store, lambda m: "alice lost their connection." in told(m), "the drop to be told")
    await kit.wait_for(store, lambda m: "alice is back." in told(m), "alice to be back")
    # Her own session settled back at the table too: a quit in the middle of her resuming is a lost line.
    await kit.wait_for(host, lambda m: m.link is Link.ONLINE and not m.rejoining and m.view is not None,
                       "alice's session back at the table")
    assert "alice quit" not in told(store.model)
    alice_runs.cancel()  # alice quits, as the app cancels its network side on Ctrl-C: her seat waits for her
    await kit.wait_for(store, lambda m: "alice quit; the seat waits for them." in told(m),
                       "alice's quitting to be told")
    assert "alice left" not in told(store.model)
    carol.stop()
    nursery.cancel_scope.cancel()


@pytest.mark.virtual_time
async def test_banks_a_restarted_server_takes_from_its_store_are_said_once(tmp_path, kit, monkeypatch) -> None:
    """A timed solo game: alice thinks 30 s on her turn, the server stops and starts again on its store, whose
    banks are those of her turn's start. Back at the table, the client says once that the clocks were restored."""
    import types

    from hanabi.client import runner
    from hanabi.client.clockface import bank_left

    # The store stamps what arrives with the test's clock, the server's too: the 30 s pass for both.
    monkeypatch.setattr(runner, "time", types.SimpleNamespace(monotonic=trio.current_time))

    db = str(tmp_path / "clocks.sqlite3")
    store = ModelStore()

    def told(model) -> list[str]:
        return ["".join(t for _, t in line.fragments) for line in model.log
                if "".join(t for _, t in line.fragments).startswith("Clocks restored")]

    async with trio.open_nursery() as nursery:
        server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, db, config=FAST,
                                                               task_status=task_status))
        line = kit.Line(server, nursery)
        session = Session(Address("127.0.0.1", 1), "alice", store.get, store.dispatch,
                          on_welcome=table_setup("alice", 2, Variant.NONE, timer=(120, 20)), open_stream=line.open)
        nursery.start_soon(session.run)
        await kit.wait_for(store, lambda m: m.view is not None and m.view.current == 0 and m.clock is not None
                           and m.clock.running == 0 and not m.clock.paused, "alice's turn, her bank running")
        turn, full = store.model.view.turn, store.model.clock.remaining[0]
        await trio.sleep(30)  # alice thinks for 30 s of the virtual clock: her bank runs down
        await server.stop()
        await kit.wait_for(store, lambda m: m.link is not Link.ONLINE, "the client to notice the server gone")
        assert bank_left(store.model, 0, 0.0) == pytest.approx(full / 1000 - 30, abs=0.5)
        assert told(store.model) == []
        line.server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, db, config=FAST,
                                                                    task_status=task_status))
        await kit.wait_for(store, lambda m: bool(told(m)), "the restored banks to be said")
        assert store.model.view.turn == turn
        assert told(store.model) == [f"Clocks restored from the server's last save: alice {full // 60000}:"
                                     f"{full // 1000 % 60:02d} (the time used since that save is given back)."]
        session.stop()
        nursery.cancel_scope.cancel()
