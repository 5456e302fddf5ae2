"""What if in the table's review: the leader plays on from the step shown, for any seat, or has the house bot
play a seat's turn; everyone at the table is shown each move; stepping or leaving returns to the real game.

On virtual time over in-memory streams, and over real TCP for what reaches a spectator's socket.
"""

from __future__ import annotations

import json

import pytest
from hanabi.engine import GameState, Play, TurnAction, legal_actions, played, seat_view, what_if
from hanabi.engine.bots import decide
from hanabi.engine.replay import from_json
from hanabi.protocol.messages import (
    ErrorReply,
    HypoAction,
    HypoBack,
    HypoBot,
    HypoEnd,
    HypoReveal,
    HypoStart,
    Hypothetical,
    Joined,
    OpenReview,
    ReplayFile,
    Review,
    ReviewStep,
    Spectate,
)
from hanabi.server import Server
from hanabi.server.requests import WhatIfBotMove

from .conftest import Client, Connect
from .test_server_review import finished_table, refusal

pytestmark = pytest.mark.virtual_time


def final_of(replay: ReplayFile) -> GameState:
    return from_json(json.loads(replay.json)).state


async def shown(client: Client, moves: int) -> Hypothetical:
    return await client.expect(Hypothetical, where=lambda h: h.step is not None and len(h.actions) == moves)


async def reviewing_at(connect: Connect, step: int) -> tuple[Client, Client, int, GameState]:
    """Alice (the host, leading) and Bob reviewing their finished game at ``step``; the table and the game."""
    alice, bob, table, _ = await finished_table(connect)
    final = final_of(await bob.expect(ReplayFile))
    await alice.send(ReviewStep(step=step))
    for c in (alice, bob):
        await c.expect(Review, where=lambda r: r.step == step)
    return alice, bob, table, final


async def test_the_leader_plays_a_what_if_for_any_seat_and_everyone_follows(connect: Connect) -> None:
    alice, bob, table, final = await reviewing_at(connect, 4)
    await alice.send(HypoStart())
    start = await bob.expect(Hypothetical)
    assert (start.table, start.step, start.actions, start.revealed) == (table, 4, (), False)
    what = what_if(final, 4)
    moves: list[TurnAction] = []
    for _ in range(3):  # three turns, whoever's they are: the leader plays every seat
        action = legal_actions(what.state)[-1]
        await alice.send(HypoAction(action))
        what = played(what, action)
        moves.append(action)
        for c in (alice, bob):
            assert (await shown(c, len(moves))).actions == tuple(moves)
    await bob.send(HypoAction(legal_actions(what.state)[0]))  # only the leader plays the what if
    assert "Alice leads" in (await refusal(bob, "not_leader")).message
    await alice.send(HypoBack())
    assert (await shown(bob, 2)).actions == tuple(moves[:2])
    await alice.send(HypoReveal(shown=True))
    assert (await bob.expect(Hypothetical, where=lambda h: h.revealed)).actions == tuple(moves[:2])
    await alice.send(HypoEnd())
    assert (await bob.expect(Hypothetical, where=lambda h: h.step is None)).actions == ()
    await alice.send(HypoBack())
    await refusal(alice, "no_hypothetical")


async def test_an_illegal_move_in_a_what_if_is_refused_with_the_engines_reason(connect: Connect) -> None:
    alice, bob, _, final = await reviewing_at(connect, 2)
    await alice.send(HypoStart())
    await bob.expect(Hypothetical)
    what = what_if(final, 2)
    current = what.state.current
    stranger = next(o for seat, hand in enumerate(what.state.hands) if seat != current for o in hand)
    await alice.send(HypoAction(Play(stranger)))
    error = await refusal(alice, "illegal_action")
    assert error.message.startswith("not in this what if:") and "hand" in error.message


async def test_the_house_bot_plays_the_seat_to_act_from_that_seat_s_view(connect: Connect) -> None:
    alice, bob, _, final = await reviewing_at(connect, 5)
    await alice.send(HypoStart())
    await bob.expect(Hypothetical)
    await alice.send(HypoBot())
    bot_move = (await shown(bob, 1)).actions[0]
    what = what_if(final, 5)
    # Two people sit here: the house bot plays at the table's level, reading nobody as a bot.
    assert bot_move == decide(seat_view(what), bot_seats=frozenset(), level="beginner").action
    await bob.send(HypoBot())
    await refusal(bob, "not_leader")


async def test_a_step_of_the_review_ends_the_what_if_and_a_newcomer_sees_one_under_way(connect: Connect) -> None:
    alice, bob, table, final = await reviewing_at(connect, 3)
    await alice.send(HypoStart())
    action = legal_actions(what_if(final, 3).state)[-1]
    await alice.send(HypoAction(action))
    await shown(bob, 1)
    carol = await connect("Carol")
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    await carol.expect(ReplayFile)
    await carol.expect(Review)
    assert (await carol.expect(Hypothetical)).actions == (action,)
    await alice.send(ReviewStep(step=6))
    for c in (bob, carol):
        assert (await c.expect(Review, where=lambda r: r.step == 6)).step == 6
        assert (await c.expect(Hypothetical, where=lambda h: h.step is None)).step is None
    await alice.send(HypoAction(action))
    await refusal(alice, "no_hypothetical")


async def test_a_what_if_is_asked_only_of_a_review(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.send(HypoStart())
    assert (await alice.expect(ErrorReply)).code == "not_seated"


@pytest.mark.real_time
async def test_over_tcp_a_what_if_s_frames_carry_moves_and_never_a_card(tcp_connect: Connect) -> None:
    """The game is over, so its file (the whole deck) went to everyone; a what if adds no card of its own: its
    frames name moves only, whoever receives them (a spectator watching as a seat too)."""
    alice, bob, table, _ = await finished_table(tcp_connect)
    carol = await tcp_connect("Carol")
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    final = final_of(await carol.expect(ReplayFile))
    await alice.send(ReviewStep(step=2))
    await carol.expect(Review, where=lambda r: r.step == 2)
    await alice.send(HypoStart())
    what = what_if(final, 2)
    for _ in range(4):  # plays and discards draw cards the what if keeps unknown
        action = next((a for a in legal_actions(what.state) if not isinstance(a, Play)), None) or \
            legal_actions(what.state)[0]
        await alice.send(HypoAction(action))
        what = played(what, action)
    await alice.send(HypoBot())
    await shown(carol, 5)
    frames = [(body, tree) for body, tree in zip(carol.raw, carol.trees, strict=True) if tree["t"] == "hypothetical"]
    assert len(frames) == 6
    cards = {str(card).encode() for card in final.deck}
    for body, tree in frames:
        assert set(tree) == {"v", "t", "table", "game", "step", "actions", "revealed", "id"}
        assert all(set(a) == {"kind", "order", "target", "colour", "rank"} for a in tree["actions"])
        assert not any(card in body for card in cards), tree
    for c in (alice, bob, carol):
        await c.stream.aclose()


async def test_opening_the_same_game_again_ends_its_what_if_for_everyone(connect: Connect) -> None:
    alice, bob, _, _ = await reviewing_at(connect, 3)
    await alice.send(HypoStart())
    started = await bob.expect(Hypothetical)
    await alice.send(OpenReview(game=started.game))
    await bob.expect(Review, where=lambda r: r.step == 0)
    assert (await bob.expect(Hypothetical, where=lambda h: h.step is None)).game == started.game


async def test_the_bot_s_move_for_a_what_if_that_moved_on_is_dropped_and_an_illegal_one_made_legal(
        connect: Connect, server: Server) -> None:
    alice, bob, table_id, final = await reviewing_at(connect, 2)
    await alice.send(HypoStart())
    await bob.expect(Hypothetical)
    table = server.lobby.tables[table_id]
    asked = what_if(final, 2)  # the what if as the bot was asked about it
    action = legal_actions(asked.state)[-1]
    await alice.send(HypoAction(action))
    await shown(bob, 1)
    stale = WhatIfBotMove(table.review.game, asked, legal_actions(asked.state)[0])  # type: ignore[union-attr]
    await table.call(None, stale)  # the what if has a move since: the bot's choice is dropped
    now = played(asked, action)
    wrong = Play(next(o for seat, hand in enumerate(now.state.hands) if seat != now.state.current for o in hand))
    await table.call(None, WhatIfBotMove(table.review.game, now, wrong))  # type: ignore[union-attr]
    made = await shown(bob, 2)  # a bot's illegal choice becomes the first legal move, as in a game
    assert made.actions == (action, legal_actions(now.state)[0])
    await bob.settle()
    assert not bob.take(Hypothetical)  # and nothing came of the stale choice
