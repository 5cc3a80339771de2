# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The knowledge graph: typed entities and grounded facts, networkx-backed.

A fact is a grounded PDDL predicate. Its triplet form is ``(a, p, b)`` for a
binary predicate, ``(a, p, true)`` for a unary one, ``(p,)`` for a nullary one
and ``(a, p, b, c, ...)`` for higher arities (hyper-facts, kept as they are).

A *numeric fact* gives a numeric function of the domain its value: ``(= (battery_level
robot1) 73.5)`` in PDDL, the triplet ``(robot1, battery_level, 73.5)``: the number takes
the place of the object (``(a, f, b, 5)`` for a binary function, ``(f, 5)`` for one without
arguments). A number is never a PDDL name, so the forms cannot be confused. A KG holds at
most one value per function and arguments: adding another replaces it.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import defaultdict
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field

import networkx as nx

from ..schemas import PDDL_NAME

KG_SCHEMA = 'l3mp/kg/v1'
TRUE = 'true'
FALSE = 'false'


class KGError(ValueError):
    """Malformed knowledge-graph input (snapshot, update text, fact)."""


_NUMBER_RE = re.compile(r'[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$')


def is_number(item: object) -> bool:
    """Return True for a JSON number (not a bool) or text that reads as a decimal number."""
    if isinstance(item, bool):
        return False
    if isinstance(item, (int, float)):
        return item == item and abs(item) != float('inf')
    return isinstance(item, str) and bool(_NUMBER_RE.match(item.strip()))


def number_text(value: object) -> str:
    """Return the canonical text of a number (``73.5``, ``80``); raise :class:`KGError`."""
    if not is_number(value):
        raise KGError(f'{value!r} is not a number')
    number = float(value.strip() if isinstance(value, str) else value)
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    return repr(number)


@dataclass(frozen=True, order=True)
class Fact:
    """A grounded predicate ``(predicate arg1 ... argN)``, or a function's value.

    ``value`` is empty for a predicate's atom; for a numeric fact it is the number's
    canonical text (:func:`number_text`) and ``predicate`` names the function.
    """

    predicate: str
    args: tuple[str, ...] = ()
    value: str = ''

    def __post_init__(self) -> None:
        object.__setattr__(self, 'predicate', self.predicate.lower())
        object.__setattr__(self, 'args', tuple(a.lower() for a in self.args))
        if self.value != '':
            object.__setattr__(self, 'value', number_text(self.value))

    @property
    def numeric(self) -> bool:
        """Return True for a function's value (``(= (f a) 3)``)."""
        return self.value != ''

    @property
    def number(self) -> float:
        """Return a numeric fact's value."""
        return float(self.value)

    @property
    def key(self) -> Fact:
        """Return the function term of a numeric fact (the fact itself otherwise)."""
        return Fact(self.predicate, self.args) if self.value != '' else self

    def with_value(self, value: object) -> Fact:
        """Return this function term with another value."""
        return Fact(self.predicate, self.args, number_text(value))

    @classmethod
    def from_triplet(cls, triplet: Iterable[str]) -> Fact:
        """Build a fact from ``(a, p, b)``, ``(a, p, true)``, ``(p,)`` or ``(a, p, b, c..)``.

        A number in the last place makes a numeric fact: ``(a, f, 73.5)``, ``(f, 5)``.
        """
        raw = list(triplet)
        if len(raw) >= 2 and is_number(raw[-1]):
            value = number_text(raw[-1])
            names = [str(x).strip() for x in raw[:-1]]
            if len(names) == 1:
                return cls(names[0], (), value)
            return cls(names[1], (names[0], *names[2:]), value)
        items = [str(x).strip() for x in raw]
        if len(items) == 1:
            return cls(items[0])
        if len(items) < 3 and len(items) != 1:
            raise KGError(f'a triplet needs 3 items, got {len(items)}: {tuple(items)}')
        subj, pred, *rest = items
        if len(rest) == 1 and rest[0].lower() == TRUE:
            return cls(pred, (subj,))
        return cls(pred, (subj, *rest))

    @classmethod
    def parse_pddl(cls, text: str) -> Fact:
        """Parse ``(p a b)`` into a fact."""
        tokens = text.strip().strip('()').split()
        if not tokens:
            raise KGError(f'empty PDDL atom: {text!r}')
        return cls(tokens[0], tuple(tokens[1:]))

    def triplet(self) -> tuple[str, ...]:
        """Return the triplet form of this fact."""
        if self.value != '':
            if not self.args:
                return (self.predicate, self.value)
            return (self.args[0], self.predicate, *self.args[1:], self.value)
        if not self.args:
            return (self.predicate,)
        if len(self.args) == 1:
            return (self.args[0], self.predicate, TRUE)
        return (self.args[0], self.predicate, *self.args[1:])

    def pddl(self) -> str:
        """Return ``(p a b)`` (``(= (f a) 3)`` for a numeric fact)."""
        atom = '(' + ' '.join((self.predicate, *self.args)) + ')'
        return f'(= {atom} {self.value})' if self.value != '' else atom

    def text(self) -> str:
        """Return the paper's text form ``(a, p, b)``."""
        return '(' + ', '.join(self.triplet()) + ')'

    def __str__(self) -> str:
        return self.text()


_REMOVE = r'(?<!\w)REMOVE(?!\w)'  # the text form's section markers, as whole words
_ADD = r'(?<!\w)ADD(?!\w)'


@dataclass(frozen=True)
class Update:
    """A change of the KG: facts to remove and facts to add (applied atomically)."""

    remove: frozenset[Fact] = field(default_factory=frozenset)
    add: frozenset[Fact] = field(default_factory=frozenset)

    @classmethod
    def of(cls, remove: Iterable[Fact] = (), add: Iterable[Fact] = ()) -> Update:
        """Build an update from iterables of facts."""
        return cls(frozenset(remove), frozenset(add))

    def inverse(self) -> Update:
        """Return the update that undoes this one."""
        return Update(self.add, self.remove)

    def take_in(self, new: Iterable[Fact], held: Container[Fact], *,
                old: Iterable[Fact] = (), gone: Iterable[Fact] = ()) -> Update:
        """Return this update with the facts ``new`` taken in (a place a check found).

        ``new`` hold afterwards: none is removed, and those not ``held`` already are
        added; the update's own ``old`` choice leaves its additions and ``gone`` (the
        place before) is removed. The domain's rules finish the result
        (:func:`~l3mp_ros.world.complete.complete`).
        """
        new = frozenset(new)
        return Update.of((self.remove | set(gone)) - new,
                         (self.add - set(old)) | {f for f in new if f not in held})

    def is_empty(self) -> bool:
        """Return True when the update changes nothing."""
        return not self.remove and not self.add

    def entities(self) -> set[str]:
        """Return every entity the update mentions."""
        return {a for f in self.remove | self.add for a in f.args}

    def text(self) -> str:
        """Print in the paper's form: ``REMOVE: (a, p, b), ...`` newline ``ADD: ...``."""
        rem = ', '.join(f.text() for f in sorted(self.remove))
        add = ', '.join(f.text() for f in sorted(self.add))
        return f'REMOVE: {rem}\nADD: {add}'

    def to_json(self) -> dict:
        """Return ``{"remove": [triplets], "add": [triplets]}``."""
        return {
            'remove': [list(f.triplet()) for f in sorted(self.remove)],
            'add': [list(f.triplet()) for f in sorted(self.add)],
        }

    @classmethod
    def from_json(cls, data: dict) -> Update:
        """Inverse of :meth:`to_json` (``false`` objects flip into removals)."""
        if not isinstance(data, dict):
            raise KGError('an update must be a JSON object with "remove" and "add" lists')
        rem, add = _split_false(data.get('remove', []) or [], data.get('add', []) or [])
        return cls.of(rem, add)

    @classmethod
    def parse(cls, text: str) -> Update:
        """Parse the paper's text form, tolerant of spacing, quotes and empty lists.

        ``(x, p, false)`` in ADD means remove ``(x, p, true)``; in REMOVE it
        means add ``(x, p, true)``.
        """
        if not isinstance(text, str):
            raise KGError('update text must be a string')
        # the markers as words: a name such as ``paddock`` or ``removed_tag`` holds none
        match = re.search(rf'{_REMOVE}\s*:?(.*?){_ADD}\s*:?(.*)$', text, re.S | re.I)
        if match is None:
            m_add = re.search(rf'{_ADD}\s*:?(.*)$', text, re.S | re.I)
            m_rem = re.search(rf'{_REMOVE}\s*:?(.*)$', text, re.S | re.I)
            if m_add is None and m_rem is None:
                raise KGError('no "REMOVE:" or "ADD:" section found in the update text')
            rem_txt = m_rem.group(1) if m_rem else ''
            add_txt = m_add.group(1) if m_add else ''
        else:
            rem_txt, add_txt = match.group(1), match.group(2)
        rem, add = _split_false(_parse_tuples(rem_txt), _parse_tuples(add_txt))
        return cls.of(rem, add)


def _parse_tuples(text: str) -> list[list[str]]:
    tuples = []
    for group in re.findall(r'[\(\[]([^\(\)\[\]]*)[\)\]]', text):
        items = [x.strip().strip('\'"` ').strip() for x in group.split(',')]
        items = [x for x in items if x]
        if not items or (len(items) == 1 and items[0].lower() in ('none', 'nothing', 'empty')):
            continue
        if (len(items) == 2 and not is_number(items[1])) or (
                len(items) == 1 and len(items[0].split()) > 1):
            raise KGError(f'malformed triplet ({group.strip()}): expected (subject, predicate, '
                          'object), (subject, predicate, true) or (predicate) for a fact '
                          'without arguments')
        tuples.append(items)
    leftover = re.sub(r'[\(\[][^\(\)\[\]]*[\)\]]', '', text)
    leftover = re.sub(r'[\s,;\[\]{}"\'`.]|none|nothing|empty|-', '', leftover, flags=re.I)
    if leftover:
        raise KGError(f'unparseable text in update: {leftover[:60]!r}')
    return tuples


def check_name(name: object, what: str = 'name') -> str:
    """Return ``name`` lower-cased if it is a PDDL name, else raise :class:`KGError`.

    ASCII letters, digits, ``_`` and ``-``, starting with a letter: the same text after
    any Unicode folding (no KELVIN SIGN turning into ``k``), usable in every update.
    """
    if not isinstance(name, str) or not PDDL_NAME.match(name):
        raise KGError(f'{what} {name!r} is not a PDDL name (ASCII letters, digits, "_" '
                      'and "-", starting with a letter)')
    return name.lower()


def _split_false(remove: Iterable, add: Iterable) -> tuple[list[Fact], list[Fact]]:
    rem: list[Fact] = []
    add_out: list[Fact] = []
    for src, same, flipped in ((remove, rem, add_out), (add, add_out, rem)):
        for trip in src:
            if not isinstance(trip, (list, tuple)) or not trip or not all(
                    isinstance(x, str) for x in trip[:-1]) or not (
                    isinstance(trip[-1], str) or is_number(trip[-1])):
                raise KGError(f'a fact must be a list of strings (a number last for a '
                              f"function's value), got {trip!r}")
            numeric = len(trip) >= 2 and is_number(trip[-1])
            for x in trip[:-1] if numeric else trip:
                check_name(x.strip(), 'in a fact, the name')
            if len(trip) == 3 and isinstance(trip[2], str) and trip[2].strip().lower() == FALSE:
                flipped.append(Fact.from_triplet([trip[0], trip[1], TRUE]))
            else:
                same.append(Fact.from_triplet(trip))
    return rem, add_out


_REVISIONS = itertools.count(1)


class KnowledgeGraph:
    """Typed entities and facts; a networkx MultiDiGraph mirrors binary facts."""

    def __init__(self, domain: str = '') -> None:
        self.domain = domain
        self._types: dict[str, str] = {}
        #: a new number, unique across graphs, whenever an entity is added, retyped or
        #: removed: equal revisions mean equal entity tables (cheap change detection)
        self.entity_revision = 0
        self._facts: set[Fact] = set()
        self._by_entity: dict[str, set[Fact]] = defaultdict(set)
        self._by_pred: dict[str, set[Fact]] = defaultdict(set)
        self._values: dict[Fact, Fact] = {}  # function term → its numeric fact
        self.graph = nx.MultiDiGraph()

    # -- entities -----------------------------------------------------------
    @property
    def entities(self) -> dict[str, str]:
        """Map entity name → type (read-only view by convention)."""
        return self._types

    def add_entity(self, name: str, type_: str) -> None:
        """Add (or retype) an entity."""
        name, type_ = name.lower(), type_.lower()
        if self._types.get(name) != type_:
            self._types[name] = type_
            self.entity_revision = next(_REVISIONS)
        self.graph.add_node(name, type=type_)

    def remove_entity(self, name: str) -> set[Fact]:
        """Remove an entity and every fact mentioning it; return those facts."""
        gone = set(self._by_entity.get(name, ()))
        for f in gone:
            self._discard(f)
        if self._types.pop(name, None) is not None:
            self.entity_revision = next(_REVISIONS)
        self._by_entity.pop(name, None)
        if self.graph.has_node(name):
            self.graph.remove_node(name)
        return gone

    def has_entity(self, name: str) -> bool:
        """Return True when the entity exists."""
        return name in self._types

    def type_of(self, name: str) -> str | None:
        """Return the entity's type or None."""
        return self._types.get(name)

    # -- facts --------------------------------------------------------------
    @property
    def facts(self) -> frozenset[Fact]:
        """Return all facts."""
        return frozenset(self._facts)

    def __len__(self) -> int:
        return len(self._facts)

    def __iter__(self) -> Iterator[Fact]:
        return iter(self._facts)

    def __contains__(self, fact: object) -> bool:
        return fact in self._facts

    def facts_of(self, name: str) -> set[Fact]:
        """Return the facts that mention an entity."""
        return set(self._by_entity.get(name, ()))

    def facts_with(self, predicate: str) -> set[Fact]:
        """Return the facts of one predicate."""
        return set(self._by_pred.get(predicate, ()))

    def value_of(self, function: str, args: Iterable[str] = ()) -> float | None:
        """Return the value of a numeric function term (None when the KG has none)."""
        held = self._values.get(Fact(function, tuple(args)))
        return None if held is None else held.number

    def value_fact(self, fact: Fact) -> Fact | None:
        """Return the numeric fact the KG holds for ``fact``'s function term, or None."""
        return self._values.get(fact.key)

    @property
    def numbers(self) -> frozenset[Fact]:
        """Return the numeric facts (one per function term)."""
        return frozenset(self._values.values())

    def add_fact(self, fact: Fact) -> None:
        """Add a fact (no verification; see :mod:`l3mp_ros.world.verify`).

        A numeric fact replaces the value its function term had.
        """
        if fact in self._facts:
            return
        if fact.numeric:
            old = self._values.get(fact.key)
            if old is not None:
                self._discard(old)
            self._values[fact.key] = fact
        self._facts.add(fact)
        self._by_pred[fact.predicate].add(fact)
        for a in set(fact.args):
            self._by_entity[a].add(fact)
        if fact.numeric:
            return  # a value is no relation between entities: no edge
        if len(fact.args) == 2:
            self.graph.add_edge(fact.args[0], fact.args[1], key=fact.predicate)
        elif len(fact.args) > 2:
            for a in fact.args[1:]:
                self.graph.add_edge(fact.args[0], a, key=fact.pddl())

    def _discard(self, fact: Fact) -> None:
        if fact not in self._facts:
            return
        self._facts.discard(fact)
        self._by_pred[fact.predicate].discard(fact)
        for a in set(fact.args):
            self._by_entity[a].discard(fact)
        if fact.numeric:
            if self._values.get(fact.key) == fact:
                del self._values[fact.key]
            return
        if len(fact.args) == 2:
            if self.graph.has_edge(fact.args[0], fact.args[1], key=fact.predicate):
                self.graph.remove_edge(fact.args[0], fact.args[1], key=fact.predicate)
        elif len(fact.args) > 2:
            for a in fact.args[1:]:
                if self.graph.has_edge(fact.args[0], a, key=fact.pddl()):
                    self.graph.remove_edge(fact.args[0], a, key=fact.pddl())

    def remove_fact(self, fact: Fact) -> None:
        """Remove a fact if present."""
        self._discard(fact)

    def apply(self, update: Update) -> None:
        """Apply an update atomically: all of it or (on error) none of it.

        Raises :class:`KGError` when a removed fact is absent or an added fact
        names an unknown entity; the KG is then unchanged.
        """
        missing = [f for f in update.remove if f not in self._facts]
        unknown = sorted({a for f in update.add for a in f.args if a not in self._types})
        if missing or unknown:
            parts = []
            if missing:
                parts.append('absent facts ' + ', '.join(f.text() for f in sorted(missing)))
            if unknown:
                parts.append('unknown entities ' + ', '.join(unknown))
            raise KGError('cannot apply update: ' + '; '.join(parts))
        for f in update.remove:
            self._discard(f)
        for f in update.add:
            self.add_fact(f)

    def replaced_values(self, update: Update) -> frozenset[Fact]:
        """Return the values ``update``'s numeric facts would replace without removing them."""
        out = set()
        for f in update.add:
            old = self._values.get(f.key) if f.numeric else None
            if old is not None and old != f and old not in update.remove:
                out.add(old)
        return frozenset(out)

    def diff_to(self, other: KnowledgeGraph) -> Update:
        """Return the update turning this KG's facts into ``other``'s."""
        return Update(frozenset(self._facts - other._facts), frozenset(other._facts - self._facts))

    # -- neighbourhood --------------------------------------------------------
    def neighbours(self, names: Iterable[str], depth: int = 1) -> set[str]:
        """Return the entities within ``depth`` hops of ``names`` (facts are undirected links)."""
        frontier = {n for n in names if n in self._types}
        seen = set(frontier)
        for _ in range(max(depth, 0)):
            nxt: set[str] = set()
            for n in frontier:
                for f in self._by_entity.get(n, ()):
                    nxt.update(f.args)
            frontier = nxt - seen
            seen |= frontier
            if not frontier:
                break
        return seen

    def subgraph_facts(self, names: Iterable[str], depth: int = 1) -> set[Fact]:
        """Return every fact touching an entity within ``depth - 1`` hops of ``names``."""
        core = self.neighbours(names, max(depth - 1, 0))
        out: set[Fact] = set()
        for n in core:
            out |= self._by_entity.get(n, set())
        return out

    # -- copying and serialisation -------------------------------------------
    def copy(self) -> KnowledgeGraph:
        """Return a deep copy."""
        kg = KnowledgeGraph(self.domain)
        for n, t in self._types.items():
            kg.add_entity(n, t)
        for f in self._facts:
            kg.add_fact(f)
        return kg

    def to_json(self) -> dict:
        """Return the ``l3mp/kg/v1`` snapshot (sorted: byte-stable)."""
        return {
            'schema': KG_SCHEMA,
            'domain': self.domain,
            'entities': [{'name': n, 'type': t} for n, t in sorted(self._types.items())],
            'facts': [list(f.triplet()) for f in sorted(self._facts)],
        }

    def dumps(self) -> str:
        """Return the snapshot as JSON text."""
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: dict) -> KnowledgeGraph:
        """Load an ``l3mp/kg/v1`` snapshot; raise :class:`KGError` when malformed."""
        if not isinstance(data, dict):
            raise KGError('a KG snapshot must be a JSON object')
        if data.get('schema', KG_SCHEMA) != KG_SCHEMA:
            raise KGError(f'unsupported KG schema {data.get("schema")!r} (expected {KG_SCHEMA})')
        kg = cls(str(data.get('domain', '')))
        ents = data.get('entities')
        if not isinstance(ents, list):
            raise KGError('"entities" must be a list of {"name", "type"} objects')
        for e in ents:
            if not isinstance(e, dict) or not isinstance(e.get('name'), str) or not isinstance(
                    e.get('type'), str):
                raise KGError(f'bad entity {e!r}: expected {{"name": str, "type": str}}')
            name = check_name(e['name'], 'entity name')
            type_ = check_name(e['type'], f'the type of {name}')
            if name in kg._types:
                raise KGError(f'entity {name} is listed twice (as {kg._types[name]} and '
                              f'{type_})')
            kg.add_entity(name, type_)
        facts = data.get('facts', [])
        if not isinstance(facts, list):
            raise KGError('"facts" must be a list of triplets')
        for trip in facts:
            if isinstance(trip, list) and len(trip) == 3 and isinstance(trip[2], bool):
                # the paper's (subject, property, boolean) triplet
                trip = [*trip[:2], TRUE if trip[2] else FALSE]
            if isinstance(trip, list) and len(trip) >= 2 and is_number(trip[-1]):
                trip = [*trip[:-1], number_text(trip[-1])]
            if not isinstance(trip, list) or not all(isinstance(x, str) for x in trip):
                raise KGError(f'bad fact {trip!r}: expected a list of strings '
                              '(a JSON true is accepted as the object of a one-argument fact, '
                              'a number as the value of a function)')
            if len(trip) == 3 and trip[2].strip().lower() == FALSE:
                raise KGError(f'bad fact {trip!r}: a snapshot lists the facts that hold; '
                              'leave a false one out')
            fact = Fact.from_triplet(trip)
            unknown = [a for a in fact.args if a not in kg._types]
            if unknown:
                raise KGError(f'fact {fact.text()} names unknown entities {unknown}')
            kg.add_fact(fact)
        return kg

    @classmethod
    def loads(cls, text: str) -> KnowledgeGraph:
        """Parse JSON text into a KG."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise KGError(f'malformed JSON: {exc}') from None
        return cls.from_json(data)
