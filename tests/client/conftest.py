"""Shared builders for the client tests: tables, games and the server messages about them; ``wait_for``, a
wait on the model for tests with a session running; and ``Line``, in-memory connections from sessions to a
server (what lets a session's test run on virtual time).

Tests reach them through the ``kit`` fixture (this module itself): with
pytest's importlib mode a test file cannot import a sibling module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
import trio
import trio.testing
from hanabi.client.app import ClientApp
from hanabi.client.model import ClientModel
from hanabi.client.runner import ModelStore
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine import ChatPolicy, Clue, GameConfig, GameState, Variant, apply, new_game, view_for
from hanabi.protocol.messages import Message, SeatInfo, TableInfo, ViewUpdate
from prompt_toolkit.input import PipeInput, create_pipe_input

if TYPE_CHECKING:
    from hanabi.client.session import Address
    from hanabi.server import Server

NAMES = ("alice", "bob", "cathy")
CTRL_C = "\x03"



def table(players: tuple[str | None, ...] = NAMES, *, id: int = 1, running: bool = False,
          host: int | None = 0, bots: tuple[int, ...] = ()) -> TableInfo:
    seats = tuple(None if name is None else SeatInfo(name, i in bots, True) for i, name in enumerate(players))
    return TableInfo(id, f"table {id}", Variant.NONE, False, False, ChatPolicy.ALWAYS, len(players), seats, False,
                     running, 0, host)


def game(players: int = 3, seed: int = 7, first_seat: int = 0) -> GameState:
    return new_game(GameConfig(players=players, first_seat=first_seat), seed)


def clue_something(state: GameState) -> GameState:
    """The seat to act gives the next seat a clue of the rank of its first card (always legal)."""
    target = (state.current + 1) % state.players
    rank = state.deck[state.hands[target][0]].rank
    return apply(state, Clue(target, rank=rank))


def view_message(state: GameState, seat: int | None, game_id: int = 1) -> ViewUpdate:
    return ViewUpdate(game_id, view_for(state, seat))


@pytest.fixture(autouse=True, scope="session")
def one_set_of_default_key_bindings() -> Iterator[None]:
    """prompt_toolkit builds its default key bindings (emacs, vi, mouse: about 10 ms of CPU) anew for every
    Application, and these tests build hundreds of apps. The bindings keep no state of an app's (their filters and
    handlers ask the app that runs them), so one set, built by prompt_toolkit itself, serves every app here."""
    from prompt_toolkit.application import application

    defaults = application.load_key_bindings()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(application, "load_key_bindings", lambda: defaults)
        yield


class Line:
    """In-memory connections from sessions to a server of the test's: ``cut()`` closes the server's ends, as a
    network blip would. A session on virtual time uses it, since a real socket's wait would let the clock jump."""

    def __init__(self, server: Server, nursery: trio.Nursery) -> None:
        self.server, self.nursery = server, nursery
        self.opened: list[float] = []  # when each connection was made (the test's clock)
        self.theirs: list[trio.abc.Stream] = []

    async def open(self, address: Address) -> trio.abc.Stream:
        ours, theirs = trio.testing.memory_stream_pair()
        self.opened.append(trio.current_time())
        self.theirs.append(theirs)
        self.nursery.start_soon(self.server.handle, theirs, f"memory:{address}")
        return ours

    async def cut(self) -> None:
        for stream in self.theirs:
            await stream.aclose()
        self.theirs.clear()


async def wait_for(store: ModelStore, check: Callable[[ClientModel], bool], what: str, patience: float = 10.0) -> None:
    """Wait until ``check`` holds of the store's model, woken by each update rather than polling; after
    ``patience`` seconds of the test's clock (virtual or real), fail naming ``what`` and the status line then.
    The model changes only through ``dispatch``, whose listeners run after each update, so no change is missed;
    the wait ends at the update that makes ``check`` true, so ``check`` must name all a test goes on to assume."""
    ready = trio.Event()

    def look() -> None:
        if check(store.model):
            ready.set()

    store.listeners.append(look)
    try:
        look()
        with trio.move_on_after(patience):
            await ready.wait()
            return
    finally:
        store.listeners.remove(look)
    raise AssertionError(f"waited {patience:g} s for {what}; status: {store.model.status!r}")


@pytest.fixture
def kit() -> ModuleType:
    return sys.modules[__name__]


class Terminal:
    """An app wired to a store and an outbox, with keys typed through a pipe."""

    def __init__(self, pipe: PipeInput, replay_dir: Path, columns: int = 80, rows: int = 24) -> None:
        self.store = ModelStore()
        self.sent: list[Message] = []
        self.pipe = pipe
        self.app = ClientApp(self.store.get, self.store.dispatch, self.sent.append, input=pipe,
                             output=SizedOutput(columns, rows), replay_dir=replay_dir)
        self.columns, self.rows = columns, rows
        self.store.listeners.append(self.app.on_model)

    def feed(self, *messages: object) -> None:
        for message in messages:
            self.store.dispatch(message)  # type: ignore[arg-type]

    def type(self, keys: str) -> list[Message]:
        """Type ``keys`` into the running app, then Ctrl-C to leave it; what the app sent."""
        self.pipe.send_text(keys + CTRL_C)
        self.app.application.run()
        return self.sent

    def screen(self) -> str:
        return screen_text(self.app.application, self.columns, self.rows)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Terminal]:
    with create_pipe_input() as pipe:
        yield Terminal(pipe, tmp_path)

