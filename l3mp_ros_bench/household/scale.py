# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A compact, scalable household generator for planning benchmarks (household domain).

``generate(rooms, items, seed)`` returns a KG that satisfies ``household.constraints.yaml``:
rooms of five kinds (kitchen, living room, laundry room, bathroom, bedroom) with their
furniture, shelves with three levels, a remote per TV, people in rooms, one robot, and items
of every kind in places their kind allows. The full benchmark generator (NL tasks, reports)
lives elsewhere; this one only makes states of a chosen size.
"""

from __future__ import annotations

import random

from l3mp_ros.world.kg import Fact, KnowledgeGraph

__all__ = ['ROOM_KINDS', 'generate']

#: room kind → furniture (type, name suffix)
ROOM_KINDS: dict[str, tuple[tuple[str, str], ...]] = {
    'kitchen': (('fridge', 'fridge'), ('pantry', 'pantry'), ('kitchensink', 'sink'),
                ('table', 'table'), ('light', 'light')),
    'living_room': (('table', 'table'), ('shelf', 'shelf'), ('tv', 'tv'), ('window', 'window'),
                    ('light', 'light')),
    'laundry_room': (('washer', 'washer'), ('dryer', 'dryer'), ('laundrybasket', 'basket'),
                     ('light', 'light')),
    'bathroom': (('bathroomsink', 'sink'), ('toilet', 'toilet'), ('light', 'light')),
    'bedroom': (('table', 'table'), ('shelf', 'shelf'), ('tv', 'tv'), ('window', 'window'),
                ('light', 'light')),
}
_FIRST = ('kitchen', 'living_room', 'laundry_room', 'bathroom')
_CYCLE = ('bedroom', 'bedroom', 'living_room', 'bathroom', 'kitchen', 'laundry_room')
_ITEM_KINDS = ('book', 'pen', 'cloth', 'phone', 'perishable', 'nonperishable',
               'kitchenware', 'glass')
_LIQUIDS = ('water', 'orange_juice', 'apple_juice')
_CHANNELS = ('news_channel', 'sports_channel', 'movie_channel')


def generate(rooms: int = 10, items: int = 50, seed: int = 0,
             people: int | None = None) -> KnowledgeGraph:
    """Return a consistent household KG with ``rooms`` rooms and ``items`` movable items."""
    if rooms < 4:
        raise ValueError('a generated household needs at least 4 rooms')
    rng = random.Random(seed)
    kg = KnowledgeGraph('household')

    def ent(name: str, typ: str) -> str:
        kg.add_entity(name, typ)
        return name

    def fact(pred: str, *args: str) -> None:
        kg.add_fact(Fact(pred, args))

    furniture: dict[str, list[str]] = {}
    room_names = []
    for i in range(rooms):
        kind = _FIRST[i] if i < len(_FIRST) else _CYCLE[(i - len(_FIRST)) % len(_CYCLE)]
        room = ent(f'{kind}_{i}', 'room')
        room_names.append(room)
        for typ, suffix in ROOM_KINDS[kind]:
            f = ent(f'{room}_{suffix}', typ)
            fact('room_has', room, f)
            furniture.setdefault(typ, []).append(f)
            if typ == 'shelf':
                for level in (1, 2, 3):
                    fact('shelf_has_level', f, ent(f'{f}_level_{level}', 'shelf_level'))
            if typ == 'tv':
                remote = ent(f'{f}_remote', 'remote')
                fact('remote_controls', remote, f)
                fact('placed_at_table', remote, f'{room}_table')
                fact('tv_playing_channel', f, rng.choice(_CHANNELS))
            if typ == 'light' and rng.random() < 0.4:
                fact('light_on', f)
            if typ == 'window' and rng.random() < 0.3:
                fact('window_open', f)
    for name in _LIQUIDS:
        ent(name, 'liquid')
    for name in _CHANNELS:
        ent(name, 'channel')
    robot = ent('the_robot', 'agent')
    fact('agent_in_room', robot, room_names[1])
    persons = [ent(f'person_{i}', 'person') for i in range(people or max(2, rooms // 3))]
    for p in persons:
        fact('person_in_room', p, rng.choice(room_names))

    def place_on_table_or_shelf(item: str) -> None:
        if furniture.get('shelf') and rng.random() < 0.5:
            shelf = rng.choice(furniture['shelf'])
            fact('placed_at_shelf', item, shelf)
            fact('on_shelf_level', item, f'{shelf}_level_{rng.randint(1, 3)}')
        else:
            fact('placed_at_table', item, rng.choice(furniture['table']))

    for i in range(items):
        kind = _ITEM_KINDS[i % len(_ITEM_KINDS)]
        item = ent(f'{kind}_{i}', kind)
        if kind == 'cloth':
            where = rng.choice(('laundrybasket', 'washer', 'dryer', 'table'))
            if where == 'table':
                place_on_table_or_shelf(item)
            else:
                fact(f'placed_at_{where}', item, rng.choice(furniture[where]))
            if rng.random() < 0.5:
                fact('cloth_is_clean', item)
            if rng.random() < 0.5:
                fact('cloth_is_dry', item)
        elif kind == 'perishable':
            fact('placed_at_fridge', item, rng.choice(furniture['fridge']))
        elif kind == 'nonperishable':
            fact('placed_at_pantry', item, rng.choice(furniture['pantry']))
        elif kind in ('kitchenware', 'glass'):
            if rng.random() < 0.7:
                fact('placed_at_kitchensink', item, rng.choice(furniture['kitchensink']))
            else:
                fact('placed_at_table', item, rng.choice(furniture['table']))
            if rng.random() < 0.5:
                fact('dish_is_clean', item)
            if kind == 'glass':
                if rng.random() < 0.6:
                    fact('glass_empty', item)
                else:
                    fact('glass_has_liquid', item, rng.choice(_LIQUIDS))
        elif kind == 'phone':
            owner = rng.choice(persons)
            fact('phone_owned_by', item, owner)
            if rng.random() < 0.3:
                fact('in_person_hand', item, owner)
            else:
                place_on_table_or_shelf(item)
            if rng.random() < 0.2:
                fact('phone_ringing', item)
        elif rng.random() < 0.1:
            fact('in_person_hand', item, rng.choice(persons))
        else:
            place_on_table_or_shelf(item)
    for sink in furniture.get('kitchensink', []) + furniture.get('bathroomsink', []):
        if rng.random() < 0.3:
            fact('faucet_on', sink)
    return kg
