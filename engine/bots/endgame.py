"""The endgame at a table of house bots: with the deck nearly out, look ahead before acting.

Every play or discard draws a card, and once the deck is out each player has one turn left; a clue draws
none. With a few cards left, which of the sensible moves (the bot's own choice, a known play, a clue, a
stall, a discard) gets the most cards played before the last turn depends on the few turns that remain,
and at a table of house bots those can be played out: every bot follows the same conventions, so a bot
can simulate its partners exactly. What it cannot see is its own hand and the deck, so it plays each
move out in a few *worlds*: its own cards drawn from what the count and the conventions allow, the rest
of the unseen cards shuffled into the deck. It keeps its own choice unless another move scores more in
those worlds by a clear margin. Only the seat's own view is used (``world`` builds the sampled game from
it), so nothing is peeked at.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..actions import Play, TurnAction, TurnEvent
from ..cards import Card
from ..knowledge import CardKnowledge
from ..state import GameState, apply
from ..views import PlayerView, view_for
from .cardmath import bits
from .memory import Table

# A seat's policy in a rollout: a bot that starts from a given memory of the table and never searches.
Player = Callable[[Table], Callable[[PlayerView], TurnAction]]

WORLDS = 3  # sampled worlds per decision
# Rollout decisions per search (0.5-1.5 ms each): the search stops before a world that would pass it, and
# drops a world it cannot finish, so that a decision stays well under 50 ms of CPU. Bots only, 500 deals:
# 32 and 48 alike (22.95 and 22.96 from 3 cards), so do 24 and 64 on 200; 3 or 6 worlds alike (the budget
# ends the search first).
BUDGET = 32
MARGIN = 0.3  # points (mean over the worlds) another move must gain over the bot's own choice


def world(view: PlayerView, masks: dict[int, int], rng: random.Random) -> GameState | None:
    """A game consistent with ``view``: our own cards drawn within ``masks``, the unseen rest as the deck.

    None when the draw fails (the masks leave no consistent hand after a few tries).
    """
    assert view.seat is not None
    config = view.config
    deck: list[Card | None] = [None] * view.deck_size
    for seat, hand in enumerate(view.hands):
        if seat != view.seat:
            for cv in hand:
                deck[cv.order] = cv.card
    for order, card in view.discard:
        deck[order] = card
    played: list[int] = []
    for event in view.events:
        if isinstance(event, TurnEvent) and isinstance(event.action, Play) and event.success:
            deck[event.action.order] = event.card
            played.append(event.action.order)
    unseen = Counter(c.identity for c in config.variant.deck())
    unseen.subtract(c.identity for c in deck if c is not None)
    mine = sorted(view.hands[view.seat], key=lambda cv: masks[cv.order].bit_count())
    for _ in range(5):
        pool = Counter(unseen)
        chosen: dict[int, int] = {}
        for cv in mine:
            options = [i for i in bits(masks[cv.order]) if pool[i] > 0]
            if not options:
                break
            i = rng.choices(options, weights=[pool[i] for i in options])[0]
            pool[i] -= 1
            chosen[cv.order] = i
        else:
            rest = [i for i, n in pool.items() for _ in range(n)]
            rng.shuffle(rest)
            for order, i in chosen.items():
                deck[order] = Card.from_identity(i)
            nxt = view.deck_size - view.deck_left
            for order in range(nxt, view.deck_size):
                deck[order] = Card.from_identity(rest.pop())
            if any(c is None for c in deck):
                return None  # a card we cannot place (a rule we do not model): no world
            blank = CardKnowledge(config.variant.all_identities)
            knowledge = [blank] * view.deck_size
            for hand in view.hands:
                for cv in hand:
                    knowledge[cv.order] = cv.knowledge
            cards = tuple(c for c in deck if c is not None)
            return GameState(config, None, cards, tuple(tuple(cv.order for cv in h) for h in view.hands),
                             tuple(knowledge), nxt, view.fireworks, view.clue_tokens, view.strikes,
                             tuple(o for o, _ in view.discard), tuple(played), view.current, view.turn,
                             view.final_turns_left, None, view.events)
    return None


def play_out(state: GameState, choosers: Sequence[Callable[[PlayerView], TurnAction]]) -> tuple[int, int]:
    """The final score when every seat follows its chooser from ``state`` (a strike-out scores 0), and the
    number of decisions it took."""
    turns = 0
    while state.outcome is None:
        seat = state.current
        state = apply(state, choosers[seat](view_for(state, seat)), seat=seat)
        turns += 1
    return state.outcome.score, turns


def search(view: PlayerView, table: Table, masks: dict[int, int], own: TurnAction,
           candidates: Sequence[TurnAction], player: Player) -> TurnAction:
    """The move (``own`` or one of ``candidates``) that scores most when played out in sampled worlds.

    ``own`` is kept unless another move beats it by MARGIN on average: the worlds are few, and the
    bot's own choice has its conventions behind it.
    """
    assert view.seat is not None
    moves = [own] + [a for a in dict.fromkeys(candidates) if a != own]
    if len(moves) == 1:
        return own
    rng = random.Random(view.turn * 7919 + view.deck_left)  # the same view, the same choice
    totals = [0.0] * len(moves)
    worlds = 0
    spent = 0
    for _ in range(WORLDS):
        if worlds and spent + spent / worlds > BUDGET:
            break  # another world would take this decision over its time: decide on those played out
        state = world(view, masks, rng)
        if state is None:
            continue
        others = {seat: Table(table.config, seat, table.level, table.bot_seats) for seat in range(view.players)
                  if seat != view.seat}
        for seat, memory in others.items():
            memory.catch_up(view_for(state, seat))
        spent += 2  # the other seats' memories, rebuilt for the world, cost about two decisions
        scores = []
        for move in moves:
            if spent > BUDGET:
                break
            choosers = [player((table if seat == view.seat else others[seat]).fork())
                        for seat in range(view.players)]
            score, turns = play_out(apply(state, move, seat=view.seat), choosers)
            scores.append(score)
            spent += turns
        if len(scores) < len(moves):
            break  # out of time within this world: it cannot compare every move
        worlds += 1
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
    if not worlds:
        return own
    best = max(range(len(moves)), key=lambda k: totals[k])
    return moves[best] if totals[best] - totals[0] > MARGIN * worlds else own


__all__ = ["play_out", "search", "world"]
