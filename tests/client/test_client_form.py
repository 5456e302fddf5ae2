"""The new-table form's choices, as → and ← cycle them."""

from __future__ import annotations

from hanabi.client.form import FIELDS, TableForm


def test_the_clock_choices_go_from_off_to_the_shortest_then_longer_ones() -> None:
    form = TableForm(name="Friday", field=FIELDS.index("clock"))
    seen = [form.value_text("clock")]
    for _ in range(4):
        form.change(1)
        seen.append(form.value_text("clock"))
    assert seen[0] == "off (untimed)"
    starts = [text.split(" + ")[0] for text in seen[1:]]
    assert starts == ["0:30", "1:00", "2:00", "5:00"], seen
    form.change(1)
    assert form.value_text("clock") == "off (untimed)"  # round again
    form.change(-1)
    assert form.value_text("clock").startswith("5:00")  # ← from off: the longest
