"""Finding games on the LAN with the real zeroconf library, inside a private network namespace.

Not collected on its own (its name does not start with ``test_``):
``test_lan.py::test_discovery_in_a_private_network`` runs this file as a script (``main`` below), which
runs each test in a network namespace of its own, where loopback is the only interface, so every multicast
packet these tests make stays on it. As a second guard each test refuses to run where any other interface
exists.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import trio
from hanabi.client.bot import run_bot
from hanabi.client.cli import main as client_main
from hanabi.client.discovery import Browser, Found
from hanabi.client.finder import ServerFinder
from hanabi.client.model import ClientModel
from hanabi.client.runner import ModelStore
from hanabi.client.session import Address, Session
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.client.solo import HostingError, free_port, run_hosted
from hanabi.engine import ChatPolicy, Variant
from hanabi.engine.bots import choose_action
from hanabi.protocol import PROTOCOL_VERSION
from hanabi.protocol.lan import SERVICE_TYPE, txt_record
from hanabi.protocol.messages import ActionRequest, CreateTable, Start
from hanabi.server import ServerConfig, serve
from hanabi.server.announce import Counts, announce
from prompt_toolkit.input import create_pipe_input

FOUND_WITHIN = 10.0  # seconds: registration takes under 2 s and an answer a few tenths; generous for a busy machine


@pytest.fixture(autouse=True)
def only_loopback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = [name for _, name in socket.if_nameindex()]
    if names != ["lo"]:
        pytest.skip(f"runs only in a private network namespace with loopback alone (here: {', '.join(names)}); "
                    "test_lan.py runs it under unshare -n")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # resume tokens of these clients


class CliServer:
    """``hanabi-server`` in its own process, on a free port; ``port`` once it listens."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "hanabi.server", "--port", "0", "--db", ":memory:",
                                      "--log-level", "info", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        self.lines: list[str] = []
        end = time.monotonic() + 15
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            assert line, f"the server exited early: {self.lines}"
            self.lines.append(line)
            if m := re.search(r"listening on port (\d+)", line):
                self.port = int(m.group(1))
                return
        raise AssertionError(f"the server did not start: {self.lines}")

    def expect(self, text: str, timeout: float = 10.0) -> None:
        """Read its output until a line has ``text``."""
        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([self.proc.stdout], [], [], max(0.0, end - time.monotonic()))[0]:
                line = self.proc.stdout.readline()
                assert line, f"the server exited: {self.lines}"
                self.lines.append(line)
                if text in line:
                    return
        raise AssertionError(f"the server never said {text!r}: {self.lines}")

    def stop(self) -> str:
        """Stop it (as Ctrl-C would); what it printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None and not self.proc.stdout.closed:
            self.lines.append(self.proc.stdout.read())
            self.proc.stdout.close()
        return "".join(self.lines)


@pytest.fixture
def servers() -> Iterator[Callable[..., CliServer]]:
    started: list[CliServer] = []

    def start(*args: str) -> CliServer:
        server = CliServer(*args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def client_list_command(*args: str) -> subprocess.CompletedProcess[str]:
    """``hanabi-client --list ARGS``, the real command in a process of its own."""
    # A bound that stops a hung command, not a measure: --list listens 2.5 s, yet beside the whole suite at a load
    # of 15-30 on 2 cores (its start, zeroconf's threads, the other cases running at once) it has taken over 30 s.
    return subprocess.run([sys.executable, "-m", "hanabi.client", "--list", *args], capture_output=True, text=True,
                          timeout=120)


def client_list(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``hanabi-client --list ARGS`` through the command's own ``main``, in this process: its output and exit
    status as the command would give them, without a fresh interpreter importing it all (half a second of CPU
    each). The command itself, as a process, is run by ``test_list_with_nothing_to_find_exits_0_and_says_so``."""
    capsys.readouterr()  # what this test printed before is not the command's
    code = client_main(["--list", *args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["hanabi-client", "--list", *args], code, out, err)


@pytest.fixture
def browser() -> Iterator[Browser]:
    found = Browser()
    assert found.start() is None
    yield found
    found.close()


def wait_for(browser: Browser, check: Callable[[list[Found]], bool], what: str,
             timeout: float = FOUND_WITHIN) -> list[Found]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        now = browser.servers()
        if check(now):
            return now
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}; the browser has {browser.servers()}")


async def wait_for_async(browser: Browser, check: Callable[[list[Found]], bool], what: str,
                         timeout: float = FOUND_WITHIN) -> list[Found]:
    with trio.move_on_after(timeout):
        while not check(browser.servers()):
            await trio.sleep(0.05)
        return browser.servers()
    raise AssertionError(f"never saw {what}; the browser has {browser.servers()}")


def named(name: str) -> Callable[[list[Found]], bool]:
    return lambda found: any(f.name == name for f in found)


# -- the tests --------------------------------------------------------------------------------------------------


def test_a_server_is_found_with_its_name_address_and_counts_and_one_with_no_announce_is_not(
        servers: Callable[..., CliServer], browser: Browser, capsys: pytest.CaptureFixture[str]) -> None:
    servers("--no-announce")
    # Announced the same way: the browser does hear servers, so the one with --no-announce is not just missed.
    server = servers("--name", "Found me")
    wait_for(browser, named("Found me"), "the server")
    done = client_list(capsys, "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows == [{"name": "Found me", "host": "127.0.0.1", "port": server.port, "players": 0, "tables": 0,
                     "protocol": PROTOCOL_VERSION, "program": rows[0]["program"], "compatible": True}]
    assert rows[0]["program"].startswith("hanabi-server ")
    plain = client_list(capsys)
    line = f"Found me  127.0.0.1:{server.port}  players 0  tables 0  protocol {PROTOCOL_VERSION}"
    assert plain.stdout.splitlines() == [line]


async def test_the_counts_follow_a_table_being_created(browser: Browser) -> None:
    config = ServerConfig(bot_delay=0.0, shutdown_grace=0.2)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(lambda task_status: serve(None, 0, ":memory:", config=config,
                                                               task_status=task_status))
        announced = await nursery.start(lambda task_status: announce("Counting", None, server.port, server.counts,
                                                                     every=0.5, task_status=task_status))
        assert announced is not None
        await wait_for_async(browser, lambda f: any(s.name == "Counting" and s.tables == 0 for s in f), "0 tables")
        store = ModelStore()

        async def create(session: Session, resumed: bool) -> None:
            await session.request(CreateTable("counted", Variant.NONE, 3, chat=ChatPolicy.ALWAYS))

        session = Session(Address("127.0.0.1", server.port), "counter", store.get, store.dispatch,
                          on_welcome=create)
        nursery.start_soon(session.run)
        found = await wait_for_async(browser, lambda f: any(s.name == "Counting" and s.tables == 1 for s in f),
                                     "the table in the TXT record")
        assert [(s.tables, s.players) for s in found if s.name == "Counting"] == [(1, 1)]
        assert server.counts() == Counts(tables=1, players=1)
        nursery.cancel_scope.cancel()


def test_two_servers_with_the_same_name_both_appear(servers: Callable[..., CliServer], browser: Browser) -> None:
    first = servers("--name", "Twin")
    wait_for(browser, named("Twin"), "the first twin")
    second = servers("--name", "Twin")
    try:
        found = wait_for(browser, lambda f: len([s for s in f if s.name.startswith("Twin")]) == 2, "both twins")
    except AssertionError as e:
        raise AssertionError(f"{e}\nfirst:\n{first.stop()}\nsecond:\n{second.stop()}") from None
    assert sorted((s.name, s.port) for s in found) == [("Twin", first.port), ("Twin-2", second.port)]


def test_a_server_of_another_protocol_version_is_marked(browser: Browser, capsys: pytest.CaptureFixture[str]) -> None:
    from zeroconf import IPVersion, ServiceInfo, Zeroconf

    # An older server, as it would announce itself: protocol 1 in its TXT record.
    old = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    info = ServiceInfo(SERVICE_TYPE, f"Old server.{SERVICE_TYPE}", port=7000, parsed_addresses=["127.0.0.1"],
                       properties=txt_record(2, 5, protocol=1, program="hanabi-lan 0.0.1"))
    try:
        old.register_service(info)
        [server] = wait_for(browser, named("Old server"), "the old server")
        assert (server.protocol, server.tables, server.players) == (1, 2, 5)
        assert server.mismatch() is not None and "upgrade the server" in server.mismatch()  # type: ignore[operator]
        line = client_list(capsys).stdout
        assert "Old server  127.0.0.1:7000" in line and "cannot join: another protocol version" in line
        with create_pipe_input() as pipe:
            finder = ServerFinder(browser.servers, input=pipe, output=SizedOutput(80, 24))
            pipe.send_text("\r")  # Enter on a server we cannot join: refused, the screen stays
            pipe.send_text("q")
            assert finder.run() is None
            text = screen_text(finder.application)
        assert ">!Old server" in text and "cannot be joined" in text
        assert "upgrade the server" in finder.note
    finally:
        old.close()


def test_list_with_nothing_to_find_exits_0_and_says_so() -> None:
    done = client_list_command()
    assert done.returncode == 0
    assert done.stdout == ""
    assert "no server found on this network" in done.stderr and "HOST[:PORT]" in done.stderr


def test_the_servers_screen_joins_the_one_chosen_and_a_server_that_stops_disappears(
        servers: Callable[..., CliServer], browser: Browser) -> None:
    first = servers("--name", "Alpha")
    second = servers("--name", "Beta")
    wait_for(browser, lambda f: named("Alpha")(f) and named("Beta")(f), "both servers")
    with create_pipe_input() as pipe:
        finder = ServerFinder(browser.servers, input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("\x1b[B\r")  # down to the second, Enter
        chosen = finder.run()
        text = screen_text(finder.application)
    assert chosen == Address("127.0.0.1", second.port)
    lines = text.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    assert any(line.startswith("  Alpha") and f"127.0.0.1:{first.port}" in line for line in lines)
    # The first one stops: it says goodbye on the LAN and leaves the list; the other stays.
    assert "stopped" in first.stop()
    found = wait_for(browser, lambda f: not named("Alpha")(f), "the stopped server go", timeout=5.0)
    assert [s.name for s in found] == ["Beta"]


async def test_serve_then_a_second_client_finds_it_and_plays(tmp_path: Path, browser: Browser) -> None:
    store = ModelStore()
    box: list[Session] = []

    async def open_table(session: Session, resumed: bool) -> None:
        if not resumed:
            await session.request(CreateTable("LAN game", Variant.NONE, 2, chat=ChatPolicy.ALWAYS))

    def seated(model: ClientModel) -> bool:
        return model.table is not None and all(p is not None for p in model.table.players)

    async with trio.open_nursery() as nursery:
        ports: list[int] = []
        nursery.start_soon(lambda: run_hosted("host", "Hosted party", store, box, port=0,
                                              db=str(tmp_path / "hosted.sqlite3"), on_welcome=open_table,
                                              started=ports.append))
        [found] = await wait_for_async(browser, named("Hosted party"), "the hosted server")
        assert found.port == ports[0] and found.mismatch() is None
        games: list[int] = []

        async def guest() -> None:
            # A tenth of a second before each move keeps the guest under the server's 20 requests a second: a bot
            # with no delay can outrun it on a fast machine, and a move dropped ("slow down") leaves the game waiting.
            games.append(await run_bot(found.address, "guest", games=1, delay=0.1, report=lambda line: None))

        # A bound against a hang, not a measure: a whole game of two bots' choices on the real clock took more
        # than 30 s beside the whole suite at a load of 22-25 (the runner's own bound is 240 s).
        with trio.fail_after(120):
            while store.model.table is None:
                await trio.sleep(0.02)
            nursery.start_soon(guest)
            while not seated(store.model):
                await trio.sleep(0.02)
            box[0].send(Start())
            acted: tuple[int | None, int] | None = None
            while not games:  # the host plays its seat with the house bot's choices until the guest is done
                view = store.model.view
                if view is not None and not view.over and view.seat == view.current \
                        and (store.model.game, view.turn) != acted:
                    acted = (store.model.game, view.turn)
                    box[0].send(ActionRequest(choose_action(view)))
                await trio.sleep(0.01)
        assert games == [1]
        assert store.model.view is not None and store.model.view.outcome is not None
        nursery.cancel_scope.cancel()
    # The host quit: the server stopped and said goodbye on the LAN.
    await wait_for_async(browser, lambda f: not named("Hosted party")(f), "the hosted server go", timeout=5.0)



async def test_serve_on_a_port_in_use_says_so(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert free_port(port, 3) != port  # a later one is chosen
        with pytest.raises(HostingError, match=f"could not start the server on port {port}: the port is in use"):
            await run_hosted("host", "Busy", ModelStore(), [], port=port, db=str(tmp_path / "h.sqlite3"))


def test_a_server_that_cannot_announce_says_so_once_and_serves(servers: Callable[..., CliServer]) -> None:
    server = servers("--host", "::1", "--name", "Six")  # announcements go over IPv4: this one cannot be announced
    server.expect("could not announce")
    with socket.create_connection(("::1", server.port), timeout=5):
        pass  # it serves all the same
    out = server.stop()
    assert out.count("could not announce this server on the LAN (::1 is an IPv6 address") == 1, out
    assert "players can still connect by address" in out


class Terminals:
    """Clients in a private tmux server (its own socket), 80x24 each; their data and state in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.base = [shutil.which("tmux") or "tmux", "-L", f"hanabi-lan-{os.getpid()}", "-f", os.devnull]
        self.folder = folder

    def tmux(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10, check=True).stdout

    def start(self, name: str, *args: str) -> None:
        env = f"XDG_STATE_HOME={shlex.quote(str(self.folder / 'state'))} " \
              f"XDG_DATA_HOME={shlex.quote(str(self.folder / 'data'))}"
        command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "hanabi.client", *args))
        self.tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(self.folder),
                  f"{env} {command}; echo CLIENT-EXIT=$?; sleep 60")

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", name)

    def wait_for(self, name: str, text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen(name)
            if text in " ".join(screen.split()):  # the words, wherever the lines wrap
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{name}'s screen never showed {text!r}; it shows:\n{screen}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10, check=False)


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[Terminals]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    found = Terminals(tmp_path)
    yield found
    found.close()


def test_serve_in_a_terminal_then_a_friend_joins_from_the_list(terminals: Terminals, tmp_path: Path) -> None:
    terminals.start("host", "--serve", "--name", "ann")
    terminals.wait_for("host", "Hosting \"ann's Hanabi server\"")  # the lobby, announced
    terminals.start("friend", "--name", "bo")
    terminals.wait_for("friend", "ann's Hanabi server")  # the servers on this network
    terminals.tmux("send-keys", "-t", "friend", "Enter")
    terminals.wait_for("friend", "Connected as bo")
    terminals.tmux("send-keys", "-t", "host", "q")
    terminals.wait_for("host", "Quitting stops the server you host, for everyone on it")
    terminals.tmux("send-keys", "-t", "host", "y")
    terminals.wait_for("host", "CLIENT-EXIT=0")
    assert "the server you hosted (\"ann's Hanabi server\"" in " ".join(terminals.screen("host").split())
    terminals.wait_for("friend", "The host stopped the server")
    assert (tmp_path / "data" / "hanabi" / "hosted.sqlite3").exists()  # its games kept in the data folder


# -- the runner: each test in a private network of its own ------------------------------------------------------

CLONE_NEWNET = 0x40000000  # <sched.h>: a new network namespace (what ``unshare -n`` asks for)
NAMESPACE_SETUP = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"


def _run_in_a_private_network(case: str, output: Path) -> None:
    """In a forked child: leave the host's network for a new one with loopback alone, run one test, exit."""
    with output.open("wb") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
    code = 3
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNET) failed")
        subprocess.run(["sh", "-c", NAMESPACE_SETUP], check=True, timeout=10)
        here = Path(__file__).resolve()
        code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "pytest_trio.plugin", f"{here}::{case}"])
    except BaseException as error:  # said in its output; the exit status says it failed
        print(f"could not run {case}: {error!r}", flush=True)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(code))


def main(folder: str, *cases: str) -> int:
    """Run each named test at once, each in a forked child of this process, which has already imported what
    they all use (pytest, Trio, zeroconf, the program): a fresh interpreter for each test, importing it all,
    cost about a second of CPU each. Each test's output goes to ``folder/<test>.out``; the exit statuses are printed as
    one JSON object. A test still running after ``within`` seconds is killed."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the cases use trio's plugin only (loaded by name)
    import hypothesis  # noqa: F401  (trio's plugin imports it; the plugin itself is left for pytest to load)
    import zeroconf  # noqa: F401

    sys.stdout.flush()
    sys.stderr.flush()
    children = {}
    for case in cases:
        pid = os.fork()
        if pid == 0:
            _run_in_a_private_network(case, Path(folder) / f"{case}.out")
        children[pid] = case
    codes: dict[str, int | None] = {}
    within = time.monotonic() + 170
    while children:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            if time.monotonic() > within:
                for late in children:
                    os.kill(late, signal.SIGKILL)
                within = float("inf")  # the kills are reaped as they come
            time.sleep(0.05)
            continue
        codes[children.pop(pid)] = os.waitstatus_to_exitcode(status)
    print(json.dumps(codes))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
