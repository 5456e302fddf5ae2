"""Players' names as people read them: normalized (NFKC), visible, and not a look-alike of someone here.

What a name may be and when two names look the same (their *skeleton*) is the engine's rule
(``hanabi.engine.names``); this module keeps the names a server knows and refuses a login's name by it.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable

from hanabi.engine.names import passes_for_a_bot, skeleton, unseen
from hanabi.protocol import NAME_MAX, ErrorCode

from .session import Refused


def normalized(name: str) -> str:
    """``name`` in NFKC form; ``Refused`` with a sentence if it holds a character no one can see."""
    name = unicodedata.normalize("NFKC", name).strip()
    hidden = unseen(name)
    if hidden is not None:
        raise Refused(ErrorCode.BAD_FIELD, f"your name holds an invisible or text-reordering character "
                                           f"(U+{ord(hidden):04X}): choose a name of visible letters")
    if not 1 <= len(name) <= NAME_MAX:
        raise Refused(ErrorCode.BAD_FIELD, f"your name must be 1 to {NAME_MAX} characters long once "
                                           "normalized: choose a plainer one")
    return name


def by_name(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` in the order people look them up: case aside, then by case."""
    return tuple(sorted(names, key=lambda n: (n.casefold(), n)))


class NameBook:
    """The names of the players a server knows (connected or not: a player away may come back), filed by
    skeleton, so that a login is checked against all of them without going through them all."""

    def __init__(self) -> None:
        self._shapes: dict[str, Counter[str]] = {}  # skeleton -> name -> how many known players bear it

    def add(self, name: str) -> None:
        self._shapes.setdefault(skeleton(name), Counter())[name] += 1

    def discard(self, name: str) -> None:
        shape = skeleton(name)
        names = self._shapes.get(shape, Counter())
        names[name] -= 1
        if names[name] <= 0:
            del names[name]
        if not names:
            self._shapes.pop(shape, None)

    def like(self, name: str) -> str | None:
        """``name`` if a known player bears it, else a known name that looks like it, else None."""
        names = self._shapes.get(skeleton(name))
        if not names:
            return None
        return name if name in names else next(iter(names))


def unique(wanted: str, taken: set[str], known: NameBook | None = None,
           connected: Callable[[str], bool] = lambda name: False, person: bool = True) -> str:
    """``wanted`` if no name in ``taken`` (bots seated, logins under way) or ``known`` looks like it; "Ann 2" if
    "Ann" itself is known but away (it may be its owner, back from another machine, whose seat the host can
    hand over); ``Refused`` if someone here bears it (``taken``, or a player ``connected`` now), or a different
    name that looks the same is known (impersonation), or a ``person`` wants a name that passes for a bot's."""
    if person and passes_for_a_bot(wanted):
        raise Refused(ErrorCode.NAME_TAKEN, f"{wanted!r} reads as a bot's name (\"Bot ...\"), and the table "
                                            "should know who is a person: choose another name")
    shapes = {skeleton(n): n for n in taken}

    def like(name: str) -> str | None:
        found = known.like(name) if known is not None else None
        if found == name or name in taken:
            return name
        return found or shapes.get(skeleton(name))

    other = like(wanted)
    if other is None:
        return wanted
    if other != wanted:
        raise Refused(ErrorCode.NAME_TAKEN, f"{wanted!r} looks too much like {other!r}, who is here: choose a "
                                            "name others can tell apart")
    if wanted in taken or connected(wanted):
        raise Refused(ErrorCode.NAME_TAKEN, f"{wanted!r} is the name of a player connected now: choose a name "
                                            "others can tell apart")
    for n in range(2, 1000):
        candidate = f"{wanted[:NAME_MAX - 4]} {n}"
        if like(candidate) is None:
            return candidate
    raise Refused(ErrorCode.NAME_TAKEN, f"{wanted!r} and a thousand more like it are here: choose another name")
