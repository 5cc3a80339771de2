# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Seeded generator of the text household benchmark (paper Section V-A).

:func:`generate_household` builds a random household (rooms, furniture, 200+ movable items,
people, the robot) as a :class:`~l3mp_ros.world.kg.KnowledgeGraph` that satisfies
``pddl/household.pddl`` and its constraint rules. :class:`StreamGenerator` draws the events
of a run one by one against the *current* ground truth: state changes made by people (each
with its exact diff, an NL report and a gold query graph) and, every ``task_every`` changes,
a task (NL text, PDDL goal, gold query graph). :func:`generate_stream` is a convenience that
produces a whole stream, applying each change and each task's reference outcome.

Reproducibility: only ``random.Random(seed)`` draws, always from sorted lists; the same
seed (and the same sequence of truths) gives the same steps byte for byte.

Guarantees: every diff verifies (``Verifier.check`` is empty) against the truth it was drawn
on; no task's goal holds already when issued; every task is solvable with the domain's
actions (each task kind is issued only in states where a plan exists by construction, and its
reference outcome is a reachable state that satisfies the goal).
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros.bench.household import templates as T
from l3mp_ros.bench.household import vocab
from l3mp_ros.paths import resolve
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.verify import Verifier

DOMAIN_PATH = 'pddl/household.pddl'
CONSTRAINTS_PATH = 'pddl/household.constraints.yaml'
ROBOT = 'the_robot'
MAX_HELD = 3
STEP_SCHEMA = 'l3mp/household_step/v1'
HOUSEHOLD_SCHEMA = 'l3mp/household/v1'

# Where an item can be: predicate → the furniture type it names.
PLACE_PREDS: dict[str, str] = {
    'placed_at_table': 'table', 'placed_at_shelf': 'shelf', 'placed_at_fridge': 'fridge',
    'placed_at_pantry': 'pantry', 'placed_at_kitchensink': 'kitchensink',
    'placed_at_washer': 'washer', 'placed_at_dryer': 'dryer',
    'placed_at_laundrybasket': 'laundrybasket',
}
LOCATION_PREDS = (*PLACE_PREDS, 'in_person_hand', 'in_agent_hand')
_PRED_OF_TYPE = {t: p for p, t in PLACE_PREDS.items()}
_INSIDE = {'fridge', 'pantry', 'kitchensink', 'washer', 'dryer', 'laundrybasket'}
_ORDINALS = ('first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth',
             'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth')


class GeneratorError(RuntimeError):
    """The generator produced something invalid (a bug, never an unlucky draw)."""


@functools.cache
def household_domain() -> tuple[DomainSchema, Constraints, Verifier]:
    """Return the household domain, its constraints and a verifier (loaded once)."""
    domain = DomainSchema.load(resolve(DOMAIN_PATH))
    constraints = Constraints.load(resolve(CONSTRAINTS_PATH))
    return domain, constraints, Verifier(domain, constraints)


def reserved_names(domain: DomainSchema) -> set[str]:
    """Return the names an entity must not take (types, predicates, actions, keywords)."""
    words = {'and', 'or', 'not', 'either', 'forall', 'exists', 'when', 'imply', 'true', 'false'}
    return set(domain.types) | set(domain.predicates) | set(domain.actions) | words


# =========================================================================== household
@dataclass(frozen=True)
class EntityInfo:
    """How the NL side speaks of an entity.

    ``noun`` is the short description without article ("tan pen", "Helen's phone",
    "Jerry's bedroom"), ``display`` the usual phrase ("the tan pen"). ``room`` is the room of
    a piece of furniture or a shelf level (static), ``owner`` the owner of a phone or bedroom.
    """

    name: str
    type: str
    noun: str
    display: str
    category: str
    room: str | None = None
    owner: str | None = None
    shelf: str | None = None
    level: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``None`` fields dropped)."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class Household:
    """A generated household: the initial ground-truth KG and NL descriptions."""

    seed: int
    kg: KnowledgeGraph
    info: dict[str, EntityInfo]

    def of_type(self, type_: str) -> list[str]:
        """Return the sorted names of entities of ``type_`` or a subtype."""
        domain = household_domain()[0]
        return sorted(n for n, t in self.kg.entities.items() if domain.is_subtype(t, type_))

    @property
    def rooms(self) -> list[str]:
        """Return the room names."""
        return self.of_type('room')

    @property
    def people(self) -> list[str]:
        """Return the people's names."""
        return self.of_type('person')

    def movables(self) -> list[str]:
        """Return every movable item's name."""
        return self.of_type('item')

    def to_json(self) -> dict[str, Any]:
        """Return ``{"schema", "seed", "kg", "info"}`` (sorted, byte-stable)."""
        return {'schema': HOUSEHOLD_SCHEMA, 'seed': self.seed, 'kg': self.kg.to_json(),
                'info': [self.info[n].to_json() for n in sorted(self.info)]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Household:
        """Inverse of :meth:`to_json`."""
        info = {d['name']: EntityInfo(**d) for d in data['info']}
        return cls(int(data['seed']), KnowledgeGraph.from_json(data['kg']), info)


def _title(words: str) -> str:
    return ' '.join(w.capitalize() for w in words.split('_'))


def generate_household(seed: int, rooms: int | None = None) -> Household:
    """Generate a household: the same seed gives the same household byte for byte.

    ``rooms`` (default: 10–12 drawn from the seed) counts all rooms: kitchen, living room,
    laundry room, bathroom and ``rooms - 4`` bedrooms named after people.
    """
    domain, _, verifier = household_domain()
    rng = random.Random(seed)
    n_rooms = rooms if rooms is not None else rng.randint(10, 12)
    if n_rooms < 5:
        raise ValueError(f'a household needs at least 5 rooms, got {n_rooms}')
    n_people = rng.randint(20, 30)
    n_bedrooms = n_rooms - 4
    people = sorted(rng.sample(vocab.PEOPLE, max(n_people, n_bedrooms)))
    owners = sorted(rng.sample(people, n_bedrooms))
    kg = KnowledgeGraph(domain.name)
    info: dict[str, EntityInfo] = {}

    def add(name: str, type_: str, noun: str, category: str, display: str | None = None,
            **kw: Any) -> str:
        if name in info:
            raise GeneratorError(f'duplicate entity name {name}')
        kg.add_entity(name, type_)
        info[name] = EntityInfo(name, type_, noun, display or f'the {noun}', category, **kw)
        return name

    def fact(pred: str, *args: str) -> None:
        kg.add_fact(Fact(pred, args))

    # ---- rooms and furniture
    add('kitchen', 'room', 'kitchen', 'room')
    add('living_room', 'room', 'living room', 'room')
    add('laundry_room', 'room', 'laundry room', 'room')
    add('bathroom', 'room', 'bathroom', 'room')
    for p in owners:
        add(f'{p}_bedroom', 'room', f"{p.capitalize()}'s bedroom", 'room',
            f"{p.capitalize()}'s bedroom", owner=p)
    room_names = ['kitchen', 'living_room', 'laundry_room', 'bathroom'] + [
        f'{p}_bedroom' for p in owners]

    def furnish(room: str, name: str, type_: str, noun: str, unique: bool = False) -> str:
        rnoun = info[room].display
        disp = f'the {noun}' if unique else f'the {noun} in {rnoun}'
        add(name, type_, noun, 'furniture', disp, room=room)
        fact('room_has', room, name)
        return name

    furnish('kitchen', 'kitchen_fridge', 'fridge', 'fridge', True)
    furnish('kitchen', 'kitchen_pantry', 'pantry', 'pantry', True)
    furnish('kitchen', 'kitchen_sink', 'kitchensink', 'kitchen sink', True)
    furnish('kitchen', 'kitchen_light', 'light', 'light')
    furnish('laundry_room', 'laundry_room_washer', 'washer', 'washing machine', True)
    furnish('laundry_room', 'laundry_room_dryer', 'dryer', 'dryer', True)
    furnish('laundry_room', 'laundry_basket', 'laundrybasket', 'laundry basket', True)
    furnish('laundry_room', 'laundry_room_light', 'light', 'light')
    furnish('bathroom', 'bathroom_sink', 'bathroomsink', 'bathroom sink', True)
    furnish('bathroom', 'bathroom_toilet', 'toilet', 'toilet', True)
    furnish('bathroom', 'bathroom_light', 'light', 'light')
    channels = list(vocab.CHANNELS)
    for ch in channels:
        add(ch, 'channel', ch.replace('_', ' '), 'channel')
    for lq in vocab.LIQUIDS:
        add(lq, 'liquid', lq.replace('_', ' '), 'liquid', lq.replace('_', ' '))
    tables: list[str] = []
    levels: list[str] = []
    tvs: list[str] = []
    for room in ['living_room'] + [f'{p}_bedroom' for p in owners]:
        tables.append(furnish(room, f'{room}_table', 'table', 'table'))
        shelf = furnish(room, f'{room}_shelf', 'shelf', 'shelf')
        for k in range(1, rng.randint(7, 15) + 1):
            lv = add(f'{shelf}_level_{k}', 'shelf_level', f'{_ORDINALS[k - 1]} shelf level',
                     'level', f'the {_ORDINALS[k - 1]} level of {info[shelf].display}',
                     room=room, shelf=shelf, level=k)
            fact('shelf_has_level', shelf, lv)
            levels.append(lv)
        tv = furnish(room, f'{room}_tv', 'tv', 'TV')
        tvs.append(tv)
        furnish(room, f'{room}_window', 'window', 'window')
        furnish(room, f'{room}_light', 'light', 'light')
        remote = add(f'{tv}_remote', 'remote', f'remote for {info[tv].display}', 'movable')
        fact('remote_controls', remote, tv)
        fact('tv_playing_channel', tv, rng.choice(channels))
        if rng.random() < 0.3:
            fact('tv_on', tv)
        # the remote lies on its room's table (or shelf) at the start
        fact('placed_at_table', remote, f'{room}_table')

    # ---- people and the robot
    for p in people:
        add(p, 'person', p.capitalize(), 'person', p.capitalize())
    add(ROBOT, 'agent', 'robot', 'robot')
    for p in people:
        home = f'{p}_bedroom'
        room = home if home in info and rng.random() < 0.5 else rng.choice(room_names)
        fact('person_in_room', p, room)
    fact('agent_in_room', ROBOT, rng.choice(room_names))

    # ---- movables
    def put_anywhere(item: str) -> None:
        if rng.random() < 0.4:
            fact('placed_at_table', item, rng.choice(tables))
        else:
            lv = rng.choice(levels)
            fact('placed_at_shelf', item, info[lv].shelf or '')
            fact('on_shelf_level', item, lv)

    for title in sorted(rng.sample(vocab.BOOK_TITLES, rng.randint(38, 44))):
        add(f'book_{title}', 'book', f'book "{_title(title)}"', 'movable')
        put_anywhere(f'book_{title}')
    for colour in sorted(rng.sample(vocab.COLOURS, rng.randint(36, 42))):
        add(f'{colour}_pen', 'pen', f'{colour} pen', 'movable')
        put_anywhere(f'{colour}_pen')
    pairs = [(c, g) for c in vocab.COLOURS for g in vocab.GARMENTS]
    for colour, garment in sorted(rng.sample(pairs, rng.randint(36, 42))):
        name = add(f'{colour}_{garment}', 'cloth', f'{colour} {garment}', 'movable')
        fact('cloth_is_dry', name)
        if rng.random() < 0.6:
            fact('cloth_is_clean', name)
        where = rng.random()
        if where < 0.15:
            fact('placed_at_washer', name, 'laundry_room_washer')
        elif where < 0.25:
            fact('placed_at_dryer', name, 'laundry_room_dryer')
        elif where < 0.5:
            fact('placed_at_laundrybasket', name, 'laundry_basket')
        else:
            put_anywhere(name)
    for p in people:
        phone = add(f'{p}_phone', 'phone', f"{p.capitalize()}'s phone", 'movable',
                    f"{p.capitalize()}'s phone", owner=p)
        fact('phone_owned_by', phone, p)
        put_anywhere(phone)
    for food in sorted(rng.sample(vocab.PERISHABLES, rng.randint(30, 40))):
        add(food, 'perishable', food.replace('_', ' '), 'movable')
        fact('placed_at_fridge', food, 'kitchen_fridge')
    for _, foods in vocab.NONPERISHABLES:
        for food in sorted(rng.sample(foods, rng.randint(4, 5))):
            add(food, 'nonperishable', food.replace('_', ' '), 'movable')
            fact('placed_at_pantry', food, 'kitchen_pantry')
    for dish in sorted(rng.sample(vocab.KITCHENWARE, rng.randint(7, 9))):
        add(dish, 'kitchenware', dish.replace('_', ' '), 'movable')
        if rng.random() < 0.8:
            fact('placed_at_kitchensink', dish, 'kitchen_sink')
        else:
            fact('placed_at_table', dish, rng.choice(tables))
        if rng.random() < 0.5:
            fact('dish_is_clean', dish)
    for glass in sorted(rng.sample(vocab.GLASSES, 3)):
        add(glass, 'glass', glass.replace('_', ' '), 'movable')
        if rng.random() < 0.7:
            fact('placed_at_kitchensink', glass, 'kitchen_sink')
            fact('glass_empty', glass)
            if rng.random() < 0.6:
                fact('dish_is_clean', glass)
        else:
            fact('placed_at_table', glass, rng.choice(tables))
            fact('glass_has_liquid', glass, rng.choice(vocab.LIQUIDS))

    # ---- flags
    for light in sorted(f for f in info if info[f].type == 'light'):
        if rng.random() < 0.5:
            fact('light_on', light)
    for window in sorted(f for f in info if info[f].type == 'window'):
        if rng.random() < 0.4:
            fact('window_open', window)
    if rng.random() < 0.2:
        fact('faucet_on', 'bathroom_sink')

    clash = sorted(set(kg.entities) & reserved_names(domain))
    if clash:
        raise GeneratorError(f'entity names clash with the domain: {clash}')
    errors = verifier.check_state(kg)
    if errors:
        raise GeneratorError('generated household is invalid: ' + '; '.join(errors[:5]))
    return Household(seed, kg, info)


# =========================================================================== goals
_ATOM_RE = re.compile(r'\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)')


def parse_goal(goal: str) -> list[tuple[bool, Fact]]:
    """Parse ``(and lit ...)`` (literals: atoms or ``(not atom)``) into (positive, fact)."""
    text = goal.strip()
    m = re.fullmatch(r'\(\s*and\s+(.*)\)', text, re.S | re.I)
    body = m.group(1) if m else text
    out: list[tuple[bool, Fact]] = []
    pos = 0
    lit_re = re.compile(r'\s*(\(\s*not\s*(\([^()]*\))\s*\)|\([^()]*\))', re.I)
    while pos < len(body):
        if not body[pos:].strip():
            break
        lm = lit_re.match(body, pos)
        if lm is None:
            raise ValueError(f'cannot parse goal near {body[pos:pos + 40]!r}')
        if lm.group(2):
            out.append((False, Fact.parse_pddl(lm.group(2))))
        else:
            out.append((True, Fact.parse_pddl(lm.group(1))))
        pos = lm.end()
    return out


def goal_text(literals: Iterable[tuple[bool, Fact]]) -> str:
    """Return ``(and ...)`` for literals (sorted, duplicates dropped)."""
    lits = sorted(set(literals), key=lambda lf: (lf[1], lf[0]))
    parts = [f.pddl() if pos else f'(not {f.pddl()})' for pos, f in lits]
    return '(and ' + ' '.join(parts) + ')'


def goal_holds(kg: KnowledgeGraph, goal: str | Sequence[tuple[bool, Fact]]) -> bool:
    """Return True when every literal of the goal holds in ``kg`` (closed world)."""
    lits = parse_goal(goal) if isinstance(goal, str) else goal
    return all((f in kg) == pos for pos, f in lits)


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


class _Mentions:
    """The entities a sentence mentions (description + KG name) and their relations."""

    def __init__(self) -> None:
        self.descs: list[str] = []
        self.names: list[str] = []
        self.rels: list[list[Any]] = []

    def add(self, desc: str, name: str) -> int:
        if name in self.names:
            return self.names.index(name)
        self.descs.append(desc)
        self.names.append(name)
        return len(self.names) - 1

    def rel(self, a: int, rel: str, b: int) -> None:
        if a != b and [a, rel, b] not in self.rels:
            self.rels.append([a, rel, b])

    def graph(self) -> dict[str, Any]:
        return {'entities': list(self.descs), 'relations': [list(r) for r in self.rels]}


@dataclass
class _Draft:
    subkind: str
    text: str
    mentions: _Mentions
    actor: str | None = None
    diff: Update | None = None
    goal: list[tuple[bool, Fact]] | None = None
    outcome: KnowledgeGraph | None = None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# Change kinds and their weights (room 0.5, movable 0.3, person 0.2 as in the notes).
CHANGE_WEIGHTS: dict[str, float] = {
    'toggle_light': 0.17, 'toggle_window': 0.12, 'toggle_faucet': 0.08, 'tv_power': 0.07,
    'tv_channel': 0.06, 'pick_up': 0.10, 'place_item': 0.09, 'cloth_dirty': 0.03,
    'dish_dirty': 0.03, 'dish_washed': 0.02, 'glass_filled': 0.02, 'glass_emptied': 0.01,
    'phone_ringing': 0.08, 'phone_silenced': 0.04, 'move_person': 0.08,
}
# Task kinds and their weights (room 0.35, collective 0.1, movable 0.3, person 0.25).
TASK_WEIGHTS: dict[str, float] = {
    'switch_light': 0.14, 'window': 0.10, 'faucet': 0.05, 'tv_channel': 0.06,
    'place_item': 0.20, 'empty_glass': 0.04, 'hand_item': 0.12, 'answer_phone': 0.09,
    'fill_glass': 0.06, 'wash_dishes': 0.03, 'return_dishes': 0.02, 'laundry': 0.03,
    'organise_kitchen': 0.02, 'silence_phones': 0.02, 'all_off': 0.02,
}


class StreamGenerator:
    """Draw the events of a run one at a time against the current ground truth.

    ``next_step(truth)`` returns a change every time except after ``task_every`` changes,
    when it returns a task (or pass ``kind``). The runner applies a change's ``diff`` to its
    truth and, for a task, whatever the robot's plan did; the next step is drawn on the truth
    it passes, so changes stay valid however a task was solved. Deterministic for the same
    seed and the same sequence of truths.
    """

    def __init__(self, household: Household, seed: int, task_every: int = 5,
                 check: bool = True) -> None:
        self.household = household
        self.info = household.info
        self.rng = random.Random(seed)
        self.task_every = max(int(task_every), 1)
        self.check = check
        self.domain, _, self.verifier = household_domain()
        self.index = 0
        self.changes_since_task = 0
        self.uses: dict[str, int] = {}
        self._by_type: dict[str, list[str]] = {}

    # ------------------------------------------------------------------ public
    def next_step(self, truth: KnowledgeGraph, kind: str | None = None) -> Step:
        """Draw the next step on ``truth`` (not modified); ``kind`` is change or task."""
        if kind is None:
            kind = 'task' if self.changes_since_task >= self.task_every else 'change'
        if kind not in ('change', 'task'):
            raise ValueError(f'kind must be "change" or "task", got {kind!r}')
        if kind == 'change':
            draft = self._draw(truth, CHANGE_WEIGHTS, self._change_builders())
            if draft is None or draft.diff is None:
                raise GeneratorError('no state change possible')  # move_person always is
            errors = self.verifier.check(truth, draft.diff) if self.check else []
            if errors:
                raise GeneratorError(f'invalid {draft.subkind} diff: ' + '; '.join(errors))
            self.changes_since_task += 1
            step = Step(self.index, 'change', draft.subkind, draft.text, diff=draft.diff,
                        query_graph=draft.mentions.graph(),
                        gold_entities=list(draft.mentions.names), actor=draft.actor)
        else:
            draft = self._draw(truth, TASK_WEIGHTS, self._task_builders())
            if draft is None or draft.goal is None:
                raise GeneratorError('no task possible')  # place_item always is
            if goal_holds(truth, draft.goal):
                raise GeneratorError(f'{draft.subkind} goal already holds')
            outcome = truth.diff_to(draft.outcome) if draft.outcome is not None else None
            if self.check and outcome is not None:
                errors = self.verifier.check(truth, outcome)
                if errors:
                    raise GeneratorError(f'invalid {draft.subkind} outcome: '
                                         + '; '.join(errors))
                if not goal_holds(draft.outcome, draft.goal):
                    raise GeneratorError(f'{draft.subkind} outcome misses its goal')
            self.changes_since_task = 0
            step = Step(self.index, 'task', draft.subkind, draft.text,
                        goal=goal_text(draft.goal), query_graph=draft.mentions.graph(),
                        gold_entities=list(draft.mentions.names), outcome=outcome)
        self.index += 1
        return step

    # ------------------------------------------------------------------ drawing
    def _draw(self, truth: KnowledgeGraph, weights: dict[str, float],
              builders: dict[str, Callable[[KnowledgeGraph], _Draft | None]]) -> _Draft | None:
        kinds = sorted(weights)
        while kinds:
            kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
            draft = builders[kind](truth)
            if draft is not None:
                return draft
            kinds.remove(kind)
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

    # ------------------------------------------------------------------ NL references
    def _ref_room(self, room: str, m: _Mentions) -> tuple[str, int]:
        info = self.info[room]
        phrase = info.display
        if info.owner and self._chance(0.3):
            phrase = f"{info.owner.capitalize()}'s room"
        return phrase, m.add(phrase.removeprefix('the '), room)

    def _ref_person(self, person: str, m: _Mentions) -> tuple[str, int]:
        name = self.info[person].display
        return name, m.add(name, person)

    def _ref_fixture(self, fixture: str, m: _Mentions, room_idx: int | None = None,
                     room_phrase: bool = True) -> tuple[str, int]:
        """Name a piece of furniture; with ``room_idx`` its room is already mentioned."""
        info = self.info[fixture]
        idx = m.add(info.noun, fixture)
        unique = info.display == f'the {info.noun}'
        if unique:
            return info.display, idx
        room = info.room or ''
        if room_idx is not None and not room_phrase:
            m.rel(idx, 'in', room_idx)
            return f'the {info.noun}', idx
        phrase, ridx = self._ref_room(room, m)
        m.rel(idx, 'in', ridx)
        if self.info[room].owner is None and self._chance(0.4):
            return f'the {self.info[room].noun} {info.noun}', idx
        return f'the {info.noun} in {phrase}', idx

    def _ref_level(self, level: str, m: _Mentions,
                   room_idx: int | None = None) -> tuple[str, int]:
        info = self.info[level]
        idx = m.add(info.noun, level)
        shelf_phrase, sidx = self._ref_fixture(info.shelf or '', m, room_idx,
                                               room_phrase=room_idx is None)
        m.rel(idx, 'of', sidx)
        k = info.level or 1
        word = self._one((f'the {_ORDINALS[k - 1]} level of', f'level {k} of'))
        return f'{word} {shelf_phrase}', idx

    def _ref_item(self, kg: KnowledgeGraph, item: str, m: _Mentions,
                  place: float = 0.4) -> tuple[str, int]:
        """Name an item, sometimes by where it is now ("the tan pen in Joshua's bedroom")."""
        info = self.info[item]
        idx = m.add(info.noun, item)
        phrase = info.display
        if info.type == 'book' and self._chance(0.3):
            phrase = info.noun.split(' ', 1)[1]
        if not self._chance(place):
            return phrase, idx
        loc = self._loc(kg, item)
        holder = loc.args[1]
        if loc.predicate == 'in_agent_hand':
            return phrase, idx
        if loc.predicate == 'in_person_hand':
            who, pidx = self._ref_person(holder, m)
            m.rel(pidx, 'holds', idx)
            return f'{phrase} that {who} is holding', idx
        if self._chance(0.5) and self.info[holder].room is not None:
            room = self.info[holder].room or ''
            rphrase, ridx = self._ref_room(room, m)
            m.rel(idx, 'in', ridx)
            return f'{phrase} in {rphrase}', idx
        fphrase, fidx = self._ref_fixture(holder, m)
        prep = 'in' if self.info[holder].type in _INSIDE else 'on'
        m.rel(idx, prep, fidx)
        return f'{phrase} {prep} {fphrase}', idx

    def _frame(self, person: str, room: str, moved: bool, act: str, m: _Mentions,
               **fields: str) -> str:
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        act_text = act.format(**fields)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        return _cap(frame.format(person=pphrase, room=rphrase, act=act_text))

    # ================================================================== changes
    def _change_builders(self) -> dict[str, Callable[[KnowledgeGraph], _Draft | None]]:
        return {
            'toggle_light': lambda kg: self._c_toggle(kg, 'light', 'light_on', 'light'),
            'toggle_window': lambda kg: self._c_toggle(kg, 'window', 'window_open', 'window'),
            'toggle_faucet': lambda kg: self._c_toggle(kg, 'sink', 'faucet_on', 'faucet'),
            'tv_power': self._c_tv_power, 'tv_channel': self._c_tv_channel,
            'pick_up': self._c_pick_up, 'place_item': self._c_place,
            'cloth_dirty': lambda kg: self._c_dirty(kg, 'cloth', 'cloth_is_clean'),
            'dish_dirty': lambda kg: self._c_dirty(kg, 'kitchenware', 'dish_is_clean'),
            'dish_washed': self._c_dish_washed, 'glass_filled': self._c_glass_filled,
            'glass_emptied': self._c_glass_emptied, 'phone_ringing': self._c_phone_ringing,
            'phone_silenced': self._c_phone_silenced, 'move_person': self._c_move_person,
        }

    def _c_toggle(self, kg: KnowledgeGraph, type_: str, pred: str, word: str) -> _Draft | None:
        fixture = self._pick(self._all(type_))
        room = self.info[fixture].room or ''
        person = self._choose_person(kg, room)
        if person is None:
            return None
        flag = Fact(pred, (fixture,))
        on = flag in kg
        rem, add, moved = self._move(kg, person, room)
        (rem if on else add).append(flag)
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        fphrase, _ = self._ref_fixture(fixture, m, ridx, room_phrase=False)
        act = self._one(T.ACT[f'{word}_{"off" if on else "on"}']).format(fixture=fphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft(f'toggle_{word}', text, m, person, Update.of(rem, add))

    def _remote_access(self, kg: KnowledgeGraph, tv: str) -> tuple[str, str, bool] | None:
        """Return (person, remote, picks_up) for someone who can use ``tv``'s remote."""
        remote = f'{tv}_remote'
        loc = self._loc(kg, remote)
        if loc.predicate == 'in_person_hand':
            return loc.args[1], remote, False
        if loc.predicate == 'in_agent_hand' or self.info[loc.args[1]].room != self.info[
                tv].room:
            return None
        person = self._choose_person(kg, self.info[tv].room,
                                     lambda p: len(self._held(kg, p)) < MAX_HELD)
        return (person, remote, True) if person else None

    def _tv_change(self, kg: KnowledgeGraph, tv: str, flip: Update, subkind: str,
                   act_key: str, channel: str | None = None) -> _Draft | None:
        access = self._remote_access(kg, tv)
        if access is None:
            return None
        person, remote, picks = access
        room = self.info[tv].room or ''
        rem, add, moved = self._move(kg, person, room)
        if picks:
            rem += self._loc_facts(kg, remote)
            add.append(Fact('in_person_hand', (remote, person)))
        rem += list(flip.remove)
        add += list(flip.add)
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        tphrase, tidx = self._ref_fixture(tv, m, ridx, room_phrase=False)
        ridx2 = m.add('remote', remote)
        m.rel(pidx, 'holds', ridx2)
        fields = {'tv': tphrase, 'item': 'the remote'}
        if channel is not None:
            cphrase = f'the {self.info[channel].noun}'
            cidx = m.add(self.info[channel].noun, channel)
            m.rel(tidx, 'playing', cidx)
            fields['channel'] = cphrase
        act = self._one(T.ACT[act_key]).format(**fields)
        if picks:
            act = f'picked up the remote and {act.replace("the remote", "it")}'
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft(subkind, text, m, person, Update.of(rem, add))

    def _c_tv_power(self, kg: KnowledgeGraph) -> _Draft | None:
        tvs = [t for t in self._all('tv') if self._remote_access(kg, t) is not None]
        if not tvs:
            return None
        tv = self._pick(tvs)
        flag = Fact('tv_on', (tv,))
        on = flag in kg
        flip = Update.of([flag]) if on else Update.of(add=[flag])
        return self._tv_change(kg, tv, flip, 'tv_power', 'tv_off' if on else 'tv_on')

    def _c_tv_channel(self, kg: KnowledgeGraph) -> _Draft | None:
        tvs = [t for t in self._all('tv') if Fact('tv_on', (t,)) in kg
               and self._remote_access(kg, t) is not None]
        if not tvs:
            return None
        tv = self._pick(tvs)
        old = sorted(f for f in kg.facts_of(tv) if f.predicate == 'tv_playing_channel')
        current = {f.args[1] for f in old}
        channel = self._pick(c for c in self._all('channel') if c not in current)
        flip = Update.of(old, [Fact('tv_playing_channel', (tv, channel))])
        return self._tv_change(kg, tv, flip, 'tv_channel', 'tv_channel', channel)

    def _c_pick_up(self, kg: KnowledgeGraph) -> _Draft | None:
        items = [i for i in self._all('item') if self._loc(kg, i).predicate != 'in_agent_hand']
        if not items:
            return None
        item = self._pick(items)
        loc = self._loc(kg, item)
        src_person = loc.args[1] if loc.predicate == 'in_person_hand' else None
        room = self._item_room(kg, item)
        person = self._choose_person(
            kg, room, lambda p: p != src_person and len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, room)
        rem += self._loc_facts(kg, item)
        add.append(Fact('in_person_hand', (item, person)))
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        if src_person is not None:
            iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
            ophrase, oidx = self._ref_person(src_person, m)
            m.rel(oidx, 'in', ridx)
            act = self._one(T.ACT['take_from']).format(item=iphrase, other=ophrase)
        else:
            iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
            fphrase, fidx = self._ref_fixture(loc.args[1], m, ridx, room_phrase=False)
            prep = 'out of' if self.info[loc.args[1]].type in _INSIDE else 'from'
            act = self._one(T.ACT['pick_up']).format(item=iphrase) + f' {prep} {fphrase}'
            m.rel(iidx, 'in' if prep == 'out of' else 'on', fidx)
        m.rel(pidx, 'holds', iidx)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft('pick_up', text, m, person, Update.of(rem, add))

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
        pred = _PRED_OF_TYPE[dtype]
        facts = [Fact(pred, (item, dest))]
        level = None
        if dtype == 'shelf':
            level = self._one(sorted(n for n in self._all('shelf_level')
                                     if self.info[n].shelf == dest))
            facts.append(Fact('on_shelf_level', (item, level)))
        return facts, level

    def _dest_phrase(self, dest: str, level: str | None, m: _Mentions, item_idx: int,
                     room_idx: int | None = None) -> str:
        if level is not None:
            lphrase, lidx = self._ref_level(level, m, room_idx)
            m.rel(item_idx, 'on', lidx)
            return f'on {lphrase}'
        fphrase, fidx = (self._ref_fixture(dest, m, room_idx, room_phrase=False)
                         if room_idx is not None else self._ref_fixture(dest, m))
        prep = 'in' if self.info[dest].type in _INSIDE else 'on'
        m.rel(item_idx, prep, fidx)
        return f'{prep} {fphrase}'

    def _c_place(self, kg: KnowledgeGraph) -> _Draft | None:
        holders = [p for p in self._all('person') if self._held(kg, p)]
        if not holders:
            return None
        person = self._pick(holders)
        item = self._pick(self._held(kg, person))
        here = self._room_of_person(kg, person)
        dests = self._destinations(item)
        local = [d for d in dests if self.info[d].room == here]
        dest = self._pick(local if local and self._chance(0.5) else dests)
        room = self.info[dest].room or ''
        rem, add, moved = self._move(kg, person, room)
        rem.append(Fact('in_person_hand', (item, person)))
        facts, level = self._place_facts(item, dest)
        add += facts
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
        dphrase = self._dest_phrase(dest, level, m, iidx, ridx)
        act = self._one(T.ACT['place']).format(item=iphrase, dst=dphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft('place_item', text, m, person, Update.of(rem, add))

    def _c_dirty(self, kg: KnowledgeGraph, type_: str, pred: str) -> _Draft | None:
        cands = [i for i in self._all(type_) if Fact(pred, (i,)) in kg
                 and self._loc(kg, i).predicate != 'in_agent_hand']
        if not cands:
            return None
        item = self._pick(cands)
        room = self._item_room(kg, item)
        m = _Mentions()
        loc = self._loc(kg, item)
        person = None
        if loc.predicate == 'in_person_hand':
            person = loc.args[1]
        elif self._people_in(kg, room) and self._chance(0.6):
            person = self._pick(self._people_in(kg, room))
        word = 'cloth' if type_ == 'cloth' else 'dish'
        if person is not None:
            pphrase, pidx = self._ref_person(person, m)
            iphrase, iidx = self._ref_item(kg, item, m, place=0.3)
            m.rel(pidx, 'used', iidx)
            text = self._one(T.REPORT[f'{word}_dirty_by']).format(person=pphrase, item=iphrase)
        else:
            iphrase, _ = self._ref_item(kg, item, m, place=0.6)
            text = self._one(T.REPORT[f'{word}_dirty']).format(item=iphrase)
        return _Draft(f'{word}_dirty', _cap(text), m, person,
                      Update.of([Fact(pred, (item,))]))

    def _c_dish_washed(self, kg: KnowledgeGraph) -> _Draft | None:
        def ok(dish: str) -> bool:
            loc = self._loc(kg, dish)
            return (Fact('dish_is_clean', (dish,)) not in kg
                    and loc.predicate != 'in_agent_hand'
                    and not any(f.predicate == 'glass_has_liquid' for f in kg.facts_of(dish)))

        dishes = [d for d in self._all('kitchenware') if ok(d)]
        if not dishes:
            return None
        dish = self._pick(dishes)
        loc = self._loc(kg, dish)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        person = holder or self._choose_person(
            kg, 'kitchen', lambda p: len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, 'kitchen')
        sink = self._all('kitchensink')[0]
        if loc.predicate != 'placed_at_kitchensink':
            rem += self._loc_facts(kg, dish)
            add.append(Fact('placed_at_kitchensink', (dish, sink)))
        add.append(Fact('dish_is_clean', (dish,)))
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room('kitchen', m)
        m.rel(pidx, 'in', ridx)
        iphrase, iidx = self._ref_item(kg, dish, m, place=0.0 if holder else 0.4)
        fphrase, fidx = self._ref_fixture(sink, m)
        m.rel(iidx, 'in', fidx)
        act = self._one(T.ACT['dish_washed']).format(item=iphrase, fixture=fphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft('dish_washed', text, m, person, Update.of(rem, add))

    def _c_glass_filled(self, kg: KnowledgeGraph) -> _Draft | None:
        def ok(g: str) -> bool:
            return (Fact('glass_empty', (g,)) in kg and Fact('dish_is_clean', (g,)) in kg
                    and self._loc(kg, g).predicate != 'in_agent_hand')

        glasses = [g for g in self._all('glass') if ok(g)]
        if not glasses:
            return None
        glass = self._pick(glasses)
        loc = self._loc(kg, glass)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        person = holder or self._choose_person(
            kg, 'kitchen', lambda p: len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        liquid = self._pick(self._all('liquid'))
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room('kitchen', m)
        m.rel(pidx, 'in', ridx)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.0 if holder else 0.5)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'has', lidx)
        m.rel(pidx, 'holds', gidx)
        rem, add, moved = self._move(kg, person, 'kitchen')
        if holder is None:
            rem += self._loc_facts(kg, glass)
            add.append(Fact('in_person_hand', (glass, person)))
        rem += [Fact('glass_empty', (glass,)), Fact('dish_is_clean', (glass,))]
        add.append(Fact('glass_has_liquid', (glass, liquid)))
        act = self._one(T.ACT['glass_filled']).format(glass=gphrase,
                                                      liquid=self.info[liquid].noun)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft('glass_filled', text, m, person, Update.of(rem, add))

    def _c_glass_emptied(self, kg: KnowledgeGraph) -> _Draft | None:
        glasses = [g for g in self._all('glass')
                   if any(f.predicate == 'glass_has_liquid' for f in kg.facts_of(g))
                   and self._loc(kg, g).predicate != 'in_agent_hand']
        if not glasses:
            return None
        glass = self._pick(glasses)
        liquid = next(f.args[1] for f in sorted(kg.facts_of(glass))
                      if f.predicate == 'glass_has_liquid')
        loc = self._loc(kg, glass)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        room = self._item_room(kg, glass)
        person = holder or self._choose_person(kg, room)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, room)
        rem.append(Fact('glass_has_liquid', (glass, liquid)))
        add.append(Fact('glass_empty', (glass,)))
        if Fact('dish_is_clean', (glass,)) in kg:
            rem.append(Fact('dish_is_clean', (glass,)))
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.0 if holder else 0.4)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'had', lidx)
        act = self._one(T.ACT['glass_emptied']).format(glass=gphrase,
                                                       liquid=self.info[liquid].noun)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = _cap(frame.format(person=pphrase, room=rphrase, act=act))
        return _Draft('glass_emptied', text, m, person, Update.of(rem, add))

    def _c_phone(self, kg: KnowledgeGraph, ringing: bool) -> _Draft | None:
        phones = [p for p in self._all('phone') if (Fact('phone_ringing', (p,)) in kg) == ringing]
        if not phones:
            return None
        phone = self._pick(phones)
        m = _Mentions()
        pphrase, _ = self._ref_item(kg, phone, m, place=0.3)
        flag = Fact('phone_ringing', (phone,))
        key = 'phone_silenced' if ringing else 'phone_ringing'
        text = _cap(self._one(T.REPORT[key]).format(phone=pphrase))
        diff = Update.of([flag]) if ringing else Update.of(add=[flag])
        return _Draft(key, text, m, None, diff)

    def _c_phone_ringing(self, kg: KnowledgeGraph) -> _Draft | None:
        return self._c_phone(kg, False)

    def _c_phone_silenced(self, kg: KnowledgeGraph) -> _Draft | None:
        return self._c_phone(kg, True)

    def _c_move_person(self, kg: KnowledgeGraph) -> _Draft | None:
        person = self._pick(self._all('person'))
        src = self._room_of_person(kg, person)
        dst = self._pick(r for r in self._all('room') if r != src)
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        sphrase, sidx = self._ref_room(src, m)
        dphrase, didx = self._ref_room(dst, m)
        m.rel(pidx, 'in', didx)
        text = _cap(self._one(T.REPORT['move_person']).format(person=pphrase, src=sphrase,
                                                              dst=dphrase))
        diff = Update.of([Fact('person_in_room', (person, src))],
                         [Fact('person_in_room', (person, dst))])
        return _Draft('move_person', text, m, person, diff)

    # ================================================================== tasks
    def _task_builders(self) -> dict[str, Callable[[KnowledgeGraph], _Draft | None]]:
        return {
            'switch_light': lambda kg: self._t_flag(kg, 'light', 'light_on', 'light',
                                                    'switch_light'),
            'window': lambda kg: self._t_flag(kg, 'window', 'window_open', 'window', 'window'),
            'faucet': lambda kg: self._t_flag(kg, 'sink', 'faucet_on', 'faucet', 'faucet'),
            'tv_channel': self._t_tv_channel, 'place_item': self._t_place,
            'hand_item': self._t_hand, 'answer_phone': self._t_answer_phone,
            'silence_phones': self._t_silence_phones, 'fill_glass': self._t_fill_glass,
            'empty_glass': self._t_empty_glass, 'wash_dishes': self._t_wash_dishes,
            'return_dishes': self._t_return_dishes, 'laundry': self._t_laundry,
            'organise_kitchen': self._t_organise_kitchen, 'all_off': self._t_all_off,
        }

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

    def _task_text(self, key: str, **fields: str) -> str:
        return _cap(self._one(T.TASK[key]).format(**fields))

    def _t_flag(self, kg: KnowledgeGraph, type_: str, pred: str, word: str,
                subkind: str) -> _Draft | None:
        fixture = self._pick(self._all(type_))
        flag = Fact(pred, (fixture,))
        want = flag not in kg
        m = _Mentions()
        fphrase, _ = self._ref_fixture(fixture, m)
        text = self._task_text(f'{word}_{"on" if want else "off"}', fixture=fphrase)
        out = kg.copy()
        self._set(out, flag, want)
        self._robot_to(out, self.info[fixture].room or '')
        return _Draft(subkind, text, m, goal=[(want, flag)], outcome=out)

    def _t_tv_channel(self, kg: KnowledgeGraph) -> _Draft | None:
        # the robot can always take the remote, from anyone and anywhere
        tv = self._pick(self._all('tv'))
        on = Fact('tv_on', (tv,)) in kg
        current = {f.args[1] for f in kg.facts_of(tv) if f.predicate == 'tv_playing_channel'}
        channel = self._pick(c for c in self._all('channel') if not on or c not in current)
        m = _Mentions()
        tphrase, tidx = self._ref_fixture(tv, m)
        cidx = m.add(self.info[channel].noun, channel)
        m.rel(tidx, 'playing', cidx)
        text = self._task_text('tv_channel', tv=tphrase, channel=f'the {self.info[channel].noun}')
        goal = [(True, Fact('tv_on', (tv,))), (True, Fact('tv_playing_channel', (tv, channel)))]
        out = kg.copy()
        for f in sorted(out.facts_of(tv)):
            if f.predicate == 'tv_playing_channel':
                out.remove_fact(f)
        for _, f in goal:
            out.add_fact(f)
        self._relocate(out, f'{tv}_remote', [Fact('in_agent_hand', (f'{tv}_remote', ROBOT))])
        self._robot_to(out, self.info[tv].room or '')
        return _Draft('tv_channel', text, m, goal=goal, outcome=out)

    def _movable_for_task(self, kg: KnowledgeGraph) -> str:
        kinds = ('book', 'pen', 'cloth', 'phone', 'remote', 'kitchenware', 'food')
        kind = self._one(kinds)
        return self._pick(self._all(kind))

    def _t_place(self, kg: KnowledgeGraph) -> _Draft | None:
        item = self._movable_for_task(kg)
        dests = self._all('table') + self._all('shelf')
        dest = self._pick(dests)
        facts, level = self._place_facts(item, dest)
        if all(f in kg for f in facts):
            dest = self._pick(d for d in self._all('table') if d != dest)
            facts, level = self._place_facts(item, dest)
            if all(f in kg for f in facts):
                return None
        m = _Mentions()
        iphrase, iidx = self._ref_item(kg, item, m, place=0.5)
        dphrase = self._dest_phrase(dest, level, m, iidx)
        text = self._task_text('place_item', item=iphrase, dst=dphrase)
        out = kg.copy()
        self._relocate(out, item, facts)
        self._robot_to(out, self.info[dest].room or '')
        return _Draft('place_item', text, m, goal=[(True, f) for f in facts], outcome=out)

    def _t_hand(self, kg: KnowledgeGraph) -> _Draft | None:
        item = self._movable_for_task(kg)
        loc = self._loc(kg, item)
        people = [p for p in self._all('person') if len(self._held(kg, p)) < MAX_HELD
                  and loc != Fact('in_person_hand', (item, p))]
        if not people:
            return None
        owner = self.info[item].owner
        person = owner if owner in people and self._chance(0.5) else self._pick(people)
        m = _Mentions()
        iphrase, iidx = self._ref_item(kg, item, m, place=0.5)
        pphrase, pidx = self._ref_person(person, m)
        m.rel(pidx, 'holds', iidx)
        text = self._task_text('hand_item', item=iphrase, person=pphrase)
        goal = [(True, Fact('in_person_hand', (item, person)))]
        out = kg.copy()
        self._relocate(out, item, [goal[0][1]])
        self._robot_to(out, self._room_of_person(kg, person))
        return _Draft('hand_item', text, m, goal=goal, outcome=out)

    def _ringing(self, kg: KnowledgeGraph) -> list[str]:
        return [p for p in self._all('phone') if Fact('phone_ringing', (p,)) in kg]

    def _answer_all(self, kg: KnowledgeGraph, phones: Sequence[str]) -> KnowledgeGraph:
        out = kg.copy()
        for phone in phones:
            out.remove_fact(Fact('phone_ringing', (phone,)))
            self._robot_to(out, self._item_room(kg, phone))
            self._relocate(out, phone, [Fact('in_agent_hand', (phone, ROBOT))])
        return out

    def _t_answer_phone(self, kg: KnowledgeGraph) -> _Draft | None:
        ringing = self._ringing(kg)
        if not ringing:
            return None
        phone = self._pick(ringing)
        m = _Mentions()
        pphrase, _ = self._ref_item(kg, phone, m, place=0.3)
        text = self._task_text('answer_phone', phone=pphrase)
        goal = [(False, Fact('phone_ringing', (phone,)))]
        return _Draft('answer_phone', text, m, goal=goal, outcome=self._answer_all(kg, [phone]))

    def _t_silence_phones(self, kg: KnowledgeGraph) -> _Draft | None:
        ringing = self._ringing(kg)
        if len(ringing) < 2:
            return None
        m = _Mentions()
        for phone in ringing:
            m.add(self.info[phone].noun, phone)
        text = self._task_text('silence_phones')
        goal = [(False, Fact('phone_ringing', (p,))) for p in ringing]
        return _Draft('silence_phones', text, m, goal=goal,
                      outcome=self._answer_all(kg, ringing))

    def _t_fill_glass(self, kg: KnowledgeGraph) -> _Draft | None:
        glass = self._pick(self._all('glass'))
        liquid = self._pick(self._all('liquid'))
        loc = self._loc(kg, glass)
        people = [p for p in self._all('person') if len(self._held(kg, p)) < MAX_HELD
                  or loc == Fact('in_person_hand', (glass, p))]
        if not people:
            return None
        person = self._pick(people)
        goal = [(True, Fact('glass_has_liquid', (glass, liquid))),
                (True, Fact('in_person_hand', (glass, person)))]
        if goal_holds(kg, goal):
            return None
        m = _Mentions()
        pphrase, pidx = self._ref_person(person, m)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.4)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'has', lidx)
        m.rel(pidx, 'holds', gidx)
        text = self._task_text('fill_glass', person=pphrase, glass=gphrase,
                               liquid=self.info[liquid].noun)
        out = kg.copy()
        has = Fact('glass_has_liquid', (glass, liquid))
        if has not in kg:
            # empty it (kitchen sink), wash it if dirty (sink, faucet on), fill it (fridge)
            for f in sorted(kg.facts_of(glass)):
                if f.predicate in ('glass_has_liquid', 'glass_empty'):
                    out.remove_fact(f)
            if Fact('dish_is_clean', (glass,)) not in kg or any(
                    f.predicate == 'glass_has_liquid' for f in kg.facts_of(glass)):
                out.add_fact(Fact('faucet_on', (self._all('kitchensink')[0],)))
            out.remove_fact(Fact('dish_is_clean', (glass,)))
            out.add_fact(has)
        self._relocate(out, glass, [Fact('in_person_hand', (glass, person))])
        self._robot_to(out, self._room_of_person(kg, person))
        return _Draft('fill_glass', text, m, goal=goal, outcome=out)

    def _t_empty_glass(self, kg: KnowledgeGraph) -> _Draft | None:
        full = [g for g in self._all('glass') if Fact('glass_empty', (g,)) not in kg]
        if not full:
            return None
        glass = self._pick(full)
        m = _Mentions()
        gphrase, _ = self._ref_item(kg, glass, m, place=0.5)
        text = self._task_text('empty_glass', glass=gphrase)
        goal = [(True, Fact('glass_empty', (glass,)))]
        out = kg.copy()
        for f in sorted(kg.facts_of(glass)):
            if f.predicate == 'glass_has_liquid':
                out.remove_fact(f)
        out.add_fact(goal[0][1])
        self._relocate(out, glass, [Fact('in_agent_hand', (glass, ROBOT))])
        self._robot_to(out, 'kitchen')
        return _Draft('empty_glass', text, m, goal=goal, outcome=out)

    def _kitchen_mentions(self, m: _Mentions, fixture: str | None = None) -> str:
        ridx = m.add('kitchen', 'kitchen')
        if fixture is None:
            return 'the kitchen'
        phrase, fidx = self._ref_fixture(fixture, m)
        m.rel(fidx, 'in', ridx)
        return phrase

    def _wash_into_sink(self, kg: KnowledgeGraph, out: KnowledgeGraph,
                        dishes: Iterable[str], clean: bool) -> None:
        sink = self._all('kitchensink')[0]
        for d in dishes:
            if Fact('placed_at_kitchensink', (d, sink)) not in kg:
                self._relocate(out, d, [Fact('placed_at_kitchensink', (d, sink))])
            if clean and Fact('dish_is_clean', (d,)) not in kg:
                out.add_fact(Fact('dish_is_clean', (d,)))
                out.add_fact(Fact('faucet_on', (sink,)))
        self._robot_to(out, self.info[sink].room or 'kitchen')

    def _t_wash_dishes(self, kg: KnowledgeGraph) -> _Draft | None:
        dishes = self._all('kitchenware')
        dirty = [d for d in dishes if Fact('dish_is_clean', (d,)) not in kg]
        if not dirty:
            return None
        m = _Mentions()
        self._kitchen_mentions(m)
        for d in dirty:
            m.add(self.info[d].noun, d)
        text = self._task_text('wash_dishes')
        goal = [(True, Fact('dish_is_clean', (d,))) for d in dishes]
        out = kg.copy()
        self._wash_into_sink(kg, out, dirty, clean=True)
        return _Draft('wash_dishes', text, m, goal=goal, outcome=out)

    def _t_return_dishes(self, kg: KnowledgeGraph) -> _Draft | None:
        sink = self._all('kitchensink')[0]
        dishes = self._all('kitchenware')
        away = [d for d in dishes if Fact('placed_at_kitchensink', (d, sink)) not in kg]
        if not away:
            return None
        m = _Mentions()
        fphrase = self._kitchen_mentions(m, sink)
        for d in away:
            m.add(self.info[d].noun, d)
        text = self._task_text('return_dishes', fixture=fphrase)
        goal = [(True, Fact('placed_at_kitchensink', (d, sink))) for d in dishes]
        out = kg.copy()
        self._wash_into_sink(kg, out, away, clean=False)
        return _Draft('return_dishes', text, m, goal=goal, outcome=out)

    def _t_laundry(self, kg: KnowledgeGraph) -> _Draft | None:
        basket = self._all('laundrybasket')[0]
        dirty = [c for c in self._all('cloth') if Fact('cloth_is_clean', (c,)) not in kg
                 or Fact('cloth_is_dry', (c,)) not in kg]
        if not dirty:
            return None
        laundry_preds = ('placed_at_washer', 'placed_at_dryer', 'placed_at_laundrybasket')
        in_room = [c for c in dirty if self._loc(kg, c).predicate in laundry_preds]
        m = _Mentions()
        fphrase, fidx = self._ref_fixture(basket, m)
        if 1 <= len(in_room) <= 5 and self._chance(0.5):
            # kept small: the washer/dryer cycles' conditional effects make long goals hard
            clothes = in_room
            ridx = m.add('laundry room', self.info[basket].room or 'laundry_room')
            for c in clothes:
                m.rel(m.add(self.info[c].noun, c), 'in', ridx)
            text = self._task_text('laundry', fixture=fphrase)
        else:
            clothes = sorted(self.rng.sample(dirty, min(len(dirty), self.rng.randint(1, 3))))
            phrases = [self._ref_item(kg, c, m, place=0.3)[0] for c in clothes]
            items = (phrases[0] if len(phrases) == 1
                     else ', '.join(phrases[:-1]) + ' and ' + phrases[-1])
            text = self._task_text('laundry_named', items=items, fixture=fphrase)
        goal: list[tuple[bool, Fact]] = []
        out = kg.copy()
        for c in clothes:
            facts = [Fact('cloth_is_clean', (c,)), Fact('cloth_is_dry', (c,)),
                     Fact('placed_at_laundrybasket', (c, basket))]
            goal += [(True, f) for f in facts]
            self._relocate(out, c, facts[2:])
            out.add_fact(facts[0])
            out.add_fact(facts[1])
            self.uses[c] = self.uses.get(c, 0) + 1
        self._robot_to(out, self.info[basket].room or 'laundry_room')
        return _Draft('laundry', text, m, goal=goal, outcome=out)

    def _t_organise_kitchen(self, kg: KnowledgeGraph) -> _Draft | None:
        fridge = self._all('fridge')[0]
        pantry = self._all('pantry')[0]
        sink = self._all('kitchensink')[0]
        goal: list[tuple[bool, Fact]] = []
        goal += [(True, Fact('placed_at_fridge', (f, fridge))) for f in self._all('perishable')]
        goal += [(True, Fact('placed_at_pantry', (f, pantry)))
                 for f in self._all('nonperishable')]
        for d in self._all('kitchenware'):
            goal += [(True, Fact('placed_at_kitchensink', (d, sink))),
                     (True, Fact('dish_is_clean', (d,)))]
        if goal_holds(kg, goal):
            return None
        m = _Mentions()
        self._kitchen_mentions(m)
        for fx in (fridge, pantry, sink):
            self._kitchen_mentions(m, fx)
        out = kg.copy()
        for _, f in goal:
            if f in kg:
                continue
            if f.predicate == 'dish_is_clean':
                out.add_fact(f)
                out.add_fact(Fact('faucet_on', (sink,)))
            else:
                self._relocate(out, f.args[0], [f])
            m.add(self.info[f.args[0]].noun, f.args[0])
        self._robot_to(out, 'kitchen')
        text = self._task_text('organise_kitchen')
        return _Draft('organise_kitchen', text, m, goal=goal, outcome=out)

    def _t_all_off(self, kg: KnowledgeGraph) -> _Draft | None:
        with_tv = self._chance(0.5)
        flags = [Fact('light_on', (lt,)) for lt in self._all('light')]
        flags += [Fact('faucet_on', (s,)) for s in self._all('sink')]
        if with_tv:
            flags += [Fact('tv_on', (t,)) for t in self._all('tv')]
        if not any(f in kg for f in flags):
            return None
        m = _Mentions()
        out = kg.copy()
        for f in flags:
            if f in kg:
                m.add(self.info[f.args[0]].noun, f.args[0])
                out.remove_fact(f)
                if f.predicate == 'tv_on':
                    remote = f'{f.args[0]}_remote'
                    self._relocate(out, remote, [Fact('in_agent_hand', (remote, ROBOT))])
                self._robot_to(out, self.info[f.args[0]].room or '')
        text = self._task_text('all_off_tv' if with_tv else 'all_off')
        return _Draft('all_off', text, m, goal=[(False, f) for f in flags], outcome=out)


# =========================================================================== stream
Solver = Callable[[KnowledgeGraph, Step], Update | None]


def generate_stream(household: Household, seed: int, changes: int, tasks: int,
                    task_every: int = 5, apply_tasks: bool = True,
                    solver: Solver | None = None) -> list[Step]:
    """Generate a whole run: ``changes`` state changes with a task after every ``task_every``.

    Each change's diff is applied to a private copy of the household's truth before the next
    step is drawn. With ``apply_tasks`` each task is taken as solved: ``solver(truth, step)``
    gives the diff to apply (e.g. :func:`planner_solver`, which plans and executes), by
    default the task's reference ``outcome``; without ``apply_tasks`` tasks leave the truth
    unchanged. Tasks left over when the changes run out follow at the end.
    """
    gen = StreamGenerator(household, seed, task_every)
    truth = household.kg.copy()
    steps: list[Step] = []
    changes_left, tasks_left, since = changes, tasks, 0
    while changes_left > 0 or tasks_left > 0:
        if tasks_left > 0 and (since >= task_every or changes_left == 0):
            step = gen.next_step(truth, 'task')
            tasks_left -= 1
            since = 0
            if apply_tasks:
                effect = solver(truth, step) if solver is not None else step.outcome
                if effect is not None:
                    truth.apply(effect)
        else:
            step = gen.next_step(truth, 'change')
            changes_left -= 1
            since += 1
            if step.diff is None:
                raise GeneratorError('a change without a diff')
            truth.apply(step.diff)
        steps.append(step)
    return steps


def planner_solver(engine: str = 'fast-downward', timeout: float = 60.0) -> Solver:
    """Return a solver for :func:`generate_stream` that plans with ``l3mp_ros.planning``.

    The plan is found on the whole truth and executed step by step; a task without a plan
    leaves the truth unchanged (``None``). Slow (seconds per task): for checks, not for
    generating benchmark files.
    """
    from l3mp_ros.planning.execute import execute_plan
    from l3mp_ros.planning.planner import Planner

    domain = household_domain()[0]
    planner = Planner(domain, engine=engine, timeout=timeout)

    def solve(truth: KnowledgeGraph, step: Step) -> Update | None:
        result = planner.plan(truth, step.goal or '', context='auto')
        if result.status != 'solved':
            return None
        run = execute_plan(domain, truth, result.steps)
        return run.update if run.ok else None

    return solve


def stream_json(steps: Sequence[Step]) -> str:
    """Return the steps as canonical JSON text (one line per step)."""
    return '\n'.join(json.dumps(s.to_json(), sort_keys=True) for s in steps) + '\n'
