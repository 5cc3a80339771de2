# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Mention narrowing: which of an ambiguous mention's candidates the utterance and graph mean.

:func:`.mentions.resolve` reads an utterance into mentions; a mention whose words fit
several entities ("the coat rack": both racks) is narrowed here by :func:`narrow`:

- by the name's other words elsewhere in the utterance ("Mia's desk" among the desks), and
  by a bare "the <head>" pointing back at an earlier mention (:func:`_anaphor`);
- by the graph: a candidate is kept when one of its facts joins it to an entity another
  mention resolved to ("her lab" is the lab Rosa is in, the rack installed there, the
  goggles resting on that rack), or when it lies in a place the utterance names ("the
  remote" of "while in Emily's bedroom": the remote whose table is in that room);
- by what lies on it: "the empty plinth", "the free bed" is one nothing is placed on or in.

It also says which mention describes which (:func:`_attachments`: "the TV in Julia's
bedroom"). Nothing here knows a domain: only English word shapes, the entity names, and
the facts of the graph.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

from l3mp_ros.world.kg import Fact, KnowledgeGraph

from .mention import ATTACHING, DESTINATIONS, DETERMINERS, OWNERS, PREPOSITIONS, Mention

NEAR = 3  # words either side of a mention that can say which of its candidates is meant
#: where a thing goes, never where it lies ("into", and "back in"/"back on" read as these)
INTO = frozenset('into onto'.split())
#: words before a mention that say nothing is on or in it ("the free bed", "the empty plinth")
EMPTY = frozenset('empty free vacant unoccupied'.split())


def narrow(kg: KnowledgeGraph, mentions: list[Mention], said: list[str],
           names: dict[str, list[str]], owner: list[bool],
           steady: Collection[str] | None = None,
           places: Mapping[str, int] | Collection[str] = ()) -> dict[int, int]:
    """Narrow ambiguous mentions: full names, the name's other words nearby, the graph.

    Return which mention describes which (:func:`_attachments`).

    A word nearby that belongs to another mention speaks for a candidate only through
    that mention's entity: "the window" in "Nora was in Lucy's room" is Lucy's bedroom's
    window (its name holds ``lucy_bedroom``), not the living room's (whose name merely
    shares "room").

    The graph step is read nearest first: "the bench in the chem lab" is the bench of the
    lab just named, not of a room named two clauses later; and two mentions are taken to
    mean different things ("from Theo's desk onto her own desk"). Links through
    ``steady`` predicates (those no change touches: which room a TV is in, which TV a
    remote controls) are tried before the others, one fact first, then a chain of two
    through a thing of a third kind ("the remote" in "Ruth went to George's room and picked
    up the remote": George's bedroom has the TV the remote controls). A report changes
    the other links ("switched the TV *to* the sports channel" says nothing about which
    TV shows sports now), so they decide only when no steady link does.

    With ``places`` (the predicates saying where a thing is), a place the utterance names
    (a mention after a preposition: "in Emily's bedroom", "from the window bench") narrows
    a mention to the candidates lying in it, through their place and their place's place
    (:meth:`_Links.lies_in`), right after the one-fact steady links. A mention so narrowed
    is not narrowed further by a link a report may change: in "while in Emily's bedroom,
    George picked up the remote" the remote George already holds and the one on the
    bedroom's table both lie in that room, and George's hand must not decide between them
    (he picks up the other one).
    """
    covering: dict[int, Mention] = {}
    for o in mentions:
        for k in range(o.start, o.end):
            covering.setdefault(k, o)
    heads = _attachments(mentions, said, owner)
    for m in mentions:
        if len(m.candidates) < 2:
            continue
        if _anaphor(m, mentions, said, heads):
            continue
        full = [n for n in m.candidates if set(names[n]) <= set(said[m.start:m.end])]
        if full:  # "the student office", not the student office's door
            m.candidates = full
        own = set(said[m.start:m.end])  # the mention's own words tell nothing apart
        owned = any(w in OWNERS for w in said[max(0, m.start - 2):m.start])
        if owned:
            near = [k for k in range(len(said))]  # "her lab coat": the owner is elsewhere
        else:  # "Lena's plate", "the bench in the equipment room"; not "Jerry switched"
            near = [k for k in range(max(0, m.start - NEAR), min(len(said), m.end + NEAR))
                    if owner[k] or said[k] not in names or len(names[said[k]]) > 1
                    or k in (m.start - 1, m.end)]
        near = [k for k in near if said[k] not in own and not m.start <= k < m.end]
        m.candidates = _by_words(m, near, said, names, covering,
                                 heads, owned)
    links = _Links(kg, steady, places, named_places={
        o.start: prep for o in mentions if (prep := _written_as_place(said, o.start))})
    for m in mentions:  # "the empty plinth by the rocking horse": not the horse's plinth
        if len(m.candidates) > 1 and m.start > 0 and said[m.start - 1] in EMPTY \
                and (links.places or links.steady is not None):
            free = [n for n in m.candidates if not links.holds(n)]
            if free and len(free) < len(m.candidates):
                m.candidates = free
    placed: set[int] = set()  # mentions a named place narrowed
    while True:  # the nearest mention that tells the candidates apart decides
        for m in mentions:
            if len(m.candidates) > 1:
                _anaphor(m, mentions, said, heads)
        resolved = [o for o in mentions if o.resolved]
        for m in mentions:
            taken = {o.resolved for o in resolved if o.start != m.start}
            free = [n for n in m.candidates if n not in taken]
            if len(m.candidates) > 1 and free and len(free) < len(m.candidates):
                m.candidates = free
        pairs = sorted(((_gap(m, o), len(o.candidates), i, j) for i, m in enumerate(mentions)
                        if len(m.candidates) > 1 for j, o in enumerate(mentions)
                        if o.start != m.start and _may_narrow(heads, m, o)))
        if not any(_joined(links, mentions[i], mentions[j], stage, placed)
                   for stage in links.stages for _, _, i, j in pairs):
            return heads


def _anaphor(m: Mention, mentions: list[Mention], said: list[str],
             heads: dict[int, int]) -> bool:
    """Resolve "the <head>" to the thing an earlier mention named; return whether it did.

    "Get the tube out of the minus eighty and lock the freezer": a bare definite head noun
    with nothing describing it points back at the last earlier mention it may denote
    (before the rule that two mentions mean two things).
    """
    if m.end - m.start != 1 or m.start == 0 or said[m.start - 1] != 'the' \
            or m.start in heads or m.start in heads.values():
        return False
    before = [o.resolved for o in mentions if o.end <= m.start and o.resolved in m.candidates]
    if not before:
        return False
    m.candidates = [before[-1]]
    return True


def _attachments(mentions: list[Mention], said: list[str],
                 owner: list[bool]) -> dict[int, int]:
    """Return ``{mention start: start of the mention it describes}``.

    "the TV in Julia's bedroom": Julia's bedroom describes the TV (only prepositions and
    determiners between them, at least one preposition); "Lucy's remote": an owner written
    just before a mention describes it. "Laura, who was in Lucy's bedroom, put ..." has
    words of another kind between: the bedroom describes no mention.
    """
    out: dict[int, int] = {}
    ordered = sorted({m.start: m for m in mentions}.values(), key=lambda m: m.start)
    for a, b in zip(ordered, ordered[1:], strict=False):
        between = said[a.end:b.start]
        if between and set(between) <= ATTACHING and set(between) & PREPOSITIONS:
            out[b.start] = a.start
        elif not between and owner[a.end - 1]:
            if a.start in out:  # "the light in David's room": the room describes the light
                out[b.start] = out[a.start]
            out[a.start] = b.start
    return out


def _may_narrow(heads: dict[int, int], m: Mention, o: Mention) -> bool:
    """Return whether ``o`` may say which thing ``m`` is.

    Not when ``o`` describes another mention ("on the shelf" after "the TV in Julia's
    bedroom": that bedroom is where the TV is, not the shelf).
    """
    head = heads.get(o.start)
    return head is None or head == m.start


def _by_words(m: Mention, near: list[int], said: list[str], names: dict[str, list[str]],
              covering: dict[int, Mention], heads: dict[int, int],
              owned: bool = False) -> list[str]:
    """Return the candidates of ``m`` whose names the nearby words speak for most.

    A word of another mention counts only when that mention describes ``m`` ("the bench
    in the equipment room") or ``m`` is owned by someone named elsewhere (``owned``: "his
    apron"), and then as that mention's entity; a word of a mention not yet resolved
    counts only when written right next to ``m`` ("the staff areas"), never across a
    preposition ("the light in David's room" is not the living room's light). A mention
    written right next to ``m`` whose entity is one of ``m``'s candidates names the same
    thing ("Professor Okafor": the professor is Okafor, not the other professor).
    """
    free: set[str] = set()
    after: set[str] = set()
    others: dict[int, Mention] = {}
    same: set[str] = set()
    for k in near:
        o = covering.get(k)
        touching = o is not None and (o.end == m.start or o.start == m.end)
        if o is not None and o.start != m.start and (o.resolved or not touching):
            if not o.resolved:  # "the light in David's room": "room" names a room
                continue
            if owned or heads.get(o.start) == m.start:
                others[o.start] = o
            if touching:
                same.add(o.resolved)
            continue
        free.add(said[k])
        if m.end <= k < m.end + NEAR:
            after.add(said[k])  # "the table in the living room"

    def score(n: str) -> tuple[bool, int, int]:
        ws = set(names[n])
        inside = sum(1 for o in others.values() if o.resolved != n
                     and set(names[o.resolved or '']) <= ws)
        return (n in same, len(ws & free) + inside, len(ws & after))

    scores = {n: score(n) for n in m.candidates}
    best = max(scores.values())
    return [n for n in m.candidates if scores[n] == best]


class Stage(NamedTuple):
    """One step of graph narrowing: links of ``hops`` facts, or a named place."""

    hops: int
    steady: bool  # only links through predicates no change touches
    place: bool = False  # the candidates lying in a place another mention names


class _Links:
    """Facts joining entities, split into steady links and the rest (memoised)."""

    def __init__(self, kg: KnowledgeGraph, steady: Collection[str] | None,
                 places: Mapping[str, int] | Collection[str] = (),
                 named_places: Mapping[int, str] | None = None) -> None:
        self.kg = kg
        self.steady = None if steady is None else frozenset(steady)
        # predicate -> the position of the thing whose place it says (the other: the place)
        self.places = (dict(places) if isinstance(places, Mapping)
                       else dict.fromkeys(places, 0))
        # without a steady set every predicate counts as steady
        self.stages = ([Stage(1, True), Stage(2, True)] if self.steady is None
                       else [Stage(1, True), Stage(1, False), Stage(2, True)])
        if self.places:
            self.stages.insert(1, Stage(3, True, place=True))
        self._nbrs: dict[tuple[str, bool], frozenset[str]] = {}
        self._up: dict[str, tuple[str, ...]] = {}
        # the mentions the utterance writes as places ("in the kitchen"): start -> preposition
        self.named_places = dict(named_places or {})

    def neighbours(self, name: str, steady_only: bool) -> frozenset[str]:
        key = (name, steady_only)
        got = self._nbrs.get(key)
        if got is None:
            got = frozenset(a for f in self.kg.facts_of(name)
                            if not steady_only or self.steady is None
                            or f.predicate in self.steady for a in f.args) - {name}
            self._nbrs[key] = got
        return got

    def joins(self, name: str, known: set[str], hops: int, steady_only: bool) -> bool:
        """Return whether ``name`` is linked to one of ``known`` in ``hops`` facts."""
        near = self.neighbours(name, steady_only)
        if near & known:
            return True
        if hops < 2:
            return False
        own = self.kg.type_of(name)
        return any(self.neighbours(z, steady_only) & known for z in near
                   if self.kg.type_of(z) != own
                   and all(self.kg.type_of(z) != self.kg.type_of(k) for k in known))

    def holds(self, name: str) -> bool:
        """Tell whether something is on or in ``name``.

        A fact a change may end joins a thing to it, ``name`` last ("the mint pen on shelf
        level 7"; not the shelf that always has that level); without steady predicates, a
        fact placing a thing there.
        """
        if self.steady is None:
            return any(len(f.args) == 2 and f.predicate in self.places
                       and f.args[1 - self.places[f.predicate]] == name
                       for f in self.kg.facts_of(name))
        return any(len(f.args) == 2 and f.args[1] == name and f.predicate not in self.steady
                   for f in self.kg.facts_of(name))

    def _placing(self, name: str) -> list[Fact]:
        """Return the facts that say where ``name`` is (it at the rule's key)."""
        return [f for f in sorted(self.kg.facts_of(name)) if len(f.args) == 2
                and f.predicate in self.places and f.args[self.places[f.predicate]] == name]

    def up(self, name: str) -> tuple[str, ...]:
        """Return where ``name`` is: the other argument of each fact that places it."""
        got = self._up.get(name)
        if got is None:
            got = tuple(a for f in self._placing(name) for a in f.args if a != name)
            self._up[name] = got
        return got

    def lies_in(self, name: str, known: set[str], depth: int) -> bool:
        """Tell whether ``name``'s place, or its place's place, ... is one of ``known``."""
        frontier, seen = [name], {name}
        for _ in range(depth):
            nxt = []
            for x in frontier:
                for y in self.up(x):
                    if y in known:
                        return True
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            frontier = nxt
        return False


def _joined(links: _Links, m: Mention, o: Mention, stage: Stage, placed: set[int]) -> bool:
    """Narrow ``m`` to its candidates linked to ``o``'s; return whether it narrowed.

    ``placed``: the mentions a named place narrowed (the place stage adds to it); a link
    a report may change does not narrow those again.
    """
    known = set(o.candidates)
    if stage.place:
        prep = links.named_places.get(o.start)
        if prep is None:
            return False  # "George picked up ...": a subject, not a place the report names
        if o.start > m.start and prep in DESTINATIONS:
            # "put the pen on the table": where it goes, not where it lies; a thing
            # already there is not the one put "into" it ("put it back in the locker"),
            # while "on" may say where it lies ("the goggles hanging on the coat rack")
            away = [n for n in m.candidates if not links.lies_in(n, known, 1)]
            if prep not in INTO or not away or len(away) == len(m.candidates):
                return False
            m.candidates = away
            return True
        joined = [n for n in m.candidates if links.lies_in(n, known, stage.hops)]
    elif not stage.steady and (m.start in placed or o.start > m.start and links.named_places.get(
            o.start) in INTO):
        return False  # nor by a link the report may change to where the thing goes
    else:
        joined = [n for n in m.candidates if links.joins(n, known, stage.hops, stage.steady)]
    if joined and len(joined) < len(m.candidates):
        m.candidates = joined
        if stage.place:
            placed.add(m.start)
            m.by_place = True
        return True
    return False


def _written_as_place(said: list[str], start: int) -> str | None:
    """Return the preposition the mention at ``start`` is written after, as a place, or None.

    After a preposition, with only determiners between: "in Emily's bedroom", "from the
    window bench"; not "George" in "..., George picked up the remote". "back in" and "back
    on" say where a thing is after the report ("put it back in the locker"): "into", "onto".
    """
    k = start - 1
    while k >= 0 and said[k] in DETERMINERS:
        k -= 1
    if k < 0 or said[k] not in PREPOSITIONS:
        return None
    if k > 0 and said[k - 1] == 'back' and said[k] in ('in', 'on'):
        return said[k] + 'to'  # "put it back in the locker": where it goes, as "into"
    return said[k]


def _gap(a: Mention, b: Mention) -> int:
    """Return the number of words between two mentions (0 when they touch or overlap)."""
    return max(0, max(a.start, b.start) - min(a.end, b.end))
