# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Where a verb of going goes: the place named right after it is a place one can be in.

"went to stage left" names ``stage_left_wing``, ``door_stage_left`` and
``torch_stage_left`` alike by their words; after a verb of going only the wing is a place
someone can be, so the mention is narrowed to it. "popped along to wardrobe" names no
entity at all (the word is in too many names to name one alone); after a verb of going it
names the one of them that is such a place (``wardrobe_room``). Only the shape of English
(the verbs of going of :func:`.clauses.going_ends`) and the domain's own place rules: no
word of any domain.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ...retrieval.mention import DETERMINERS, Mention, word_tokens
from ...text import STOPWORDS, TITLES, name_words, split_name, stem, words
from ...world.kg import Fact, KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from .clauses import bringing_spans, going_ends, named_as_source
from .wording import predicate_words

AHEAD = 2  # words a destination may start after its verb of going ("to the other ...")
TOWARDS = frozenset('to into onto towards toward'.split())  # a later place things go to
#: before a thing gone to as a landmark: "back at the tent", "over to the counter" (not
#: "got into his robe", which is dressing)
BESIDE = frozenset('to at towards toward by'.split())


def destinations(world: WorldModel, kg: KnowledgeGraph, text: str,
                 mentions: list[Mention]) -> list[Mention]:
    """Return ``mentions`` with the places after verbs of going settled where they can be.

    A mention right after a verb of going keeps only its candidates that are places for
    the one who went (by the domain's place rules), when some but not all of them are
    (when none is, the one place among what its words named before the graph narrowed
    them: "through to consult two" is the room the graph had read as its door); a
    word there that no mention holds becomes one when exactly one entity whose name holds
    it is such a place. Mentions stay in reading order; the others are unchanged.
    """
    out = list(mentions)
    said = [stem(w) for w in words(text)]
    tokens = word_tokens(text)
    for end in going_ends_with(world, kg, text, mentions):
        after = len(words(text[:end]))
        mover = next((m for m in reversed(out) if m.end <= after and m.resolved
                      and place_predicates(world, kg, m.resolved)), None)
        wheres = place_predicates(world, kg, mover.resolved if mover else None)
        near = next((m for m in out if after <= m.start <= after + AHEAD), None)
        if near is not None:
            places = [c for c in near.candidates if is_place(world, kg, c, wheres)]
            right_after = near.start == after + sum(w in DETERMINERS
                                                    for w in said[after:near.start])
            named = [c for c in near.named if is_place(world, kg, c, wheres)]
            named = [c for c in named if not any(  # the room, not the desk that is in it
                len(f.args) == 2 and world.constraints.thing_of(f) == c
                and world.constraints.place_of(f) in named for f in kg.facts_of(c))]
            if places and len(places) < len(near.candidates) and right_after:
                near.candidates = places
            elif not places and len(named) == 1 and right_after:
                near.candidates = named  # "through to consult two": the room, not its door
            elif not places and right_after:  # "went into the store room": not its key
                kind = typed_place(world, kg, said[near.start:near.end], wheres)
                if kind is None and not set(near.candidates) & proper_things(world, kg):
                    # not the owner before a place ("into Anna's room": Anna)
                    kind = worded_place(world, kg, said[near.start:near.end], wheres)
                if kind is None and near.resolved is not None \
                        and _led_by(said, near.start) in BESIDE and not any(
                        is_place(world, kg, c, wheres) for c in near.named) \
                        and near.resolved not in proper_things(world, kg):
                    kind = where_it_lies(world, kg, near.resolved, wheres)
                if kind is not None:
                    near.candidates = [kind]
            continue
        k = after + sum(1 for w in said[after:after + AHEAD] if w in DETERMINERS)
        if k >= len(said) or said[k] in STOPWORDS or any(m.start <= k < m.end for m in out):
            continue
        named = [n for n in kg.entities if said[k] in {stem(w) for w in name_words(n)}]
        places = [n for n in named if is_place(world, kg, n, wheres)]
        if len(places) == 1:
            new = Mention(k, k + 1, said[k], places, surface=text[tokens[k][0]:tokens[k][1]])
            out = sorted([*out, new], key=lambda m: m.start)
    return out


def proper_things(world: WorldModel, kg: KnowledgeGraph) -> set[str]:
    """Return the entities said by their names (people, named animals)."""
    proper = Phrasing(world.domain, kg).proper
    return {e for e, kind in kg.entities.items() if kind in proper}


def where_it_lies(world: WorldModel, kg: KnowledgeGraph, thing: str,
                  wheres: Collection[str], depth: int = 3) -> str | None:
    """Return the place for ``wheres`` that holds ``thing``, else None.

    "Ollie and I are back at the tent": a thing after a verb of going and "to", "at" or
    "by", where no one can be, names the place it lies in (the tent on pitch 4, pitch 4
    in the lower field: the lower field). Up through the place rules' facts, one place at
    each step, at most ``depth`` steps, each by the rules that keep a thing in exactly one
    place (not "a pitch is booked to one party at most").
    """
    rules = world.constraints.place_predicates()
    seen, here = {thing}, thing
    for _ in range(depth):
        ups = {world.constraints.place_of(f) for f in kg.facts_of(here)
               if f.predicate in rules and len(f.args) == 2
               and world.constraints.thing_of(f) == here}
        if len(ups) != 1:
            return None
        here = ups.pop()
        if here in seen:
            return None
        if is_place(world, kg, here, wheres):
            return here
        seen.add(here)
    return None


def worded_place(world: WorldModel, kg: KnowledgeGraph, said: Sequence[str],
                 wheres: Collection[str]) -> str | None:
    """Return the one place whose name holds every word said of it, else None.

    "brought Mr and Mrs Hughes through to the kennels": the kennels a person can be in is
    the kennel block, the one such place whose name holds "kennel" (the word names the
    kennels inside it too, where no person is).
    """
    own = {w for w in said if w not in DETERMINERS and w not in STOPWORDS}
    if not own:
        return None
    fits = [n for n in kg.entities if is_place(world, kg, n, wheres)
            and own <= {stem(w) for w in name_words(n)}]
    return fits[0] if len(fits) == 1 else None


def going_ends_with(world: WorldModel, kg: KnowledgeGraph, text: str,
                    mentions: Sequence[Mention]) -> list[int]:
    """Return where each verb of going or taking along ends, and each bringing of someone.

    "brought Mr and Mrs Hughes through to the kennels" goes there; "brought the book to
    the table" does not: someone said by name must stand among what is brought.
    """
    ends = going_ends(text, escort=True)
    spans = bringing_spans(text)
    if not spans:
        return ends
    proper = proper_things(world, kg)
    tokens = word_tokens(text)
    for start, end in spans:
        first = sum(1 for t in tokens if t[1] <= start)
        last = sum(1 for t in tokens if t[0] < end)
        if any(first <= m.start and m.end <= last and m.resolved in proper for m in mentions):
            ends.append(end)
    return sorted(ends)


def typed_place(world: WorldModel, kg: KnowledgeGraph, said: Sequence[str],
                wheres: Collection[str]) -> str | None:
    """Return the one place the words name by its type and another word, else None.

    "went into the store room" where the store room's words name only its key: "room"
    is the name of a type of place (the domain's own), so the words mean a room; the one
    room whose name shares another of the words ("parts_store") is meant. None unless
    exactly one such place shares the most of them.
    """
    kinds = {t for t in world.domain.types if any(takes_place(world, p, t) for p in wheres)}
    typed = {w for w in said if w in {stem(x) for t in kinds for x in name_words(t)}}
    rest = set(said) - typed - DETERMINERS - STOPWORDS
    if not typed or not rest:
        return None
    scored: dict[int, list[str]] = {}
    for n, t in kg.entities.items():
        if not is_place(world, kg, n, wheres):
            continue
        shared = len(rest & {stem(w) for w in name_words(n)})
        own = {stem(x) for a in world.domain.ancestors(t) for x in name_words(a)}
        if shared and typed & own:  # a room for "room", whatever its name
            scored.setdefault(shared, []).append(n)
    best = scored.get(max(scored, default=0), [])
    return best[0] if len(best) == 1 else None


def _led_by(said: list[str], start: int) -> str:
    """Return the word before the mention at ``start``, determiners skipped ('' at 0)."""
    k = start - 1
    while k >= 0 and said[k] in DETERMINERS:
        k -= 1
    return said[k] if k >= 0 else ''


def place_predicates(world: WorldModel, kg: KnowledgeGraph, mover: str | None
                     ) -> frozenset[str]:
    """Return the predicates that say where ``mover`` is.

    None: those of every rule that keeps each thing in exactly one place (not "at most
    one" ties such as which TV a remote controls).
    """
    if mover is not None:
        groups = world.constraints.place_groups(world.domain, kg.entities.get(mover),
                                                exactly=False)
        return frozenset(p for g in groups for p in g)
    preds = world.domain.predicates
    return frozenset(p for p in world.constraints.place_predicates()
                     if p in preds and preds[p].arity == 2)


def is_place(world: WorldModel, kg: KnowledgeGraph, entity: str,
             wheres: Collection[str]) -> bool:
    """Tell whether ``entity`` can be the place of one of ``wheres`` (by its type)."""
    kind = kg.entities.get(entity)
    return kind is not None and any(takes_place(world, p, kind) for p in wheres)


def takes_place(world: WorldModel, predicate: str, kind: str) -> bool:
    """Tell whether place ``predicate`` takes a thing of type ``kind`` as its place.

    The argument the constraint rules do not key on: the second of ``placed_at(item,
    table)``, the first of ``occupied_by(place, person)``.
    """
    return world.domain.accepts(predicate, world.constraints.place_position(predicate), kind)


def takes_thing(world: WorldModel, predicate: str, kind: str) -> bool:
    """Tell whether place ``predicate`` takes a thing of type ``kind`` as what it places."""
    return world.domain.accepts(predicate, world.constraints.thing_position(predicate), kind)


def settled_places(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: list[Mention],
                   movers: Sequence[str], predicates: Collection[str]) -> set[Fact]:
    """Return where the words alone put ``movers``: the place right after a verb of going.

    "Mia just headed over to the student office": Mia is in the student office, by the
    shape of the sentence; a yes/no read-back of it buys nothing (the model said yes to
    36 of 37 such statements on the public and dev sets, and to the one wrong too). Only
    the last verb of going counts, its place named right after it (determiners between;
    after "from" the place, then "to" and where it went),
    and only when no place of the movers is named after it, nor anything after "to" or
    "into" ("went into the cold room and brought the yoghurt out to the packing table" is
    not settled).
    """
    ends = going_ends_with(world, kg, text, mentions)
    if not ends or not movers:
        return set()
    said = [stem(w) for w in words(text)]
    after = len(words(text[:ends[-1]]))
    # "gone through to the cafe", "gone back out onto the path": one word of towards may
    # stand between the verb's own words and the place; "come in from the heap to the shed"
    # names where they came from first
    source = bool(after) and said[after - 1] == 'from'
    if not source and after < len(said) and said[after] == 'from':
        source, after = True, after + 1
    near = _owned(text, mentions, next((m for m in mentions if after <= m.start <= after + AHEAD),
                                       None))
    between = said[after:near.start] if near is not None else []
    if near is None or near.resolved is None or any(
            w not in DETERMINERS for w in between[1 if between[:1] and between[0] in TOWARDS
                                                  and not source else 0:]):
        return set()
    if source:  # "walked up from his plot to the potting shed"
        on = _owned(text, mentions, next((m for m in mentions if m.start > near.end), None))
        # only "to" between, or a word the source's mention left out: "the compost heap to"
        rest = [w for w in said[near.end:on.start] if w not in DETERMINERS] if on else []
        if on is None or rest[-1:] != [_led_by(said, on.start)] or rest[-1] not in TOWARDS \
                or len(rest) > 2 or (len(rest) == 2 and rest[0] in STOPWORDS):
            return set()
        near = on
    later = [m for m in mentions if m.start >= near.end]
    kin = place_predicates(world, kg, movers[0])

    def someone(m: Mention) -> bool:  # "handed his fork to Alf": one placed as the mover is
        return m.resolved is not None and bool(place_predicates(world, kg, m.resolved) & kin)
    if any(_led_by(said, m.start) in TOWARDS and not someone(m) for m in later):
        return set()  # "... and brought the yoghurt out to the packing table": on again
    named = [c for m in later for c in m.candidates]
    out: set[Fact] = set()
    for mover in movers:
        wheres = place_predicates(world, kg, mover)
        # a later place of the same kind ("... and then to the bathroom"; not a person
        # named later, who may hold an animal but is no room)
        kinds = {p for p in wheres if takes_place(world, p, kg.entities[near.resolved])}
        if not kinds or any(is_place(world, kg, c, kinds) for c in named):
            continue
        out |= {world.constraints.located(p, mover, near.resolved)
                for p in wheres & set(predicates)
                if takes_place(world, p, kg.entities[near.resolved])}
    return out


#: the verb of coming: a going towards where the speaker is ("have just come in from the
#: car park", said by someone on the front desk)
COMING = frozenset('come came comes coming'.split())


def coming_to(world: WorldModel, kg: KnowledgeGraph, text: str, verb: str,
              movers: Sequence[str], predicates: Collection[str],
              speaker: str | None) -> set[Fact]:
    """Return where a verb of coming puts ``movers``: where the speaker is, or nothing.

    "Priya on the desk: the Okoye family have just come in from the car park": "come"
    goes towards the one who speaks, so with no place named after the verb (a place they
    came from aside) the movers are where the speaker is now (one place of a kind their
    place predicates take). Nothing when the verb is no form of "come", the speaker is
    unknown or among the movers, "to" or "into" follows the verb in its sentence, or a
    mover is there already.
    """
    said = verb.lower().split()
    if speaker is None or not said or said[0] not in COMING or speaker in movers:
        return set()
    low = text.lower()
    at = low.find(verb.lower())
    rest = re.split(r'[.!?;]', low[at + len(verb):])[0] if at >= 0 else ''
    if at < 0 or TOWARDS & set(words(rest)) - {'from'}:
        return set()
    wheres = place_predicates(world, kg, speaker)
    here = {world.constraints.place_of(f) for f in kg.facts_of(speaker)
            if f.predicate in wheres and len(f.args) == 2
            and world.constraints.thing_of(f) == speaker}
    if len(here) != 1:
        return set()
    place = here.pop()
    kind = kg.entities.get(place)
    out: set[Fact] = set()
    for mover in movers:
        fits = [p for p in sorted(place_predicates(world, kg, mover) & set(predicates))
                if kind is not None and takes_place(world, p, kind)]
        fact = world.constraints.located(fits[0], mover, place) if len(fits) == 1 else None
        if fact is None or fact in kg:
            return set()
        out.add(fact)
    return out


GIVING = frozenset('gave give gives giving handed hand hands handing passed pass passes '
                   'passing'.split())  # verbs of handing a thing over to someone
OVER = frozenset('back over across'.split())  # "gave the key back to Nadia"


def _by_start(mentions: Sequence[Mention], single: bool = False) -> dict[int, Mention]:
    """Return the longest resolved mention starting at each word.

    "the living room table", not the "living room" inside it; ``single``: only mentions
    that can be nothing else.
    """
    out: dict[int, Mention] = {}
    for m in mentions:
        if m.resolved and (not single or len(m.candidates) == 1) \
                and (m.start not in out or m.end > out[m.start].end):
            out[m.start] = m
    return out


def _owned(text: str, mentions: Sequence[Mention], m: Mention | None) -> Mention | None:
    """Return what an owner mention owns ("to Irene's room": the room), else ``m``.

    The longest resolved mention starting right after an owner written with "'s"; the
    owner's start is kept, so what stands before it still leads the place.
    """
    if m is None or not written_as_owner(text, m):
        return m
    owned = _by_start(mentions).get(m.end)
    return m if owned is None else Mention(m.start, owned.end, owned.text,
                                           list(owned.candidates), surface=owned.surface)


def written_as_owner(text: str, m: Mention) -> bool:
    """Tell whether mention ``m`` is written as an owner ("Ines's")."""
    tokens = word_tokens(text)
    return 0 < m.end <= len(tokens) and tokens[m.end - 1][2].endswith(("'s", "s'"))


def _named_at(text: str, said: list[str], by_start: dict[int, Mention], j: int,
              stop: Collection[str] = (), owner: bool = False) -> Mention | None:
    """Return the mention at word ``j``, determiners and titles skipped, else None.

    With ``stop``, one word the name lacks may come first unless it is one of ``stop``
    ("her pricing gun": ``price_gun``); with ``owner``, an owner is passed over for what
    it owns ("Ines's pain tablets": the tablets).
    """
    while j < len(said) and (said[j] in DETERMINERS or said[j] in TITLES):
        j += 1
    if stop and j not in by_start and said[j:j + 1] and said[j] not in stop:
        j += 1
    m = by_start.get(j)
    if owner and m is not None and written_as_owner(text, m) and m.end in by_start:
        m = by_start[m.end]
    return m


def _one_place(world: WorldModel, kg: KnowledgeGraph, thing: str, other: str,
               owned: bool = False) -> str | None:
    """Return the one place predicate some action changes that takes ``thing``, ``other``.

    ``owned``: without such a predicate, the one any takes ("belongs to" alone).
    """
    kind = kg.entities.get(other)
    preds = [p for p in place_predicates(world, kg, thing)
             if kind is not None and takes_place(world, p, kind)]
    moved = [p for p in preds if p in world.domain.fluent_predicates()]
    preds = (moved or preds) if owned else moved  # held, not owned: actions change holding
    return preds[0] if len(preds) == 1 else None


def settled_gifts(world: WorldModel, kg: KnowledgeGraph, text: str,
                  mentions: list[Mention]) -> set[Fact]:
    """Return what the words alone say a person now holds: "handed his scanner to Omar".

    A verb of handing over, a thing named right after it (determiners between), "back",
    "over" or "across" at most, then "to" and someone named, or someone named and then the
    thing ("gave Ines her cough syrup"); the fact is the one place
    predicate that takes the thing first and such a someone second (none when several
    do: "worn by" beside "held by"; of those, the ones some action changes: "held by",
    not "belongs to"). As with :func:`settled_places`, a read-back of it buys
    nothing: the model's doubt there is about the sentence, not the report.
    """
    said = [stem(w) for w in words(text)]
    by_start = _by_start(mentions)
    out: set[Fact] = set()
    for k, w in enumerate(said):
        if w not in GIVING:
            continue
        thing = _named_at(text, said, by_start, k + 1, stop={'to'})
        if thing is None:
            continue
        j = thing.end
        while j < len(said) and said[j] in OVER:
            j += 1
        whom = _named_at(text, said, by_start, j + 1) \
            if j < len(said) and said[j] == 'to' else None
        if whom is None and not written_as_owner(text, thing):
            # "gave Ines her cough syrup": whom first, then the thing
            whom, thing = thing, _named_at(text, said, by_start, thing.end)
        if whom is None or thing is None or kg.entities.get(thing.resolved) is None:
            continue
        pred = _one_place(world, kg, thing.resolved, whom.resolved, owned=True)
        if pred is not None:
            out.add(world.constraints.located(pred, thing.resolved, whom.resolved))
    return out


#: words that stand for a thing handed over, and for the one it is handed to
IT = frozenset('it them'.split())
WHOM = frozenset('him her them'.split())
SPEAKERS = frozenset('i we you'.split())  # a giver no mention names


def worded_gifts(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: list[Mention],
                 people: Collection[str]) -> set[Fact]:
    """Return what the words say someone now holds, pronouns read: "handed it to her".

    :func:`settled_gifts`, and where a pronoun stands for the thing or the one it goes to:
    "it"/"them" is the last thing named before the verb that such a one can hold, not one
    named as where something came from ("took the wheel off her cargo bike"); "him",
    "her" or "them" is the one person (of ``people``' types) the report names who is not the
    giver, the last person named before the verb unless "I", "we" or "you" gives ("so I've
    given it him"). Shapes: "handed it (back) to X", "handed the bike to her", "given her
    Biscuit's ear drops", "given it him". None where a pronoun could be two people.
    """
    out = settled_gifts(world, kg, text, mentions)
    said = [stem(w) for w in words(text)]
    by_start = _by_start(mentions)
    named = sorted((m for m in mentions if m.resolved), key=lambda m: m.start)
    persons = [m for m in named if kg.entities.get(m.resolved) in people]
    for k, w in enumerate(said):
        if w not in GIVING and w != 'given':  # "I've given it him" (no pronoun: as before)
            continue
        before = [m for m in persons if m.end <= k]
        lead = k - 1
        while lead >= 0 and said[lead] in AUXILIARY:
            lead -= 1
        giver = None if lead >= 0 and said[lead] in SPEAKERS else (
            before[-1].resolved if before else None)
        others = list(dict.fromkeys(m.resolved for m in persons if m.resolved != giver))
        whom_said = others[0] if len(others) == 1 else None
        j = k + 1
        thing: str | None = None
        whom: str | None = None
        if said[j:j + 1] and said[j] in IT:  # "handed it (back) to her", "given it him"
            j += 1
            while j < len(said) and said[j] in OVER:
                j += 1
            if said[j:j + 1] == ['to']:
                got = _named_at(text, said, by_start, j + 1)
                whom = got.resolved if got is not None else (
                    whom_said if said[j + 1:j + 2] and said[j + 1] in WHOM else None)
            elif said[j:j + 1] and said[j] in WHOM:
                whom = whom_said
            if whom is not None:
                thing = next((m.resolved for m in reversed(named) if m.end <= k
                              and not named_as_source(said, m.start)  # "off her bike"
                              and m.resolved != whom and m.resolved not in others
                              and kg.entities.get(m.resolved) not in people
                              and _one_place(world, kg, m.resolved, whom) is not None), None)
        elif said[j:j + 1] and said[j] in WHOM and 'to' not in said[j + 1:j + 6]:
            got = _named_at(text, said, by_start, j + 1, owner=False)  # "given her the drops"
            whom, thing = whom_said, got.resolved if got is not None else None
        else:
            got = _named_at(text, said, by_start, j, stop={'to'})  # "handed the bike to her"
            if got is not None:
                at = got.end
                while at < len(said) and said[at] in OVER:
                    at += 1
                if said[at:at + 2] and said[at] == 'to' and said[at + 1] in WHOM:
                    whom, thing = whom_said, got.resolved
        if thing is None or whom is None or kg.entities.get(thing) is None:
            continue
        pred = _one_place(world, kg, thing, whom, owned=True)
        if pred is not None:
            out.add(world.constraints.located(pred, thing, whom))
    return out


#: words between a giver and the verb ("has just", "'s": a contraction is its own word)
AUXILIARY = frozenset('has have had is was just then also already s ve d'.split())


TAKING = frozenset('took take takes taking picked pick picks grabbed grab grabs fetched '
                   'fetch fetches lifted collected got pulled pulls'.split())  # taking a thing
#: words after which a thing is put somewhere else ("... and put it on the bench")
ONWARDS = frozenset('to into onto on in under inside'.split())


def settled_takes(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: list[Mention],
                  actor: str | None) -> set[Fact]:
    """Return what the last clause says its actor now holds: "... and took the rack".

    A verb of taking, "up" at most, the thing named right after it (determiners, and one
    word the name lacks, between); nothing after it in ``text`` (the report's last part)
    that follows "to", "into", "on" or "in" (the thing put somewhere else) nor another
    verb's "and"; the fact is the one place predicate some action changes that takes the
    thing and the actor. None without an actor.
    """
    # "the P200 pipette rack": a word the name lacks; "Ines's pain tablets"
    found = _acted_on(kg, text, mentions, actor, TAKING, 'up', ONWARDS)
    if found is None:
        return set()
    said, thing, _ = found
    rest = said[thing.end:]
    if ONWARDS & set(rest) or 'and' in rest:
        return set()  # "took the PBS out and opened it on the bench"
    pred = _one_place(world, kg, thing.resolved, actor)
    return {world.constraints.located(pred, thing.resolved, actor)} if pred is not None \
        else set()


def _acted_on(kg: KnowledgeGraph, text: str, mentions: list[Mention], actor: str | None,
              verbs: Collection[str], particle: str, stop: Collection[str]
              ) -> tuple[list[str], Mention, bool] | None:
    """Return the words, the thing named after the first of ``verbs`` and the particle.

    ``particle`` may stand between the verb and the thing ("picked up", "put on"); the
    thing is named by a mention that can be nothing else (determiners, owners and one word
    the name lacks, not one of ``stop``, between) and is not ``actor``. None without an
    actor, without such a verb, or without such a thing right after it.
    """
    if actor is None or kg.entities.get(actor) is None:
        return None
    said = [stem(w) for w in words(text)]
    k = next((k for k, w in enumerate(said) if w in verbs), None)
    if k is None:
        return None
    first = said[k + 1:k + 2] == [particle]
    thing = _named_at(text, said, _by_start(mentions, single=True), k + 1 + first,
                      stop=stop, owner=True)
    if thing is None or thing.resolved == actor:
        return None
    return said, thing, first


PUTTING = frozenset('put puts putting left leave leaves placed place places set sets hung '
                    'hang hangs dropped drop drops laid lay lays stood stand planted plant '
                    'plants'.split())
#: verbs of bringing a thing somewhere: its new place may follow "to" ("brought the mug
#: through to the table")
BRINGING = frozenset('brought bring brings carried carry carries moved move moves '
                     'wheeled loaded load loads'.split())
PARTICLES = frozenset('back down away up out through over round across'.split())
PLACING = frozenset('in on onto into at inside under'.split())  # before a thing's new place


def settled_puts(world: WorldModel, kg: KnowledgeGraph, text: str,
                 mentions: list[Mention]) -> set[Fact]:
    """Return where the last clause says a thing was put: "left the keycard in the hall".

    A verb of putting or bringing, particles ("back", "down", "through") at most, the thing
    named (determiners, and one word the name lacks, between; more joined by "and"), "from"
    and where it was at
    most, particles again, "in", "on", "onto", "into", "at", "inside" or "under" (or "to"
    after a verb of bringing), and the place named; nothing after it that follows such a
    word, "to" or "and" (the report's last part). The fact is the one place predicate some
    action changes that takes the thing and that place.
    """
    said = [stem(w) for w in words(text)]
    by_start = _by_start(mentions, single=True)

    def named(j: int) -> Mention | None:
        return _named_at(text, said, by_start, j, stop=ONWARDS | PLACING, owner=True)
    for k, w in enumerate(said):
        if w not in PUTTING and w not in BRINGING:
            continue
        j = k + 1
        while j < len(said) and said[j] in PARTICLES:
            j += 1
        thing = named(j)
        if thing is None:
            return set()
        things, j = [thing], thing.end
        while said[j:j + 1] == ['and'] and (more := named(j + 1)) is not None:
            things.append(more)  # "loaded the cuff and the thermometer onto the robot"
            j = more.end
        if said[j:j + 1] == ['from']:  # "moved the tablet from Theo's desk onto hers"
            where = named(j + 1)
            if where is None:
                return set()
            j = where.end
        while j < len(said) and said[j] in PARTICLES:
            j += 1
        if j >= len(said) or not (said[j] in PLACING or (w in BRINGING and said[j] == 'to')):
            return set()
        place = named(j + 1)
        if place is None or any(place.resolved == t.resolved for t in things):
            return set()
        rest = said[_described_to(said, mentions, place):]
        if (ONWARDS | PLACING) & set(rest) or 'and' in rest:
            return set()  # "... on the bench in the chem lab, then went over to ..."
        out: set[Fact] = set()
        for t in things:  # a place some action changes, or else the only one ("planted
            # them out in the bed")
            pred = _one_place(world, kg, t.resolved, place.resolved, owned=True)
            if pred is not None:
                out.add(world.constraints.located(pred, t.resolved, place.resolved))
        return out
    return set()


DRESSING = frozenset('put puts pulled pulls slipped slips'.split())  # "put on his coat"
WEARING = frozenset('wear wears wearing worn'.split())  # a predicate of what one wears


def settled_wearing(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: list[Mention],
                    actor: str | None) -> set[Fact]:
    """Return what the last clause says its actor put on: "... and put on his lab coat".

    "put", "pulled" or "slipped", then "on" and the thing (determiners, owners and one word
    the name lacks between), or the thing and then "on" at the clause's end ("put her coat
    on"); the fact is the one predicate whose words say wearing ("worn by") that takes the
    thing and the actor. None without an actor, or with anything after it.
    """
    found = _acted_on(kg, text, mentions, actor, DRESSING, 'on', {'on'})
    if found is None:
        return set()
    said, thing, on_first = found
    if said[thing.end:] != ([] if on_first else ['on']):
        return set()  # "put the coat on the hook": a place, not worn
    kind, whom = kg.entities.get(thing.resolved), kg.entities[actor]
    preds = [p for p, sig in world.domain.predicates.items() if sig.arity == 2
             and kind is not None and takes_thing(world, p, kind) and takes_place(world, p, whom)
             and WEARING & {stem(x) for x in predicate_words(p, world.domain)}]
    return {world.constraints.located(preds[0], thing.resolved, actor)} if len(preds) == 1 \
        else set()


def _described_to(said: list[str], mentions: Sequence[Mention], place: Mention) -> int:
    """Return where the words about ``place`` end: "the table in the clubhouse" is one place.

    Past a mention that describes it ("in the clubhouse"), when only a placing word and
    determiners stand between.
    """
    end = place.end
    for m in mentions:
        if m.describes == place.start and m.start >= end and all(
                w in PLACING or w in DETERMINERS for w in said[end:m.start]):
            end = m.end
    return end


#: words that turn a state's word round or say it held before ("not open", "still open")
NOT_NEW = frozenset('not no never still already'.split())


def _bare(word: str) -> set[str]:
    """Return the words ``word`` may be a form of: "opened" → opened, open, opene.

    Only the participle's own ending comes off: "charge" (on charge) is no form of
    "charged".
    """
    out = {word}
    if len(word) > 4 and word.endswith('ed'):
        out |= {word[:-2], word[:-1]}
    return out


def settled_states(world: WorldModel, text: str, mentions: list[Mention],
                   added: Collection[Fact]) -> set[Fact]:
    """Return the added states the report says in the predicate's own words.

    "The storage room door has been locked" read as ``door_locked`` of that door: every
    word of the predicate (its type words aside) stands in the report in order, the thing
    is named, and no "not", "n't", "still" or "already" stands within three words before
    them ("It's still open" restates; "isn't locked" turns it round); the thing is named by
    a mention that may be nothing else. Removals are never settled: "unlocked" is not
    "locked", "on charge" is not "charged".
    """
    said = [_bare(stem(w)) for w in words(text)]
    raw = [t[2] for t in word_tokens(text)]
    named = {m.resolved for m in mentions if m.resolved and len(m.candidates) == 1}
    out: set[Fact] = set()
    for f in added:
        if len(f.args) != 1 or f.args[0] not in named:
            continue
        need = [stem(w) for w in predicate_words(f.predicate, world.domain)
                if len(w) > 2 and w != 'is']
        at = next((k for k in range(len(said) - len(need) + 1) if need and all(
            w in forms for forms, w in zip(said[k:k + len(need)], need, strict=True))), None)
        if at is None:
            continue
        before = raw[max(0, at - 3):at]
        if any(w in NOT_NEW or w.endswith("n't") for w in before):
            continue
        out.add(f)
    return out


def worded_states(world: WorldModel, kg: KnowledgeGraph, text: str,
                  mentions: list[Mention]) -> set[Fact]:
    """Return the one-argument states the report says in the predicate's own words.

    "the alarm's set again", "I've signed the delivery note": for each one-argument
    predicate, the one thing of its type the report names by a mention that can be nothing
    else, when the state does not hold yet, and when the predicate's words stand in the
    report as :func:`settled_states` reads them. A reading without such a state leaves a
    clause out.
    """
    named = sorted({m.resolved for m in mentions if m.resolved and len(m.candidates) == 1
                    and m.resolved in kg.entities})
    found: list[Fact] = []
    for pred, sig in sorted(world.domain.predicates.items()):
        if sig.arity != 1:
            continue
        fits = [e for e in named if world.domain.is_subtype(kg.entities[e], sig.params[0][1])]
        if len(fits) == 1 and (fact := Fact(pred, (fits[0],))) not in kg:
            found.append(fact)
    return settled_states(world, text, mentions, found)


#: words of an action's name after its verb that say which way it turns a thing
TURNED = frozenset('on off up down in out open shut close closed back'.split())
#: words before a verb that say its deed is still to come ("so he can lock it", "to fill")
NOT_YET = frozenset('can could will would shall should must might may to gonna'.split())


def verb_forms(word: str) -> set[str]:
    """Return the bare verbs ``word`` may be a form of: "filled" → fill; "emptied" → empty.

    English endings only (-ed, -ied, -ing, -s), a doubled last letter undone ("fitted").
    """
    out = {word}
    if len(word) > 4 and word.endswith('ied'):
        out.add(word[:-3] + 'y')
    for end in ('ed', 'ing'):
        if len(word) > len(end) + 2 and word.endswith(end):
            bare = word[:-len(end)]
            out |= {bare, bare + 'e'}
            if bare[-1] == bare[-2]:
                out.add(bare[:-1])
    if len(word) > 3 and word.endswith('s') and not word.endswith('ss'):
        out |= {word[:-1], word[:-2] if word.endswith('es') else word[:-1]}
    return out


def acted_states(world: WorldModel, kg: KnowledgeGraph, text: str,
                 mentions: list[Mention]) -> set[Fact]:
    """Return the one-place states an action makes of the thing its verb is said of.

    "Before I came up I filled the blue water carrier at the standpipe": the domain's
    action named for filling makes ``(full ?c)`` true of its parameter (not an action
    whose name says a way to turn, "switch_on": :mod:`.switching` reads those); the
    report says the action's verb (the first word of its name, in any of its forms) with,
    as its object, a thing that parameter takes (the mention right after the verb, past
    determiners, owners and particles: "filled up our carrier"). The thing is named by a
    mention that can be nothing else, the state does not hold yet, no "not", "n't",
    "still" or "already" stands within three words before the verb nor a word that puts
    it to come right before it (:data:`NOT_YET`: "so he can lock"), and the verb is no
    word of a mention ("the charging point" charges nothing). English word shape and the
    domain's own names only.
    """
    domain = world.domain
    verbs: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for act in domain.actions.values():
        name = split_name(act.name)
        if any(w in TURNED for w in name[1:]):
            continue  # "switch_on", "turn_off_tv": the particle says which (switching.py)
        for pred, at in act.adds:
            p = domain.predicates.get(pred)
            if name and p is not None and p.arity == 1 and len(at) == 1 \
                    and 0 <= at[0] < len(act.params):
                verbs.setdefault(name[0], []).append((pred, act.params[at[0]][1]))
    if not verbs:
        return set()
    said = [t[2] for t in word_tokens(text)]
    starts = {m.start: m for m in mentions}
    inside = {k for m in mentions for k in range(m.start, m.end)}
    out: set[Fact] = set()
    for k, w in enumerate(said):
        made = [x for v in verb_forms(w) for x in verbs.get(v, ())]
        if not made or k in inside or (k and said[k - 1] in NOT_YET) or any(
                x in NOT_NEW or x.endswith("n't") for x in said[max(0, k - 3):k]):
            continue  # "so he can lock the stage door later": not done yet
        j = k + 1
        while j < len(said) and (said[j] in DETERMINERS or said[j] in PARTICLES
                                 or said[j].endswith("'s")) and j not in starts:
            j += 1
        m = starts.get(j)
        if m is None or not m.resolved or len(m.candidates) != 1 \
                or (kind := kg.entities.get(m.resolved)) is None:
            continue
        out |= {f for pred, types in made if domain.is_subtype(kind, types)
                and (f := Fact(pred, (m.resolved,))) not in kg}
    return out


def unworded_states(world: WorldModel, kg: KnowledgeGraph, text: str,
                    mentions: list[Mention]) -> set[Fact]:
    """Return the one-argument states the report ends by the predicate's word with "un".

    "switched the little amp off and unplugged it", "I've unlocked the store": for each
    one-argument predicate said in one word (its type words aside), the one thing of its
    type the report names by a mention that can be nothing else, when the state holds,
    and "un" and that word stand in the report, no "not", "n't" or "still" within three
    words before. English word shape only.
    """
    named = sorted({m.resolved for m in mentions if m.resolved and len(m.candidates) == 1
                    and m.resolved in kg.entities})
    said = [stem(w) for w in words(text)]
    raw = [t[2] for t in word_tokens(text)]
    out: set[Fact] = set()
    for pred, sig in sorted(world.domain.predicates.items()):
        need = [stem(w) for w in predicate_words(pred, world.domain) if len(w) > 2
                and w != 'is']
        if sig.arity != 1 or len(need) != 1:
            continue
        at = next((k for k, w in enumerate(said) if w == 'un' + need[0]), None)
        if at is None or any(w in NOT_NEW or w.endswith("n't") for w in raw[max(0, at - 3):at]):
            continue
        fits = [e for e in named if world.domain.is_subtype(kg.entities[e], sig.params[0][1])]
        if len(fits) == 1 and (fact := Fact(pred, (fits[0],))) in kg:
            out.add(fact)
    return out
