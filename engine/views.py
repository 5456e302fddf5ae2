"""Redaction: what each seat, a spectator, or everyone at the end may see.

This module is the single source of redaction for the whole project. A
``PlayerView`` holds every other hand, only knowledge about the seat's own
cards, and the public history; it never holds the deck's order, the seed, or
(while the game runs) the seat's own card identities. Nothing else in the
project builds views, so nothing else can leak.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .actions import Event, TurnAction
from .cards import Card
from .knowledge import CardKnowledge
from .options import GameConfig
from .outcome import Outcome
from .state import GameState, IllegalAction, deck_play_order, legal_turn_actions


@dataclass(frozen=True, slots=True)
class CardView:
    """A card in a hand as one viewer sees it: ``card`` is None when the viewer may not know it."""

    order: int
    card: Card | None
    knowledge: CardKnowledge


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's (or a spectator's, ``seat=None``) view of the table."""

    seat: int | None
    config: GameConfig
    hands: tuple[tuple[CardView, ...], ...]
    fireworks: tuple[int, ...]
    clue_tokens: int
    strikes: int
    discard: tuple[tuple[int, Card], ...]  # (order, card), oldest first
    deck_left: int
    deck_size: int
    current: int
    turn: int
    final_turns_left: int | None
    outcome: Outcome | None
    events: tuple[Event, ...]

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def my_hand(self) -> tuple[CardView, ...]:
        if self.seat is None:
            raise ValueError("a spectator has no hand")
        return self.hands[self.seat]

    def legal_actions(self) -> list[TurnAction]:
        """What the seat to move may do, judged from this view (empty when it is not this seat's turn)."""
        if self.outcome is not None or (self.seat is not None and self.seat != self.current):
            return []
        own = [cv.order for cv in self.hands[self.current]]
        cards = [[cv.card for cv in hand] for hand in self.hands]
        return legal_turn_actions(self.config, self.current, own, self.clue_tokens, cards,
                                  deck_play_order(self.config, self.deck_left, self.deck_size))

    def visible_cards(self) -> list[Card]:
        """Every card identity this viewer can see: other hands, the discard pile and the fireworks."""
        seen = [cv.card for hand in self.hands for cv in hand if cv.card is not None]
        seen += [card for _, card in self.discard]
        for suit, height in zip(self.config.variant.suits, self.fireworks, strict=True):
            seen += [Card(suit, r) for r in range(1, height + 1)]
        return seen


@dataclass(frozen=True, slots=True)
class Reveal:
    """Everything, for after the game: the whole deck in order and the seed."""

    deck: tuple[Card, ...]
    seed: int | str | None
    hands: tuple[tuple[int, ...], ...]
    outcome: Outcome


def view_for(state: GameState, seat: int | None) -> PlayerView:
    """The view of ``seat``; ``None`` is a spectator, who sees every hand. Own cards show once the game is over."""
    return views_for(state, (seat,))[0]  # one function holds the rule of what a seat may see: views_for


def views_for(state: GameState, seats: Iterable[int | None]) -> list[PlayerView]:
    """The views of several seats (None: a spectator), built together; ``view_for`` is this for one seat.

    The rule: a seat sees every hand but its own, of which it sees only
    what it knows (``card`` None), until the game is over; a spectator sees
    every hand. Never the deck's order or the seed.

    A server sends every seat its view after every move: the hands as others
    see them are built once here and every view takes them from there; each
    seat's own hand is built from nothing but its knowledge.
    """
    deck, knowledge, orders_of = state.deck, state.knowledge, state.hands
    over = state.outcome is not None
    players = len(orders_of)
    shown = tuple([tuple([CardView(o, deck[o], knowledge[o]) for o in orders]) for orders in orders_of])
    discard = tuple(zip(state.discard, map(deck.__getitem__, state.discard), strict=True))
    views = []
    for seat in seats:
        if seat is None or over:
            hands = shown
        elif 0 <= seat < players:
            mine = list(shown)
            mine[seat] = tuple([CardView(o, None, knowledge[o]) for o in orders_of[seat]])
            hands = tuple(mine)
        else:
            raise ValueError(f"there is no seat {seat} at a {players}-player table")
        views.append(PlayerView(seat, state.config, hands, state.fireworks, state.clue_tokens, state.strikes, discard,
                                state.deck_left, len(deck), state.current, state.turn, state.final_turns_left,
                                state.outcome, state.events))
    return views


def spectator_view(state: GameState) -> PlayerView:
    return view_for(state, None)


def reveal(state: GameState) -> Reveal:
    """The full reveal; refused while the game runs."""
    if state.outcome is None:
        raise IllegalAction("the deck and the seed are revealed only once the game is over")
    return Reveal(state.deck, state.seed, state.hands, state.outcome)
