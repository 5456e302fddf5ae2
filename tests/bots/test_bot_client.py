"""``hanabi-bot`` end to end over loopback TCP: it joins a real server's table and plays a whole game, at the
table's convention level, counting the seats the table shows as bots."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.client.bot import BotClient, BotError, run_bot
from hanabi.client.botcli import main
from hanabi.client.session import Address
from hanabi.client.tokens import TokenStore
from hanabi.client.wire import Wire
from hanabi.engine import (
    GameConfig,
    PlayerView,
    TurnAction,
    TurnEvent,
    action_of,
    new_game,
    replay_steps,
    view_for,
)
from hanabi.engine.bots import choose_action, decide, make_bot
from hanabi.engine.bots.decision import STRONGEST
from hanabi.engine.bots.hgroup import ConventionBot
from hanabi.protocol.errors import ErrorCode
from hanabi.protocol.framing import Decoder
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    GameOver,
    Hello,
    Joined,
    Leave,
    Message,
    PauseRequest,
    Ping,
    Pong,
    SeatStatus,
    Start,
    TableChanged,
    TableInfo,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import CLIENT_PROGRAM, PROTOCOL_VERSION
from hanabi.server import Server, ServerConfig, serve

# The server pings every half second (so the bot's answers are exercised) but waits a minute for an answer: on a
# busy machine a slow moment must not read as a client gone (the tests' own deadlines bound them).
FAST = ServerConfig(bot_delay=0.0, handshake_timeout=2.0, ping_interval=0.5, idle_timeout=60.0, send_timeout=2.0,
                    shutdown_grace=0.5)
SEED = "netbot-1"  # a deal on which each test's bot would decide otherwise at another level (checked below)


def _in_memory(server: Server, nursery: trio.Nursery) -> Callable[[Address], Awaitable[trio.abc.Stream]]:
    """Connections to ``server`` over in-memory streams, for a test on virtual time (a socket's wait is real)."""

    async def open_stream(address: Address) -> trio.abc.Stream:
        ours, theirs = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, theirs, f"memory:{address}")
        return ours

    return open_stream


async def _host_at_a_new_table(nursery: trio.Nursery, name: str, seats: int = 2, seed: str | None = None,
                               network_bot: bool = False, password: str | None = None,
                               in_memory: bool = False) -> tuple[Server, trio.abc.Stream, BotClient, Joined]:
    """A server, and Host logged in and seated at a new table ``name``: the server, Host's stream, Host,
    and Host's ``joined``. With ``network_bot``, Host says in hello that it is a network bot; with
    ``in_memory``, Host's connection is an in-memory stream rather than loopback TCP."""
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                            task_status=task_status))
    if in_memory:
        stream = await _in_memory(server, nursery)(Address("127.0.0.1", server.port))
    else:
        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
    host = BotClient(stream, "Host", 0.0)
    await host.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Host", network_bot=network_bot))
    await host.expect(Welcome)
    await host.send(CreateTable(name, seats=seats, seed=seed, password=password))
    joined = await host.expect(Joined)
    assert isinstance(joined, Joined)
    return server, stream, host, joined


async def _until_every_seat_is_taken(host: BotClient, taken: int | None = None) -> TableInfo:
    """Wait until the bot has sat down beside Host (or until ``taken`` seats are taken); the table as it is then."""
    while True:
        changed = await host.expect(TableChanged)
        assert isinstance(changed, TableChanged)
        seated = sum(p is not None for p in changed.table.players)
        if seated == (changed.table.seats if taken is None else taken):
            return changed.table


async def _next(host: BotClient) -> Message:
    """Host's next message, a ping answered on the way (Host never falls silent, however slowly bots think)."""
    while True:
        message = await host.receive()
        if not isinstance(message, Ping):
            return message
        await host.send(Pong(message.n))


async def _host_plays_a_game(host: BotClient, policy: Callable[[PlayerView], TurnAction]) -> tuple[PlayerView,
                                                                                                  GameOver]:
    """Host plays by ``policy`` until the game ends: Host's last view, and the ``game_over``."""
    view: PlayerView | None = None
    while True:
        message = await _next(host)
        if isinstance(message, ViewUpdate):
            view = message.view
            if view.seat == view.current and not view.over:
                await host.send(ActionRequest(policy(view)))
        elif isinstance(message, GameOver):
            assert view is not None
            return view, message


# On virtual time over in-memory connections: the server's handshake and send bounds and the test's own
# count the test's clock, not the machine's. The bot waits a tenth of a second before each move (free on that
# clock): with no wait, a fast machine played faster than the server's 20 requests a second, the server
# dropped a move with "slow down", and the game waited for it until the test's bound.
@pytest.mark.virtual_time
@pytest.mark.parametrize("explain", [False, True])
async def test_bot_client_joins_and_plays_a_game(capsys: pytest.CaptureFixture[str], explain: bool) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "bot night", in_memory=True)
            result: list[int] = []
            done = trio.Event()

            async def bot() -> None:
                result.append(await run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.1,
                                            explain=explain, open_stream=_in_memory(server, nursery)))
                done.set()

            nursery.start_soon(bot)
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            # one bot for the game, without replaying the game each turn, and without the endgame look-ahead (the
            # bots' tests measure it): Host only has to play legal moves to the end
            _, over = await _host_plays_a_game(host, ConventionBot(search=False).choose)
            assert over.outcome.score >= 0
            await done.wait()  # the bot's run ends by itself once its one game is over
            assert result == [1]
            await stream.aclose()
            nursery.cancel_scope.cancel()
    # Each step on its own line of stdout, in order, as the person who started the bot reads them.
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("hanabi-bot: ")]
    # With --explain, each of the bot's moves and its reason (a sentence after the action), between them.
    moves = [line for line in lines if line.startswith("hanabi-bot: turn ")]
    assert bool(moves) == explain
    assert all(line.split(" - ", 1)[1].strip() for line in moves)
    # Seats by their players' names, cards by their slots: never a card's place in the deck, nor a seat from 0.
    assert not any("#" in line or "seat" in line for line in moves), moves
    assert all(line.split(": ", 2)[2].startswith(("play my slot", "discard my slot", "clue Host: ")) for line in moves)
    lines = [line for line in lines if line not in moves]
    table = joined.table.id
    assert lines == [
        "hanabi-bot: connected as Robo",
        f"hanabi-bot: joined bot night (#{table}), seat 2 of 2",
        "hanabi-bot: waiting for the host to start the game...",
        f"hanabi-bot: game started (game #{over.game}), playing at level beginner",  # Host is a person
        f"hanabi-bot: game over: {over.outcome.score}/{over.outcome.max_score}, {over.outcome.rating}",
    ]


@pytest.mark.virtual_time
async def test_a_bot_whose_table_closes_waits_for_another_and_sits_there() -> None:
    lines: list[str] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "first", in_memory=True)
            nursery.start_soon(functools.partial(run_bot, Address("127.0.0.1", server.port), "Robo", None, None, 0.1,
                                                 report=lines.append, open_stream=_in_memory(server, nursery)))
            await _until_every_seat_is_taken(host)
            await host.send(Leave())  # the last person leaves: the table closes under the bot
            while not any(line.startswith("no table has a free seat") for line in lines):
                await _next(host)  # the lobby's news, until the bot says it waits
            await host.send(CreateTable("second", seats=2))
            second = await host.expect(Joined)
            assert isinstance(second, Joined)
            table = await _until_every_seat_is_taken(host)
            assert table.id == second.table.id and table.players[1] is not None
            assert table.players[1].name == "Robo"
            await stream.aclose()
            nursery.cancel_scope.cancel()
    assert lines[:2] == ["connected as Robo", f"joined first (#{joined.table.id}), seat 2 of 2"]
    assert lines[3:] == [
        "table 'first' closed: no one is left: looking for another table",
        "no table has a free seat: waiting for one to open (Ctrl-C stops the bot)",
        f"joined second (#{second.table.id}), seat 2 of 2",
        "waiting for the host to start the game...",
    ], lines


@pytest.mark.virtual_time
async def test_a_bot_stopped_and_started_again_takes_its_seat_back(tmp_path: Path) -> None:
    lines: list[str] = []
    tokens = tmp_path / "resume.json"
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "again", in_memory=True)
            first = trio.CancelScope()

            async def first_run() -> None:
                with first:
                    await run_bot(Address("127.0.0.1", server.port), "Robo", None, None, 0.1, report=lines.append,
                                  open_stream=_in_memory(server, nursery), tokens=TokenStore("bot:Robo", tokens))

            nursery.start_soon(first_run)
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            first.cancel()  # the bot's process ends however it ends: its seat waits for it
            while not ((m := await _next(host)) and isinstance(m, SeatStatus) and m.seat == 1 and not m.connected):
                pass  # the table's news, until Host is told the bot's seat is away
            back = trio.Event()

            def told(line: str) -> None:
                lines.append(line)
                if line.startswith(("back in seat", "joined")):
                    back.set()

            nursery.start_soon(functools.partial(
                run_bot, Address("127.0.0.1", server.port), "Robo", None, None, 0.1, report=told,
                open_stream=_in_memory(server, nursery), tokens=TokenStore("bot:Robo", tokens)))
            await back.wait()  # seated again, one way or the other
            await stream.aclose()
            nursery.cancel_scope.cancel()
    assert lines.count("connected as Robo") == 2, lines  # the same player, not "Robo 2"
    assert f"back in seat 2 at again (#{joined.table.id})" in lines, lines


def _moves_of(last: PlayerView, over: GameOver, seats: frozenset[int]) -> list[tuple[PlayerView, TurnAction]]:
    """Each move of ``seats`` in the game, with the view it was made from: the game dealt again from the seed
    ``game_over`` reveals and replayed from the public history of Host's last view."""
    start = new_game(last.config, over.seed)
    assert start.deck == over.deck
    events = [e for e in last.events if isinstance(e, TurnEvent)]
    states = [start, *replay_steps(start, [action_of(e) for e in events])]
    end = states[-1].outcome
    assert end is not None and end.score == over.outcome.score  # the whole game, replayed as it was played
    return [(view_for(state, event.seat), event.action) for state, event in zip(states, events, strict=False)
            if event.seat in seats]


async def _bot_plays_beside_host(host_is_a_network_bot: bool, host_policy: Callable[[PlayerView], TurnAction]
                                 ) -> tuple[TableInfo, PlayerView, GameOver, list[str]]:
    """Host at a new 3-seat table dealt from SEED, a house bot in seat 2 and ``hanabi-bot`` in seat 3; Host plays
    by ``host_policy``. The table when every seat is taken, Host's last view, the ``game_over`` and the bot's
    progress lines. On virtual time, in memory, the bot waiting 0.1 s before each move (see
    ``test_bot_client_joins_and_plays_a_game``: under the server's rate, free on that clock)."""
    lines: list[str] = []
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "three", seats=3, seed=SEED,
                                                                      network_bot=host_is_a_network_bot,
                                                                      in_memory=True)
            await host.send(AddBot(seat=1))
            await _until_every_seat_is_taken(host, taken=2)  # before the bot looks for a free seat
            nursery.start_soon(lambda: run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.1,
                                               report=lines.append, open_stream=_in_memory(server, nursery)))
            table = await _until_every_seat_is_taken(host)
            await host.send(Start())
            last, over = await _host_plays_a_game(host, host_policy)
            await stream.aclose()
            nursery.cancel_scope.cancel()
    return table, last, over, lines


@pytest.mark.virtual_time
async def test_beside_a_person_the_network_bot_plays_the_beginner_level_as_the_house_bot_does() -> None:
    table, last, over, lines = await _bot_plays_beside_host(False, make_bot("simple").choose)
    # What everyone is shown: a person in seat 1, a house bot in seat 2, the network bot in seat 3; the level
    # chosen for a person.
    assert [(p.bot, p.network_bot) for p in table.players if p is not None] == [(False, False), (True, False),
                                                                                 (False, True)]
    assert table.level == "beginner"
    assert f"game started (game #{over.game}), playing at level beginner" in lines
    bots = frozenset({1, 2})
    moves = _moves_of(last, over, bots)
    assert {view.seat for view, _ in moves} == bots
    # Both bots decide as the engine does at the beginner level, each counting the other as a bot.
    assert all(action == decide(view, level="beginner", bot_seats=bots).action for view, action in moves)
    # On this deal the network bot would have moved otherwise reading the person by its full conventions (as it
    # did before it knew its table), or had the house bot counted it as a person: the check above can fail.
    network = [(view, action) for view, action in moves if view.seat == 2]
    assert any(decide(view).action != action for view, action in network)
    assert any(decide(view, level="beginner", bot_seats=frozenset({1})).action != action for view, action in network)


@pytest.mark.virtual_time
async def test_at_a_table_of_bots_only_the_network_bot_plays_the_strongest_level() -> None:
    # Host says it is a network bot (and plays as one): nobody at the table is a person.
    # One bot for Host's game: choose_action's moves (a bot's cache must not change its choice), without replaying
    # the game from its start at each turn.
    table, last, over, lines = await _bot_plays_beside_host(True, make_bot().choose)
    assert [(p.bot, p.network_bot) for p in table.players if p is not None] == [(False, True), (True, False),
                                                                                 (False, True)]
    assert table.level == STRONGEST
    assert f"game started (game #{over.game}), playing at level {STRONGEST}" in lines
    moves = _moves_of(last, over, frozenset({1, 2}))
    assert all(action == decide(view, level=STRONGEST, bot_seats=frozenset({0, 1, 2})).action
               for view, action in moves)
    # Had Host been taken for a person, the network bot would have moved otherwise on this deal.
    assert any(decide(view, level="beginner", bot_seats=frozenset({1, 2})).action != action
               for view, action in moves if view.seat == 2)


async def test_only_a_network_bot_of_the_servers_own_version_counts_as_a_bot(nursery: trio.Nursery) -> None:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", config=FAST,
                                                            task_status=task_status))
    for program, counted in [(CLIENT_PROGRAM, True), ("mybot 0.3", False)]:
        with trio.fail_after(10):
            stream = await trio.open_tcp_stream("127.0.0.1", server.port)
            bot = BotClient(stream, "Robo", 0.0)
            await bot.send(Hello(PROTOCOL_VERSION, program, "Robo", network_bot=True))
            await bot.expect(Welcome)
            await bot.send(CreateTable("versions", seats=2))
            joined = await bot.expect(Joined)
            assert isinstance(joined, Joined)
            await stream.aclose()
        assert joined.table.players[0] is not None and joined.table.players[0].network_bot is counted
        bot.table, bot.seat = joined.table, joined.seat
        # What the person who started a bot reads as its game starts: the level, and whether it is counted.
        said = bot.level_said()
        assert said.startswith("beginner") and ("as a person" in said) is not counted


async def test_a_table_with_a_password_is_free_to_the_bot_only_with_it(nursery: trio.Nursery) -> None:
    server, _, host, joined = await _host_at_a_new_table(nursery, "locked", password="s3cret")
    address, said = Address("127.0.0.1", server.port), list[str]()
    with trio.fail_after(20):
        # Without the password the one table with a seat is not free, and the bot says why and what to give.
        with pytest.raises(BotError, match=r"locked \(#1\) has one but ask for a password; give it with --password"):
            await run_bot(address, "Nopass", delay=0.0, report=said.append, reconnect_for=0)
        with pytest.raises(BotError, match="not the password of table 'locked'"):
            await run_bot(address, "Guesser", table=joined.table.id, delay=0.0, report=said.append, reconnect_for=0,
                          password="guess")
        nursery.start_soon(functools.partial(run_bot, address, "Robo", delay=0.0, report=said.append,
                                             reconnect_for=0, password="s3cret"))
        table = await _until_every_seat_is_taken(host)
    assert [p.name for p in table.players if p is not None] == ["Host", "Robo"]


def test_cli_takes_a_tables_password(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[object] = []

    async def fake_run_bot(*args: object, **keywords: object) -> int:
        given.extend(args)
        given.append(keywords)
        return 0

    monkeypatch.setattr("hanabi.client.bot.run_bot", fake_run_bot)
    assert main(["127.0.0.1:7777", "--password", "s3cret"]) == 0
    assert given[-2] == "s3cret"
    tokens = given[-1]
    assert isinstance(tokens, dict) and tokens["tokens"].key == "bot:Bot@127.0.0.1:7777"  # not a person's key


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
    assert f"--delay {float(delay)} is not a span of time" in err and "0 or more" in err


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
    from hanabi.protocol.messages import Hello, ListTables, Welcome

    async def resetting_server(stream: trio.SocketStream) -> None:
        decoder = Decoder(peer="client")
        async for data in stream:
            decoder.receive(data)
            for message in iter(decoder.next_message, None):
                if isinstance(message, Hello):
                    await stream.send_all(encode(Welcome(PROTOCOL_VERSION, "hanabi-lan", "Bot", "tok")))
                elif isinstance(message, ListTables):  # welcomed, the bot waits for the tables: then the reset
                    stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    stream.socket.close()  # a reset, as when the server's machine goes away
                    return

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    nursery.start_soon(trio.serve_listeners, resetting_server, listeners)
    with trio.fail_after(10), pytest.raises(BotError, match=r"lost the connection to the server at 127\.0\.0\.1"):
        # Reset before it was ever seated: nothing to come back to, so one sentence at once, not a retry loop.
        await run_bot(Address("127.0.0.1", listeners[0].socket.getsockname()[1]), games=1, report=lambda _: None,
                      reconnect_for=1.0)


async def test_the_network_bot_waits_while_the_game_is_paused_and_plays_once_it_goes_on() -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "pause night")
            nursery.start_soon(lambda: run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 1.0,
                                               report=lambda _: None))
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            view = await host.expect(ViewUpdate)
            assert isinstance(view, ViewUpdate)
            if view.view.current == 0:
                await host.send(ActionRequest(choose_action(view.view)))
            # Sent at once, well inside the bot's second of delay (a margin for a busy machine).
            await host.send(PauseRequest(True))
            turn = 1 if view.view.current == 0 else 0
            views: list[ViewUpdate] = [] if view.view.current == 0 else [view]
            with trio.move_on_after(2.0):  # a bot that ignored the pause would move after its one second
                while True:
                    message = await _next(host)
                    if isinstance(message, ViewUpdate):
                        views.append(message)
            assert views and all(v.view.turn == turn for v in views), "the bot moved while the game was paused"
            await host.send(PauseRequest(False))
            while True:
                message = await _next(host)
                if isinstance(message, ViewUpdate) and message.view.turn == turn + 1:
                    break
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_the_network_bot_takes_its_seat_back_when_the_server_comes_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host stops the server mid-game and starts it again on the same store: the bot, trying all the while,
    resumes its seat with its token and plays the game out."""
    db = str(tmp_path / "games.sqlite3")
    lines: list[str] = []
    played: list[int] = []
    refused: list[str] = []  # connections tried while no server listened
    open_tcp_stream = trio.open_tcp_stream

    async def counted(host: str, port: int, **options: object) -> trio.SocketStream:
        try:
            return await open_tcp_stream(host, port, **options)  # type: ignore[arg-type]
        except OSError as e:
            refused.append(str(e))
            raise

    monkeypatch.setattr(trio, "open_tcp_stream", counted)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, db, config=FAST,
                                                                   task_status=task_status))
            stream = await trio.open_tcp_stream("127.0.0.1", server.port)
            host = BotClient(stream, "Host", 0.0)
            await host.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Host"))
            welcome = await host.expect(Welcome)
            assert isinstance(welcome, Welcome)
            await host.send(CreateTable("comeback", seats=2, seed=SEED))
            joined = await host.expect(Joined)
            assert isinstance(joined, Joined)

            async def bot() -> None:
                played.append(await run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.0,
                                            report=lines.append, reconnect_for=30.0))

            nursery.start_soon(bot)
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            policy = make_bot().choose
            while True:  # a few moves each, then the server stops on Host's turn
                message = await _next(host)
                if isinstance(message, ViewUpdate) and message.view.seat == message.view.current:
                    if message.view.turn >= 4:
                        break
                    await host.send(ActionRequest(policy(message.view)))
            before = message.view
            await server.stop()  # as the host's Ctrl-C: everyone is told the server is shutting down
            await stream.aclose()
            while not (any("trying to reconnect" in line for line in lines) and refused):
                await trio.sleep(0.05)  # until the bot's first try has found no server: it must keep trying
            await nursery.start(lambda task_status: serve("127.0.0.1", server.port, db, config=FAST,
                                                          task_status=task_status))
            stream = await trio.open_tcp_stream("127.0.0.1", server.port)
            host.reconnected(stream)
            await host.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Host", welcome.resume))
            await host.expect(Welcome)
            back = await host.expect(Joined)
            assert isinstance(back, Joined) and back.seat == 0
            robo = back.table.players[1]
            # The restarted server counts the bot's seat as a bot's from its store, back or not yet (Host is
            # usually back first: the bot's next try is a second away).
            assert robo is not None and robo.name == "Robo" and robo.network_bot
            last, over = await _host_plays_a_game(host, policy)
            assert last.turn > before.turn  # the game went on from where it stopped, the bot moving in it
            while not played:
                await trio.sleep(0.01)
            await stream.aclose()
            nursery.cancel_scope.cancel()
    assert played == [1]
    assert any(line.startswith("back in seat 2 at comeback") for line in lines), lines
    assert lines[-1] == f"game over: {over.outcome.score}/{over.outcome.max_score}, {over.outcome.rating}"


async def test_without_reconnecting_a_lost_server_is_one_sentence(nursery: trio.Nursery) -> None:
    """With ``reconnect_for=0`` the bot stops at the first loss, saying why, as before reconnection existed."""
    server, _, host, joined = await _host_at_a_new_table(nursery, "brief")
    lines: list[str] = []

    async def stop_when_seated() -> None:
        await _until_every_seat_is_taken(host)
        server.request_stop("the server is shutting down")

    nursery.start_soon(stop_when_seated)
    with trio.fail_after(20), pytest.raises(BotError) as stopped:
        await run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, 1, 0.0, report=lines.append,
                      reconnect_for=0)
    # A sentence for the person who started it, without the wire's reason code.
    assert str(stopped.value) == "the server closed the connection: the server is shutting down"
    assert not any("reconnect" in line for line in lines)


def test_cli_refuses_a_reconnect_window_that_is_not_a_span_of_time(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["127.0.0.1:1", "--reconnect", "-5"])
    assert exc.value.code == 2
    assert "--reconnect -5.0 is not a span of time" in capsys.readouterr().err


@pytest.mark.virtual_time
async def test_a_move_refused_for_the_pace_is_made_again() -> None:
    """The server refuses a move sent too fast (``rate_limited``) without a new view: the bot sends it again."""
    ours, theirs = trio.testing.memory_stream_pair()
    bot, server = BotClient(ours, "Robo", 0.0, report=lambda line: None), Wire(theirs)
    server.decoder = Decoder(peer="client")  # this end is the server's: it reads what a client sends
    state = new_game(GameConfig(players=2), "pace")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot.play, 1)
            await server.send(ViewUpdate(1, view_for(state, state.current)))
            first = await server.receive()
            assert isinstance(first, ActionRequest)
            await server.send(ErrorReply("action", ErrorCode.RATE_LIMITED.value, "Slow down."))
            again = await server.receive()
            assert again == first
            nursery.cancel_scope.cancel()


class _StoppedByCtrlC(trio.abc.Stream):
    """A stream whose next receive, once ``stop`` is set, raises KeyboardInterrupt, as trio raises Ctrl-C in the
    main task at its next checkpoint (the server's pings keep the bot receiving)."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner, self.stop = inner, False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        if self.stop:
            raise KeyboardInterrupt
        return data

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.virtual_time
async def test_ctrl_c_leaves_the_seat_as_a_player_quitting_does() -> None:
    from hanabi.client.bot import Stopped
    from hanabi.protocol.messages import SeatStatus

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server, stream, host, joined = await _host_at_a_new_table(nursery, "ctrl-c night", in_memory=True)
            streams: list[_StoppedByCtrlC] = []
            inner = _in_memory(server, nursery)

            async def open_stream(address: Address) -> trio.abc.Stream:
                streams.append(_StoppedByCtrlC(await inner(address)))
                return streams[-1]

            stopped: list[BaseException] = []

            async def bot() -> None:
                try:
                    await run_bot(Address("127.0.0.1", server.port), "Robo", joined.table.id, None, 0.1,
                                  report=lambda _: None, open_stream=open_stream)
                except Stopped as exc:
                    stopped.append(exc)

            nursery.start_soon(bot)
            await _until_every_seat_is_taken(host)
            await host.send(Start())
            streams[-1].stop = True
            while True:
                message = await _next(host)
                if isinstance(message, SeatStatus) and message.seat == 1 and not message.connected:
                    break
            assert message.left, "the table was told the bot lost its connection, not that it left"
            assert len(stopped) == 1 and "its seat waits for it" in str(stopped[0])
            await stream.aclose()
            nursery.cancel_scope.cancel()


def test_cli_says_in_one_line_that_ctrl_c_stopped_the_bot(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from hanabi.client import bot
    from hanabi.client.bot import Stopped

    async def stopped(*args: object, **keywords: object) -> int:
        raise Stopped(2)

    monkeypatch.setattr(bot, "run_bot", stopped)
    assert main(["127.0.0.1:1"]) == 130
    out = capsys.readouterr()
    assert out.out == ("hanabi-bot: stopped by Ctrl-C after 2 game(s); its seat waits for it: the same command "
                       "takes it back\n") and out.err == ""


def test_explain_lines_wrap_at_words_in_a_terminal_and_stay_whole_in_a_pipe() -> None:
    from hanabi.client.bot import wrapped

    line = ("hanabi-bot: turn 12: clue Bob red — touches R3 in slot 2 and R4 in slot 5, the red cards he has; a "
            "play clue: R3 is playable now")
    assert wrapped(line, None) == line
    lines = wrapped(line, 80).split("\n")
    assert len(lines) == 2 and all(len(text) <= 80 for text in lines)
    assert " ".join(text.strip() for text in lines) == line  # broken at spaces only: no word cut in two


def test_explain_lines_wrap_at_terminal_columns_so_wide_names_do_not_overflow() -> None:
    from hanabi.client.bot import wrapped
    from prompt_toolkit.utils import get_cwidth

    # Each of these names takes twice the columns it has characters: counted in characters, the lines overflow.
    line = ("hanabi-bot: turn 12: clue 🎉🎉🎉🎉🎉🎉 red — touches R3 in slot 2 and R4 in slot 5, as 名前名前名前名前 "
            "saw; a play clue: R3 is playable now")
    assert len(line) <= 130 < get_cwidth(line)
    assert wrapped(line, 130) != line  # too wide for 130 columns, though it has fewer characters
    lines = wrapped(line, 60).split("\n")
    assert all(get_cwidth(text) <= 60 for text in lines), lines
    assert " ".join(text.strip() for text in lines) == line
