"""``hanabi-bot`` end to end over loopback TCP: it joins a real server's table and plays a whole game."""

from __future__ import annotations

import pytest
import trio
from hanabi.client.bot import BotClient, BotError, main, run_bot
from hanabi.client.session import Address
from hanabi.engine import PlayerView
from hanabi.engine.bots import choose_action, make_bot
from hanabi.protocol.messages import (
    ActionRequest,
    CreateTable,
    GameOver,
    Hello,
    Joined,
    PauseRequest,
    Start,
    TableChanged,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import PROGRAM, PROTOCOL_VERSION
from hanabi.server import Server, ServerConfig, serve

FAST = ServerConfig(bot_delay=0.0, handshake_timeout=2.0, ping_interval=0.5, idle_timeout=5.0, send_timeout=2.0,
                    shutdown_grace=0.5)


async def _host_at_a_new_table(nursery: trio.Nursery, name: str) -> tuple[Server, trio.SocketStream, BotClient,
                                                                         Joined]:
    """A server, and Host logged in and seated at a new 2-seat table ``name``: the server, Host's stream, Host,
    and Host's ``joined``."""
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                            task_status=task_status))
    stream = await trio.open_tcp_stream("127.0.0.1", server.port)
    host = BotClient(stream, "Host", 0.0)
    await host.send(Hello(PROTOCOL_VERSION, PROGRAM, "Host"))
    await host.expect(Welcome)
    await host.send(CreateTable(name, seats=2))
    joined = await host.expect(Joined)
    assert isinstance(joined, Joined)
    return server, stream, host, joined


async def _until_every_seat_is_taken(host: BotClient) -> None:
    """Wait until the bot has sat down beside Host."""
    while True:
        changed = await host.expect(TableChanged)
        assert isinstance(changed, TableChanged)
        if all(p is not None for p in changed.table.players):
            return


@pytest.mark.parametrize("explain", [False, True])
async def test_bot_client_joins_and_plays_a_game(capsys: pytest.CaptureFixture[str], explain: bool) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "bot night")
            result: list[int] = []

            async def bot() -> None:
                result.append(await run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.0,
                                            explain=explain))

            nursery.start_soon(bot)
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            mine = make_bot()  # one bot for the game: choose_action's moves, without replaying the game each turn
            while True:
                message = await host.receive()
                if isinstance(message, ViewUpdate):
                    view: PlayerView = message.view
                    if view.seat == view.current and not view.over:
                        await host.send(ActionRequest(mine.choose(view)))
                elif isinstance(message, GameOver):
                    over = message
                    break
            assert over.outcome.score >= 0
            while not result:
                await trio.sleep(0.01)
            assert result == [1]
            await stream.aclose()
            nursery.cancel_scope.cancel()
    # Each step on its own line of stdout, in order, as the person who started the bot reads them.
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("hanabi-bot: ")]
    # With --explain, each of the bot's moves and its reason (a sentence after the action), between them.
    moves = [line for line in lines if line.startswith("hanabi-bot: turn ")]
    assert bool(moves) == explain
    assert all(line.split(" - ", 1)[1].strip() for line in moves)
    lines = [line for line in lines if line not in moves]
    table = joined.table.id
    assert lines == [
        "hanabi-bot: connected as Robo",
        f"hanabi-bot: joined bot night (#{table}), seat 2 of 2",
        "hanabi-bot: waiting for the host to start the game...",
        f"hanabi-bot: game started (game #{over.game})",
        f"hanabi-bot: game over: {over.outcome.score}/{over.outcome.max_score}, {over.outcome.rating}",
    ]


async def test_unreachable_server_is_a_clear_error() -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()  # nothing listens there any more
    with trio.fail_after(15), pytest.raises(BotError, match="cannot reach a server"):
        await run_bot(Address("127.0.0.1", port), games=1)


@pytest.mark.parametrize("delay", ["-1", "nan", "inf"])
def test_cli_refuses_a_delay_that_is_not_a_pause(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["127.0.0.1:1", "--delay", delay])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--delay {float(delay)} is not a pause" in err and "0 or more" in err


def test_cli_refuses_a_bad_address_and_reports_an_unreachable_server(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["host:notaport"])
    assert exc.value.code == 2
    assert main(["127.0.0.1:1", "--games", "1"]) == 1
    assert "hanabi-bot: cannot reach a server at 127.0.0.1:1" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "words"), [
    ("", "--name must be 1 to 32 characters, not 0"),
    (" ", "--name must be 1 to 32 characters, not 0"),
    ("x" * 40, "--name must be 1 to 32 characters, not 40"),
    ("\t", "--name must be 1 to 32 characters"),
    ("a\tb", "control character U+0009"),
])
def test_cli_refuses_a_name_the_server_would_refuse_in_one_line(
        name: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Checked before connecting: nothing listens on port 1, so only the name can be what is said.
    with pytest.raises(SystemExit) as exc:
        main(["127.0.0.1:1", "--name", name])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert words in err.strip().splitlines()[-1]  # argparse's usage, then one line with the reason


async def test_a_connection_reset_is_a_one_line_error_not_a_traceback(nursery: trio.Nursery) -> None:
    import socket
    import struct

    from hanabi.protocol.framing import Decoder, encode
    from hanabi.protocol.messages import Hello, Welcome

    async def resetting_server(stream: trio.SocketStream) -> None:
        decoder = Decoder(peer="client")
        async for data in stream:
            decoder.receive(data)
            if any(isinstance(m, Hello) for m in iter(decoder.next_message, None)):
                await stream.send_all(encode(Welcome(PROTOCOL_VERSION, "hanabi-lan", "Bot", "tok")))
                await trio.sleep(0.2)  # the bot has asked for the tables by now
                stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                stream.socket.close()  # a reset, as when the server's machine goes away
                return

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    nursery.start_soon(trio.serve_listeners, resetting_server, listeners)
    with trio.fail_after(10), pytest.raises(BotError, match=r"lost the connection to the server at 127\.0\.0\.1"):
        await run_bot(Address("127.0.0.1", listeners[0].socket.getsockname()[1]), games=1, report=lambda _: None)


async def test_the_network_bot_waits_while_the_game_is_paused_and_plays_once_it_goes_on() -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "pause night")
            nursery.start_soon(lambda: run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.5,
                                               report=lambda _: None))
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            view = await host.expect(ViewUpdate)
            assert isinstance(view, ViewUpdate)
            if view.view.current == 0:
                await host.send(ActionRequest(choose_action(view.view)))
            await host.send(PauseRequest(True))  # before the bot's half second is up
            turn = 1 if view.view.current == 0 else 0
            views: list[ViewUpdate] = [] if view.view.current == 0 else [view]
            with trio.move_on_after(1.5):
                while True:
                    message = await host.receive()
                    if isinstance(message, ViewUpdate):
                        views.append(message)
            assert views and all(v.view.turn == turn for v in views), "the bot moved while the game was paused"
            await host.send(PauseRequest(False))
            while True:
                message = await host.receive()
                if isinstance(message, ViewUpdate) and message.view.turn == turn + 1:
                    break
            await stream.aclose()
            nursery.cancel_scope.cancel()
