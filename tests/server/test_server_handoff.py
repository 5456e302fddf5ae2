"""The hot path's hand-offs: a reply, a table's inbox and the store's writer thread keep the guarantees of
the Trio tools they replace (order, bounds, cancellation, and a write's outcome always reaching its caller),
and a move handed over to its connection is still carried out and answered before the next request."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.engine import ChatPolicy, Discard, GameConfig, Variant
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import ActionRequest, ErrorReply, ListTables, Ping, Pong, SeatStatus, Tables, ViewUpdate
from hanabi.server.handoff import Inbox, Reply
from hanabi.server.store import Store, StoreFailure

from .conftest import Connect
from .test_server_faults import last_view, started_game

# --- Reply ------------------------------------------------------------------------------------------------------


async def test_a_reply_wakes_its_waiter_and_one_finished_first_does_not_wait() -> None:
    reply = Reply()
    woken: list[str] = []

    async def waiter() -> None:
        await reply.wait()
        woken.append("yes")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiter)
        await trio.testing.wait_all_tasks_blocked()
        assert woken == []
        reply.finish()
    assert woken == ["yes"]
    with trio.fail_after(1):
        await reply.wait()  # already finished: returns at once (still a checkpoint)


async def test_a_cancelled_wait_gives_up_and_a_later_finish_harms_nothing() -> None:
    reply = Reply()
    with trio.move_on_after(0.05) as scope:
        await reply.wait()
    assert scope.cancelled_caught
    reply.finish()  # nobody waits any more: nothing is rescheduled
    await trio.sleep(0)


async def test_an_uncancellable_wait_waits_for_the_answer_then_the_cancellation_arrives() -> None:
    reply = Reply()
    seen: list[str] = []

    async def waiter(scope: trio.CancelScope) -> None:
        with scope:
            await reply.wait(cancellable=False)
            seen.append("answered")
            await trio.sleep(0)  # the next checkpoint delivers the cancellation
            seen.append("never")

    scope = trio.CancelScope()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiter, scope)
        await trio.testing.wait_all_tasks_blocked()
        scope.cancel()
        await trio.testing.wait_all_tasks_blocked()
        assert seen == []  # still waiting for its answer
        reply.finish()
    assert seen == ["answered"] and scope.cancelled_caught


# --- Inbox ------------------------------------------------------------------------------------------------------


async def test_an_inbox_keeps_order_and_makes_senders_wait_while_full() -> None:
    inbox: Inbox[int] = Inbox(2)
    sent: list[int] = []

    async def sender() -> None:
        for i in range(5):
            await inbox.put(i)
            sent.append(i)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(sender)
        await trio.testing.wait_all_tasks_blocked()
        assert sent == [0, 1]  # the third waits for room
        got = [await inbox.get() for _ in range(5)]
    assert got == [0, 1, 2, 3, 4] and sent == got


async def test_a_closed_inbox_refuses_senders_and_hands_back_what_it_held() -> None:
    inbox: Inbox[int] = Inbox(1)
    refused: list[int] = []

    async def late_sender() -> None:
        try:
            await inbox.put(2)  # waits for room, then the inbox closes
        except trio.ClosedResourceError:
            refused.append(2)

    await inbox.put(1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(late_sender)
        await trio.testing.wait_all_tasks_blocked()
        assert inbox.close() == [1]
    assert refused == [2]
    with pytest.raises(trio.ClosedResourceError):
        await inbox.put(3)


async def test_waiting_on_an_empty_inbox_can_be_cancelled() -> None:
    inbox: Inbox[int] = Inbox(4)
    with trio.move_on_after(0.05) as scope:
        await inbox.get()
    assert scope.cancelled_caught
    await inbox.put(7)  # no waiter is left registered: put does not wake a task that gave up
    assert await inbox.get() == 7


# --- the store's writer thread ----------------------------------------------------------------------------------


async def _game(store: Store) -> int:
    table = await store.create_table("t", Variant.NONE, False, False, ChatPolicy.OFF, 2, None, 0)
    return await store.start_game(table, GameConfig(players=2), "seed", ("A", "B"))


async def test_many_writers_at_once_are_all_committed_in_order(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "many.db"))
    store.open_sync()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            games = [await _game(store) for _ in range(20)]

            async def plays(game: int) -> None:
                for seq in range(15):
                    await store.add_action(game, seq, Discard(seq))

            async with trio.open_nursery() as writers:
                for game in games:
                    writers.start_soon(plays, game)
            for game in games:
                stored = await store.game(game)
                assert stored is not None and stored.actions == [Discard(seq) for seq in range(15)]
            assert store.commits < store.jobs  # writes that queued up together went in one transaction
            nursery.cancel_scope.cancel()
    finally:
        store.close_sync()


async def test_a_failing_write_refuses_only_itself(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "one.db"))
    store.open_sync()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            game = await _game(store)
            await store.add_action(game, 0, Discard(0))
            outcomes: dict[int, str] = {}

            async def write(seq: int) -> None:
                try:
                    await store.add_action(game, seq, Discard(seq))
                    outcomes[seq] = "saved"
                except Exception as e:  # the duplicate (game, seq) breaks the primary key
                    outcomes[seq] = type(e).__name__

            async with trio.open_nursery() as writers:  # queued together: most likely one batch
                for seq in (1, 0, 2):
                    writers.start_soon(write, seq)
            assert outcomes == {1: "saved", 0: "IntegrityError", 2: "saved"}
            stored = await store.game(game)
            assert stored is not None and stored.actions == [Discard(0), Discard(1), Discard(2)]
            nursery.cancel_scope.cancel()
    finally:
        store.close_sync()


async def test_a_write_cancelled_while_in_flight_is_still_committed(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "cancel.db"))
    store.open_sync()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            game = await _game(store)
            with trio.CancelScope() as before:
                before.cancel()
                await store.add_action(game, 0, Discard(9))  # cancelled before it is queued: not written
            scope = trio.CancelScope()

            answered: list[bool] = []

            async def writer() -> None:
                with scope:
                    await store.add_action(game, 0, Discard(0))
                    answered.append(True)  # the answer came back, cancelled or not

            async with trio.open_nursery() as writers:
                writers.start_soon(writer)
                await trio.testing.wait_all_tasks_blocked()  # the write is queued, its caller waits for it
                scope.cancel()
            assert answered == [True]
            stored = await store.game(game)
            assert stored is not None and stored.actions == [Discard(0)]
            nursery.cancel_scope.cancel()
    finally:
        store.close_sync()


async def test_a_stopped_store_refuses_writes_at_once(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "stopped.db"))
    store.open_sync()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            game = await _game(store)
            nursery.cancel_scope.cancel()
        with trio.fail_after(1), pytest.raises(StoreFailure):
            await store.add_action(game, 0, Discard(0))
    finally:
        store.close_sync()


# --- moves handed over to the connection --------------------------------------------------------------------


async def test_requests_sent_together_with_a_move_are_answered_after_it_in_order(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    view = last_view(alice).view
    mover, waiter = (alice, bob) if view.current == 0 else (bob, alice)
    action = last_view(mover).view.legal_actions()[0]
    # One write: a legal move, the same move again (now out of turn), a ping, a list of tables.
    await mover.send_raw(encode(ActionRequest(action, id=1)) + encode(ActionRequest(action, id=2))
                         + encode(Ping(n=5, id=3)) + encode(ListTables(id=4)))
    await mover.drain(0.3)
    replies = [m for m in mover.seen[-12:] if isinstance(m, (ViewUpdate, ErrorReply, Pong, Tables))]
    kinds = [type(m).__name__ for m in replies]
    assert kinds[-4:] == ["ViewUpdate", "ErrorReply", "Pong", "Tables"], kinds
    error = replies[-3]
    assert isinstance(error, ErrorReply) and (error.id, error.code) == (2, "not_your_turn")
    assert (await waiter.expect(ViewUpdate)).view.turn == view.turn + 1


async def test_a_move_sent_just_before_leaving_is_played_before_the_seat_shows_away(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    view = last_view(alice).view
    mover, waiter = (alice, bob) if view.current == 0 else (bob, alice)
    action = last_view(mover).view.legal_actions()[0]
    await mover.send(ActionRequest(action))
    await mover.stream.aclose()
    status = await waiter.expect(SeatStatus, where=lambda m: not m.connected)
    seen = [m for m in waiter.seen if isinstance(m, (ViewUpdate, SeatStatus))]
    assert seen.index(status) > 0 and isinstance(seen[seen.index(status) - 1], ViewUpdate)
    assert seen[seen.index(status) - 1].view.turn == view.turn + 1  # type: ignore[union-attr]
