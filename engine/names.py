"""What a player's name may be: the one rule, which the protocol's ``hello.name`` and replay files both follow.

A name is 1 to ``NAME_MAX`` characters, holds no control character, and
neither starts nor ends with white space (" bob" and "bob" would be two
people who look the same).
"""

from __future__ import annotations

import re

NAME_MAX = 32
# Control characters: C0, DEL, C1, and the Unicode line and paragraph separators.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


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
