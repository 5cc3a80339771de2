# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Who acts in a report and where they went, without an LLM (Algorithm 3).

The thing a clause begins with (:func:`leading_subject`) and who acts in a part of several
(:func:`part_actor`); a subject said to go somewhere must move (:class:`GoingSubject`,
:func:`going`: the ``going`` and ``going_ask`` checks); whoever put a thing somewhere is
where that place is (:class:`PutBy`, :func:`put_by`: the ``actor_check``); the rooms of a
place (:func:`zone_of`, :func:`place_kinds`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...retrieval.mention import Mention, word_tokens
from ...retrieval.mention_lists import owner_at
from ...text import TITLES, WORD_RE, folded, words
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.clauses import (
    NOUN_STARTERS,
    SUBJECT_PRONOUNS,
    brought,
    escorted,
    goes_somewhere,
    named_as_source,
)
from ..core.destinations import is_place, place_predicates, proper_things, takes_place
from .scope import Scope


@dataclass(frozen=True)
class GoingSubject:
    """A report (part) telling that its subjects went somewhere: where they are must change."""

    subject: str  # the first of them
    words: str  # the verb of going as written: "came into"
    places: frozenset[str]  # the predicates that say where a subject is
    others: tuple[str, ...] = ()  # "Lucy and Ben went ...": the subjects after the first
    elided: bool = False  # "... and came straight back in": the subject is an earlier part's
    thing_second: frozenset[str] = frozenset()  # of ``places``, those naming the place first

    def thing(self, fact: Fact) -> str:
        """Return whom a fact of :attr:`places` places (``occupied_by(place, person)``)."""
        return fact.args[1] if fact.predicate in self.thing_second else fact.args[0]

    def missing(self, stated: Update) -> bool:
        """Tell whether ``stated`` says nothing of where one of the subjects is now."""
        return bool(self.unplaced(stated))

    def unplaced(self, stated: Update) -> list[str]:
        """Return the subjects ``stated`` does not place anywhere new."""
        placed = {self.thing(f) for f in stated.add if len(f.args) == 2
                  and f.predicate in self.places}
        return [s for s in (self.subject, *self.others) if s not in placed]

    def error(self, stated: Update | None = None) -> str:
        """Return the sentence that asks for the missing change."""
        who = self.unplaced(stated) if stated is not None else [self.subject, *self.others]
        names = ' and '.join(who or [self.subject])
        return (f'the report says {names} {self.words} somewhere: state where '
                f'{names} {"are" if len(who) > 1 else "is"} now')


#: words that may stand between a subject and its verb of going ("has just gone")
AUXILIARIES = frozenset('has have had is was were are been just now also already all then'
                        .split())

#: words before a mention that make it no subject ("the parcel for Carol was moved out")
PREPOSITIONS = frozenset('for to from with of by in on at into onto about'.split())

#: words that may lead a clause of going whose subject follows it ("After going to the
#: kitchen, Martin ...")
PARTICIPLE_LEAD = frozenset('after before having on upon'.split())

# words that may stand before the verb of a clause whose subject is left out ("and then
# came back in"): the subject is the one of the clause before
ELIDED_LEAD = frozenset('then and also later soon just straight quickly finally'.split())


#: a clause of time that dates what the sentence says from a going long before the report
DATING = frozenset('since'.split())


def dated(lead: Sequence[str]) -> bool:
    """Tell whether a verb of going after ``lead`` (its sentence's words) only dates a state.

    "Ginger's eaten a bit of chicken, first thing she's touched since she came in": she
    came in before all this, so the report moves no one. The word of time stands within
    the three words before the verb (its subject between), never first in the sentence,
    where "since" gives a reason ("Since Tom went out, I've fed the dogs").
    """
    return any(w.lower() in DATING for w in lead[1:][-3:])


def _named(mentions: Sequence[Mention]) -> list[Mention]:
    return [m for m in mentions if m.candidates]


def leading_subject(world: WorldModel, kg: KnowledgeGraph, text: str,
                    mentions: Sequence[Mention]) -> str | None:
    """Return the thing a clause begins with (within its first three words), if it has a place.

    The actor a next clause without a subject of its own refers to ("Omar pushed the robot
    out ... and came straight back in"); not an owner ("Nadia's blanket was put away").
    """
    lead = (text.split() or [''])[0]
    if not lead[:1].isupper() and lead.lower() not in NOUN_STARTERS:
        return None  # "brought the yoghurt out": the clause starts with its verb
    mentions = _named(mentions)  # ``text``'s, resolved once (:meth:`.Request.mentions_in`)
    first = mentions[0] if mentions else None
    if first is None or first.start > 2 or first.resolved is None:
        return None
    said = WORD_RE.findall(folded(text))
    if first.end <= len(said) and "'" in said[first.end - 1] \
            and owner_at(said, first.end - 1, mentions):
        return None  # "Nadia's blanket was put away", not "Nadia's put the blanket away"
    return first.resolved if _places(world, kg, first.resolved) else None


def part_actor(world: WorldModel, kg: KnowledgeGraph, part: str, scope: Scope | None,
               previous: str | None, mentions: Sequence[Mention]
               ) -> tuple[str | None, str | None]:
    """Return who acts in one part of several, and the subject later parts may go with.

    A part's own leading subject (:func:`leading_subject`) acts and is carried on; a part
    without a subject of its own ("... and came back in") acts with ``previous``; one that
    starts with a pronoun ("he ...") is not known (it may be someone else).
    """
    own = leading_subject(world, kg, part, mentions)
    if own is not None:
        return own, own
    first = (part.split() or [''])[0].lower()
    elided = scope is not None and not scope.own_subject and first not in SUBJECT_PRONOUNS
    return (previous if elided else None), previous


def zone_of(world: WorldModel, kg: KnowledgeGraph, place: str, kinds: Iterable[str],
            depth: int = 3) -> str | None:
    """Return the first thing of one of ``kinds`` that ``place`` is in, following its facts.

    "the packing table" is installed in the stock room; "Omar" (a thing handed to him) is
    on the dock: where someone who put a thing there must have been. A fact that never
    changes is also followed backwards (a kitchen that "has" the fridge). None when no
    fact chain of ``depth`` leads to one.
    """
    kinds = tuple(kinds)
    steady = world.domain.static_predicates()

    def fits(name: str) -> bool:
        kind = kg.entities.get(name)
        return kind is not None and world.domain.is_subtype(kind, kinds)
    frontier, seen = [place], {place}
    for _ in range(depth + 1):
        nxt = []
        for name in frontier:
            if fits(name):
                return name
            for f in sorted(kg.facts_of(name)):
                if len(f.args) != 2 or name not in f.args:
                    continue
                if f.args[0] == f.args[1]:
                    continue
                up = world.constraints.place_of(f) \
                    if world.constraints.thing_of(f) == name else None  # where it is
                other = f.args[1] if f.args[0] == name else f.args[0]
                if other not in seen and (other == up or f.predicate in steady):
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return None


def place_kinds(world: WorldModel, group: Iterable[str]) -> set[str]:
    """Return the types of the places ``group``'s predicates put their subject in."""
    return {t for p in group for t in world.domain.predicates[p].params[
        world.constraints.place_position(p)][1]}


@dataclass(frozen=True)
class PutBy:
    """Someone put a thing somewhere and the update leaves them elsewhere."""

    actor: str
    put: Fact  # the thing's new place
    zone: str  # where that place is, of the kind the actor's place takes
    group: tuple[str, ...]  # the predicates that keep the actor's place


def put_by(world: WorldModel, kg: KnowledgeGraph, done: Sequence[tuple[str | None, Update]],
           proper: Iterable[str]) -> PutBy | None:
    """Return who put a thing where the update (``kg``, after it) does not have them, or None.

    ``done`` is each part's actor (its subject said by name, or the one of the part before
    for a part without a subject of its own) and its change. The last part in which an
    actor puts a thing in a new place leaves the actor where that place is, unless that
    part or a later one moves the actor: "Omar went into the cold room and brought the
    yoghurt out to the packing table" leaves Omar in the room of the packing table, not in
    the cold room.
    """
    people = set(proper)
    for k in range(len(done) - 1, -1, -1):
        actor, change = done[k]
        if actor is None or kg.entities.get(actor) not in people:
            continue
        own = _places(world, kg, actor)
        if any(len(f.args) == 2 and f.predicate in own and world.constraints.thing_of(f) == actor
               for _, later in done[k:] for f in later.add):
            return None  # the actor went on elsewhere (or this part says where)
        for fact in sorted(change.add):
            thing = world.constraints.thing_of(fact) if len(fact.args) == 2 else None
            if thing is None or thing == actor or fact.predicate not in _places(world, kg, thing):
                continue
            group = tuple(sorted(own))
            zone = zone_of(world, kg, world.constraints.place_of(fact),
                           place_kinds(world, group))
            if zone is None or any(world.constraints.located(p, actor, zone) in kg
                                   for p in group):
                continue
            return PutBy(actor, fact, zone, group)
    return None


def amended_parts(world: WorldModel, changes: Sequence[Update], update: Update) -> list[Update]:
    """Return each part's change with the places a check took in instead of the model's.

    A place the update adds that no part added (one a check took in) replaces, in the
    parts that had placed the same thing, the place they gave it: "loan agreement carried
    by Marcus", amended to "on the front desk", is put on the desk by the part that had
    handed it to Marcus. A part's other facts stay as read, the places of those who went on
    elsewhere included ("popped back in to hang the keys up, then went back out").
    """
    c = world.constraints
    places = c.place_predicates(exactly=False)
    claimed = frozenset[Fact]().union(*(ch.add for ch in changes))
    new = {f for f in update.add - claimed if len(f.args) == 2 and f.predicate in places}
    moved = {c.thing_of(f) for f in new}
    out = []
    for ch in changes:
        gone = {f for f in ch.add - update.add if len(f.args) == 2
                and f.predicate in places and c.thing_of(f) in moved}
        things = {c.thing_of(f) for f in gone}
        out.append(Update.of(ch.remove, (ch.add - gone)
                             | {f for f in new if c.thing_of(f) in things}))
    return out


def going(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
          actor: str | None = None) -> GoingSubject | None:
    """Return the subjects of ``text`` when it tells that they went somewhere.

    The subject is the report's first mention (within its first three words, before a
    verb of going, one candidate), with those joined to it by "and" ("Lucy and Ben went to
    the staff room"), unless another mention stands right before the verb ("Sarah moved
    Tigger ..., and his bowl's gone in": the bowl); it counts when a functional rule keyed
    on it keeps where it is (a person, a thing, the robot), so the answer must move it. A
    part that starts with its verb of going ("came straight back in") goes with ``actor``,
    the subject of the part before it (:func:`leading_subject`).
    """
    found = _going(world, kg, text, mentions, actor) \
        or _escort(world, kg, text, _named(mentions), actor)
    return None if found is None else dataclasses.replace(found, thing_second=frozenset(
        p for p in found.places if world.constraints.thing_position(p) == 1))


def _going(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
           actor: str | None) -> GoingSubject | None:
    """Return the subjects of a verb of going in ``text`` (:func:`going`), or None.

    A verb ending in "from", "off" or "out" goes somewhere only when a place of its
    subject is named within two words after it: "the humidifier in here's gone off again,
    I think it's tripped the fuse" (the speaker named after it is no place of the
    humidifier), "the floodlight's gone out on us" (a light that went out is off).
    """
    found = _going_subject(world, kg, text, mentions, actor)
    if found is None or not found.words.lower().endswith((' from', ' off', ' out')):
        return found
    near = _near(mentions, _after_verb(text, found.words), 2)
    return found if any(is_place(world, kg, c, found.places)
                        for m in near for c in m.candidates) else None


#: what ends a sentence: the subject of a verb of going is in the verb's own sentence
SENTENCE_END = re.compile(r'[.!?]\s+')


def _sentence_start(text: str, verb: str) -> int:
    """Return the index of the first word of the sentence ``verb`` is written in."""
    at = text.lower().find(verb.lower())
    ends = [m.end() for m in SENTENCE_END.finditer(text, 0, max(at, 0))
            if (text[:m.start()].split() or [''])[-1].lower() not in TITLES]  # "Dr. Hale"
    return len(words(text[:ends[-1]])) if ends else 0


def sentence_start(text: str, k: int) -> int:
    """Return the index of the first word of the sentence word ``k`` of ``text`` is in."""
    ends = [n for m in SENTENCE_END.finditer(text)
            if (n := len(words(text[:m.start() + 1]))) <= k
            and (text[:m.start()].split() or [''])[-1].lower() not in TITLES]
    return ends[-1] if ends else 0


def _after_verb(text: str, verb: str) -> int:
    """Return the index of the word right after ``verb`` in ``text`` ("Maureen's back in")."""
    return len(words(text[:text.lower().find(verb.lower()) + len(verb)]))


def _near(mentions: Sequence[Mention], after: int, span: int) -> list[Mention]:
    """Return the mentions that start within ``span`` words from word ``after`` on."""
    return [m for m in mentions if after <= m.start <= after + span]


def _going_subject(world: WorldModel, kg: KnowledgeGraph, text: str,
                   mentions: Sequence[Mention], actor: str | None) -> GoingSubject | None:
    """:func:`_going` before a verb ending in "from" or "off" is held to a place.

    ("come round from his anaesthetic", "the milk's gone off": no place, no going.)
    """
    verb = goes_somewhere(text)
    if verb is None:
        return None
    lead = words(text[:text.lower().find(verb.lower())])
    at = len(lead)
    after = _after_verb(text, verb)
    base = _sentence_start(text, verb)  # "... for him to watch. It's back in the locker"
    lead = lead[base:]
    if dated(lead):
        return None  # "the first thing she's eaten since she came in": long ago
    back = ' back ' in f' {verb.lower()} ' and verb.lower().split()[0] in BEING
    if (verb.lower().startswith(('got ', 'gets ')) or back) \
            and _not_a_place(world, kg, mentions, after, strict=back):
        return None  # "got into his robe": dressed, not gone; "the TV is back on"
    mentions = [m for m in _named(mentions) if m.start >= base]
    ahead = _after_participle(world, kg, text, mentions, lead, verb)
    if ahead is not None:  # "After going to the kitchen, Martin opened the tap"
        return ahead
    first = mentions[0] if mentions else None
    if first is None or first.start > base + 2 or first.end > at or first.resolved is None:
        if actor is None or not set(w.lower() for w in lead) <= ELIDED_LEAD \
                or (first is not None and first.start < at):
            return None
        places = _places(world, kg, actor)
        return GoingSubject(actor, verb, places, elided=True) if places else None
    said = words(text)
    joined = [first]
    for m in mentions[1:]:
        between = said[joined[-1].end:m.start]
        if m.end > at or m.resolved is None or between not in (['and'], []):
            break
        joined.append(m)
    if 'but' in said[joined[-1].end:at]:
        return None  # "the castle backdrop is still down, but the forest one has gone up"
    own = next((m for m in reversed(mentions) if joined[-1].end <= m.start and m.end <= at
                and m.resolved is not None), None)
    if own is not None and {w.lower() for w in said[own.end:at]} <= AUXILIARIES \
            and not _comma_between(text, own.end, verb) \
            and (own.start == 0 or said[own.start - 1].lower() not in PREPOSITIONS):
        # "Sarah moved Tigger ..., and his bowl's gone in with him": the bowl went
        places = _places(world, kg, own.resolved)
        if places:
            return GoingSubject(own.resolved, verb, places)
    places = [_places(world, kg, m.resolved) for m in joined]
    if not places[0]:
        return None
    others = tuple(m.resolved for m, p in zip(joined[1:], places[1:], strict=True) if p)
    return GoingSubject(first.resolved, verb, frozenset().union(*places), others)


def _escort(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
            actor: str | None) -> GoingSubject | None:
    """Return who went in a report of taking someone or something along to a place.

    "Tom's taken Mrs Patel and Biscuit through to consult two": Tom went there, and so did
    each one taken whose place may be that place (Mrs Patel, Biscuit; not "his blanket",
    which is carried); "wheeled the hose barrow over to the training ground": whoever
    pushes or pulls a thing somewhere goes with it. The place must be one the taker can be
    in ("brought the yoghurt out to the packing table" is no going); the taker is the
    leading subject of the verb's sentence, or ``actor`` for a part that starts with its
    verb ("... and taken him back out to reception"). Bringing along is such a report only
    when someone, said by name, is brought ("brought Mr and Mrs Hughes through to the
    kennels"; :func:`.clauses.brought`).
    """
    got, bringing = escorted(text), False
    if got is None:
        got, bringing = brought(text), True
    if got is None:
        return None
    verb, start, end = got
    at = len(words(text[:text.lower().find(verb.lower())]))
    base = _sentence_start(text, verb)
    if dated(words(text)[base:at]):
        return None  # "... since we brought her in": long ago
    mentions = [m for m in mentions if m.start >= base]
    first = mentions[0] if mentions else None
    said = words(text)
    own = next((m for m in reversed(mentions) if m.end <= at and m.resolved), None)
    if own is not None and {w.lower() for w in said[own.end:at]} <= AUXILIARIES \
            and not _comma_between(text, own.end, verb):
        taker = own.resolved  # "Hannah's finished with Rex, Mr Hughes has taken him ..."
    elif first is not None and first.start <= base + 2 and first.end <= at and first.resolved:
        taker = first.resolved
    elif actor is not None and set(w.lower() for w in words(text)[base:at]) <= ELIDED_LEAD \
            and (first is None or first.start >= at):
        taker = actor
    else:
        return None
    wheres = _places(world, kg, taker)
    after, span = len(words(text[:end])), (len(words(text[:start])), len(words(text[:end])))
    place = next((m for m in mentions if after <= m.start <= after + 2), None)
    if not wheres or place is None or place.resolved is None \
            or not is_place(world, kg, place.resolved, wheres):
        return None
    taken = [m.resolved for m in mentions if span[0] <= m.start and m.end <= span[1]
             and m.resolved and m.resolved != taker
             and is_place(world, kg, place.resolved, _places(world, kg, m.resolved))]
    if bringing and not set(taken) & proper_things(world, kg):
        return None  # "brought the yoghurt out to the packing table": no one went along
    places = wheres.union(*(_places(world, kg, e) for e in taken))
    return GoingSubject(taker, verb, frozenset(places), tuple(dict.fromkeys(taken)),
                        elided=taker != (first.resolved if first else None))


def _after_participle(world: WorldModel, kg: KnowledgeGraph, text: str,
                      mentions: Sequence[Mention], lead: list[str], verb: str
                      ) -> GoingSubject | None:
    """Return who went in a report led by a clause of going without its subject.

    "After going to Victor's bedroom, Victor grabbed the book", "Having walked over to
    the desk, Ann ...": a lead of "after", "before", "having", "on" or "upon" alone, the
    verb in -ing or after "having", then a comma; the subject is the mention right after
    that comma. None when the report is not so shaped.
    """
    low = [w.lower() for w in lead]
    if not low or not set(low) <= PARTICIPLE_LEAD or not (
            verb.split()[0].lower().endswith('ing') or 'having' in low):
        return None
    start = text.lower().find(verb.lower())
    comma = text.find(',', start + len(verb))
    if comma < 0:
        return None
    k = len(words(text[:comma]))
    who = next((m for m in mentions if m.start == k), None)
    if who is None or who.resolved is None:
        return None
    places = _places(world, kg, who.resolved)
    return GoingSubject(who.resolved, verb, places) if places else None


def _comma_between(text: str, end: int, verb: str) -> bool:
    """Tell whether a comma stands between word ``end`` and ``verb`` ("her office, went in")."""
    tokens = word_tokens(text)
    start = text.lower().find(verb.lower())
    return 0 < end <= len(tokens) and any(c in text[tokens[end - 1][1]:start] for c in ',;')


#: the verb of being back somewhere ("is back in the clubhouse"; see clauses._GOING)
BEING = frozenset('is are am s m re'.split())


def _not_a_place(world: WorldModel, kg: KnowledgeGraph, mentions: Sequence[Mention],
                 after: int, strict: bool = False) -> bool:
    """Tell whether the thing named right after a verb of going is no place to be.

    "Jonah's got into his robe": the robe is worn, not gone into (asked only of "got": a
    stronger verb with a thing after it is more likely a misread place). The first mention within
    three words after the verb counts; it is no place when, of every entity it may be, no
    predicate that says where someone or something is takes it as the place.
    """
    near = next((m for m in _near(mentions, after, 3) if m.candidates), None)
    if near is None:
        return strict  # with ``strict`` ("is back on"), no place named is no going
    wheres = place_predicates(world, kg, None)
    return not any(is_place(world, kg, c, wheres) for c in near.candidates)


def _places(world: WorldModel, kg: KnowledgeGraph, subject: str) -> frozenset[str]:
    """Return the predicates that say where ``subject`` is (at most one place, or one)."""
    return place_predicates(world, kg, subject)


def place_ahead(world: WorldModel, kg: KnowledgeGraph, part: str, said: Sequence[Mention],
                later: Sequence[Mention], goes: GoingSubject | None) -> frozenset[Fact]:
    """Return where the next part puts the one who went, when this part does not say.

    "Elena came in from the yard | and Amara handed her a coffee": the part names only
    where Elena came from; the next part happens where Amara and the café's cups are. The
    rooms (of the kinds the subject's place takes) of everything the next part names, less
    where the subject is and where it came from, must be one: that room. Empty when the
    part names a place after its verb that it did not leave ("came back for the key"
    names a key: no guess), when several went, or when the rooms disagree.
    """
    verb = goes_somewhere(part)
    if goes is None or goes.others or verb is None:
        return frozenset()
    own = words(part)
    after = _after_verb(part, verb)
    if any(m.start >= after and m.candidates and not named_as_source(own, m.start)
           for m in said):
        return frozenset()
    subject, kinds = goes.subject, place_kinds(world, goes.places)
    left = {m.resolved for m in said if m.resolved and named_as_source(own, m.start)}
    now = {world.constraints.place_of(f) for f in kg.facts_of(subject)
           if f.predicate in goes.places and len(f.args) == 2 and goes.thing(f) == subject}
    zones = {zone_of(world, kg, m.resolved, kinds) for m in later
             if m.resolved and m.resolved != subject} - {None} - now - left
    if len(zones) != 1:
        return frozenset()
    zone = str(zones.pop())
    kind = kg.entities.get(zone)
    pred = next((p for p in sorted(goes.places) if kind is not None
                 and takes_place(world, p, kind)), None)
    return frozenset({world.constraints.located(pred, subject, zone)}) if pred else frozenset()
