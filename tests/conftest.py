"""What every test shares: its own folders for the programs' files, and the long waiting tests started first.

The README's command runs the suite in parallel (pytest-xdist), so no test may touch a file another could:
the client's resume tokens and the server's default store live in the user's XDG folders, which here point
into the worker's own temporary folder. Tests that need a folder of their own still set one.

The tests marked ``starts_first`` spend most of their time waiting (on mDNS in a private network, on real
clients in tmux): run first, their waits overlap with the other worker's tests instead of ending the run alone.

``-n auto`` starts one worker more than the machine has cores: the tests of real clients, servers and
networks spend much of their time waiting, and a third worker on two cores fills those waits (the README's
command was about 15 % quicker with coverage, docs/performance.md "Suite"; four workers were no quicker).

Temporary folders in memory, and the modules pytest rewrites cached where the environment says to write no
bytecode: both are set before pytest loads its plugins, by ``tests/environment.py`` (pyproject.toml's ``addopts``).

Tests marked ``moments`` are the ones where the moments that mattered of a finished game shown are searched for
(in a worker thread nothing else waits for); elsewhere they are left "still being found" (see
``moments_searched_only_where_looked_at``).

Tests marked ``no_cover`` (pytest-cov's marker: whole games played many times) run untraced in the workers too;
see ``pytest_runtest_call`` for why that needs a hand.

Tests marked ``virtual_time`` (a whole module, by ``pytestmark``) run on Trio's ``MockClock`` with autojump: a
timeout, a bot's delay or a clock's bank passes as soon as nothing else is left to do, whatever the machine's
load, and a test measures time by ``trio.current_time()``, which is the server's clock too. Two things are not
virtual and would let the clock jump while they work: sockets and threads. Such a test talks to its server over
in-memory streams, and the work the server hands to a thread (SQLite's reads, a bot's choice) runs in place,
on the event loop (``run_here``). A test of such a module that needs real TCP, a real process or a thread is
marked ``real_time`` and runs on the ordinary clock.

A screen drawn for a test (``SizedOutput``, a ``DummyOutput`` that only claims a size) is laid out as in a
terminal, but the redraw's last step, working out which escape codes would turn the last frame into this one, is
skipped (``terminal_diff_skipped_where_nothing_is_drawn``): it wrote nothing anywhere, yet it was about a quarter
of the client's tests' CPU. The tests read the screen with ``screen_text``; the tmux tests run the real client
in a real terminal, diff and all.

What the collection built (every test module, the program's modules, pytest's and hypothesis's: about 127,000
objects) lives until the worker ends, so it is frozen out of the cycle collector's full passes once collected
(``pytest_collection_finish``). The client's tests leave much cyclic garbage (each app is a web of
prompt_toolkit objects), and every full pass that freed it walked all of those objects too: about a fifth of
their CPU went to the collector, half of it to walking what lives anyway (docs/performance.md, "Suite").

Hypothesis's two clocks are off for every property (the ``house`` profile): its per-example deadline and its
"input generation is slow" health check time the machine, not the code, and on a busy one they failed a
property that holds (the notes' round trip, generating up to a hundred note texts an example).
``HYPOTHESIS_PROFILE=thorough`` loads the ``thorough`` profile instead (the same, by another name): the costliest
properties (the random legal games, the protocol's fuzz and stream properties) read its name and run more
examples under it, as many as they ran in every suite before the suite's counts were lowered to keep it within a
minute (docs/developing.md, "Tests and checks").
"""

from __future__ import annotations

import gc
import inspect
import os
from collections.abc import Callable, Generator, Iterator
from typing import Any, TypeVar

import pytest
import trio
import trio.testing
from hypothesis import HealthCheck, settings

settings.register_profile("house", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("house"))
settings.load_profile("thorough" if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else "house")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: a run without it (-p no:xdist) must not fail
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # the user's own number, which xdist's hook reads
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "starts_first: a long test that mostly waits; run it before the others")
    config.addinivalue_line("markers", "virtual_time: the test runs on Trio's MockClock, autojumping, threads in place")
    config.addinivalue_line("markers", "real_time: in a virtual_time module, a test on the real clock (TCP, processes)")
    config.addinivalue_line("markers", "moments: the test looks at the moments that mattered; their search runs")


T = TypeVar("T")


async def run_here(sync_fn: Callable[..., T], *args: Any, **_options: Any) -> T:
    """``trio.to_thread.run_sync`` for a test on virtual time: the function runs on the event loop.

    A thread's work takes real time during which every task waits, so the autojumping clock would jump to the
    next deadline meanwhile (a test's patience, a bank running out) as if that time had passed."""
    await trio.lowlevel.checkpoint()
    return sync_fn(*args)


def run_on_virtual_time(fn: Callable[[], Any], *, clock: trio.abc.Clock | None = None,
                        instruments: Any = ()) -> Any:
    """pytest-trio's runner for ``virtual_time`` tests: the test's own clock if it takes one (``autojump_clock``
    or ``mock_clock``, to jump it on purpose), else an autojumping one; threads run in place (``run_here``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trio.to_thread, "run_sync", run_here)
        return trio.run(fn, clock=clock or trio.testing.MockClock(autojump_threshold=0), instruments=instruments)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()  # what collecting left as garbage goes now, rather than frozen for the run
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A stable sort: every worker collects the same order, as pytest-xdist requires.
    items.sort(key=lambda item: item.get_closest_marker("starts_first") is None)
    for item in items:
        if (inspect.iscoroutinefunction(getattr(item, "obj", None)) and item.get_closest_marker("virtual_time")
                and not item.get_closest_marker("real_time")):
            # First among the item's markers, so pytest-trio takes this runner rather than its plain trio.run.
            item.add_marker(pytest.mark.trio(run=run_on_virtual_time), append=False)


@pytest.fixture(scope="session", autouse=True)
def private_user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    home = tmp_path_factory.mktemp("xdg")
    with pytest.MonkeyPatch.context() as patch:
        for variable in ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            patch.setenv(variable, str(home / variable.lower()))
        yield


@pytest.fixture(scope="session", autouse=True)
def terminal_diff_skipped_where_nothing_is_drawn() -> Iterator[None]:
    """prompt_toolkit's redraw, for an output that draws nothing, stops after laying the screen out.

    The renderer compares each new frame with the last, character by character, and writes the escape codes
    for what changed to the output; a ``DummyOutput`` drops them. What it returns (where the cursor is, the
    last style written) only feeds the next diff. The layout, the part a test can see, is done as before."""
    import prompt_toolkit.renderer
    from prompt_toolkit.output import DummyOutput

    diff = prompt_toolkit.renderer._output_screen_diff

    def diff_if_drawn(app: Any, output: Any, screen: Any, *args: Any, **options: Any) -> Any:
        if isinstance(output, DummyOutput):
            return screen.get_cursor_position(app.layout.current_window), None
        return diff(app, output, screen, *args, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prompt_toolkit.renderer, "_output_screen_diff", diff_if_drawn)  # raises if it is gone
        yield


@pytest.fixture(autouse=True)
def moments_searched_only_where_looked_at(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside the tests marked ``moments``, the moments of a finished game shown are never searched for: they stay
    "still being found", as they are during the first moments of any review or replay.

    The review and the replay viewer start that search in a worker thread as soon as a finished game is shown, and
    nothing waits for it: in a test that does not look at the moments it ran on after the test's end, beside the
    tests after it (a tenth to a third of a second of CPU each untraced, a hundred of them in the client's tests,
    two to three times that traced). The tests marked ``moments`` wait for the real search and check what it found."""
    if request.node.get_closest_marker("moments") is not None:
        yield
        return
    from hanabi.client.moments import MomentsOf

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MomentsOf, "of", lambda *_args, **_options: None)
        yield


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Inside pytest-cov's own pause for a ``no_cover`` test, stop any coverage still tracing.

    In a pytest-xdist worker pytest-cov (7.1) starts a second measurement under the worker's own, so pausing
    the worker's resumed the other and the test was traced all the same: 2-3 times the CPU for those tests,
    about a quarter of the whole suite's. Restarted afterwards in the order found, so nothing else changes."""
    if item.get_closest_marker("no_cover") is None:
        yield
        return
    import coverage

    stopped = []
    while (current := coverage.Coverage.current()) is not None:
        current.stop()
        stopped.append(current)
    try:
        yield
    finally:
        for measurement in reversed(stopped):
            measurement.start()
