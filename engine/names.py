"""What a player's name may be: the one rule, which the protocol's ``hello.name`` and replay files both follow.

A name is 1 to ``NAME_MAX`` characters, holds no control character, and
neither starts nor ends with white space (" bob" and "bob" would be two
people who look the same). Where people meet (a server), a name also shows
every character it holds (``unseen``), and two names are the same name when
they look the same: they are compared by their *skeleton* (case and accents
dropped, only letters and digits kept, and letters of other scripts that
look like Latin ones, Cyrillic "a", Greek "o", read as those).
"""

from __future__ import annotations

import functools
import re
import unicodedata

NAME_MAX = 32
# Control characters: C0, DEL, C1, and the Unicode line and paragraph separators.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
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


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, in words; None when it can."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"must be 1 to {NAME_MAX} characters long, not {len(name)}"
    bad = CONTROL.search(name)
    if bad is not None:
        return f"holds the control character U+{ord(bad.group()):04X}, which is not allowed"
    if name != name.strip():
        return "starts or ends with white space"
    return None


def unseen(name: str) -> str | None:
    """The first character of ``name`` no one can see (or that reorders the text around it), or None."""
    return next((c for c in name if unicodedata.category(c) in _UNSEEN or c in _FILLERS), None)


@functools.lru_cache(maxsize=4096)  # a server compares each login with every name it knows: not one normalization each
def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons pass for the same name."""
    letters = "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if c.isalnum())
    return letters.translate(_LOOK_ALIKE).replace("rn", "m") or name.casefold()


def passes_for_a_bot(name: str) -> bool:
    """Whether ``name`` reads as a bot's: its first word looks like "Bot" ("Bot Ada", "B0T-x"; not "Botticelli")."""
    first = re.split(r"[\W_]+", name.strip(), maxsplit=1)[0]
    return skeleton(first) == "bot"
