# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The five embodied task types of the paper (Sec. V-B, Table II) and their state changes.

Each :class:`TaskType` knows how to

* **set up** a random instance on a seeded :class:`ControllerDouble` (``randomize=True``)
  and make it non-trivial (at least one dirty dish, one broken object, ...);
* write its **goal** from a knowledge graph (:meth:`TaskType.goal`): the robot's KG when it
  plans (what the LLM would write from the retrieved facts), the ground truth when the
  harness checks success;
* list the **state changes** that may happen to it now (:meth:`TaskType.changes`), each a
  ``reset`` (a finished part undone: a washed dish dirty again), an ``addition`` (new work:
  a clean dish becomes dirty) or a ``relocation`` (an object still to be handled is moved
  from where the robot last knew it), with an NL report in a person's words.

Names are the extractor's entity names (``mug_1``); changes act on the simulator through
the double's helpers (``dirty``, ``relocate``, ``break_object``), as a person would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros.ai2thor.double import ControllerDouble
from l3mp_ros.ai2thor.scene_graph import SceneGraphExtractor
from l3mp_ros.world.kg import Fact, KnowledgeGraph

RESET, ADDITION, RELOCATION = 'reset', 'addition', 'relocation'
KINDS = (RESET, ADDITION, RELOCATION)
ROBOT = 'the_robot'


@dataclass
class Change:
    """A state change that can happen now: what it does, to what, and how a person says it."""

    kind: str
    objects: tuple[str, ...]
    text: str
    apply: Callable[[], None] = field(repr=False)


class World:
    """Ground-truth view of the simulator in entity names (full observability)."""

    def __init__(self, sim: ControllerDouble, extractor: SceneGraphExtractor) -> None:
        self.sim = sim
        self.ex = extractor

    @property
    def metadata(self) -> dict[str, Any]:
        """Return the current event metadata."""
        return self.sim.last_event.metadata

    def kg(self) -> KnowledgeGraph:
        """Return the ground truth as a KG (every object observed)."""
        graph = self.ex.extract(self.metadata, all_objects=True, stamp=0.0)
        kg = KnowledgeGraph('ai2thor')
        for e in graph['entities']:
            kg.add_entity(e['name'], e['type'])
        for t in graph['facts']:
            kg.add_fact(Fact.from_triplet(t))
        return kg

    def oid(self, name: str) -> str:
        """Return the objectId of an entity name."""
        oid = self.ex.object_id_of(name)
        if oid is None:
            raise KeyError(name)
        return oid

    def obj(self, name: str) -> dict[str, Any]:
        """Return one object's metadata."""
        return self.sim.last_event.get_object(self.oid(name)) or {}

    def names(self, predicate: Callable[[dict[str, Any]], bool]) -> list[str]:
        """Return the names of the objects whose metadata satisfies ``predicate`` (sorted)."""
        return sorted(self.ex.name_of(o['objectId'], o['objectType'])
                      for o in self.metadata['objects'] if predicate(o))

    def parent(self, kg: KnowledgeGraph, name: str) -> str | None:
        """Return the receptacle holding ``name`` in ``kg`` (None: held or loose)."""
        return next((f.args[1] for f in kg.facts_of(name)
                     if f.predicate == 'in_receptacle' and f.args[0] == name), None)


def _held(kg: KnowledgeGraph, name: str) -> bool:
    return Fact('held_by', (name, ROBOT)) in kg


def _flag(kg: KnowledgeGraph, name: str, pred: str) -> bool:
    return Fact(pred, (name,)) in kg


def _of_type(kg: KnowledgeGraph, *types: str) -> list[str]:
    return sorted(n for n, t in kg.entities.items() if t in types)


def _one(kg: KnowledgeGraph, typ: str) -> str:
    names = _of_type(kg, typ)
    if not names:
        raise ValueError(f'the scene has no {typ}')
    return names[0]


SPOTS = ('surface', 'container')  # where a person may put things (not sinks, beds, fridges)


class TaskType:
    """Base class: a task type with setup, goal and possible changes."""

    name = ''
    label = ''
    kinds: tuple[str, ...] = ()

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task the person gives the robot."""
        raise NotImplementedError

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Adjust a random initial state so the task has work to do; return its parameters."""
        return {}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Return the goal's literals written from ``kg``."""
        raise NotImplementedError

    def goal(self, kg: KnowledgeGraph, params: dict[str, Any]) -> str:
        """Return the conjunction of the goal literals, written from ``kg``, in PDDL."""
        return '(and ' + ' '.join(self.goal_literals(kg, params)) + ')'

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Return the changes that can happen in the current state."""
        return []

    # -- helpers for changes ------------------------------------------------------
    @staticmethod
    def spot(w: World, truth: KnowledgeGraph, rng: random.Random,
             exclude: tuple[str | None, ...] = ()) -> str | None:
        """Pick a place a person might put something (not where it is now)."""
        options = [n for n in _of_type(truth, *SPOTS) if n not in exclude]
        return rng.choice(options) if options else None

    def move(self, w: World, truth: KnowledgeGraph, name: str, to: str, kind: str,
             text: str) -> Change:
        """Return a change that moves ``name`` into ``to``."""
        return Change(kind, (name,), text, lambda: w.sim.relocate(w.oid(name), w.oid(to)))


def _words(name: str) -> str:
    return name.rsplit('_', 1)[0].replace('_', ' ')


def _the(name: str) -> str:
    return f'the {_words(name)} ({name})'


class PickPlace(TaskType):
    """Put two items on a target receptacle."""

    name, label, kinds = 'pick_place', 'Pick & Place', (RELOCATION, RESET)

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task."""
        a, b = params['items']
        return f'Put {_the(a)} and {_the(b)} on {_the(params["target"])}.'

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Pick two loose items and a surface neither is on."""
        truth = w.kg()
        targets = _of_type(truth, 'surface')
        target = rng.choice(targets)
        items = [n for n in _of_type(truth, 'item', 'dish', 'food', 'decor')
                 if (p := w.parent(truth, n)) is not None and p != target
                 and truth.type_of(p) not in ('item', 'dish', 'food', 'decor')]
        chosen = rng.sample(items, 2)
        return {'items': chosen, 'target': target,
                'origin': {n: w.parent(truth, n) for n in chosen}}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Require both items on the target."""
        return [f'(in_receptacle {n} {params["target"]})' for n in params['items']]

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Relocate an item not yet placed; put a placed one back where it was."""
        out = []
        target = params['target']
        for n in params['items']:
            here = w.parent(truth, n)
            if _held(truth, n) or here is None:
                continue
            if here != target:
                to = self.spot(w, truth, rng, (here, target))
                if to:
                    out.append(self.move(w, truth, n, to, RELOCATION,
                                         f'I moved {_the(n)} from {_the(here)} to {_the(to)}.'))
            elif params['origin'][n] not in (None, target):
                back = params['origin'][n]
                out.append(self.move(w, truth, n, back, RESET,
                                     f'I put {_the(n)} back on {_the(back)}.'))
        return out


class WashDishes(TaskType):
    """Wash every dirty dish."""

    name, label, kinds = 'wash_dishes', 'Wash Dishes', (RESET, ADDITION, RELOCATION)

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task."""
        return 'Wash all the dirty dishes.'

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Make sure at least one dish is dirty (and not in a dish)."""
        truth = w.kg()
        dishes = _of_type(truth, 'dish')
        if not any(_flag(truth, d, 'is_dirty') for d in dishes):
            w.sim.dirty(w.oid(rng.choice(dishes)))
        truth = w.kg()
        return {'dirty_at_start': [d for d in dishes if _flag(truth, d, 'is_dirty')]}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Require every dish the KG knows to be dirty to be clean."""
        return [f'(not (is_dirty {d}))' for d in _of_type(kg, 'dish')
                if _flag(kg, d, 'is_dirty')]

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Dirty a washed dish again, dirty a clean one, or move a dirty one."""
        out = []
        for d in _of_type(truth, 'dish'):
            if _held(truth, d):
                continue
            here = w.parent(truth, d)
            where = f' on {_the(here)}' if here else ''
            if not _flag(truth, d, 'is_dirty'):
                kind = RESET if d in params['dirty_at_start'] else ADDITION
                text = (f'I used {_the(d)} again, it is dirty now.' if kind == RESET else
                        f'Someone used {_the(d)}{where}; it is dirty now.')
                out.append(Change(kind, (d,), text,
                                  lambda d=d: w.sim.dirty(w.oid(d))))
            elif here is not None and truth.type_of(here) != 'sink':
                to = self.spot(w, truth, rng, (here,))
                if to:
                    out.append(self.move(w, truth, d, to, RELOCATION,
                                         f'I moved the dirty {_words(d)} ({d}) from '
                                         f'{_the(here)} to {_the(to)}.'))
        return out


class CleanBed(TaskType):
    """Make the bed and clear the things lying on it (pillows stay)."""

    name, label, kinds = 'clean_bed', 'Clean Bed', (RESET, ADDITION)

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task."""
        return f'Make {_the(params["bed"])} and clear the things off it (pillows stay).'

    @staticmethod
    def _clutter(kg: KnowledgeGraph, bed: str) -> list[str]:
        return sorted(f.args[0] for f in kg.facts_with('in_receptacle')
                      if f.args[1] == bed and not f.args[0].startswith('pillow'))

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Unmake the bed and leave at least one thing on it."""
        truth = w.kg()
        bed = _one(truth, 'bed')
        w.sim.dirty(w.oid(bed))
        if not self._clutter(truth, bed):
            loose = [n for n in _of_type(truth, 'item', 'decor')
                     if not n.startswith('pillow') and w.parent(truth, n) is not None]
            n = rng.choice(loose)
            w.sim.relocate(w.oid(n), w.oid(bed))
        return {'bed': bed}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Require a made bed with nothing but pillows on it and an empty hand."""
        bed = params['bed']
        return ([f'(not (is_dirty {bed}))']
                + [f'(not (in_receptacle {n} {bed}))' for n in self._clutter(kg, bed)]
                + [f'(hand_empty {ROBOT})'])

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Unmake the made bed, or leave something new on it."""
        bed = params['bed']
        out = []
        if not _flag(truth, bed, 'is_dirty'):
            out.append(Change(RESET, (bed,), f'Someone lay down on {_the(bed)}; it is unmade '
                              'again.', lambda: w.sim.dirty(w.oid(bed))))
        for n in _of_type(truth, 'item', 'decor'):
            here = w.parent(truth, n)
            if n.startswith('pillow') or _held(truth, n) or here in (None, bed):
                continue
            out.append(self.move(w, truth, n, bed, ADDITION,
                                 f'I left {_the(n)} on {_the(bed)}.'))
        return out


class DiscardBroken(TaskType):
    """Throw every broken object into the garbage can."""

    name, label, kinds = 'discard_broken', 'Discard Broken', (ADDITION, RELOCATION, RESET)

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task."""
        return f'Throw all broken things into {_the(params["can"])}.'

    @staticmethod
    def _breakable(w: World) -> list[str]:
        return w.names(lambda o: o['breakable'] and o['pickupable']
                       and o['objectType'] not in ('Mug', 'Cup', 'Plate', 'Bowl', 'Egg'))

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Break at least one object."""
        truth = w.kg()
        if not any(_flag(truth, n, 'is_broken') for n in self._breakable(w)):
            w.sim.break_object(w.oid(rng.choice(self._breakable(w))))
        return {'can': _one(truth, 'garbage_can')}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Require every object the KG knows to be broken in the garbage can."""
        return [f'(in_receptacle {f.args[0]} {params["can"]})' for f in
                sorted(kg.facts_with('is_broken')) if kg.type_of(f.args[0]) != 'robot']

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Break another object, move a broken one, or take one out of the garbage."""
        can = params['can']
        out = []
        for n in self._breakable(w):
            here = w.parent(truth, n)
            if _held(truth, n) or here is None:
                continue
            if not _flag(truth, n, 'is_broken'):
                out.append(Change(ADDITION, (n,), f'{_the(n).capitalize()} on {_the(here)} '
                                  'fell and broke.', lambda n=n: w.sim.break_object(w.oid(n))))
            elif here != can:
                to = self.spot(w, truth, rng, (here,))
                if to:
                    out.append(self.move(w, truth, n, to, RELOCATION,
                                         f'I moved the broken {_words(n)} ({n}) from '
                                         f'{_the(here)} to {_the(to)}.'))
            else:
                to = self.spot(w, truth, rng, (here,))
                if to:
                    out.append(self.move(w, truth, n, to, RESET,
                                         f'I took {_the(n)} out of {_the(can)} and put it on '
                                         f'{_the(to)}.'))
        return out


class KeepCold(TaskType):
    """Put every food item into the fridge."""

    name, label, kinds = 'keep_cold', 'Keep Cold', (RESET, ADDITION, RELOCATION)

    def text(self, params: dict[str, Any]) -> str:
        """Return the NL task."""
        return f'Put all the food into {_the(params["fridge"])}.'

    def setup(self, w: World, rng: random.Random) -> dict[str, Any]:
        """Leave at least one food item out of the fridge."""
        truth = w.kg()
        fridge = _one(truth, 'fridge')
        food = _of_type(truth, 'food')
        out = [f for f in food if w.parent(truth, f) != fridge]
        if not out:
            n = rng.choice(food)
            w.sim.relocate(w.oid(n), w.oid(_one(truth, 'surface')))
            out = [n]
        return {'fridge': fridge, 'out_at_start': out}

    def goal_literals(self, kg: KnowledgeGraph, params: dict[str, Any]) -> list[str]:
        """Require every food item in the fridge."""
        return [f'(in_receptacle {f} {params["fridge"]})' for f in _of_type(kg, 'food')]

    def changes(self, w: World, truth: KnowledgeGraph, params: dict[str, Any],
                rng: random.Random) -> list[Change]:
        """Take food out of the fridge (again), or move food still to be stored."""
        fridge = params['fridge']
        out = []
        for f in _of_type(truth, 'food'):
            here = w.parent(truth, f)
            if _held(truth, f) or here is None or truth.type_of(here) == 'food':
                continue
            to = self.spot(w, truth, rng, (here, fridge))
            if not to:
                continue
            if here == fridge:
                kind = RESET if f in params['out_at_start'] else ADDITION
                out.append(self.move(w, truth, f, to, kind,
                                     f'I took {_the(f)} out of {_the(fridge)} and left it on '
                                     f'{_the(to)}.'))
            else:
                out.append(self.move(w, truth, f, to, RELOCATION,
                                     f'I moved {_the(f)} from {_the(here)} to {_the(to)}.'))
        return out


TASK_TYPES: dict[str, TaskType] = {t.name: t for t in (
    PickPlace(), WashDishes(), CleanBed(), DiscardBroken(), KeepCold())}
TASKS = tuple(TASK_TYPES)

# Table II of the paper (success rate %).
PAPER_TABLE_II = {
    'l3mp': {'pick_place': 65, 'wash_dishes': 85, 'clean_bed': 90, 'discard_broken': 70,
             'keep_cold': 65},
    'visual_only': {'pick_place': 15, 'wash_dishes': 0, 'clean_bed': 5, 'discard_broken': 10,
                    'keep_cold': 55},
}
