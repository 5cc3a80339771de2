# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A test double for ``ai2thor.controller.Controller`` over a small two-room house.

:class:`ControllerDouble` keeps a scene in AI2-THOR's metadata schema (``objects[]`` with
``objectId``, ``objectType``, ``visible``, ``isInteractable``, ``position``, ``distance``,
``parentReceptacles``, ``receptacleObjectIds``, ``isOpen``/``openness``, ``isToggled``,
``isDirty``, ``isBroken``, ``isFilledWithLiquid``/``fillLiquid``, ``isCooked``,
``isSliced``, ``temperature``, ``isPickedUp`` and the capability flags; ``agent``;
``inventoryObjects``; ``lastAction``, ``lastActionSuccess``, ``errorMessage``,
``errorCode``, ``actionReturn``) and a ProcTHOR-style ``house`` (``rooms[]`` with ``id``,
``roomType``, ``floorPolygon``). ``step(action=..., **kwargs)`` (or ``step(dict(...))``)
applies the documented effects of ``PickupObject``, ``PutObject``, ``DropHandObject``,
``OpenObject``, ``CloseObject``, ``ToggleObjectOn``/``Off``, ``CleanObject``,
``DirtyObject``, ``BreakObject``, ``FillObjectWithLiquid``, ``EmptyLiquidFromObject``,
``GetReachablePositions``, ``GetInteractablePoses``, ``Teleport``, ``TeleportFull``,
``Pass`` and ``Done``, and fails the way AI2-THOR does (``lastActionSuccess`` false and an
``errorMessage``): target not interactable (not visible or farther than
``visibilityDistance``), hand full or empty, receptacle closed, object lacking the
capability (``pickupable``, ``receptacle``, ``openable``, ``toggleable``, ``dirtyable``,
``breakable``, ``canFillWithLiquid``). Unknown actions and unknown objectIds raise
``ValueError`` as the real controller does for ``InvalidAction``/``InvalidArgument``.

Deviations from AI2-THOR (kept deliberately simple; no physics, no rendering):

* Visibility: every object in the agent's current room is ``visible`` unless a closed
  openable receptacle encloses it (``visibility='room'``, the default);
  ``visibility='distance'`` additionally requires ``distance <= visibilityDistance``.
  There is no field of view or occlusion. ``isInteractable`` = visible and within
  ``visibilityDistance`` (1.5 m) of the agent; ``distance`` is horizontal (x, z).
* Receptacles have unlimited room and no type restrictions (``forceAction`` is accepted
  and only skips the interaction-range check). Objects in a receptacle share its position.
* ``parentReceptacles`` lists the direct parent first and then its ancestors;
  ``receptacleObjectIds`` lists all contained objects, nested ones included.
* Objects inside a Fridge are ``Cold`` at once and ``RoomTemp`` again as soon as they leave
  it (AI2-THOR changes temperature over time). Microwaves and stoves do not heat.
* No contextual interactions: a dirty dish under a running faucet stays dirty until
  ``CleanObject``; ``CleanObject`` does not need water (as in AI2-THOR).
* Broken objects stay pickupable; ``BreakObject`` empties a filled object. ``OpenObject``
  on an open object and ``CleanObject`` on a clean one succeed; toggling an object into
  the state it is already in fails.
* Navigation is teleport-only: ``GetReachablePositions`` is the ``gridSize`` grid inside
  the rooms' floor polygons away from fixtures; ``GetInteractablePoses`` returns grid
  poses within 1 m of the object in its room, facing it (none for an enclosed or held
  object); ``Teleport``/``TeleportFull`` fail outside the floor polygons. Moving
  (``MoveAhead``, ``RotateLeft``...) is not modelled.

The house it starts from (objects, rooms, a random first state) is built by
:mod:`l3mp_ros.ai2thor.double_scene`; this module is what actions do to it.

Helpers for scheduled changes (they bypass the agent, like a person acting):
:meth:`ControllerDouble.dirty`, :meth:`clean`, :meth:`break_object`, :meth:`relocate`,
:meth:`add_object`, :meth:`remove_object`, :meth:`set_state`; :meth:`reset` with
``randomize=True`` and a ``seed`` draws a random initial state.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable, Mapping
from typing import Any

from l3mp_ros.ai2thor.double_scene import (
    STATE_DEFAULTS,
    default_scene,
    make_object_id,
    new_object,
    random_state,
)
from l3mp_ros.geometry import point_in_polygon

VISIBILITY_DISTANCE = 1.5
POSE_RADIUS = 1.0

_LIQUIDS = ('coffee', 'wine', 'water')


class Event:
    """The part of ``ai2thor.server.Event`` the project uses: ``metadata`` and helpers."""

    def __init__(self, metadata: dict[str, Any]) -> None:
        self.metadata = metadata

    @property
    def return_status(self) -> bool:
        """Mirror ``Event.return_status``: the last action's success."""
        return bool(self.metadata['lastActionSuccess'])

    def get_object(self, object_id: str) -> dict[str, Any] | None:
        """Return one object's metadata (None when absent)."""
        return next((o for o in self.metadata['objects'] if o['objectId'] == object_id), None)

    def objects_by_type(self, object_type: str) -> list[dict[str, Any]]:
        """Return the objects of one ``objectType``."""
        return [o for o in self.metadata['objects'] if o['objectType'] == object_type]


class ControllerDouble:
    """Stand-in for ``ai2thor.controller.Controller`` (see the module docstring)."""

    def __init__(self, scene: Mapping[str, Any] | None = None,
                 visibility_distance: float = VISIBILITY_DISTANCE, grid_size: float = 0.25,
                 visibility: str = 'room', seed: int | None = None,
                 randomize: bool = False) -> None:
        if visibility not in ('room', 'distance'):
            raise ValueError("visibility must be 'room' or 'distance'")
        self.visibility_distance = float(visibility_distance)
        self.grid_size = float(grid_size)
        self.visibility = visibility
        self._scene_spec = copy.deepcopy(dict(scene) if scene is not None else default_scene())
        self.last_event: Event
        self.reset(seed=seed, randomize=randomize)

    # -- scene state ------------------------------------------------------------
    @property
    def house(self) -> dict[str, Any]:
        """Return the ProcTHOR-style house dict (rooms with floor polygons)."""
        return copy.deepcopy(self._house)

    @property
    def object_ids(self) -> list[str]:
        """Return every objectId in scene order."""
        return list(self._objects)

    def reset(self, scene: Mapping[str, Any] | None = None, seed: int | None = None,
              randomize: bool = False) -> Event:
        """Restore the scene (optionally a new one); ``randomize`` draws a random state."""
        if scene is not None:
            self._scene_spec = copy.deepcopy(dict(scene))
        spec = self._scene_spec
        self._house = copy.deepcopy(spec['house'])
        self.scene_name = str(spec.get('sceneName', 'l3mp_double'))
        self._objects: dict[str, dict[str, Any]] = {}
        self._parent: dict[str, str | None] = {}
        self._pos: dict[str, dict[str, float]] = {}
        self._held: str | None = None
        ids: list[str] = []
        for entry in spec['objects']:
            x, y, z = entry['position']
            oid = entry.get('objectId') or make_object_id(entry['objectType'], x, y, z)
            if oid in self._objects:
                raise ValueError(f'duplicate objectId {oid} in the scene')
            state = {k: v for k, v in entry.items()
                     if k not in ('objectType', 'position', 'parent', 'objectId')}
            self._objects[oid] = new_object(entry['objectType'], oid, state)
            self._pos[oid] = dict(x=float(x), y=float(y), z=float(z))
            ids.append(oid)
        for oid, entry in zip(ids, spec['objects'], strict=True):
            parent = entry.get('parent')
            self._parent[oid] = ids[parent] if isinstance(parent, int) else parent
        agent = copy.deepcopy(spec['agent'])
        self._agent = dict(name='agent', position=agent['position'], rotation=agent['rotation'],
                           cameraHorizon=agent.get('cameraHorizon', 30.0),
                           isStanding=agent.get('isStanding', True), inHighFrictionArea=False)
        if randomize:
            random_state(self._objects, self._parent, random.Random(seed))
        self.last_event = self._event('Initialize', True)
        return self.last_event

    # -- geometry ---------------------------------------------------------------
    def _position(self, oid: str) -> dict[str, float]:
        if oid == self._held:
            a = self._agent['position']
            return dict(x=a['x'], y=a['y'] + 0.3, z=a['z'])
        seen = set()
        cur = oid
        while self._parent.get(cur) is not None and cur not in seen:
            seen.add(cur)
            cur = self._parent[cur]
            if cur == self._held:
                return self._position(cur)
        pos = dict(self._pos[cur])
        if cur != oid:
            pos['y'] += 0.05
        return pos

    def _room_of(self, pos: Mapping[str, float]) -> str | None:
        for room in self._house['rooms']:
            poly = [(p['x'], p['z']) for p in room['floorPolygon']]
            if point_in_polygon(pos['x'], pos['z'], poly):
                return str(room['id'])
        return None

    def _distance(self, oid: str) -> float:
        p, a = self._position(oid), self._agent['position']
        return math.hypot(p['x'] - a['x'], p['z'] - a['z'])

    def _ancestors(self, oid: str) -> list[str]:
        out: list[str] = []
        cur = self._parent.get(oid)
        while cur is not None and cur not in out:
            out.append(cur)
            cur = self._parent.get(cur)
        return out

    def _descendants(self, oid: str) -> list[str]:
        return [c for c in self._objects if oid in self._ancestors(c)]

    def _enclosed(self, oid: str) -> bool:
        return any(self._objects[p]['openable'] and not self._objects[p]['isOpen']
                   for p in self._ancestors(oid))

    def _visible(self, oid: str) -> bool:
        if oid == self._held:
            return True
        if self._enclosed(oid):
            return False
        if self._room_of(self._position(oid)) != self._room_of(self._agent['position']):
            return False
        return self.visibility == 'room' or self._distance(oid) <= self.visibility_distance

    def _interactable(self, oid: str) -> bool:
        return oid == self._held or (
            self._visible(oid) and self._distance(oid) <= self.visibility_distance)

    def _temperature(self, oid: str) -> str:
        if any(self._objects[p]['isColdSource'] for p in self._ancestors(oid)):
            return 'Cold'
        return self._objects[oid]['temperature']

    # -- metadata -----------------------------------------------------------------
    def _metadata_object(self, oid: str) -> dict[str, Any]:
        obj = copy.deepcopy(self._objects[oid])
        pos = self._position(oid)
        obj['position'] = pos
        obj['rotation'] = dict(x=0.0, y=0.0, z=0.0)
        obj['visible'] = self._visible(oid)
        obj['isInteractable'] = self._interactable(oid)
        obj['distance'] = round(self._distance(oid), 4)
        obj['isPickedUp'] = oid == self._held
        obj['temperature'] = self._temperature(oid)
        parents = self._ancestors(oid)
        obj['parentReceptacles'] = parents or None
        obj['receptacleObjectIds'] = self._descendants(oid) if obj['receptacle'] else None
        obj['axisAlignedBoundingBox'] = {'center': dict(pos), 'size': dict(x=0.2, y=0.2, z=0.2),
                                         'cornerPoints': None}
        obj['objectOrientedBoundingBox'] = None
        return obj

    def _event(self, action: str, success: bool, error: str = '', code: str = '',
               action_return: Any = None) -> Event:
        held = self._held
        metadata = {
            'sceneName': self.scene_name,
            'objects': [self._metadata_object(oid) for oid in self._objects],
            'agent': copy.deepcopy(self._agent),
            'inventoryObjects': ([{'objectId': held,
                                   'objectType': self._objects[held]['objectType']}]
                                 if held else []),
            'lastAction': action,
            'lastActionSuccess': bool(success),
            'errorMessage': error,
            'errorCode': code,
            'actionReturn': action_return,
            'isSceneAtRest': True,
            'fov': 90.0,
        }
        return Event(metadata)

    # -- the controller API ---------------------------------------------------------
    def step(self, action: str | Mapping[str, Any] | None = None, **kwargs: Any) -> Event:
        """Run one AI2-THOR action; returns (and stores as ``last_event``) the new Event."""
        args = dict(action) if isinstance(action, Mapping) else {'action': action}
        args.update(kwargs)
        name = args.pop('action', None)
        args.pop('raise_for_failure', None)
        handler = getattr(self, f'_do_{name}', None) if isinstance(name, str) else None
        if handler is None:
            raise ValueError(f'Invalid action: {name!r} is not supported by ControllerDouble')
        oid = args.get('objectId')
        if 'objectId' in args and oid not in self._objects:
            raise ValueError(f'objectId {oid!r} is not in the scene')
        result = handler(**args)
        error, ret = (result if isinstance(result, tuple) else (result, None))
        self.last_event = self._event(name, not error, error or '', '' if not error else
                                      'ActionFailed', ret)
        return self.last_event

    def stop(self) -> None:
        """Do nothing: kept for API compatibility."""

    # each _do_<Action> returns '' on success or an error message (optionally with a return)
    def _check_target(self, oid: str, flag: str, force: bool) -> str:
        obj = self._objects[oid]
        if flag and not obj[flag]:
            return f'{oid} is not {flag}'
        if oid == self._held:
            return ''
        if self._enclosed(oid) or not (force or self._interactable(oid)):
            return f'{oid} is not interactable (not visible or out of range)'
        return ''

    def _do_Pass(self) -> str:
        return ''

    def _do_Done(self) -> str:
        return ''

    def _do_PickupObject(self, objectId: str, forceAction: bool = False,
                         manualInteract: bool = False) -> str:
        if self._held is not None:
            return f'Agent hand is already holding {self._held}'
        err = self._check_target(objectId, 'pickupable', forceAction)
        if err:
            return err
        self._held = objectId
        self._parent[objectId] = None
        return ''

    def _do_PutObject(self, objectId: str, forceAction: bool = False,
                      placeStationary: bool = True) -> str:
        if self._held is None:
            return 'nothing in hand to put'
        if objectId == self._held or objectId in self._descendants(self._held):
            return f'cannot put {self._held} into itself'
        rec = self._objects[objectId]
        if not rec['receptacle']:
            return f'{objectId} is not a receptacle'
        if rec['openable'] and not rec['isOpen']:
            return f'{objectId} is closed: cannot put an object in it'
        err = self._check_target(objectId, 'receptacle', forceAction)
        if err:
            return err
        self._parent[self._held] = objectId
        self._held = None
        return ''

    def _do_DropHandObject(self, forceAction: bool = False) -> str:
        if self._held is None:
            return 'nothing in hand to drop'
        a = self._agent['position']
        self._pos[self._held] = dict(x=a['x'], y=0.0, z=a['z'])
        self._held = None
        return ''

    def _do_OpenObject(self, objectId: str, openness: float = 1.0,
                       forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'openable', forceAction)
        if err:
            return err
        if not 0.0 <= float(openness) <= 1.0:
            raise ValueError('openness must be in [0, 1]')
        obj = self._objects[objectId]
        obj['openness'] = float(openness)
        obj['isOpen'] = obj['openness'] > 0.0
        return ''

    def _do_CloseObject(self, objectId: str, forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'openable', forceAction)
        if err:
            return err
        self._objects[objectId].update(isOpen=False, openness=0.0)
        return ''

    def _toggle(self, oid: str, on: bool, force: bool) -> str:
        err = self._check_target(oid, 'toggleable', force)
        if err:
            return err
        if self._objects[oid]['isToggled'] == on:
            return f'{oid} is already {"on" if on else "off"}'
        self._objects[oid]['isToggled'] = on
        return ''

    def _do_ToggleObjectOn(self, objectId: str, forceAction: bool = False) -> str:
        return self._toggle(objectId, True, forceAction)

    def _do_ToggleObjectOff(self, objectId: str, forceAction: bool = False) -> str:
        return self._toggle(objectId, False, forceAction)

    def _do_CleanObject(self, objectId: str, forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'dirtyable', forceAction)
        if not err:
            self._objects[objectId]['isDirty'] = False
        return err

    def _do_DirtyObject(self, objectId: str, forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'dirtyable', forceAction)
        if not err:
            self._objects[objectId]['isDirty'] = True
        return err

    def _do_BreakObject(self, objectId: str, forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'breakable', forceAction)
        if not err:
            self._objects[objectId].update(isBroken=True, isFilledWithLiquid=False,
                                           fillLiquid=None)
        return err

    def _do_FillObjectWithLiquid(self, objectId: str, fillLiquid: str = 'water',
                                 forceAction: bool = False) -> str:
        if fillLiquid not in _LIQUIDS:
            raise ValueError(f'fillLiquid must be one of {_LIQUIDS}')
        err = self._check_target(objectId, 'canFillWithLiquid', forceAction)
        if not err:
            if self._objects[objectId]['isBroken']:
                return f'{objectId} is broken and cannot hold liquid'
            self._objects[objectId].update(isFilledWithLiquid=True, fillLiquid=fillLiquid)
        return err

    def _do_EmptyLiquidFromObject(self, objectId: str, forceAction: bool = False) -> str:
        err = self._check_target(objectId, 'canFillWithLiquid', forceAction)
        if not err:
            self._objects[objectId].update(isFilledWithLiquid=False, fillLiquid=None)
        return err

    def _reachable(self) -> list[dict[str, float]]:
        fixtures = [self._pos[o] for o, obj in self._objects.items()
                    if not obj['pickupable'] and self._parent.get(o) is None]
        y = self._agent['position']['y']
        xs = [p['x'] for r in self._house['rooms'] for p in r['floorPolygon']]
        zs = [p['z'] for r in self._house['rooms'] for p in r['floorPolygon']]
        g = self.grid_size
        out = []
        for i in range(int(min(xs) / g) + 1, int(max(xs) / g)):
            for j in range(int(min(zs) / g) + 1, int(max(zs) / g)):
                p = dict(x=round(i * g, 4), y=y, z=round(j * g, 4))
                if self._room_of(p) is None:
                    continue
                if any(math.hypot(p['x'] - f['x'], p['z'] - f['z']) < 0.3 for f in fixtures):
                    continue
                out.append(p)
        return out

    def _do_GetReachablePositions(self) -> tuple[str, list[dict[str, float]]]:
        return '', self._reachable()

    def _do_GetInteractablePoses(self, objectId: str, positions: Iterable | None = None,
                                 rotations: Iterable | None = None,
                                 horizons: Iterable | None = None,
                                 standings: Iterable | None = None) -> tuple[str, list]:
        if objectId == self._held or self._enclosed(objectId):
            return '', []
        target = self._position(objectId)
        room = self._room_of(target)
        candidates = list(positions) if positions is not None else self._reachable()
        stand = list(standings) if standings is not None else [True]
        poses = []
        for p in candidates:
            d = math.hypot(p['x'] - target['x'], p['z'] - target['z'])
            if d > POSE_RADIUS or self._room_of(p) != room:
                continue
            yaw = math.degrees(math.atan2(target['x'] - p['x'], target['z'] - p['z'])) % 360
            for s in stand:
                poses.append(dict(x=p['x'], y=p['y'], z=p['z'], rotation=round(yaw, 2),
                                  standing=bool(s), horizon=30.0))
        return '', poses

    def _teleport(self, full: bool, position: Mapping | None, x: float | None,
                  y: float | None, z: float | None, rotation: Any, horizon: float | None,
                  standing: bool | None) -> str:
        if position is None and x is not None and z is not None:
            position = dict(x=x, y=self._agent['position']['y'] if y is None else y, z=z)
        if full and (position is None or rotation is None or horizon is None
                     or standing is None):
            raise ValueError('TeleportFull needs position, rotation, horizon and standing')
        if position is None:
            position = self._agent['position']
        pos = dict(x=float(position['x']), y=float(position.get('y', 0.9)),
                   z=float(position['z']))
        if self._room_of(pos) is None:
            return f'cannot teleport to {pos}: outside the house'
        self._agent['position'] = pos
        if rotation is not None:
            yaw = rotation.get('y', 0.0) if isinstance(rotation, Mapping) else rotation
            self._agent['rotation'] = dict(x=0.0, y=float(yaw), z=0.0)
        if horizon is not None:
            self._agent['cameraHorizon'] = float(horizon)
        if standing is not None:
            self._agent['isStanding'] = bool(standing)
        return ''

    def _do_Teleport(self, position: Mapping | None = None, rotation: Any = None,
                     horizon: float | None = None, standing: bool | None = None,
                     x: float | None = None, y: float | None = None,
                     z: float | None = None, forceAction: bool = False) -> str:
        return self._teleport(False, position, x, y, z, rotation, horizon, standing)

    def _do_TeleportFull(self, position: Mapping | None = None, rotation: Any = None,
                         horizon: float | None = None, standing: bool | None = None,
                         x: float | None = None, y: float | None = None,
                         z: float | None = None, forceAction: bool = False) -> str:
        return self._teleport(True, position, x, y, z, rotation, horizon, standing)

    # -- scheduled changes (a person acting; no agent checks) -----------------------
    def _require(self, oid: str) -> dict[str, Any]:
        if oid not in self._objects:
            raise ValueError(f'objectId {oid!r} is not in the scene')
        return self._objects[oid]

    def _refresh(self, action: str) -> Event:
        self.last_event = self._event(action, True)
        return self.last_event

    def set_state(self, object_id: str, **fields: Any) -> Event:
        """Overwrite metadata state fields of one object (e.g. ``isDirty=True``)."""
        obj = self._require(object_id)
        unknown = set(fields) - set(STATE_DEFAULTS)
        if unknown:
            raise ValueError(f'not state fields: {sorted(unknown)}')
        obj.update(fields)
        return self._refresh('SetState')

    def dirty(self, object_id: str) -> Event:
        """Make a dirtyable object dirty, e.g. a washed dish again."""
        if not self._require(object_id)['dirtyable']:
            raise ValueError(f'{object_id} is not dirtyable')
        return self.set_state(object_id, isDirty=True)

    def clean(self, object_id: str) -> Event:
        """Make a dirtyable object clean."""
        if not self._require(object_id)['dirtyable']:
            raise ValueError(f'{object_id} is not dirtyable')
        return self.set_state(object_id, isDirty=False)

    def break_object(self, object_id: str) -> Event:
        """Break a breakable object."""
        if not self._require(object_id)['breakable']:
            raise ValueError(f'{object_id} is not breakable')
        return self.set_state(object_id, isBroken=True, isFilledWithLiquid=False,
                              fillLiquid=None)

    def relocate(self, object_id: str, receptacle_id: str | None,
                 position: Mapping[str, float] | None = None) -> Event:
        """Move a pickupable object into a receptacle (or onto the floor at ``position``).

        Taken from the agent's hand if held.
        """
        obj = self._require(object_id)
        if not obj['pickupable']:
            raise ValueError(f'{object_id} is not pickupable')
        if receptacle_id is not None:
            rec = self._require(receptacle_id)
            if not rec['receptacle'] or receptacle_id == object_id or \
                    receptacle_id in self._descendants(object_id):
                raise ValueError(f'cannot put {object_id} into {receptacle_id}')
        elif position is None or self._room_of(position) is None:
            raise ValueError('relocating onto the floor needs a position inside the house')
        if self._held == object_id:
            self._held = None
        self._parent[object_id] = receptacle_id
        if position is not None:
            self._pos[object_id] = dict(x=float(position['x']), y=float(position.get('y', 0)),
                                        z=float(position['z']))
        return self._refresh('Relocate')

    def add_object(self, object_type: str, receptacle_id: str,
                   object_id: str | None = None, **state: Any) -> str:
        """Add a new object into a receptacle (addition: a new dirty dish); return its id."""
        rec_pos = self._position(receptacle_id) if receptacle_id in self._objects else None
        if rec_pos is None or not self._objects[receptacle_id]['receptacle']:
            raise ValueError(f'{receptacle_id!r} is not a receptacle in the scene')
        if object_id is not None and object_id in self._objects:
            raise ValueError(f'objectId {object_id} is already in the scene')
        oid = object_id
        k = 0
        while oid is None or oid in self._objects:
            k += 1
            oid = make_object_id(object_type, rec_pos['x'] + 0.01 * k, rec_pos['y'] + 0.05,
                                 rec_pos['z'])
        self._objects[oid] = new_object(object_type, oid, state)
        self._pos[oid] = dict(rec_pos)
        self._parent[oid] = receptacle_id
        self._refresh('AddObject')
        return oid

    def remove_object(self, object_id: str) -> Event:
        """Remove an object (its contents fall to its parent)."""
        self._require(object_id)
        parent = self._parent.get(object_id)
        for child, p in list(self._parent.items()):
            if p == object_id:
                self._parent[child] = parent
                if parent is None:
                    self._pos[child] = self._position(object_id)
        if self._held == object_id:
            self._held = None
        del self._objects[object_id], self._parent[object_id], self._pos[object_id]
        return self._refresh('RemoveObject')
