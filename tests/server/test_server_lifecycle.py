"""The connection's lifecycle as a plain state machine: no socket, no Trio, only values and a clock."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hanabi.protocol import (
    PROTOCOL_VERSION,
    ErrorCode,
    ErrorReply,
    Goodbye,
    GoodbyeReason,
    Hello,
    ListTables,
    Ping,
    Pong,
    ProtocolError,
)
from hanabi.server import ServerConfig
from hanabi.server.lifecycle import Answer, Close, Drop, Handle, Lifecycle, Login, Phase

CONFIG = ServerConfig(rate=10.0, burst=3, flood_limit=4)
HELLO = Hello(protocol=PROTOCOL_VERSION, program="test", name="Ann")


def opened(config: ServerConfig = CONFIG) -> Lifecycle:
    life = Lifecycle(config, now=0.0)
    assert life.receive(HELLO, 0.0) == Login(HELLO)
    life.logged_in()
    return life


def test_hello_comes_first_and_anything_else_is_refused_until_then() -> None:
    life = Lifecycle(CONFIG, now=0.0)
    step = life.receive(ListTables(id=7), 0.0)
    assert isinstance(step, Answer) and isinstance(step.message, ErrorReply)
    assert (step.message.code, step.message.request, step.message.id) == (ErrorCode.NOT_LOGGED_IN, "list_tables", 7)
    assert life.phase is Phase.HANDSHAKE
    assert life.receive(HELLO, 0.0) == Login(HELLO)
    life.logged_in()
    assert life.phase is Phase.OPEN
    assert life.receive(ListTables(), 0.0) == Handle(ListTables())


def test_a_hello_of_another_version_closes_with_a_goodbye_naming_both() -> None:
    life = Lifecycle(CONFIG, now=0.0)
    step = life.receive(replace(HELLO, protocol=PROTOCOL_VERSION + 1), 0.0)
    assert isinstance(step, Close) and step.reason is GoodbyeReason.PROTOCOL_VERSION
    assert str(PROTOCOL_VERSION) in step.message and str(PROTOCOL_VERSION + 1) in step.message
    assert life.phase is Phase.CLOSING and life.farewell == step and not life.reading


def test_pings_are_answered_and_pongs_dropped_once_logged_in_and_hello_comes_once() -> None:
    life = opened(replace(CONFIG, burst=10))
    again = life.receive(HELLO, 0.0)
    assert isinstance(again, Answer) and again.message.code == ErrorCode.ALREADY_LOGGED_IN
    assert life.receive(Ping(n=5, id=2), 0.0) == Answer(Pong(n=5, id=2))
    assert life.receive(Pong(n=1), 0.0) == Drop()


def test_bad_frames_are_answered_and_a_fatal_one_closes() -> None:
    life = opened()
    step = life.receive(ProtocolError(ErrorCode.BAD_FIELD, "chat.text: too long", request="chat", id=3), 0.0)
    assert isinstance(step, Answer) and step.message.code == ErrorCode.BAD_FIELD and step.message.id == 3
    assert life.phase is Phase.OPEN
    step = life.receive(ProtocolError(ErrorCode.FRAME_TOO_LARGE, "too big", fatal=True), 0.0)
    assert isinstance(step, Close) and step.reason is GoodbyeReason.PROTOCOL_ERROR
    assert life.phase is Phase.CLOSING


def test_over_the_rate_the_first_request_is_refused_the_next_dropped_and_a_flood_closes() -> None:
    life = opened()  # the hello took one of the three in the burst
    assert all(isinstance(life.receive(ListTables(), 0.0), Handle) for _ in range(2))
    refused = life.receive(ListTables(id=9), 0.0)
    assert isinstance(refused, Answer) and refused.message.code == ErrorCode.RATE_LIMITED
    assert life.receive(ListTables(), 0.0) == Drop()
    assert life.receive(ListTables(), 0.0) == Drop()
    flood = life.receive(ListTables(), 0.0)
    assert isinstance(flood, Close) and flood.reason is GoodbyeReason.FLOOD


def test_the_rate_refills_with_time_and_a_request_let_through_resets_the_count() -> None:
    life = opened()
    for _ in range(2):
        life.receive(ListTables(), 0.0)
    assert isinstance(life.receive(ListTables(), 0.0), Answer)  # refused for the rate
    assert isinstance(life.receive(ListTables(), 0.2), Handle)  # 0.2 s at 10/s: two more
    assert isinstance(life.receive(ListTables(), 0.2), Handle)
    refused = life.receive(ListTables(), 0.2)
    assert isinstance(refused, Answer)  # counted afresh: answered again, not dropped


def test_bytes_past_their_rate_make_the_reader_wait_in_proportion() -> None:
    """Decoding is the work: bytes have a rate of their own."""
    life = Lifecycle(replace(CONFIG, byte_rate=5120, byte_burst=2048), now=0.0)
    assert life.read(2048, 0.0) == 0.0  # the burst
    assert life.read(1024, 0.0) == pytest.approx(0.2)  # 1 KiB in debt at 5 KiB/s
    assert life.read(0, 0.2) == 0.0  # paid off by waiting
    assert life.read(4096, 1.0) == pytest.approx(0.4)  # refilled to the burst only, not beyond


def test_a_goodbye_ends_the_connection_without_one_back_and_the_first_reason_stands() -> None:
    life = opened()
    assert life.receive(Goodbye(reason="client_quit", message="bye"), 0.0) == Drop()
    assert life.phase is Phase.CLOSING and life.farewell is None
    assert not life.close(GoodbyeReason.IDLE, "late")
    assert "client_quit" in life.why
    life.closed("gone")
    assert life.phase is Phase.CLOSED and "client_quit" in life.why


@pytest.mark.parametrize("reason", [GoodbyeReason.REPLACED, GoodbyeReason.SERVER_SHUTDOWN, GoodbyeReason.IDLE])
def test_closing_from_outside_keeps_its_goodbye_for_the_end(reason: GoodbyeReason) -> None:
    life = opened()
    assert life.close(reason, "x" * 1000)
    assert life.farewell is not None and life.farewell.reason is reason and len(life.farewell.message) <= 500
    assert not life.reading


def test_a_login_saved_after_the_connection_began_closing_does_not_reopen_it() -> None:
    life = Lifecycle(CONFIG, now=0.0)
    assert life.receive(HELLO, 0.0) == Login(HELLO)
    assert life.close(GoodbyeReason.SERVER_SHUTDOWN, "stopping")  # while the login was being saved
    assert not life.logged_in()
    assert life.phase is Phase.CLOSING and not life.reading
    assert life.farewell == Close(GoodbyeReason.SERVER_SHUTDOWN, "stopping")
