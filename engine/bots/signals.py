"""Keep signals: a discard between two house bots that says "your chop must be kept".

At two players, most critical cards the bots lose are thrown with no clue
token left: the partner sees the card on our chop but has no token to save
it with. A discard gives a token back, and a discard the rules would never
make can carry the save itself. A bot's normal discard is known trash or its
chop, and it never discards while it holds a card it knows is playable. So,
at a table of house bots only, two players, with no clue token:

* discarding while holding a card everyone knows is playable, or
* discarding an unclued card that is not the chop

means "the card on your chop is critical (or a playable card no one else
holds): keep it". Its holder then treats that card as saved, and its chop
moves to the next unclued card. See docs/bots.md, *Keep signals*.

``read_discard`` is the reading (every bot replays it, the signaller too);
``keep_signal`` is the signaller's choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Discard
from ..options import MAX_STRIKES
from .memory import Table

if TYPE_CHECKING:
    from .hgroup import Turn


def signals_on(t: Table) -> bool:
    """Whether a discard can carry a keep signal now: two house bots, no clue token, a strike to spare."""
    return t.config.players == 2 and not t.people and t.tokens == 0 and t.strikes < MAX_STRIKES - 1


def known_playable(t: Table, order: int) -> bool:
    """Whether the holder of ``order`` knows it is playable, by the public record and the conventions."""
    m = t.know_conv(order)
    return bool(m) and t.all_playable(m)


def is_signal(t: Table, seat: int, order: int) -> bool:
    """Whether ``seat`` throwing ``order`` is a discard the rules would not make: a keep signal."""
    if not signals_on(t):
        return False
    hand = t.hands[seat]
    if any(known_playable(t, o) for o in hand if o != order):
        return True  # a play was withheld
    chop = t.chop(seat)
    if chop is None or order == chop or order in t.clued or order in t.play:
        return False
    # A card the count told its holder was trash is thrown first by the rules: not a signal when it is seen
    # to be trash (so the signal is never sent with one; see ``keep_signal``).
    card = t.ids.get(order)
    return card is None or not t.dead(card)


def keep_mask(t: Table) -> int:
    """What a card kept by a signal may be: a critical card."""
    return t.critical_mask()


def read_discard(t: Table, seat: int, order: int) -> None:
    """Replay one discard (before it leaves the hand): a keep signal marks the partner's chop as saved."""
    if not is_signal(t, seat, order):
        return
    partner = (seat + 1) % t.config.players
    chop = t.chop(partner)
    if chop is None:
        return
    t.clued.add(chop)
    t.saved.add(chop)
    t.conv[chop] = t.conv.get(chop, t.all) & keep_mask(t) or keep_mask(t)


def keep_signal(turn: Turn) -> tuple[Discard, str] | None:
    """Our discard that tells our partner to keep its chop, when it would throw it and we have no token."""
    t = turn.t
    if not signals_on(t) or turn.view.final_turns_left is not None:
        return None
    partner = (turn.me + 1) % t.config.players
    chop = t.chop(partner)
    if chop is None or not t.critical(t.ids[chop]) or turn.busy(partner):
        return None
    hand = t.hands[turn.me]
    own_chop = t.chop(turn.me)
    if any(known_playable(t, o) and turn.is_playable(o) for o in hand):
        # Hold the play for a turn: the discard that replaces it is the signal (known trash first).
        trash = [o for o in hand if turn.is_trash(o) and not known_playable(t, o)]
        throw = trash[0] if trash else own_chop
    else:
        odd = [o for o in hand if o != own_chop and o not in t.clued and o not in t.play and not turn.is_trash(o)]
        throw = min(odd, key=lambda o: (turn.keep_value(o), hand.index(o))) if odd and own_chop is not None else None
    if throw is None or not is_signal(t, turn.me, throw):
        return None
    # The reason is shown to our partner: it must not name the card on their chop (the signal says no more
    # than "keep it").
    return Discard(throw), (f"no clue token left: discarding my {turn.slot(throw)} out of turn, "
                            "the signal to keep my partner's chop")
