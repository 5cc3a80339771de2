# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What every part of the stream generator shares: steps, drafts, mentions, state, lookups.

:class:`StreamBase` holds the generator's random state and its reads of the ground truth;
:mod:`.phrasing`, :mod:`.changes` and :mod:`.tasks` add the wording, the change builders
and the task builders; :class:`~l3mp_ros_bench.household.generator.StreamGenerator` puts
them together.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros_bench.household.household import (
    LOCATION_PREDS,
    PRED_OF_TYPE,
    ROBOT,
    GeneratorError,
    Household,
    household_domain,
)

STEP_SCHEMA = 'l3mp/household_step/v1'


# =========================================================================== steps
@dataclass
class Step:
    """One event of a run: a state change (with its diff) or a task (with its goal).

    ``gold_entities[i]`` is the KG entity the query graph's ``entities[i]`` describes (for
    collective tasks such as "wash all the dishes" the entities the goal is about, which the
    text names only as a group). ``actor`` is the person who made a change (None for a phone
    that starts or stops ringing, or a nameless report). For a task, ``outcome`` is the diff
    of a reference solution (the state a plan for the goal leaves behind: goal literals, the
    robot's final room, items it carries, faucets it left on) computed on the truth the task
    was drawn on.
    """

    index: int
    kind: str
    subkind: str
    text: str
    diff: Update | None = None
    goal: str | None = None
    query_graph: dict[str, Any] = field(default_factory=dict)
    gold_entities: list[str] = field(default_factory=list)
    actor: str | None = None
    outcome: Update | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``l3mp/household_step/v1``)."""
        return {
            'schema': STEP_SCHEMA, 'index': self.index, 'kind': self.kind,
            'subkind': self.subkind, 'text': self.text,
            'diff': self.diff.to_json() if self.diff is not None else None,
            'goal': self.goal, 'query_graph': self.query_graph,
            'gold_entities': list(self.gold_entities), 'actor': self.actor,
            'outcome': self.outcome.to_json() if self.outcome is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """Inverse of :meth:`to_json`."""
        return cls(
            index=int(data['index']), kind=data['kind'], subkind=data['subkind'],
            text=data['text'],
            diff=Update.from_json(data['diff']) if data.get('diff') is not None else None,
            goal=data.get('goal'), query_graph=data.get('query_graph') or {},
            gold_entities=list(data.get('gold_entities') or []), actor=data.get('actor'),
            outcome=(Update.from_json(data['outcome'])
                     if data.get('outcome') is not None else None))


class Mentions:
    """The entities a sentence mentions (description + KG name) and their relations."""

    def __init__(self) -> None:
        self.descs: list[str] = []
        self.names: list[str] = []
        self.rels: list[list[Any]] = []

    def add(self, desc: str, name: str) -> int:
        """Record a mention of entity ``name`` described as ``desc``; return its index."""
        if name in self.names:
            return self.names.index(name)
        self.descs.append(desc)
        self.names.append(name)
        return len(self.names) - 1

    def rel(self, a: int, rel: str, b: int) -> None:
        """Record a relation between two mentions (once; never a mention with itself)."""
        if a != b and [a, rel, b] not in self.rels:
            self.rels.append([a, rel, b])

    def graph(self) -> dict[str, Any]:
        """Return the gold query graph of the mentions."""
        return {'entities': list(self.descs), 'relations': [list(r) for r in self.rels]}


@dataclass
class Draft:
    """A step being built: its wording, mentions and diff or goal."""

    subkind: str
    text: str
    mentions: Mentions
    actor: str | None = None
    diff: Update | None = None
    goal: list[tuple[bool, Fact]] | None = None
    outcome: KnowledgeGraph | None = None


class StreamBase:
    """The generator's state and its reads of the ground truth (drawing, lookups, moves)."""

    def __init__(self, household: Household, seed: int, task_every: int = 5,
                 check: bool = True, cover: bool = False) -> None:
        """``cover``: draw each change kind and task kind once before the weights rule."""
        self.household = household
        self.info = household.info
        self.rng = random.Random(seed)
        self.task_every = max(int(task_every), 1)
        self.check = check
        self.domain, _, self.verifier = household_domain()
        self.index = 0
        self.changes_since_task = 0
        self.uses: dict[str, int] = {}
        self.cover = cover
        self.drawn: set[str] = set()  # kinds drawn so far (what ``cover`` still owes)
        self._by_type: dict[str, list[str]] = {}

    # ------------------------------------------------------------------ drawing
    def _draw(self, truth: KnowledgeGraph, weights: dict[str, float],
              builders: dict[str, Callable[[KnowledgeGraph], Draft | None]]) -> Draft | None:
        kinds = sorted(weights)
        owed = [k for k in kinds if k not in self.drawn] if self.cover else []
        for pool in (owed, kinds):  # with ``cover``, kinds not drawn yet come first
            pool = list(pool)
            while pool:
                kind = self.rng.choices(pool, [weights[k] for k in pool])[0]
                draft = builders[kind](truth)
                if draft is not None:
                    self.drawn.add(kind)
                    return draft
                pool.remove(kind)
        return None

    def _pick(self, candidates: Iterable[str]) -> str:
        """Pick among sorted candidates, favouring the less used ones; count the use."""
        cands = sorted(set(candidates))
        choice = self.rng.choices(cands, [1.0 / (1 + self.uses.get(c, 0)) for c in cands])[0]
        self.uses[choice] = self.uses.get(choice, 0) + 1
        return choice

    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _one(self, options: Sequence[str]) -> str:
        return options[self.rng.randrange(len(options))]

    # ------------------------------------------------------------------ truth queries
    def _all(self, type_: str) -> list[str]:
        if type_ not in self._by_type:
            self._by_type[type_] = self.household.of_type(type_)
        return self._by_type[type_]

    @staticmethod
    def _obj(kg: KnowledgeGraph, name: str, preds: Iterable[str]) -> Fact | None:
        ps = set(preds)
        hits = sorted(f for f in kg.facts_of(name) if f.predicate in ps and f.args[0] == name)
        return hits[0] if hits else None

    def _loc(self, kg: KnowledgeGraph, item: str) -> Fact:
        f = self._obj(kg, item, LOCATION_PREDS)
        if f is None:
            raise GeneratorError(f'{item} has no location in the truth')
        return f

    def _level(self, kg: KnowledgeGraph, item: str) -> Fact | None:
        return self._obj(kg, item, ('on_shelf_level',))

    def _loc_facts(self, kg: KnowledgeGraph, item: str) -> list[Fact]:
        facts = [self._loc(kg, item)]
        lv = self._level(kg, item)
        return facts + ([lv] if lv is not None else [])

    def _room_of_person(self, kg: KnowledgeGraph, who: str) -> str:
        pred = 'agent_in_room' if who == ROBOT else 'person_in_room'
        f = self._obj(kg, who, (pred,))
        if f is None:
            raise GeneratorError(f'{who} is in no room')
        return f.args[1]

    def _item_room(self, kg: KnowledgeGraph, item: str) -> str:
        loc = self._loc(kg, item)
        holder = loc.args[1]
        if loc.predicate in ('in_person_hand', 'in_agent_hand'):
            return self._room_of_person(kg, holder)
        return self.info[holder].room or ''

    def _held(self, kg: KnowledgeGraph, person: str) -> list[str]:
        return sorted(f.args[0] for f in kg.facts_of(person)
                      if f.predicate == 'in_person_hand' and f.args[1] == person)

    def _people_in(self, kg: KnowledgeGraph, room: str) -> list[str]:
        return sorted(f.args[0] for f in kg.facts_of(room) if f.predicate == 'person_in_room')

    def _choose_person(self, kg: KnowledgeGraph, room: str | None,
                       ok: Callable[[str], bool] | None = None) -> str | None:
        people = [p for p in self._all('person') if ok is None or ok(p)]
        if not people:
            return None
        if room is not None:
            here = [p for p in people if self._room_of_person(kg, p) == room]
            if here and self._chance(0.5):
                return self._pick(here)
        return self._pick(people)

    def _move(self, kg: KnowledgeGraph, person: str,
              room: str) -> tuple[list[Fact], list[Fact], bool]:
        here = self._room_of_person(kg, person)
        if here == room:
            return [], [], False
        return ([Fact('person_in_room', (person, here))],
                [Fact('person_in_room', (person, room))], True)

    def _destinations(self, item: str) -> list[str]:
        t = self.info[item].type
        dests = self._all('table') + self._all('shelf')
        if self.domain.is_subtype(t, 'perishable'):
            dests += self._all('fridge')
        if self.domain.is_subtype(t, 'nonperishable'):
            dests += self._all('pantry')
        if self.domain.is_subtype(t, 'kitchenware'):
            dests += self._all('kitchensink')
        if t == 'cloth':
            dests += self._all('washer') + self._all('dryer') + self._all('laundrybasket')
        return sorted(dests)

    def _place_facts(self, item: str, dest: str) -> tuple[list[Fact], str | None]:
        dtype = self.info[dest].type
        pred = PRED_OF_TYPE[dtype]
        facts = [Fact(pred, (item, dest))]
        level = None
        if dtype == 'shelf':
            level = self._one(sorted(n for n in self._all('shelf_level')
                                     if self.info[n].shelf == dest))
            facts.append(Fact('on_shelf_level', (item, level)))
        return facts, level

    # -- reference outcome helpers (what a plan for the goal leaves behind)
    @staticmethod
    def _set(kg: KnowledgeGraph, fact: Fact, value: bool) -> None:
        if value:
            kg.add_fact(fact)
        else:
            kg.remove_fact(fact)

    def _relocate(self, kg: KnowledgeGraph, item: str, facts: Iterable[Fact]) -> None:
        for f in self._loc_facts(kg, item):
            kg.remove_fact(f)
        for f in facts:
            kg.add_fact(f)

    def _robot_to(self, kg: KnowledgeGraph, room: str) -> None:
        for f in sorted(kg.facts_of(ROBOT)):
            if f.predicate == 'agent_in_room':
                kg.remove_fact(f)
        kg.add_fact(Fact('agent_in_room', (ROBOT, room)))
