"""The coach: what the house bot would do in a person's seat, and the moments of a game that mattered.

``advise`` answers a seat to move with the house bot's move for that seat,
decided from that seat's view alone, its reason, and the convention behind
it with the section of docs/bots.md that explains it. ``advice_for`` is the
same asked of a game: it builds the seat's redacted view first, so whoever
serves advice (the server) cannot hand the bot anything the seat does not see.

``find_moments`` reads a finished game (its final state: deck, config and
events, all a replay file holds) and returns the moves of people where the
house bot, deciding from that seat's view at that time, would have done
otherwise and it mattered: a misplay, a critical card discarded, a save that
was due and not given, a proven playable card not played, a clue that led to
a misplay. It is pure: the same game gives the same moments.
``replay_moments`` is the same for a replay file, from the file alone: the
seats people held at each turn and the table's level are in it (``botLevel``
and ``seatHolders``), so the review of a table's game and the file opened
later show the same moments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .actions import Clue, Discard, Event, Play, TurnAction, TurnEvent
from .bots.decision import Decision, Level, reason_words, seat_called
from .bots.registry import Bot, make_bot
from .counting import possible_cards
from .playback import action_of, replay_steps
from .replay import Replay
from .state import GameState, game_from_deck
from .stats import Prospects
from .views import PlayerView, view_for

BOTS_DOC = "docs/bots.md"

# What a reason says -> the convention behind it and the section of docs/bots.md that explains it. The first
# phrase found in the reason wins, so the narrower phrases come first.
_CONVENTIONS: tuple[tuple[str, str, str], ...] = (
    ("finesse on their own hand", "self-finesse", "Self-finesses"),
    ("finesse", "finesse", "Finesses"),
    ("saving", "save clue", "Play clue or save clue"),
    ("so that they keep", "save clue", "Play clue or save clue"),
    ("playable after the cards before it", "delayed play clue", "Delayed play clues"),
    ("a tempo clue", "tempo clue", "Focus"),
    ("can be played", "play clue", "Play clue or save clue"),
    ("will prove it", "a clue read literally", "`beginner`: clues mean what they say"),
    ("worth keeping", "good touch", "`basic`: play clues, save clues, chop, focus, good touch"),
    ("our conventions say", "clue focus", "Focus"),
    ("the clues and the cards I see", "card counting", "What the bot works out from what it sees"),
    ("of the time", "a clue read literally", "`beginner`: clues mean what they say"),
    ("no longer needed", "known trash", "What the bot works out from what it sees"),
    ("chop", "the chop", "`basic`: play clues, save clues, chop, focus, good touch"),
    ("8 clue tokens", "no discard at 8 clue tokens", "What the bot does on its turn, in order"),
    ("two strikes", "two strikes", "Two strikes"),
)
_DEFAULT_CONVENTION = ("the bot's order of priorities", "What the bot does on its turn, in order")


@dataclass(frozen=True, slots=True)
class Advice:
    """The house bot's move for a seat, in a player's words, and where to read about it."""

    action: TurnAction
    move: str  # "play slot 3", "clue Bob: red"
    reason: str  # the bot's reason, every seat by its player's name
    convention: str  # "save clue"
    section: str  # the heading of docs/bots.md that explains it

    def lines(self) -> tuple[str, str]:
        """The advice in two lines, as a player's screen shows it."""
        return advice_lines(self.move, self.reason, self.convention, self.section)


def advice_lines(move: str, reason: str, convention: str, section: str) -> tuple[str, str]:
    """Advice in two lines: the move and why, then the convention and where docs/bots.md explains it."""
    return (f"The house bot would {move}: {reason}",
            f"Convention: {convention} (read {BOTS_DOC}, \"{section}\")")


def convention_of(reason: str) -> tuple[str, str]:
    """The convention a reason rests on and the section of docs/bots.md about it."""
    for phrase, convention, section in _CONVENTIONS:
        if phrase in reason:
            return convention, section
    return _DEFAULT_CONVENTION


def move_words(action: TurnAction, view: PlayerView, names: Sequence[str] = ()) -> str:
    """A move of the seat of ``view`` as advice says it: "play slot 3", "discard slot 5", "clue Bob: red"."""
    if isinstance(action, Clue):
        return f"clue {seat_called(action.target, names)}: {action.value}"
    verb = "play" if isinstance(action, Play) else "discard"
    hand = [cv.order for cv in view.hands[view.current]]
    if action.order in hand:
        return f"{verb} slot {hand.index(action.order) + 1}"
    return f"{verb} the deck's last card blind"  # a deck play: the only card outside the hand a move may name


def _advice(decision: Decision, view: PlayerView, names: Sequence[str]) -> Advice:
    convention, section = convention_of(decision.reason)
    reason = reason_words(decision.reason, names)
    action = decision.action
    if isinstance(action, Clue):
        # A clue's reason opens with the clue ("cluing Ada 2: saving ..."), which the move already says.
        reason = reason.removeprefix(f"cluing {seat_called(action.target, names)} {action.value}: ")
    return Advice(action, move_words(action, view, names), reason, convention, section)


def advise(view: PlayerView, *, level: str | None = None, bot_seats: frozenset[int] | None = None,
           names: Sequence[str] = ()) -> Advice:
    """The house bot's advice for the seat of ``view``, which must be the seat to move while the game runs.

    ``level`` and ``bot_seats`` are the table's (see ``bots.decide``); ``names`` the players' names by seat.
    """
    return _advice(make_bot(level=level, bot_seats=bot_seats).decide(view), view, names)


def advice_for(state: GameState, seat: int, *, level: str | None = None, bot_seats: frozenset[int] | None = None,
               names: Sequence[str] = ()) -> Advice:
    """``advise`` for ``seat`` of a running game, from that seat's redacted view and nothing else."""
    return advise(view_for(state, seat), level=level, bot_seats=bot_seats, names=names)


# ------------------------------------------------------------------ moments

MISPLAY = "misplay"
CRITICAL_DISCARD = "critical card discarded"
MISSED_SAVE = "save not given"
MISSED_PLAY = "playable card not played"
CLUE_MISPLAYED = "clue led to a misplay"


@dataclass(frozen=True, slots=True)
class Moment:
    """A person's move the house bot would have made otherwise, and why it mattered."""

    step: int  # the move's index among the game's actions: the review's state ``step`` is the board before it
    turn: int  # the turn as players count it, from 1
    seat: int
    kind: str  # one of MISPLAY, CRITICAL_DISCARD, MISSED_SAVE, MISSED_PLAY, CLUE_MISPLAYED
    done: str  # "Ada played slot 2 (R3)"
    why: str  # why it mattered: "a misplay, which cost a strike and the card"
    advice: Advice

    def lines(self) -> tuple[str, str]:
        """The moment in two lines: what was done and why it mattered, then the bot's move and reason."""
        return (f"Turn {self.turn}: {self.done}: {self.why}",
                f"The house bot would {self.advice.move}: {self.advice.reason}")


def _done_words(action: TurnAction, state: GameState, names: Sequence[str]) -> str:
    who = seat_called(state.current, names)
    if isinstance(action, Clue):
        return f"{who} clued {seat_called(action.target, names)} {action.value}"
    hand = state.hands[state.current]
    verb = "played" if isinstance(action, Play) else "discarded"
    where = f"slot {hand.index(action.order) + 1}" if action.order in hand else "the deck's last card blind"
    return f"{who} {verb} {where} ({state.deck[action.order]})"


def _proven_playable(view: PlayerView, prospects: Prospects) -> set[int]:
    """The seat's own cards that its clues and the cards it sees prove playable."""
    return {order for order, cards in possible_cards(view).items()
            if cards and all(prospects.playable(c) for c in cards)}


def _clue_misplayed(step: int, events: Sequence[Event]) -> bool:
    """Whether a card the clue at ``step`` touched was later misplayed, before any other clue touched it."""
    first = events[step]
    watched = set(first.touched) if isinstance(first, TurnEvent) else set()
    for event in events[step + 1:]:
        if not isinstance(event, TurnEvent) or not watched:
            continue
        if isinstance(event.action, Clue):
            watched -= set(event.touched)
        elif event.action.order in watched:
            if isinstance(event.action, Play) and not event.success:
                return True
            watched.discard(event.action.order)
    return False


def _why_it_mattered(state: GameState, view: PlayerView, step: int, done: TurnAction, suggested: TurnAction,
                     events: Sequence[Event], names: Sequence[str]) -> tuple[str, str] | None:
    """The kind of moment and why it mattered, or None when the difference did not matter."""
    prospects = Prospects.of(state.config.variant, state.fireworks, (state.deck[o] for o in state.discard))
    if isinstance(done, Play) and not prospects.playable(state.deck[done.order]):
        return MISPLAY, "a misplay, which cost a strike and the card"
    if isinstance(done, Discard) and prospects.critical(state.deck[done.order]):
        return CRITICAL_DISCARD, f"the last {state.deck[done.order]} left, so the score can no longer be perfect"
    if isinstance(suggested, Clue):
        order = _chop(state, suggested.target)
        if (order is not None and prospects.critical(state.deck[order]) and _touches(state, suggested, order)
                and not (isinstance(done, Clue) and _touches(state, done, order)) and _lost(order, step, events)):
            who = seat_called(suggested.target, names)
            return MISSED_SAVE, (f"the last {state.deck[order]} was on {who}'s chop; no clue saved it, and it was "
                                 "thrown away")
    if isinstance(done, Play):
        return None  # a card played that plays: another may wait
    proven = _proven_playable(view, prospects)
    if isinstance(suggested, Play) and suggested.order in proven and (
            isinstance(done, Discard) or not _played_later(suggested.order, step, events)):
        return MISSED_PLAY, ("a card the clues proved playable stayed in the hand" + (
            ", and a card was thrown instead" if isinstance(done, Discard) else ", and was never played"))
    if isinstance(done, Clue) and _clue_misplayed(step, events):
        return CLUE_MISPLAYED, "a card it touched was misplayed after it"
    return None


def _lost(order: int, step: int, events: Sequence[Event]) -> bool:
    """Whether the card of ``order`` was discarded or misplayed after ``step`` with no clue touching it first."""
    for event in events[step + 1:]:
        if not isinstance(event, TurnEvent):
            continue
        if isinstance(event.action, Clue):
            if order in event.touched:
                return False
        elif event.action.order == order:
            return not event.success
    return False


def _played_later(order: int, step: int, events: Sequence[Event]) -> bool:
    """Whether the card of ``order`` was played (and played) after ``step``."""
    return any(isinstance(e, TurnEvent) and isinstance(e.action, Play) and e.action.order == order and e.success
               for e in events[step + 1:])


def _chop(state: GameState, seat: int) -> int | None:
    """The oldest card of ``seat`` with no clue on it: the one they would discard next."""
    return next((o for o in reversed(state.hands[seat]) if not state.knowledge[o].clued), None)


def _touches(state: GameState, clue: Clue, order: int) -> bool:
    variant = state.config.variant
    mask = variant.colour_mask(clue.colour) if clue.colour is not None else variant.rank_mask(clue.rank or 0)
    return bool(mask >> state.deck[order].identity & 1)


def game_steps(final: GameState) -> Iterator[tuple[int, GameState]]:
    """Each state of a finished game before one of its actions, with that action's index."""
    start = game_from_deck(final.config, final.deck, final.seed)
    actions = [action_of(e) for e in final.events]
    yield 0, start
    yield from enumerate(replay_steps(start, actions[:-1]), start=1)


def find_moments(final: GameState, *, people: frozenset[int] | None = None, level: str | None = None,
                 names: Sequence[str] = (), bots_at: Callable[[int], frozenset[int]] | None = None,
                 names_at: Callable[[int], Sequence[str]] | None = None) -> list[Moment]:
    """The moments of a finished game that mattered, in the order they happened.

    ``people``: the seats people sat in the whole game (None: every seat); only their moves are judged.
    ``bots_at``: the seats bots held at a turn, when seats changed hands (it takes the place of ``people``): a
    seat's moves are judged while a person held it, each from the table as it was then. ``level``: the table's
    convention level (None: as ``bots.decide`` picks it). ``names``: the players' names by seat, or
    ``names_at`` those at a turn, when seats changed hands (each move is told with who held the seats then).
    """
    players = final.config.players
    fixed = frozenset(range(players)) - (frozenset(range(players)) if people is None else people)

    def seats_of_bots(turn: int) -> frozenset[int]:
        return fixed if bots_at is None else bots_at(turn)

    # One bot per seat and set of bot seats, so that each replays the history once (its cache).
    bots: dict[tuple[int, frozenset[int]], Bot] = {}
    moments: list[Moment] = []
    events = final.events
    for step, state in game_steps(final):
        event = events[step]
        if not isinstance(event, TurnEvent) or state.outcome is not None:
            continue
        bot_seats = seats_of_bots(state.turn)
        if event.seat in bot_seats:
            continue
        view = view_for(state, event.seat)
        bot = bots.get((event.seat, bot_seats))
        if bot is None:
            bot = bots[event.seat, bot_seats] = make_bot(level=level, bot_seats=bot_seats)
        decision = bot.decide(view)
        if decision.action == event.action:
            continue
        named = names if names_at is None else names_at(state.turn)
        mattered = _why_it_mattered(state, view, step, event.action, decision.action, events, named)
        if mattered is not None:
            kind, why = mattered
            moments.append(Moment(step, state.turn + 1, event.seat, kind, _done_words(event.action, state, named),
                                  why, _advice(decision, view, named)))
    return moments


# The level a file's moments are judged at when it does not say its table's (no ``botLevel``): beginner, what a
# table with a person at it plays by default (``bots.decide``).
UNSAID_LEVEL: Level = "beginner"


@dataclass(frozen=True, slots=True)
class Judged:
    """How a replay file's moments are judged: at which level, and whether the file said who the bots were."""

    level: Level
    seats_known: bool  # False: every seat was judged as a person's, the file not saying who the bots were

    def words(self) -> str:
        """How the moments were judged, as a screen says it after "Moment 1 of 3"."""
        if self.seats_known:
            return f"judged at {self.level} level"
        return (f"every seat judged, at {self.level} level: the file does not say who the bots were nor the "
                "table's level")


def judged(replay: Replay) -> Judged:
    """How the moments of ``replay`` are judged (``replay_moments``)."""
    if replay.bot_level is None:
        return Judged(UNSAID_LEVEL, False)
    return Judged(replay.bot_level, True)


def replay_moments(replay: Replay) -> list[Moment]:
    """The moments of a replay file's game, from the file alone: the moves of the seats people held (the file's
    ``botLevel`` and ``seatHolders``), judged at the table's level. A file that does not say who the bots were
    has every seat judged, at ``UNSAID_LEVEL``."""
    return find_moments(replay.state, level=judged(replay).level, names_at=replay.names_at,
                        bots_at=lambda turn: replay.bots_at(turn) or frozenset())
