# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What the AI2-THOR controller double's house holds: its objects, rooms and first state.

The object catalogue (:data:`CAPABILITIES`: AI2-THOR's "actionable properties" per
``objectType``, and :data:`STATE_DEFAULTS`), iTHOR-style object ids
(:func:`make_object_id`), the built-in two-room house (:func:`default_scene`), a new
object's metadata (:func:`new_object`) and random initial states (:func:`random_state`).
What actions do to the scene is :class:`~l3mp_ros.ai2thor.double.ControllerDouble`'s.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

# Capability flags per objectType (AI2-THOR's "actionable properties").
CAPABILITIES: dict[str, dict[str, Any]] = {
    'Mug': dict(pickupable=True, receptacle=True, breakable=True, canFillWithLiquid=True,
                dirtyable=True, salientMaterials=['Ceramic'], mass=0.4),
    'Cup': dict(pickupable=True, receptacle=True, breakable=True, canFillWithLiquid=True,
                dirtyable=True, salientMaterials=['Glass'], mass=0.2),
    'Plate': dict(pickupable=True, receptacle=True, breakable=True, dirtyable=True,
                  salientMaterials=['Ceramic'], mass=0.5),
    'Bowl': dict(pickupable=True, receptacle=True, breakable=True, canFillWithLiquid=True,
                 dirtyable=True, salientMaterials=['Ceramic'], mass=0.4),
    'Pan': dict(pickupable=True, receptacle=True, dirtyable=True, salientMaterials=['Metal'],
                mass=1.0),
    'Pot': dict(pickupable=True, receptacle=True, dirtyable=True, canFillWithLiquid=True,
                salientMaterials=['Metal'], mass=1.2),
    'Apple': dict(pickupable=True, sliceable=True, salientMaterials=['Food'], mass=0.2),
    'Tomato': dict(pickupable=True, sliceable=True, salientMaterials=['Food'], mass=0.1),
    'Potato': dict(pickupable=True, sliceable=True, cookable=True, salientMaterials=['Food'],
                   mass=0.2),
    'Lettuce': dict(pickupable=True, sliceable=True, salientMaterials=['Food'], mass=0.3),
    'Bread': dict(pickupable=True, sliceable=True, salientMaterials=['Food'], mass=0.5),
    'Egg': dict(pickupable=True, sliceable=True, breakable=True, cookable=True,
                salientMaterials=['Food'], mass=0.05),
    'Vase': dict(pickupable=True, breakable=True, salientMaterials=['Ceramic'], mass=0.6),
    'Statue': dict(pickupable=True, breakable=True, salientMaterials=['Stone'], mass=0.8),
    'Pillow': dict(pickupable=True, salientMaterials=['Fabric'], mass=0.3),
    'CellPhone': dict(pickupable=True, breakable=True, toggleable=True,
                      salientMaterials=['Plastic'], mass=0.2),
    'Fridge': dict(receptacle=True, openable=True, isColdSource=True),
    'Cabinet': dict(receptacle=True, openable=True),
    'Drawer': dict(receptacle=True, openable=True),
    'Microwave': dict(receptacle=True, openable=True, toggleable=True, isHeatSource=True,
                      moveable=True),
    'CounterTop': dict(receptacle=True),
    'DiningTable': dict(receptacle=True, moveable=True),
    'Shelf': dict(receptacle=True),
    'Dresser': dict(receptacle=True, moveable=True),
    'SideTable': dict(receptacle=True, moveable=True),
    'SinkBasin': dict(receptacle=True),
    'GarbageCan': dict(receptacle=True, moveable=True),
    'Faucet': dict(toggleable=True),
    'Bed': dict(receptacle=True, dirtyable=True),
}
_FLAGS = ('pickupable', 'receptacle', 'openable', 'toggleable', 'breakable', 'dirtyable',
          'canFillWithLiquid', 'cookable', 'sliceable', 'canBeUsedUp', 'isHeatSource',
          'isColdSource', 'moveable')
STATE_DEFAULTS = dict(isOpen=False, openness=0.0, isToggled=False, isBroken=False,
                      isFilledWithLiquid=False, fillLiquid=None, isDirty=False,
                      isUsedUp=False, isCooked=False, isSliced=False, temperature='RoomTemp',
                      isMoving=False, mass=0.0, salientMaterials=None)


def make_object_id(object_type: str, x: float, y: float, z: float) -> str:
    """Return an iTHOR-style id ``Type|+x.xx|+y.yy|+z.zz``."""
    return f'{object_type}|{x:+06.2f}|{y:+06.2f}|{z:+06.2f}'


def _square(x0: float, z0: float, x1: float, z1: float) -> list[dict[str, float]]:
    return [dict(x=x0, y=0.0, z=z0), dict(x=x0, y=0.0, z=z1), dict(x=x1, y=0.0, z=z1),
            dict(x=x1, y=0.0, z=z0)]


def default_scene() -> dict[str, Any]:
    """Return the built-in scene: a kitchen and a bedroom, 22 objects.

    ``objects`` entries: ``objectType``, ``position`` (for the id and, without a parent,
    the pose), optional ``parent`` (index into the list) and state overrides.
    """
    house = {
        'id': 'l3mp-double-house',
        'rooms': [
            {'id': 'room|2', 'roomType': 'Kitchen', 'floorPolygon': _square(0, 0, 5, 5)},
            {'id': 'room|3', 'roomType': 'Bedroom', 'floorPolygon': _square(5, 0, 9, 5)},
        ],
    }
    o = [
        dict(objectType='CounterTop', position=(1.0, 0.9, 0.4)),                 # 0
        dict(objectType='Cabinet', position=(2.2, 1.6, 0.3)),                    # 1
        dict(objectType='Fridge', position=(0.4, 0.0, 4.2)),                     # 2
        dict(objectType='SinkBasin', position=(3.2, 0.85, 0.4)),                 # 3
        dict(objectType='Faucet', position=(3.2, 1.05, 0.15)),                   # 4
        dict(objectType='GarbageCan', position=(4.6, 0.0, 1.2)),                 # 5
        dict(objectType='DiningTable', position=(2.5, 0.0, 3.0)),                # 6
        dict(objectType='Mug', position=(1.1, 0.95, 0.45), parent=0, isDirty=True),
        dict(objectType='Mug', position=(2.2, 1.62, 0.3), parent=1),             # 8
        dict(objectType='Plate', position=(2.4, 0.8, 3.1), parent=6, isDirty=True),
        dict(objectType='Plate', position=(3.2, 0.86, 0.4), parent=3, isDirty=True),
        dict(objectType='Bowl', position=(0.8, 0.95, 0.4), parent=0),            # 11
        dict(objectType='Egg', position=(0.8, 0.98, 0.4), parent=11),            # 12
        dict(objectType='Apple', position=(2.6, 0.82, 2.9), parent=6),           # 13
        dict(objectType='Tomato', position=(0.4, 0.6, 4.2), parent=2),           # 14
        dict(objectType='Vase', position=(2.7, 0.82, 3.2), parent=6, isBroken=True),
        dict(objectType='Bed', position=(7.5, 0.0, 3.5), isDirty=True),          # 16
        dict(objectType='Pillow', position=(7.5, 0.6, 4.2), parent=16),          # 17
        dict(objectType='Dresser', position=(5.6, 0.0, 0.6)),                    # 18
        dict(objectType='Statue', position=(5.6, 0.9, 0.6), parent=18),          # 19
        dict(objectType='CellPhone', position=(5.7, 0.9, 0.7), parent=18),       # 20
        dict(objectType='Potato', position=(1.3, 0.95, 0.35), parent=0),         # 21
    ]
    agent = dict(position=dict(x=2.5, y=0.9, z=1.5), rotation=dict(x=0.0, y=0.0, z=0.0),
                 cameraHorizon=30.0, isStanding=True)
    return {'sceneName': 'l3mp_double', 'house': house, 'objects': o, 'agent': agent}


def new_object(object_type: str, oid: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """Return a new object's metadata: its type's capabilities, default state, ``state``."""
    obj: dict[str, Any] = {'name': oid.replace('|', '_'), 'objectId': oid,
                           'objectType': object_type, 'assetId': f'{object_type}_1'}
    caps = CAPABILITIES.get(object_type, {})
    for flag in _FLAGS:
        obj[flag] = bool(caps.get(flag, False))
    obj.update(copy.deepcopy(STATE_DEFAULTS))
    obj['mass'] = caps.get('mass', 0.0)
    obj['salientMaterials'] = caps.get('salientMaterials')
    unknown = set(state) - set(obj)
    if unknown:
        raise ValueError(f'unknown metadata fields for {oid}: {sorted(unknown)}')
    obj.update(copy.deepcopy(dict(state)))
    if obj['isOpen'] and not obj['openness']:
        obj['openness'] = 1.0
    return obj


# Where random initial states may put things (objectType -> receptacle objectTypes).
_PLACES = {
    'food': ('CounterTop', 'DiningTable', 'Fridge'),
    'dish': ('CounterTop', 'DiningTable', 'SinkBasin', 'Cabinet'),
    'other': ('CounterTop', 'DiningTable', 'Dresser', 'Bed'),
}
_FOOD = {'Apple', 'Tomato', 'Potato', 'Lettuce', 'Bread', 'Egg'}
_DISH = {'Mug', 'Cup', 'Plate', 'Bowl', 'Pan', 'Pot'}


def random_state(objects: dict[str, dict[str, Any]], parent: dict[str, str | None],
                 rng: random.Random) -> None:
    """Draw a random initial state: dirt, closed and off fixtures, where things are."""
    receptacles: dict[str, list[str]] = {}
    for oid, obj in objects.items():
        if obj['receptacle'] and not obj['pickupable']:
            receptacles.setdefault(obj['objectType'], []).append(oid)
    for oid, obj in objects.items():
        if obj['dirtyable']:
            obj['isDirty'] = rng.random() < 0.5
        if obj['openable']:
            obj['isOpen'], obj['openness'] = False, 0.0
        if obj['toggleable']:
            obj['isToggled'] = False
        if not obj['pickupable']:
            continue
        kind = ('food' if obj['objectType'] in _FOOD else
                'dish' if obj['objectType'] in _DISH else 'other')
        options = [r for t in _PLACES[kind] for r in receptacles.get(t, [])]
        if options:
            parent[oid] = rng.choice(options)
        if obj['breakable'] and obj['objectType'] not in _DISH | _FOOD:
            obj['isBroken'] = rng.random() < 0.5
