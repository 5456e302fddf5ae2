"""Finding games on the LAN: the TXT record, the servers screen, the command line, and (in a private network
namespace) the real thing.

The tests that send multicast are in ``netns_cases.py``; the last test here
runs them under ``unshare -n``, where loopback is the only interface, so
nothing ever leaves this machine's loopback. Where a namespace cannot be made
(no privileges, no ``unshare``) that test is skipped, saying why.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hanabi.client.app import ClientApp
from hanabi.client.arguments import LIST_WAIT
from hanabi.client.cli import main
from hanabi.client.discovery import Found, instance_name, ordered
from hanabi.client.finder import ServerFinder
from hanabi.client.runner import ModelStore
from hanabi.client.session import Address
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.protocol.lan import SERVICE_TYPE, hosted_name, name_problem, read_txt, txt_record
from hanabi.protocol.messages import Welcome
from hanabi.protocol.version import PROTOCOL_VERSION
from hanabi.server.announce import default_name, where
from hanabi.server.cli import main as server_main
from prompt_toolkit.input import create_pipe_input

CASES = Path(__file__).with_name("netns_cases.py")


def server(name: str, port: int = 7777, protocol: int | None = PROTOCOL_VERSION, tables: int | None = 1,
           players: int | None = 2, host: str = "192.168.1.5") -> Found:
    return Found(name, host, port, protocol, "hanabi-lan 0.1.0", tables, players)


def test_the_txt_record_reads_back() -> None:
    record = txt_record(3, 7)
    received = {k.encode(): v.encode() for k, v in record.items()}
    txt = read_txt(received)
    assert (txt.protocol, txt.tables, txt.players, txt.program) == (PROTOCOL_VERSION, 3, 7, record["program"])
    assert record["txtvers"] == "1"


def test_a_txt_record_with_junk_reads_as_unknown() -> None:
    txt = read_txt({b"protocol": b"two", b"tables": None, b"players": b"-1"})
    assert (txt.protocol, txt.tables, txt.players, txt.program) == (None, None, None, "")


def test_a_mismatch_says_who_should_upgrade() -> None:
    assert server("now").mismatch() is None
    older = server("old", protocol=PROTOCOL_VERSION - 1).mismatch()
    newer = server("new", protocol=PROTOCOL_VERSION + 1).mismatch()
    assert older is not None and older.endswith("so upgrade the server")
    assert newer is not None and newer.endswith("so upgrade this client")
    assert "does not say which protocol" in (server("odd", protocol=None).mismatch() or "")


def test_servers_we_can_join_come_first_by_name() -> None:
    found = [server("zed"), server("old", protocol=1), server("Alpha")]
    assert [f.name for f in ordered(found)] == ["Alpha", "zed", "old"]
    assert instance_name(f"Bob's server.{SERVICE_TYPE}") == "Bob's server"


def test_a_server_name_is_checked() -> None:
    assert name_problem("Friday night") is None
    assert "empty" in (name_problem("  ") or "")
    assert "control character" in (name_problem("a\tb") or "")
    assert "the most a LAN name can be is 60" in (name_problem("é" * 31) or "")
    assert name_problem(default_name()) is None
    assert name_problem(hosted_name("x" * 32)) is None and hosted_name("ann") == "ann's Hanabi server"


def test_a_server_bound_to_an_address_announces_only_there() -> None:
    assert where("127.0.0.1") == (["127.0.0.1"], "127.0.0.1")
    everywhere = where(None)
    assert not isinstance(everywhere, str) and everywhere[0] is None
    assert "IPv6" in str(where("::1"))


def test_the_servers_screen_at_80x24() -> None:
    found = [server("Alice's Hanabi server", players=3, tables=1), server("Old one", protocol=1, port=7778),
             server("Bob's Hanabi server", host="192.168.1.7", players=0, tables=0)]
    with create_pipe_input() as pipe:
        finder = ServerFinder(lambda: ordered(found), input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("\x1b[B\x1b[B\r")  # down twice, to the old server: Enter refuses it
        pipe.send_text("\x1b[A\r")  # back up to Bob's: Enter joins it
        assert finder.run() == Address("192.168.1.7", 7777)
        lines = screen_text(finder.application).splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    assert "servers on this network" in lines[0]
    rows = [line for line in lines if "192.168.1." in line]
    assert rows[0].startswith("  Alice's Hanabi server") and rows[0].split()[-2:] == ["3", "1"]
    assert rows[1].startswith("> Bob's Hanabi server") and "192.168.1.7:7777" in rows[1]
    assert rows[2].startswith(" !Old one")
    assert "cannot be joined" in "\n".join(lines)
    assert "Enter join" in lines[-1] and "a type an address" in lines[-1]


def test_the_servers_screen_takes_an_address_typed_by_hand() -> None:
    with create_pipe_input() as pipe:
        finder = ServerFinder(list, "cannot look for servers on this network (No such device); connect to one "
                                    "by address: hanabi-client HOST[:PORT]", input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("a")
        pipe.send_text("bad host\r")  # refused with the reason; the line stays to be corrected
        pipe.send_text("\x15game.lan:7001\r")  # Ctrl-U clears it
        assert finder.run() == Address("game.lan", 7001)
    assert "Cannot look for servers here" in screen_text(finder.application)


def test_the_servers_screen_quits_with_q() -> None:
    with create_pipe_input() as pipe:
        finder = ServerFinder(list, input=pipe, output=SizedOutput(80, 24))
        pipe.send_text("\rq")
        assert finder.run() is None
        # The screen counts LIST_WAIT (2.5 s) from the finder's start on the machine's clock: beside a busy suite
        # the run alone took longer, and the screen had already moved on. Drawn as just started, then later.
        finder.since = time.monotonic()
        assert "Looking for servers" in screen_text(finder.application)
        assert "no server to join yet" in finder.note
        finder.since -= LIST_WAIT  # a while later, still nothing: say so, and how to connect by address
        text = screen_text(finder.application)
        assert "No server found on this network" in text and "Press a to type a server's address" in text


@pytest.mark.parametrize(("argv", "words"), [
    (["--json"], "--json is for --list"),
    (["--list", "host"], "HOST[:PORT] and --list do not go together"),
    (["--serve", "--solo"], "--solo and --serve do not go together"),
])
def test_bad_lan_arguments_say_what_to_type(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


def test_serve_and_the_servers_screen_need_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    # Checked before any browsing or serving starts: under pytest, input is not a terminal.
    assert main([]) == 2
    assert main(["--serve"]) == 2
    assert capsys.readouterr().err.count("needs a terminal") == 2


@pytest.mark.parametrize(("argv", "words"), [
    (["--name", "\x07"], "--name: the name has a control character"),
    (["--name", "x", "--no-announce"], "does not go with --no-announce"),
])
def test_bad_server_names_are_refused(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert server_main(["--db", ":memory:", *argv]) == 2
    assert words in capsys.readouterr().err


def _namespace_problem() -> str | None:
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (util-linux, iproute2)"
    # The cases' own set-up (loopback up, multicast on it, its route), read from their source: importing it here
    # would load zeroconf outside a namespace. A host where any step fails skips, rather than failing every case.
    setup = re.search(r'^NAMESPACE_SETUP = "(.+)"$', CASES.read_text(), flags=re.M)
    assert setup is not None, "netns_cases.py lost its NAMESPACE_SETUP"
    probe = subprocess.run(["unshare", "-n", "sh", "-c", setup.group(1)], capture_output=True, text=True,
                           timeout=10)
    if probe.returncode != 0:
        return f"cannot make a private network namespace here ({probe.stderr.strip() or probe.returncode})"
    return None


def _cases() -> list[str]:
    """The test functions of ``netns_cases.py``, by name (read from its source: collecting them would import
    zeroconf outside a namespace for nothing)."""
    return re.findall(r"^(?:async )?def (test_\w+)", CASES.read_text(), flags=re.M)


@pytest.mark.starts_first  # about 20-40 s, nearly all of it mDNS waits
def test_discovery_in_a_private_network(tmp_path: Path) -> None:
    """The real library, real servers and clients, in private network namespaces (loopback the only interface).

    Each case gets a private network of its own, so that the cases run at once without hearing each other's
    servers: nearly all of their time is mDNS's own waiting, not work."""
    problem = _namespace_problem()
    if problem is not None:
        pytest.skip(f"the LAN discovery tests need a private network namespace: {problem}")
    cases = _cases()
    # One process imports what the cases use, then forks one child per case, each in its own namespace.
    run = subprocess.run([sys.executable, str(CASES), str(tmp_path), *cases], capture_output=True, text=True,
                         timeout=240, cwd=Path(__file__).parents[2])
    assert run.returncode == 0, f"the runner failed ({run.returncode}):\n{run.stdout[-3000:]}{run.stderr[-3000:]}"
    codes = json.loads(run.stdout.splitlines()[-1])
    failed = []
    for case in cases:
        output = tmp_path / f"{case}.out"
        out = output.read_text(errors="replace") if output.exists() else ""
        summary = out.strip().splitlines()[-1:] if out.strip() else []
        if codes.get(case) != 0 or not summary or " passed" not in summary[0] or "skipped" in summary[0]:
            failed.append(f"--- {case} (exit {codes.get(case)}):\n{out[-3000:]}")
    assert len(cases) >= 10 and not failed, "\n".join(failed)


def test_the_protocol_doc_names_the_service_and_every_txt_key() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    assert f"`{SERVICE_TYPE.removesuffix('.local.')}`" in doc
    assert [key for key in txt_record(0, 0) if f"| `{key}` |" not in doc] == []


async def _quits(app: ClientApp) -> bool:
    """Whether the app exits by itself within a moment (the keys are waiting in its input)."""
    task = asyncio.ensure_future(app.application.run_async())
    for _ in range(40):  # a quitting app is done within a few redraws
        await asyncio.sleep(0.02)
        if task.done():
            return True
    app.quit()
    await task
    return False


@pytest.mark.parametrize(("keys", "quits"), [("qn", False), ("q", False), ("qy", True), ("\x03\x03", True),
                                             (":quit\ry", True)])
def test_quitting_a_hosting_client_asks_first(keys: str, quits: bool) -> None:
    store = ModelStore()
    with create_pipe_input() as pipe:
        app = ClientApp(store.get, store.dispatch, lambda message: None, input=pipe, output=SizedOutput(80, 24),
                        hosting=True)
        store.listeners.append(app.on_model)
        store.dispatch(Welcome(PROTOCOL_VERSION, "server", "ann", "tok", ""))
        pipe.send_text(keys)
        assert asyncio.run(_quits(app)) is quits
        if keys == "q":
            assert "Quitting stops the server you host, for everyone on it" in screen_text(app.application)
        if keys == "qn":
            assert "You stay; the server goes on." in store.model.status
