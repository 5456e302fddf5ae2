"""Saving a finished game's replay in the user's data folder, under a name that is still free.

Replays go to ``replays`` in the data folder the server keeps its games in (``~/.local/share/hanabi/replays``
on Linux; from platformdirs), not to whatever folder the client happened to be started from, so they are all
in one place; the status line says where each went.

The name says when the game was saved and what was played
(``hanabi-2026-11-24-1530-six-suits.json``), so a folder of saves can be
told apart at a glance; game numbers cannot do that, since each server (each
``--solo`` game) counts from 1.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import platformdirs
from hanabi.engine import Variant


def replay_folder() -> Path:
    """Where replays are saved: ``replays`` in the user's data folder (made when the first one is saved)."""
    return platformdirs.user_data_path("hanabi", appauthor=False) / "replays"


def replay_stem(when: datetime, variant: Variant) -> str:
    """The file name of a replay saved at ``when``, without ``.json``: date, time (to the minute), variant."""
    words = re.sub(r"[^a-z0-9]+", "-", variant.title.lower()).strip("-")
    return f"hanabi-{when:%Y-%m-%d-%H%M}-{words}"


def save_new_file(folder: Path, stem: str, text: str) -> Path:
    """Write ``text`` to ``stem.json`` in ``folder``, or ``stem-2.json``, ``stem-3.json``… : never over a file.

    Two games of one variant saved in the same minute would share a name; opening with "x" makes taking
    a name and writing it one step, even with two clients saving into the same folder at once.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
        except FileExistsError:
            continue
        return path.resolve()
    raise FileExistsError(0, f"{stem}.json to {stem}-9999.json all exist: tidy the folder")


def home_as_tilde(path: Path) -> str:
    """``path`` with the user's home folder written "~" (a shell expands it back), or whole when outside it."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # not under home; no home known
        return str(path)
