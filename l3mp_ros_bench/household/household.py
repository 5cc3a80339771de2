# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The benchmark's household: a seeded random home as a KG that satisfies the domain.

:func:`generate_household` builds rooms, furniture, 200+ movable items, people and the
robot as a :class:`~l3mp_ros.world.kg.KnowledgeGraph` that satisfies
``pddl/household.pddl`` and its constraint rules (:func:`household_domain`).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from l3mp_ros.compose import load_domain
from l3mp_ros.config import Config
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.verify import Verifier
from l3mp_ros_bench.household import vocab

DOMAIN_PATH = 'pddl/household.pddl'


CONSTRAINTS_PATH = 'pddl/household.constraints.yaml'


ROBOT = 'the_robot'


MAX_HELD = 3


HOUSEHOLD_SCHEMA = 'l3mp/household/v1'
ORDINALS = ('first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth',
            'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth')

# Where an item can be: predicate → the furniture type it names.
PLACE_PREDS: dict[str, str] = {
    'placed_at_table': 'table', 'placed_at_shelf': 'shelf', 'placed_at_fridge': 'fridge',
    'placed_at_pantry': 'pantry', 'placed_at_kitchensink': 'kitchensink',
    'placed_at_washer': 'washer', 'placed_at_dryer': 'dryer',
    'placed_at_laundrybasket': 'laundrybasket',
}


LOCATION_PREDS = (*PLACE_PREDS, 'in_person_hand', 'in_agent_hand')


PRED_OF_TYPE = {t: p for p, t in PLACE_PREDS.items()}


INSIDE = {'fridge', 'pantry', 'kitchensink', 'washer', 'dryer', 'laundrybasket'}


class GeneratorError(RuntimeError):
    """The generator produced something invalid (a bug, never an unlucky draw)."""


@functools.cache
def household_domain() -> tuple[DomainSchema, Constraints, Verifier]:
    """Return the household domain, its constraints and a verifier (loaded once)."""
    loaded = load_domain(Config(domain=DOMAIN_PATH, constraints=CONSTRAINTS_PATH))
    return loaded.schema, loaded.constraints, Verifier(loaded.schema, loaded.constraints)


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


def title_case(words: str) -> str:
    """Return ``kitchen_table`` as ``Kitchen Table``."""
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
            lv = add(f'{shelf}_level_{k}', 'shelf_level', f'{ORDINALS[k - 1]} shelf level',
                     'level', f'the {ORDINALS[k - 1]} level of {info[shelf].display}',
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
        add(f'book_{title}', 'book', f'book "{title_case(title)}"', 'movable')
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
