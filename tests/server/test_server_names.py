"""Names are names: unique at the moment of login, normalized, visible, and no look-alike of someone here."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import trio
from hanabi.engine.names import passes_for_a_bot, skeleton
from hanabi.protocol import PROTOCOL_VERSION
from hanabi.protocol.messages import ErrorReply, Hello, Welcome
from hanabi.server import Server, serve
from hanabi.server.names import NameBook, normalized, unique
from hanabi.server.session import Refused

from .conftest import FAST, Client, Connect, eventually

pytestmark = pytest.mark.virtual_time


@pytest.mark.parametrize(("given", "kept"), [("\uff21\uff2e\uff2e", "ANN"), ("\ufb01ona", "fiona"),
                                             ("Zo\u00eb", "Zo\u00eb"), ("Zoe\u0308", "Zo\u00eb")])
def test_names_are_put_in_nfkc_form(given: str, kept: str) -> None:
    assert normalized(given) == kept


@pytest.mark.parametrize("name", ["Ann\u200b", "\u202eAnn", "A\u2066nn", "An\u00adn", "\ufeffAnn", "An\u2028n",
                                  "\u3164Ann"])
def test_invisible_and_bidi_characters_are_refused_with_a_sentence(name: str) -> None:
    with pytest.raises(Refused, match="invisible or text-reordering character") as refused:
        normalized(name)
    assert refused.value.code == "bad_field"


@pytest.mark.parametrize("lookalike", ["\u0410lice", "ALICE", "alic\u00e9", "A1ice", "Al ice", "\u0391lice"])
def test_look_alikes_share_a_skeleton(lookalike: str) -> None:
    assert skeleton(lookalike) == skeleton("Alice")


@pytest.mark.parametrize("lookalike", ["\u0417ed", "\u0396ed", "ZED"])
def test_a_cyrillic_or_greek_capital_z_passes_for_a_latin_one(lookalike: str) -> None:
    assert skeleton(lookalike) == skeleton("Zed")


@pytest.mark.parametrize("other", ["Alina", "Bob", "Alice2x", "Alce"])
def test_different_names_do_not(other: str) -> None:
    assert skeleton(other) != skeleton("Alice")


def test_the_name_of_a_player_away_gets_a_number_and_a_look_alike_is_refused_naming_whom_it_mimics() -> None:
    assert unique("Alice", {"Bob"}) == "Alice"
    known = NameBook()
    known.add("Alice")
    known.add("Alice 2")
    assert unique("Alice", set(), known) == "Alice 3"  # both away: perhaps Alice herself, on another machine
    with pytest.raises(Refused, match="'\u0410lice' looks too much like 'Alice', who is here") as refused:
        unique("\u0410lice", {"Alice"})
    assert refused.value.code == "name_taken"


def test_the_exact_name_of_someone_here_is_refused_as_a_look_alike_is() -> None:
    known = NameBook()
    known.add("Alice")
    with pytest.raises(Refused, match="'Alice' is the name of a player connected now: choose a name") as refused:
        unique("Alice", set(), known, connected=lambda name: name == "Alice")
    assert refused.value.code == "name_taken"
    with pytest.raises(Refused, match="choose a name others can tell apart"):
        unique("Alice", {"Alice"})  # logging in at this moment


@pytest.mark.parametrize(("name", "bot"), [("Bot Ada", True), ("bot", True), ("B0T-7", True), ("BOT_x", True),
                                           ("Botticelli", False), ("Robot", False), ("Abbot Ada", False)])
def test_a_person_may_not_take_a_name_that_passes_for_a_bot_s(name: str, bot: bool) -> None:
    assert passes_for_a_bot(name) == bot
    if bot:
        with pytest.raises(Refused, match="reads as a bot's name") as refused:
            unique(name, set())
        assert refused.value.code == "name_taken"
        assert unique(name, set(), person=False) == name  # a network bot (hanabi-bot) says it is one
    else:
        assert unique(name, set()) == name


async def test_twelve_logins_with_one_new_name_at_the_same_moment_get_it_once(connect: Connect) -> None:
    clients = [await connect(f"Zed{i}", hello=False) for i in range(12)]  # 12 peers: under the per-address cap
    names: list[str] = []

    async def login(client: Client) -> None:
        await client.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Zed"))
        answer = await client.expect((Welcome, ErrorReply))  # type: ignore[arg-type]
        names.append(answer.player if isinstance(answer, Welcome) else answer.code)

    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            for c in clients:
                nursery.start_soon(login, c)
    assert sorted(names) == ["Zed"] + ["name_taken"] * 11


async def test_the_exact_name_of_a_connected_player_is_refused_and_of_one_away_numbered(
        server: Server, connect: Connect) -> None:
    alice = await connect("Alice")
    again = await connect("Eve", hello=False)
    await again.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Alice"))
    refused = await again.expect(ErrorReply)
    assert (refused.code, refused.request) == ("name_taken", "hello") and "choose a name" in refused.message
    await alice.stream.aclose()  # away now: the same name may be Alice on another machine
    await eventually(lambda: all(p.name != "Alice" for p in server.lobby.online), "Alice to be away")
    assert (await again.hello("Alice")).player == "Alice 2"


async def test_a_look_alike_login_is_refused_and_the_connection_may_try_another_name(connect: Connect) -> None:
    await connect("Alice")
    mallory = await connect("Mallory", hello=False)
    await mallory.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Al\u0456ce"))  # Cyrillic i
    refused = await mallory.expect(ErrorReply)
    assert (refused.code, refused.request) == ("name_taken", "hello") and "'Alice', who is here" in refused.message
    await mallory.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Ann\u200b"))
    assert "invisible" in (await mallory.expect(ErrorReply)).message
    assert (await mallory.hello("Mallory")).player == "Mallory"
    assert not mallory.take(Welcome)


async def test_a_look_alike_of_a_player_the_store_knows_is_refused_after_a_restart(tmp_path: Path) -> None:
    """Over real TCP: Zed played here and may resume; after a restart, no one is connected, yet "\u0417ed"
    (a Cyrillic Ze) is refused as Zed's look-alike, a second "Zed" is numbered, and Zed's resume keeps the name."""
    start = functools.partial(serve, "127.0.0.1", 0, str(tmp_path / "names.sqlite3"), config=FAST)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        zed = await _tcp(server.port, "Zed")
        token = (await zed.hello("Zed")).resume
        await server.stop()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(start)
        mallory = await _tcp(server.port, "Mallory")
        await mallory.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="\u0417ed"))
        refused = await mallory.expect(ErrorReply)
        assert (refused.code, refused.request) == ("name_taken", "hello") and "'Zed'" in refused.message
        assert (await mallory.hello("Zed")).player == "Zed 2"
        assert (await (await _tcp(server.port, "Zed")).hello("Zed", token)).player == "Zed"
        nursery.cancel_scope.cancel()


async def _tcp(port: int, name: str) -> Client:
    return Client(await trio.open_tcp_stream("127.0.0.1", port), name)
