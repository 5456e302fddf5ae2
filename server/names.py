"""Players' names as people read them: normalized (NFKC), visible, and not a look-alike of someone here.

Names are compared by their *skeleton*: case and accents dropped, only letters and digits kept, and letters of
other scripts that look like Latin ones (Cyrillic "a", Greek "o") read as those.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable

from hanabi.protocol import NAME_MAX, ErrorCode

from .session import Refused

# Unicode categories no name may hold: format characters (zero-width, bidi controls), controls, private use,
# unassigned code points, surrogates, line and paragraph separators.
_UNSEEN = {"Cf", "Cc", "Co", "Cn", "Cs", "Zl", "Zp"}
_FILLERS = "\u115f\u1160\u3164\uffa0\u2800"  # letters (and a braille blank) that show nothing at all
# Letters and digits read as the Latin letter they look like (after case folding).
# Cyrillic ze and Greek zeta are there for their capitals, which pass for a Latin Z (casefolding comes first).
_LOOK_ALIKE = str.maketrans(
    # Cyrillic, then the Latin script g
    "\u0430\u0432\u0435\u0455\u0456\u0458\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0501\u04bb\u04cf\u0437"
    "\u0261"
    "\u03b1\u03b2\u03b5\u03b7\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03c9\u03b6"  # Greek
    "01", "abesijkmhopctyxdhlzgabenikvoptuxwzol")


def normalized(name: str) -> str:
    """``name`` in NFKC form; ``Refused`` with a sentence if it holds a character no one can see."""
    name = unicodedata.normalize("NFKC", name).strip()
    unseen = next((c for c in name if unicodedata.category(c) in _UNSEEN or c in _FILLERS), None)
    if unseen is not None:
        raise Refused(ErrorCode.BAD_FIELD, f"your name holds an invisible or text-reordering character "
                                           f"(U+{ord(unseen):04X}): choose a name of visible letters")
    if not 1 <= len(name) <= NAME_MAX:
        raise Refused(ErrorCode.BAD_FIELD, f"your name must be 1 to {NAME_MAX} characters long once "
                                           "normalized: choose a plainer one")
    return name


@functools.lru_cache(maxsize=4096)  # each login compares with every name here: not one normalization each time
def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons pass for the same name."""
    letters = "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if c.isalnum())
    return letters.translate(_LOOK_ALIKE).replace("rn", "m") or name.casefold()


def by_name(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` in the order people look them up: case aside, then by case."""
    return tuple(sorted(names, key=lambda n: (n.casefold(), n)))


class NameBook:
    """The names of the players a server knows (connected or not: a player away may come back), filed by
    skeleton, so that a login is checked against all of them without going through them all."""

    def __init__(self) -> None:
        self._shapes: dict[str, dict[str, int]] = {}  # skeleton -> name -> how many known players bear it

    def add(self, name: str) -> None:
        names = self._shapes.setdefault(skeleton(name), {})
        names[name] = names.get(name, 0) + 1

    def discard(self, name: str) -> None:
        shape = skeleton(name)
        names = self._shapes.get(shape, {})
        if names.get(name, 0) > 1:
            names[name] -= 1
            return
        names.pop(name, None)
        if not names:
            self._shapes.pop(shape, None)

    def like(self, name: str) -> str | None:
        """``name`` if a known player bears it, else a known name that looks like it, else None."""
        names = self._shapes.get(skeleton(name))
        if not names:
            return None
        return name if name in names else next(iter(names))


def passes_for_a_bot(name: str) -> bool:
    """Whether ``name`` reads as a bot's: its first word looks like "Bot" ("Bot Ada", "B0T-x"; not "Botticelli")."""
    first = re.split(r"[\W_]+", name.strip(), maxsplit=1)[0]
    return skeleton(first) == "bot"


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
