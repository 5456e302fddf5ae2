"""docs/protocol.md keeps up with the code: every type, code and reason described, the example frame real."""

from __future__ import annotations

import re
from pathlib import Path

from hanabi.protocol import MESSAGE_TYPES, PROTOCOL_VERSION, Decoder, ErrorCode, GoodbyeReason, Ping, encode
from hanabi.protocol.engine_wire import MAX_ARRAY, MAX_EVENTS
from hanabi.protocol.framing import MAX_MAP
from hanabi.protocol.messages import LIST_MAX, Hello

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def test_every_message_type_has_a_section() -> None:
    missing = [t for t in MESSAGE_TYPES if f"**`{t}`**" not in DOC]
    assert not missing, f"docs/protocol.md does not describe {missing}"


def test_every_error_code_and_goodbye_reason_is_listed() -> None:
    assert [c.value for c in ErrorCode if f"| `{c.value}` |" not in DOC] == []
    assert [r.value for r in GoodbyeReason if f"| `{r.value}` |" not in DOC] == []


def test_the_example_frame_is_the_real_one() -> None:
    section = DOC[DOC.index("## 2 Frames"):DOC.index("## 3 msgpack rules")]
    dump = section[section.index("00000053"):section.index("```", section.index("00000053"))]
    # Each line is hex, then (after a wide gap) what it means; a line of only meaning continues the one above.
    hexed = ""
    for line in dump.splitlines():
        code = re.split(r"\s{3,}", line.strip())[0]
        if code and all(re.fullmatch(r"(?:[0-9a-f]{2})+", word) for word in code.split()):
            hexed += code.replace(" ", "")
    assert bytes.fromhex(hexed) == encode(Hello(PROTOCOL_VERSION, "hanabi-lan 0.1.0", "alice", id=1))


def test_limits_quoted_in_the_doc_match_the_code() -> None:
    assert f"tables in `tables`, games in `games` | {LIST_MAX} |" in DOC
    assert f"events in a view | {MAX_EVENTS} (64 pages of 64) |" in DOC
    assert f"items in any array | {MAX_ARRAY} |" in DOC and f"entries in any map | {MAX_MAP} |" in DOC


def test_the_dump_example_of_the_checklist_is_a_real_frame() -> None:
    line = next(x for x in DOC.splitlines() if x.startswith('echo "') and "hanabi.protocol.dump --hex" in x)
    hexed = line.split('"')[1]
    assert Decoder().feed(bytes.fromhex("".join(hexed.split()))) == [Ping(5)]
