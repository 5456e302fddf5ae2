"""The colours of the screen, by class name.

Card colours use the terminal's ANSI palette so they follow the player's
theme; every card also carries its suit letter, so nothing depends on colour
alone. White cards are drawn bold so they stand out on light backgrounds too.
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict({
    "card.red": "fg:ansired bold",
    "card.yellow": "fg:ansiyellow bold",
    "card.green": "fg:ansigreen bold",
    "card.blue": "fg:ansiblue bold",
    "card.white": "bold",
    "card.multicolor": "fg:ansimagenta bold",
    "card.unknown": "fg:ansigray",
    "card.clued": "underline",
    "clue.mark": "bold",
    "title": "reverse bold",
    "label": "fg:ansigray",
    "slot": "fg:ansigray",
    "name": "",
    "name.me": "bold",
    "name.current": "bold fg:ansicyan",
    "name.away": "fg:ansigray italic",
    "clues": "fg:ansicyan bold",
    "clues.spent": "fg:ansigray",
    "strikes": "fg:ansired bold",
    "strikes.none": "fg:ansigray",
    "deck": "bold",
    "final": "fg:ansiyellow bold reverse",
    "knowledge.none": "fg:ansigray",
    "knowledge.rank": "bold",
    "note": "fg:ansiyellow",
    "note.mark": "fg:ansiyellow bold",
    "note.identity": "fg:ansiyellow",
    "note.contradicted": "fg:ansired bold reverse",
    "log.clue": "fg:ansicyan",
    "log.play": "fg:ansigreen",
    "log.misplay": "fg:ansired",
    "log.discard": "",
    "log.rank": "bold",
    "log.rearrange": "fg:ansigray",
    "log.notice": "fg:ansigray italic",
    "log.turn": "fg:ansigray",
    "chat.sender": "bold fg:ansicyan",
    "chat": "",
    "status": "",
    "status.error": "fg:ansired bold",
    "status.prompt": "fg:ansiyellow bold",
    "keys": "reverse",
    "keys.key": "reverse bold",
    "command": "",
    "rule": "fg:ansigray",
    "selected": "reverse",
    "end": "bold",
    "end.victory": "fg:ansigreen bold",
    "end.defeat": "fg:ansired bold",
    "link.online": "fg:ansigreen",
    "link.offline": "fg:ansired bold",
    "clock": "bold",
    "clock.low": "fg:ansired bold reverse",
    "clock.paused": "fg:ansiyellow bold",
    "clock.queued": "fg:ansicyan",
})
