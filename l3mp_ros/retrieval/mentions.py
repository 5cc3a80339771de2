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
3. **Ambiguity narrowed by the graph** (:func:`.narrowing.narrow`): a candidate is kept
   when one of its facts joins it to an entity another mention resolved to ("her lab" is
   the lab Rosa is in), or when it lies in a place the utterance names, and by the name's
   other words elsewhere in the utterance ("Mia's desk" among the desks).

Each mention is a :class:`.mention.Mention`; what a resolved list of them tells (who is
named last, how each was written, owners, the head of a phrase) is :mod:`.mention_lists`.
Nothing here knows a domain: only English word shapes, the entity names and types, and the
facts of the graph.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from collections.abc import Collection, Mapping

from l3mp_ros.world.kg import KnowledgeGraph

from ..text import STOPWORDS, TITLES, name_words, stem, words
from .mention import COUNTS, DETERMINERS, KINDS, Mention, word_tokens
from .mention_lists import candidates
from .narrowing import narrow

RARE = 3  # a word in at most this many names names each of them on its own
_BE_HAVE = frozenset('is are was were has have had'.split())  # verbs after a bare subject
_PUNCT = re.compile(r'[:;,.!?()]')  # between two words: no name runs across it


def _heads(kg: KnowledgeGraph, name: str, names: dict[str, list[str]]) -> set[str]:
    """Return the words that can stand alone for ``name`` ("goggle" for safety_goggles_1).

    A number, or a word of at most two letters right after one (its unit or letter:
    "15 mm", "2 b"), is never the head: "spanner" for spanner_15mm ("the 15 mil spanner",
    "the spanner he was holding").
    """
    own = names[name]
    typ = [stem(w) for w in name_words(kg.entities[name]) if not w.isdigit()]
    heads = {typ[-1]} & set(own) if typ else set()
    if not heads:
        plain = [w for k, w in enumerate(own) if not w.isdigit() and w not in names
                 and not (k and own[k - 1].isdigit() and len(w) <= 2)]
        if plain:
            heads.add(plain[-1])
    if len(own) == 1:
        heads.add(own[0])
    return heads


def resolve(kg: KnowledgeGraph, text: str, *, rare: int = RARE,
            steady: Collection[str] | None = None,
            predicates: Collection[str] = (),
            places: Mapping[str, int] | Collection[str] = (),
            people: Collection[str] = ()) -> list[Mention]:
    """Return the mentions of ``text``, in reading order, each with its candidates.

    ``steady``: the predicates no change touches (see :func:`.narrowing.narrow`); None: all.
    ``places``: the binary predicates that say where a thing is, each with the position of
    the thing (:meth:`~l3mp_ros.world.constraints.Constraints.place_keys`; a plain
    collection: the thing first); with them, a mention is also narrowed to the candidates
    that lie in a place the utterance names.
    ``predicates``: the domain's predicate names; a word of one ("put the lights on" for
    ``lights_on``) is a relation, so it names no entity alone unless it is that entity's
    head noun ("the light bulbs" still names ``light_bulbs``).
    ``people``: the entities said as names; a name written alone is the person whose first
    name it is, not a thing named after them ("lent Oscar the red one").
    """
    said = [stem(w) for w in words(text)]
    if not said or not kg.entities:
        return []
    tokens = word_tokens(text)  # the same tokenizer as words(): one token per word
    owner = [t[2].endswith(("'s", "s'")) for t in tokens]
    proper = _proper(text, tokens)
    names = {n: [stem(w) for w in name_words(n)] for n in kg.entities}
    heads = {n: _heads(kg, n, names) for n in names}
    df: Counter[str] = Counter(w for ws in names.values() for w in set(ws))
    relation = {stem(w) for p in predicates for w in name_words(p)}
    breaks = [k > 0 and bool(_PUNCT.search(text[tokens[k - 1][1]:tokens[k][0]]))
              for k in range(len(tokens))]
    capital = [text[a].isupper() for a, _, _ in tokens]  # a name, or a sentence's start
    # "Milk's out of the fridge.", "Gaz: milk's on the counter": a word that starts a
    # sentence as its bare subject, the verb joined to it or right after it, is a noun
    # (like "the milk")
    bare = [_starts(text, tokens[k][0])
            and (owner[k] or k + 1 < len(said) and said[k + 1] in _BE_HAVE)
            for k in range(len(said))]
    mentions = _claim(said, _runs(kg, said, owner, names, heads, df, rare, proper, relation,
                                  people, breaks, capital, bare), names, heads, df)
    for m in mentions:
        start, end = m.part or (m.start, m.end)
        m.surface = text[tokens[start][0]:tokens[end - 1][1]]
        if m.surface.count('"') % 2:  # 'the book "The Odyssey': close the quote
            m.surface += '"'

    _named_alone(mentions, said, capital, owner, names, people)
    mentions = _parents(mentions, text, tokens, names, people)
    mentions = _kind_before_own(mentions, text, tokens, said, names, breaks)
    found = {m.start: list(m.candidates) for m in mentions}
    heads = narrow(kg, mentions, said, names, owner, steady, places)
    for m in mentions:
        m.describes = heads.get(m.start)
        m.named = tuple(found[m.start])
        last = tokens[m.end - 1][2]
        m.plural = (not owner[m.end - 1] and last.endswith('s') and not last.endswith('ss')
                    and said[m.end - 1] != last) or (
            m.start > 0 and said[m.start - 1] in KINDS)  # "every light"
        if m.plural:
            _counted(kg, m, found[m.start], mentions, [t[2].lower() for t in tokens])
    return _families(kg, mentions, said, [text[a:b] for a, b, _ in tokens], proper, names)


def _named_alone(mentions: list[Mention], said: list[str], capital: list[bool],
                 owner: list[bool], names: dict[str, list[str]],
                 people: Collection[str]) -> None:
    """Narrow a name written alone to the one person it is the first name of.

    "I've lent Oscar the red one": one capitalised word, the first word of ``oscar_reid``
    and of ``oscar_guitar``; a thing named after its owner is said with its own words
    ("Oscar's guitar"), so "Oscar" alone is the person (``people``: the entities the
    domain's phrasing says as names), and so is "Ben's" before a word no candidate's name
    holds ("Ben's fees", "Zara's come up").
    """
    for m in mentions:
        after = said[m.end] if m.end < len(said) else ''
        if m.end - m.start != 1 or len(m.candidates) < 2 or not capital[m.start] \
                or owner[m.start] and any(after in names[e] for e in m.candidates):
            continue  # "Oscar's guitar": what is Oscar's; "Ben's fees", "Zara's come": Ben
        alone = [e for e in m.candidates if e in people and names[e][:1] == [said[m.start]]
                 and said[m.start] not in TITLES]
        if len(alone) == 1:
            m.candidates = alone


def _kind_before_own(mentions: list[Mention], text: str, tokens: list[tuple[int, int, str]],
                     said: list[str], names: dict[str, list[str]],
                     breaks: list[bool]) -> list[Mention]:
    """Join a thing said by its kind to what is named after it, right behind it.

    "moved the rabbit carrier onto the shelf": "rabbit" names ``pepper`` by its type and
    "carrier" names ``pepper_carrier``, whose name is pepper's followed by its own words:
    the two words are the carrier of the rabbit, one mention, not the rabbit and a carrier.
    Not when the first word is the thing's own name ("Pepper carrier" is one run already).
    """
    out: list[Mention] = []
    joined = -1
    for k, m in enumerate(mentions):
        if k == joined:
            continue  # joined into the mention before it
        nxt = mentions[k + 1] if k + 1 < len(mentions) else None
        x = m.resolved
        own = [y for y in nxt.candidates if len(names[y]) > len(names[x])
               and names[y][:len(names[x])] == names[x]] if nxt and x else []
        if len(own) != 1 or m.end != nxt.start or breaks[nxt.start] \
                or m.end - m.start != 1 or nxt.part is not None or said[m.start] in names[x]:
            out.append(m)
            continue
        joined = k + 1
        out.append(dataclasses.replace(nxt, start=m.start, text=f'{m.text} {nxt.text}',
                                       candidates=own,
                                       surface=text[tokens[m.start][0]:tokens[nxt.end - 1][1]]))
    return out


#: a parent said through their child ("her mum", "their dad"), by the titles they go by
PARENTS = {'mum': ('mrs', 'ms', 'miss'), 'mother': ('mrs', 'ms', 'miss'),
           'mom': ('mrs', 'ms', 'miss'), 'dad': ('mr',), 'father': ('mr',)}
CHILD_OWNERS = frozenset('her his their'.split())  # whose parent: the person named before


def _parents(mentions: list[Mention], text: str, tokens: list[tuple[int, int, str]],
             names: dict[str, list[str]], people: Collection[str]) -> list[Mention]:
    """Add the parent "her mum" names: the titled person of the child's family.

    "Maya Khan and her mum": the person named last before "her" is maya_khan, and the one
    person of her family name with a woman's title is mrs_khan. Nothing when no one or
    several fit, or the word already belongs to a mention.
    """
    low = [re.sub(r"['\u2019]s$", '', t[2].lower()) for t in tokens]  # "their dad's just paid"
    taken = {k for m in mentions for k in range(m.start, m.end)}
    added: list[Mention] = []
    for k, w in enumerate(low):
        if w not in PARENTS or k == 0 or k in taken or low[k - 1] not in CHILD_OWNERS:
            continue
        before = [m.resolved for m in mentions if m.end <= k - 1 and m.resolved in people]
        if not before or len(names[before[-1]]) < 2:
            continue
        family = names[before[-1]][-1]
        fit = [p for p in people if len(names[p]) == 2 and names[p][0] in PARENTS[w]
               and names[p][1] == family]
        if len(fit) == 1:
            added.append(Mention(k, k + 1, w, [fit[0]],
                                 surface=text[tokens[k][0]:tokens[k][1]]))
    return sorted(mentions + added, key=lambda m: m.start) if added else mentions


#: said after a family name, the word makes it the whole family ("the Hughes family")
FAMILY = frozenset('family couple'.split())


def _families(kg: KnowledgeGraph, mentions: list[Mention], said: list[str], raw: list[str],
              proper: list[bool], names: dict[str, list[str]]) -> list[Mention]:
    """Read a family name as each of the family, one mention per member.

    "the Hughes", "the Hughes family", "the Okoyes": a capitalised word that ends the
    names of several entities of one type (``mr_hughes``, ``mrs_hughes``) denotes all of
    them after "the" or before "family": each member becomes a mention of its own at
    the same words, so every reading of who was named sees both. "Mr and Mrs Hughes":
    the mention of Mrs Hughes gains Mr Hughes when a title and "and" come before it.
    """
    out: list[Mention] = []
    for m in mentions:
        members = _family(kg, m, said, proper, names)
        if members:
            out.extend(Mention(m.start, m.end, m.text, [n], surface=m.surface, part=m.part,
                               describes=m.describes, plural=True, by_place=m.by_place,
                               named=(n,))
                       for n in members)
            continue
        out.append(m)
        pair = _titled_pair(m, said, names)
        if pair is not None:  # "Mr": its own mention, said with the name it shares
            title = m.start - 2
            out.append(Mention(title, title + 1, said[title], [pair],
                               surface=' '.join([raw[title], *m.surface.split()[1:]]),
                               describes=m.describes, named=(pair,)))
    out.sort(key=lambda m: m.start)
    return out


def _family(kg: KnowledgeGraph, m: Mention, said: list[str], proper: list[bool],
            names: dict[str, list[str]]) -> list[str]:
    """Return the members a one-word mention names as a family, or nothing."""
    found = list(m.named) or list(m.candidates)
    if m.end - m.start != 1 or len(found) < 2 or not proper[m.start]:
        return []
    word = said[m.start]
    if not (m.start > 0 and said[m.start - 1] == 'the'
            or m.end < len(said) and said[m.end] in FAMILY):
        return []
    kinds = {kg.entities[n] for n in found}  # parents and children may be of two types
    if any(word in {stem(w) for w in name_words(k)} for k in kinds):
        return []  # "the Leads" of a type lead: the kind, not a family
    # each a name ending in the family word; the words before it a title or a given name,
    # not another entity's name ("luna_lead": Luna's lead, not one of a family "Lead")
    if any(len(names[n]) < 2 or names[n][-1] != word
           or any(w not in TITLES and w in names for w in names[n][:-1]) for n in found):
        return []
    return sorted(found)


def _titled_pair(m: Mention, said: list[str], names: dict[str, list[str]]) -> str | None:
    """Return who "Mr and" before "Mrs Hughes" names: the one titled so with that name."""
    n = m.resolved
    if n is None or m.start < 2 or said[m.start - 1] != 'and' \
            or said[m.start - 2] not in TITLES or said[m.start] not in TITLES:
        return None
    want = [said[m.start - 2], *names[n][1:]]
    if names[n][0] != said[m.start]:
        return None
    return next((e for e, ws in names.items() if ws == want and e != n), None)


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


def _starts(text: str, at: int, ends: str = '.!?:') -> bool:
    """Tell whether the word at character ``at`` starts a sentence (or what follows a colon)."""
    before = text[:at].rstrip()
    return not before or before[-1] in ends


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
        out.append(quoted[k] or (text[a].isupper() and not _starts(text, a, '.!?')))
    return out


def _runs(kg: KnowledgeGraph, said: list[str], owner: list[bool],
          names: dict[str, list[str]], heads: dict[str, set[str]], df: Counter[str],
          rare: int, proper: list[bool] | None = None,
          relation: Collection[str] = (),
          people: Collection[str] = (),
          breaks: list[bool] | None = None,
          capital: list[bool] | None = None,
          bare: list[bool] | None = None) -> list[tuple[int, int, str]]:
    """Return every (start, end, entity) run of words that may name the entity.

    A word few names share names each of them alone after a determiner ("the acetone")
    or when written as a name (``proper``: 'took "Candide"') or as a sentence's bare
    subject (``bare``: "Milk's out of the fridge"); a person's first name
    written as a name names them however many things carry it ("Lily and Ben": Lily's
    folder, violin and case beside Lily Fisher). A run never crosses punctuation
    (``breaks``: "Mr Fisher: Lily's gone" has no run "Fisher Lily").
    """
    proper = proper or [False] * len(said)
    breaks = breaks or [False] * len(said)
    capital = capital or proper
    bare = bare or [False] * len(said)
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
            while j < len(said) and said[j] in wset and said[j] not in seen \
                    and not (j > i and breaks[j]):
                seen.add(said[j])
                j += 1
            alone = j - i == 1
            if alone and len(ws) > 1 and i > 0 and said[i - 1] in names \
                    and len(names[said[i - 1]]) == 1 and not owner[i - 1] and not breaks[i]:
                i = j  # "Sven set the plate": a verb after a name, not the spatula set
                continue
            if not alone or said[i] in heads[n] or (
                    capital[i] and n in people and ws[0] == said[i]
                    and said[i] not in TITLES) or (
                    df[said[i]] <= rare and said[i] not in relation and (
                        not said[i].isdigit() and len(said[i]) > 2
                        and (proper[i] or bare[i] or i > 0 and said[i - 1] in DETERMINERS)
                        # "the forty-five": a number of two digits or more a few names
                        # share, said as a noun, names them ("the 2 bags" does not)
                        or said[i].isdigit() and len(said[i]) > 1 and i > 0
                        and said[i - 1] in DETERMINERS)):
                runs.append((i, j, n))
            i = j
    for i, w in enumerate(said):  # "Andrew's room": bedroom, a compound head (not "lock": block)
        # a word of three letters only as a noun ("the box": toolbox; not "I've let him")
        if len(w) > 2 and w not in STOPWORDS and (len(w) > 3 or i > 0 and (
                said[i - 1] in DETERMINERS or owner[i - 1])):
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


def referents(kg: KnowledgeGraph, text: str) -> list[str]:
    """Return every entity a mention of ``text`` may denote, in reading order."""
    return candidates(resolve(kg, text))
