"""Saving a finished game's replay where the player started the client, under a name that is still free."""

from __future__ import annotations

from pathlib import Path


def save_new_file(folder: Path, stem: str, text: str) -> Path:
    """Write ``text`` to ``stem.json`` in ``folder``, or ``stem-2.json``, ``stem-3.json``… : never over a file.

    Game numbers restart with every server (every ``--solo`` game is game 1), so the number alone is
    not a unique name; opening with "x" makes taking a name and writing it one step, even with two
    clients saving into the same folder at once.
    """
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
        except FileExistsError:
            continue
        return path.resolve()
    raise FileExistsError(0, f"{stem}.json to {stem}-9999.json all exist: tidy the folder")
