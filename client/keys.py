"""One-key shortcuts during a game: ``p 2`` plays slot 2, ``c 1 r`` clues the next player red, and so on.

A shortcut is a short sequence of keys; ``Shortcut`` remembers the keys so far
and, given the next one, answers with a prompt for the next key, a finished
intent, or a refusal. It is plain state with no prompt_toolkit in it, so every
path through it is tested directly. Playing a card nobody ever clued asks for
a "y" first: that play is a gamble the player should take on purpose. So does
discarding a card that has had a clue: a partner spent a clue on it, often to save it (unless counting shows
it can never be played: then the clue has done its work).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanabi.engine import RANKS, Clue, Discard, GameEnded, NotYourTurn, Play, PlayerView, Rearrange, Worth, check_turn

from .board import others_in_turn_order, seat_name
from .commands import CommandError, LobbyIntent, clue_value, deck_play, other_player
from .judge import NO_GAME, SPECTATORS_CANNOT_ACT, refusal
from .knowledge import Insight


@dataclass(frozen=True, slots=True)
class Prompt:
    """The shortcut goes on: show ``text`` and wait for the next key."""

    text: str


@dataclass(frozen=True, slots=True)
class Done:
    """The shortcut is complete: send ``intent``."""

    intent: Play | Discard | Clue | Rearrange | LobbyIntent


@dataclass(frozen=True, slots=True)
class KeyRefused:
    """The key made no sense here; the shortcut is abandoned and ``text`` says why."""

    text: str


Step = Prompt | Done | KeyRefused

STARTERS = {"p": "play", "d": "discard", "c": "clue", "m": "move", "b": "deckplay"}


def _slot_prompt(verb: str, size: int) -> str:
    return f"{verb} which slot? 1-{size} (1 = newest) · Esc cancels"


def start(key: str, view: PlayerView | None, names: Sequence[str]) -> Step:
    """The first key of a shortcut."""
    verb = STARTERS[key]
    if view is None:
        return KeyRefused(NO_GAME)
    if view.outcome is not None:
        return KeyRefused(str(GameEnded(view.outcome)))
    if view.seat is None:
        return KeyRefused(SPECTATORS_CANNOT_ACT)
    size = len(view.hands[view.seat])
    if verb in ("play", "discard") and view.current != view.seat:
        # Not our turn: the card picked is queued for our next turn (a pre-move).
        return Prompt(f"Queue a {verb} for your next turn: which slot? 1-{size} (1 = newest) · Esc cancels")
    if verb != "move":
        # Said at the first key, not after the player has picked a slot and a value.
        try:
            check_turn(view.current, view.seat)
        except NotYourTurn as e:
            turn = NotYourTurn.sentence(seat_name(names, e.current))
            return KeyRefused(f"{turn} (p or d queues a move for your turn; m rearranges your hand)")
    if verb == "deckplay":
        try:
            deck_play(view)
        except CommandError as e:
            return KeyRefused(str(e))
        return Prompt("Play the deck's last card blind? y = yes, other keys = no")
    if verb == "clue":
        # A clue that surely touches a card (the rank of the next player's first card), asked of the engine now:
        # what could still refuse it (no clue token left) is said at once, not after "whom?" and "with?".
        target = others_in_turn_order(view)[0]
        first = view.hands[target][0].card if view.hands[target] else None
        reason = refusal(view, Clue(target, rank=first.rank if first is not None else RANKS[0]))
        if reason is not None and first is not None:
            return KeyRefused(f"Not allowed: {reason}")
        return Prompt("Clue whom? " + _players_hint(view, names) + " · Esc cancels")
    return Prompt(_slot_prompt(verb.capitalize(), size))


def _players_hint(view: PlayerView, names: Sequence[str]) -> str:
    return "  ".join(f"{s + 1} {seat_name(names, s)}" for s in others_in_turn_order(view))


def asks_yes_or_no(keys: Sequence[str]) -> bool:
    """Whether the shortcut's keys so far stand at a y-or-n question (a card with no clue played, a clued card
    discarded, the deck's last card played blind)."""
    verb = STARTERS.get(keys[0]) if keys else None
    return (verb in ("play", "discard") and len(keys) == 2) or (verb == "deckplay" and len(keys) == 1)


def step(keys: Sequence[str], key: str, view: PlayerView, names: Sequence[str]) -> Step:
    """Given the shortcut's keys so far (starting with p, d, c or m) and the next key, the next step."""
    verb = STARTERS[keys[0]]
    assert view.seat is not None
    hand = view.hands[view.seat]
    size = len(hand)
    if verb in ("play", "discard") and len(keys) == 1:
        slot = _slot(key, size)
        if isinstance(slot, KeyRefused):
            return slot
        order = hand[slot - 1].order
        clued = hand[slot - 1].knowledge.clued
        if verb == "play" and not clued:
            return Prompt(f"No clue on slot {slot}: play it anyway? y = yes, other keys = no")
        if verb == "discard" and clued and not _certain_trash(view, order) \
                and (view.current != view.seat or refusal(view, Discard(order)) is None):
            # Someone spent a clue on this card, often to save it: one slip of a finger must not throw it away, now
            # or queued for our turn (a pre-move: what refuses it now, the turn, may not hold then).
            return Prompt(f"Slot {slot} has had a clue: discard it? y = yes, other keys = no")
        return Done(Play(order) if verb == "play" else Discard(order))
    if verb in ("play", "discard") and len(keys) == 2:
        order = hand[int(keys[1]) - 1].order
        if key.lower() == "y":
            return Done(Play(order) if verb == "play" else Discard(order))
        return KeyRefused("not played" if verb == "play" else "not discarded")
    if verb == "deckplay" and len(keys) == 1:
        return Done(deck_play(view)) if key.lower() == "y" else KeyRefused("not played")
    if verb == "clue" and len(keys) == 1:
        if not key.isdigit():
            return KeyRefused(f"no player {key!r}: press a seat number, as the board shows them")
        try:
            target = other_player(view, names, int(key))
        except CommandError as e:
            return KeyRefused(str(e))
        colours = " ".join(s.letter.lower() for s in view.config.variant.clue_colours)
        return Prompt(f"Clue {seat_name(names, target)} with? colour {colours} or rank 1-{RANKS[-1]} · Esc cancels")
    if verb == "clue" and len(keys) == 2:
        target = int(keys[1]) - 1
        try:
            colour, rank = clue_value(view.config.variant, key)
        except CommandError:
            colours = " ".join(s.letter.lower() for s in view.config.variant.clue_colours)
            return KeyRefused(f"{key!r} is neither a colour nor a rank: press {colours}, or 1-{RANKS[-1]}")
        return Done(Clue(target, colour=colour, rank=rank))
    if verb == "move" and len(keys) == 1:
        slot = _slot(key, size)
        if isinstance(slot, KeyRefused):
            return slot
        return Prompt(f"Move slot {slot} to which slot? 1-{size} · Esc cancels")
    if verb == "move" and len(keys) == 2:
        slot = _slot(key, size)
        if isinstance(slot, KeyRefused):
            return slot
        if slot == int(keys[1]):
            return KeyRefused(f"the card is already in slot {slot}: nothing moved")
        orders = [cv.order for cv in hand]
        moved = orders.pop(int(keys[1]) - 1)
        orders.insert(slot - 1, moved)
        return Done(Rearrange(view.seat, tuple(orders)))
    return KeyRefused("that shortcut is complete")


def replay(keys: Sequence[str], view: PlayerView, names: Sequence[str]) -> Step:
    """The keys of a shortcut under way (without its next key) asked again of ``view``: where the same keys lead on
    the table as it stands now (the prompt they reach, or what refuses them, or the move they now make at once)."""
    done: Step = start(keys[0], view, names)
    for i, key in enumerate(keys[1:], 1):
        if not isinstance(done, Prompt):
            break
        done = step(keys[:i], key, view, names)
    return done


def _certain_trash(view: PlayerView, order: int) -> bool:
    """Whether counting shows our card ``order`` can never be played: its ``x`` on the board, by the same insight."""
    return Worth.TRASH in Insight.of(view).worth[order]


def _slot(key: str, size: int) -> int | KeyRefused:
    if key.isdigit() and 1 <= int(key) <= size:
        return int(key)
    return KeyRefused(f"no slot {key!r}: press a number from 1 to {size}")
