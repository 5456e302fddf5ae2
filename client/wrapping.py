"""Breaking styled text into lines at spaces, so a line that is too wide never ends in half a word.

prompt_toolkit's windows wrap a long line at the last column, wherever that
falls ("does not allow e" / "mpty clues"); the status line, the log, the chat
and the end of a game go through ``wrap_words`` first, so what reaches the
window already fits. A word wider than the whole line is the only thing cut.

Widths are counted in terminal columns, never in characters: an emoji or a
CJK letter in a name takes two. ``columns``, ``cut`` and ``pad`` are what
every name padded into a column or clipped to fit goes through.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth


def columns(text: str) -> int:
    """The columns ``text`` takes on a terminal (a wide character two, a combining one none)."""
    return get_cwidth(text)


def cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` columns, its end replaced by "…" when cut, so a cut never reads as whole."""
    if columns(text) <= room:
        return text
    kept, used = [], 0
    for char in text:
        wide = get_cwidth(char)
        if used + wide > room - 1:
            break
        kept.append(char)
        used += wide
    return "".join(kept) + "…" if room >= 1 else ""


def pad(text: str, room: int) -> str:
    """``text`` followed by spaces up to ``room`` columns (nothing added when it takes them already)."""
    return text + " " * max(0, room - columns(text))


def wrap_words(fragments: StyleAndTextTuples, width: int, indent: int = 0) -> StyleAndTextTuples:
    """``fragments`` with a line break at a space wherever a line would pass ``width`` columns.

    Continuation lines start with ``indent`` spaces (a log line's text stays clear of its turn number).
    Lines that fit, the most of them, come back as they were.
    """
    if width <= indent + 1:
        return fragments
    out: StyleAndTextTuples = []
    for i, line in enumerate(_lines(fragments)):
        if i:
            out.append(("", "\n"))
        out += line if _width(line) <= width else _wrap_line(line, width, indent)
    return out


def _lines(fragments: StyleAndTextTuples) -> list[StyleAndTextTuples]:
    lines: list[StyleAndTextTuples] = [[]]
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        for j, part in enumerate(text.split("\n")):
            if j:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    return lines


def _width(line: StyleAndTextTuples) -> int:
    return sum(get_cwidth(f[1]) for f in line)


def _wrap_line(line: StyleAndTextTuples, width: int, indent: int) -> StyleAndTextTuples:
    chars = [(style, ch) for style, text, *_ in line for ch in text]
    rows: list[list[tuple[str, str]]] = []
    start, room = 0, width
    while start < len(chars):
        used, end, last_space = 0, start, -1
        while end < len(chars) and used + get_cwidth(chars[end][1]) <= room:
            if chars[end][1] == " ":
                last_space = end
            used += get_cwidth(chars[end][1])
            end += 1
        if end < len(chars) and last_space > start:
            end = last_space  # the break goes where the space was: the space itself is dropped
        rows.append(chars[start:end])
        start = end + 1 if end < len(chars) and chars[end][1] == " " else end
        room = width - indent
    out: StyleAndTextTuples = []
    for k, row in enumerate(rows):
        if k:
            out += [("", "\n"), ("", " " * indent)]
        for style, ch in row:
            if out and out[-1][0] == style and out[-1][1] != "\n":
                out[-1] = (style, out[-1][1] + ch)
            else:
                out.append((style, ch))
    return out
