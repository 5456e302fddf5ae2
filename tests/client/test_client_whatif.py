"""What if in the review, on the client: the leader's keys go to the server, a follower's screen shows the
table's what if, and one stepping alone plays one of their own with the engine. Keys through a pipe, 80x24."""

from __future__ import annotations

import json

from hanabi.engine import Discard, GameState, Play, apply, legal_actions, played, what_if
from hanabi.engine.replay import dumps, from_json
from hanabi.protocol.messages import (
    GameOver,
    GameStarted,
    HypoAction,
    HypoBack,
    HypoBot,
    HypoEnd,
    HypoReveal,
    HypoStart,
    Hypothetical,
    Joined,
    ReplayFile,
    Review,
    Welcome,
)

LEFT, ESC = "\x1b[D", "\x1b"


def finished(kit) -> GameState:
    """A 3-player game played to its end by discarding whenever allowed (else a clue)."""
    state = kit.game()
    while not state.over:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    return state


def in_review(term, kit, me: int, leader: str, step: int) -> GameState:
    """``me`` at table 1 reviewing its finished game 1, ``leader`` showing ``step``; the game as its file holds it."""
    state = finished(kit)
    text = dumps(state, kit.NAMES)
    last = sum(1 for e in state.events if hasattr(e, "action"))
    term.feed(Welcome(3, "server", kit.NAMES[me], "tok", ""), Joined(kit.table(), me), GameStarted(1, 1),
              kit.view_message(state, me, 1), GameOver(1, state.outcome, state.deck, "7"),
              ReplayFile(1, text), Review(1, 1, leader, step, last))
    term.sent.clear()
    return from_json(json.loads(text)).state


def discard_allowed_at(kit, after: int) -> int:
    """The first step from ``after`` on where the seat to act may discard (a clue token has been spent)."""
    state = finished(kit)
    return next(s for s in range(after, 40) if what_if(state, s).state.clue_tokens < 8)


def row_of(screen: str, name: str) -> str:
    return next(line for line in screen.splitlines() if f" {name} " in line or line.endswith(f" {name}"))


def test_the_leader_s_keys_play_the_table_s_what_if(term, kit) -> None:
    step = discard_allowed_at(kit, 4)
    final = in_review(term, kit, me=0, leader="alice", step=step)
    assert " h what if " in term.screen().splitlines()[-1] + " "
    assert term.type("h") == [HypoStart()]
    term.feed(Hypothetical(1, 1, step))
    screen = term.screen()
    assert f"What if · from step {step} · 0 moves · alice's" in screen
    assert " b bot " in screen.splitlines()[-1] and " h leave " in screen.splitlines()[-1]
    what = what_if(final, step)
    slot1 = what.state.hands[what.state.current][0]
    term.sent.clear()
    sent = term.type("d1")
    assert sent == [HypoAction(Discard(slot1))], term.store.model.status  # the seat to act's slot 1
    term.feed(Hypothetical(1, 1, step, (Discard(slot1),)))
    assert "1 move ·" in term.screen()
    term.sent.clear()
    assert term.type("b" + LEFT + "r") == [HypoBot(), HypoBack(), HypoReveal(True)]
    term.sent.clear()
    assert term.type(ESC) == [HypoEnd()]


def test_a_follower_sees_the_leader_s_what_if_with_drawn_cards_unknown_until_revealed(term, kit) -> None:
    final = in_review(term, kit, me=1, leader="alice", step=6)
    what = what_if(final, 6)
    seat = what.state.current
    first = what.state.hands[seat][0]
    what = played(what, Play(first))
    drawn = len(what.base.deck) - what.base.deck_left
    term.feed(Hypothetical(1, 1, 6, (Play(first),)))
    screen = term.screen()
    assert "What if · from step 6 · 1 move · alice's · drawn cards ??" in screen
    assert "— what if, from step 6 —" in screen  # the log marks the moves that never happened
    assert "??" in row_of(screen, kit.NAMES[seat])
    assert term.type("d1") == []  # only the leader plays it
    assert "alice plays this what if" in term.store.model.status
    term.feed(Hypothetical(1, 1, 6, (Play(first),), True))
    screen = term.screen()
    assert "??" not in row_of(screen, kit.NAMES[seat]) and str(final.deck[drawn]) in row_of(screen, kit.NAMES[seat])
    term.feed(Hypothetical(1, 1, None))
    assert "What if" not in term.screen() and "step 6/" in term.screen()


def test_stepping_alone_a_what_if_is_one_s_own_and_goes_nowhere(term, kit) -> None:
    step = discard_allowed_at(kit, 5)
    final = in_review(term, kit, me=1, leader="alice", step=step)
    seat = what_if(final, step).state.current
    assert term.type("h") == []  # a follower's what if is their own: nothing goes to the server
    assert f"What if · from step {step} · 0 moves · yours" in term.screen()
    term.type("d1")
    assert "1 move" in term.screen()
    term.type("b")  # the house bot plays the next seat, here, with the engine
    assert "2 moves" in term.screen()
    assert term.store.model.status.startswith(f"{kit.NAMES[(seat + 1) % 3]} (the house bot):")
    term.type(LEFT)
    assert "1 move ·" in term.screen()
    term.type("h")
    screen = term.screen()
    assert "What if" not in screen and f"step {step}/" in screen and "on your own" in screen
    assert term.sent == []


def test_a_follower_s_keys_in_the_leader_s_what_if_say_who_plays_it_and_esc_steps_on_alone(term, kit) -> None:
    in_review(term, kit, me=2, leader="alice", step=4)
    term.feed(Hypothetical(1, 1, 4))
    for key in ("b", LEFT, "r"):
        assert term.type(key) == []
        assert "alice plays this what if for everyone" in term.store.model.status
    term.type(ESC)
    screen = term.screen()
    assert "What if" not in screen and "step 4/" in screen and "on your own" in screen
    assert term.sent == []


def test_one_s_own_what_if_reveals_drawn_cards_and_refuses_an_illegal_move(term, kit) -> None:
    final = in_review(term, kit, me=1, leader="alice", step=0)  # the deal: every clue token in hand
    term.type("h")
    term.type("d1")  # no discard with 8 clue tokens: the engine's reason
    assert term.store.model.status.startswith("Not in this what if: cannot discard")
    what = what_if(final, 0)
    seat = what.state.current
    term.type("p1y")  # a blind play: a card is drawn, unknown
    drawn = final.deck[len(what.base.deck) - what.base.deck_left]
    assert "??" in row_of(term.screen(), kit.NAMES[seat])
    term.type("r")
    screen = term.screen()
    assert "drawn cards shown" in screen and str(drawn) in row_of(screen, kit.NAMES[seat])
    assert term.sent == []


def test_a_follower_s_key_line_in_the_leader_s_what_if_offers_only_the_keys_they_can_use(term, kit) -> None:
    in_review(term, kit, me=2, leader="alice", step=4)
    term.feed(Hypothetical(1, 1, 4))
    line = term.screen().splitlines()[-1] + " "
    assert " h leave " in line
    for offered in ("p d c move", " b bot ", "← back", " r reveal "):
        assert offered not in line, line
