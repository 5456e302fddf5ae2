"""The moments that mattered in a finished game, for the table's review, a private replay and ``--replay``.

The engine finds them from the game's replay file alone
(``engine.coach.replay_moments``: the moves of the seats people held, where
the house bot, from that seat's view, would have done otherwise, and it
mattered), so the review of a table's game and the same file opened with
``--replay`` show the same moments. That takes up to a few seconds of CPU
for a long game, so a ``MomentsOf`` runs it once per game in a worker thread
as soon as the game is shown, and the screen never waits for it: ``m`` /
``M`` say so until it is done, then jump to the next / previous moment. A
moment's step is the board the person faced, before their move.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from hanabi.engine.coach import Judged, Moment, judged, replay_moments
from hanabi.engine.replay import Replay

log = logging.getLogger(__name__)

SEARCHING = "the moments that mattered are still being found: ask again in a moment"
NONE_FOUND = "no moment that mattered: where the house bot would have moved otherwise, it changed little"


@dataclass(frozen=True, slots=True)
class Found:
    """The moments of one game, once found (``failed``: why none could be, a bug's sentence), and how they were
    judged (``how``: None when that is not said)."""

    moments: tuple[Moment, ...]
    failed: str = ""
    how: Judged | None = None


class MomentsOf:
    """The moments of the game shown, found once per game in the background; ``on_found`` redraws the screen
    (it is called from the worker thread: it must be safe there, as prompt_toolkit's ``invalidate`` is)."""

    def __init__(self, on_found: Callable[[], None]) -> None:
        self._on_found = on_found
        self._lock = threading.Lock()
        self._key: object = None
        self._found: Found | None = None
        self._done = threading.Event()  # set once the moments of ``_key`` are found

    def of(self, key: object, replay: Replay) -> Found | None:
        """The moments of the game ``key`` names (``replay``: its file), or None while they are being found: the
        first ask starts the search, and asking again for another game starts that one's instead."""
        with self._lock:
            if key == self._key:
                return self._found
            self._key, self._found, self._done = key, None, threading.Event()
        threading.Thread(target=self._find, args=(key, replay), daemon=True, name="moments").start()
        return None

    def _find(self, key: object, replay: Replay) -> None:
        try:
            found = Found(tuple(replay_moments(replay)), how=judged(replay))
        except Exception as e:  # a bug of the search must cost the moments, not the screen
            log.exception("finding the moments of %r failed", key)
            found = Found((), f"the moments could not be found ({type(e).__name__}: {e})")
        with self._lock:
            if self._key != key:
                return  # another game is shown now
            self._found = found
            self._done.set()
        self._on_found()

    def wait(self, timeout: float) -> Found | None:
        """The moments of the game asked for last, once found; None if ``timeout`` seconds pass first (for a
        program that has nothing else to do meanwhile, and for the tests: a condition, not a guess of time)."""
        with self._lock:
            done = self._done
        done.wait(timeout)
        with self._lock:
            return self._found


def jump(found: Found | None, step: int, forward: bool) -> tuple[int | None, str]:
    """Where ``m`` (``forward``) or ``M`` goes from ``step``: the step of the next (previous) moment, or None with
    the sentence that says why it stays."""
    if found is None:
        return None, SEARCHING
    if found.failed:
        return None, found.failed
    if not found.moments:
        return None, NONE_FOUND + (f" ({found.how.words()})" if found.how is not None else "")
    steps = [m.step for m in found.moments]
    ahead = [s for s in steps if s > step] if forward else [s for s in steps if s < step][::-1]
    if ahead:
        return ahead[0], ""
    return None, "no moment after this step (M goes back)" if forward else "no moment before this step (m goes on)"


def moment_at(found: Found | None, step: int) -> Moment | None:
    """The moment whose board is the step shown, if any."""
    if found is None:
        return None
    return next((m for m in found.moments if m.step == step), None)


def moment_lines(found: Found, moment: Moment) -> tuple[str, str]:
    """A moment as the screen shows it: which of how many and how they were judged (at which level; every seat,
    when the file does not say who the bots were), what was done and why it mattered; then the house bot's move
    and why."""
    done, suggested = moment.lines()
    how = f", {found.how.words()}" if found.how is not None else ""
    return f"Moment {found.moments.index(moment) + 1} of {len(found.moments)}{how} · {done}", suggested
