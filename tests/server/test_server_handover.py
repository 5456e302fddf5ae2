"""Seats that survive lost laptops, over real loopback TCP: the host hands an away player's seat to a house bot or
to a player in the lobby, and back; the new holder gets the seat's view, the old token nothing more of it."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from hanabi.engine import Discard, Play
from hanabi.engine.coach import advise
from hanabi.engine.replay import from_json
from hanabi.protocol.messages import (
    ActionRequest,
    AdviceReply,
    ErrorReply,
    GameClock,
    GameOver,
    GameStarted,
    GetAdvice,
    HandSeat,
    Joined,
    PreMoveKind,
    Queued,
    QueueMove,
    ReplayFile,
    SeatHanded,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    ViewUpdate,
)
from hanabi.server import Server, serve
from hanabi.server.store import token_hash

from .conftest import FAST, Client, Connect, config_with, memory_client, settle
from .test_server_tables import play_out, table_of

pytestmark = pytest.mark.virtual_time


async def _drop(player: Client, others: list[Client], seat: int) -> None:
    """``player``'s laptop dies: the connection goes, the others see the seat away."""
    await player.stream.aclose()
    for other in others:
        await other.expect(SeatStatus, where=lambda m: m.seat == seat and not m.connected)


async def _started(host: Client, guests: list[Client]) -> int:
    """A table of ``host`` and ``guests`` with a game started; returns the table's id."""
    table = await table_of(host, guests)
    await host.send(Start())
    for client in (host, *guests):
        await client.expect(GameStarted)
    return table


async def _refused(client: Client, request: Any) -> ErrorReply:
    await client.send(request)
    return await client.expect(ErrorReply)


def _views_after_handover(client: Client) -> list[dict[str, Any]]:
    """The view frames ``client`` received after the seat_handed that concerns them."""
    handed = next(i for i, t in enumerate(client.trees) if t["t"] == "seat_handed")
    return [t["view"] for t in client.trees[handed:] if t["t"] == "view"]


def _own_cards_hidden(client: Client, seat: int) -> int:
    """Every view ``client`` got for ``seat`` while the game ran hides that seat's own cards; returns how many."""
    running = [t["view"] for t in client.trees if t["t"] == "view" and t["view"]["outcome"] is None]
    for view in running:
        assert view["seat"] == seat
        assert all(card[1] is None for card in view["hands"][seat]), f"seat {seat}'s own cards were sent"
    return len(running)


async def _bobs_seat_to_a_bot(connect: Connect) -> tuple[Client, str, int, SeatHanded]:
    """Alice and Bob start a game, Bob's laptop dies, Alice hands his seat to a house bot: her client, his old
    token, the table and the seat_handed she was sent."""
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await _started(alice, [bob])
    await _drop(bob, [alice], 1)
    await alice.send(HandSeat(seat=1))
    return alice, bob.token, table, await alice.expect(SeatHanded)  # type: ignore[attr-defined]


async def test_the_coach_names_the_bot_that_holds_a_handed_seat(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob], advice=True, seed="s10")  # a deal on which Alice's first advice is a clue to seat 1
    await alice.send(Start())
    await _drop(bob, [alice], 1)
    await alice.send(HandSeat(seat=1))
    handed = await alice.expect(SeatHanded)
    view = (await alice.expect(ViewUpdate, where=lambda m: m.view.current == 0)).view  # her turn, the bot's seat
    await alice.send(GetAdvice(id=5))
    reply = await alice.expect(AdviceReply)
    expected = advise(view, bot_seats=frozenset({1}), names=("Alice", handed.name))
    assert (reply.move, reply.reason) == (expected.move, expected.reason)
    assert reply.move == f"clue {handed.name}: 1"  # seat 1 is the bot's now


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_an_away_seat_goes_to_a_house_bot_which_plays_it_to_the_end(connect: Connect) -> None:
    alice, bob_token, _, handed = await _bobs_seat_to_a_bot(connect)
    assert (handed.seat, handed.bot, handed.previous, handed.by) == (1, True, "Bob", "Alice")
    changed = await alice.expect(TableChanged, where=lambda m: m.table.players[1] is not None
                                 and m.table.players[1].bot)
    assert changed.table.players[1].name == handed.name and handed.name.startswith("Bot")  # type: ignore[union-attr]
    over = await play_out({0: alice})
    assert over.outcome is not None
    # Bob's old token: back in the lobby, told why, and not one frame of the game he sat in.
    back = await connect("Bob", resume=bob_token)
    told = await back.expect(SeatHanded)
    assert told.previous == "Bob" and told.bot
    await settle(back)
    assert not [t for t in back.trees if t["t"] in ("joined", "view", "game_over", "replay")]
    assert (await _refused(back, ActionRequest(Discard(0)))).code == "not_seated"


@pytest.mark.real_time  # over TCP: the seat's own cards stay hidden on the real wire after a handover
@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_the_one_who_comes_back_from_another_machine_is_handed_their_seat(tcp_connect: Connect) -> None:
    alice, bob = await tcp_connect("Alice"), await tcp_connect("Bob")
    bob_token = bob.token  # type: ignore[attr-defined]
    table = await _started(alice, [bob])
    await _drop(bob, [alice], 1)
    again = await tcp_connect("Bob")  # a fresh machine: no token, so another player, under another name
    welcome_name = next(t["player"] for t in again.trees if t["t"] == "welcome")
    assert welcome_name == "Bob 2"
    await alice.send(HandSeat(seat=1, to="bob 2"))  # names are matched in any case
    joined = await again.expect(Joined)
    assert (joined.table.id, joined.seat) == (table, 1)
    view = (await again.expect(ViewUpdate)).view
    assert view.seat == 1 and all(cv.card is None for cv in view.hands[1])
    handed = await again.expect(SeatHanded)
    assert (handed.name, handed.previous, handed.bot) == ("Bob 2", "Bob", False)
    await alice.expect(SeatHanded)
    over = await play_out({0: alice, 1: again})
    assert over.outcome is not None
    assert _own_cards_hidden(again, 1) >= 1
    # The old token resumes into the lobby: no seat, no view of the game, only the word of what happened.
    old = await tcp_connect("Bob", resume=bob_token)
    assert (await old.expect(SeatHanded)).name == "Bob 2"
    await old.flush()
    assert not [t for t in old.trees if t["t"] in ("joined", "view")]


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_a_seat_a_bot_kept_warm_goes_back_to_a_person_mid_game(connect: Connect) -> None:
    alice, _, _, handed = await _bobs_seat_to_a_bot(connect)
    assert handed.bot
    again = await connect("Bob")
    await alice.send(HandSeat(seat=1, to=next(t["player"] for t in again.trees if t["t"] == "welcome")))
    assert (await again.expect(Joined)).seat == 1
    handed = await alice.expect(SeatHanded, where=lambda m: not m.bot)
    assert handed.previous.startswith("Bot")
    await alice.expect(TableChanged, where=lambda m: m.table.players[1] is not None
                       and not m.table.players[1].bot)
    over = await play_out({0: alice, 1: again})
    assert over.outcome is not None
    assert _own_cards_hidden(again, 1) >= 1
    assert _views_after_handover(again)


async def test_who_may_hand_which_seat_to_whom(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    dave = await connect("Dave")
    table = await _started(alice, [bob, carol])
    # A player who is here keeps their seat; a guest is not the host.
    assert (await _refused(alice, HandSeat(seat=1))).code == "seat_taken"
    await _drop(carol, [alice, bob], 2)
    assert (await _refused(bob, HandSeat(seat=2))).code == "not_host"
    # Only a player in the lobby can take it: not a stranger, not one who is at a table, not oneself.
    unknown = await _refused(alice, HandSeat(seat=2, to="Zed"))
    assert unknown.code == "bad_field" and "Zed" in unknown.message
    await dave.send(Spectate(table=table))
    await dave.expect(Joined)
    watching = await _refused(alice, HandSeat(seat=2, to="Dave"))
    assert watching.code == "already_seated" and "watching" in watching.message
    assert (await _refused(alice, HandSeat(seat=2, to="Alice"))).code == "already_seated"
    assert (await _refused(alice, HandSeat(seat=4))).code == "bad_field"
    # A bot's seat goes to a person, never to another bot.
    await alice.send(HandSeat(seat=2))
    await alice.expect(SeatHanded)
    bot_again = await _refused(alice, HandSeat(seat=2))
    assert bot_again.code == "bad_field" and "bot already" in bot_again.message
    # Nothing of the refusals reached anyone as a seat_handed.
    assert len([t for t in bob.trees if t["t"] == "seat_handed"]) <= 1


async def test_a_handed_seat_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "handover.sqlite3")
    start = functools.partial(serve, "127.0.0.1", 0, db, config=FAST)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        alice, bob = await memory_client(server, nursery, "Alice"), await memory_client(server, nursery, "Bob")
        bob_token = bob.token  # type: ignore[attr-defined]
        await _started(alice, [bob])
        await _drop(bob, [alice], 1)
        carol = await memory_client(server, nursery, "Carol")
        await alice.send(HandSeat(seat=1, to="Carol"))
        await carol.expect(Joined)
        await alice.expect(SeatHanded)
        carol_view = (await carol.expect(ViewUpdate)).view
        await server.stop()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        assert server.restored == 1
        assert carol_view.seat == 1
        carol = await memory_client(server, nursery, "Carol", resume=carol.token)  # type: ignore[attr-defined]
        joined = await carol.expect(Joined)
        assert joined.seat == 1 and joined.table.players[1].name == "Carol"  # type: ignore[union-attr]
        # Who held the seat from which turn is stored: a restart still names Bob for the moves before Carol's.
        assert [(h.turn, h.seat, h.name) for h in joined.holders] == [(0, 1, "Bob"), (0, 1, "Carol")]
        view = (await carol.expect(ViewUpdate)).view
        assert view.seat == 1 and all(cv.card is None for cv in view.hands[1])
        old = await memory_client(server, nursery, "Bob", resume=bob_token)
        await settle(old)
        assert not [t for t in old.trees if t["t"] in ("joined", "view")]
        nursery.cancel_scope.cancel()


async def test_a_bot_still_thinking_when_its_seat_goes_to_a_person_does_not_move_for_them(
        autojump_clock: trio.testing.MockClock) -> None:
    async with trio.open_nursery() as nursery:
        server = await nursery.start(functools.partial(serve, "127.0.0.1", 0, ":memory:",
                                                       config=config_with(bot_delay=0.6)))
        alice, bob = await memory_client(server, nursery, "Alice"), await memory_client(server, nursery, "Bob")
        await _started(alice, [bob])
        await _drop(bob, [alice], 1)
        view = (await alice.expect(ViewUpdate)).view
        if view.current == 0:  # make it seat 1's turn
            await alice.send(ActionRequest(view.legal_actions()[-1]))
            view = (await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)).view
        await alice.send(HandSeat(seat=1))
        await alice.expect(SeatHanded)
        carol = await memory_client(server, nursery, "Carol")
        await alice.send(HandSeat(seat=1, to="Carol"))  # the bot, given 0.6 s to think, is thinking
        mine = (await carol.expect(ViewUpdate)).view
        assert mine.current == 1 and mine.turn == view.turn
        autojump_clock.jump(1.0)  # the bot's choice has come back by now, and was not taken
        await settle(alice, carol)
        latest = [m.view for m in alice.seen if isinstance(m, ViewUpdate)][-1]
        assert latest.turn == view.turn
        await carol.send(ActionRequest(mine.legal_actions()[0]))
        moved = await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)
        assert moved.view.events[-1].seat == 1  # type: ignore[union-attr]
        nursery.cancel_scope.cancel()


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_the_same_token_back_in_the_lobby_is_handed_its_seat_again(connect: Connect) -> None:
    alice, bob_token, table, _ = await _bobs_seat_to_a_bot(connect)
    back = await connect("Bob", resume=bob_token)  # the laptop works again: the old token, in the lobby
    await back.expect(SeatHanded)
    await alice.send(HandSeat(seat=1, to="Bob"))
    joined = await back.expect(Joined)
    assert (joined.table.id, joined.seat) == (table, 1)
    assert (await back.expect(ViewUpdate)).view.seat == 1
    over = await play_out({0: alice, 1: back})
    assert over.outcome is not None


async def _bobs_turn(alice: Client, bob: Client) -> Any:
    """Bob (seat 1) to act: Alice makes a move first if the deal gave her the first turn; the view then."""
    view = (await alice.expect(ViewUpdate)).view
    if view.current == 0:
        await alice.send(ActionRequest(view.legal_actions()[-1]))
        view = (await alice.expect(ViewUpdate, where=lambda m: m.view.turn == 1)).view
    return view


async def test_a_timed_game_paused_for_the_away_player_goes_on_once_a_bot_has_the_seat(
        connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob], timed=True, time_base=600, time_per_turn=0)
    await alice.send(Start())
    view = await _bobs_turn(alice, bob)
    await _drop(bob, [alice], 1)
    await alice.expect(GameClock, where=lambda m: m.paused)
    alice.take(GameClock)  # the clocks from before it paused: the next one is the handover's
    await alice.send(HandSeat(seat=1))
    going = await alice.expect(GameClock, where=lambda m: not m.paused)
    assert going.running == 1
    moved = await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)
    assert moved.view.events[-1].seat == 1  # type: ignore[union-attr]


async def test_whose_turn_it_is_is_said_with_the_name_of_who_holds_the_seat_now(connect: Connect) -> None:
    """After a hand-over the seat's new holder is named, not who was dealt it: in a move refused for not being
    one's turn, in the coach's refusal, and when the seat's clock runs out (live and in the game's file)."""
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob], advice=True, timed=True, time_base=30, time_per_turn=0)
    await alice.send(Start())
    await _bobs_turn(alice, bob)
    await _drop(bob, [alice], 1)
    again = await connect("Bob")  # another machine, so another player: "Bob 2"
    await alice.send(HandSeat(seat=1, to="Bob 2"))
    await again.expect(Joined)
    await alice.expect(SeatHanded)
    refused = await _refused(alice, ActionRequest(Discard(0)))
    assert (refused.code, refused.message) == ("not_your_turn", "it is not your turn: Bob 2 is to act")
    refused = await _refused(alice, GetAdvice(id=5))
    assert refused.code == "not_your_turn" and "it is Bob 2's turn" in refused.message, refused.message
    async with trio.open_nursery() as nursery:  # Bob 2 reads on (a peer that stops reading is dropped) but waits
        nursery.start_soon(functools.partial(again.expect, GameOver, 60))
        over = await alice.expect(GameOver, 60)  # until his 30 s bank runs out, on the virtual clock
    assert over.outcome.detail.startswith("Bob 2 ran out of time"), over.outcome.detail
    # The game's file, which the review and the replay tools read, says it too (its players are those dealt).
    file = from_json(json.loads((await alice.expect(ReplayFile)).json))
    assert file.players == ("Alice", "Bob") and file.state.outcome is not None
    assert file.state.outcome.detail == "Bob 2 ran out of time", file.state.outcome.detail


async def test_the_move_the_old_holder_queued_is_not_made_for_the_new_one(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await _started(alice, [bob])
    bobs = (await bob.expect(ViewUpdate)).view
    if bobs.current == 1:  # make it Alice's turn, so that Bob can queue a move for his next one
        await bob.send(ActionRequest(bobs.legal_actions()[-1]))
        bobs = (await bob.expect(ViewUpdate, where=lambda m: m.view.turn == 1)).view
    await bob.send(QueueMove(kind=PreMoveKind.PLAY, order=bobs.hands[1][0].order))
    assert (await bob.expect(Queued)).kind is PreMoveKind.PLAY
    await _drop(bob, [alice], 1)
    carol = await connect("Carol")
    await alice.send(HandSeat(seat=1, to="Carol"))
    await carol.expect(SeatHanded)
    view = [m.view for m in alice.seen if isinstance(m, ViewUpdate)][-1]
    await alice.send(ActionRequest(view.legal_actions()[-1]))
    await carol.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1 and m.view.current == 1)
    await settle(carol)  # a queued move would be made at once
    assert not [m for m in carol.seen if isinstance(m, Queued) and m.kind is not None]
    latest = [m.view for m in carol.seen if isinstance(m, ViewUpdate)][-1]
    assert latest.turn == view.turn + 1 and latest.current == 1  # her turn waits for her


async def test_a_resume_racing_the_handover_is_not_shown_the_seat_it_lost(server: Server, connect: Connect) -> None:
    """The lobby clears where the old holder is just after the table gave the seat away; a resume in between
    finds the table still named as theirs, and the table must show it nothing (no spectator's view either)."""
    _, bob_token, table, _ = await _bobs_seat_to_a_bot(connect)
    back = await connect("Bob", resume=bob_token)
    await back.expect(SeatHanded)
    await settle(back)
    player = server.lobby.players[token_hash(bob_token)]
    server.lobby.tables[table].welcome_back(player)  # as if the resume had come before the lobby's update
    await settle(back)
    assert not [t for t in back.trees if t["t"] in ("joined", "view", "notes")]


@pytest.mark.real_time  # over TCP: the order of the frames on the real wire
async def test_the_table_hears_who_holds_a_handed_seat_before_its_first_move(tcp_connect: Connect) -> None:
    """Over real TCP: Bob's seat goes to a house bot on Bob's turn; Alice and the spectator Carol hear
    ``table_changed`` and ``seat_handed`` before the bot's move (its event and views)."""
    alice, bob, carol = await tcp_connect("Alice"), await tcp_connect("Bob"), await tcp_connect("Carol")
    table = await _started(alice, [bob])
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    view = (await alice.expect(ViewUpdate)).view
    if view.current == 0:  # make it Bob's turn
        await alice.send(ActionRequest(view.legal_actions()[-1]))
        view = (await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)).view
    await carol.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn)
    await _drop(bob, [alice, carol], 1)
    told = {client: len(client.trees) for client in (alice, carol)}
    await alice.send(HandSeat(seat=1))
    for client, since in told.items():
        await client.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)
        kinds = [t["t"] for t in client.trees[since:]]
        first_move = min(kinds.index(k) for k in ("game_event", "view") if k in kinds)
        assert "seat_handed" in kinds[:first_move] and "table_changed" in kinds[:first_move], kinds


async def test_who_played_a_handed_seat_from_which_turn_is_told_to_whoever_sits_down(connect: Connect) -> None:
    alice, _, _, to_bot = await _bobs_seat_to_a_bot(connect)
    assert to_bot.turn is not None
    again = await connect("Bob")
    name = next(t["player"] for t in again.trees if t["t"] == "welcome")
    await alice.send(HandSeat(seat=1, to=name))
    joined = await again.expect(Joined)
    back = await alice.expect(SeatHanded, where=lambda m: not m.bot)
    assert back.turn is not None and back.turn >= to_bot.turn
    # Bob at the deal, the bot from its turn, Bob 2 from his: his log can name who made each move.
    assert [(h.turn, h.seat, h.name) for h in joined.holders] == [(0, 1, "Bob"), (to_bot.turn, 1, to_bot.name),
                                                                  (back.turn, 1, name)]


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_the_game_file_names_who_held_a_handed_seat_from_which_turn(connect: Connect) -> None:
    alice, _, _, to_bot = await _bobs_seat_to_a_bot(connect)
    view = next(m.view for m in reversed(alice.seen) if isinstance(m, ViewUpdate))
    await alice.send(ActionRequest(Play(view.hands[0][0].order)))
    await alice.expect(ViewUpdate, where=lambda m: m.view.turn >= 2)  # the bot has moved for seat 2
    alice.take(ViewUpdate)  # the older views: play_out starts from the latest she has seen
    again = await connect("Bob")
    name = next(t["player"] for t in again.trees if t["t"] == "welcome")
    await alice.send(HandSeat(seat=1, to=name))
    back = await alice.expect(SeatHanded, where=lambda m: not m.bot)
    assert back.turn is not None and to_bot.turn is not None
    await again.expect(Joined)
    await play_out({0: alice, 1: again})
    file = from_json(json.loads((await alice.expect(ReplayFile)).json))
    # hanab.live's one name a seat stays its holder at the deal; the program's own option says who took over.
    assert file.players == ("Alice", "Bob")
    assert [(h.turn, h.seat, h.name, h.bot) for h in file.holders] == [
        (0, 1, "Bob", False), (to_bot.turn, 1, to_bot.name, True), (back.turn, 1, name, False)]
    assert file.names_at(1) == ("Alice", to_bot.name) and file.names_at(back.turn) == ("Alice", name)


def test_a_bot_seat_handed_to_a_person_is_named_once_at_the_deal_in_the_file() -> None:
    """A seat a bot held at the deal and handed on keeps one turn-0 entry (its first, as every handed seat's), not
    a second one for being a bot's at the deal; an unhanded bot seat gets its turn-0 entry."""
    from hanabi.engine import GameConfig, new_game
    from hanabi.server.game import Game

    game = Game(1, "s", ("Ann", "Bot Ben", "Bot Cleo"), new_game(GameConfig(players=3), "s"))
    game.bot_level, game.dealt_bots = "beginner", frozenset({1, 2})
    game.holders.extend(game.handing(1, "Dan", bot=False, was_bot=True))
    file = from_json(json.loads(game.replay_json()))
    assert [(h.turn, h.seat, h.name, h.bot) for h in file.holders] == [
        (0, 2, "Bot Cleo", True), (0, 1, "Bot Ben", True), (0, 1, "Dan", False)]
    assert file.bots_at(0) == {2}  # Dan holds the second seat from turn 0, the turn it is handed at


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_the_file_says_a_network_bots_seat_and_a_house_bots_were_bots_at_the_deal(connect: Connect) -> None:
    """A hanabi-bot (``network_bot``) plays as the house bots do: its seat is a bot's in the file, as a house bot's,
    and the moments found from the file judge Alice's moves only, at the table's level."""
    from hanabi.engine.coach import replay_moments
    from hanabi.protocol import CLIENT_PROGRAM, PROTOCOL_VERSION
    from hanabi.protocol.messages import AddBot, Hello, Welcome

    alice = await connect("Alice")
    robo = await connect("Robo", hello=False)
    await robo.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Robo", network_bot=True))
    await robo.expect(Welcome)
    await table_of(alice, [robo], seats=3, level="basic")
    await alice.send(AddBot(seat=2))
    await alice.send(Start())
    await alice.expect(GameStarted)
    await play_out({0: alice, 1: robo})
    file = from_json(json.loads((await alice.expect(ReplayFile)).json))
    assert file.bot_level == "basic" and file.bots_at(0) == {1, 2} and file.bots_at(file.state.turn) == {1, 2}
    assert {m.seat for m in replay_moments(file)} <= {0}  # Robo's moves are never judged


async def test_a_network_bot_never_becomes_host_and_a_table_left_to_it_closes(connect: Connect) -> None:
    """The host leaves a table of a person and a hanabi-bot: the person is host, not the bot (which would wait for
    itself to start the next game); once the last person leaves, the table closes though the bot is still there."""
    from hanabi.protocol import CLIENT_PROGRAM, PROTOCOL_VERSION
    from hanabi.protocol.messages import GiveHost, Hello, Leave, TableGone, Welcome

    alice, bob = await connect("Alice"), await connect("Bob")
    robo = await connect("Robo", hello=False)
    await robo.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Robo", network_bot=True))
    await robo.expect(Welcome)
    table = await table_of(alice, [robo, bob])  # the bot sits before Bob: first in seat order after Alice
    refused = await _refused(alice, GiveHost(seat=1))
    assert refused.code == "bad_field" and "Robo is a bot" in refused.message
    await alice.send(Leave())
    changed = await bob.expect(TableChanged, where=lambda m: m.table.id == table and m.table.players[0] is None)
    assert changed.table.host == 2  # Bob, not Robo
    await bob.send(Leave())
    await robo.expect(TableGone, where=lambda m: m.table == table)


async def test_a_hand_over_the_store_could_not_keep_is_not_in_the_games_record(connect: Connect, server: Server,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The store first, then the game: a failed write of the new holder leaves the game's list of who held each
    seat (what its file and the review name) as the store has it, which is what a restart would bring back."""
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await _started(alice, [bob])
    await _drop(bob, [alice], 1)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk I/O error")

    game = server.lobby.tables[table].game
    assert game is not None
    before = list(game.holders)
    monkeypatch.setattr(server.store, "seat_handed", broken)
    refused = await _refused(alice, HandSeat(seat=1, id=4))
    assert (refused.code, refused.id) == ("internal", 4)
    assert game.holders == before
