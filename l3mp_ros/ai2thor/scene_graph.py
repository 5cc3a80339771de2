# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""AI2-THOR event metadata → ``l3mp/scene_graph/v1`` (simulated robot perception).

The paper (Sec. V-B) simulates perception by "providing the semantic properties of the
currently visible objects". :class:`SceneGraphExtractor` does that for one AI2-THOR
``event.metadata`` dict, in the vocabulary of ``pddl/ai2thor.pddl``:

* **Entities.** Each ``objectId`` gets a stable readable name: the lower-cased
  ``objectType`` and a counter per type (``mug_1``, ``mug_2``) in order of first sight; ids
  new in the same frame are numbered in ``objectId`` order, so a frame's object order does
  not matter. The registry lives in the extractor (``to_dict``/``from_dict`` save it).
  Types come from ``config/ai2thor_types.yaml`` (:class:`TypeMap`). The agent is
  ``the_robot`` (type ``robot``); rooms are ``kitchen_1``, ``bedroom_1``... (type ``room``).
* **Placement.** ``(in_receptacle ?item ?parent)`` for pickupable objects, ``?parent`` the
  *direct* parent. AI2-THOR lists every enclosing receptacle in ``parentReceptacles`` (an
  egg in a bowl on a counter lists the bowl and the counter). The direct parent is the
  listed receptacle that lies inside the most other listed receptacles (followed through
  their own ``parentReceptacles``); ties go to the first listed. Without
  ``parentReceptacles`` the parents are read from the receptacles' ``receptacleObjectIds``.
  An object with no parent has no ``in_receptacle`` fact.
* **Held objects** (``isPickedUp`` or listed in ``inventoryObjects``):
  ``(held_by ?o the_robot)``, no ``in_receptacle`` and no ``in_room`` (as in the domain).
  ``(hand_empty the_robot)`` when nothing is held.
* **Rooms.** With a ProcTHOR ``house``: the room whose ``floorPolygon`` contains the
  object's (x, z) position, else the nearest polygon. Without a house: the ``rooms`` of the
  types config, else everything is in ``default_room``.
* **Flags** (closed world: only true flags are facts): ``isOpen`` → ``is_open``,
  ``isToggled`` → ``is_toggled``, ``isDirty`` → ``is_dirty``, ``isBroken`` → ``is_broken``,
  ``isFilledWithLiquid`` → ``is_filled``, ``isCooked`` → ``is_cooked``, ``isSliced`` →
  ``is_sliced``, ``temperature`` ``Cold``/``Hot`` → ``is_cold``/``is_hot``.
* **Robot.** ``robot_in_room`` from the agent's position; ``robot_at`` is the anchor set by
  the executor after navigating (:meth:`SceneGraphExtractor.set_anchor`) while the agent
  has not moved since, else the nearest visible object in the agent's room.
* **Visibility.** Only ``visible`` (and held) objects are observed unless
  ``all_objects=True`` (ground truth). Receptacles and anchors that observed facts point to
  are listed as entities but not as observed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from l3mp_ros import schemas
from l3mp_ros.geometry import point_in_polygon, segment_distance
from l3mp_ros.world.kg import Fact

SCHEMA = schemas.SCENE_GRAPH_SCHEMA
SOURCE = 'ai2thor'

FLAG_PREDICATES: tuple[tuple[str, str], ...] = (
    ('isOpen', 'is_open'),
    ('isToggled', 'is_toggled'),
    ('isDirty', 'is_dirty'),
    ('isBroken', 'is_broken'),
    ('isFilledWithLiquid', 'is_filled'),
    ('isCooked', 'is_cooked'),
    ('isSliced', 'is_sliced'),
)
TEMPERATURE_PREDICATES = {'Cold': 'is_cold', 'Hot': 'is_hot'}
_ANCHOR_TOLERANCE = 0.05  # metres the agent may drift and still be "at" its anchor


class SceneGraphError(ValueError):
    """Malformed AI2-THOR metadata, house or types configuration."""


def _stem(text: str) -> str:
    stem = re.sub(r'[^a-z0-9]+', '_', str(text).lower()).strip('_')
    return stem or 'thing'


def _xz(position: Mapping[str, Any] | None) -> tuple[float, float] | None:
    if not isinstance(position, Mapping):
        return None
    try:
        return float(position['x']), float(position['z'])
    except (KeyError, TypeError, ValueError):
        return None


class TypeMap:
    """AI2-THOR ``objectType`` → domain type (``config/ai2thor_types.yaml``)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        if not isinstance(config, Mapping):
            raise SceneGraphError('the types config must be a mapping')
        self.config = dict(config)
        self.default_type = str(config.get('default_type', 'thing'))
        self.infer_from_flags = bool(config.get('infer_from_flags', True))
        robot = config.get('robot') or {}
        self.robot_name = str(robot.get('name', 'the_robot'))
        self.robot_type = str(robot.get('type', 'robot'))
        self.room_type = str(config.get('room_type', 'room'))
        self.room_names = {str(k): str(v) for k, v in (config.get('room_names') or {}).items()}
        self.rooms = list(config.get('rooms') or [])
        self.default_room = str(config.get('default_room', 'room_1'))
        self.by_object_type: dict[str, str] = {}
        for dtype, object_types in (config.get('types') or {}).items():
            for ot in object_types or ():
                if ot in self.by_object_type:
                    raise SceneGraphError(
                        f'objectType {ot} is mapped twice ({self.by_object_type[ot]}, {dtype})')
                self.by_object_type[str(ot)] = str(dtype)

    @classmethod
    def load(cls, source: str | Path | Mapping[str, Any] | TypeMap) -> TypeMap:
        """Build from a YAML path, a mapping, or return an existing map."""
        if isinstance(source, TypeMap):
            return source
        if isinstance(source, Mapping):
            return cls(source)
        path = Path(source)
        try:
            data = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError) as exc:
            raise SceneGraphError(f'cannot read types config {path}: {exc}') from None
        return cls(data or {})

    def type_of(self, obj: Mapping[str, Any]) -> str:
        """Return the domain type of one AI2-THOR object metadata entry."""
        object_type = str(obj.get('objectType', ''))
        if object_type in self.by_object_type:
            return self.by_object_type[object_type]
        if self.infer_from_flags:
            if obj.get('pickupable'):
                return 'item'
            if obj.get('receptacle') and obj.get('openable'):
                return 'container'
            if obj.get('receptacle'):
                return 'surface'
            if obj.get('toggleable'):
                return 'appliance'
        return self.default_type


class RoomIndex:
    """Rooms with floor polygons; assigns (x, z) points to room entity names."""

    def __init__(self, types: TypeMap, house: Mapping[str, Any] | None = None) -> None:
        self.rooms: list[dict[str, Any]] = []  # {name, id, roomType, polygon}
        source = list((house or {}).get('rooms') or []) if house is not None else types.rooms
        counters: dict[str, int] = {}
        for i, room in enumerate(source):
            if not isinstance(room, Mapping):
                raise SceneGraphError(f'room {i} must be a mapping')
            polygon = [_xz(p) for p in room.get('floorPolygon') or []]
            if len(polygon) < 3 or any(p is None for p in polygon):
                raise SceneGraphError(f'room {i} needs a floorPolygon of >= 3 {{x, z}} points')
            name = room.get('name')
            if not name:
                room_type = str(room.get('roomType', 'room'))
                stem = types.room_names.get(room_type, _stem(room_type))
                counters[stem] = counters.get(stem, 0) + 1
                name = f'{stem}_{counters[stem]}'
            self.rooms.append({'name': _stem(name), 'id': room.get('id', name),
                               'roomType': room.get('roomType'), 'polygon': polygon})
        self.default_room = _stem(types.default_room)

    @property
    def names(self) -> list[str]:
        """Return every room entity name."""
        return [r['name'] for r in self.rooms] if self.rooms else [self.default_room]

    def name_of_id(self, room_id: str) -> str | None:
        """Return the entity name of a ProcTHOR room id (``room|3``)."""
        return next((r['name'] for r in self.rooms if r['id'] == room_id), None)

    def room_at(self, position: Mapping[str, Any] | None) -> str | None:
        """Return the room containing a position (nearest room when outside all)."""
        if not self.rooms:
            return self.default_room
        xz = _xz(position)
        if xz is None:
            return None
        for room in self.rooms:
            if point_in_polygon(xz[0], xz[1], room['polygon']):
                return room['name']
        best, best_d = None, math.inf
        for room in self.rooms:
            poly = room['polygon']
            d = min(segment_distance(*xz, *poly[i], *poly[(i + 1) % len(poly)])
                    for i in range(len(poly)))
            if d < best_d:
                best, best_d = room['name'], d
        return best


def direct_parents(objects: list[Mapping[str, Any]]) -> dict[str, str | None]:
    """Map each objectId to its innermost receptacle id (None when it has no parent)."""
    ids = {o['objectId'] for o in objects}
    listed: dict[str, list[str]] = {}
    for o in objects:
        parents = [p for p in (o.get('parentReceptacles') or []) if p in ids]
        listed[o['objectId']] = parents
    if not any(listed.values()):  # fall back to receptacleObjectIds
        for r in objects:
            for child in r.get('receptacleObjectIds') or []:
                if child in listed and r['objectId'] not in listed[child]:
                    listed[child].append(r['objectId'])

    def ancestors(oid: str) -> set[str]:
        seen: set[str] = set()
        stack = list(listed.get(oid, ()))
        while stack:
            p = stack.pop()
            if p in seen or p == oid:
                continue
            seen.add(p)
            stack.extend(listed.get(p, ()))
        return seen

    out: dict[str, str | None] = {}
    for oid, parents in listed.items():
        if not parents:
            out[oid] = None
            continue
        cands = set(parents)
        # depth = how many other candidates enclose this one; the innermost has the most
        out[oid] = max(parents, key=lambda p: len((ancestors(p) & cands) - {p}))
    return out


class SceneGraphExtractor:
    """Turn AI2-THOR event metadata into ``l3mp/scene_graph/v1`` messages."""

    def __init__(self, types_config: str | Path | Mapping[str, Any] | TypeMap,
                 house: Mapping[str, Any] | None = None) -> None:
        self.types = TypeMap.load(types_config)
        self.rooms = RoomIndex(self.types, house)
        self.robot = _stem(self.types.robot_name)
        self._names: dict[str, str] = {}       # objectId -> name
        self._ids: dict[str, str] = {}         # name -> objectId
        self._counters: dict[str, int] = {}    # stem -> last number
        self._anchor: tuple[str, tuple[float, float] | None] | None = None

    # -- naming -------------------------------------------------------------
    def name_of(self, object_id: str, object_type: str | None = None) -> str:
        """Return (assigning on first sight) the entity name of an objectId."""
        if object_id in self._names:
            return self._names[object_id]
        stem = _stem(object_type or object_id.split('|', 1)[0])
        n = self._counters.get(stem, 0) + 1
        while f'{stem}_{n}' in self._ids:
            n += 1
        self._counters[stem] = n
        name = f'{stem}_{n}'
        self._names[object_id] = name
        self._ids[name] = object_id
        return name

    def object_id_of(self, name: str) -> str | None:
        """Return the objectId behind an entity name (None when unknown)."""
        return self._ids.get(name.lower())

    @property
    def names(self) -> dict[str, str]:
        """Return the registry objectId → entity name (a copy)."""
        return dict(self._names)

    def to_dict(self) -> dict[str, Any]:
        """Return the naming registry as JSON-able data."""
        return {'names': dict(self._names), 'counters': dict(self._counters)}

    def from_dict(self, data: Mapping[str, Any]) -> SceneGraphExtractor:
        """Restore a registry saved by :meth:`to_dict` (replaces the current one)."""
        names = data.get('names') if isinstance(data, Mapping) else None
        if not isinstance(names, Mapping):
            raise SceneGraphError('a name registry needs a "names" mapping objectId -> name')
        self._names = {str(k): str(v) for k, v in names.items()}
        self._ids = {v: k for k, v in self._names.items()}
        if len(self._ids) != len(self._names):
            raise SceneGraphError('a name registry maps two objectIds to one name')
        self._counters = {str(k): int(v) for k, v in (data.get('counters') or {}).items()}
        return self

    # -- robot anchor ---------------------------------------------------------
    def set_anchor(self, object_id: str, agent_position: Mapping[str, Any] | None) -> None:
        """Say that the agent stands next to ``object_id`` at ``agent_position``."""
        self._anchor = (object_id, _xz(agent_position))

    @property
    def anchor(self) -> str | None:
        """Return the objectId of the navigation anchor, None when unset."""
        return self._anchor[0] if self._anchor is not None else None

    def clear_anchor(self) -> None:
        """Forget the navigation anchor (robot_at falls back to the nearest object)."""
        self._anchor = None

    # -- extraction -----------------------------------------------------------
    def extract(self, metadata: Mapping[str, Any], all_objects: bool = False,
                stamp: float | None = None) -> dict[str, Any]:
        """Return the scene graph of one event's metadata.

        ``all_objects=True`` reports every object (ground truth / full observability);
        otherwise only visible and held objects are observed.
        """
        objects, held, agent_pos = self._parse(metadata)
        parents = direct_parents(objects)
        by_id = {o['objectId']: o for o in objects}
        # name new ids deterministically: first the observed, in objectId order
        observed_ids = [o['objectId'] for o in objects
                        if all_objects or o.get('visible') or o['objectId'] in held]
        for oid in sorted(observed_ids):
            self.name_of(oid, by_id[oid].get('objectType'))

        entities: dict[str, str] = {self.robot: self.types.robot_type}
        for room in self.rooms.names:
            entities[room] = self.types.room_type
        facts: set[Fact] = set()
        observed = [self.robot]

        def mention(oid: str) -> str:
            name = self.name_of(oid, by_id[oid].get('objectType'))
            entities.setdefault(name, self.types.type_of(by_id[oid]))
            return name

        for oid in observed_ids:
            obj = by_id[oid]
            name = mention(oid)
            observed.append(name)
            if oid in held:
                facts.add(Fact('held_by', (name, self.robot)))
            else:
                room = self.rooms.room_at(obj.get('position'))
                if room is not None:
                    facts.add(Fact('in_room', (name, room)))
                parent = parents.get(oid)
                if parent is not None and obj.get('pickupable', True):
                    facts.add(Fact('in_receptacle', (name, mention(parent))))
            for key, pred in FLAG_PREDICATES:
                if obj.get(key):
                    facts.add(Fact(pred, (name,)))
            temp = TEMPERATURE_PREDICATES.get(str(obj.get('temperature')))
            if temp:
                facts.add(Fact(temp, (name,)))

        robot_room = self.rooms.room_at(agent_pos)
        if robot_room is not None:
            facts.add(Fact('robot_in_room', (self.robot, robot_room)))
        if not held:
            facts.add(Fact('hand_empty', (self.robot,)))
        at = self._robot_at(objects, by_id, held, agent_pos, robot_room, set(observed_ids))
        if at is not None:
            facts.add(Fact('robot_at', (self.robot, mention(at))))

        return schemas.scene_graph(
            source=SOURCE, stamp=stamp,
            entities=[{'name': n, 'type': t} for n, t in sorted(entities.items())],
            facts=[f.triplet() for f in sorted(facts)], observed=sorted(set(observed)))

    def facts(self, metadata: Mapping[str, Any]) -> set[Fact]:
        """Return the ground-truth facts of the metadata (every object)."""
        graph = self.extract(metadata, all_objects=True, stamp=0.0)
        return {Fact.from_triplet(t) for t in graph['facts']}

    def goal_holds(self, metadata: Mapping[str, Any], goal: str | Iterable[str]) -> bool:
        """Return True when a conjunction of (possibly negated) atoms holds in the metadata.

        ``goal`` is PDDL text such as ``(and (in_receptacle apple_1 fridge_1)
        (not (is_dirty mug_1)))`` or an iterable of literal strings. Names follow this
        extractor's registry.
        """
        truth = self.facts(metadata)
        return all((fact in truth) == positive for fact, positive in parse_literals(goal))

    def _parse(self, metadata: Mapping[str, Any]) -> tuple[
            list[dict[str, Any]], set[str], Mapping[str, Any] | None]:
        if not isinstance(metadata, Mapping):
            raise SceneGraphError('AI2-THOR metadata must be a mapping (event.metadata)')
        raw = metadata.get('objects')
        if not isinstance(raw, list):
            raise SceneGraphError('AI2-THOR metadata needs an "objects" list')
        objects = []
        for i, obj in enumerate(raw):
            if not isinstance(obj, Mapping) or not isinstance(obj.get('objectId'), str):
                raise SceneGraphError(f'object {i} has no "objectId" string')
            objects.append(dict(obj))
        held = {o['objectId'] for o in objects if o.get('isPickedUp')}
        for inv in metadata.get('inventoryObjects') or []:
            if isinstance(inv, Mapping) and inv.get('objectId'):
                held.add(str(inv['objectId']))
        ids = {o['objectId'] for o in objects}
        held &= ids
        agent = metadata.get('agent') or {}
        return objects, held, agent.get('position') if isinstance(agent, Mapping) else None

    def _robot_at(self, objects: list[dict[str, Any]], by_id: dict[str, dict[str, Any]],
                  held: set[str], agent_pos: Mapping[str, Any] | None,
                  robot_room: str | None, observed: set[str]) -> str | None:
        here = _xz(agent_pos)
        if self._anchor is not None and self._anchor[0] in by_id:
            oid, where = self._anchor
            if where is None or here is None or math.dist(where, here) <= _ANCHOR_TOLERANCE:
                return oid
        best, best_d = None, math.inf
        for obj in objects:
            oid = obj['objectId']
            if oid in held or oid not in observed:
                continue
            if robot_room is not None and self.rooms.room_at(obj.get('position')) != robot_room:
                continue
            d = obj.get('distance')
            if not isinstance(d, (int, float)):
                pos = _xz(obj.get('position'))
                d = math.dist(pos, here) if pos is not None and here is not None else math.inf
            if d < best_d:
                best, best_d = oid, float(d)
        return best


def parse_literals(goal: str | Iterable[str]) -> list[tuple[Fact, bool]]:
    """Parse ``(and (p a) (not (q b c)))`` or a list of literals into (fact, positive)."""
    texts = [goal] if isinstance(goal, str) else list(goal)
    out: list[tuple[Fact, bool]] = []
    for text in texts:
        body = re.sub(r'^\s*\(\s*and\b', '(', text.strip(), flags=re.I)
        for neg, atom in _literals(body):
            out.append((Fact.parse_pddl(f'({atom})'), not neg))
    return out


def _literals(body: str) -> list[tuple[str, str]]:
    found = []
    for m in re.finditer(r'\(\s*not\s*\(([^()]*)\)\s*\)|\(([^()]*)\)', body):
        if m.group(1) is not None:
            found.append(('not', m.group(1)))
        elif m.group(2).strip():
            found.append(('', m.group(2)))
    return found
