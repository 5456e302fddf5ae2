"""The moments that mattered in a finished game, for the table's review, a private replay and ``--replay``.

The engine finds them (``engine.coach.find_moments``: the moves of people
where the house bot, from that seat's view, would have done otherwise, and it
mattered). That takes up to a few seconds of CPU for a long game, so a
``MomentsOf`` runs it once per game in a worker thread as soon as the game is
shown, and the screen never waits for it: ``m`` / ``M`` say so until it is
done, then jump to the next / previous moment. A moment's step is the board
the person faced, before their move.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hanabi.engine import GameState
from hanabi.engine.coach import Moment, find_moments

log = logging.getLogger(__name__)

SEARCHING = "the moments that mattered are still being found: ask again in a moment"
NONE_FOUND = "no moment that mattered: where the house bot would have moved otherwise, it changed little"


@dataclass(frozen=True, slots=True)
class Found:
    """The moments of one game, once found (``failed``: why none could be, a bug's sentence)."""

    moments: tuple[Moment, ...]
    failed: str = ""


class MomentsOf:
    """The moments of the game shown, found once per game in the background; ``on_found`` redraws the screen
    (it is called from the worker thread: it must be safe there, as prompt_toolkit's ``invalidate`` is)."""

    def __init__(self, on_found: Callable[[], None]) -> None:
        self._on_found = on_found
        self._lock = threading.Lock()
        self._key: object = None
        self._found: Found | None = None
        self._done = threading.Event()  # set once the moments of ``_key`` are found

    def of(self, key: object, final: GameState, people: frozenset[int] | None = None, level: str | None = None,
           names: Sequence[str] = ()) -> Found | None:
        """The moments of the game ``key`` names (``final``: its last state), or None while they are being found:
        the first ask starts the search, and asking again for another game starts that one's instead."""
        with self._lock:
            if key == self._key:
                return self._found
            self._key, self._found, self._done = key, None, threading.Event()
        threading.Thread(target=self._find, args=(key, final, people, level, tuple(names)), daemon=True,
                         name="moments").start()
        return None

    def _find(self, key: object, final: GameState, people: frozenset[int] | None, level: str | None,
              names: tuple[str, ...]) -> None:
        try:
            found = Found(tuple(find_moments(final, people=people, level=level, names=names)))
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
        return None, NONE_FOUND
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


def moment_lines(found: Found, moment: Moment, level: str = "") -> tuple[str, str]:
    """A moment as the screen shows it: which of how many (and the convention level it was judged at, when
    given), what was done and why it mattered; then the house bot's move and why."""
    done, suggested = moment.lines()
    judged = f", judged at {level} level" if level else ""
    return f"Moment {found.moments.index(moment) + 1} of {len(found.moments)}{judged} · {done}", suggested
