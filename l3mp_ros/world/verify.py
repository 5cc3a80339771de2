# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The update verifier: every violation becomes a readable sentence.

Checks, for any typed domain: known predicates, arities, argument types (with
the type hierarchy and ``either``), numeric facts (a number for a function of the domain,
never for a predicate, and no object for a function), known entities (NL updates create none),
removed facts exist, added facts are new, no fact both removed and added, and
the state-constraint rules on the state *after* the update.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from .constraints import Constraints, Rule, RuleKind
from .domain import DomainSchema
from .kg import Fact, KGError, KnowledgeGraph, Update, check_name


def _close(word: str, options: Iterable[str], n: int = 3) -> str:
    hits = difflib.get_close_matches(word, list(options), n=n, cutoff=0.6)
    return f' (did you mean {", ".join(hits)}?)' if hits else ''


class Verifier:
    """Check updates and whole states against a domain and its constraints."""

    def __init__(self, domain: DomainSchema, constraints: Constraints | None = None) -> None:
        self.domain = domain
        self.constraints = constraints or Constraints.empty()

    # -- facts ---------------------------------------------------------------
    def check_fact(self, fact: Fact, types: Mapping[str, str]) -> list[str]:
        """Return the schema errors of one fact given entity types."""
        functions = self.domain.functions
        if fact.numeric:
            pred = functions.get(fact.predicate)
            if pred is None and fact.predicate in self.domain.predicates:
                sig = self.domain.signature(fact.predicate)
                return [f'{fact.text()} gives the number {fact.value} to {fact.predicate}, '
                        f'a predicate: its arguments are objects, not numbers: {sig}']
            if pred is None:
                return [f'unknown function "{fact.predicate}" in {fact.text()}'
                        f'{_close(fact.predicate, functions)}'
                        + ('' if functions else ': the domain declares no numeric functions')]
        else:
            pred = self.domain.predicates.get(fact.predicate)
            if pred is None and fact.predicate in functions:
                sig = functions[fact.predicate].signature()
                return [f'{fact.predicate} is a numeric function {sig}: in {fact.text()} its '
                        f'value must be a number, e.g. ({", ".join(fact.args[:-1] or ["a"])}'
                        f', {fact.predicate}, 1.5), not an object']
        if pred is None:
            return [f'unknown predicate "{fact.predicate}" in {fact.text()}'
                    f'{_close(fact.predicate, self.domain.predicates)}']
        if pred.arity != len(fact.args):
            return [f'{fact.text()} gives {fact.predicate} {len(fact.args)} argument(s) but it '
                    f'takes {pred.arity}: {pred.signature()}']
        errors = []
        for i, (arg, (_, accepted)) in enumerate(zip(fact.args, pred.params, strict=True)):
            etype = types.get(arg)
            if etype is None and self.domain.has_type(arg):
                errors.append(f'"{arg}" in {fact.text()} is a type of the domain, not an '
                              'entity')
            elif etype is None:
                errors.append(f'unknown entity "{arg}" in {fact.text()}: updates cannot create '
                              f'entities{_close(arg, types)}')
            elif not self.domain.is_subtype(etype, accepted):
                want = ' or '.join(accepted)
                errors.append(f'in {fact.text()}, {arg} is a {etype} but argument {i + 1} of '
                              f'{fact.predicate} must be a {want}: {pred.signature()}')
        return errors

    # -- updates -------------------------------------------------------------
    def check(self, kg: KnowledgeGraph, update: Update,
              new_entities: Mapping[str, str] | None = None) -> list[str]:
        """Return every violation of ``update`` on ``kg`` (empty list: valid).

        ``new_entities`` (name → type) is allowed for perception only.
        """
        errors: list[str] = []
        types: Mapping[str, str] = kg.entities
        if new_entities:
            for name, t in sorted(new_entities.items()):
                if not self.domain.has_type(t):
                    errors.append(f'entity {name} has unknown type "{t}"'
                                  f'{_close(t, self.domain.types)}')
                try:
                    check_name(name, 'new entity')
                except KGError as exc:
                    errors.append(str(exc))
                if self.domain.has_type(name):
                    errors.append(f'new entity {name} is named like a type of the domain')
            types = {**kg.entities, **new_entities}
        for fact in sorted(update.remove & update.add):
            errors.append(f'{fact.text()} is both removed and added')
        keys: dict[Fact, Fact] = {}
        for fact in sorted(f for f in update.add if f.numeric):
            if fact.key in keys:
                errors.append(f'{keys[fact.key].text()} and {fact.text()} give '
                              f'{fact.key.pddl()} two values at once')
            keys[fact.key] = fact
        for fact in sorted(update.remove):
            errs = self.check_fact(fact, types)
            errors.extend(errs)
            if not errs and fact not in kg:
                errors.append(f'cannot REMOVE {fact.text()}: it is not in the KG'
                              + self._hint(kg, fact))
        for fact in sorted(update.add):
            errs = self.check_fact(fact, types)
            errors.extend(errs)
            if not errs and fact in kg and fact not in update.remove:
                errors.append(f'cannot ADD {fact.text()}: it is already in the KG')
        if errors:
            return errors
        return self._check_rules(kg, update, types)

    def _hint(self, kg: KnowledgeGraph, fact: Fact) -> str:
        if not fact.args:
            return ''
        same = sorted(f for f in kg.facts_of(fact.args[0])
                      if f.predicate == fact.predicate and f.args[0] == fact.args[0])
        if same:
            return '; the KG has ' + ', '.join(f.text() for f in same[:3])
        return ''

    # -- rules ---------------------------------------------------------------
    def _rule_applies(self, rule: Rule, entity: str, types: Mapping[str, str]) -> bool:
        if not rule.types:
            return True
        t = types.get(entity)
        return t is not None and self.domain.is_subtype(t, rule.types)

    def _check_rules(self, kg: KnowledgeGraph, update: Update,
                     types: Mapping[str, str]) -> list[str]:
        errors: list[str] = []
        changed = update.remove | update.add
        added: dict[str, set[Fact]] = {}
        for f in update.add:
            for a in f.args:
                added.setdefault(a, set()).add(f)
        post_cache: dict[str, set[Fact]] = {}

        def post(entity: str) -> set[Fact]:
            if entity not in post_cache:
                post_cache[entity] = ((kg.facts_of(entity) - update.remove)
                                      | added.get(entity, set()))
            return post_cache[entity]

        for rule in self.constraints.rules:
            watched = rule.watched()
            keys = {f.args[rule.key] for f in changed
                    if f.predicate in watched and len(f.args) > rule.key}
            for entity in sorted(keys):
                if self._rule_applies(rule, entity, types):
                    after = self._rule_errors(rule, entity, post(entity), 'after this update')
                    # a violation the graph already had is not this update's doing
                    before = set(self._rule_errors(rule, entity, kg.facts_of(entity),
                                                   'after this update')) if after else set()
                    errors.extend(e for e in after if e not in before)
        return errors

    def _rule_errors(self, rule: Rule, entity: str, facts: set[Fact], when: str) -> list[str]:
        def keyed(preds: Iterable[str]) -> list[Fact]:
            ps = set(preds)
            return sorted(f for f in facts if f.predicate in ps and len(f.args) > rule.key
                          and f.args[rule.key] == entity)

        why = f'rule {rule.name}' + (f': {rule.description}' if rule.description else '')
        if rule.kind == RuleKind.FUNCTIONAL:
            group = keyed(rule.predicates)
            if len(group) > 1:
                more = '/...' if len(rule.predicates) > 4 else ''
                preds = '/'.join(rule.predicates[:4]) + more
                return [f'{when}, {entity} would have {len(group)} of {preds}'
                        f' at once: {", ".join(f.text() for f in group)} ({why})']
            if rule.exactly and not group:
                return [f'{when}, {entity} would have none of '
                        f'{", ".join(rule.predicates)} ({why})']
        elif rule.kind == RuleKind.EXCLUSIVE:
            held = sorted({f.predicate for f in keyed(rule.predicates)})
            if len(held) > 1:
                return [f'{when}, {entity} would be both {" and ".join(held)} ({why})']
        elif rule.kind == RuleKind.REQUIRES:
            if keyed(rule.if_) and not keyed(rule.then):
                cause = keyed(rule.if_)[0].text()
                return [f'{when}, {cause} would hold without any {" or ".join(rule.then)} '
                        f'fact for {entity} ({why})']
        return []

    # -- whole state ---------------------------------------------------------
    def check_state(self, kg: KnowledgeGraph) -> list[str]:
        """Return every schema and rule violation of a whole KG (e.g. at init)."""
        errors: list[str] = []
        for name, t in sorted(kg.entities.items()):
            if not self.domain.has_type(t):
                errors.append(f'entity {name} has unknown type "{t}"'
                              f'{_close(t, self.domain.types)}')
            if self.domain.has_type(name):
                errors.append(f'entity {name} is named like a type of the domain: the PDDL '
                              'problem could not tell them apart (rename it)')
        for fact in sorted(kg.facts):
            errors.extend(self.check_fact(fact, kg.entities))
        for rule in self.constraints.rules:
            watched = rule.watched()
            candidates = {n for n in kg.entities if self._rule_applies(rule, n, kg.entities)}
            if not (rule.kind == RuleKind.FUNCTIONAL and rule.exactly):
                candidates = {f.args[rule.key] for p in watched for f in kg.facts_with(p)
                              if len(f.args) > rule.key} & candidates
            elif not rule.types:
                candidates = {f.args[rule.key] for p in watched for f in kg.facts_with(p)
                              if len(f.args) > rule.key}
            for entity in sorted(candidates):
                errors.extend(self._rule_errors(rule, entity, kg.facts_of(entity),
                                                'in this state'))
        return errors
