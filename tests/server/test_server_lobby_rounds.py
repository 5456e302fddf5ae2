"""The lobby's news does not hold the event loop: over real TCP, the batch that goes to every player in the lobby
is sent a slice at a time, other tasks running between, so no round of the loop writes it to them all.

A round is what Trio runs between two waits for I/O; an instrument marks them, and the connections' sends of
the news are counted per round. Counting, not timing: the test holds on a machine however busy.
"""

from __future__ import annotations

import pytest
import trio
from hanabi.protocol.messages import CreateTable, Joined, TableChanged
from hanabi.server import connection
from hanabi.server.lobby import NEWS_SLICE

from .conftest import Connect, config_with

NEWS = b"\xadtable_changed"  # the frame type as msgpack writes it


class Rounds(trio.abc.Instrument):
    """Counts, for each round of the event loop, the frames of table news the connections were handed."""

    def __init__(self) -> None:
        self.counts = [0]

    def before_io_wait(self, timeout: float) -> None:
        if self.counts[-1]:
            self.counts.append(0)


CROWD = config_with(lobby_interval=0.05, ping_interval=600.0, connects_per_second=1000.0,
                    max_players_per_address=1000)  # a crowd from one address, no pings between the news


@pytest.mark.parametrize("fast_config", [CROWD])
async def test_the_lobby_s_news_reaches_a_crowd_a_slice_per_round(
        tcp_connect: Connect, monkeypatch: pytest.MonkeyPatch) -> None:
    crowd = [await tcp_connect(f"Lobby{i}") for i in range(3 * NEWS_SLICE)]
    rounds = Rounds()
    send_frame = connection.Connection.send_frame

    def counted(self: connection.Connection, data: bytes) -> None:
        if NEWS in data:
            rounds.counts[-1] += 1
        send_frame(self, data)

    monkeypatch.setattr(connection.Connection, "send_frame", counted)
    trio.lowlevel.add_instrument(rounds)
    try:
        host = await tcp_connect("Host")
        await host.send(CreateTable(name="news", seats=3))
        table = (await host.expect(Joined)).table.id
        for client in crowd:
            await client.expect(TableChanged, where=lambda m: m.table.id == table)
    finally:
        trio.lowlevel.remove_instrument(rounds)
    assert sum(rounds.counts) >= len(crowd)
    assert max(rounds.counts) <= NEWS_SLICE + 1, rounds.counts  # a slice, and the host's own news
