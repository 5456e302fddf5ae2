"""The coach at a table: a seated player's request for advice, checked, marked in the store, then answered.

The advice is the engine's (``hanabi.engine.coach.advice_for``): the house bot at the table's level decides
from the asker's own redacted view, so it can tell them nothing their screen does not already show. Whether a
table gives advice at all is its host's choice when creating it (``table_rules.advice_refusal``). The game is
marked as played with advice in the store before the answer leaves, so no advice is ever given unmarked.
"""

from __future__ import annotations

import functools

import trio
from hanabi.engine.coach import advice_for
from hanabi.protocol import SENTENCE_MAX, AdviceReply, ErrorCode, GetAdvice, TableInfo
from hanabi.protocol import table_rules as rules

from .session import Player, Refused, refuse
from .turns import TableSide


async def advise(table: TableSide, info: TableInfo, player: Player, request: GetAdvice) -> None:
    """Answer ``player``'s ``get_advice`` (``info``: the table as everyone sees it), or refuse it."""
    refuse(rules.advice_refusal(info, table.seat_of(player)))
    seat = table.seated(player)
    game = table.game
    if game is None or not game.running:
        raise Refused(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table: advice is for your turn")
    state = game.state
    if state.current != seat:
        raise Refused(ErrorCode.NOT_YOUR_TURN, f"advice is for your own turn: it is {game.names[state.current]}'s "
                                               "turn now")
    # Off the event loop, as the bots' own turns are: the table waits for it, and nothing else changes the game.
    advice = await trio.to_thread.run_sync(functools.partial(
        advice_for, state, seat, level=table.level, bot_seats=table.bot_seats, names=game.names))
    if seat not in game.advised:
        await table.store.mark_advice(game.id, seat)
        game.advised.add(seat)
    player.send(AdviceReply(game=game.id, turn=state.turn, move=advice.move[:SENTENCE_MAX],
                            reason=advice.reason[:SENTENCE_MAX], convention=advice.convention,
                            section=advice.section, id=request.id))
