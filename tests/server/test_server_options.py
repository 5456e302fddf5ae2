"""Table options over the wire: the bots' level, seeded deals, hanab.live's rule options, and the bots' reasons.

Each rule itself is the engine's (tests/engine/test_engine_hanablive_options.py, tests/bots/test_bots_levels.py);
here: that a table's option reaches its games, that a seed text deals alike at two tables and never reaches a
player while the game runs, and that a bot's reason reaches only the seats allowed to read it.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio
from hanabi.engine import (
    ChatPolicy,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    Play,
    PlayerView,
    TurnAction,
    TurnEvent,
    Variant,
    new_game,
)
from hanabi.engine.bots import Decision, Level
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    BotReason,
    CreateTable,
    ErrorReply,
    GameOver,
    Games,
    GetReplay,
    Join,
    Joined,
    Leave,
    ListGames,
    ListTables,
    PreMoveKind,
    Queued,
    QueueMove,
    Spectate,
    Start,
    Tables,
    ViewUpdate,
)
from hanabi.server import Server, serve
from hanabi.server.cli import main
from hanabi.server.records import PLAIN_CHOICES, TableSettings, choices_text, settings_of
from hanabi.server.saved import read_games, read_snapshot
from hanabi.server.store import Store

from .conftest import FAST, Client, Connect, eventually, memory_client, settle

pytestmark = pytest.mark.virtual_time  # the redaction tests run over real TCP, on the real clock


async def seated_with_bots(connect: Connect, name: str, seats: int = 3, **options: Any) -> tuple[Client, Joined,
                                                                                               PlayerView]:
    """``name`` at a new table of ``seats`` made with ``options``, bots in the other seats, the game started."""
    client = await connect(name)
    await client.send(CreateTable(name=f"{name}'s", seats=seats, **options))
    joined = await client.expect(Joined)
    for seat in range(1, seats):
        await client.send(AddBot(seat=seat))
    await client.send(Start())
    return client, joined, (await client.expect(ViewUpdate)).view


async def two_people(connect: Connect, names: tuple[str, str] = ("Alice", "Bob"), **options: Any
                     ) -> tuple[Client, Client]:
    """Alice and Bob (or ``names``) at a new two-seat table made with ``options``, the game started."""
    alice, bob = await connect(names[0]), await connect(names[1])
    await alice.send(CreateTable(name="two", seats=2, **options))
    table = (await alice.expect(Joined)).table
    await bob.send(Join(table=table.id))
    await bob.expect(Joined)
    await alice.send(Start())
    return alice, bob


def dull_move(view: PlayerView) -> TurnAction:
    """A move that plays nothing: a clue (on the other player's first card) when the tokens are full, else the
    discard of one's oldest card. It runs the deck down and keeps every firework at 0."""
    if view.clue_tokens == 8:
        other = (view.current + 1) % view.players
        card = view.hands[other][0].card
        assert card is not None
        return Clue(other, rank=card.rank)
    return Discard(view.hands[view.current][-1].order)


async def play_until(people: tuple[Client, ...], done: Any) -> PlayerView:
    """The people (in seats 0, 1...; bots in the others) make dull moves until ``done(view)`` or the game's end;
    the latest view of seat 0."""
    views = [(await p.expect(ViewUpdate)).view for p in people]
    while views[0].outcome is None and not done(views[0]):
        mover = views[0].current
        if mover < len(people):
            await people[mover].send(ActionRequest(dull_move(views[mover])))
        turn = views[0].turn + 1
        views = [(await p.expect(ViewUpdate, where=lambda m, t=turn: m.view.turn >= t)).view
                 for p in people]
    return views[0]


def game_of(server: Server, client_table: int) -> Any:
    game = server.lobby.tables[client_table].game
    assert game is not None
    return game


# --- seeded deals -----------------------------------------------------------------------------------------------


async def test_one_seed_text_deals_alike_at_two_tables_and_another_does_not(connect: Connect, server: Server) -> None:
    _, at_a, view_a = await seated_with_bots(connect, "Alice", seed="friday night")
    _, at_b, view_b = await seated_with_bots(connect, "Bob", seed="friday night")
    _, at_c, view_c = await seated_with_bots(connect, "Carol", seed="saturday")
    assert at_a.table.seeded and at_b.table.seeded and at_a.table.id != at_b.table.id
    # What each sees of the same deal: the bots' hands, card for card, and who goes first.
    assert view_a.hands[1:] == view_b.hands[1:] and view_a.current == view_b.current
    assert view_a.hands[1:] != view_c.hands[1:]
    deck_a, deck_b = game_of(server, at_a.table.id).state.deck, game_of(server, at_b.table.id).state.deck
    assert deck_a == deck_b != game_of(server, at_c.table.id).state.deck
    assert deck_a == new_game(GameConfig(players=3), "friday night").deck  # the engine's deal of that text


async def test_without_a_seed_each_table_is_dealt_at_random(connect: Connect, server: Server) -> None:
    _, at_a, _ = await seated_with_bots(connect, "Alice")
    _, at_b, _ = await seated_with_bots(connect, "Bob")
    assert not at_a.table.seeded
    assert game_of(server, at_a.table.id).state.deck != game_of(server, at_b.table.id).state.deck


@pytest.mark.real_time
async def test_the_seed_never_reaches_a_player_while_the_game_runs(tcp_connect: Connect) -> None:
    """Over real TCP: not a byte of the seed text in any frame to the creator or a guest before the game ends;
    then it comes in game_over."""
    seed = "zebra crossing 42"
    alice, bob = await two_people(tcp_connect, seed=seed)
    view = await play_until((alice, bob), lambda v: v.turn >= 6)
    assert view.outcome is None
    await alice.flush()
    await bob.flush()
    for client in (alice, bob):
        assert client.raw and not any(b"zebra" in body for body in client.raw)
    await alice.send(Leave())  # ends the game for Bob, who then learns the seed
    over = await bob.expect(GameOver)
    assert over.seed == seed


async def test_who_else_played_a_seed_and_how_they_scored(connect: Connect) -> None:
    first, second = await two_people(connect, seed="monday")
    await play_until((first, second), lambda v: v.turn >= 2)
    await first.send(Leave())
    await second.expect(GameOver)
    third, fourth = await two_people(connect, ("Carol", "Dan"), seed="monday")
    # Playing that seed now: the other table's game of it (its replay shows the deal) is not shown yet.
    await third.send(ListGames(seed="monday", id=3))
    refused = await third.expect(ErrorReply)
    assert (refused.code, refused.id) == ("no_such_game", 3)
    assert "the game at your table is dealt from this seed" in refused.message
    await third.send(GetReplay(game=1))
    assert "the game at your table is dealt from this seed" in (await third.expect(ErrorReply)).message
    await third.send(Leave())
    await fourth.expect(GameOver)
    lister = await connect("Eve")  # someone else entirely
    await lister.send(ListGames(seed="monday"))
    listed = await lister.expect(Games)
    assert [(g.players, g.score, g.seed) for g in listed.games] == [
        (("Carol", "Dan"), 0, "monday"), (("Alice", "Bob"), 0, "monday")]
    await lister.send(ListGames(seed="tuesday"))
    assert (await lister.expect(Games)).games == ()
    await lister.send(ListGames())
    assert all(g.seed == "monday" for g in (await lister.expect(Games)).games)


@pytest.mark.real_time  # over TCP: not a byte of the running seed's text in the list
async def test_the_plain_list_of_games_leaves_out_the_running_seed_s_games(tcp_connect: Connect) -> None:
    """Over real TCP: while Carol's game (and the one Eve watches) is dealt from a seed another table played to
    its end, ``list_games`` without a seed leaves that game out, so its seed text (the deck, shuffled) is not sent;
    once the game is over it is listed again."""
    seed = "the running seed"
    alice, bob = await two_people(tcp_connect, seed=seed)
    await alice.send(Leave())
    await bob.expect(GameOver)
    carol, dan = await two_people(tcp_connect, ("Carol", "Dan"), seed=seed)
    eve = await tcp_connect("Eve")
    await eve.send(ListTables())
    tables = (await eve.expect(Tables)).tables
    await eve.send(Spectate(table=next(t.id for t in tables if t.running)))
    await eve.expect(Joined)
    for asker in (carol, eve):
        await asker.send(ListGames(id=7))
        listed = await asker.expect(Games, where=lambda m: m.id == 7)
        assert listed.games == () and listed.total is None
        assert not any(seed.encode() in body for body in asker.raw)
    await carol.send(Leave())
    await dan.expect(GameOver)
    await eve.send(ListGames(id=8))  # the game Eve watched is over: both games of the seed are listed, seed and all
    assert [g.seed for g in (await eve.expect(Games, where=lambda m: m.id == 8)).games] == [seed, seed]


# --- hanab.live's rule options ----------------------------------------------------------------------------------


async def test_a_table_with_deck_plays_lets_the_last_card_be_played_blind(connect: Connect) -> None:
    alice, bob = await two_people(connect, deck_plays=True)
    view = await play_until((alice, bob), lambda v: v.deck_left == 1)
    assert view.config.deck_plays  # the option reaches the players' views, so a client offers the move
    last = view.deck_size - 1
    assert Play(last) in view.legal_actions() or view.current != 0
    mover = (alice, bob)[view.current]
    hand = [cv.order for cv in view.hands[view.current]]
    await mover.send(ActionRequest(Play(last)))
    after = (await mover.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)).view
    assert after.deck_left == 0 and [cv.order for cv in after.hands[view.current]] == hand
    event = after.events[-1]
    assert event.action == Play(last) and event.drawn is None  # type: ignore[union-attr]


async def test_without_deck_plays_the_last_card_stays_in_the_deck(connect: Connect) -> None:
    alice, bob = await two_people(connect)
    view = await play_until((alice, bob), lambda v: v.deck_left == 1)
    assert not view.config.deck_plays
    await (alice, bob)[view.current].send(ActionRequest(Play(view.deck_size - 1)))
    refused = await (alice, bob)[view.current].expect(ErrorReply)
    assert refused.code == "illegal_action" and "not in your hand" in refused.message


async def test_a_table_that_ends_when_no_points_are_left_ends_early(connect: Connect) -> None:
    # With this seed and these moves, the last card still needed leaves play two turns before the final round
    # would end (found with the engine; without the option the same moves play all 82 turns).
    alice, bob = await two_people(connect, seed="early-6", end_when_no_points=True)
    view = await play_until((alice, bob), lambda v: False)
    assert view.outcome is not None and view.outcome.reason is EndReason.NO_MORE_POINTS and view.turn == 80
    alice2, bob2 = await two_people(connect, ("Carol", "Dan"), seed="early-6")
    view = await play_until((alice2, bob2), lambda v: False)
    assert view.outcome is not None and view.outcome.reason is EndReason.FINAL_ROUND and view.turn == 82


# --- the bots' level and reasons ----------------------------------------------------------------------------------


async def test_the_bots_play_at_the_tables_level(connect: Connect, server: Server) -> None:
    seen: list[Level] = []
    house = server.lobby.policy

    def recording(view: PlayerView, bot_seats: frozenset[int], level: Level) -> Decision:
        seen.append(level)
        return house(view, bot_seats, level)

    server.lobby.policy = recording
    alice, default, first = await seated_with_bots(connect, "Alice", seats=2)
    bob, chosen, second = await seated_with_bots(connect, "Bob", seats=2, level="h-group")
    assert default.table.level == "beginner" and chosen.table.level == "h-group"
    for person, view in ((alice, first), (bob, second)):
        if view.current == 0:  # so that the bot's turn comes
            await person.send(ActionRequest(view.legal_actions()[-1]))
    await eventually(lambda: len(set(seen)) >= 2, "both tables' bots to choose a move")
    assert set(seen) == {"beginner", "h-group"}


@pytest.mark.real_time
async def test_a_bots_reason_never_names_a_players_own_cards_to_them(tcp_connect: Connect) -> None:
    """Over real TCP, two people and a bot: a reason that names Bob's cards (the bot's clue to him) never reaches
    him while the game runs; every other reason does, right after its move; the ones kept come after game_over."""
    alice, bob = await tcp_connect("Alice"), await tcp_connect("Bob")
    await alice.send(CreateTable(name="why", seats=3, level="basic", seed="why not"))
    table = (await alice.expect(Joined)).table
    await bob.send(Join(table=table.id))
    await bob.expect(Joined)
    await alice.send(AddBot(seat=2))
    await alice.send(Start())
    view = await play_until((alice, bob), lambda v: v.turn >= 24 and v.current != 2)  # the bot waits for us
    await bob.flush()
    during = bob.take(BotReason)
    bot_moves = {e.turn: e.action for e in view.events if isinstance(e, TurnEvent) and e.seat == 2}
    named_bob = {t for t, a in bot_moves.items() if isinstance(a, Clue) and a.target == 1}
    assert bot_moves and named_bob, "the deal should have the bot clue Bob at least once in 24 turns"
    assert all(r.seat == 2 and r.reason for r in during)
    assert {r.turn for r in during} == set(bot_moves) - named_bob
    again = await tcp_connect("Bob", resume=bob.token)  # type: ignore[attr-defined]  # Bob comes back: the same
    await again.expect(ViewUpdate)
    await again.flush()
    assert {r.turn for r in again.take(BotReason)} == set(bot_moves) - named_bob
    await alice.send(Leave())  # the game ends for Bob
    await again.expect(GameOver)
    await again.flush()
    assert {r.turn for r in again.take(BotReason)} == named_bob


@pytest.mark.parametrize("fast_config", [replace(FAST, bot_delay=0.2)])  # time to queue while it thinks
async def test_a_bots_reason_names_the_bots_turn_when_a_pre_move_follows_it(connect: Connect) -> None:
    """The bot's move makes the next seat's queued move at once: the reason still names the bot's own turn."""
    alice, sam = await connect("Alice"), await connect("Sam")  # Sam watches: he hears every reason at once
    await alice.send(CreateTable(name="pre-moves", seats=2, level="basic", seed="pre-moves"))
    table = (await alice.expect(Joined)).table
    await alice.send(AddBot(seat=1))
    await sam.send(Spectate(table=table.id))
    await sam.expect(Joined)
    await alice.send(Start())

    async def after(turn: int) -> PlayerView:
        """Alice's newest view once one past ``turn`` came (a pre-move comes right behind the bot's move)."""
        views = [await alice.expect(ViewUpdate, where=lambda m: m.view.turn > turn), *alice.take(ViewUpdate)]
        return max((m.view for m in views), key=lambda v: v.turn)

    view, made = await after(-1), 0
    while made < 2 and view.outcome is None:
        if view.current == 0:
            await alice.send(ActionRequest(dull_move(view)))
        else:  # the bot thinks: Alice queues the discard of her oldest card, then hears what became of it
            await alice.send(QueueMove(PreMoveKind.DISCARD, view.hands[0][-1].order))
            heard: list[Queued | ErrorReply] = []
            # The queue's answer, then the outcome (made, not made, cancelled); or a refusal.
            while not any(isinstance(m, ErrorReply) or m.kind is None for m in heard) and len(heard) < 2:
                heard.append(await alice.expect(object, where=lambda m: isinstance(m, (Queued, ErrorReply))))
            made += sum(isinstance(m, Queued) and m.note == "your queued discard was made" for m in heard)
        view = await after(view.turn)
    await settle(sam)
    watched = sam.take(ViewUpdate)[-1].view  # the bot may have moved again after Alice's last view
    bot_turns = {e.turn for e in watched.events if isinstance(e, TurnEvent) and e.seat == 1}
    reasons = sam.take(BotReason)
    assert made == 2, "with this seed, Alice's queued discards are made right after the bot's moves"
    assert reasons and {r.turn for r in reasons} <= bot_turns, ({r.turn for r in reasons} - bot_turns)


# --- kept across a restart --------------------------------------------------------------------------------------


async def test_the_bots_reasons_survive_a_restart_and_stay_kept_from_the_seats_they_name(tmp_path: Path) -> None:
    start = functools.partial(serve, "127.0.0.1", 0, str(tmp_path / "reasons.sqlite3"), config=FAST)

    def said(client: Client) -> set[tuple[int, str]]:
        return {(r.turn, r.reason) for r in client.take(BotReason)}

    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        alice, sam = await memory_client(server, nursery, "Alice"), await memory_client(server, nursery, "Sam")
        await alice.send(CreateTable(name="why", seats=3, level="basic", seed="why not"))
        table = (await alice.expect(Joined)).table.id
        await alice.send(AddBot(seat=1))
        await alice.send(AddBot(seat=2))
        await sam.send(Spectate(table=table))
        await sam.expect(Joined)
        await alice.send(Start())
        await play_until((alice,), lambda v: v.turn >= 18 and v.current == 0)  # the bots wait for her now
        await settle(alice, sam)
        to_alice, to_sam = said(alice), said(sam)
        assert to_alice and to_sam - to_alice, "the deal should have the bots clue Alice, and say things she may read"
        await server.stop()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        alice = await memory_client(server, nursery, "Alice", resume=alice.token)  # type: ignore[attr-defined]
        sam = await memory_client(server, nursery, "Sam", resume=sam.token)  # type: ignore[attr-defined]
        await sam.send(Spectate(table=table))  # a spectator's place is not kept: he watches again
        await alice.expect(ViewUpdate)
        await sam.expect(ViewUpdate)
        await settle(alice, sam)
        assert said(alice) == to_alice and said(sam) == to_sam
        assert server.lobby.tables[table].game.state.current == 0  # type: ignore[union-attr]  # no reason since
        nursery.cancel_scope.cancel()


async def test_a_tables_options_and_seeded_games_survive_reopening_the_store(tmp_path: Path) -> None:
    path = str(tmp_path / "games.sqlite3")
    chosen = TableSettings(GameConfig(chat=ChatPolicy.ALWAYS, end_when_no_points=True, deck_plays=True), "basic",
                           "friday")
    plain = TableSettings(GameConfig(chat=ChatPolicy.ALWAYS))
    store = Store(path)
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("Friday", chosen, None, 0)
        plain_id = await store.create_table("Plain", plain, None, 0)
        gone = await store.create_table("Gone", chosen, None, 0)
        await store.close_table(gone, played=False)  # never played: forgotten, its options too
        seeded = await store.start_game(tid, GameConfig(players=2), "friday", ("A", "B"), seeded=True)
        await store.finish_game(seeded, 12, "final_round")
        random = await store.start_game(plain_id, GameConfig(players=2), "friday", ("C", "D"))
        await store.finish_game(random, 3, "final_round")  # the same text by chance, but not chosen as a seed
        nursery.cancel_scope.cancel()
    store.close_sync()
    again = Store(path)
    again.open_sync()
    snap = again.read_sync(read_snapshot)
    listed = again.read_sync(read_games)
    again.close_sync()
    assert {t.name: t.settings for t in snap.tables} == {"Friday": chosen, "Plain": plain}
    assert [(g.id, g.seed) for g in listed] == [(random, None), (seeded, "friday")]


def test_a_clock_stored_apart_from_the_options_joins_them_when_the_store_opens(tmp_path: Path) -> None:
    # The shape of a store written before a timed table's clock joined its options: a table_clocks row beside
    # (or without) a table_choices row.
    path = str(tmp_path / "games.sqlite3")
    store = Store(path)
    store.open_sync()
    store.close_sync()
    db = sqlite3.connect(path)
    with db:
        db.execute("CREATE TABLE table_clocks (table_id INTEGER PRIMARY KEY, time_base INTEGER NOT NULL,"
                   " time_per_turn INTEGER NOT NULL)")
        for name in ("Chosen", "Clock only", "Plain"):
            db.execute("INSERT INTO tables (name, variant, empty_clues, all_or_nothing, chat, seats, created)"
                       " VALUES (?, 'No Variant', 0, 0, 'always', 2, 0)", (name,))
        db.execute("""INSERT INTO table_choices VALUES (1, '{"seed": "friday"}')""")
        db.execute("INSERT INTO table_clocks VALUES (1, 300, 10), (2, 60, 0)")
    db.close()
    again = Store(path)
    again.open_sync()
    snap = again.read_sync(read_snapshot)
    again.close_sync()
    always = GameConfig(chat=ChatPolicy.ALWAYS)
    assert {t.name: t.settings for t in snap.tables} == {
        "Chosen": TableSettings(replace(always, timed=True, time_base=300, time_per_turn=10), seed="friday"),
        "Clock only": TableSettings(replace(always, timed=True, time_base=60, time_per_turn=0)),
        "Plain": TableSettings(always)}
    db = sqlite3.connect(path)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'table_clocks'").fetchall() == []
    db.close()


async def test_hanabi_server_games_says_who_else_played_a_seed(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(chat=ChatPolicy.OFF), seed="monday"), None, 0)
        for players, score in ((("Ann", "Ben"), 11), (("Cat", "Dan"), 19)):
            gid = await store.start_game(tid, GameConfig(players=2), "monday", players, seeded=True)
            await store.finish_game(gid, score, "final_round")
        gid = await store.start_game(tid, GameConfig(players=2), "random", ("Eve", "Fay"))
        await store.finish_game(gid, 5, "final_round")
        nursery.cancel_scope.cancel()
    store.close_sync()
    assert main(["games", "--db", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "seed 'monday', also played by: #1 Ann, Ben: 11" in lines[2]
    assert "seed 'monday', also played by: #2 Cat, Dan: 19" in lines[4]
    assert len(lines) == 5  # the random deal has no seed line
    assert main(["games", "--db", str(path), "--json"]) == 0
    assert [json.loads(line)["seed"] for line in capsys.readouterr().out.splitlines()] == [None, "monday", "monday"]


def test_the_seats_kept_from_a_reason_are_the_decisions_own_and_the_clues_target() -> None:
    from hanabi.engine.bots import seats_named

    said = Decision(Clue(2, rank=3), "cluing seat 3 3: a finesse: R2 gets blind-played first", frozenset({1, 2}))
    assert seats_named(said, 0, 4) == {1, 2}
    assert seats_named(Decision(Clue(2, rank=3), "their R3 can be played", frozenset({1})), 0, 4) == {1, 2}
    # A bot that does not say: a finesse is kept from everyone but its giver, a play only names the mover's hand.
    assert seats_named(Decision(Clue(2, rank=3), "a finesse: R2 first"), 0, 4) == {1, 2, 3}
    assert seats_named(Decision(Clue(2, rank=3), "their R3 can be played"), 0, 4) == {2}
    assert seats_named(Decision(Play(7), "my slot 1 is R1"), 3, 4) == {3}


def test_a_create_table_request_is_one_tables_settings() -> None:
    asked = CreateTable(name="t", variant=Variant.SIX_SUITS, seats=4, empty_clues=True, chat=ChatPolicy.OFF,
                        level="basic", seed="friday", deck_plays=True, timed=True, time_base=90, time_per_turn=5)
    assert settings_of(asked) == TableSettings(
        GameConfig(players=4, variant=Variant.SIX_SUITS, empty_clues=True, chat=ChatPolicy.OFF, deck_plays=True,
                   timed=True, time_base=90, time_per_turn=5), "basic", "friday")
    # An untimed table's clock is the default one whatever the request said: its games and its listing agree.
    untimed = settings_of(CreateTable(name="t", time_base=90, time_per_turn=5))
    assert untimed == TableSettings(GameConfig()) and choices_text(untimed) == PLAIN_CHOICES
