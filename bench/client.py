"""``python bench/client.py``: how long the client takes to take in a view and to draw a game screen.

Plays a 5-player game with random legal moves (misplays left out), then measures, per turn, the
reducer on the view message (the action log included) and a full layout of
the 80x24 game screen, as a redraw does; and apart, what the board's card
counting and marks (``Insight.of``), the glance line's figures (``glance``)
and opening a rewind (``seat_history``, the whole game so far) cost. Prints medians and 99th percentiles
in milliseconds; a redraw well under a frame (16 ms) keeps typing snappy.
"""

from __future__ import annotations

import random
import statistics
import time

from hanabi.client.app import ClientApp
from hanabi.client.knowledge import Insight
from hanabi.client.runner import ModelStore
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine import (
    ChatPolicy,
    GameConfig,
    Play,
    Variant,
    apply,
    glance,
    legal_actions,
    new_game,
    seat_history,
    view_for,
)
from hanabi.protocol.messages import GameStarted, Joined, SeatInfo, TableInfo, ViewUpdate, Welcome
from prompt_toolkit.input import DummyInput


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    names = ("Alice", "Bob", "Cathy", "Donald", "Emily")
    seats = tuple(SeatInfo(n, False, True) for n in names)
    table = TableInfo(1, "bench", Variant.SIX_SUITS, False, False, ChatPolicy.ALWAYS, 5, seats, False, True, 0, 0)
    store = ModelStore()
    app = ClientApp(store.get, store.dispatch, lambda message: None, input=DummyInput(), output=SizedOutput(80, 24))
    for opening in (Welcome(1, "bench", "Alice", "tok", ""), Joined(table, 0), GameStarted(1, 1)):
        store.dispatch(opening)
    rng = random.Random(1)
    state = new_game(GameConfig(players=5, variant=Variant.SIX_SUITS), 1)
    reduce_ms: list[float] = []
    draw_ms: list[float] = []
    parts_ms: dict[str, list[float]] = {"card counting and marks (Insight.of)": [], "glance figures": [],
                                        "rewind: the seat's history so far": []}
    while not state.over:
        # Random moves, but no misplay, so the game lasts as long as a real one.
        moves = [a for a in legal_actions(state)
                 if not isinstance(a, Play) or state.fireworks[state.deck[a.order].suit.index] + 1
                 == state.deck[a.order].rank]
        state = apply(state, rng.choice(moves))
        message = ViewUpdate(1, view_for(state, 0))
        start = time.perf_counter()
        store.dispatch(message)
        middle = time.perf_counter()
        screen_text(app.application, 80, 24)
        end = time.perf_counter()
        reduce_ms.append((middle - start) * 1000)
        draw_ms.append((end - middle) * 1000)
        for times, part in zip(parts_ms.values(), (Insight.of, glance, seat_history), strict=True):
            start = time.perf_counter()
            part(message.view)
            times.append((time.perf_counter() - start) * 1000)
    print(f"{len(draw_ms)} turns of a 5-player six-suit game, 80x24 screen")
    print(f"take in a view (reduce + log): median {statistics.median(reduce_ms):.3f} ms, "
          f"p99 {_percentile(reduce_ms, 0.99):.3f} ms")
    print(f"draw the game screen:          median {statistics.median(draw_ms):.3f} ms, "
          f"p99 {_percentile(draw_ms, 0.99):.3f} ms")
    for name, times in parts_ms.items():
        print(f"  {name}: median {statistics.median(times):.3f} ms, p99 {_percentile(times, 0.99):.3f} ms")


if __name__ == "__main__":
    main()
