"""A bot's memory of the table, rebuilt from one seat's view by replaying the public history.

The view alone holds the present; conventions need the past ("this card was
given a play clue", "the clue before last was a finesse"). ``Table`` replays
``view.events`` from the deal, one event at a time, and keeps, for every card
order: the public knowledge (what clues said, recomputed here), the
*convention mask* (which identities the team's conventions allow, see
``conventions.py``) and a few flags. It sees card identities exactly as the
seat saw them at each moment: every card outside its own hand, never its own.

Replaying is cheap (a game has fewer than 100 events), and a ``Table`` can
be fed more events later, which is how a bot object caches between turns.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from ..actions import Clue, Discard, Play, RearrangeEvent, TurnEvent
from ..cards import MAX_RANK
from ..options import GameConfig
from ..views import PlayerView
from .cardmath import bits, copies_table, ident, rank_of, suit_of
from .decision import LEVELS, STRONGEST, Level

# How a clue is read, by who gave and who got it: ``full`` between house bots (or at an h-group table),
# ``basic`` (focus, play and save, good touch; no finesse, no prompt) and ``literal`` (what the clue says,
# nothing more) when a person gives or gets it at a table of that level.
Style = Literal["full", "basic", "literal"]
_STYLE: dict[Level, Style] = {"beginner": "literal", "basic": "basic", "h-group": "full"}


@dataclass
class Pending:
    """Something a clue left open until ``seat`` acts next.

    ``ext``: the focus ``order`` may also be one of ``mask`` (a finesse through
    another player); those identities are dropped if they are not playable by
    the time its holder acts. ``finesse``: ``seat`` may have to blind-play the
    identity in ``mask`` from its finesse position, unless one of ``later``
    shows it there (then the finesse is on them). ``self``: ``seat`` must
    blind-play card ``order`` on its next turn (a self-finesse); what it turns
    out to be tells which of ``mask`` the clue's ``focus`` is.
    """

    kind: str
    seat: int
    order: int
    mask: int
    later: tuple[int, ...] = ()
    focus: int = -1


@dataclass
class Table:
    config: GameConfig
    me: int
    level: Level = STRONGEST  # what the people at the table are expected to follow
    bot_seats: frozenset[int] | None = None  # the house bots' seats; None: every seat
    hands: list[list[int]] = field(default_factory=list)
    holder: dict[int, int] = field(default_factory=dict)
    ids: dict[int, int] = field(default_factory=dict)  # identities this seat may see (set from the view)
    fireworks: list[int] = field(default_factory=list)
    gone: Counter[int] = field(default_factory=Counter)  # discarded (misplays included), by identity
    know: dict[int, int] = field(default_factory=dict)
    conv: dict[int, int] = field(default_factory=dict)
    clued: set[int] = field(default_factory=set)
    play: set[int] = field(default_factory=set)  # cards the team expects their holder to play
    saved: set[int] = field(default_factory=set)  # cards given a save clue
    good_touch: set[int] = field(default_factory=set)  # cards a clue read by good touch touched: never trash
    trash_when_clued: dict[int, int] = field(default_factory=dict)  # good-touch card -> the trash mask then
    loose_at: dict[int, int] = field(default_factory=dict)  # identity -> event index it was played on a literal read
    clued_at: dict[int, int] = field(default_factory=dict)  # order -> index of the event that first clued it
    intent: dict[int, tuple[int, int]] = field(default_factory=dict)  # order -> (person, what their clue meant)
    misled: Counter[int] = field(default_factory=Counter)  # person -> clues of theirs that meant something else
    rank_giver: dict[int, int] = field(default_factory=dict)  # order -> the person whose rank clue touched it
    rank_plays: Counter[int] = field(default_factory=Counter)  # person -> their rank clues seen to mean "play"
    counters: set[int] = field(default_factory=set)  # people seen to play a card their clues alone did not prove
    # people seen not to count: they held a card the clues and the cards they see proved playable, and did not
    # play (``note_count``)
    uncounting: set[int] = field(default_factory=set)
    # A person's habits, as seen (``plays_on_one_clue``): cards they played that no count could prove (they
    # play on one clue), turns they let a card a bot's clue meant them to play wait for proof, and the cards
    # a bot's clue to a person meant to be played and that they could not prove (order -> their seat).
    one_clue: Counter[int] = field(default_factory=Counter)
    waited: Counter[int] = field(default_factory=Counter)
    offered: dict[int, int] = field(default_factory=dict)
    # Whether a person saves a bot's chop: clues of theirs that kept a critical card on the next seat's chop,
    # and critical chops that seat threw when they had a token and did not clue it (``guards``); and, per bot
    # seat, the person before it who last let its chop go unclued: (person, chop, what that person threw).
    saves: Counter[int] = field(default_factory=Counter)
    missed: Counter[int] = field(default_factory=Counter)
    save_watch: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    save_claims: dict[int, int] = field(default_factory=dict)  # our own chop a person clued -> that person
    assumed: dict[int, int] = field(default_factory=dict)  # hypotheses: order -> identity, even for our cards
    pending: list[Pending] = field(default_factory=list)
    events_done: int = 0
    tokens: int = 8
    strikes: int = 0
    # ``trash_mask``, ``critical_mask`` and ``playable_mask`` (``_suit_masks``), kept until a card leaves a hand
    # (nothing else changes the fireworks or the discards they come from): the bots ask for them often.
    _masks: tuple[int, int, int] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        variant = self.config.variant
        self.all = variant.all_identities
        self.copies = copies_table(variant)
        self.nsuits = len(variant.suits)
        size = self.config.hand_size
        self.hands = [list(reversed(range(p * size, (p + 1) * size))) for p in range(self.config.players)]
        for seat, hand in enumerate(self.hands):
            for order in hand:
                self.holder[order] = seat
        self.fireworks = [0] * self.nsuits
        if self.level not in LEVELS:
            raise ValueError(f"there is no convention level {self.level!r}: choose one of {', '.join(LEVELS)}")
        if self.bot_seats is None:
            self.bot_seats = frozenset(range(self.config.players))
        self.people = any(seat not in self.bot_seats for seat in range(self.config.players))

    def is_bot(self, seat: int) -> bool:
        return self.bot_seats is None or seat in self.bot_seats

    def style(self, giver: int, target: int) -> Style:
        """How a clue from ``giver`` to ``target`` is meant and read: fully only between house bots."""
        if self.is_bot(giver) and self.is_bot(target):
            return "full"
        return _STYLE[self.level]

    def finessable(self, seat: int) -> bool:
        """Whether ``seat`` can be expected to blind-play for a finesse: a house bot, or anyone at h-group."""
        return self.is_bot(seat) or self.level == "h-group"

    # ----------------------------------------------------------------- replay

    def catch_up(self, view: PlayerView) -> None:
        """Learn the identities the view shows, then replay every event not replayed yet."""
        for seat, hand in enumerate(view.hands):
            if seat != self.me:
                for cv in hand:
                    if cv.card is not None:
                        self.ids[cv.order] = cv.card.identity
        for event in view.events[self.events_done:]:
            if isinstance(event, TurnEvent) and event.card is not None and isinstance(event.action, (Play, Discard)):
                self.ids[event.action.order] = event.card.identity
        from .conventions import interpret  # late import: conventions needs Table's type only
        from .signals import read_discard  # (the same)

        for event in view.events[self.events_done:]:
            if isinstance(event, RearrangeEvent):
                self.hands[event.seat] = list(event.hand)
                continue
            self.resolve_before_turn(event.seat)
            action = event.action
            if not self.is_bot(event.seat):
                self.note_wait(event.seat, action)
                self.note_count(event.seat, action)
                self.note_save_duty(event)
            else:
                self.note_missed_save(event)
            if isinstance(action, Clue):
                self.tokens -= 1
                interpret(self, event.seat, action, event.touched)
            else:
                if isinstance(action, Discard):
                    read_discard(self, event.seat, action.order)
                self.remove_card(event.seat, action.order, event)
                if event.drawn is not None:
                    self.hands[event.seat].insert(0, event.drawn)
                    self.holder[event.drawn] = event.seat
            self.events_done += 1
        self.events_done = len(view.events)
        self.tokens = view.clue_tokens
        self.strikes = view.strikes

    def remove_card(self, seat: int, order: int, event: TurnEvent) -> None:
        held = order in self.hands[seat]  # a deck play (the deck's last card, played blind) was in no hand
        if held:
            self.hands[seat].remove(order)
        self.holder.pop(order, None)
        card = event.card
        assert card is not None
        claim = self.save_claims.pop(order, None)
        if claim is not None and self.critical(card.identity):
            self.saves[claim] += 1  # a person's clue kept this critical card of ours on our chop: a save
        if event.success and not self.is_bot(seat) and isinstance(event.action, Play):
            known = self.knowledge(order)
            if not self.all_playable(known):
                # Their clues left it unproven, yet they played it: they count the cards they see (or read
                # more into a clue than it says): what they can prove is more than the clues say.
                self.counters.add(seat)
        if held and not self.is_bot(seat) and isinstance(event.action, Play) and (
                not event.success or not self.provable(seat, order)):
            # Misplayed, or played though counting the cards they see could not prove it: they play a card
            # on one clue, taking it for what the clue most likely meant.
            self.one_clue[seat] += 1
        if event.success:
            self.fireworks[card.suit.index] = card.rank
            if order not in self.good_touch and order not in self.play and (not self.is_bot(seat)
                                                                            or order in self.clued):
                # Played on a literal reading: no giver made sure it was not a copy of a card clued
                # by good touch before it, so such a card may now be trash (see ``Turn.my_mask``).
                self.loose_at[card.identity] = self.events_done
            if event.clue_gained:
                self.tokens += 1
        else:
            self.gone[card.identity] += 1
            if isinstance(event.action, Play):
                self.strikes += 1
            else:
                self.tokens += 1
        self._masks = None  # the fireworks or the discards changed: the masks are worked out again when asked
        meant = self.intent.pop(order, None)
        ranked = self.rank_giver.pop(order, None)
        if ranked is not None and event.success:
            self.rank_plays[ranked] += 1  # their rank clue got a card played: they mean "play" by such clues
        if meant is not None and not meant[1] >> card.identity & 1:
            self.misled[meant[0]] += 1  # a person's clue that did not mean "play" or "keep": trust them less
        self.play.discard(order)
        self.saved.discard(order)
        self.good_touch.discard(order)
        for p in [p for p in self.pending if p.kind == "self" and p.order == order]:
            # A self-finesse answered: the focus is the card after the one just blind-played.
            self.pending.remove(p)
            after = card.identity + 1 if event.success and card.rank < 5 else -1
            if p.focus in self.holder:
                narrowed = p.mask & (1 << after) if after >= 0 else 0
                self.conv[p.focus] = narrowed or (self.conv.get(p.focus, self.all) & ~p.mask) or self.all

    def note_wait(self, seat: int, action: Clue | Play | Discard) -> None:
        """A person's turn: if a bot's clue meant them to play a card they could not prove, and they play
        nothing, they wait for proof. Each such clue is judged at their next turn only."""
        offers = [o for o, s in self.offered.items() if s == seat]
        if offers and not isinstance(action, Play):
            self.waited[seat] += 1
        for o in offers:
            del self.offered[o]

    def note_count(self, seat: int, action: Clue | Play | Discard) -> None:
        """A person's turn: if they hold a card that counting the cards they see proves playable (the clues
        alone do not) and play nothing, they do not count (``counts``)."""
        if isinstance(action, Play):
            return
        for o in self.hands[seat]:
            seen = self.ids.get(o)
            known = self.knowledge(o)
            if (seen is not None and self.playable(seen) and not self.all_playable(known)
                    and self.provable(seat, o)):
                self.uncounting.add(seat)
                return

    def counts(self, seat: int) -> bool:
        """Whether a person is taken to count the cards they see: until they are seen not to, and again once
        they play a card their clues alone did not prove."""
        return seat in self.counters or seat not in self.uncounting

    def note_save_duty(self, event: TurnEvent) -> None:
        """A person's turn, with the next seat a house bot: a clue that keeps a critical card on its chop is a
        save; leaving its chop unclued with a token in hand is watched until that bot's turn."""
        seat = event.seat
        after = (seat + 1) % self.config.players
        if not self.is_bot(after):
            return
        self.save_watch.pop(after, None)
        chop = self.chop(after)
        if chop is None or self.tokens == 0:
            return
        action = event.action
        if isinstance(action, Clue) and action.target == after and chop in event.touched:
            seen = self.visible_id(chop)
            if seen is None:
                self.save_claims[chop] = seat  # our own card: judged once we see it (``remove_card``)
            elif self.critical(seen):
                self.saves[seat] += 1
            return
        thrown = event.card.identity if isinstance(action, Discard) and event.card is not None else -1
        self.save_watch[after] = (seat, chop, thrown)

    def note_missed_save(self, event: TurnEvent) -> None:
        """A house bot's turn: if it throws the chop the person before it left unclued, and the card was
        critical then, that person did not save where a save was due."""
        watch = self.save_watch.pop(event.seat, None)
        if watch is None or not isinstance(event.action, Discard) or event.action.order != watch[1]:
            return
        card = event.card
        if card is not None and self.critical(card.identity) and card.identity != watch[2]:
            self.missed[watch[0]] += 1

    def guards(self, seat: int) -> bool:
        """Whether a person can be counted on to save the next seat's chop: as seen (saves against saves
        missed), else as the table's level expects (a person at a beginner table does not)."""
        if self.saves[seat] or self.missed[seat]:
            return self.saves[seat] > self.missed[seat]
        return self.level != "beginner"

    def plays_on_one_clue(self, seat: int) -> bool:
        """Whether ``seat`` (a person) has been seen to play a card on one clue more often than to wait for
        proof of one a clue meant them to play (a person nobody has seen either way waits for proof)."""
        return self.one_clue[seat] > self.waited[seat]

    def provable(self, seat: int, order: int, known: int | None = None) -> bool:
        """Whether ``seat`` may prove its card ``order`` playable, the clues saying ``known`` (default: what
        they say now), by counting every card it sees.

        Each unplayable identity the clues allow is ruled out only if every copy of it is in sight of that
        seat. We see what it sees but our own hand, whose cards are taken to be none of those copies unless
        our clues say so: most often they are not, and a person misjudged this way soon shows it
        (``plays_on_one_clue`` weighs what they did against what they were expected to do).
        """
        known = self.knowledge(order) if known is None else known
        for i in bits(known):
            if self.playable(i):
                continue
            unplaced = self.copies[i] - self.gone[i] - (1 if self.played(i) else 0)
            for s, hand in enumerate(self.hands):
                if s == self.me:
                    unplaced -= sum(1 for o in hand if self.knowledge(o) == 1 << i)
                elif s != seat:
                    unplaced -= sum(1 for o in hand if self.ids.get(o) == i)
            if unplaced > 0:
                return False
        return True

    def resolve_before_turn(self, seat: int) -> None:
        """What a clue left open is settled when ``seat`` acts: its finesse chances are now or never."""
        keep: list[Pending] = []
        for p in self.pending:
            if p.seat != seat:
                keep.append(p)
            elif p.kind == "self" and p.order in self.holder and (not p.later or p.later[0] == self.events_done):
                # Kept through this turn (the blind play itself settles it, in ``remove_card``). The
                # mark is the event index, so settling twice for the same turn changes nothing.
                p.later = (self.events_done,)
                keep.append(p)
            elif p.kind == "self":
                # The blind play did not come: the clue meant nothing we can read.
                self.play.discard(p.order)
                if p.focus in self.holder:
                    self.conv[p.focus] = self.conv.get(p.focus, self.all) & ~p.mask or self.all
            elif p.kind == "ext" and p.order in self.holder:
                unplayable = sum(1 << i for i in bits(p.mask) if not self.playable(i))
                if self.know_conv(p.order) & ~unplayable:
                    self.conv[p.order] = self.conv.get(p.order, self.all) & ~unplayable
        self.pending = keep

    # ------------------------------------------------------------- questions

    def knowledge(self, order: int) -> int:
        return self.know.get(order, self.all)

    def know_conv(self, order: int) -> int:
        """What the public record and the conventions together allow (the record alone if they clash)."""
        k = self.know.get(order, self.all)
        both = k & self.conv.get(order, self.all)
        return both or k

    def visible_id(self, order: int, hidden: tuple[int, ...] = ()) -> int | None:
        """The identity of a card in a hand, if this seat sees it and its holder is not in ``hidden``."""
        seat = self.holder.get(order)
        if seat is None or seat in hidden:
            return None
        if order in self.assumed:
            return self.assumed[order]
        if seat == self.me:
            return None
        return self.ids.get(order)

    def playable(self, identity: int) -> bool:
        return self.fireworks[suit_of(identity)] == rank_of(identity) - 1

    def played(self, identity: int) -> bool:
        return self.fireworks[suit_of(identity)] >= rank_of(identity)

    def dead(self, identity: int) -> bool:
        """Can never be played: already played, or an earlier card of its suit is all gone."""
        return bool(self.trash_mask() >> identity & 1)

    def trash_mask(self) -> int:
        """Every identity that is ``dead``."""
        return self._kept_masks()[0]

    def critical_mask(self) -> int:
        """Every identity that is ``critical``."""
        return self._kept_masks()[1]

    def playable_mask(self) -> int:
        """Every identity that is ``playable``."""
        return self._kept_masks()[2]

    def _kept_masks(self) -> tuple[int, int, int]:
        if self._masks is None:
            self._masks = self._suit_masks()
        return self._masks

    def all_playable(self, mask: int) -> bool:
        """Whether every identity in ``mask`` is playable (so is an empty mask)."""
        return not mask & ~self.playable_mask()

    def _suit_masks(self) -> tuple[int, int, int]:
        """The dead, the critical and the playable identities, each suit walked up from the bottom: up to its
        firework every card is played, the next is playable; above it, a rank with every copy gone leaves the ranks
        over it dead too."""
        trash = critical = playable = 0
        for s, height in enumerate(self.fireworks):
            if height < MAX_RANK:
                playable |= 1 << ident(s, height + 1)
            lost = False
            for r in range(1, MAX_RANK + 1):
                i = ident(s, r)
                if r <= height or lost:
                    trash |= 1 << i
                    continue
                gone = self.gone.get(i, 0)  # (``get``: most identities are never discarded)
                if gone >= self.copies[i] - 1:
                    critical |= 1 << i
                lost = gone >= self.copies[i]
        return trash, critical, playable

    def fork(self) -> Table:
        """A copy to replay on without touching this one (the endgame's rollouts): every container copied."""
        new = copy.copy(self)
        new.hands = [list(hand) for hand in self.hands]
        for attr in ("holder", "ids", "know", "conv", "trash_when_clued", "loose_at", "clued_at", "intent",
                     "assumed", "rank_giver", "offered", "save_watch", "save_claims"):
            setattr(new, attr, dict(getattr(self, attr)))
        for attr in ("clued", "play", "saved", "good_touch", "counters", "uncounting"):
            setattr(new, attr, set(getattr(self, attr)))
        new.fireworks = list(self.fireworks)
        new.gone, new.misled, new.rank_plays = Counter(self.gone), Counter(self.misled), Counter(self.rank_plays)
        new.one_clue, new.waited = Counter(self.one_clue), Counter(self.waited)
        new.saves, new.missed = Counter(self.saves), Counter(self.missed)
        new.pending = [copy.copy(p) for p in self.pending]
        return new

    def critical(self, identity: int) -> bool:
        """Not yet played, still possible, and every other copy is discarded."""
        return bool(self.critical_mask() >> identity & 1)

    def chop(self, seat: int) -> int | None:
        """The oldest card with no clue on it and no play expected of it."""
        for order in reversed(self.hands[seat]):
            if order not in self.clued and order not in self.play:
                return order
        return None

    def finesse_pos(self, seat: int) -> int | None:
        """The newest card with no clue on it and no play expected of it."""
        for order in self.hands[seat]:
            if order not in self.clued and order not in self.play:
                return order
        return None

    def finessers(self, giver: int, target: int) -> list[int]:
        """The seats between ``giver`` and ``target`` that would answer a finesse, in turn order."""
        return [seat for seat in self.between(giver, target) if self.finessable(seat)]

    def between(self, giver: int, target: int) -> list[int]:
        """The seats that act after ``giver`` and before ``target``, in turn order."""
        out = []
        seat = (giver + 1) % self.config.players
        while seat != target:
            out.append(seat)
            seat = (seat + 1) % self.config.players
        return out
