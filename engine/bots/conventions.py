"""How the bots read a clue: focus, play or save, delayed plays, prompts and finesses.

One function, ``read_clue``, gives the meaning of a clue from giver G to
target T using only what G and T *both* see: the public record plus the
cards of every other hand. So the giver, simulating the reading before it
clues, gets exactly the reading the target will make (which is how a bot
knows its clue will not be misread). The rules, in the H-group's words:

* Focus: the chop if the clue newly touches it, else the newest (leftmost)
  newly touched card; a clue touching only old cards focuses its leftmost.
* Chain: for each suit, the firework's height, extended by every clued card
  that G and T both know to be the next card (seen in a third hand, or known
  from clues alone). A play clue's focus is the card right after a chain:
  playable now, or after the chain is played (a *delayed* play clue).
* Prompt: for a colour clue, T's own older clued cards of that colour fill
  gaps in the chain, oldest clue first, newest slot first (T plays them).
* Finesse: if a player between G and T holds the missing card on their
  finesse position (newest unclued card), the focus may be one further; that
  player blind-plays it, and T keeps that meaning only if it happened by
  T's next turn.
* Save: a clue newly touching the chop may also save it: the focus is then
  playable (as above), or critical (every other copy discarded, 5s
  included), or, for a 2 clue, any 2 still needed.
* Good touch: every other card a clue touches is still useful.

``interpret`` applies a reading to a ``Table`` and adds what a third player
learns from seeing the focus card: that one of its own clued cards is being
prompted, or that it is being finessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import Clue
from ..options import CLUE_TOKENS
from .cardmath import bits, ident, rank_of, single, suit_of
from .memory import Pending, Style, Table


@dataclass
class Reading:
    """What one clue means, as its giver and its target both work it out."""

    target: int
    touched: tuple[int, ...]
    know: dict[int, int]  # the target's cards' public knowledge after the clue
    focus: int | None = None
    kind: str = "none"  # "play", "save" or "none" (no touch, or no meaning fits)
    base: int = 0  # identities the focus may be without a finesse
    ext: int = 0  # identities the focus may be through a finesse
    conv: dict[int, int] = field(default_factory=dict)
    prompts: dict[int, int] = field(default_factory=dict)  # target's own card -> identity it must be
    self_order: int | None = None  # a self-finesse: the target's card to blind-play
    on_chop: bool = False  # the focus is the chop, newly touched: the clue may be a save
    heights: list[int] = field(default_factory=list)  # the chains, per suit
    style: Style = "full"  # how giver and target read it (``Table.style``)


def clue_mask(table: Table, clue: Clue) -> int:
    variant = table.config.variant
    return variant.colour_mask(clue.colour) if clue.colour is not None else variant.rank_mask(clue.rank or 1)


def touched_by(table: Table, target: int, clue: Clue) -> tuple[int, ...]:
    """The cards of ``target`` a clue would touch, as this seat sees them (not for its own hand)."""
    mask = clue_mask(table, clue)
    return tuple(o for o in table.hands[target] if mask >> table.ids[o] & 1)


def covering(table: Table, hidden: tuple[int, ...], exclude: int | None, know: dict[int, int]) -> dict[int, int]:
    """Identity -> a clued card of that identity that the seats in ``hidden`` (and everyone) can count on."""
    out: dict[int, int] = {}
    for hand in table.hands:
        for o in hand:
            if o == exclude or (o not in table.clued and o not in table.play):
                continue
            seen = table.visible_id(o, hidden)
            if seen is None:
                k = know[o] if o in know else table.knowledge(o)
                seen = single(k & table.conv.get(o, table.all) or k)
            if seen is not None and seen not in out:
                out[seen] = o
    return out


def save_identities(table: Table, clue: Clue) -> int:
    """What a save clue on the chop may be saving: a critical card, or (2 clue) any 2 still needed."""
    mask = table.critical_mask()
    if clue.rank == 2:
        mask |= sum(1 << i for i in table.copies if rank_of(i) == 2) & ~table.trash_mask()
    return mask


def read_clue(table: Table, giver: int, clue: Clue, touched: tuple[int, ...]) -> Reading:
    """The meaning of ``clue`` from ``giver``, as giver and target both read it (``table`` is unchanged)."""
    target = clue.target
    mask = clue_mask(table, clue)
    hand = table.hands[target]
    know = {}
    for o in hand:
        k = table.knowledge(o)
        know[o] = k & mask if o in touched else k & ~mask
    reading = Reading(target, touched, know)
    if not touched:
        return reading
    style = reading.style = table.style(giver, target)
    new = [o for o in hand if o in touched and o not in table.clued]
    chop = table.chop(target)
    # The chop, when newly touched; else the newest new card; a clue of only old cards, its leftmost.
    focus = (chop if chop in new else new[0]) if new else next(o for o in hand if o in touched)
    reading.focus = focus
    save = reading.on_chop = bool(new) and focus == chop
    hidden = (giver, target)
    prompt_suits = set()
    if clue.colour is not None and style == "full":
        prompt_suits = {s for s in range(table.nsuits) if mask >> ident(s, 1) & 1}
    reading.heights = chains(table, reading, covering(table, hidden, focus, know), prompt_suits)
    if style == "literal":
        return reading  # what the clue says about each card is in ``know``: nothing is read into it
    base = sum(1 << ident(s, h + 1) for s, h in enumerate(reading.heights) if h < 5)
    trash = table.trash_mask()
    ext = 0
    if save:
        base |= save_identities(table, clue)
    elif style == "full":
        ext = finesse_identities(table, giver, target, reading.heights)
    fk = know[focus]
    if fk & (base | ext) & ~trash:
        reading.kind = "save" if save else "play"
        reading.base = base & ~trash
        reading.ext = ext & ~base & ~trash
        reading.conv[focus] = reading.base | reading.ext
    elif not save and focus not in table.clued and style == "full":
        read_self_finesse(table, reading, trash)
    for o in touched:
        if o != focus:
            reading.conv[o] = table.conv.get(o, table.all) & ~trash
    for o, link in reading.prompts.items():
        reading.conv[o] = 1 << link
    return reading


def chains(table: Table, reading: Reading, cover: dict[int, int], prompt_suits: set[int]) -> list[int]:
    """Each suit's chain: its firework's height, extended by the clued cards everyone can count on
    (``cover``), and by the target's own clued cards a colour clue prompts (noted in ``reading.prompts``)."""
    know = reading.know
    older = [o for o in table.hands[reading.target] if o in table.clued and o != reading.focus]
    heights = list(table.fireworks)
    for s in range(table.nsuits):
        while heights[s] < 5:
            link = ident(s, heights[s] + 1)
            if link in cover:
                heights[s] += 1
                continue
            if s in prompt_suits:
                cand = next((o for o in older if o not in reading.prompts
                             and (know[o] & table.conv.get(o, table.all) or know[o]) >> link & 1), None)
                if cand is not None:
                    reading.prompts[cand] = link
                    heights[s] += 1
                    continue
            break
    return heights


def finesse_identities(table: Table, giver: int, target: int, heights: list[int]) -> int:
    """The identities a play clue's focus may be through a finesse: one past a suit's firework, when a player
    between giver and target shows the missing card on their finesse position."""
    hidden = (giver, target)
    finessers = table.finessers(giver, target)
    ext = 0
    for s, h in enumerate(heights):
        # Only the simple finesse: the missing card is playable right now, so it is blind-played at once.
        if h >= 4 or h != table.fireworks[s]:
            continue
        link = ident(s, h + 1)
        for seat in finessers:
            fp = table.finesse_pos(seat)
            if fp is not None and table.visible_id(fp, hidden) == link:
                ext |= 1 << ident(s, h + 2)
                break
    return ext


def read_self_finesse(table: Table, reading: Reading, trash: int) -> None:
    """A play clue no one else can explain: the target holds the missing card on its own finesse position."""
    assert reading.focus is not None
    fp = next((o for o in table.hands[reading.target]
               if o not in table.clued and o not in table.play and o not in reading.touched), None)
    selfext = sum(1 << ident(s, h + 2) for s, h in enumerate(reading.heights) if h <= 3 and h == table.fireworks[s])
    if fp is not None and reading.know[reading.focus] & selfext & ~trash:
        reading.kind = "play"
        reading.ext = selfext & ~trash
        reading.self_order = fp
        reading.conv[reading.focus] = reading.ext


def apply_reading(table: Table, reading: Reading) -> None:
    trash = table.trash_mask()
    for o, k in reading.know.items():
        table.know[o] = k
    for o in reading.touched:
        table.clued.add(o)
        table.clued_at.setdefault(o, table.events_done)
        if reading.style != "literal" and o not in table.good_touch:
            table.good_touch.add(o)
            table.trash_when_clued[o] = trash
    for o, m in reading.conv.items():
        table.conv[o] = m
    if reading.focus is not None:
        if reading.kind == "play":
            table.play.add(reading.focus)
        elif reading.kind == "save":
            table.saved.add(reading.focus)
        if reading.self_order is not None:
            table.play.add(reading.self_order)
            table.pending.append(Pending("self", reading.target, reading.self_order, reading.ext, (),
                                         reading.focus))
        elif reading.ext:
            table.pending.append(Pending("ext", reading.target, reading.focus, reading.ext))


def interpret(table: Table, giver: int, clue: Clue, touched: tuple[int, ...]) -> None:
    """Replay one clue into ``table``: the shared reading, then what this seat alone infers."""
    reading = read_clue(table, giver, clue, touched)
    if reading.style != "full":
        # A clue that tells nothing new about any card it touches cannot have been given to get one played.
        news = any(reading.know[o] != table.knowledge(o) for o in reading.touched)
        apply_reading(table, reading)  # no finesse and no prompt: nothing for a third player to fill in
        if reading.style == "literal" and not table.is_bot(giver) and clue.rank is not None:
            note_rank_clue(table, giver, reading)
        if reading.style == "literal" and not table.is_bot(giver) and table.tokens < CLUE_TOKENS - 1:
            # (With every clue token in hand a person may not discard: their clue may be a filler.)
            note_intent(table, giver, reading, news)
        if reading.style == "literal" and table.is_bot(giver) and not table.is_bot(clue.target):
            note_offer(table, reading)
        return
    finesse_ok = False
    focus_id = table.ids.get(reading.focus) if reading.focus is not None else None
    if (table.me not in (giver, clue.target) and focus_id is not None and rank_of(focus_id) >= 2
            and not (reading.kind != "none" and (reading.base | reading.ext) >> focus_id & 1
                     and reading.self_order is None)):
        # Would giver and target, who see our hand, read a finesse on us if our finesse position
        # held the card just below the focus? (Our own reading cannot tell: it does not see that card.)
        hypo = finesse_on_me(table, giver, clue, touched, focus_id)
        if hypo is not None:
            finesse_ok, reading = True, hypo  # then theirs is the reading to remember
    apply_reading(table, reading)
    if table.me in (giver, clue.target) or reading.focus is None or focus_id is None:
        return
    if table.dead(focus_id) or table.playable(focus_id):
        return
    if reading.on_chop and (table.critical(focus_id) or (clue.rank == 2 and rank_of(focus_id) == 2)):
        return  # a save: nothing to fill in
    target_fp = reading.self_order if reading.self_order is not None else table.finesse_pos(clue.target)
    third_party_duties(table, giver, clue.target, reading.focus, focus_id, target_fp, finesse_ok)


def note_rank_clue(table: Table, giver: int, reading: Reading) -> None:
    """Remember who touched which cards with a rank clue, and whether the clue is seen to mean "play".

    A rank clue from a person says little of what they meant: a 1 clue may touch a 1 already played as
    well as the one meant. Its holder plays such a card unproven only once that person has shown they
    give rank clues to get cards played: a card they touched by rank that we see playable, or that was
    played (``Table.remove_card``).
    """
    for o in reading.touched:
        table.rank_giver[o] = giver
    if any((seen := table.visible_id(o)) is not None and table.playable(seen) for o in reading.touched):
        table.rank_plays[giver] += 1


def able_to_play(table: Table, reading: Reading) -> list[int]:
    """The touched cards a clue read literally leaves able to be a card playable now. When there is one, it
    is the card the clue most likely meant to be played (a person who plays on one clue plays it)."""
    playable = table.playable_mask()
    return [o for o in reading.touched if reading.know[o] & playable]


def note_offer(table: Table, reading: Reading) -> None:
    """A bot's clue to a person that meant a card to be played they cannot prove playable: whether they
    play it at their next turn tells whether they play on one clue or wait for proof (``Table.note_wait``)."""
    able = able_to_play(table, reading)
    if len(able) != 1:
        return
    order = able[0]
    seen = table.visible_id(order)
    target = reading.target
    if seen is not None and table.playable(seen) and not table.provable(target, order, reading.know[order]):
        table.offered[order] = target


def note_intent(table: Table, giver: int, reading: Reading, news: bool = True) -> None:
    """What a person most likely meant by a clue read literally: "play this card", or "keep it".

    People clue a card so that it gets played, or so that it is not thrown
    away: no convention, only the reason for giving a clue at all. The card
    meant is the one touched card the clue leaves able to be a card playable
    now (or, on the chop, a card that must be kept); when the clue leaves
    two or more such cards, it cannot say which, and nothing is noted. The
    note is the identities the person may have meant, as of now: its holder
    weighs them against the others (``Turn.intended_chance``). A clue that
    tells nothing new (``news`` False) meant neither.
    """
    playable = table.playable_mask()
    keep = table.critical_mask()
    chop = table.chop(reading.target)
    meant: list[tuple[int, int]] = []
    for o in reading.touched:
        mask = playable | (keep if o == chop else 0)
        if reading.know[o] & mask:
            meant.append((o, mask))
    if not news:
        # It tells nothing new about any card it touches, so it was not given to get one played or kept
        # (a person with a card to show gives a clue that shows it): given for another reason, or by
        # mistake. Read this person's clues by the count alone from now on.
        table.misled[giver] += 1
    elif len(meant) == 1:
        order, mask = meant[0]
        seen = table.visible_id(order)
        if seen is None:
            table.intent[order] = (giver, mask)
        elif not mask >> seen & 1:
            table.misled[giver] += 1  # we see the card: the clue did not mean what a person usually means


def finesse_on_me(table: Table, giver: int, clue: Clue, touched: tuple[int, ...], focus_id: int) -> Reading | None:
    """The reading of a finesse through us, if the clue reads so when our finesse card is the missing one."""
    fp = table.finesse_pos(table.me)
    if fp is None or table.me not in table.between(giver, clue.target):
        return None
    table.assumed[fp] = focus_id - 1
    try:
        hypo = read_clue(table, giver, clue, touched)
    finally:
        table.assumed.clear()
    if hypo.kind == "play" and hypo.self_order is None and hypo.ext >> focus_id & 1 and not hypo.base >> focus_id & 1:
        return hypo
    return None


def third_party_duties(table: Table, giver: int, target: int, focus: int, focus_id: int,
                       target_fp: int | None = None, finesse_ok: bool = True) -> None:
    """Seeing the focus card, find the one gap in its chain that only this seat's hand can fill.

    The chain is counted as giver and target count it; if the focus is exactly
    one card beyond it, the missing card must be ours: one of our clued cards
    (a prompt) or, if we act between giver and target, our finesse position.
    """
    me = table.me
    s, r = suit_of(focus_id), rank_of(focus_id)
    cover = covering(table, (giver, target), focus, {})
    height = table.fireworks[s]
    while height < 5 and ident(s, height + 1) in cover:
        height += 1
    if r != height + 2:
        return  # explained already, or more than one card missing: nothing for us to fill
    link = ident(s, height + 1)
    cand = next((o for o in table.hands[me] if o in table.clued and table.know_conv(o) >> link & 1), None)
    if cand is not None:
        table.conv[cand] = 1 << link
        return
    between = table.finessers(giver, target)
    if not finesse_ok or me not in between or height != table.fireworks[s]:
        return
    if target_fp is not None and table.visible_id(target_fp) == link:
        return  # the target holds it on its finesse position: a self-finesse
    later = tuple(between[between.index(me) + 1:])
    if any(table.visible_id(fp) == link for fp in (table.finesse_pos(p) for p in later) if fp is not None):
        return  # a player after us shows it there: the finesse is on them
    fp = table.finesse_pos(me)
    if fp is not None:
        table.pending.append(Pending("finesse", me, fp, 1 << link, later))


def finesse_duty(table: Table) -> int | None:
    """The card this seat must blind-play now to answer a finesse, if any."""
    me = table.me
    for p in table.pending:
        if (p.kind == "self" and p.seat == me and p.order in table.holder
                and (not p.later or p.later[0] == table.events_done)):
            if all(table.played(i - 1) for i in bits(p.mask) if rank_of(i) > 1):
                continue  # someone else played the card it called for: the focus plays directly now
            return p.order
        if p.kind != "finesse" or p.seat != me:
            continue
        link = single(p.mask)
        assert link is not None
        if table.played(link):
            continue
        if any(table.visible_id(fp) == link for fp in (table.finesse_pos(q) for q in p.later) if fp is not None):
            continue
        # The card that was on the finesse position when the clue was given, even if clued since.
        if p.order in table.holder:
            return p.order
    return None


__all__ = ["Reading", "apply_reading", "clue_mask", "covering", "finesse_duty", "interpret", "read_clue",
           "touched_by"]
