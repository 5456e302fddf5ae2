"""``python bench/client.py``: how long the client takes to take in a view and to redraw each of its screens.

Plays a 5-player six-suit game with random legal moves (misplays left out), then measures at 80x24, as a redraw
lays the screen out:

- the game screen: the reducer on each turn's view message (the action log included), then a redraw, as the
  message brings one; and a second redraw of the same model, as a key that changes nothing brings one;
- rewinding: at every fifth turn, the rewind opened (``r``) and stepped back a step at a time to the deal, a
  redraw for each step;
- the table's review of the finished game, a redraw at each step (every step, forward);
- the replay viewer (``--replay``) on the same game, a redraw at each step, as a spectator and as seat 1;

and apart, what the board's card counting and marks (``Insight.of``), the glance line's figures (``glance``) and
opening a rewind (``seat_history``, the whole game so far) cost. Prints the median and 99th percentile of each in
milliseconds, of wall time and of the process's CPU time (the CPU time hardly moves with the machine's load; the
wall time is what a player waits), and the CPU time of the drawing thread alone: the review and the replay viewer
find the game's moments in a worker thread (``client/moments.py``) while their first steps are drawn, and the
process's CPU time counts that search too. A redraw well under a frame (16 ms) keeps typing snappy.

The review is measured as a person meets it right after a game: its first steps are drawn while the moments'
worker is still searching. Under each screen's line, ``beside it`` says in how many of its redraws that worker
was running, how many of the collector's passes of each generation fell inside its redraws (per redraw, in the
drawing thread), and the median CPU time of a fixed piece of plain Python (the ``yardstick``) timed just before
each redraw: on a shared machine the same code's CPU time moves with what runs beside it (another process on the
core's sibling, the host), and a screen whose redraws are slow in a run because the yardstick is slow in that
run says so about the machine, not the code.

``--runs N`` repeats the whole measure N times (a new game each time, same seed) and prints each run's figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import threading
import time
from collections.abc import Callable
from functools import partial

from hanabi.client.app import ClientApp
from hanabi.client.knowledge import Insight
from hanabi.client.replayer import ReplayViewer, game_steps
from hanabi.client.runner import ModelStore, settle
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.client.stepping import Place
from hanabi.engine import (
    ChatPolicy,
    GameConfig,
    GameState,
    Play,
    Variant,
    apply,
    glance,
    legal_actions,
    new_game,
    seat_history,
    view_for,
)
from hanabi.engine.replay import dumps, from_json
from hanabi.protocol.messages import (
    GameOver,
    GameStarted,
    Joined,
    ReplayFile,
    Review,
    SeatInfo,
    TableInfo,
    ViewUpdate,
    Welcome,
)
from prompt_toolkit.input import DummyInput

NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily")
COLUMNS, ROWS = 80, 24


def yardstick() -> None:
    """A fixed piece of plain Python (dict and string work, about 0.3 ms of CPU on a quiet core)."""
    counts: dict[int, int] = {}
    for i in range(3000):
        counts[i % 97] = counts.get(i % 97, 0) + i
    sorted(str(v) for v in counts.values())


class Beside:
    """What happened beside one redraw: the collector's passes in the drawing thread, by generation."""

    def __init__(self) -> None:
        self.passes = [0, 0, 0]
        self._thread = threading.current_thread()
        gc.callbacks.append(self._on_pass)

    def _on_pass(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and threading.current_thread() is self._thread:
            self.passes[info["generation"]] += 1


def _worker_running() -> bool:
    return any(t.name == "moments" for t in threading.enumerate())


class Timings:
    """Wall and CPU milliseconds of each measured part, by name, in the order first measured."""

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.thread: dict[str, list[float]] = {}  # the CPU time of the measuring thread alone
        self.beside = Beside()
        self.worker: dict[str, int] = {}  # redraws during which the moments' worker was running
        self.passes: dict[str, list[int]] = {}  # the collector's passes inside the redraws, by generation
        self.yardstick: dict[str, list[float]] = {}  # the yardstick's CPU ms, timed before each redraw

    def time(self, name: str, work: Callable[[], object], redraw: bool = False) -> None:
        if redraw:
            before = time.thread_time()
            yardstick()
            self.yardstick.setdefault(name, []).append((time.thread_time() - before) * 1000)
            passes, running = list(self.beside.passes), _worker_running()
        wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
        work()
        self.thread.setdefault(name, []).append((time.thread_time() - thread) * 1000)
        self.cpu.setdefault(name, []).append((time.process_time() - cpu) * 1000)
        self.wall.setdefault(name, []).append((time.perf_counter() - wall) * 1000)
        if redraw:
            running = running or _worker_running()
            self.worker[name] = self.worker.get(name, 0) + running
            total = self.passes.setdefault(name, [0, 0, 0])
            for generation, count in enumerate(self.beside.passes):
                total[generation] += count - passes[generation]

    def report(self) -> None:
        for name, wall in self.wall.items():
            cpu, thread = self.cpu[name], self.thread[name]
            print(f"  {name:<44} wall median {statistics.median(wall):7.3f} p99 {_percentile(wall, 0.99):7.3f}"
                  f" · cpu median {statistics.median(cpu):7.3f} p99 {_percentile(cpu, 0.99):7.3f}"
                  f" · its thread's {statistics.median(thread):7.3f} p99 {_percentile(thread, 0.99):7.3f}"
                  f"  ({len(wall)})")
            if name in self.yardstick:
                per = [count / len(wall) for count in self.passes[name]]
                print(f"  {'':<44} beside it: the moments' worker in {self.worker[name]} of {len(wall)};"
                      f" collector's passes per redraw gen0 {per[0]:.2f} gen1 {per[1]:.2f} gen2 {per[2]:.3f};"
                      f" yardstick median {statistics.median(self.yardstick[name]):.3f}")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _app() -> tuple[ModelStore, ClientApp]:
    seats = tuple(SeatInfo(n, False, True) for n in NAMES)
    table = TableInfo(1, "bench", Variant.SIX_SUITS, False, False, ChatPolicy.ALWAYS, 5, seats, False, True, 0, 0)
    store = ModelStore()
    app = ClientApp(store.get, store.dispatch, lambda message: None, input=DummyInput(),
                    output=SizedOutput(COLUMNS, ROWS))
    store.listeners.append(app.on_model)
    for opening in (Welcome(1, "bench", "Alice", "tok", ""), Joined(table, 0), GameStarted(1, 1)):
        store.dispatch(opening)
    settle()  # as the client does once its screen is built
    return store, app


def _draw(app: ClientApp) -> Callable[[], object]:
    return lambda: screen_text(app.application, COLUMNS, ROWS)


def play(timings: Timings) -> GameState:
    """The game screen turn by turn, and rewinding every fifth turn; the finished game."""
    store, app = _app()
    rng = random.Random(1)
    state = new_game(GameConfig(players=5, variant=Variant.SIX_SUITS), 1)
    while not state.over:
        # Random moves, but no misplay, so the game lasts as long as a real one.
        moves = [a for a in legal_actions(state)
                 if not isinstance(a, Play) or state.fireworks[state.deck[a.order].suit.index] + 1
                 == state.deck[a.order].rank]
        state = apply(state, rng.choice(moves))
        message = ViewUpdate(1, view_for(state, 0))
        timings.time("take in a view (reduce + log)", partial(store.dispatch, message))
        if state.over:
            break
        timings.time("game: redraw after a message", _draw(app), redraw=True)
        timings.time("game: redraw after a key", _draw(app), redraw=True)
        for name, part in (("card counting and marks (Insight.of)", Insight.of), ("glance figures", glance),
                           ("seat_history (opening a rewind)", seat_history)):
            timings.time(name, partial(part, message.view))
        if state.turn % 5 == 0:
            _rewind(app, timings)
    return state


def _rewind(app: ClientApp, timings: Timings) -> None:
    app.open_rewind()
    rewind = app.ui.rewind
    view = app.get_model().view
    if rewind is None or view is None:
        return
    while True:
        timings.time("rewind: redraw at each step", _draw(app), redraw=True)
        if rewind.step == 0:
            break
        app.rewind_move(Place.back)
    app.close_rewind()


def review(state: GameState, timings: Timings) -> None:
    """The table's review of ``state``, a redraw at each step."""
    store, app = _app()
    text = dumps(state, NAMES)
    store.dispatch(ViewUpdate(1, view_for(state, 0)))
    store.dispatch(GameOver(1, state.outcome, state.deck, "1"))  # type: ignore[arg-type]
    store.dispatch(ReplayFile(1, text))
    last = len(game_steps(from_json(json.loads(text)))) - 1
    for step in range(last + 1):
        store.dispatch(Review(1, 1, "Bob", step, last))
        timings.time("review: redraw at each step", _draw(app), redraw=True)


def replay(state: GameState, timings: Timings) -> None:
    """The replay viewer on ``state``, a redraw at each step, as a spectator and as seat 1."""
    viewer = ReplayViewer(from_json(json.loads(dumps(state, NAMES))), input=DummyInput(),
                          output=SizedOutput(COLUMNS, ROWS))
    settle()  # as ``hanabi-client --replay`` does
    for seat in (None, 0):
        viewer.pos.seat = seat
        for step in range(len(viewer.states)):
            viewer.go(step)
            timings.time("replay: redraw at each step", lambda: screen_text(viewer.application, COLUMNS, ROWS),
                         redraw=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="how many times to measure everything (default 1)")
    runs = parser.parse_args().runs
    for run in range(runs):
        timings = Timings()
        state = play(timings)
        review(state, timings)
        replay(state, timings)
        print(f"run {run + 1}: {state.turn} turns of a 5-player six-suit game, {COLUMNS}x{ROWS} screen; ms")
        timings.report()


if __name__ == "__main__":
    main()
