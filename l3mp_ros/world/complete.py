# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Let the domain's state-constraint rules finish an update.

A report usually says only what is new ("the pen is on the kitchen table now"). When a
``functional`` rule allows one fact of a group per entity, adding a new one *forces*
the removal of the old one; when an ``exclusive`` rule forbids two predicates together,
adding one forces the removal of the other; when a ``requires`` rule's support is removed,
the facts that needed it go. :func:`complete` adds exactly those removals, each recorded
with the rule that forced it, and nothing else. It also turns
harmless redundancy into notes instead of errors: adding a fact that already holds,
turning off a one-argument fact that does not hold, or removing and adding the same fact,
changes nothing; the old value restated beside a new one that a rule says replaces it
(the model copied the context) is replaced, with a note. Two *new* facts that a rule
forbids together are left to the verifier. Everything
else (a removal of a fact that does not hold, types, unknown names, the rules on the
result) is still the verifier's to reject.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from .constraints import Constraints, Rule, RuleKind
from .domain import DomainSchema
from .kg import Fact, KnowledgeGraph, Update


@dataclass
class Completion:
    """An update finished by the rules, with what was implied and what was a no-op."""

    update: Update
    implied: list[tuple[Fact, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    asked: Update = field(default_factory=Update)  # the update as it was stated
    #: added facts a ``requires`` rule needed and the report's words named (:func:`needed`)
    filled: list[tuple[Fact, str]] = field(default_factory=list)

    @property
    def stated(self) -> Update:
        """Return the update without the removals a rule implied and the facts it filled."""
        implied = {f for f, _ in self.implied}
        return Update.of(self.update.remove - implied,
                         self.update.add - {f for f, _ in self.filled})

    def info(self) -> dict[str, Any]:
        """Return the JSON the event log keeps: implied removals (with rules) and notes."""
        return {'implied': [{'fact': list(f.triplet()), 'rule': r} for f, r in self.implied],
                'notes': list(self.notes)}


def _applies(rule: Rule, entity: str, types: Mapping[str, str], domain: DomainSchema) -> bool:
    if not rule.types:
        return True
    t = types.get(entity)
    return t is not None and domain.is_subtype(t, rule.types)


def _clashes(rule: Rule, key: str, new: Fact, old: Fact) -> bool:
    """Return whether ``rule`` (already known to cover ``new`` at ``key``) forbids ``old``."""
    if (old == new or old.predicate not in rule.predicates
            or len(old.args) <= rule.key or old.args[rule.key] != key):
        return False
    return not (rule.kind == RuleKind.EXCLUSIVE and old.predicate == new.predicate)


def _covering(constraints: Constraints, fact: Fact, types: Mapping[str, str],
              domain: DomainSchema) -> list[tuple[Rule, str]]:
    """Return the functional/exclusive rules that constrain ``fact``, with its key entity."""
    out = []
    for rule in constraints.rules:
        if (rule.kind.grouped and fact.predicate in rule.predicates
                and len(fact.args) > rule.key
                and _applies(rule, fact.args[rule.key], types, domain)):
            out.append((rule, fact.args[rule.key]))
    return out


def forced_removals(kg: KnowledgeGraph, fact: Fact, constraints: Constraints,
                    domain: DomainSchema) -> list[tuple[Fact, str]]:
    """Return the facts of ``kg`` that adding ``fact`` forces out, with the rule's name."""
    return [(old, rule.name) for rule, key in _covering(constraints, fact, kg.entities, domain)
            for old in sorted(kg.facts_of(key)) if _clashes(rule, key, fact, old)]


def forbidding_rule(a: Fact, b: Fact, types: Mapping[str, str], constraints: Constraints,
                    domain: DomainSchema) -> str | None:
    """Return the name of a functional/exclusive rule that forbids ``a`` and ``b`` together."""
    for new, old in ((a, b), (b, a)):
        for rule, key in _covering(constraints, new, types, domain):
            if _clashes(rule, key, new, old):
                return rule.name
    return None


def complete(kg: KnowledgeGraph, update: Update, constraints: Constraints,
             domain: DomainSchema) -> Completion:
    """Return ``update`` with rule-forced removals added and no-op parts dropped."""
    notes: list[str] = []
    both = update.remove & update.add
    for f in sorted(both):
        notes.append(f'{f.text()} was both removed and added: no change')
    stated = set(update.add - both)
    add = set(stated)
    for f in sorted(add):
        if f in kg:
            notes.append(f'{f.text()} already holds: nothing to add')
            add.discard(f)
    remove = set(update.remove - both)
    for f in sorted(remove):
        if len(f.args) == 1 and f not in kg:  # "switched off" what was already off
            notes.append(f'{f.text()} does not hold already: nothing to remove')
            remove.discard(f)
    implied: list[tuple[Fact, str]] = []
    for f in sorted(add):
        for old, rule in forced_removals(kg, f, constraints, domain):
            if old not in remove and all(old != g for g, _ in implied):
                if old in stated:  # the old value copied beside the new one: the new wins
                    notes.append(f'{old.text()} was restated beside {f.text()}, which '
                                 f'replaces it (rule {rule})')
                implied.append((old, rule))
    remove |= {f for f, _ in implied}
    for f, rule in unsupported(kg, remove, add, constraints, domain):
        implied.append((f, rule))
        remove.add(f)
    return Completion(Update.of(remove, add), implied, notes, asked=update)


def unsupported(kg: KnowledgeGraph, remove: set[Fact], add: set[Fact],
                constraints: Constraints, domain: DomainSchema) -> list[tuple[Fact, str]]:
    """Return the facts a ``requires`` rule loses the support of, with the rule's name.

    "Took the book from the shelf" removes its ``placed_at_shelf``; its ``on_shelf_level``
    needs one, so it goes too. A removal that leaves the key entity another fact of the
    rule's ``then`` (one that stays, or one added) takes nothing with it; what goes may
    take more (to a fixpoint). Which side of a rule is the cause is the domain's, not the
    rule's: a reading with such a removal is asked about (``AskBack``), not written blind.
    """
    gone: list[tuple[Fact, str]] = []
    removed = set(remove)
    changed = True
    while changed:
        changed = False
        for rule in constraints.rules:
            if rule.kind != RuleKind.REQUIRES:
                continue
            k = rule.key
            keys = {f.args[k] for f in removed if f.predicate in rule.then and len(f.args) > k}
            for key in sorted(keys):
                if not _applies(rule, key, kg.entities, domain):
                    continue
                held = (kg.facts_of(key) - removed) | {f for f in add if key in f.args}
                if any(f.predicate in rule.then and len(f.args) > k and f.args[k] == key
                       for f in held):
                    continue
                for f in sorted(held):
                    if f.predicate in rule.if_ and len(f.args) > k and f.args[k] == key \
                            and f not in add:
                        gone.append((f, rule.name))
                        removed.add(f)
                        changed = True
    return gone


def taken_with(done: Completion, constraints: Constraints) -> list[tuple[Fact, str]]:
    """Return the facts ``done`` removed because a ``requires`` rule lost its support."""
    rules = {r.name for r in constraints.rules if r.kind == RuleKind.REQUIRES}
    return [(f, rule) for f, rule in done.implied if rule in rules]


def support_removed(done: Completion, constraints: Constraints) -> set[Fact]:
    """Return the stated removals whose loss took facts with them (:func:`taken_with`)."""
    rules = {r.name: r for r in constraints.rules}
    out: set[Fact] = set()
    for f, name in taken_with(done, constraints):
        k = rules[name].key
        out |= {g for g in done.stated.remove if g.predicate in rules[name].then
                and len(g.args) > k and g.args[k] == f.args[k]}
    return out


def needed(kg: KnowledgeGraph, update: Update, constraints: Constraints,
           domain: DomainSchema, named: Collection[str]) -> list[tuple[Fact, str]]:
    """Return the facts ``requires`` rules need after ``update`` that ``named`` settles.

    "Placed the book on level 5 of the shelf" read as the book on the shelf alone: the rule
    that a book on a shelf lies on one of its levels needs an ``on_shelf_level`` fact, and
    of the things the report names exactly one fits its other argument (level 5). Only
    two-argument ``then`` predicates, only for a key entity an added ``if`` fact names
    and no ``then`` fact covers, and only when exactly one fact would do; the verifier
    still checks the result.
    """
    out: list[tuple[Fact, str]] = []
    for rule in constraints.rules:
        if rule.kind != RuleKind.REQUIRES:
            continue
        k = rule.key
        for key in sorted({f.args[k] for f in update.add
                           if f.predicate in rule.if_ and len(f.args) > k}):
            if not _applies(rule, key, kg.entities, domain) or key not in kg.entities:
                continue
            held = (kg.facts_of(key) - update.remove) | {f for f in update.add if key in f.args}
            if any(f.predicate in rule.then and len(f.args) > k and f.args[k] == key
                   for f in held):
                continue
            options = {Fact(p, (key, e) if k == 0 else (e, key))
                       for p in rule.then if p in domain.predicates
                       and domain.predicates[p].arity == 2 and k in (0, 1)
                       and domain.accepts(p, k, kg.entities[key])
                       for e in named if e != key and e in kg.entities
                       and domain.accepts(p, 1 - k, kg.entities[e])}
            if len(options) == 1:
                out.append((options.pop(), rule.name))
    return out
