"""Hypothesis: whatever bytes or msgpack trees arrive, the decoder yields messages or ProtocolError, in bounded memory.

Three sources of input: raw bytes (framing and msgpack parsing), arbitrary
msgpack trees in well-formed frames (envelope and type checks), and real
messages with one value somewhere replaced by an arbitrary one (the field
checks, deep inside views and tables). Example counts are modest: the suite
must stay fast on a shared machine.
"""

from __future__ import annotations

import os
import struct
import tracemalloc
from typing import Any

import msgpack
import pytest
from hanabi.protocol import MESSAGE_TYPES, Decoder, Message, ProtocolError, encode, to_wire
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_samples import all_messages

# HANABI_FUZZ=20 multiplies every example count (for a long hunt; the default keeps the suite quick). The suite runs
# two thirds of the examples of the thorough profile (HYPOTHESIS_PROFILE=thorough, tests/conftest.py): nearly all of
# an example's time is hypothesis building its random tree, not the decoder reading it.
SCALE = max(1, int(os.environ.get("HANABI_FUZZ", "1")))
THOROUGH = settings.get_current_profile_name() == "thorough"
FUZZ = settings(max_examples=(150 if THOROUGH else 100) * SCALE)
SAMPLES = all_messages()
SAMPLE_TREES = [to_wire(m) for m in SAMPLES]


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def decode_all(data: bytes, **kwargs: Any) -> list[Message]:
    """Feed ``data`` and keep going past non-fatal errors; only ProtocolError may escape the decoder."""
    decoder = Decoder(**kwargs)
    out: list[Message] = []
    try:
        decoder.receive(data)
    except ProtocolError as error:  # a header over the cap is refused as soon as it arrives
        assert error.fatal and error.code == "frame_too_large"
        return out
    for _ in range(len(data) + 1):  # every call consumes a frame or ends: this bound is never reached
        try:
            message = decoder.next_message()
        except ProtocolError as error:
            assert error.code and error.message
            if error.fatal:
                return out
            continue
        if message is None:
            return out
        out.append(message)
    raise AssertionError("the decoder did not make progress")


scalars = (
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=True) | st.text(max_size=40) | st.binary(max_size=40)
    | st.builds(msgpack.Timestamp, st.integers(0, 2**32 - 1), st.integers(0, 999_999_999))
    | st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=8))
    | st.sampled_from(["hello", "view", "R3", "red", "play", "clue", "No Variant", "always", ""])
)
keys = st.text(max_size=12) | st.binary(max_size=4) | st.sampled_from(["v", "t", "id", "name", "view", "kind"])
trees = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(keys, children, max_size=6),
    max_leaves=30,
)


def pack(tree: Any) -> bytes | None:
    try:
        return msgpack.packb(tree, use_bin_type=True, datetime=False)
    except (ValueError, TypeError, OverflowError):
        return None


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    decode_all(data)
    decode_all(data, max_frame=16)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bodies_in_well_formed_frames(body: bytes) -> None:
    decode_all(frame(body))


# Fuzzing that only needs to run: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@FUZZ
@given(trees)
def test_arbitrary_msgpack_trees(tree: Any) -> None:
    body = pack(tree)
    if body is not None:
        decode_all(frame(body))


# Fuzzing that only needs to run: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@FUZZ
@given(st.sampled_from(sorted(MESSAGE_TYPES)), st.dictionaries(st.text(max_size=10), trees, max_size=5),
       st.sampled_from([1, 2, 0, -1]))
def test_arbitrary_fields_under_a_real_type(kind: str, fields: dict[str, Any], version: int) -> None:
    body = pack({"v": version, "t": kind, **fields})
    if body is not None:
        decode_all(frame(body), peer=None)


def _mutate(tree: Any, data: st.DataObject) -> Any:
    """A copy of ``tree`` with one node, chosen at random, replaced by an arbitrary tree."""
    if data.draw(st.integers(0, 4)) == 0 or not isinstance(tree, dict | list) or not tree:
        return data.draw(trees)
    if isinstance(tree, dict):
        key = data.draw(st.sampled_from(sorted(tree)))
        if data.draw(st.integers(0, 9)) == 0:
            return {k: v for k, v in tree.items() if k != key}  # or drop a field
        return {**tree, key: _mutate(tree[key], data)}
    i = data.draw(st.integers(0, len(tree) - 1))
    return [*tree[:i], _mutate(tree[i], data), *tree[i + 1:]]


@settings(max_examples=(300 if THOROUGH else 200) * SCALE)
@given(st.integers(0, len(SAMPLE_TREES) - 1), st.data())
def test_real_messages_with_one_value_changed(index: int, data: st.DataObject) -> None:
    body = pack(_mutate(SAMPLE_TREES[index], data))
    if body is not None:
        for message in decode_all(frame(body)):
            # Whatever was accepted is a valid message: it encodes again and decodes to itself.
            assert decode_all(encode(message)) == [message]


@settings(max_examples=40)
@given(st.binary(min_size=1, max_size=64).map(lambda b: (b * (65_000 // len(b) + 1))[:65_000]))
def test_memory_stays_bounded_on_a_full_size_frame(body: bytes) -> None:
    """A 64 KB frame of repeated arbitrary bytes costs at most a few MB to refuse or decode."""
    tracemalloc.start()
    try:
        decode_all(frame(body))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, f"decoding one 64 KB frame peaked at {peak} bytes"


def test_memory_of_the_worst_small_containers() -> None:
    """Many empty maps (the costliest object per byte msgpack can make) in one frame: still bounded."""
    body = b"\xdc\xff\xf0" + b"\x80" * 0xFFF0  # an array of 65520 empty maps
    tracemalloc.start()
    try:
        assert decode_all(frame(body)) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024
