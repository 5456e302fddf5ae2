"""Run the app and the network together: Trio as a guest on prompt_toolkit's asyncio loop.

prompt_toolkit owns the terminal and the asyncio loop; Trio runs inside it
(``start_guest_run``), so the networking is ordinary Trio code. A ``ModelStore``
holds the model: every message goes through the reducer, then the app
redraws. When the app exits (Ctrl-C, q, SIGTERM) the Trio side is cancelled
and awaited, so sockets close and prompt_toolkit restores the terminal; if
the Trio side fails, the app shows why instead of dying with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import signal
import time
from collections.abc import Awaitable, Callable

import outcome
import trio
from hanabi.protocol import GameClock

from .app import ClientApp
from .model import ClientModel, ClockAt, Incoming, LinkChanged, Note, reduce


def settle() -> None:
    """Once the screen is built, before it runs: what the client has built to start (every module, class and
    function of prompt_toolkit, Trio and the game, about 45,000 objects) lives until it exits, so the cycle
    collector's full passes leave it out. Each pass walked it all, tens of ms on a 2-core machine: a dropped frame
    wherever one fell (``docs/performance.md``, "Client redraw")."""
    gc.freeze()


class ModelStore:
    """The one current model, updated only by ``reduce``; listeners run after each update."""

    def __init__(self, model: ClientModel | None = None) -> None:
        self.model = model or ClientModel()
        self.listeners: list[Callable[[], None]] = []

    def get(self) -> ClientModel:
        return self.model

    def dispatch(self, message: Incoming) -> None:
        if isinstance(message, GameClock):  # stamped as it arrives, so the board counts the bank down from then
            message = ClockAt(message, time.monotonic())
        elif isinstance(message, LinkChanged) and message.at is None:  # so a running bank stops where it stood
            message = dataclasses.replace(message, at=time.monotonic())
        try:
            self.model = reduce(self.model, message)
        except Exception as e:  # a reducer bug must cost one message, not the connection
            self.model = reduce(self.model, Note(f"Could not show a {type(message).__name__}: {e!r}", True))
        for listener in self.listeners:
            listener()


TrioMain = Callable[[], Awaitable[None]]


async def run_with_trio(app: ClientApp, store: ModelStore, trio_main: TrioMain) -> None:
    """Run ``app`` until it exits, with ``trio_main`` as a Trio guest; then cancel and await the guest."""
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[outcome.Outcome[None]] = loop.create_future()
    scope_box: list[trio.CancelScope] = []
    token_box: list[trio.lowlevel.TrioToken] = []

    async def guest() -> None:
        token_box.append(trio.lowlevel.current_trio_token())
        with trio.CancelScope() as scope:
            scope_box.append(scope)
            await trio_main()

    def done(result: outcome.Outcome[None]) -> None:
        if not finished.done():
            finished.set_result(result)
        if isinstance(result, outcome.Error) and app.application.is_running:
            store.dispatch(Note(f"The network part stopped: {result.error!r}. Press Ctrl-C to quit.", True))

    trio.lowlevel.start_guest_run(
        guest,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=done,
        host_uses_signal_set_wakeup_fd=True,
    )
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, app.quit)
    try:
        await app.application.run_async()
    finally:
        if token_box and scope_box and not finished.done():
            token_box[0].run_sync_soon(scope_box[0].cancel)
        result = await finished
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)
    if isinstance(result, outcome.Error) and not isinstance(result.error, trio.Cancelled):
        raise SystemExit(f"hanabi-client: the network part failed: {result.error!r}")
