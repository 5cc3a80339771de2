# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Readings that differ from the answer in the one slot its odds left open.

The answer call's own odds (:mod:`..core.slot_odds`) name, for each slot of a stated fact,
the other values the schema allowed and the model weighed ("the luggage trolley" where it
wrote "the front desk"). Each such runner-up, put in its slot in place of the value
written, is a whole reading of its own once the domain's rules complete it and it
verifies: offered to the speaker after the readings the checks made, it costs no call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...world.kg import Fact, Update
from ..core.asking import Candidate, recomposed
from ..core.slot_odds import fact_of
from .other_words import fits, holders

if TYPE_CHECKING:
    from ..core.slot_odds import FactOdds
    from .reading import Report

__all__ = ['RUNNER_UP', 'runner_ups']

RUNNER_UP = 'runner-up'  # a Candidate's source: one slot as the odds' runner-up
RUNNER_MIN = 0.05  # a runner-up the model gave less than this is not offered


def runner_ups(rep: Report, taken: list[Candidate], most: int) -> list[Candidate]:
    """Return up to ``most`` readings with one slot as its runner-up, the likeliest first.

    Only slots of the reading's stated facts count (their latest answer's odds); a
    reading already among ``taken``, or that does not verify, is left out, and so is a
    state begun of a thing of a kind it holds of nothing now, when its predicate is
    typed for any object (:func:`.other_words.fits`: "Ellie is wet").
    """
    if most <= 0:
        return []
    r = rep.r
    latest: dict[tuple[Fact, bool], FactOdds] = {(f, gone): o for f, gone, o in r.odds}
    stated = {(f, gone) for c in r.done
              for gone, fs in ((False, c.stated.add), (True, c.stated.remove)) for f in fs}
    alternatives: list[tuple[float, tuple[Fact, bool], tuple[Fact, bool]]] = []
    for key, odds in latest.items():
        if key not in stated:
            continue
        for k, slot in enumerate(odds.slots):
            for value, q in slot.runners:
                item = list(odds.item)
                item[k] = value
                other = fact_of(rep.world.domain, item, odds.removed)
                if q >= RUNNER_MIN and other is not None and other != key:
                    alternatives.append((q, key, other))
    alternatives.sort(key=lambda a: -a[0])
    out: list[Candidate] = []
    kg, held = r.req.kg, holders(r.req.kg)
    for q, (fact, gone), (new, new_gone) in alternatives:
        if len(new.args) == 1 and not new_gone and new.args[0] in kg.entities \
                and not fits(rep.world, new.predicate, kg.entities[new.args[0]],
                             held.get(new.predicate, set())):
            continue  # "Ellie is wet": rooms get wet, people do not
        parts = []
        for c in r.done:
            add, remove = set(c.stated.add), set(c.stated.remove)
            if fact in (remove if gone else add):
                (remove if gone else add).discard(fact)
                (remove if new_gone else add).add(new)
            parts.append(Update.of(remove, add))
        change = recomposed(r.req.kg, rep.world, parts)
        if change is not None and all(change != x.update for x in (*taken, *out)):
            out.append(Candidate(change, q, RUNNER_UP))
        if len(out) >= most:
            break
    return out
