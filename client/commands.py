"""The command line: ``play 2``, ``clue bob red``, ``move 5 1``, ``say hi``, ``join 3``… and its completion.

``parse`` turns one typed line into an intent, or a ``CommandError`` whose
message says what was wrong and what to type instead. Game actions become
engine actions (cards named by order, seats by number), so the engine can
judge them before anything is sent. Slots are 1-based: slot 1 is the newest
card, the first of the hand. Players are named by their seat number (the one
the board and the lobby show beside them), or by a prefix of their name or of
any word of it, in any case ("ada" and "bot a" both name "Bot Ada").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from hanabi.engine import (
    RANKS,
    Clue,
    Discard,
    GameConfig,
    Play,
    PlayerView,
    Rearrange,
    Suit,
    Variant,
    deck_play_order,
)
from hanabi.protocol import CHAT_MAX
from hanabi.protocol.fields import FieldError, Text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from .board import others_in_turn_order, seat_name


class CommandError(ValueError):
    """A line that is not a command we understand; the message says what to type."""


class LineKept(CommandError):
    """A line that is not sent as it is (no command of that name: "say " erased by Ctrl-U, say; a text the server
    would refuse, too long or with a control character in it): the command line keeps it to be mended, so that
    nothing typed is lost."""


@dataclass(frozen=True, slots=True)
class Say:
    text: str


@dataclass(frozen=True, slots=True)
class LobbyIntent:
    """A lobby request: ``verb`` is one of LOBBY_VERBS, ``number`` a table id or seat (1-based as typed)."""

    verb: str
    number: int | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Local:
    """Something the client does by itself: ``help``, ``quit``, ``knowledge``, ``save``."""

    verb: str


@dataclass(frozen=True, slots=True)
class NoteIntent:
    """Write ``text`` as our note on the card of ``order`` (the empty text deletes it); see notes.py."""

    order: int
    text: str


Intent = Play | Discard | Clue | Rearrange | Say | LobbyIntent | Local | NoteIntent

GAME_VERBS = ("play", "discard", "clue", "move", "deckplay")
# The lobby's requests: those that act between games only (another table, a new one, the start, a bot in a seat,
# the review), and those about our table that act while its game runs too. The completion offers each where it acts
# (``verbs_on``).
BETWEEN_GAMES_VERBS = ("join", "spectate", "start", "bot", "unbot", "new", "refresh", "again", "lead", "history",
                       "review")
TABLE_VERBS = ("leave", "host", "hand", "pause", "unqueue")
LOBBY_VERBS = BETWEEN_GAMES_VERBS + TABLE_VERBS
LOCAL_VERBS = ("help", "quit", "knowledge", "save", "why")
ALIASES = {"p": "play", "d": "discard", "c": "clue", "m": "move", "chat": "say", "/say": "say", "h": "help",
           "?": "help", "exit": "quit", "q": "quit", "k": "knowledge", "create": "new", "watch": "spectate",
           "addbot": "bot", "removebot": "unbot", "rearrange": "move", "deck": "deckplay", "w": "why"}
VERBS = GAME_VERBS + ("say", "note") + LOBBY_VERBS + LOCAL_VERBS
PLAYING_SCREENS = ("game", "rewind")  # ``ClientApp.mode``'s names for a game in progress


def verbs_on(screen: str, seated: bool, config: GameConfig | None = None) -> tuple[str, ...]:
    """The verbs the command line offers under ``screen`` (a ``ClientApp.mode``): during a game, for a seated
    player the moves the table's options allow (``config``, the game's), chat, notes and what acts on the table
    while it plays, for a spectator chat and leaving, and the client's own for both; elsewhere all but the moves
    and the notes, which are written during a game only."""
    if screen in PLAYING_SCREENS:
        offered = (GAME_VERBS + ("say", "note") + TABLE_VERBS if seated else ("say", "leave")) + LOCAL_VERBS
        return tuple(v for v in offered if config is None or table_refusal(v, config) is None)
    return tuple(v for v in VERBS if v not in GAME_VERBS + ("note",))


def table_refusal(verb: str, config: GameConfig) -> str | None:
    """Why the table's options refuse ``verb`` at every moment of its game, or None: what ``parse`` says to
    refuse it, and what keeps the completion from offering it."""
    if verb == "deckplay" and not config.deck_plays:
        return "this table does not let the deck's last card be played blind (a table option)"
    return None



def _slot(view: PlayerView, word: str, hand_size: int) -> int:
    """The 0-based index of a typed 1-based slot."""
    try:
        slot = int(word)
    except ValueError:
        raise CommandError(f"{word!r} is not a slot: type a number from 1 to {hand_size}") from None
    if not 1 <= slot <= hand_size:
        raise CommandError(f"there is no slot {slot}: your hand has slots 1 to {hand_size}")
    return slot - 1


def deck_play(view: PlayerView) -> Play:
    """The blind play of the deck's last card (hanab.live's option ``deck_plays``), or why it is not allowed now:
    the engine's rule (``deck_play_order``), said in a player's words."""
    order = deck_play_order(view.config, view.deck_left, view.deck_size)
    if order is not None:
        return Play(order)
    refused = table_refusal("deckplay", view.config)
    if refused is not None:
        raise CommandError(refused)
    raise CommandError(f"the deck's last card can be played blind only when it is the last one left: "
                       f"{view.deck_left} cards are")


def _words(name: str) -> list[str]:
    return name.casefold().split()


def name_matches(name: str, typed: str) -> bool:
    """Whether ``typed`` picks out ``name``: a prefix of the whole name or of any word of it, in any case."""
    key = " ".join(_words(typed))
    return bool(key) and (" ".join(_words(name)).startswith(key) or any(w.startswith(key) for w in _words(name)))


def other_player(view: PlayerView, names: Sequence[str], number: int) -> int:
    """The 0-based seat of another player given by seat number (1-based, as the board shows it)."""
    if view.seat is not None and number == view.seat + 1:
        raise CommandError("you cannot clue yourself: a clue goes to another player")
    others = others_in_turn_order(view)
    if number - 1 not in others:
        numbers = ", ".join(f"{s + 1} {seat_name(names, s)}" for s in others)
        raise CommandError(f"there is no player {number}: choose one of {numbers}, as the board numbers them")
    return number - 1


def find_player(view: PlayerView, names: Sequence[str], word: str) -> int:
    """The seat a typed player refers to: the seat number the board shows, or a name (see ``name_matches``).

    A whole name typed exactly wins, then a whole word of a name ("ada" for "Bot Ada", even beside
    "Adam"), then a unique prefix; when several players remain, the message lists them with their numbers.
    """
    others = others_in_turn_order(view)
    if word.isdigit():
        return other_player(view, names, int(word))
    key = " ".join(_words(word))
    number_of = {s: s + 1 for s in others}
    for tier in (
        [s for s in others if " ".join(_words(seat_name(names, s))) == key],
        [s for s in others if key in _words(seat_name(names, s))],
        [s for s in others if name_matches(seat_name(names, s), key)],
    ):
        if len(tier) == 1:
            return tier[0]
        if tier:
            listed = ", ".join(f"{number_of[s]} {seat_name(names, s)}" for s in tier)
            raise CommandError(f"{word!r} could be {listed}: type more of the name, or the number")
    if view.seat is not None and name_matches(seat_name(names, view.seat), key):
        raise CommandError("you cannot clue yourself: a clue goes to another player")
    who = ", ".join(f"{number_of[s]} {seat_name(names, s)}" for s in others)
    raise CommandError(f"no player called {word!r}: choose one of {who}")


def clue_value(variant: Variant, word: str) -> tuple[Suit | None, int | None]:
    """A colour or a rank, as typed ("red", "r", "5")."""
    if word.isdigit():
        rank = int(word)
        if rank not in RANKS:
            raise CommandError(f"there is no rank {rank}: ranks go from 1 to 5")
        return None, rank
    try:
        suit = Suit.parse(word)
    except ValueError:
        colours = ", ".join(s.value for s in variant.clue_colours)
        raise CommandError(f"{word!r} is neither a colour nor a rank: say one of {colours}, or 1 to 5") from None
    return suit, None


def parse(line: str, view: PlayerView | None, names: Sequence[str]) -> Intent:
    """One typed line as an intent; raises ``CommandError`` saying what was wrong."""
    words = line.split()
    if not words:
        raise CommandError("type a command, or help")
    verb = ALIASES.get(words[0].lower(), words[0].lower())
    args = words[1:]
    if verb == "say":
        text = line.strip()[len(words[0]):].strip()
        if not text:
            raise CommandError("say what? type: say TEXT")
        if len(text) > CHAT_MAX:
            raise LineKept(f"a chat line is at most {CHAT_MAX} characters, this one is {len(text)}: shorten it")
        try:
            Text(1, CHAT_MAX).decode(text, "chat")  # what ``chat.text`` accepts
        except FieldError as e:
            raise LineKept(f"not sent: the chat line {e.problem}") from None
        return Say(text)
    if verb == "note":
        from .notes import parse_note  # notes.py builds on this module: imported when used, not at the top

        return parse_note(line, view, names)
    if verb in LOCAL_VERBS:
        return Local(verb)
    if verb in LOBBY_VERBS:
        return _lobby(verb, args)
    if verb not in GAME_VERBS:
        raise LineKept(f"unknown command {words[0]!r}: type help for the list, or Esc to drop the line")
    if view is None:
        raise CommandError(f"{verb} is for a game in progress, and there is none")
    if view.seat is None:
        raise CommandError("spectators watch; they cannot act")
    hand = view.hands[view.seat]
    if verb == "deckplay":
        return deck_play(view)
    if verb in ("play", "discard"):
        if len(args) != 1:
            raise CommandError(f"type: {verb} SLOT (1 = newest card)")
        order = hand[_slot(view, args[0], len(hand))].order
        return Play(order) if verb == "play" else Discard(order)
    if verb == "clue":
        if len(args) < 2:
            raise CommandError("type: clue PLAYER COLOUR or clue PLAYER RANK (e.g. clue bob red, clue 2 5)")
        # A name may hold spaces ("Bot Ada"): the value is the last word, the player is the rest.
        target = find_player(view, names, " ".join(args[:-1]))
        colour, rank = clue_value(view.config.variant, args[-1])
        return Clue(target, colour=colour, rank=rank)
    if len(args) != 2:
        raise CommandError("type: move FROM TO (e.g. move 5 1 puts your oldest card first)")
    src = _slot(view, args[0], len(hand))
    dst = _slot(view, args[1], len(hand))
    if src == dst:
        raise CommandError(f"the card is already in slot {src + 1}: type move FROM TO with two different slots")
    orders = [cv.order for cv in hand]
    moved = orders.pop(src)
    orders.insert(dst, moved)
    return Rearrange(view.seat, tuple(orders))


HAND_USAGE = "type: hand SEAT bot (a house bot takes it) or hand SEAT NAME (a player in the lobby takes it)"


def _lobby(verb: str, args: list[str]) -> LobbyIntent:
    if verb in ("leave", "start", "refresh", "again", "new", "pause", "unqueue", "history"):
        return LobbyIntent(verb, text=" ".join(args) or None)
    if verb == "hand":
        if len(args) < 2 or not args[0].isdigit():
            raise CommandError(HAND_USAGE)
        return LobbyIntent(verb, int(args[0]), " ".join(args[1:]))
    if verb == "lead":
        if not args:
            raise CommandError("type: lead NAME (someone at the table: they lead the review)")
        return LobbyIntent(verb, text=" ".join(args))
    if not args or not args[0].isdigit():
        what = "TABLE" if verb in ("join", "spectate") else "GAME" if verb == "review" else "SEAT"
        raise CommandError(f"type: {verb} {what} (a number)")
    if verb == "join" and len(args) > 1:
        if not args[1].isdigit():
            raise CommandError("type: join TABLE [SEAT]")
        return LobbyIntent(verb, int(args[0]), args[1])
    return LobbyIntent(verb, int(args[0]))


class CommandCompleter(Completer):
    """Completes verbs, then player names and clue values, from the live view; after ``hand SEAT`` who could take
    that seat (``takers``, given the seat's number: ``bot`` among them when a house bot could)."""

    def __init__(self, view: Callable[[], PlayerView | None], names: Callable[[], Sequence[str]],
                 takers: Callable[[int], Sequence[str]] = lambda seat: ("bot",),
                 verbs: Callable[[], Sequence[str]] = lambda: VERBS) -> None:
        # Callables, so completion always sees the latest view, names and screen (``verbs``: the verbs it offers).
        self._view = view
        self._names = names
        self._takers = takers
        self._verbs = verbs

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        current = "" if text.endswith(" ") or not words else words[-1]
        position = len(words) - (0 if text.endswith(" ") or not words else 1)
        view = self._view()
        names = self._names()
        if position == 0:
            options: Sequence[str] = self._verbs()
        else:
            verb = ALIASES.get(words[0].lower(), words[0].lower())
            if verb == "hand" and position >= 2:
                if words[1].isdigit():
                    yield from _receiver_completions(text, self._takers(int(words[1])))
                return
            if verb == "hand" and position == 1 and current.isdigit():
                # Tab right after the seat's number: offer who could take it, without a space typed first.
                for name in self._takers(int(current)):
                    yield Completion(f"{current} {name}", start_position=-len(current), display=name)
                return
            if verb == "clue" and view is not None and view.seat is not None:
                yield from _player_completions(text, view, names)
            options = _argument_options(verb, position, view, names)
        for option in options:
            if option.lower().startswith(current.lower()) and option != current:
                yield Completion(option, start_position=-len(current))


def _receiver_completions(text: str, names: Sequence[str]) -> Iterable[Completion]:
    """Whole names for what is typed after ``hand SEAT`` so far (a name may hold spaces and emoji: it replaces
    all of it)."""
    parts = text.split(None, 2)
    typed = parts[2] if len(parts) > 2 else ""
    for name in names:
        if name.lower().startswith(typed.lower()) and name != typed:
            yield Completion(name, start_position=-len(typed))


def _player_completions(text: str, view: PlayerView, names: Sequence[str]) -> Iterable[Completion]:
    """Whole names for what is typed after ``clue`` so far ("ad", "bot a"), replacing all of it."""
    parts = text.split(None, 1)
    typed = parts[1] if len(parts) > 1 else ""
    for seat in others_in_turn_order(view):
        name = seat_name(names, seat)
        if not typed.strip() or (name_matches(name, typed) and _words(name) != _words(typed)):
            yield Completion(name, start_position=-len(typed))


def _argument_options(verb: str, position: int, view: PlayerView | None, names: Sequence[str]) -> Sequence[str]:
    if view is None or view.seat is None:
        return ()
    size = len(view.hands[view.seat])
    slots = [str(i) for i in range(1, size + 1)]
    if verb in ("play", "discard") and position == 1:
        return slots
    if verb == "move" and position in (1, 2):
        return slots
    if verb == "note" and position == 1:  # a slot of our own hand, or whose card
        return slots + [seat_name(names, s) for s in others_in_turn_order(view)]
    if verb == "clue" and position >= 2:
        return [s.value for s in view.config.variant.clue_colours] + [str(r) for r in RANKS]
    return ()
