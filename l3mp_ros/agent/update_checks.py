# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of Algorithm 3: what an answer may state about a report, and its read-back.

Without an LLM: the report names only known things (:func:`unknown_names_error`); the
answer is about what the report mentions (:func:`irrelevant`) and about what its part
names (:class:`PartScope`); a subject said to go somewhere must move (:class:`Going`); a
part that repeats an earlier change or says "still" changes nothing
(:func:`changed_before`, :func:`own_content`, :data:`STATIVE`). With the LLM, the
read-back (:class:`ReadBack`): facts saying different things of one thing are settled by
a numbered choice asked in both orders, then each stated fact is read back yes/no.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..retrieval.link import named_fully, named_in
from ..retrieval.mentions import Mention
from ..text import STOPWORDS, WORD_RE, name_words, same_root, stem, word_root, words
from ..world.complete import Completion
from ..world.kg import Fact, Update
from ..world.model import WorldModel
from .clauses import (
    NOUN_STARTERS,
    SUBJECT_PRONOUNS,
    SUBORDINATORS,
    goes_somewhere,
    unknown_names,
)
from .mention_order import named_last
from .request import Request

# words by which a part points back at what earlier parts named: "opened it", "in there"
POINTING_BACK = frozenset({'it', 'its', 'them', 'they', 'their', 'there'})
# a part that may say nothing new: "X is still in the office", "as always"
STATIVE = re.compile(r'\b(still|as always|as usual|remains?|remained|stays?|stayed)\b', re.I)


def unknown_names_error(req: Request) -> str | None:
    """Return why a report naming someone no entity carries is refused, or None."""
    unknown = unknown_names(req.text, req.lexicon)
    if not unknown:
        return None
    return (f'the report names {", ".join(map(repr, unknown))}, which no entity of the world '
            'model carries (a new entity is added with kg apply, not from a report)')


def last_places(stated: Update, mentions: Iterable[Any], world: WorldModel,
                kg: Any) -> tuple[Update, list[str]]:
    """Keep, of the new places a narrative gives one thing, the one it names last.

    "took the key off her desk and walked it out to Omar": a thing is in one place after
    the report, and the report's order is the order of events, so of several new facts of
    one exactly-one group about one thing, the fact whose object the report mentions last
    stays. Objects it does not mention leave the clash to the verifier. Return the update
    and a note per dropped fact.
    """
    mentions = list(mentions)
    drop: dict[Fact, Fact] = {}
    for rule in world.constraints.place_rules():
        groups: dict[str, list[Fact]] = {}
        for f in stated.add:
            if f.predicate in rule.predicates and len(f.args) == 2 and f not in kg:
                groups.setdefault(f.args[0], []).append(f)
        for facts in groups.values():
            last = named_last(facts, lambda f: f.args[1], mentions) if len(facts) > 1 \
                else None
            if last is not None:  # None: a place not named, or named together
                drop.update({f: last for f in facts if f != last})
    if not drop:
        return stated, []
    notes = [f'dropped {f.text()}: the report names {kept.args[1]} later, and '
             f'{f.args[0]} is in one place' for f, kept in sorted(drop.items())]
    return Update.of(stated.remove, stated.add - set(drop)), notes


def changed_before(kg: Any, stated: Update) -> bool:
    """Return whether a restating part repeats what an earlier part changed in ``kg``."""
    return any(f not in kg for f in stated.add) or any(f in kg for f in stated.remove)


def own_content(kg: Any, part: str, done: Iterable[Completion]) -> set[str]:
    """Return the entities ``part`` names in full that no earlier part's change touched.

    A part that only repeats an earlier change ("... and has stopped", "... and turned
    off the light") names nothing new; "... and opened the tap of the kitchen sink" does,
    so a restatement cannot stand for it.
    """
    touched = {a for c in done for f in c.update.remove | c.update.add for a in f.args}
    return named_fully(kg.entities, part) - touched


def irrelevant(update: Update, mentioned: set[str]) -> set[Fact]:
    """Return the stated facts whose subject the report does not mention.

    The subject is a fact's first argument: the thing that moved, the person who went
    somewhere, the lamp switched on. None when nothing was linked.
    """
    if not mentioned:
        return set()
    return {f for f in update.remove | update.add if f.args and f.args[0] not in mentioned}


def relevance_errors(facts: set[Fact]) -> list[str]:
    """Return a sentence for each fact about something the report does not mention."""
    return [f'{f.text()} is about {f.args[0]}, which the report does not mention; '
            'change only what the report talks about' for f in sorted(facts)]


@dataclass
class PartScope:
    """What one part of a report can be about.

    A part with its own subject ("Sven went to the lab") must state facts about something
    it names; a part whose subject is elsewhere ("went to the lab", "hung them up") must
    state facts with at least one argument it names; a part naming nothing ("it works
    now") is not checked.
    """

    text: str
    named: set[str]
    own_subject: bool
    earlier: set[str] = field(default_factory=set)  # what the earlier parts named or changed

    def outside(self, update: Update) -> set[Fact]:
        """Return the facts this part cannot be the source of.

        A fact whose predicate the part says in words, about something an earlier part
        named or changed, is in scope: "then switched the light on" after "unlocked her
        office, went in" is ``lights_on`` of the office.
        """
        if not self.named:
            return set()
        facts = update.remove | update.add
        if self.own_subject:
            off = {f for f in facts if f.args and f.args[0] not in self.named}
        else:
            off = {f for f in facts if not self.named & set(f.args)}
        said = {stem(w) for w in words(self.text)} - STOPWORDS
        return {f for f in off if not (f.args and f.args[0] in self.earlier and said & {
            stem(w) for w in f.predicate.split('_') if len(w) > 2} - STOPWORDS)}


def unsaid(domain: Any, kg: Any, text: str, stated: Update) -> list[tuple[Fact, str]]:
    """Return added facts whose predicate the report does not say though it says a change.

    Each with the predicate the report speaks of instead: one of the same thing's states (a
    predicate of that thing alone) whose word says a change of it: "Someone unlocked Bob's
    door" read as ``door_open`` says "unlocked", and the door is locked (``door_locked``
    would go), never "open". Only a predicate's own words count: words of entity and type
    names ("door") name things; a word the predicates stated of the thing already have
    ("placed": ``placed_at_table``) speaks of those; a word for a state the thing already
    has describes it ("the dirty mug", which is dirty). Removals are not weighed: "put the
    cup on the table" takes it out of a hand without saying so.
    """
    names = {w for e, t in kg.entities.items() for w in (*name_words(e), *name_words(t or ''))}
    names |= {w for t in domain.types for w in name_words(t)}
    said = [(w, word_root(w)) for w in words(text) if w not in STOPWORDS and w not in names]

    def own(predicate: str) -> set[str]:
        return {word_root(w) for w in predicate.split('_')
                if len(w) > 2 and w not in STOPWORDS and w not in names and stem(w) not in names}

    facts = stated.add | stated.remove
    out: list[tuple[Fact, str]] = []
    for fact in sorted(stated.add):
        kind = kg.type_of(fact.args[0]) if fact.args else None
        mine = own(fact.predicate)
        if kind is None or not mine or any(same_root(a, r) for a in mine for _, r in said):
            continue
        spoken = {f.predicate for f in facts if f.args[:1] == fact.args[:1]}
        taken = {w for p in spoken for w in own(p)}
        other = next((q for q, decl in sorted(domain.predicates.items()) if q not in spoken
                      and len(decl.params) == 1 and domain.is_subtype(kind, decl.params[0][1])
                      and _says_change(own(q), said, taken, Fact(q, fact.args[:1]) in kg)),
                     None)
        if other is not None:
            out.append((fact, other))
    return out


def _says_change(roots: set[str], said: list[tuple[str, str]], taken: set[str],
                 holds: bool) -> bool:
    """Tell whether a said word of a state (``roots``) says that the state changed.

    "unlocked" while it holds, "dirty" while it does not; not a word ``taken`` by what the
    answer stated.
    """
    return any(same_root(a, r) and not any(same_root(r, t) for t in taken)
               and (w.startswith('un') and len(w) > 5) == holds
               for a in roots for w, r in said)


def part_scope(kg: Any, part: str, mentioned: Iterable[str] = (),
               earlier: Iterable[str] = ()) -> PartScope:
    """Return the scope of one part of a report.

    Besides what the part names by its words, a report mention whose head noun the part
    uses counts ("Victor switched the light off" after "going to Martin's bedroom": the
    report's linking resolved "the light" to martin_bedroom_light), and, when the part
    points back with "it", "them" or "there", what the earlier parts named or changed
    (``earlier``: "... and opened it on the bench" is about the bottle taken before).
    """
    first = part.split()[0] if part.split() else ''
    low = first.lower().split("'")[0]
    own = bool(first) and (first[:1].isupper() or low in NOUN_STARTERS) \
        and low not in SUBJECT_PRONOUNS and low not in SUBORDINATORS
    present = set(words(part))
    heads = {m for m in mentioned if kg.has_entity(m) and (
        (name_words(m) or [''])[-1] in present
        or (name_words(kg.entities[m]) or [''])[-1] in present)}
    tokens = {t.lower() for t in re.findall(r'[A-Za-z]+', part)}
    back = set(earlier) if tokens & POINTING_BACK else set()
    return PartScope(part, named_in(kg, part) | heads | back, own, set(earlier))


@dataclass(frozen=True)
class Going:
    """A report (part) telling that its subjects went somewhere: where they are must change."""

    subject: str  # the first of them
    words: str  # the verb of going as written: "came into"
    places: frozenset[str]  # the predicates that say where a subject is
    others: tuple[str, ...] = ()  # "Lucy and Ben went ...": the subjects after the first
    elided: bool = False  # "... and came straight back in": the subject is an earlier part's

    def missing(self, stated: Update) -> bool:
        """Tell whether ``stated`` says nothing of where one of the subjects is now."""
        return bool(self.unplaced(stated))

    def unplaced(self, stated: Update) -> list[str]:
        """Return the subjects ``stated`` does not place anywhere new."""
        placed = {f.args[0] for f in stated.add if f.args and f.predicate in self.places}
        return [s for s in (self.subject, *self.others) if s not in placed]

    def error(self, stated: Update | None = None) -> str:
        """Return the sentence that asks for the missing change."""
        who = self.unplaced(stated) if stated is not None else [self.subject, *self.others]
        names = ' and '.join(who or [self.subject])
        return (f'the report says {names} {self.words} somewhere: state where '
                f'{names} {"are" if len(who) > 1 else "is"} now')


# words that may stand before the verb of a clause whose subject is left out ("and then
# came back in"): the subject is the one of the clause before
ELIDED_LEAD = frozenset('then and also later soon just straight quickly finally'.split())


def _named(mentions: Sequence[Mention]) -> list[Mention]:
    return [m for m in mentions if m.candidates]


def leading_subject(world: WorldModel, kg: Any, text: str,
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
    said = WORD_RE.findall(text.lower().replace('’', "'"))
    if first.end <= len(said) and "'" in said[first.end - 1]:
        return None
    return first.resolved if _places(world, kg, first.resolved) else None


def part_actor(world: WorldModel, kg: Any, part: str, scope: PartScope | None,
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


def zone_of(world: WorldModel, kg: Any, place: str, kinds: Iterable[str],
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
                other = f.args[1] if f.args[0] == name else f.args[0]
                if other not in seen and (other == f.args[1] or f.predicate in steady):
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return None


def place_kinds(world: WorldModel, group: Iterable[str]) -> set[str]:
    """Return the types of the places ``group``'s predicates put their subject in."""
    return {t for p in group for t in world.domain.predicates[p].params[1][1]}


@dataclass(frozen=True)
class PutBy:
    """Someone put a thing somewhere and the update leaves them elsewhere."""

    actor: str
    put: Fact  # the thing's new place
    zone: str  # where that place is, of the kind the actor's place takes
    group: tuple[str, ...]  # the predicates that keep the actor's place


def put_by(world: WorldModel, kg: Any, done: Sequence[tuple[str | None, Update]],
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
        if any(f.args and f.args[0] == actor and f.predicate in own
               for _, later in done[k:] for f in later.add):
            return None  # the actor went on elsewhere (or this part says where)
        for fact in sorted(change.add):
            thing = fact.args[0] if len(fact.args) == 2 else None
            if thing is None or thing == actor or fact.predicate not in _places(world, kg, thing):
                continue
            group = tuple(sorted(own))
            zone = zone_of(world, kg, fact.args[1], place_kinds(world, group))
            if zone is None or any(Fact(p, (actor, zone)) in kg for p in group):
                continue
            return PutBy(actor, fact, zone, group)
    return None


def going(world: WorldModel, kg: Any, text: str, mentions: Sequence[Mention],
          actor: str | None = None) -> Going | None:
    """Return the subjects of ``text`` when it tells that they went somewhere.

    The subject is the report's first mention (within its first three words, before a
    verb of going, one candidate), with those joined to it by "and" ("Lucy and Ben went to
    the staff room"); it counts when a functional rule keyed on it keeps where it is (a
    person, a thing, the robot), so the answer must move it. A part that starts with its
    verb of going ("came straight back in") goes with ``actor``, the subject of the part
    before it (:func:`leading_subject`).
    """
    verb = goes_somewhere(text)
    if verb is None:
        return None
    lead = words(text[:text.lower().find(verb.lower())])
    at = len(lead)
    mentions = _named(mentions)
    first = mentions[0] if mentions else None
    if first is None or first.start > 2 or first.end > at or first.resolved is None:
        if actor is None or not set(w.lower() for w in lead) <= ELIDED_LEAD \
                or (first is not None and first.start < at):
            return None
        places = _places(world, kg, actor)
        return Going(actor, verb, places, elided=True) if places else None
    said = words(text)
    joined = [first]
    for m in mentions[1:]:
        between = said[joined[-1].end:m.start]
        if m.end > at or m.resolved is None or between not in (['and'], []):
            break
        joined.append(m)
    places = [_places(world, kg, m.resolved) for m in joined]
    if not places[0]:
        return None
    others = tuple(m.resolved for m, p in zip(joined[1:], places[1:], strict=True) if p)
    return Going(first.resolved, verb, frozenset().union(*places), others)


def _places(world: WorldModel, kg: Any, subject: str) -> frozenset[str]:
    """Return the predicates that say where ``subject`` is (at most one place, or one)."""
    groups = world.constraints.place_groups(world.domain, kg.entities.get(subject),
                                            exactly=False)
    return frozenset(p for g in groups for p in g)
