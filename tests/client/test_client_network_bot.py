"""A network bot (``hanabi-bot`` the server counts as a bot) is shown to the people at its table as a bot."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

from hanabi.client.model import ClientModel
from hanabi.client.screens import lobby_fragments, table_line
from hanabi.protocol.messages import SeatInfo


def test_the_lobby_and_the_table_mark_a_network_bot_as_a_bot(kit: ModuleType) -> None:
    plain = kit.table(("alice", "Robo"))
    robo = SeatInfo("Robo", bot=False, connected=True, network_bot=True)
    table = replace(plain, players=(plain.players[0], robo), running=True)
    model = ClientModel(tables=(table,), table=table, seat=0)
    text = "".join(t for _, t in lobby_fragments(model, 0, 200))
    assert "alice, Robo*" in text  # the table's row: a bot's name is starred
    assert "seat 2: Robo [network bot]" in text and "seat 1: alice (host)\n" in text
    # Under the board: the bots' level, since a bot sits at the table (a table of people only leaves it out).
    assert "bots play beginner" in "".join(t for _, t in table_line(model))
    people = replace(model, table=replace(plain, running=True))
    assert "bots play" not in "".join(t for _, t in table_line(people))
