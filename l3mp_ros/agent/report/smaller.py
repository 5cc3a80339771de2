# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Readings that keep part of what the answer stated, for after a "no".

A reading refused whole is often right but for one fact the model added ("Bob's door is
open" beside "no longer locked" for "Someone unlocked Bob's door"). The readings the
checks make leave out only what a check doubted; when the speaker refuses those too the
talk ended with nothing written. Each reading here keeps part of the first reading (and
of what the offered readings added beside it), the most first and, among as many, the
surest by the read-back's odds; completed by the domain's rules and verified, each is
offered after the others, up to ``most``, and made whole like every reading
(:mod:`.whole`), so a truthful "yes" never writes half of what the report named. No call.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING

from ...world.kg import Fact, Update
from ..core.asking import SMALLER, Candidate, confidence, read_odds, recomposed
from .whole import describes, said_order

if TYPE_CHECKING:
    from ...world.model import WorldModel
    from .reading import Reading, Report

__all__ = ['SMALLER', 'said_of_all', 'smaller_readings']

MAX_POOL = 5  # more pieces than this: too many ways to keep part of them


def smaller_readings(rep: Report, taken: list[Candidate], most: int,
                     keep: Callable[[Update], bool] | None = None) -> list[Candidate]:
    """Return up to ``most`` readings that keep part of the first one, the most first.

    The first reading's change (and what the other readings in ``taken`` add or end beyond
    it about the things it names: a state offered "with that") falls into pieces, one per
    thing and predicate (a move stays whole: "no longer on the dock" never goes without
    "in the stock room"); another thing a later reading puts in the place of one the first
    names is no piece of it.
    Every set of pieces but all of them, the most first and within as many the surest
    first (the least read-back P(yes) of their facts), completed by the rules; a reading
    already among ``taken``, one that does not verify, or one ``keep`` refuses (it leaves
    out where someone the report sends went) is left out.
    """
    if most <= 0 or not taken:
        return []
    world, kg = rep.world, rep.r.req.kg
    first = taken[0].update
    named = {_thing(world, f) for f in first.add | first.remove}
    changes = [first] + [Update.of(c.update.remove - first.remove, c.update.add - first.add)
                         for c in taken[1:]]
    pieces: dict[tuple[str, str], tuple[set[Fact], set[Fact]]] = {}
    for k, change in enumerate(changes):
        for gone, facts in ((True, change.remove), (False, change.add)):
            for f in sorted(facts):
                if k and _thing(world, f) not in named:
                    continue  # another thing in its place ("blanket 1" for "blanket 2")
                ends, adds = pieces.setdefault((_thing(world, f), f.predicate), (set(), set()))
                (ends if gone else adds).add(f)
    pool = sorted(pieces.items())
    if not 2 <= len(pool) <= MAX_POOL:
        return []
    odds, how = read_odds(rep.out.trace.history), rep.settings.reading_confidence
    seen = {c.update for c in taken}
    out: list[Candidate] = []
    for size in range(len(pool) - 1, 0, -1):
        kept = sorted(combinations(pool, size), key=lambda ks: -confidence(
            {f for _, (e, a) in ks for f in e | a}, set(), odds, how))
        for chosen in kept:
            ends = {f for _, (e, _) in chosen for f in e}
            adds = {f for _, (_, a) in chosen for f in a}
            got = recomposed(kg, world, [Update.of(ends, adds)])
            if got is None or got in seen or (keep is not None and not keep(got)):
                continue
            seen.add(got)
            out.append(Candidate(got, confidence(ends | adds, set(), odds, how), SMALLER))
            if len(out) >= most:
                return out
    return out


def said_of_all(r: Reading, world: WorldModel, first: Update, part: Update) -> bool:
    """Tell whether ``part`` of ``first`` still says something of all it spoke of.

    Every thing the report names that ``first`` said something of (the thing of a fact:
    "Bramble is no longer fed") ``part`` still names (as a place will do: "the wheel is
    no longer fitted to the bike" for "the bike's chain is oiled"), and of every part of
    the report ``first`` read a fact from ("... and set it going": the blanket no longer
    dirty) it keeps a fact:
    "I've brought Bramble into the farmyard. I put the red bucket back on the shelf" is
    not the bucket alone, however wrong what was said of Bramble. Not the speaker named
    as a holder ("Gaz: I've filled the yellow can": the can held by Gaz may go), nor a
    thing named only to say where another is (:func:`.whole.describes`: "the floor
    centrifuge in the equipment room has been repaired" may go without the room's light),
    nor a part of the report whose every fact the read-back denied ("..., it works
    again." read as the room's light off, denied twice): the words said nothing there.
    """
    said = set(said_order(r.req.mentions))
    said -= {e for e in said if all(describes(r, m, part) for m in r.req.mentions
                                    if m.resolved == e)}
    if not said & {_thing(world, f) for f in first.add | first.remove} <= part.entities():
        return False
    facts, kept = first.add | first.remove, part.add | part.remove
    return all(not (stated := c.stated.add | c.stated.remove) & facts or stated & kept
               or stated <= r.unsure for c in r.done) if r.several else True


def _thing(world: WorldModel, f: Fact) -> str:
    """Return the thing ``f`` says something of: a place fact's thing, else its first."""
    return world.constraints.thing_of(f) if len(f.args) == 2 else (
        f.args[0] if f.args else '')
