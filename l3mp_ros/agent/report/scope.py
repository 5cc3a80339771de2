# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What an answer may state about a report: its scope, without an LLM (Algorithm 3).

The report names only known things (:func:`unknown_names_error`); the answer is about what
the report mentions (:func:`irrelevant`, the ``relevance`` check) and about what its part
names (:class:`Scope`, :func:`part_scope`: the ``part_scope`` check); of several new places
a narrative gives one thing, the one named last stays (:func:`last_places`: ``narrative``);
a part that repeats an earlier change or says "still" changes nothing
(:func:`changed_before`, :func:`own_content`, :data:`STATIVE`); an added fact whose
predicate the report never says, while it says a change of another state of the same
thing, is asked about (:func:`unsaid`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...retrieval.link import named_fully, named_in
from ...text import (
    STOPWORDS,
    name_words,
    predicate_roots,
    same_root,
    split_name,
    stem,
    word_root,
    words,
)
from ...world.complete import Completion
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.clauses import NOUN_STARTERS, SUBJECT_PRONOUNS, SUBORDINATORS, unknown_names
from ..core.mention_order import named_last
from ..core.request import Request

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
                kg: KnowledgeGraph) -> tuple[Update, list[str]]:
    """Keep, of the new places a narrative gives one thing, the one it names last.

    "took the key off her desk and walked it out to Omar": a thing is in one place after
    the report, and the report's order is the order of events, so of several new facts of
    one exactly-one group about one thing, the fact whose object the report mentions last
    stays. Objects it does not mention leave the clash to the verifier. Return the update
    and a note per dropped fact.
    """
    mentions = list(mentions)
    drop: dict[Fact, Fact] = {}
    c = world.constraints
    for rule in c.place_rules():
        groups: dict[str, list[Fact]] = {}
        for f in stated.add:
            if f.predicate in rule.predicates and len(f.args) == 2 and f not in kg:
                groups.setdefault(c.thing_of(f), []).append(f)
        for facts in groups.values():
            last = named_last(facts, c.place_of, mentions) if len(facts) > 1 \
                else None
            if last is not None:  # None: a place not named, or named together
                drop.update({f: last for f in facts if f != last})
    if not drop:
        return stated, []
    notes = [f'dropped {f.text()}: the report names {c.place_of(kept)} later, and '
             f'{c.thing_of(f)} is in one place' for f, kept in sorted(drop.items())]
    return Update.of(stated.remove, stated.add - set(drop)), notes


def changed_before(kg: KnowledgeGraph, stated: Update) -> bool:
    """Return whether a restating part repeats what an earlier part changed in ``kg``."""
    return any(f not in kg for f in stated.add) or any(f in kg for f in stated.remove)


def own_content(kg: KnowledgeGraph, part: str, done: Iterable[Completion]) -> set[str]:
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
class Scope:
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
            stem(w) for w in split_name(f.predicate) if len(w) > 2} - STOPWORDS)}


def unsaid(domain: DomainSchema, kg: KnowledgeGraph, text: str,
           stated: Update) -> list[tuple[Fact, str]]:
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
        return predicate_roots(predicate, names)

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


def part_scope(kg: KnowledgeGraph, part: str, mentioned: Iterable[str] = (),
               earlier: Iterable[str] = ()) -> Scope:
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
    return Scope(part, named_in(kg, part) | heads | back, own, set(earlier))


def state_words(domain: DomainSchema, pred: str) -> list[str]:
    """Return a one-place predicate's own words, as roots, in order ([] when it has none).

    Its name's words less those of the types it takes and little words: ``tyres_inflated``
    of a bike is tyres, inflate; ``dish_is_clean`` of kitchenware is dish, clean.
    """
    p = domain.predicates.get(pred)
    if p is None or p.arity != 1:
        return []
    kinds = {w for t in p.params[0][1] for a in domain.ancestors(t) for w in name_words(a)}
    return [word_root(w) for w in name_words(pred) if w not in kinds and w not in STOPWORDS]
