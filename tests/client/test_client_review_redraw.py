"""The review works out each step once: its log is the whole game's, told once per file and cut at the step, and
its bar is made once per step and width; what shows is what a fresh telling shows."""

from __future__ import annotations

from dataclasses import replace

from hanabi.client.review import display_model, game_log
from hanabi.engine.replay import SeatHolder
from hanabi.protocol.messages import Review
from prompt_toolkit.data_structures import Size

from .test_client_review import RIGHT, in_review


def test_each_step_of_a_review_tells_the_log_a_fresh_telling_tells(term, kit) -> None:
    _, last = in_review(term, kit, step=0)
    review = term.app.review.current()
    assert review is not None and review.last == last
    told = game_log(review)
    assert len(told) == len(review.states[-1].events) > 10
    live = term.store.model
    for step in range(last + 1):
        at = replace(review, step=step)
        fresh = display_model(live, at)
        # All the same but the hands the log followed, which only a telling that goes on needs.
        assert display_model(live, at, told) == replace(fresh, hands=()) and len(fresh.log) >= step
        term.feed(Review(1, 1, "alice", step, last))
        assert term.app.shown_model().log == fresh.log  # the screen's model, cut from the log told once


def test_a_seat_handed_on_names_its_new_holder_in_the_log_told_once(term, kit) -> None:
    _, last = in_review(term, kit, step=0)
    review = term.app.review.current()
    assert review is not None
    handed = replace(review, replay=replace(review.replay, holders=(SeatHolder(4, 1, "zed", False),)), step=last)
    told = game_log(handed)
    assert any("zed" in "".join(text for _, text, *_ in line.fragments) for line in told)
    assert display_model(term.store.model, handed, told).log == display_model(term.store.model, handed).log


def test_the_review_bar_follows_the_step_and_the_width(term, kit) -> None:
    _, last = in_review(term, kit, step=2)
    assert f"step 2/{last} · following alice" in term.screen()
    term.feed(Review(1, 1, "alice", 5, last))
    assert f"step 5/{last} · following alice" in term.screen() and f"step 2/{last}" not in term.screen()
    term.type(RIGHT)  # alone: the bar says how to follow again, where it has room
    assert f"step 6/{last} · on your own (f follows alice again)" in term.screen()
    term.app.application.output.size = Size(rows=24, columns=50)  # type: ignore[attr-defined]
    term.columns = 50
    narrow = term.screen()
    assert f"step 6/{last} · on your own\n" in narrow + "\n" and "(f follows alice again)" not in narrow
