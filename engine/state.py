"""The game itself: state, legal actions and the checked ``apply``.

A ``GameState`` is an immutable value; ``apply`` returns a new one and never
touches the old, so any state can be kept, compared or replayed. The same
seed and the same actions always give the same state (a game *is* its seed
plus its actions). Every rule of RULES.md that concerns a turn lives here.

Hands are tuples of card orders, slot 1 first; a drawn card goes to slot 1,
so the last slot holds the oldest card (hanab.live shows hands the same way;
``hands.py`` moves them).

hanab.live's two rule options live here too (see ``options.py``): the blind
play of the deck's last card, and the end as soon as no more points can be
scored, judged as hanab.live judges it.

A refusal is an ``IllegalAction`` whose message says exactly why; the
refusals a caller may want to tell apart (to name a player, say) are its
subclasses, ``NotYourTurn`` and ``GameEnded``, so nobody words them again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .actions import Action, Clue, Discard, Event, Play, Rearrange, RearrangeEvent, TurnAction, TurnEvent
from .cards import MAX_RANK, RANKS, Card, Suit
from .hands import hands_after, opening_hands
from .knowledge import CardKnowledge
from .options import CLUE_TOKENS, MAX_PLAYERS, MAX_STRIKES, GameConfig
from .outcome import EndReason, Outcome
from .variants import Variant


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says exactly why."""


class NotYourTurn(IllegalAction):
    """A turn action from ``seat`` while ``current`` is the seat to act."""

    def __init__(self, seat: int, current: int) -> None:
        super().__init__(self.sentence(f"seat {current}"))
        self.seat = seat
        self.current = current

    @staticmethod
    def sentence(current: str) -> str:
        """The refusal, naming the player to act as ``current`` (a name, where the caller knows it)."""
        return f"it is not your turn: {current} is to act"


class GameEnded(IllegalAction):
    """An action after the end of the game; ``outcome`` says how it ended."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(f"the game is over ({outcome.detail})")
        self.outcome = outcome


def check_turn(current: int, seat: int | None) -> None:
    """Refuse a turn action from ``seat`` (None: whoever is to act) while ``current`` is the seat to act."""
    if seat is not None and seat != current:
        raise NotYourTurn(seat, current)


@dataclass(frozen=True, slots=True)
class GameState:
    config: GameConfig
    seed: int | str | None
    deck: tuple[Card, ...]
    hands: tuple[tuple[int, ...], ...]
    knowledge: tuple[CardKnowledge, ...]  # indexed by card order
    next_draw: int  # order of the next card to draw; len(deck) when empty
    fireworks: tuple[int, ...]  # height per suit of the variant, in suit order
    clue_tokens: int
    strikes: int
    discard: tuple[int, ...]  # orders, oldest first (misplays included)
    played: tuple[int, ...]  # orders successfully played, oldest first
    current: int  # seat to act
    turn: int  # turn actions taken so far
    final_turns_left: int | None  # set when the last card is drawn
    outcome: Outcome | None
    events: tuple[Event, ...]

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.next_draw

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def score(self) -> int:
        """The score now: the fireworks' sum, or the outcome's score once the game is over."""
        return self.outcome.score if self.outcome is not None else sum(self.fireworks)

    def holder(self, order: int) -> int | None:
        """The seat holding this card order, if any."""
        for seat, hand in enumerate(self.hands):
            if order in hand:
                return seat
        return None


def new_game(config: GameConfig, seed: int | str) -> GameState:
    """Shuffle the variant's deck from ``seed`` and deal. The first seat comes from the config or the seed."""
    rng = random.Random(seed)
    deck = config.variant.deck()
    rng.shuffle(deck)
    first = config.first_seat if config.first_seat is not None else rng.randrange(config.players)
    return _deal(config, tuple(deck), first, seed)


def game_from_deck(config: GameConfig, deck: Sequence[Card], seed: int | str | None = None) -> GameState:
    """Deal a given deck (top card first). It must hold exactly the variant's cards."""
    check_deck(config, deck)
    first = config.first_seat if config.first_seat is not None else 0
    return _deal(config, tuple(deck), first, seed)


def check_deck(config: GameConfig, deck: Sequence[Card]) -> None:
    expected = sorted(c.identity for c in config.variant.deck())
    got = sorted(c.identity for c in deck)
    if got != expected:
        missing = _multiset_diff(expected, got)
        extra = _multiset_diff(got, expected)
        parts = []
        if missing:
            parts.append("missing " + " ".join(str(Card.from_identity(i)) for i in missing))
        if extra:
            parts.append("unexpected " + " ".join(str(Card.from_identity(i)) for i in extra))
        raise IllegalAction(
            f"the deck is not the {config.variant.value} deck of {len(expected)} cards "
            f"(it has {len(got)}: {'; '.join(parts)})"
        )


def _multiset_diff(a: list[int], b: list[int]) -> list[int]:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _deal(config: GameConfig, deck: tuple[Card, ...], first: int, seed: int | str | None) -> GameState:
    # The state's config names the seat that actually went first, so it replays alone.
    config = replace(config, first_seat=first)
    hands = opening_hands(config)
    blank = CardKnowledge(config.variant.all_identities)
    return GameState(
        config=config,
        seed=seed,
        deck=deck,
        hands=hands,
        knowledge=(blank,) * len(deck),
        next_draw=sum(map(len, hands)),
        fireworks=(0,) * len(config.variant.suits),
        clue_tokens=CLUE_TOKENS,
        strikes=0,
        discard=(),
        played=(),
        current=first,
        turn=0,
        final_turns_left=None,
        outcome=None,
        events=(),
    )


# Action values are immutable, so legal_actions hands out shared instances (a
# big saving for random play, which asks for the full list every turn). For
# each variant: every clue that can be named, as (touched mask, clue per seat).
_PLAYS = tuple(Play(i) for i in range(64))
_DISCARDS = tuple(Discard(i) for i in range(64))
_CLUES = {
    v: tuple((v.colour_mask(c), tuple(Clue(t, colour=c) for t in range(MAX_PLAYERS))) for c in v.clue_colours)
    + tuple((v.rank_mask(r), tuple(Clue(t, rank=r) for t in range(MAX_PLAYERS))) for r in RANKS)
    for v in Variant
}


def legal_actions(state: GameState) -> list[TurnAction]:
    """Every turn action the seat to move may take now (empty once the game is over)."""
    if state.outcome is not None:
        return []
    deck = state.deck
    return legal_turn_actions(state.config, state.current, state.hands[state.current], state.clue_tokens,
                              [[deck[o] for o in hand] for hand in state.hands],
                              deck_play_order(state.config, state.deck_left, len(deck)) if state.config.deck_plays
                              else None)


def legal_turn_actions(config: GameConfig, current: int, own_hand: Sequence[int], clue_tokens: int,
                       hands: Sequence[Sequence[Card | None]], deck_play: int | None = None) -> list[TurnAction]:
    """The legal actions of ``current``, from what that seat can see (its own cards may be None).

    Shared by ``legal_actions`` and by views, so that a seat (or a bot) knows
    its options by the very same rule the engine enforces. ``deck_play`` is
    the order of the deck's last card when it may be played blind.
    """
    actions: list[TurnAction] = [_PLAYS[o] for o in own_hand]
    if deck_play is not None:
        actions.append(_PLAYS[deck_play])
    if clue_tokens < CLUE_TOKENS:
        actions += [_DISCARDS[o] for o in own_hand]
    if clue_tokens > 0:
        clues = _CLUES[config.variant]
        empty_ok = config.empty_clues
        for target, target_hand in enumerate(hands):
            if target == current:
                continue
            present = 0
            for card in target_hand:
                if card is not None:
                    present |= 1 << card.identity
            actions += [by_seat[target] for mask, by_seat in clues if empty_ok or present & mask]
    return actions


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """Apply ``action`` and return the new state; the event it produced is ``new.events[-1]``.

    ``seat`` is who is acting, when known (the server always knows): acting out
    of turn is refused. Raises ``IllegalAction`` with the reason otherwise.

    A turn is its action (``_give_clue``, ``_play``, ``_discard``), the
    endings that come at once, the draw, then the endings judged on the
    table the turn leaves.
    """
    if type(action) is Rearrange:
        return _rearrange(state, action, seat)
    if state.outcome is not None:
        raise GameEnded(state.outcome)
    check_turn(state.current, seat)
    if type(action) is Clue:
        turn = _give_clue(state, action)
    elif type(action) is Play:
        turn = _play(state, action)
    elif type(action) is Discard:
        turn = _discard(state, action)
    else:
        raise IllegalAction(f"{action!r} is not an action: play, discard or clue")
    new = _after_the_draw(state, action, turn, _ending_at_once(state, turn))
    return _ending_on_the_table(new) if new.outcome is None else new


@dataclass(slots=True)
class _Turn:
    """What a turn's action changed, before its card is replaced: the table's counters and piles, and what the
    turn's event says (the card that left the hand, whether it played, the clue token it gave back, the cards a
    clue touched)."""

    knowledge: tuple[CardKnowledge, ...]
    tokens: int
    strikes: int
    fireworks: tuple[int, ...]
    discard: tuple[int, ...]
    played: tuple[int, ...]
    card: Card | None = None
    success: bool = False
    gained: bool = False
    touched: tuple[int, ...] = ()
    from_deck: bool = False  # option deck_plays: the deck's last card played blind

    @classmethod
    def of(cls, state: GameState) -> _Turn:
        return cls(state.knowledge, state.clue_tokens, state.strikes, state.fireworks, state.discard, state.played)


def _give_clue(state: GameState, clue: Clue) -> _Turn:
    turn = _Turn.of(state)
    turn.knowledge, turn.touched = _clue(state, clue)
    turn.tokens -= 1
    return turn


def _leaving(state: GameState, order: int, from_deck: bool = False) -> _Turn:
    """The turn of a card that leaves the current seat's hand (or the deck, when played blind from it)."""
    if order not in state.hands[state.current] and not from_deck:
        # Players know seats by name, so the sentence names no seat number.
        whose = "no one's hand" if state.holder(order) is None else "another player's hand"
        raise IllegalAction(f"card #{order} is not in your hand (it is in {whose})")
    turn = _Turn.of(state)
    turn.card, turn.from_deck = state.deck[order], from_deck
    return turn


def _play(state: GameState, action: Play) -> _Turn:
    order = action.order
    turn = _leaving(state, order, state.config.deck_plays and is_deck_play(state, order))
    card = state.deck[order]
    if turn.fireworks[card.suit.index] == card.rank - 1:
        turn.success = True
        turn.fireworks = turn.fireworks[: card.suit.index] + (card.rank,) + turn.fireworks[card.suit.index + 1 :]
        turn.played += (order,)
        if card.rank == MAX_RANK and turn.tokens < CLUE_TOKENS:
            turn.tokens += 1
            turn.gained = True
    else:
        turn.discard += (order,)
        turn.strikes += 1
    return turn


def _discard(state: GameState, action: Discard) -> _Turn:
    turn = _leaving(state, action.order)
    if turn.tokens == CLUE_TOKENS:
        raise IllegalAction(f"cannot discard with all {CLUE_TOKENS} clue tokens available: clue or play instead")
    turn.discard += (action.order,)
    turn.tokens += 1
    turn.gained = True
    return turn


def _ending_at_once(state: GameState, turn: _Turn) -> Outcome | None:
    """The endings that happen "at once", before any replacement is drawn."""
    config = state.config
    max_score = config.variant.max_score
    if turn.strikes >= MAX_STRIKES:
        return Outcome(EndReason.STRIKEOUT, 0, max_score, "the third strike: the fireworks exploded",
                       config.all_or_nothing)
    if turn.success and sum(turn.fireworks) == max_score:
        return Outcome(EndReason.PERFECT, max_score, max_score, "every firework is complete", config.all_or_nothing)
    if config.all_or_nothing and turn.card is not None and not turn.success:
        lost = _lost_firework(config, state.deck, turn.discard, turn.fireworks, turn.card)
        if lost:
            return Outcome(EndReason.ALL_OR_NOTHING_DEFEAT, 0, max_score, lost, True)
    return None


def _after_the_draw(state: GameState, action: TurnAction, turn: _Turn, outcome: Outcome | None) -> GameState:
    """The state after ``turn``: its card replaced from the deck, the final round counted down, its event told."""
    config, deck = state.config, state.deck
    next_draw = state.next_draw
    drawn: int | None = None
    final = state.final_turns_left
    if turn.from_deck:
        # The card left the deck whatever came of it; no replacement is drawn (the hand is untouched).
        next_draw += 1
    if outcome is None:
        if final is not None:
            final -= 1
            if final == 0:
                outcome = Outcome(EndReason.FINAL_ROUND, sum(turn.fireworks), config.variant.max_score,
                                  "everyone took a last turn after the final card was drawn")
        elif turn.card is not None and (turn.from_deck or next_draw < len(deck)):
            if not turn.from_deck:
                drawn = next_draw
                next_draw += 1
            if next_draw == len(deck) and not config.all_or_nothing:
                # Every player, the drawer included, takes exactly one more turn.
                final = config.players
    event = TurnEvent(state.turn, state.current, action, turn.card, turn.success, turn.touched, drawn, turn.gained)
    return GameState(config, state.seed, deck, hands_after(state.hands, event), turn.knowledge, next_draw,
                     turn.fireworks, turn.tokens, turn.strikes, turn.discard, turn.played,
                     (state.current + 1) % config.players, state.turn + 1, final, outcome, state.events + (event,))


def _ending_on_the_table(new: GameState) -> GameState:
    """``new``, ended if the table a turn left cannot go on: no more points to score (option end_when_no_points),
    or all or nothing with nothing left to do (judged on the state the first leaves)."""
    config = new.config
    if config.end_when_no_points and not _points_left(new):
        new = replace(new, outcome=Outcome(
            EndReason.NO_MORE_POINTS, sum(new.fireworks), config.variant.max_score,
            "no more points can be scored: no card that could still be played is left to play", config.all_or_nothing))
    if config.all_or_nothing:
        # RULES.md: no legal action for the player to move is a defeat; so is a
        # table where no one holds a card, since nothing can be played any more
        # (empty clues alone would only burn tokens before the same end).
        if not any(new.hands):
            detail = "no one holds a card any more: the fireworks can no longer be completed"
        elif not legal_actions(new):
            detail = f"seat {new.current} has no legal action"
        else:
            return new
        new = replace(new, outcome=Outcome(EndReason.ALL_OR_NOTHING_DEFEAT, 0, config.variant.max_score, detail,
                                           True))
    return new


def deck_play_order(config: GameConfig, deck_left: int, deck_size: int) -> int | None:
    """Option ``deck_plays``: with one card left in the deck, the player to act may play it blind; its order."""
    return deck_size - 1 if config.deck_plays and deck_left == 1 else None


def is_deck_play(state: GameState, order: int) -> bool:
    return order == deck_play_order(state.config, state.deck_left, len(state.deck))


def _points_left(state: GameState) -> bool:
    """Option ``end_when_no_points``: can some firework still grow?

    As hanab.live judges it: a firework can grow while the card it needs next
    is still in the deck or in the hand of a player with a turn to come. In
    the final round the players who have taken their last turn hold dead
    cards; everything discarded (misplays included) is gone.
    """
    players = state.players
    finished = 0 if state.final_turns_left is None else players - state.final_turns_left
    dead = {(state.current - k) % players for k in range(1, finished + 1)}
    deck = state.deck
    available = {c.identity for c in deck[state.next_draw:]}
    available.update(deck[o].identity for seat, hand in enumerate(state.hands) if seat not in dead for o in hand)
    for suit, height in zip(state.config.variant.suits, state.fireworks, strict=True):
        if height < MAX_RANK and Card(suit, height + 1).identity in available:
            return True
    return False


def _clue(state: GameState, clue: Clue) -> tuple[tuple[CardKnowledge, ...], tuple[int, ...]]:
    """Check a clue and return the knowledge it leaves and the orders it touched."""
    if state.clue_tokens == 0:
        raise IllegalAction("cannot clue with no clue tokens left: play or discard instead")
    target = clue.target
    if not 0 <= target < state.players:
        raise IllegalAction(f"there is no seat {target} at a {state.players}-player table")
    if target == state.current:
        raise IllegalAction("cannot clue yourself: choose another player")
    variant = state.config.variant
    if clue.colour is not None:
        if clue.colour not in variant.clue_colours:
            if variant.wild and clue.colour is Suit.MULTICOLOR:
                raise IllegalAction("multicolor cannot be named in a clue: every colour clue touches multicolor cards")
            raise IllegalAction(f"there is no {clue.colour.value} in this game")
        mask = variant.colour_mask(clue.colour)
        colour_bit, rank_bit = 1 << clue.colour.index, 0
    else:
        assert clue.rank is not None
        mask = variant.rank_mask(clue.rank)
        colour_bit, rank_bit = 0, 1 << (clue.rank - 1)
    deck = state.deck
    hand = state.hands[target]
    touched = tuple([o for o in hand if mask >> deck[o].identity & 1])
    if not touched and not state.config.empty_clues:
        # No seat number here: the message reaches players, who know seats by name.
        raise IllegalAction("that clue touches none of their cards: this table does not allow empty clues")
    knowledge = list(state.knowledge)
    for o in hand:
        k = knowledge[o]
        if o in touched:
            knowledge[o] = CardKnowledge(k.possible & mask, k.colours | colour_bit, k.ranks | rank_bit,
                                         k.not_colours, k.not_ranks)
        else:
            knowledge[o] = CardKnowledge(k.possible & ~mask, k.colours, k.ranks,
                                         k.not_colours | colour_bit, k.not_ranks | rank_bit)
    return tuple(knowledge), touched


def _lost_firework(config: GameConfig, deck: tuple[Card, ...], discard: tuple[int, ...],
                   fireworks: tuple[int, ...], card: Card) -> str:
    """All or nothing: the sentence saying which firework ``card`` just made impossible, or ''."""
    if card.rank <= fireworks[card.suit.index]:
        return ""
    gone = sum(1 for o in discard if deck[o] == card)
    if gone < config.variant.copies(card):
        return ""
    return f"the last {card} was discarded: the {card.suit.value} firework can no longer be completed"


def _rearrange(state: GameState, action: Rearrange, seat: int | None) -> GameState:
    if seat is not None and seat != action.seat:
        raise IllegalAction("you can only rearrange your own hand")
    if not 0 <= action.seat < state.players:
        raise IllegalAction(f"there is no seat {action.seat} at a {state.players}-player table")
    if state.outcome is not None:
        raise GameEnded(state.outcome)
    hand = state.hands[action.seat]
    if sorted(action.hand) != sorted(hand) or len(set(action.hand)) != len(hand):
        raise IllegalAction(f"a new order must list the cards of the hand exactly once: {list(hand)}")
    event = RearrangeEvent(action.seat, tuple(action.hand))
    return replace(state, hands=hands_after(state.hands, event), events=state.events + (event,))


def terminate(state: GameState, detail: str = "the game was stopped") -> GameState:
    """End a running game from outside (hanab.live's "game over" action): score 0."""
    if state.outcome is not None:
        return state
    return replace(state, outcome=Outcome(EndReason.TERMINATED, 0, state.config.variant.max_score, detail,
                                          state.config.all_or_nothing))


def fireworks_by_suit(state: GameState) -> dict[Suit, int]:
    return dict(zip(state.config.variant.suits, state.fireworks, strict=True))
