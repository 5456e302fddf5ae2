"""The moments that mattered are the same from the replay file alone: in the review of a table's game, from the
file the server sends at the end, from the file ``hanabi-server export`` writes from its store, and in that file
opened with ``--replay``.

A real server on loopback TCP with a game store on disk, each person's client a session, house bots in the other
seats. The people play like the house bot but for a few moves of their own, so their games have moments; the bots'
seats must never be judged, and a seat handed to a bot mid-game is judged only while a person held it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from hanabi.client.model import ClientModel
from hanabi.client.moments import Found
from hanabi.client.replayer import ReplayViewer
from hanabi.client.runner import ModelStore
from hanabi.client.session import Address, Session
from hanabi.engine import Discard, Play, PlayerView, TurnAction
from hanabi.engine.bots import Level
from hanabi.engine.bots.hgroup import ConventionBot
from hanabi.engine.coach import MISPLAY, Judged, replay_moments
from hanabi.engine.replay import Replay, from_json, load
from hanabi.protocol.messages import ActionRequest, AddBot, CreateTable, HandSeat, Join, Start
from hanabi.server import ServerConfig, serve
from hanabi.server.cli import main
from prompt_toolkit.input import create_pipe_input

from tests.engine.hanablive_loader import problems

pytestmark = pytest.mark.moments  # every test here waits for the moments found and compares them

FAST = ServerConfig(bot_delay=0.0, ping_interval=0.5, idle_timeout=30.0, shutdown_grace=0.2)
GAME = 120.0  # only stops a hung test: a game of bot moves takes seconds, more on a busy machine

Choose = Callable[[PlayerView], TurnAction]


def whims(turns: dict[int, Callable[[PlayerView], TurnAction]]) -> Choose:
    """A person who plays like the house bot (at the strongest level, as a person need not follow the table's)
    but on their own turns given (0: their first), where they do their own thing."""
    bot = ConventionBot(search=False)
    taken = 0

    def choose(view: PlayerView) -> TurnAction:
        nonlocal taken
        action = bot.choose(view)  # every turn, so that the bot follows the whole game
        own = turns.get(taken)
        taken += 1
        return own(view) if own is not None else action
    return choose


def newest_played(view: PlayerView) -> TurnAction:
    return Play(view.my_hand[0].order)


def oldest_thrown(view: PlayerView) -> TurnAction:
    return Discard(view.my_hand[-1].order) if view.clue_tokens < 8 else Play(view.my_hand[0].order)


async def person(kit, store: ModelStore, session: Session, seat: int, choose: Choose) -> None:
    """Play ``seat`` on each of its turns until the game is over or the seat is no longer ours."""
    acted = -1

    def ready(m: ClientModel) -> bool:
        v = m.view
        return m.seat != seat or v is None or v.over or (v.current == seat and v.turn != acted)

    while True:
        await kit.wait_for(store, ready, f"seat {seat + 1}'s turn or the end", GAME)
        view = store.model.view
        if store.model.seat != seat or view is None or view.over:
            return
        assert store.model.replay is None  # the file (who the bots were among it) comes once the game is over
        acted = view.turn
        session.send(ActionRequest(choose(view)))


async def reviewed(kit, term) -> tuple[Found, Replay]:
    """The moments the review shows once the game is over, and the file the server sent."""
    await kit.wait_for(term.store, lambda m: m.replay is not None and m.review is not None, "the review", GAME)
    term.app.review.found()  # the first ask starts the search, in the background
    found = await trio.to_thread.run_sync(term.app.review.moments.wait, 60.0)
    assert found is not None and not found.failed, found
    assert term.store.model.replay is not None
    return found, from_json(json.loads(term.store.model.replay[1]))


def opened(path: Path) -> Found:
    """The moments ``hanabi-client --replay PATH`` shows."""
    with create_pipe_input() as pipe:
        viewer = ReplayViewer(load(path), path.name, input=pipe)
        found = viewer.moments.wait(60.0)
    assert found is not None and not found.failed, found
    return found


def exported(db: Path, tmp_path: Path) -> Path:
    out = tmp_path / "game.json"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    return out


async def serving(nursery: trio.Nursery, db: Path) -> Address:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, str(db), config=FAST,
                                                           task_status=task_status))
    return Address("127.0.0.1", server.port)


# At beginner (what a file that does not say its table's level is judged at) the bots' seats must not be judged; at
# h-group the level must be the table's.
@pytest.mark.no_cover  # whole games of bot moves: untraced, as docs/developing.md says of such tests
@pytest.mark.parametrize("level", ["beginner", "h-group"])
async def test_the_moments_of_a_game_with_bots_are_the_same_in_the_review_the_file_and_replay(
        kit, tmp_path: Path, level: Level) -> None:
    db = tmp_path / "games.sqlite3"
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        async with trio.open_nursery() as nursery:
            address = await serving(nursery, db)

            async def set_up(session: Session, resumed: bool) -> None:
                await session.request(CreateTable("t", seats=3, level=level, seed="moments"))
                for seat in (1, 2):
                    await session.request(AddBot(seat))
                await session.request(Start())

            alice = Session(address, "alice", term.store.get, term.store.dispatch, on_welcome=set_up)
            nursery.start_soon(alice.run)
            await kit.wait_for(term.store, lambda m: m.view is not None, "the game to start", GAME)
            own = whims({1: newest_played, 3: oldest_thrown, 5: oldest_thrown, 7: oldest_thrown})
            await person(kit, term.store, alice, 0, own)
            found, file = await reviewed(kit, term)
            nursery.cancel_scope.cancel()
    path = exported(db, tmp_path)
    assert found.moments and {m.seat for m in found.moments} == {0}  # alice's moves only: seats 2 and 3 are bots
    assert opened(path).moments == found.moments
    assert tuple(replay_moments(file)) == found.moments and tuple(replay_moments(load(path))) == found.moments
    assert file.bot_level == level and file.bots_at(0) == frozenset({1, 2})
    assert problems(json.loads(path.read_text(encoding="utf-8"))) == []  # hanab.live still takes the file
    assert found.how == opened(path).how == Judged(level, True)


@pytest.mark.no_cover  # a whole game of bot moves: untraced, as docs/developing.md says of such tests
async def test_a_seat_handed_to_a_bot_mid_game_is_judged_while_a_person_held_it_and_no_longer(
        kit, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    bob_store = ModelStore()
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        async with trio.open_nursery() as nursery:
            address = await serving(nursery, db)

            async def open_table(session: Session, resumed: bool) -> None:
                await session.request(CreateTable("t", seats=3, seed="handed"))
                await session.request(AddBot(2))

            alice = Session(address, "alice", term.store.get, term.store.dispatch, on_welcome=open_table)
            nursery.start_soon(alice.run)
            await kit.wait_for(term.store, lambda m: m.table is not None and m.table.players[2] is not None,
                               "the table", GAME)
            table = term.store.model.table
            assert table is not None

            async def sit_down(session: Session, resumed: bool) -> None:
                await session.request(Join(table.id, seat=1))

            bob = Session(address, "bob", bob_store.get, bob_store.dispatch, on_welcome=sit_down)
            bob_line = trio.CancelScope()  # cancelled, Bob's laptop dies

            async def bob_runs() -> None:
                with bob_line:
                    await bob.run()

            nursery.start_soon(bob_runs)
            await kit.wait_for(term.store, lambda m: m.table is not None and m.table.players[1] is not None,
                               "bob at the table", GAME)
            alice.send(Start())
            await kit.wait_for(term.store, lambda m: m.view is not None, "the game to start", GAME)
            nursery.start_soon(person, kit, term.store, alice, 0, whims({1: newest_played, 3: oldest_thrown}))
            # Bob's first move: a card that cannot be played (Alice sees his hand), played. A moment of his.
            await kit.wait_for(bob_store, lambda m: m.view is not None and m.view.current == 1, "bob's turn", GAME)
            seen, bobs = term.store.model.view, bob_store.model.view
            assert seen is not None and bobs is not None
            card = next(cv for cv in seen.hands[1]
                        if cv.card is not None and seen.fireworks[cv.card.suit.index] != cv.card.rank - 1)
            bob.send(ActionRequest(Play(card.order)))
            await kit.wait_for(term.store, lambda m: m.view is not None and m.view.turn > bobs.turn,
                               "bob's misplay", GAME)
            bob_line.cancel()
            await kit.wait_for(term.store, lambda m: m.table is not None and m.table.players[1] is not None
                               and not m.table.players[1].connected, "bob away", GAME)
            alice.send(HandSeat(seat=1))  # to a house bot, which plays it to the end
            found, file = await reviewed(kit, term)
            nursery.cancel_scope.cancel()
    handed = next(h.turn for h in file.holders if h.seat == 1 and h.bot)
    assert handed > bobs.turn and file.bots_at(bobs.turn) == frozenset({2}) and file.bots_at(handed) == {1, 2}
    bobs_misplay = [m for m in found.moments if m.seat == 1]
    assert [(m.turn, m.kind) for m in bobs_misplay] == [(bobs.turn + 1, MISPLAY)]  # his one move, and not the bot's
    assert {m.seat for m in found.moments} == {0, 1}
    path = exported(db, tmp_path)
    assert opened(path).moments == found.moments
    assert tuple(replay_moments(file)) == found.moments and tuple(replay_moments(load(path))) == found.moments
