# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Mention resolution: which entities an utterance refers to, each word used once.

The linker (:mod:`.link`) scores every entity by the words it shares with the utterance,
which is right for *retrieving* a context but too loose to say what a report is *about*:
in "Rosa put on the goggles that were hanging on the coat rack in her lab" the words
``lab`` and ``coat`` make ``lab_coat_rosa`` look named. :func:`resolve` reads the
utterance the way a person would:

1. **Runs**: consecutive words that all belong to one entity's name ("blue ice bucket" for
   ``ice_bucket_blue``, "Theo's yeast plate" for ``theo_yeast_plate``), or an entity's
   head noun alone ("the goggles": its type's last word, or the name's last word that is
   not a number or another entity's name), or its type ("the robot").
2. **Each word is read once**: longer runs claim their words first ("coat rack" takes
   ``coat``, so ``lab_coat_rosa`` keeps only ``lab``: not a run of its head); entities
   with the same run are one *ambiguous* mention ("the coat rack": both racks).
3. **Ambiguity narrowed by the graph**: a candidate is kept when one of its facts joins it
   to an entity another mention resolved to ("her lab" is the lab Rosa is in, the rack
   installed there, the goggles resting on that rack), or when it lies in a place the
   utterance names ("the remote" of "while in Emily's bedroom": the remote whose table is
   in that room), and by the name's other words elsewhere in the utterance ("Mia's desk"
   among the desks).

Nothing here knows a domain: only English word shapes, the entity names and types, and the
facts of the graph.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from l3mp_ros.world.kg import Fact, KnowledgeGraph

from ..text import STOPWORDS, WORD_RE, name_words, stem, words

RARE = 3  # a word in at most this many names names each of them on its own
NEAR = 3  # words either side of a mention that can say which of its candidates is meant
OWNERS = frozenset('her his their my our your'.split())  # "her lab coat": said elsewhere
PRONOUNS = frozenset('he him she her they them'.split())  # may point back at an owner
# a rare word that is not an entity's head noun names it only after one of these ("the
# acetone", "her protein sample"), so a verb like "set" does not name spatula_set
DETERMINERS = frozenset('the a an his her its their my our your this that these those '
                        'some'.split())
# "the TV in Julia's bedroom", "level 10 of the shelf": a mention after one of these (and
# determiners) describes the mention before it
PREPOSITIONS = frozenset('in on at from of for inside under near beside behind onto into '
                         'off by'.split())
# a place written after a mention with one of these is where it goes, not where it lies:
# "set the scanner he was holding down on the desk"
DESTINATIONS = frozenset('on onto into'.split())
KINDS = frozenset('every each all any'.split())  # "every light": a kind, not one thing
# "both keys", "two cartons": how many things a plural counts
COUNTS = {'both': 2, 'two': 2, 'three': 3, 'four': 4, 'five': 5, 'six': 6}
ATTACHING = PREPOSITIONS | (DETERMINERS - {'that', 'this', 'these', 'those'}) | {'own'}


@dataclass
class Mention:
    """One referring expression: its word positions and the entities it may denote."""

    start: int
    end: int  # exclusive
    text: str  # the normalised words
    candidates: list[str] = field(default_factory=list)
    surface: str = ''  # the words as written ("Theo's yeast plate")
    # the words that name it when it is named inside a longer mention ("cold room" of
    # "the cold room door"): its surface is those words, not the whole mention's
    part: tuple[int, int] | None = None
    # the start of the mention it describes ("Julia's bedroom" in "the TV in Julia's
    # bedroom"), None when it describes none (:func:`_attachments`)
    describes: int | None = None
    plural: bool = False  # its last word is a plural ("Lena's tubes"), or "every light"
    #: a place the utterance names narrowed its candidates ("the remote" while in a room)
    by_place: bool = False

    @property
    def resolved(self) -> str | None:
        """Return the one entity meant, when the candidates agree on one."""
        return self.candidates[0] if len(self.candidates) == 1 else None


def _heads(kg: KnowledgeGraph, name: str, names: dict[str, list[str]]) -> set[str]:
    """Return the words that can stand alone for ``name`` ("goggle" for safety_goggles_1)."""
    own = names[name]
    typ = [stem(w) for w in name_words(kg.entities[name]) if not w.isdigit()]
    heads = {typ[-1]} & set(own) if typ else set()
    if not heads:
        plain = [w for w in own if not w.isdigit() and w not in names]
        if plain:
            heads.add(plain[-1])
    if len(own) == 1:
        heads.add(own[0])
    return heads


def _tokens(text: str) -> list[tuple[int, int, str]]:
    """Return (start, end, lower-case token) per word of :func:`l3mp_ros.text.words`."""
    low = text.lower().replace('\u2019', "'")
    return [(t.start(), t.end(), t.group()) for t in WORD_RE.finditer(low)]


def resolve(kg: KnowledgeGraph, text: str, *, rare: int = RARE,
            steady: Collection[str] | None = None,
            predicates: Collection[str] = (),
            places: Mapping[str, int] | Collection[str] = ()) -> list[Mention]:
    """Return the mentions of ``text``, in reading order, each with its candidates.

    ``steady``: the predicates no change touches (see :func:`_narrow`); None: all.
    ``places``: the binary predicates that say where a thing is, each with the position of
    the thing (:meth:`~l3mp_ros.world.constraints.Constraints.place_keys`; a plain
    collection: the thing first); with them, a mention is also narrowed to the candidates
    that lie in a place the utterance names.
    ``predicates``: the domain's predicate names; a word of one ("put the lights on" for
    ``lights_on``) is a relation, so it names no entity alone unless it is that entity's
    head noun ("the light bulbs" still names ``light_bulbs``).
    """
    said = [stem(w) for w in words(text)]
    if not said or not kg.entities:
        return []
    tokens = _tokens(text)  # the same tokenizer as words(): one token per word
    owner = [t[2].endswith(("'s", "s'")) for t in tokens]
    proper = _proper(text, tokens)
    names = {n: [stem(w) for w in name_words(n)] for n in kg.entities}
    heads = {n: _heads(kg, n, names) for n in names}
    df: Counter[str] = Counter(w for ws in names.values() for w in set(ws))
    relation = {stem(w) for p in predicates for w in name_words(p)}
    mentions = _claim(said, _runs(kg, said, owner, names, heads, df, rare, proper, relation),
                      names, heads, df)
    for m in mentions:
        start, end = m.part or (m.start, m.end)
        m.surface = text[tokens[start][0]:tokens[end - 1][1]]
        if m.surface.count('"') % 2:  # 'the book "The Odyssey': close the quote
            m.surface += '"'

    found = {m.start: list(m.candidates) for m in mentions}
    heads = _narrow(kg, mentions, said, names, owner, steady, places)
    for m in mentions:
        m.describes = heads.get(m.start)
        last = tokens[m.end - 1][2]
        m.plural = (not owner[m.end - 1] and last.endswith('s') and not last.endswith('ss')
                    and said[m.end - 1] != last) or (
            m.start > 0 and said[m.start - 1] in KINDS)  # "every light"
        if m.plural:
            _counted(kg, m, found[m.start], mentions, [t[2].lower() for t in tokens])
    return mentions


def _counted(kg: KnowledgeGraph, m: Mention, found: list[str], mentions: list[Mention],
             raw: list[str]) -> None:
    """Give a counted plural as many candidates as it counts, when the graph says which.

    Narrowing reads a mention as one thing; "left both keys she was carrying on her desk"
    is two. Of the candidates found before narrowing, those one fact links to what the
    other mentions name are taken when they are exactly as many as the count (the two
    keys Nadia carries, not the dock key on the table); otherwise nothing changes.
    """
    count = next((COUNTS[w] for w in raw[max(0, m.start - 2):m.start] if w in COUNTS), 0)
    if not count or len(m.candidates) >= count or len(found) < count:
        return
    others = {c for o in mentions if o is not m for c in o.candidates}
    linked = [n for n in found
              if any(set(f.args) & others for f in kg.facts_of(n))]
    if len(linked) == count:
        m.candidates = linked


def _proper(text: str, tokens: list[tuple[int, int, str]]) -> list[bool]:
    """Return, per token, whether it is written as a name.

    Quoted, or capitalised inside a sentence ('Peter took "Candide"', 'the Odyssey').
    """
    quoted = [False] * len(tokens)
    for q in re.finditer(r'"([^"]+)"|\u201c([^\u201d]+)\u201d', text):
        for k, (a, b, _) in enumerate(tokens):
            if q.start() < a and b < q.end():
                quoted[k] = True
    out = []
    for k, (a, _, _) in enumerate(tokens):
        before = text[:a].rstrip()
        initial = not before or before[-1] in '.!?'
        out.append(quoted[k] or (text[a].isupper() and not initial))
    return out


def _runs(kg: KnowledgeGraph, said: list[str], owner: list[bool],
          names: dict[str, list[str]], heads: dict[str, set[str]], df: Counter[str],
          rare: int, proper: list[bool] | None = None,
          relation: Collection[str] = ()) -> list[tuple[int, int, str]]:
    """Return every (start, end, entity) run of words that may name the entity.

    A word few names share names each of them alone after a determiner ("the acetone")
    or when written as a name (``proper``: 'took "Candide"').
    """
    proper = proper or [False] * len(said)
    runs: list[tuple[int, int, str]] = []
    for n, ws in names.items():
        wset = set(ws)
        i = 0
        while i < len(said):
            if said[i] in STOPWORDS or said[i] not in wset:
                i += 1
                continue
            j = i
            seen: set[str] = set()
            while j < len(said) and said[j] in wset and said[j] not in seen:
                seen.add(said[j])
                j += 1
            alone = j - i == 1
            if alone and len(ws) > 1 and i > 0 and said[i - 1] in names \
                    and len(names[said[i - 1]]) == 1 and not owner[i - 1]:
                i = j  # "Sven set the plate": a verb after a name, not the spatula set
                continue
            if not alone or said[i] in heads[n] or (
                    df[said[i]] <= rare and not said[i].isdigit() and len(said[i]) > 2
                    and said[i] not in relation
                    and (proper[i] or i > 0 and said[i - 1] in DETERMINERS)):
                runs.append((i, j, n))
            i = j
    for i, w in enumerate(said):  # "Andrew's room": bedroom, a compound head (not "lock": block)
        if len(w) > 2 and w not in STOPWORDS:
            runs.extend((i, i + 1, n) for n, hs in heads.items()
                        if any(len(h) - len(w) > 2 and h.endswith(w) for h in hs))
    runs.extend(_compounds(said, names, heads, df, rare))
    by_type: dict[str, list[str]] = {}
    for n, t in kg.entities.items():
        by_type.setdefault(t, []).append(n)
    for t, members in by_type.items():  # "the robot", "the fridge" when few have the type
        tw = [stem(w) for w in name_words(t) if not w.isdigit()]
        if tw and len(members) <= rare:
            runs.extend((i, i + 1, n) for i, w in enumerate(said) if w == tw[-1]
                        for n in members)
    return runs


def _compounds(said: list[str], names: dict[str, list[str]], heads: dict[str, set[str]],
               df: Counter[str], rare: int) -> list[tuple[int, int, str]]:
    """Return the runs that join or split a name's words ("ice bucket" for ``icebucket_3``).

    Words said apart that spell one word of a name when joined ("the ice bucket", "the
    locker key"), or one word said that spells consecutive words of a name ("the
    toolcase" for ``tool_case_2``). Like a word of the name itself, the compound names the
    entity when it is the name's head or a word few names share; the run then takes the
    name's other words next to it ("locker key 7").
    """
    spelt: dict[str, list[tuple[str, int, int]]] = {}  # joined form -> (name, first, end)
    for n, ws in names.items():
        for a in range(len(ws)):
            for b in range(a + 1, min(len(ws), a + 3) + 1):
                if b - a > 1 or not ws[a].isdigit():
                    spelt.setdefault(''.join(ws[a:b]), []).append((n, a, b))

    def names_it(n: str, a: int, b: int) -> bool:
        part = names[n][a:b]
        return bool(heads[n] & set(part)) or (b - a == 1 and df[part[0]] <= rare)

    runs: list[tuple[int, int, str]] = []
    for i in range(len(said)):
        for k in (1, 2, 3):
            pieces = said[i:i + k]
            if len(pieces) < k or any(len(p) < 2 or p in STOPWORDS or p.isdigit()
                                      for p in pieces):
                break
            for n, a, b in spelt.get(''.join(pieces), ()):
                if (k == 1) == (b - a == 1) or not names_it(n, a, b):
                    continue  # a word said as written is an ordinary run
                rest = set(names[n]) - set(names[n][a:b])
                j = i + k
                while j < len(said) and said[j] in rest:  # "locker key 7"
                    rest.discard(said[j])
                    j += 1
                runs.append((i, j, n))
    return runs


def _claim(said: list[str], runs: list[tuple[int, int, str]], names: dict[str, list[str]],
           heads: dict[str, set[str]], df: Counter[str]) -> list[Mention]:
    """Turn runs into mentions, longest first, each word read once."""
    idf = {w: math.log(1.0 + len(names) / c) for w, c in df.items()}

    def order(run: tuple[int, int, str]) -> tuple[float, float, int, str]:
        i, j, n = run
        share = sum(idf.get(w, 0.0) for w in set(said[i:j])) / max(
            1e-9, sum(idf.get(w, 0.0) for w in set(names[n])))
        return (-(j - i), -share, i, n)  # ties: reading order, then name (never hash order)

    claimed = [False] * len(said)
    mentions: list[Mention] = []
    pending = sorted(set(runs), key=order)
    while pending:
        i, j, _ = pending[0]
        same = [r for r in pending if r[0] == i and r[1] == j]
        cands = sorted({r[2] for r in same})
        if j - i == 1:  # "the corridor": the main corridor, not the corridor's shelf
            cands = [n for n in cands if any(h.endswith(said[i]) or said[i].endswith(h)
                                             for h in heads[n])] or cands
        mentions.append(Mention(i, j, ' '.join(said[i:j]), cands))
        if j - i > 1:  # "the cold room door" also names the cold room
            inside = set(said[i:j])
            mentions.extend(Mention(i, j, ' '.join(said[i:j]), [n], part=_within(said, i, j, ws))
                            for n, ws in names.items()
                            if n not in cands and len(ws) > 1 and set(ws) <= inside)
        for k in range(i, j):
            claimed[k] = True
        rest: list[tuple[int, int, str]] = []
        for r in pending:
            if r in same:
                continue
            free = [k for k in range(r[0], r[1]) if not claimed[k]]
            if len(free) == r[1] - r[0]:
                rest.append(r)
            elif free:  # trimmed to its unclaimed words: kept only if still a run
                a, b = free[0], free[-1] + 1
                if b - a == len(free) and (b - a > 1 or said[a] in heads[r[2]]):
                    rest.append((a, b, r[2]))
        pending = sorted(set(rest), key=order)
    mentions.sort(key=lambda m: m.start)
    return mentions


def _within(said: list[str], i: int, j: int, name: list[str]) -> tuple[int, int] | None:
    """Return the words of ``said[i:j]`` that spell ``name``, when they stand together."""
    words = set(name)
    at = [k for k in range(i, j) if said[k] in words]
    return (at[0], at[-1] + 1) if at and at[-1] + 1 - at[0] == len(at) else None


def _narrow(kg: KnowledgeGraph, mentions: list[Mention], said: list[str],
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
            return False  # "put the pen on the table": where it goes, not where it lies
        joined = [n for n in m.candidates if links.lies_in(n, known, stage.hops)]
    elif not stage.steady and m.start in placed:
        return False
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
    window bench"; not "George" in "..., George picked up the remote".
    """
    k = start - 1
    while k >= 0 and said[k] in DETERMINERS:
        k -= 1
    return said[k] if k >= 0 and said[k] in PREPOSITIONS else None


def _gap(a: Mention, b: Mention) -> int:
    """Return the number of words between two mentions (0 when they touch or overlap)."""
    return max(0, max(a.start, b.start) - min(a.end, b.end))


def last_mentioned(mentions: Iterable[Mention]) -> dict[str, int]:
    """Return, per entity a mention may denote, the word position of its last mention.

    The report's order is the order of events: of two places one thing is given, the one
    named last wins ("took the key off her desk and walked it out to Omar").
    """
    where: dict[str, int] = {}
    for m in mentions:
        for c in m.candidates:
            where[c] = max(where.get(c, -1), m.start)
    return where


def surfaces(mentions: list[Mention]) -> dict[str, str]:
    """Return how the utterance wrote each entity it settled on: "the goggles", "Rosa"."""
    out: dict[str, str] = {}
    for m in mentions:
        n = m.resolved
        if not n or not m.surface or n in out:
            continue
        proper = '_' not in n and m.surface[:1].isupper()  # a name: "Rosa"
        owned = "'" in m.surface  # "Theo's yeast plate"
        out[n] = m.surface if proper or owned else f'the {m.surface}'
    return out


def possessors(kg: KnowledgeGraph, text: str, *, kinds: bool = False) -> list[str]:
    """Return the entities a one-word name written as an owner names ("Theo's RNA tube").

    Mention resolution reads "Theo's RNA tube" as one mention (``theo_rna_tube``); a task
    may still need Theo himself ("get Theo's tube out for him"): only when a personal
    pronoun may point back at him, or (``kinds``) the utterance speaks of kinds of things
    ("all of Lena's tubes": the things Lena owns).
    """
    tokens = [t[2] for t in _tokens(text)]
    if not kinds and not PRONOUNS & set(tokens):
        return []  # "the table in Sophia's bedroom": Sophia is no referent of her own
    out = []
    for tok in tokens:
        if tok.endswith(("'s", "s'")):
            name = tok.split("'")[0]
            if name in kg.entities and name not in out:
                out.append(name)
    return out


def owners_only(kg: KnowledgeGraph, text: str, mentions: list[Mention]) -> set[str]:
    """Return the entities ``text`` names only as the owner of what follows.

    "Jerry walked into Michael's room": "Michael's" is a mention of Michael when the room's
    name does not follow his ("michael_bedroom"), yet the report says nothing of Michael.
    Not an entity some other mention names, nor one a personal pronoun may point back at
    (:func:`possessors`: "walked into Michael's room and woke him").
    """
    raw = [t[2] for t in _tokens(text)]

    def owner(m: Mention) -> bool:
        return raw[m.end - 1].endswith(("'s", "s'")) and m.end < len(raw)

    owned = {m.resolved for m in mentions if m.resolved and owner(m)}
    named = {m.resolved for m in mentions if m.resolved and not owner(m)}
    return owned - named - set(possessors(kg, text))


def referents(kg: KnowledgeGraph, text: str) -> list[str]:
    """Return every entity a mention of ``text`` may denote, in reading order."""
    return candidates(resolve(kg, text))


def candidates(mentions: list[Mention]) -> list[str]:
    """Return every entity the mentions may denote, in reading order, once each."""
    return list(dict.fromkeys(n for m in mentions for n in m.candidates))


def head(mentions: list[Mention], text: str) -> Mention | None:
    """Return the mention a noun phrase is about: not an owner, not a description.

    "Ada's tool case": the tool case, not Ada; "the remote in Emily's bedroom": the
    remote. None when the phrase has no mention.
    """
    raw = [t[2] for t in _tokens(text)]
    for m in mentions:
        owner = raw[m.end - 1].endswith(("'s", "s'")) and any(o.start >= m.end for o in mentions)
        if m.describes is None and not owner:
            if m.resolved is None:  # "the cradle at the tills": till_cradle is a cradle
                said = set(m.text.split())
                fuller = [o for o in mentions if o.describes == m.start and o.resolved
                          and said <= {stem(w) for w in name_words(o.resolved)}]
                if len(fuller) == 1:
                    return fuller[0]
            return m
    return mentions[0] if mentions else None
