"""Hypothesis: any valid message, built from the field specs themselves, survives encode -> Decoder unchanged.

The strategies are derived from each message's annotated specs (ranges,
lengths, allowed characters), so a limit changed in messages.py is exercised
here without editing this file. Engine values (views, events, outcomes,
cards) come from real games.
"""

from __future__ import annotations

import os
import random
from typing import Any

from hanabi.engine import (
    Card,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    Outcome,
    Play,
    Suit,
    Variant,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.engine.bots import LEVELS
from hanabi.protocol import MESSAGE_TYPES, ActionRequest, Decoder, Message, TableInfo, encode
from hanabi.protocol.engine_wire import CARD_NAMES, MAX_DETAIL
from hanabi.protocol.fields import MAX_SAFE_INT, Bool, Choice, Custom, Ident, Int, ListOf, Opt, Spec, Text, Token
from hanabi.protocol.messages import _PLANS, Record
from hypothesis import given, settings
from hypothesis import strategies as st

SCALE = max(1, int(os.environ.get("HANABI_FUZZ", "1")))  # see test_protocol_fuzz.py
PROPS = settings(max_examples=(60 if settings.get_current_profile_name() == "thorough" else 40) * SCALE)


def _games() -> list[Any]:
    rng = random.Random(3)
    states = []
    for variant in Variant:
        state = new_game(GameConfig(players=rng.randrange(2, 6), variant=variant), seed=rng.randrange(1000))
        while not state.over:
            states.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


STATES = _games()
VIEWS = [view_for(s, seat) for s in STATES[::9] for seat in [None, *range(s.players)]]
EVENTS = [e for s in STATES[-1:] for e in s.events] + [e for s in STATES if s.over for e in s.events[-3:]]
ACTIONS = [e.action for e in EVENTS if hasattr(e, "action")]

# Text as a peer may send it: any character but the control characters the protocol refuses.
_TEXT_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters=[
    *map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0)), "\u2028", "\u2029"])
_MULTILINE_CHARS = st.one_of(_TEXT_CHARS, st.sampled_from("\n\t"))


def strategy(spec: Spec[Any]) -> st.SearchStrategy[Any]:
    if isinstance(spec, Int):
        return st.integers(spec.lo, spec.hi) | st.sampled_from([spec.lo, spec.hi])
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Text):
        text = st.text(_MULTILINE_CHARS if spec.multiline else _TEXT_CHARS, min_size=spec.lo,
                       max_size=min(spec.hi, 80))
        return text.filter(lambda t: t == t.strip()) if spec.trimmed else text
    if isinstance(spec, Ident):
        return st.from_regex(r"[a-z][a-z0-9_]{0,31}", fullmatch=True)
    if isinstance(spec, Token):
        return st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=spec.hi)
    if isinstance(spec, Choice):
        return st.sampled_from(list(spec.enum_type))
    if isinstance(spec, Opt):
        return st.none() | strategy(spec.inner)
    if isinstance(spec, ListOf):
        return st.lists(strategy(spec.item), min_size=spec.lo, max_size=min(spec.hi, 8)).map(tuple)
    if isinstance(spec, Record):
        return record(spec.cls)
    if isinstance(spec, Custom):
        text = spec.describe()
        if "card" in text:
            return st.sampled_from(sorted(CARD_NAMES.values(), key=lambda c: c.identity))
        if "view" in text:
            return st.sampled_from(VIEWS)
        if "event" in text:
            return st.sampled_from(EVENTS)
        if "outcome" in text:
            return outcomes()
        if "beginner" in text:
            return st.sampled_from(LEVELS)
        if "action" in text:
            return st.sampled_from(ACTIONS)
    raise AssertionError(f"no strategy for {spec!r}")


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    max_score = draw(st.sampled_from([25, 30]))
    return Outcome(draw(st.sampled_from(list(EndReason))), draw(st.integers(0, max_score)), max_score,
                   draw(st.text(_MULTILINE_CHARS, max_size=MAX_DETAIL // 10)), draw(st.booleans()))


def record(cls: type) -> st.SearchStrategy[Any]:
    fields = {p.name: strategy(p.spec) for p in _PLANS[cls]}
    if cls is TableInfo:
        # One entry per seat, and a host among the seats: the record's own rule.
        @st.composite
        def table(draw: st.DrawFn) -> TableInfo:
            values = {name: draw(s) for name, s in fields.items() if name not in ("players", "host")}
            players_spec = next(p.spec for p in _PLANS[TableInfo] if p.name == "players")
            assert isinstance(players_spec, ListOf)
            seat_info = strategy(players_spec.item)
            values["players"] = tuple(draw(seat_info) for _ in range(values["seats"]))
            values["host"] = draw(st.none() | st.integers(0, values["seats"] - 1))
            return TableInfo(**values)
        return table()
    return st.fixed_dictionaries(fields).map(lambda kw: cls(**kw))


actions = st.one_of(
    st.builds(Play, st.integers(0, 59)),
    st.builds(Discard, st.integers(0, 59)),
    st.builds(lambda t, s: Clue(t, colour=s), st.integers(0, 4), st.sampled_from(list(Suit))),
    st.builds(lambda t, r: Clue(t, rank=r), st.integers(0, 4), st.integers(1, 5)),
)


def message(kind: str) -> st.SearchStrategy[Message]:
    cls = MESSAGE_TYPES[kind]
    if cls is ActionRequest:
        return st.builds(ActionRequest, actions, strategy(Opt(Int(0, MAX_SAFE_INT))))
    return record(cls)


any_message = st.sampled_from(sorted(MESSAGE_TYPES)).flatmap(message)


@PROPS
@given(any_message)
def test_any_valid_message_round_trips(msg: Message) -> None:
    assert Decoder().feed(encode(msg)) == [msg]


@PROPS
@given(st.lists(any_message, min_size=1, max_size=6), st.integers(1, 50))
def test_a_stream_of_valid_messages_in_chunks(messages: list[Message], chunk: int) -> None:
    stream = b"".join(encode(m) for m in messages)
    decoder = Decoder()
    out: list[Message] = []
    for i in range(0, len(stream), chunk):
        out += decoder.feed(stream[i:i + chunk])
    assert out == messages


def test_every_card_name_is_the_engines() -> None:
    assert {str(c): c for c in CARD_NAMES.values()} == CARD_NAMES
    assert CARD_NAMES["M5"] == Card(Suit.MULTICOLOR, 5)
