"""The house bot: H-group style conventions, decided from one seat's view.

Each turn it replays the public history into a ``Table`` (cached between
turns by a ``ConventionBot`` object) and then, in this order:

1. answers a finesse: blind-plays its finesse position when a clue needs it
   (a finesse through it, or a self-finesse);
2. saves the next player's chop if that card is critical (or a 2 not seen
   elsewhere) and that player has nothing better to do than discard; with
   the last clue token, the chop of the player after next too (for a person
   reading literally: whatever card they would throw next, their oldest
   once every card is clued, with the clue after which the least is at
   stake, often one that gives them a card to play);
3. plays a card it knows is playable (cards that unlock a teammate's clued
   card first, then the lowest);
4. gives the best clue: every candidate clue is read exactly as its target
   will read it (``conventions.read_clue``) and refused if any touched card
   would be misread, any card misplayed, or a finesse not answered; the rest
   are valued by the cards they get played. With 7 or 8 tokens, or near the
   end of the deck, any sound clue beats a discard; with 8 and no sound
   clue, the least misleading one;
5. on its last turn of the game, plays its likeliest card when a misplay
   cannot end the game;
6. discards: known trash first, else its chop; with every card clued it
   stalls with a harmless clue if it can, and otherwise discards the card
   least likely to be needed (or, when every card is precious, plays the
   likeliest one).

See docs/bots.md for the conventions, with examples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..actions import Clue, Discard, Play, TurnAction, TurnEvent
from ..counting import possible_masks
from ..options import CLUE_TOKENS, MAX_STRIKES
from ..views import PlayerView
from .cardmath import bits, ident, name, rank_of, single, suit_of
from .conventions import Reading, able_to_play, clue_mask, covering, finesse_duty, read_clue, touched_by
from .decision import Decision, table_level
from .endgame import Player, search
from .memory import Table
from .signals import keep_signal

STALL_DECK = 3  # from this many cards left in the deck, even a clue that only stalls beats a discard
ENDGAME_DECK = 10  # from this many cards left in the deck, a harmless clue beats a discard
FINESSE_VALUE = 1.5  # a blind play: one more card played, and the touched card comes after it
CLOG = 0.1  # the value of touching a useful card that will not play soon
LAST_STRIKE = MAX_STRIKES - 1  # strikes after which one more misplay ends the game
SETUP = 0.7  # a clue that brings a person's playable card halfway to proven (0.45-0.95 measured alike)
EAGER = 0.3  # the least value of a clue a bot gives rather than discard beside a literal reader (0.0-0.5 tried)
# ... and only with this many clue tokens or more: with fewer, a clue that gets nothing played at once leaves the
# table no token for the next save or play, and the chops go unguarded. Beside the novice (who counts), 200
# deals: 3 players 19.77 -> 20.00, 4 players 19.52 -> 19.61, 5 players 18.77 -> 18.81 (2 tokens: 19.95 / 19.57 /
# 18.83; never: 20.02 / 19.64 / 18.75); beside the beginner at 3 players 19.25 -> 19.35.
EAGER_TOKENS = 3
BAD_TOUCH_LITERAL = 0.5  # a duplicate or trash card touched in a literal reader's hand: a slot lost (0.3-0.7 alike)
# A clue that proves a bot's card held because a person's rank clue left it maybe a copy of a card already
# played (``Turn.read_literally``). Beside the novice, 200 deals, 3 / 4 / 5 players: worth a whole play (1.0),
# 20.00 / 19.61 / 18.73 (500 deals at 5: 18.79); 0.5, 20.00 / 19.70 / 18.79 (18.83); before it was valued (the
# card taken as known), 20.00 / 19.61 / 18.81 (18.87). Beside the careless novice 0.5 gained 0.05-0.18.
HELD_PROOF = 0.5
LIKELY = 0.85  # a card a person clued is played unproven when it plays this often (0.8-0.9 tried, see below)
# A person's clue most likely meant "play this" (or "keep this" on the chop); an identity they cannot have
# meant weighs this much. Measured at 2 players, 200 deals, once a clue that tells nothing new is no
# longer read for intent (the careless beginner's random clues often repeat one): 0.05 gets the beginner's
# table 19.54 -> 19.97, with 0.18 bot misplays a game beside the careless beginner (bound 0.3); 0.03 or a
# play at 0.8 gained nothing more. (Before that rule, 0.05 cost 0.29 misplays beside the careless one.)
INTENT_DOUBT = 0.05
# A 5 on a literal reader's chop is worth a save only with this many cards or fewer left in the deck
# (``Turn.early_five``). Beside the novice, paired, 2 players: +0.200 ± 0.052 on deals 1000-1999 and +0.180 ±
# 0.048 on 2000-2999 (15 / 25 / 30 cards: +0.15 / +0.19 / +0.13; a 5 worth 0.3 or 0.6 of a point rather than
# nothing: +0.17 / +0.09; from the first card: +0.12); 3 players +0.042 ± 0.040 and +0.070 ± 0.042 (deals
# 1000-1999); 4 and 5 players +0.00 ± 0.05 and -0.03 ± 0.03 (deals 1000-1299).
EARLY_FIVE_DECK = 20
RICH_VALUE_2P = 0.5  # with 7 tokens at 2 players, the least value of a clue given rather than a discard
LOOK_BEHIND_TOKENS = 3  # at 2 players, the least tokens to stall with after our chop was saved
# Late duplicates (``Turn.late_duplicate``): from this many cards left in the deck, by player count, a clue
# between bots may touch a second copy of a clued card, at this cost. Bots only, 500 deals: at 2 players 20-35
# cards measured alike and 40 worse (duplicates clued early get misplayed), costs 0.0-0.4 alike and 1.0
# worse; at 4 players 15 and 20 alike and 30 worse; at 5 players 8 better than 12, and 30 worse.
LATE_DUPLICATE_DECK = {2: 30, 3: 30, 4: 15, 5: 8}
LATE_DUPLICATE_COST = 0.2
# Last clues first (``Turn.clue_before_play``): at 2 players, from this many cards left in the
# deck, a clue worth this much comes before our own known play. Bots only, 500 deals: 22.70 -> 22.87 at
# 16 cards and 0.5 (8-30 cards measured alike, 50 worse; 0.3-0.7 alike, 1.5 no gain).
LAST_CLUES_DECK = 16
LAST_CLUES_VALUE = 0.5
# The endgame look-ahead (``endgame.py``): at 2 players between bots, from this many cards left in the deck.
# Bots only, 500 deals: 22.87 -> 22.97 (3 cards: 22.95; on 200 deals 1 / 2 / 3 / 5 cards measured alike).
SEARCH_DECK = 4
SEARCH_PLAYERS = (2,)

Choice = tuple[TurnAction, str]  # a turn's action and the reason for it


class ConventionBot:
    """The convention bot for one seat of one game; it caches its replay between turns.

    ``level`` is what the people at the table are expected to follow and
    ``bot_seats`` which seats are house bots (None: every seat); see
    ``decision.py``. ``level=None`` picks beginner when a person sits at the
    table, the strongest level otherwise.
    """

    name = "hgroup"

    def __init__(self, level: str | None = None, bot_seats: frozenset[int] | None = None,
                 search: bool = True) -> None:
        self.level = level
        self.bot_seats = bot_seats
        self.search = search  # look ahead in the endgame (``endgame.py``); off in its own rollouts
        self._table: Table | None = None
        self._key: tuple[object, ...] | None = None
        self._last: object = None

    def choose(self, view: PlayerView) -> TurnAction:
        return self.decide(view).action

    def decide(self, view: PlayerView) -> Decision:
        if view.seat is None or view.seat != view.current or view.over:
            raise ValueError("a bot can only choose for the seat to move, while the game runs")
        level = table_level(self.level, view.players, self.bot_seats)
        table = self._table
        first = view.events[0] if view.events else None
        key = (view.config, view.seat, first, level, self.bot_seats)
        done = table.events_done if table is not None else 0
        if (table is None or key != self._key or done > len(view.events)
                or (done and view.events[done - 1] is not self._last)):
            table = Table(view.config, view.seat, level, self.bot_seats)
        table.catch_up(view)
        self._table, self._key = table, key
        self._last = view.events[-1] if view.events else None
        turn = Turn(table, view)
        decision = turn.decide()
        if self.search and turn.looks_ahead():
            return turn.look_ahead(decision, self.rollout_player(view))
        return decision

    def rollout_player(self, view: PlayerView) -> Player:
        """How a seat plays in this bot's endgame rollouts: as this bot, from a given memory, never searching."""
        first = view.events[0] if view.events else None

        def player(table: Table) -> Callable[[PlayerView], TurnAction]:
            bot = ConventionBot(self.level, self.bot_seats, search=False)
            bot._table, bot._last = table, view.events[-1] if view.events else None
            bot._key = (view.config, table.me, first, table.level, self.bot_seats)
            return bot.choose

        return player


def choose_hgroup(view: PlayerView) -> TurnAction:
    """The convention bot as a pure function of the view (replays the whole history each call)."""
    return ConventionBot().choose(view)


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def describe(action: TurnAction, turn: Turn) -> str:
    if isinstance(action, Clue):
        return f"cluing {seat_name(action.target)} {action.value}"
    verb = "playing" if isinstance(action, Play) else "discarding"
    return f"{verb} my {turn.slot(action.order)}"


def cards_text(mask: int) -> str:
    names = [name(i) for i in bits(mask)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


class Turn:
    """One turn's reasoning for the seat to move."""

    def __init__(self, table: Table, view: PlayerView) -> None:
        self.t = table
        self.view = view
        self.me = table.me
        self.legal = set(view.legal_actions())
        self.forced = False
        # With two strikes a misplay ends the game at 0: play only what is certain, give no clue
        # that needs a blind play (see docs/bots.md, "Two strikes").
        self.cautious = table.strikes >= LAST_STRIKE
        self._seen_by: dict[int, int] = {}
        # What each clue of ours would tell its target (``reading``) and what each card's holder thinks it
        # may be now (``belief`` with no clue), kept for the turn: once ``choose`` has settled what was
        # pending, nothing changes the table until our move, and every candidate clue asks them again.
        self._readings: dict[Clue, Reading] = {}
        self._beliefs: dict[int, int] = {}
        seen: Counter[int] = Counter(table.gone)
        seen.update(ident(s, r) for s, h in enumerate(table.fireworks) for r in range(1, h + 1))
        seen.update(table.ids[o] for seat, hand in enumerate(table.hands) if seat != self.me for o in hand)
        self.seen = seen
        # Card counting (the engine's): what each of our cards can be by the clues and the cards we see.
        left = Counter({i: n - seen[i] for i, n in table.copies.items()})
        mine = table.hands[self.me]
        self.counted = dict(zip(mine, possible_masks(table.config.variant, [table.knowledge(o) for o in mine], left),
                                strict=True))
        self.trash = table.trash_mask()
        # With 7 tokens any sound clue beats a discard; at 2 players only a clue worth RICH_VALUE_2P: there the
        # marks on cards that will not play soon clog both hands and starve the tokens later (bots only, 300
        # deals: +0.2).
        self.rich_value = RICH_VALUE_2P if table.config.players == 2 else float("-inf")
        self.eager = table.level == "beginner" and table.people and len(table.bot_seats or ()) > 1
        self.played = sum(1 << ident(s, r) for s, h in enumerate(table.fireworks) for r in range(1, h + 1))
        # Clued cards in other hands, with when they were first clued: good touch says a card
        # clued after them is not a copy of them.
        self.clued_elsewhere = 0
        self.clued_since: list[tuple[int, int]] = []
        for seat, hand in enumerate(table.hands):
            if seat != self.me:
                for o in hand:
                    if o in table.clued or o in table.play:
                        self.clued_elsewhere |= 1 << table.ids[o]
                        self.clued_since.append((table.clued_at.get(o, -1), table.ids[o]))

    # --------------------------------------------------------- own cards

    def my_mask(self, order: int) -> int:
        """What this card of ours may be; 0 means it is known trash."""
        t = self.t
        k = self.counted[order]
        m = k & t.conv.get(order, t.all) or k
        if order in t.good_touch or order in t.play:
            # Good touch, when the clue was read by it: a clued card is useful, and not a copy of a card
            # clued before it elsewhere.
            mine = t.clued_at.get(order, -1)
            older = sum(1 << i for when, i in self.clued_since if when < mine)
            # Good touch promised: not trash when clued, and not a copy of a card played since by the
            # conventions (their players made sure of that). A card that died since by discards, or was
            # played since on a literal reading (nobody checked it against ours), may be ours.
            loose = sum(1 << i for i, when in t.loose_at.items() if when >= mine)
            trash = t.trash_when_clued.get(order, 0) | (self.played & ~loose)
            useful = m & ~trash & ~older
            if not useful:
                useful = m & ~trash
            return useful
        return m

    def certain_mask(self, order: int) -> int:
        """What this card of ours may be by logic alone: the clues on it and the copies we see.

        No convention is trusted here (a finesse, a prompt, a play clue's focus, good touch):
        a teammate, human or not, may have meant something else.
        """
        return self.counted[order]

    def is_playable(self, order: int) -> bool:
        m = self.certain_mask(order) if self.cautious else self.my_mask(order)
        return bool(m) and self.t.all_playable(m)

    def is_trash(self, order: int) -> bool:
        m = self.my_mask(order)
        return not m or not m & ~self.trash

    def chance_playable(self, order: int, mask: int | None = None) -> float:
        m = self.my_mask(order) if mask is None else mask
        weight = {i: max(self.t.copies[i] - self.seen[i], 0) for i in bits(m)}
        total = sum(weight.values())
        return sum(w for i, w in weight.items() if self.t.playable(i)) / total if total else 0.0

    def intended_chance(self, order: int, giver: int, meant: int) -> float:
        """How likely our card is playable, knowing a person clued it most likely meaning one of ``meant``.

        Each identity the count leaves is weighed by its unseen copies, and an
        identity the person cannot have meant by INTENT_DOUBT (people give the
        odd clue for other reasons, or by mistake).
        """
        t = self.t
        total = play = 0.0
        for i in bits(self.counted[order]):
            # A person whose clue we have seen mean something else is read by the count alone.
            doubt = INTENT_DOUBT if not t.misled[giver] else 1.0
            weight = max(t.copies[i] - self.seen[i], 0) * (1.0 if meant >> i & 1 else doubt)
            total += weight
            if t.playable(i):
                play += weight
        return play / total if total else 0.0

    def slot(self, order: int) -> str:
        return f"slot {self.t.hands[self.me].index(order) + 1}"

    def likely_play(self) -> tuple[float, int] | None:
        """A clued card of ours very likely playable (a person's clue, read literally), with its chance.

        Likely by card counting alone, or by counting and what the person who
        clued it most likely meant (``intended_chance``). Only with no strike
        yet: a person's clue may have meant something else, and one misplay
        must not lead to another.
        """
        t = self.t
        if self.cautious or self.view.strikes > 0:
            return None
        best: tuple[float, int] | None = None
        for o in t.hands[self.me]:
            if o not in t.clued or o in t.good_touch or not self.rank_clue_trusted(o):
                continue
            p = self.chance_playable(o, self.counted[o])
            if o in t.intent:
                p = max(p, self.intended_chance(o, *t.intent[o]))
            if p >= LIKELY and (best is None or p > best[0]):
                best = (p, o)
        return best

    def rank_clue_trusted(self, order: int) -> bool:
        """Whether our card, if a person touched it with a rank clue, may be played before it is proven.

        Only once that person has shown they mean "play" by their rank clues, and never while the card
        may be a copy of a card already played (a 1 clue meant for one card also touches a 1 already
        played: the count makes it likely playable, yet it is not).
        """
        giver = self.t.rank_giver.get(order)
        if giver is None:
            return True
        return bool(self.t.rank_plays[giver]) and not self.counted[order] & self.played

    # ------------------------------------------------------------ endgame

    def looks_ahead(self) -> bool:
        """Whether to play the endgame out before acting: two house bots, the deck nearly out."""
        t = self.t
        return (not t.people and t.config.players in SEARCH_PLAYERS
                and (self.view.deck_left <= SEARCH_DECK or self.view.final_turns_left is not None))

    def look_ahead(self, own: Decision, player: Player) -> Decision:
        """Our own choice, or the sensible move that gets the most played in sampled worlds (``endgame.search``)."""
        t = self.t
        hand = t.hands[self.me]
        moves: list[TurnAction] = [Play(o) for o in hand if self.is_playable(o)]
        if t.tokens > 0:
            clue = self.best_clue()
            if clue is not None:
                moves.append(clue[1])
            stall = self.fallback()
            if isinstance(stall, Clue) and self.harm(stall)[:2] == (0, 0):
                moves.append(stall)
        if t.tokens < CLUE_TOKENS:
            thrown = next((o for o in hand if self.is_trash(o)), t.chop(self.me))
            if thrown is not None:
                moves.append(Discard(thrown))
        if hand and self.view.final_turns_left is not None:
            # On the last round, a card that is only likely playable (earlier, such gambles measured worse:
            # a misplay there costs a card as well as a strike).
            moves.append(Play(max(hand, key=self.chance_playable)))
        masks = {o: self.my_mask(o) or self.counted[o] for o in hand}
        moves = [m for m in moves if m in self.legal]
        best = search(self.view, t, masks, own.action, moves, player)
        if best == own.action:
            return own
        return Decision(best, f"the deck is nearly out: {describe(best, self)}, which gets the most played when "
                              "I play the last turns out", self.names_cards_of(best))

    # ------------------------------------------------------------ choose

    def why_play(self, order: int) -> str:
        """Why a card of ours is known playable, in a player's words."""
        t = self.t
        certain = self.certain_mask(order)
        mask = self.my_mask(order)
        where = self.slot(order)
        if certain and t.all_playable(certain):
            if single(certain) is not None:
                return f"the clues and the cards I see say my {where} is {cards_text(certain)}: playable"
            return f"the clues and the cards I see say my {where} is {cards_text(certain)}: any of them is playable"
        return f"our conventions say my {where} is {cards_text(mask)}: playable now"

    def decide(self) -> Decision:
        action, reason = self.choose()
        if not isinstance(action, Play):
            held = self.held_text()
            if held is not None:
                reason = f"{reason}; {held}"
        return Decision(action, reason, self.names_cards_of(action))

    def held(self) -> list[int]:
        """Our clued cards that may be playable but may also be a copy of a card already played, with nothing
        but a person's clue read literally to go by: we hold them until a clue or the count settles it."""
        t = self.t
        return [o for o in t.hands[self.me] if o in t.clued and o not in t.good_touch and o not in t.play
                and self.counted[o] & self.played and not self.is_playable(o)
                and any(t.playable(i) for i in bits(self.counted[o]))]

    def held_text(self) -> str | None:
        """Why we hold our clued cards that may be copies of played cards, and which clue would settle them."""
        held = self.held()
        if not held:
            return None
        t = self.t
        ranks = {rank_of(i) for o in held for i in bits(self.counted[o])}
        suits = {suit_of(i) for o in held for i in bits(self.counted[o])}
        many = len(held) > 1
        if len(ranks) == 1:
            rank = ranks.pop()
            what, helps = (f"my {rank}s" if many else f"my {rank} in {self.slot(held[0])}"), "a colour clue"
        elif len(suits) == 1:
            colour = t.config.variant.suits[suits.pop()].value
            what = f"my {colour} cards" if many else f"my {colour} card in {self.slot(held[0])}"
            helps = "a rank clue"
        else:
            what = "my clued cards" if many else f"my clued card in {self.slot(held[0])}"
            helps = "another clue"
        copies = 0
        for o in held:
            copies |= self.counted[o] & self.played
        played = "which is already played" if single(copies) is not None else "which are already played"
        which = "which to play" if many else "whether to play it"
        return f"{what} could be {cards_text(copies)}, {played}: {helps} would tell me {which}"

    def names_cards_of(self, action: TurnAction) -> frozenset[int]:
        """The seats whose cards the reason for ``action`` speaks of (see ``Decision.names_cards_of``).

        A play or a discard speaks of our own cards; a clue of its target's, and a finesse also of
        the card blind-played first, in a hand between us and the target. Generous on purpose: a
        reason kept from a seat that could have seen it costs little; one shown to the wrong seat
        tells it its own cards.
        """
        if not isinstance(action, Clue):
            return frozenset({self.me})
        t = self.t
        seats = {action.target}
        touched = touched_by(t, action.target, action)
        reading = self.reading(action, touched) if touched else None
        if reading is not None and reading.focus is not None and reading.self_order is None and reading.ext:
            seats.update(t.between(self.me, action.target))
        return frozenset(seats)

    def choose(self) -> Choice:
        """The bot's priorities in order (see the module's docstring): the first that applies decides."""
        t = self.t
        duty = finesse_duty(t)
        t.resolve_before_turn(self.me)
        if duty is not None and not self.cautious:
            return Play(duty), f"a clue was a finesse on me: blind-playing my {self.slot(duty)}"
        first = keep_signal(self) or self.save_first() or self.known_play()
        if first is not None:
            return first
        clue = self.best_clue() if self.t.tokens > 0 else None
        return (self.clue_worth_giving(clue) or self.hopeful_play() or self.stall_near_end(clue)
                or self.discard(clue) or self.eight_tokens(clue))

    def save_first(self) -> Choice | None:
        """A save clue for a chop that cannot wait (``urgent_save``), when we hold a clue token."""
        return self.urgent_save() if self.t.tokens > 0 else None

    def known_play(self) -> Choice | None:
        """A card we know to be playable (with the deck running out at two players, a clue for our partner's
        card first)."""
        playable = [o for o in self.t.hands[self.me] if self.is_playable(o)]
        if not playable:
            return None
        if self.clue_before_play():
            clue = self.best_clue()
            if clue is not None and clue[0] >= LAST_CLUES_VALUE:
                return clue[1], self.why_clue(clue[1]) + " (the deck is running out: their card first, mine after)"
        best_play = min(playable, key=self.play_priority)
        return Play(best_play), self.why_play(best_play)

    def clue_worth_giving(self, clue: tuple[float, Clue] | None) -> Choice | None:
        """The best clue, when it is worth a token more than a discard is worth one."""
        if clue is None:
            return None
        t = self.t
        value, action = clue
        # Beside a person who reads literally (and another bot), any useful clue beats a discard while tokens
        # are plenty: a token a bot spends is one the person does not spend on a clue that gets less played
        # (measured); the last two the next save or play needs more (EAGER_TOKENS).
        if (value >= 0.9 or (t.tokens >= CLUE_TOKENS - 1 and value >= self.rich_value)
                or (value >= 0.5 and t.tokens >= 2)
                or (self.eager and value >= EAGER and t.tokens >= EAGER_TOKENS)):
            return action, self.why_clue(action)
        return None

    def hopeful_play(self) -> Choice | None:
        """A card a person's clue very likely made playable; on our last turn, our likeliest card."""
        t = self.t
        likely = self.likely_play()
        if likely is not None:
            chance, order = likely
            return Play(order), (f"my {self.slot(order)} was clued and, from the cards I see and what a clue "
                                 f"is usually for, is playable {100 * chance:.0f} % of the time")
        if self.view.final_turns_left is not None and t.strikes < 2:
            # Never a card we hold because a person's clue left it maybe a copy of a card already played: we
            # know it may be worthless, and a strike thrown away on it is one the person sees for nothing.
            # (Any card may be worthless: a gamble on every such card measured 0.1-0.25 points worse beside the
            # novice, 200 deals, 2-5 players.)
            held = self.held()
            hand = [o for o in t.hands[self.me] if o not in held]
            best = max(hand, key=self.chance_playable, default=None)
            if best is not None and self.chance_playable(best) > 0:
                return Play(best), f"my last turn: playing my {self.slot(best)}, my likeliest playable card"
        return None

    def stall_near_end(self, clue: tuple[float, Clue] | None) -> Choice | None:
        """A harmless clue rather than a discard, when a discard costs more than a token: near the end of the
        deck, or (two players) just after our chop was saved."""
        t = self.t
        # Near the end every discard brings the last round closer: stall with a harmless clue instead.
        if clue is not None and clue[0] >= 0 and self.view.deck_left <= ENDGAME_DECK:
            return clue[1], self.why_clue(clue[1]) + " (near the end, a clue beats a discard)"
        # With the last few cards in the deck, every card drawn brings the last round closer, and clue
        # tokens are rarely short: a harmless clue gives everyone another turn to play (measured: +0.3
        # with bots only at 2 and 3 players; beside a lone person at 2 players, paired, +0.049 ± 0.014 on
        # deals 1000-1999 and +0.055 ± 0.013 on 2000-2999 beside the novice: its blind discards there are
        # the table's riskiest, and its partner's clued cards need the turns).
        if t.tokens > 0 and self.view.deck_left <= STALL_DECK and self.view.final_turns_left is None:
            stall = self.harmless_clue()
            if stall is not None:
                return stall, "the deck is almost out: a harmless clue keeps it for the turns we need"
        # Two players: just after our chop was saved, the card behind it may need saving too, and only
        # our partner can do it; give them a turn to look (it did not pay with more players). Not with
        # known trash to throw instead (the chop is not touched then), nor with the last two tokens,
        # which our partner needs more for the saves and plays still to come (bots only, 500 deals:
        # +0.06 and +0.09, +0.12 together; beside a person, unchanged: not measured there).
        look_behind = t.tokens > 0 if t.people else t.tokens >= LOOK_BEHIND_TOKENS and not self.holds_trash()
        if look_behind and t.config.players == 2 and self.chop_just_saved():
            if clue is not None and clue[0] >= 0:
                return clue[1], self.why_clue(clue[1])
            stall = self.harmless_clue()
            if stall is not None:
                return stall, "my chop was just saved: a harmless clue, so that my partner can look behind it"
        return None

    def harmless_clue(self) -> Clue | None:
        """The clue touching the fewest cards among those that mislead nobody at all and leave no literal
        reader a worse card to throw next (a stall on their last unclued card has them throw their oldest,
        often a card saved before)."""
        clues = sorted((a for a in self.legal if isinstance(a, Clue)), key=str)
        harmless = [(harm, c) for c in clues if (harm := self.harm(c))[:2] == (0, 0) and not self.worsens_throw(c)]
        return min(harmless, key=lambda hc: hc[0])[1] if harmless else None

    def worsens_throw(self, clue: Clue) -> bool:
        """Whether a clue to a literal reader leaves them a costlier card to throw on their next turn."""
        return self.literal(clue.target) and self.literal_loss(clue.target, clue) > self.literal_loss(clue.target)

    def discard(self, clue: tuple[float, Clue] | None) -> Choice | None:
        """A discard, when one is allowed: known trash, else the chop (or, with nobody to guard our chop, the
        unclued card that matters least); with every card clued, see ``locked_hand``."""
        t = self.t
        if t.tokens >= CLUE_TOKENS:
            return None
        hand = t.hands[self.me]
        trash = [o for o in hand if self.is_trash(o)]
        if trash:
            return Discard(trash[0]), f"my {self.slot(trash[0])} can only be a card no longer needed"
        chop = t.chop(self.me)
        if chop is None:
            return self.locked_hand(clue)
        if self.unguarded():
            # Nobody here saves a chop by convention: throw the unclued card the count says matters least.
            unclued = [o for o in hand if o not in t.clued and o not in t.play]
            safest = min(unclued, key=lambda o: (self.keep_value(o), -hand.index(o)))
            if safest != chop and self.keep_value(safest) < self.keep_value(chop):
                return Discard(safest), (f"{self.save_habit()}nothing to play or clue: discarding my "
                                         f"{self.slot(safest)}, the unclued card least likely to be needed")
        return Discard(chop), f"{self.save_habit()}nothing to play or clue: discarding my chop ({self.slot(chop)})"

    def locked_hand(self, clue: tuple[float, Clue] | None) -> Choice:
        """Every card of ours is clued: stall with a clue rather than lose a card, else lose the least needed
        (between bots, when every card is precious, play the likeliest instead)."""
        t = self.t
        hand = t.hands[self.me]
        if clue is not None and t.tokens > 0 and clue[0] >= 0:
            return clue[1], self.why_clue(clue[1]) + " (every card of mine is clued)"
        if t.tokens > 0:
            stall = self.harmless_clue()
            if stall is not None:
                return stall, "every card of mine is clued: a harmless clue instead of a discard"
        keep = min(hand, key=self.keep_value)
        if self.keep_value(keep) >= 5 and t.strikes < 2 and not t.people:
            # (Beside people, who did not agree to gamble, a bot loses the card instead.)
            # Every card is precious: a likely play beats a sure loss.
            gamble = max(hand, key=self.chance_playable)
            if self.chance_playable(gamble) >= (0.4 if t.strikes == 0 else 0.6):
                return Play(gamble), (f"every card of mine is precious: playing my {self.slot(gamble)}, "
                                      "the likeliest to be playable, rather than lose one")
        return Discard(keep), f"every card of mine is clued: discarding my {self.slot(keep)}, the least needed"

    def eight_tokens(self, clue: tuple[float, Clue] | None) -> Choice:
        """All 8 tokens in hand, so no discard: the best clue, else the one that misleads least."""
        if clue is not None:
            return clue[1], self.why_clue(clue[1]) + " (8 clue tokens: no discard)"
        fallback = self.fallback()
        if isinstance(fallback, Clue):
            return fallback, "8 clue tokens and no useful clue: the clue that misleads least"
        return fallback, "8 clue tokens and no clue to give: playing my likeliest card"

    def known_playable(self, mask: int) -> bool:
        return bool(mask) and self.t.all_playable(mask)

    def why_clue(self, clue: Clue) -> str:
        """What a clue of ours tells its target, in a player's words."""
        t = self.t
        touched = touched_by(t, clue.target, clue)
        reading = self.reading(clue, touched)
        who = seat_name(clue.target)
        hand = t.hands[clue.target]
        plays = [o for o in hand if self.known_playable(self.belief(o, reading))
                 and not self.known_playable(self.belief(o))]
        focus = reading.focus
        fid = t.ids[focus] if focus is not None else None
        if reading.self_order is not None and fid is not None:
            return f"cluing {who} {clue.value}: a finesse on their own hand, leading to {name(fid)}"
        if fid is not None and reading.kind == "play" and reading.ext >> fid & 1 and not reading.base >> fid & 1:
            return (f"cluing {who} {clue.value}: a finesse: {name(fid - 1)} gets blind-played first, "
                    f"then their {name(fid)}")
        quick = self.quick_card(clue.target, reading)
        if quick is not None and quick >= 0 and quick not in plays:
            return (f"{who} plays on one clue, so cluing {who} {clue.value}: their {name(t.ids[quick])} "
                    f"(slot {hand.index(quick) + 1}) can be played")
        if plays and self.literal(clue.target) and t.waited[clue.target] > t.one_clue[clue.target]:
            return f"{who} waits for proof, so " + self.plays_text(clue, who, touched, plays)
        if plays:
            return self.plays_text(clue, who, touched, plays)
        if fid is not None and focus is not None and focus == t.chop(clue.target) and not t.dead(fid):
            what = f"the only {name(fid)}" if t.critical(fid) else name(fid)
            return f"cluing {who} {clue.value}: saving {what} on their chop"
        if fid is not None and reading.kind == "play":
            return f"cluing {who} {clue.value}: their {name(fid)} will be playable after the cards before it"
        halfway = self.halfway_text(clue, touched, reading)
        if halfway is not None:
            return f"cluing {who} {clue.value}: {halfway}"
        return f"cluing {who} {clue.value}: marking cards worth keeping"

    def plays_text(self, clue: Clue, who: str, touched: tuple[int, ...], plays: list[int]) -> str:
        """A clue that proves cards playable, in words."""
        t = self.t
        hand = t.hands[clue.target]
        # A card the clue does not touch is proven playable by what the clue says it is not (R3 or Y3 with
        # a yellow clue elsewhere): the reason says so, else it reads as another clue's.
        told = [f"{name(t.ids[o])} (slot {hand.index(o) + 1})" for o in plays if o in touched]
        untold = [f"{name(t.ids[o])} (slot {hand.index(o) + 1})" for o in plays if o not in touched]
        parts = [f"their {', '.join(told)} can be played"] if told else []
        if untold:
            parts.append(f"their {', '.join(untold)} is not {clue.value}, so it can be played" if len(untold) == 1
                         else f"their {', '.join(untold)} are not {clue.value}, so they can be played")
        if told and not untold and all(o in t.clued for o in touched):
            # Every card it touches had a clue: to a newcomer it looks wasted, so say what it adds.
            parts[-1] += (" (a tempo clue: it had a clue already, this one says to play it now)" if len(touched) == 1
                          else " (a tempo clue: they had clues already, this one says to play them now)")
        return f"cluing {who} {clue.value}: " + "; ".join(parts)

    def halfway_text(self, clue: Clue, touched: tuple[int, ...], reading: Reading) -> str | None:
        """For a literal reader, the playable card a clue brings halfway to proven (see SETUP), in words."""
        t = self.t
        if not self.literal(clue.target):
            return None
        hand = t.hands[clue.target]
        for o in touched:
            if t.playable(t.ids[o]) and self.belief(o, reading) != self.belief(o):
                told, other = (f"is {clue.value}", "rank") if clue.rank is None else (f"is a {clue.rank}", "colour")
                return (f"their {name(t.ids[o])} (slot {hand.index(o) + 1}) is playable: now they know it {told}, "
                        f"and a clue on its {other} will prove it")
        return None

    def holds_trash(self) -> bool:
        """Whether a card of ours is known trash, and a discard is allowed: a discard that risks nothing."""
        return self.t.tokens < CLUE_TOKENS and any(self.is_trash(o) for o in self.t.hands[self.me])

    def clue_before_play(self) -> bool:
        """Two players, the deck running out: a clue that gets our partner a card comes before our own play.

        Our known cards keep until our next turns, and a clue draws no card, so it costs us no turn of
        the game; our partner's unknown card, once the deck is out, would never be played. (Beside a
        person too: paired on deals 1000-2999 beside the novice, +0.029 ± 0.012.)
        """
        t = self.t
        return (t.config.players == 2 and t.tokens > 0 and self.view.final_turns_left is None
                and self.view.deck_left <= LAST_CLUES_DECK)

    def chop_just_saved(self) -> bool:
        """Whether the last turn was a clue to us touching what was then our chop."""
        t = self.t
        events = self.view.events
        index = next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], TurnEvent)), None)
        if index is None:
            return False
        last = events[index]
        assert isinstance(last, TurnEvent)
        if not isinstance(last.action, Clue) or last.action.target != self.me:
            return False
        old_chop = next((o for o in reversed(t.hands[self.me])
                         if t.clued_at.get(o, index) >= index and o not in t.play), None)
        return old_chop in last.touched

    def fallback(self) -> TurnAction:
        """Nothing sensible with 8 tokens: the clue that misleads least, else play the likeliest card."""
        clues = sorted((a for a in self.legal if isinstance(a, Clue)), key=str)
        if clues:
            return min(clues, key=self.harm)
        return Play(max(self.t.hands[self.me], key=self.chance_playable))

    def harm(self, clue: Clue) -> tuple[int, int, int]:
        """(cards they would misplay, cards they would misread, cards touched) for a clue of ours."""
        t = self.t
        touched = touched_by(t, clue.target, clue)
        if not touched:
            return (0, 0, 0)
        reading = self.reading(clue, touched)
        misplays = misreads = 0
        for o in t.hands[clue.target]:
            after = self.belief(o, reading)
            true = t.ids[o]
            misreads += not after >> true & 1
            misplays += t.all_playable(after) and not t.playable(true)
        quick = self.quick_card(clue.target, reading)
        misplays += quick is not None and (quick < 0 or not t.playable(t.ids[quick]))
        if reading.focus is not None:
            fid = t.ids[reading.focus]
            if not self.belief(reading.focus, reading) >> fid & 1 and not t.playable(fid) and not t.dead(fid):
                misplays += 1  # a focus nobody can explain: others may blind-play to explain it
            elif self.false_finesse(clue, touched, reading, fid):
                misplays += 1
            elif reading.kind != "play":
                pass
            elif reading.self_order is not None:
                misplays += not self.self_finesse_is_sound(reading, fid)
            elif reading.ext >> fid & 1 and not reading.base >> fid & 1:
                misplays += not self.finesse_is_sound(reading, fid)
        return (misplays, misreads, len(touched))

    def play_priority(self, order: int) -> tuple[int, int]:
        m = self.my_mask(order)
        rank = min(rank_of(i) for i in bits(m))
        unlocks = any(self.clued_elsewhere >> (i + 1) & 1 for i in bits(m) if rank_of(i) < 5)
        return (0 if unlocks else 1, rank)

    def keep_value(self, order: int) -> float:
        """How much losing this card is expected to cost (a locked hand must discard something)."""
        m = self.my_mask(order)
        total = value = 0.0
        for i in bits(m):
            weight = max(self.t.copies[i] - self.seen[i], 0) or 0.1
            total += weight
            if not self.t.dead(i):
                value += weight * ((10.0 if self.t.critical(i) else 1.0) + (5 - rank_of(i)) * 0.1)
        return value / total if total else -1.0

    # ------------------------------------------------------------ clues

    def urgent_save(self) -> tuple[Clue, str] | None:
        """A save clue for the next player, or for the one after when our clue token is the last."""
        t = self.t
        players = t.config.players
        seats = [(self.me + 1) % players]
        # People do not save a chop: we guard every seat up to the next house bot's, whose own chop is ours
        # to guard too (the bot before it acts before it).
        while not t.is_bot(seats[-1]) and len(seats) < players - 1:
            seats.append((seats[-1] + 1) % players)
        if t.tokens == 1 and len(seats) < players - 1:
            # Whoever acts next will have no token to save the player after them.
            seats.append((seats[-1] + 1) % players)
        for seat in seats:
            save = self.save_for(seat)
            if save is not None:
                return save
        return None

    def save_for(self, seat: int) -> tuple[Clue, str] | None:
        t = self.t
        if self.literal(seat):
            return self.keep_for_literal(seat)
        chop = t.chop(seat)
        if chop is None:
            return None  # every card is clued: no chop to save (a literal reader was handled above)
        if not self.needs_save(seat, chop) or self.busy(seat):
            return None
        best: tuple[float, Clue] | None = None
        for clue in self.clues_for(seat):
            touched = touched_by(t, seat, clue)
            if chop not in touched:
                continue
            judged = self.judge(clue, touched)
            if judged is None:
                continue
            if best is None or judged > best[0]:
                best = (judged, clue)
        if best is None:
            return None
        card = t.ids[chop]
        if t.critical(card):
            what = f"the only {name(card)} left"
        elif rank_of(card) == 2 and not t.playable(card):
            what = f"{name(card)}, whose other copy no one else holds"
        else:
            what = f"a playable {name(card)} no one else holds"
        return best[1], f"cluing {seat_name(seat)} {best[1].value}: saving {what} on their chop"

    def literal_discard(self, seat: int, clued: tuple[int, ...] = ()) -> int | None:
        """The card a literal reader throws next: its oldest unclued card, or its oldest card if all are clued.

        ``clued``: cards a clue of ours would touch, counted as clued.
        """
        hand = self.t.hands[seat]
        unclued = [o for o in hand if o not in self.t.clued and o not in clued]
        pool = unclued or hand
        return pool[-1] if pool else None

    def stake(self, order: int | None) -> float:
        """What throwing this (visible) card away costs: the points it takes off the best score still possible.

        A critical card takes its own rank and every rank above it that is still possible; at two
        players, a playable card no one else holds costs a little (its other copy is somewhere).
        """
        if order is None:
            return 0.0
        card = self.t.ids[order]
        at_stake = 0.0 if self.early_five(card) else self.points_at_stake(card)
        return at_stake or (0.5 if self.lone_playable_2p(order) else 0.0)

    def early_five(self, card: int) -> bool:
        """A 5 while more than EARLY_FIVE_DECK cards are left in the deck: nothing at stake for a literal reader.

        Kept, it would sit in their hand most of the game (they play it only once proven), and a hand
        filled with kept cards throws its oldest anyway, often another card saved before: a save spends a
        token and a slot for a point the hand is likely to lose later (measured: leaving a clued 5 at stake
        early too gained less, +0.13 against +0.20 on the same deals).
        """
        return rank_of(card) == 5 and self.view.deck_left > EARLY_FIVE_DECK

    def points_at_stake(self, card: int) -> float:
        """The points the best score still possible loses if this card is thrown: for a critical card, its
        rank and every rank above it still possible; for any other, none (yet)."""
        t = self.t
        if t.dead(card) or not t.critical(card):
            return 0.0
        s = suit_of(card)
        top = rank_of(card)
        while top < 5 and t.gone[ident(s, top + 1)] < t.copies[ident(s, top + 1)]:
            top += 1
        return float(top - rank_of(card) + 1)

    def lone_playable_2p(self, order: int) -> bool:
        """Two players: a playable card no one else holds (worth a clue before it is thrown; with more
        players, someone else usually clues it in time, and it measured worse)."""
        t = self.t
        card = t.ids[order]
        return t.config.players == 2 and t.playable(card) and not any(
            t.ids.get(o) == card for s, h in enumerate(t.hands) if s != self.me for o in h if o != order)

    def literal_loss(self, seat: int, clue: Clue | None = None) -> float:
        """What a literal reader is about to throw away on its next turn, after ``clue`` (None: no clue).

        It plays a card the clues prove playable if it has one (then it throws nothing), and
        otherwise throws its oldest unclued card (its oldest card once every card is clued).
        """
        t = self.t
        if clue is None:
            touched: tuple[int, ...] = ()
            know = {o: t.knowledge(o) for o in t.hands[seat]}
        else:
            touched = touched_by(t, seat, clue)
            know = self.reading(clue, touched).know
        if any(self.known_playable(self.literal_knows(seat, k)) for k in know.values()):
            return 0.0
        return self.stake(self.literal_discard(seat, touched))

    def keep_for_literal(self, seat: int) -> tuple[Clue, str] | None:
        """Keep a literal reader from throwing a card worth keeping on its next turn.

        It throws its oldest unclued card, or its oldest card once every card is clued, unless the
        clues prove a card playable. The clue chosen is the one after which it throws the least: a clue
        that gives it a card to play keeps every card; one that touches the card about to go keeps
        that card, but may leave the next one in line (or, in a hand it fills, its oldest) to go.
        """
        t = self.t
        at_stake = self.literal_loss(seat)
        if at_stake <= 0:
            return None
        doomed = self.literal_discard(seat)
        assert doomed is not None
        best: tuple[tuple[float, float], Clue] | None = None
        for clue in self.clues_for(seat):
            touched = touched_by(t, seat, clue)
            if not touched:
                continue
            loss = self.literal_loss(seat, clue)
            if loss >= at_stake:
                continue
            judged = self.judge(clue, touched)
            if judged is None:
                continue
            key = (-loss, judged)
            if best is None or key > best[0]:
                best = (key, clue)
        if best is None:
            return None
        clue = best[1]
        card = t.ids[doomed]
        what = f"the only {name(card)} left" if t.critical(card) else f"a playable {name(card)} no one else holds"
        if doomed in touched_by(t, seat, clue):
            return clue, f"cluing {seat_name(seat)} {clue.value}: saving {what}, the card they would throw next"
        return clue, (f"cluing {seat_name(seat)} {clue.value}: a card to play, so that they keep {what} "
                      "rather than throw it")

    def needs_save(self, seat: int, order: int) -> bool:
        t = self.t
        card = t.ids[order]
        if t.dead(card):
            return False
        if t.critical(card):
            return True
        if self.lone_playable_2p(order):
            return True
        if rank_of(card) == 2 and not self.literal(seat) and t.config.players > 2:
            # A 2 whose other copy no one else holds: H-group's 2 save (not for a literal reader, whose hand
            # it would fill until the 2 can be proven playable: measured worse; nor at 2 players, where
            # the token and the slot it takes cost more than the 2: bots only, 300 deals, +0.2).
            return not any(t.ids.get(o) == card for s, h in enumerate(t.hands) if s != self.me
                           for o in h if o != order)
        return False

    def busy(self, seat: int) -> bool:
        """Whether ``seat`` has something to do other than discarding its chop (as far as we can tell)."""
        t = self.t
        for o in t.hands[seat]:
            m = t.know_conv(o)
            if o in t.clued:
                m &= ~(self.team_trash(o) if o not in t.good_touch else self.trash)
            if m and t.all_playable(m):
                return True
            if o in t.clued and not t.know_conv(o) & ~self.trash:
                return True  # known trash to discard instead
        return any(p.kind == "finesse" and p.seat == seat for p in t.pending)

    def clues_for(self, seat: int) -> list[Clue]:
        variant = self.t.config.variant
        out = [Clue(seat, colour=c) for c in variant.clue_colours]
        out += [Clue(seat, rank=r) for r in range(1, 6)]
        return [c for c in out if c in self.legal]

    def best_clue(self) -> tuple[float, Clue] | None:
        """The most useful sound clue; with 8 tokens and none sound, the least harmful one."""
        found = self._best_clue()
        if found is None and self.t.tokens == CLUE_TOKENS:
            self.forced = True
            found = self._best_clue()
            self.forced = False
        return found

    def _best_clue(self) -> tuple[float, Clue] | None:
        best: tuple[float, Clue] | None = None
        t = self.t
        left = self.view.final_turns_left
        for step in range(1, t.config.players):
            if left is not None and step >= left:
                break  # in the last round, a player who has no turn left cannot use a clue
            seat = (self.me + step) % t.config.players
            for clue in self.clues_for(seat):
                touched = touched_by(t, seat, clue)
                if not touched:
                    continue
                value = self.judge(clue, touched)
                if value is None:
                    continue
                value -= 0.01 * step  # sooner is better: the card gets played sooner
                if best is None or value > best[0]:
                    best = (value, clue)
        return best

    def reading(self, clue: Clue, touched: tuple[int, ...]) -> Reading:
        """How the target reads ``clue`` from us (``touched``: the cards it touches), worked out once a turn."""
        found = self._readings.get(clue)
        if found is None:
            found = self._readings[clue] = read_clue(self.t, self.me, clue, touched)
        return found

    def belief(self, order: int, reading: Reading | None = None) -> int:
        """What the holder of ``order`` (another seat) will think it may be, roughly."""
        if reading is None or order not in reading.know:
            found = self._beliefs.get(order)
            if found is None:
                found = self._beliefs[order] = self.belief_after(order, None)
            return found
        return self.belief_after(order, reading)

    def belief_after(self, order: int, reading: Reading | None) -> int:
        """``belief``, worked out: after ``reading``'s clue when it touches the holder's hand, else now."""
        t = self.t
        if reading is not None and order in reading.know:
            k = reading.know[order]
            c = reading.conv.get(order, t.conv.get(order, t.all))
            clued = order in t.clued or order in reading.touched
        else:
            k = t.knowledge(order)
            c = t.conv.get(order, t.all)
            clued = order in t.clued
        holder = t.holder.get(order)
        if holder is not None and self.literal(holder):
            return self.literal_knows(holder, k)  # a person reading clues literally: what the clues say
        m = k & c or k
        if holder is not None:
            # They see every copy outside their hand and ours, as we do.
            m = m & ~self.seen_by(holder) or m
        if clued:
            m = m & ~self.team_trash(order) or m
        return m

    def team_trash(self, order: int) -> int:
        """The trash a clued card of another seat's is known not to be, as its holder works it out (``my_mask``).

        A good-touch card may still be a copy of a card played since it was clued on a literal reading
        (nobody checked that one against it): its holder cannot rule that out, so neither do we, and a
        clue that settles it is worth giving (else a clued playable card can wait a whole game).
        """
        t = self.t
        if order not in t.good_touch:
            # A person's rank clue read literally (beside a beginner) promised nothing: its holder never plays
            # the card unproven while the count leaves it a copy of a card already played
            # (``Turn.rank_clue_trusted``), so those copies stay possible for it. (A colour clue's card it may
            # play by what the clue most likely meant: taken as known, as before.)
            return self.trash & ~self.played if self.read_literally(order) else self.trash
        since = t.clued_at.get(order, -1)
        loose = sum(1 << i for i, when in t.loose_at.items() if when >= since)
        return self.trash & ~loose

    def read_literally(self, order: int) -> bool:
        """Whether a clued card of a house bot's was touched by a person's rank clue and only by clues read
        literally (beside a beginner): nothing rules out for its holder that it is a copy of a card already
        played."""
        t = self.t
        holder = t.holder.get(order)
        return (holder is not None and t.is_bot(holder) and order in t.rank_giver and order in t.clued
                and order not in t.good_touch and order not in t.play)

    def unguarded(self) -> bool:
        """Whether nobody will save our chop: every other seat is a person who does not (``Table.guards``:
        as seen, else as the level expects)."""
        t = self.t
        return not any(t.is_bot(seat) or t.guards(seat) for seat in range(t.config.players) if seat != self.me)

    def save_habit(self) -> str:
        """Beside people only, when what they did (not the level) says whether they save a chop: that, in
        words, to open the reason for a discard."""
        t = self.t
        others = [seat for seat in range(t.config.players) if seat != self.me]
        if any(t.is_bot(seat) for seat in others):
            return ""
        seen = [seat for seat in others if t.saves[seat] or t.missed[seat]]
        if not seen:
            return ""
        who = " and ".join(seat_name(seat) for seat in seen)
        return f"{who} {'saves' if len(seen) == 1 else 'save'} a critical chop, so " if not self.unguarded() else (
            f"{who} {'lets' if len(seen) == 1 else 'let'} a critical chop go, so ")

    def literal(self, seat: int) -> bool:
        """Whether ``seat`` is a person who reads clues literally (a beginner table): no convention, no count."""
        return not self.t.is_bot(seat) and self.t.level == "beginner"

    def certain_belief(self, order: int, reading: Reading | None = None) -> int:
        """What the holder of ``order`` can prove it is: the clues on it and the copies they see."""
        t = self.t
        k = reading.know[order] if reading is not None and order in reading.know else t.knowledge(order)
        holder = t.holder.get(order)
        if holder is not None and self.literal(holder):
            return self.literal_knows(holder, k)
        return k & ~self.seen_by(holder) or k if holder is not None else k

    def literal_knows(self, seat: int, known: int) -> int:
        """What a person reading clues literally can prove a card of theirs is, the clues saying ``known``:
        less the copies they see, unless they have shown they do not count (``Table.counts``): then the clues alone."""
        if self.t.counts(seat):
            return known & ~self.seen_by(seat) or known
        return known

    def seen_by(self, seat: int) -> int:
        """Identities all of whose copies ``seat`` sees outside its own hand (ours not counted: unknown to us)."""
        cached = self._seen_by.get(seat)
        if cached is not None:
            return cached
        t = self.t
        count = Counter(self.seen)
        for o in t.hands[seat]:
            count[t.ids[o]] -= 1
        mask = sum(1 << i for i, n in t.copies.items() if count[i] >= n)
        self._seen_by[seat] = mask
        return mask

    def judge(self, clue: Clue, touched: tuple[int, ...]) -> float | None:
        """The value of a clue from us, or None if it would be misread (or is pointless)."""
        t = self.t
        # Good touch first: it needs no reading, and it refuses many of the candidates.
        touch = self.touch_cost(clue.target, touched)
        if touch is None:
            return None
        reading = self.reading(clue, touched)
        if any(not self.belief(o, reading) >> t.ids[o] & 1 for o in touched):
            return None  # they would think it something it is not
        focus = reading.focus
        assert focus is not None
        fid = t.ids[focus]
        finesse = (reading.kind == "play" and reading.self_order is None and bool(reading.ext >> fid & 1)
                   and not reading.base >> fid & 1)
        if not self.reading_is_sound(clue, touched, reading, fid, finesse):
            return None
        gain = self.cards_gained(clue.target, touched, reading, -touch)
        if gain is None:
            return None
        value, newly_known = gain
        blind = finesse or reading.self_order is not None
        if blind and self.cautious:
            return None  # at two strikes nobody blind-plays, so the clue would be misread
        if blind:
            value += FINESSE_VALUE  # a blind play
        if not newly_known and not finesse and all(o in t.clued for o in touched) and value <= 0:
            return None
        if self.literal(clue.target) and clue.target == (self.me + 1) % t.config.players:
            # They move next: a clue that leaves them a worse card to throw (a hand it fills throws its
            # oldest, often a card saved before) costs that card.
            value -= max(0.0, self.literal_loss(clue.target, clue) - self.literal_loss(clue.target))
        return value

    def reading_is_sound(self, clue: Clue, touched: tuple[int, ...], reading: Reading, fid: int,
                         finesse: bool) -> bool:
        """Whether every blind play or wait the reading asks of other seats will happen as it means."""
        # Cards the target's reading relies on in third hands must be findable by their holders.
        if reading.kind != "none" and not self.chain_is_sound(reading, fid):
            return False
        if finesse and not self.finesse_is_sound(reading, fid):
            return False
        if reading.self_order is not None and not self.self_finesse_is_sound(reading, fid):
            return False
        return finesse or reading.self_order is not None or not self.false_finesse(clue, touched, reading, fid)

    def touch_cost(self, target: int, touched: tuple[int, ...]) -> float | None:
        """Good touch: what the newly touched trash and duplicates cost, or None when they forbid the clue."""
        t = self.t
        cost = 0.0
        seen_ids: set[int] = set()
        for o in touched:
            i = t.ids[o]
            if o in t.clued:
                continue
            if t.dead(i) or self.clued_elsewhere >> i & 1 or i in seen_ids or self.mine_could_be(i):
                if self.literal(target) and not self.forced:
                    # A literal reader never plays it unproven, so it only takes a slot of their hand.
                    cost += BAD_TOUCH_LITERAL
                elif self.late_duplicate(i) and not self.forced:
                    cost += LATE_DUPLICATE_COST
                elif not self.forced:
                    return None  # a bad touch: someone would later misplay or waste it
                else:
                    cost += 3.0
            seen_ids.add(i)
        return cost

    def cards_gained(self, target: int, touched: tuple[int, ...], reading: Reading,
                     value: float) -> tuple[float, bool] | None:
        """``value`` plus what the clue gets the target's hand, in cards, and whether a card becomes known
        playable; None when they would misplay a card."""
        t = self.t
        newly_known = False
        literal = self.literal(target)
        quick = self.quick_card(target, reading)
        if quick is not None and (quick < 0 or not t.playable(t.ids[quick])):
            return None  # they play on one clue: they would (or may) misplay the card it seems to mean
        for o in t.hands[target]:
            before = self.belief(o)
            after = self.belief(o, reading)
            i = t.ids[o]
            now = t.all_playable(after) or o == quick
            if now and not t.playable(i):
                return None  # they would misplay it
            was = bool(before) and t.all_playable(before)
            if self.cautious:
                # At two strikes they play only what the clues prove: count only that as a play.
                after = self.certain_belief(o, reading)
                now = bool(after) and t.all_playable(after)
                before = self.certain_belief(o)
                was = bool(before) and t.all_playable(before)
            if now and not was and self.read_literally(o):
                # A card its holder keeps because a person's rank clue left it maybe a copy of a card already
                # played: proving it gets it played, but the count or the person often proves it soon anyway.
                value += HELD_PROOF
            elif now and not was:
                value += 1.0 + (0.2 if rank_of(i) == 5 else 0.0)
                newly_known = True
            elif literal and o in touched and t.playable(i) and after != before:
                # A person who reads clues literally needs colour and rank: half of what gets it played.
                value += SETUP
            elif o in touched and o not in t.clued and not t.dead(i):
                if o == reading.focus and reading.kind == "play":
                    value += 0.6
                elif t.critical(i):
                    value += 0.5 if o == t.chop(target) else 0.3
                else:
                    value += CLOG  # a useful card, but it takes a slot out of the discard rotation
        return value, newly_known

    def quick_card(self, target: int, reading: Reading) -> int | None:
        """The card a person who plays on one clue (``Table.plays_on_one_clue``) plays after this clue of
        ours: the one touched card it leaves able to be playable now, by the clues and the count they have
        shown they make. -1 when it leaves several and one of them is not playable: their own count (they see
        our hand) may leave only that one, and they would misplay it. None for anyone else, when the clue
        leaves no such card, or several all playable."""
        t = self.t
        if not self.literal(target) or not t.plays_on_one_clue(target) or self.cautious:
            return None
        known = {o: self.literal_knows(target, k) for o, k in reading.know.items()}
        able = able_to_play(t, Reading(target, reading.touched, known))
        if len(able) == 1:
            return able[0]
        return -1 if any(not t.playable(t.ids[o]) for o in able) else None

    def false_finesse(self, clue: Clue, touched: tuple[int, ...], reading: Reading, fid: int) -> bool:
        """Whether a player between us and the target could take this clue for a finesse on them.

        Only a focus the reading does not explain can do that: each such player
        asks how the clue would read if their finesse card were the card below
        the focus (see ``conventions.finesse_on_me``), and blind-plays if it
        would read as a finesse.
        """
        t = self.t
        if rank_of(fid) < 2 or t.playable(fid) or t.dead(fid):
            return False
        if reading.kind != "none" and (reading.base >> fid & 1 or reading.self_order is not None):
            return False
        link = fid - 1
        between = t.finessers(self.me, clue.target)
        for index, seat in enumerate(between):
            fp = t.finesse_pos(seat)
            if fp is None or t.ids[fp] == link:
                continue
            if any((q_fp := t.finesse_pos(q)) is not None and t.ids[q_fp] == link for q in between[index + 1:]):
                continue
            t.assumed[fp] = link
            try:
                hypo = read_clue(t, self.me, clue, touched)
            finally:
                t.assumed.clear()
            if (hypo.kind == "play" and hypo.self_order is None and hypo.ext >> fid & 1
                    and not hypo.base >> fid & 1):
                return True
        return False

    def self_finesse_is_sound(self, reading: Reading, fid: int) -> bool:
        """The target's own finesse card is the missing one, and nobody could take the clue otherwise."""
        t = self.t
        link = fid - 1
        assert reading.self_order is not None
        if rank_of(fid) < 2 or t.ids[reading.self_order] != link or not t.playable(link):
            return False
        if self.clued_elsewhere >> link & 1 or self.mine_could_be(link):
            return False
        return not any(self.belief(c) >> link & 1 for seat, hand in enumerate(t.hands)
                       if seat != self.me for c in hand if c in t.clued)

    def late_duplicate(self, identity: int) -> bool:
        """Whether touching another copy of ``identity`` is allowed: *late duplicates* (docs/bots.md).

        Good touch forbids a clue that touches a copy of a card already clued (or, for all we know, clued
        in our own hand), or two copies at once. At a table of house bots, with at most
        LATE_DUPLICATE_DECK cards left in the deck, such a clue is given when it is worth it anyway: the
        card it gets played is worth more than the slot the spare copy takes (and by then most turns
        that slot would have waited are gone). Never a card that is already trash. Bots only, 500 deals:
        22.23 -> 22.70 / 23.01 -> 23.21 / 22.93 -> 23.06 / 21.67 -> 21.75 at 2 / 3 / 4 / 5 players.
        """
        t = self.t
        late = LATE_DUPLICATE_DECK.get(t.config.players)
        return not t.people and late is not None and self.view.deck_left <= late and not t.dead(identity)

    def mine_could_be(self, identity: int) -> bool:
        """A clued card of ours might already be this identity (so cluing another copy risks a duplicate)."""
        return any(self.my_mask(o) >> identity & 1 for o in self.t.hands[self.me] if o in self.t.clued)

    def chain_is_sound(self, reading: Reading, fid: int) -> bool:
        """Every clued card the focus waits on, in a third hand, will be recognised by its holder."""
        t = self.t
        s = suit_of(fid)
        cover = covering(t, (self.me, reading.target), reading.focus, reading.know)
        for r in range(t.fireworks[s] + 1, rank_of(fid)):
            link = ident(s, r)
            o = cover.get(link)
            if o is None:
                continue
            seat = t.holder.get(o)
            if seat is None or seat in (self.me, reading.target):
                continue
            if single(self.belief(o)) == link:
                continue
            first = next((c for c in t.hands[seat] if c in t.clued and self.belief(c) >> link & 1), None)
            if first != o:
                return False
        return True

    def finesse_is_sound(self, reading: Reading, fid: int) -> bool:
        t = self.t
        link = fid - 1
        if self.clued_elsewhere >> link & 1 or self.mine_could_be(link):
            return False
        holders = [p for p in t.finessers(self.me, reading.target)
                   if (fp := t.finesse_pos(p)) is not None and t.ids[fp] == link]
        if not holders:
            return False
        fp = next((o for o in t.hands[reading.target]
                   if o not in t.clued and o not in t.play and o not in reading.touched), None)
        if fp is not None and t.ids[fp] == link:
            return False  # the players between would take it for a self-finesse
        # Nobody may mistake the clue for a prompt of one of their own clued cards.
        return not any(self.belief(c) >> link & 1 for seat, hand in enumerate(t.hands)
                       if seat not in (self.me, reading.target) for c in hand if c in t.clued)


__all__ = ["ConventionBot", "choose_hgroup", "clue_mask"]
