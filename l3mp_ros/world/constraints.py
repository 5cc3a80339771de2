# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""State-constraint rules kept in YAML beside a domain.

Format (``pddl/<domain>.constraints.yaml``)::

    domain: household
    rules:
      - name: item_location
        kind: functional          # functional | exclusive | requires
        description: an item is in exactly one place
        predicates: [placed_at_table, in_person_hand, ...]
        key: 0                    # argument position of the constrained entity
        types: [item]             # optional: only entities of these types (and subtypes)
        exactly: true             # functional: exactly one (true) or at most one (false)
      - name: glass_state
        kind: exclusive           # at most one of the predicates holds for the key entity
        predicates: [glass_empty, glass_has_liquid]
        key: 0
      - name: shelf_item_has_level
        kind: requires            # a fact of `if` needs some fact of `then` for the key entity
        if: [placed_at_shelf]
        then: [on_shelf_level]
        key: 0

``functional`` counts the facts of the predicate group whose ``key`` argument is
the entity; ``exclusive`` counts distinct predicates of the group holding for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

from .kg import Fact


class RuleKind(StrEnum):
    """A rule's ``kind`` (the YAML's word; see the module docstring)."""

    FUNCTIONAL = 'functional'  # the key entity has at most (exactly) one fact of the group
    EXCLUSIVE = 'exclusive'  # at most one of the group's predicates holds for it
    REQUIRES = 'requires'  # a fact of ``if`` needs some fact of ``then``

    @property
    def grouped(self) -> bool:
        """Tell whether the rule constrains a group of predicates (``predicates``)."""
        return self in GROUPED


KINDS = tuple(RuleKind)
#: the kinds that constrain one group of predicates about the key entity
GROUPED = (RuleKind.FUNCTIONAL, RuleKind.EXCLUSIVE)


class ConstraintError(ValueError):
    """The constraint YAML is malformed or does not fit the domain."""


@dataclass(frozen=True)
class Rule:
    """One state-constraint rule."""

    name: str
    kind: RuleKind
    predicates: tuple[str, ...] = ()
    key: int = 0
    types: tuple[str, ...] = ()
    exactly: bool = False
    if_: tuple[str, ...] = ()
    then: tuple[str, ...] = ()
    description: str = ''

    def watched(self) -> set[str]:
        """Return every predicate this rule reads."""
        return set(self.predicates) | set(self.if_) | set(self.then)

    def ties(self, a: Fact, b: Fact) -> bool:
        """Return whether this ``requires`` rule makes fact ``b`` go with fact ``a``.

        ``a`` is of its ``if`` predicates and ``b`` of its ``then`` ones, about the same key
        entity ("on the shelf" and "on shelf level 2" for one book).
        """
        k = self.key
        return (self.kind == RuleKind.REQUIRES and a.predicate in self.if_
                and b.predicate in self.then and len(a.args) > k and len(b.args) > k
                and a.args[k] == b.args[k])


@dataclass
class Constraints:
    """The rules of one domain."""

    domain: str = ''
    rules: list[Rule] = field(default_factory=list)

    @classmethod
    def empty(cls) -> Constraints:
        """Return a rule set with no rules."""
        return cls()

    @classmethod
    def load(cls, path: str | Path | None) -> Constraints:
        """Read a YAML file (None → no rules); raise :class:`ConstraintError`."""
        if path is None:
            return cls.empty()
        try:
            data = yaml.safe_load(Path(path).read_text())
        except OSError as exc:
            raise ConstraintError(f'cannot read constraints {path}: {exc.strerror}') from None
        except yaml.YAMLError as exc:
            raise ConstraintError(f'malformed YAML in {path}: {exc}'.replace('\n', ' ')) from None
        return cls.from_dict(data, str(path))

    @classmethod
    def from_dict(cls, data: object, where: str = 'constraints') -> Constraints:
        """Build from parsed YAML."""
        if data is None:
            return cls.empty()
        if not isinstance(data, dict) or not isinstance(data.get('rules', []), list):
            raise ConstraintError(f'{where}: expected a mapping with a "rules" list')
        rules = []
        for i, r in enumerate(data.get('rules') or []):
            if not isinstance(r, dict):
                raise ConstraintError(f'{where}: rule #{i} is not a mapping')
            name = str(r.get('name', f'rule_{i}'))
            if r.get('kind') not in KINDS:
                raise ConstraintError(f'{where}: rule {name}: kind must be one of '
                                      f'{tuple(map(str, KINDS))}')
            kind = RuleKind(r['kind'])

            def names(v: object, what: str, rule: str = name) -> tuple[str, ...]:
                if v is None:
                    return ()
                if isinstance(v, str):
                    v = [v]
                if isinstance(v, list) and any(isinstance(x, bool) for x in v):
                    raise ConstraintError(  # YAML 1.1 reads on/off/yes/no as true/false
                        f'{where}: rule {rule}: "{what}" holds true or false, which is how '
                        'YAML reads an unquoted on, off, yes or no: quote the name ("on")')
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise ConstraintError(
                        f'{where}: rule {rule}: "{what}" must be a list of names')
                return tuple(x.lower() for x in v)

            rule = Rule(
                name=name, kind=kind, predicates=names(r.get('predicates'), 'predicates'),
                key=int(r.get('key', 0)), types=names(r.get('types'), 'types'),
                exactly=bool(r.get('exactly', False)), if_=names(r.get('if'), 'if'),
                then=names(r.get('then'), 'then'), description=str(r.get('description', '')))
            if kind.grouped and not rule.predicates:
                raise ConstraintError(f'{where}: rule {name}: needs "predicates"')
            if kind == RuleKind.REQUIRES and (not rule.if_ or not rule.then):
                raise ConstraintError(f'{where}: rule {name}: needs "if" and "then"')
            rules.append(rule)
        return cls(str(data.get('domain', '')), rules)

    def check_against(self, domain: object) -> list[str]:
        """Return problems with the rules given a :class:`DomainSchema`."""
        problems = []
        name = getattr(domain, 'name', '')
        if self.domain and name and self.domain.lower() != name.lower():
            problems.append(f'the constraints are for domain "{self.domain}", not "{name}"')
        for rule in self.rules:
            for p in sorted(rule.watched()):
                if p not in domain.predicates:
                    problems.append(f'rule {rule.name}: unknown predicate {p}')
                elif rule.key >= domain.predicates[p].arity:
                    problems.append(f'rule {rule.name}: predicate {p} has no argument {rule.key}')
            for t in rule.types:
                if not domain.has_type(t):
                    problems.append(f'rule {rule.name}: unknown type {t}')
        return problems

    def place_rules(self, *, exactly: bool = True) -> list[Rule]:
        """Return the rules that say where a thing is: the one derivation of it.

        ``functional`` rules keyed on the thing: on the first argument, the thing first
        and its place second (``placed_at_table``, ``in_person_hand``, ``person_in_room``),
        exactly-one ones unless not ``exactly`` (then also "at most one place"); or
        exactly-one rules keyed on the second, the holder first (``room_has`` a table,
        ``occupied_by(place, person)``). A rule keyed on the second argument that only
        says "at most one" bounds what a holder holds (a gripper, a berth), not where.
        """
        return [r for r in self.rules if r.kind == RuleKind.FUNCTIONAL and (
            (r.key == 0 and (r.exactly or not exactly)) or (r.key == 1 and r.exactly))]

    def thing_position(self, predicate: str) -> int:
        """Return the argument of ``predicate`` that names the thing placed (0 if none).

        The key of the first rule of :meth:`place_rules` (any) that holds it: 1 for
        ``occupied_by(place, person)``, 0 for ``placed_at_table(item, table)``.
        """
        for r in self.place_rules(exactly=False):
            if predicate in r.predicates:
                return r.key
        return 0

    def holder_first(self) -> frozenset[str]:
        """Return the place predicates that name the place first (``occupied_by``)."""
        return frozenset(p for r in self.place_rules(exactly=False) for p in r.predicates
                         if self.thing_position(p) == 1)

    def place_position(self, predicate: str) -> int:
        """Return the argument of binary ``predicate`` that names the place (or holder)."""
        return 1 - self.thing_position(predicate)

    def thing_of(self, fact: Fact) -> str:
        """Return the thing a binary place fact places ("who is where": who)."""
        return fact.args[self.thing_position(fact.predicate)]

    def place_of(self, fact: Fact) -> str:
        """Return the place (or holder) of a binary place fact."""
        return fact.args[self.place_position(fact.predicate)]

    def located(self, predicate: str, thing: str, place: str) -> Fact:
        """Return the fact of ``predicate`` that puts ``thing`` at ``place``."""
        args = (place, thing) if self.thing_position(predicate) == 1 else (thing, place)
        return Fact(predicate, args)

    def place_keys(self) -> dict[str, int]:
        """Return, per predicate of an exactly-one ``functional`` rule, the thing's position.

        Where a thing is, whichever argument the rule keys on: ``placed_at_table`` (the
        thing first) and ``room_has`` (a room has the table: the table second).
        """
        out: dict[str, int] = {}
        for r in self.rules:
            if r.kind == RuleKind.FUNCTIONAL and r.exactly:
                for p in r.predicates:
                    out.setdefault(p, r.key)
        return out

    def place_predicates(self, *, exactly: bool = True) -> frozenset[str]:
        """Return the predicates of :meth:`place_rules`."""
        return frozenset(p for r in self.place_rules(exactly=exactly) for p in r.predicates)

    def place_groups(self, domain: Any, kind: str | None, *, exactly: bool = True
                     ) -> list[tuple[str, ...]]:
        """Return, per rule of :meth:`place_rules` that covers ``kind``, where such a thing is.

        Each group holds the rule's binary predicates of ``domain`` (a
        :class:`~l3mp_ros.world.domain.DomainSchema`) whose thing's argument (the rule's
        key) takes ``kind``;
        rules whose ``types`` leave ``kind`` out, and empty groups, are left out.
        """
        if kind is None:
            return []
        out = []
        for rule in self.place_rules(exactly=exactly):
            if rule.types and not domain.is_subtype(kind, rule.types):
                continue
            group = tuple(p for p in rule.predicates if p in domain.predicates
                          and domain.predicates[p].arity == 2
                          and domain.is_subtype(kind, domain.predicates[p].params[rule.key][1]))
            if group:
                out.append(group)
        return out
