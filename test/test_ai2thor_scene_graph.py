# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Scene-graph extraction from AI2-THOR metadata (fixtures in AI2-THOR's schema)."""

import copy
import json
from pathlib import Path

import pytest
from unified_planning.io import PDDLReader

from l3mp_ros.ai2thor import (
    SCHEMA,
    SceneGraphError,
    SceneGraphExtractor,
    direct_parents,
)
from l3mp_ros.ai2thor.double import ControllerDouble

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / 'test' / 'data' / 'ai2thor'
TYPES = ROOT / 'config' / 'ai2thor_types.yaml'
DOMAIN = ROOT / 'pddl' / 'ai2thor.pddl'


def load(name):
    return json.loads((DATA / name).read_text())


@pytest.fixture
def house():
    return load('house.json')


@pytest.fixture
def md():
    return load('nested_metadata.json')


def facts(graph):
    return {tuple(f) for f in graph['facts']}


def by_type(graph):
    return {e['name']: e['type'] for e in graph['entities']}


def test_message_shape(md, house):
    g = SceneGraphExtractor(TYPES, house).extract(md, stamp=12.5)
    assert g['schema'] == SCHEMA == 'l3mp/scene_graph/v1'
    assert g['source'] == 'ai2thor' and g['stamp'] == 12.5
    assert set(g) == {'schema', 'stamp', 'source', 'entities', 'facts', 'observed'}
    names = {e['name'] for e in g['entities']}
    assert set(g['observed']) <= names
    assert all(a in names for f in g['facts'] for a in (f[0], f[2]) if a != 'true')
    json.dumps(g)


def test_nested_receptacles_use_innermost_parent(md, house):
    g = SceneGraphExtractor(TYPES, house).extract(md)
    f = facts(g)
    # Mug lists [CounterTop, Cabinet]: the cabinet sits on the counter, so it is the parent
    assert ('mug_1', 'in_receptacle', 'cabinet_1') in f
    assert ('mug_1', 'in_receptacle', 'countertop_1') not in f
    # Egg lists [Plate, CounterTop]: the plate
    assert ('egg_1', 'in_receptacle', 'plate_1') in f
    assert ('plate_1', 'in_receptacle', 'countertop_1') in f
    # fixtures get no placement facts
    assert not any(s == 'cabinet_1' and p == 'in_receptacle' for s, p, _ in f)


def test_parents_from_receptacle_object_ids_only(house):
    md = load('receptacle_ids_only.json')
    f = facts(SceneGraphExtractor(TYPES, house).extract(md))
    assert ('mug_1', 'in_receptacle', 'cabinet_1') in f
    assert ('egg_1', 'in_receptacle', 'plate_1') in f


def test_direct_parents_orders_do_not_matter(md):
    objs = md['objects']
    mug = next(o for o in objs if o['objectType'] == 'Mug')
    want = direct_parents(objs)[mug['objectId']]
    mug['parentReceptacles'] = list(reversed(mug['parentReceptacles']))
    assert direct_parents(objs)[mug['objectId']] == want
    assert want.startswith('Cabinet|')


def test_flags_and_held_objects(md, house):
    f = facts(SceneGraphExtractor(TYPES, house).extract(md))
    assert ('apple_1', 'held_by', 'the_robot') in f
    assert not any(s == 'apple_1' and p in ('in_room', 'in_receptacle') for s, p, _ in f)
    assert ('the_robot', 'hand_empty', 'true') not in f
    assert ('apple_1', 'is_hot', 'true') in f
    assert {('mug_1', 'is_dirty', 'true'), ('mug_1', 'is_filled', 'true'),
            ('cabinet_1', 'is_open', 'true'), ('egg_1', 'is_broken', 'true'),
            ('egg_1', 'is_cooked', 'true'), ('faucet_1', 'is_toggled', 'true')} <= f
    assert ('plate_1', 'is_dirty', 'true') not in f  # closed world: false flags are absent
    assert ('the_robot', 'robot_in_room', 'kitchen_1') in f


def test_inventory_alone_marks_held(md, house):
    for o in md['objects']:
        o['isPickedUp'] = False
    f = facts(SceneGraphExtractor(TYPES, house).extract(md))
    assert ('apple_1', 'held_by', 'the_robot') in f


def test_invisible_objects_excluded_unless_all_objects(md, house):
    ex = SceneGraphExtractor(TYPES, house)
    g = ex.extract(md)
    assert not {'tomato_1', 'statue_1', 'bed_1'} & set(g['observed'])
    assert not {'tomato_1', 'statue_1', 'bed_1'} & {e['name'] for e in g['entities']}
    full = ex.extract(md, all_objects=True)
    f = facts(full)
    assert {'tomato_1', 'statue_1', 'bed_1', 'fridge_1'} <= set(full['observed'])
    assert ('tomato_1', 'in_receptacle', 'fridge_1') in f
    assert ('tomato_1', 'is_cold', 'true') in f
    assert ('bed_1', 'is_dirty', 'true') in f
    assert ('statue_1', 'in_receptacle', 'fridge_1') not in f
    assert not any(s == 'statue_1' and p == 'in_receptacle' for s, p, _ in f)  # no parent


def test_rooms_from_floor_polygons(md, house):
    ex = SceneGraphExtractor(TYPES, house)
    full = ex.extract(md, all_objects=True)
    f = facts(full)
    rooms = {n for n, t in by_type(full).items() if t == 'room'}
    assert rooms == {'kitchen_1', 'bedroom_1', 'bedroom_2'}
    assert ('bed_1', 'in_room', 'bedroom_1') in f        # inside the L-shaped room|7
    assert ('statue_1', 'in_room', 'bedroom_2') in f     # inside room|9
    assert ('mug_1', 'in_room', 'kitchen_1') in f
    assert ex.rooms.name_of_id('room|9') == 'bedroom_2'
    # a point outside every polygon goes to the nearest room
    md['objects'][-2]['position'] = {'x': 7.5, 'y': 0.0, 'z': 5.3}
    assert ('bed_1', 'in_room', 'bedroom_1') in facts(ex.extract(md, all_objects=True))


def test_without_house_single_room_or_config_rooms(md):
    f = facts(SceneGraphExtractor(TYPES).extract(md, all_objects=True))
    assert {o for s, p, o in f if p in ('in_room', 'robot_in_room')} == {'room_1'}
    import yaml
    cfg = yaml.safe_load(TYPES.read_text())
    west = [{'x': 0, 'z': 0}, {'x': 0, 'z': 5}, {'x': 5, 'z': 5}, {'x': 5, 'z': 0}]
    east = [{'x': 5, 'z': 0}, {'x': 5, 'z': 5}, {'x': 9, 'z': 5}, {'x': 9, 'z': 0}]
    cfg['rooms'] = [{'name': 'west', 'floorPolygon': west},
                    {'name': 'east', 'floorPolygon': east}]
    f = facts(SceneGraphExtractor(cfg).extract(md, all_objects=True))
    assert ('bed_1', 'in_room', 'east') in f and ('mug_1', 'in_room', 'west') in f


def test_names_stable_across_frames_and_orders(md, house):
    ex = SceneGraphExtractor(TYPES, house)
    g1 = ex.extract(md, all_objects=True)
    md2 = copy.deepcopy(md)
    md2['objects'].reverse()
    g2 = ex.extract(md2, all_objects=True)
    assert g1['entities'] == g2['entities'] and g1['facts'] == g2['facts']
    # a fresh extractor seeing the reversed frame first names identically (objectId order)
    g3 = SceneGraphExtractor(TYPES, house).extract(md2, all_objects=True)
    assert g3['entities'] == g1['entities']
    # the registry survives a save/load round trip and new objects get fresh numbers
    saved = json.loads(json.dumps(ex.to_dict()))
    ex2 = SceneGraphExtractor(TYPES, house).from_dict(saved)
    md3 = copy.deepcopy(md2)
    mug2 = copy.deepcopy(next(o for o in md3['objects'] if o['objectType'] == 'Mug'))
    mug2['objectId'] = 'Mug|+00.10|+00.90|+00.10'
    md3['objects'].insert(0, mug2)
    g4 = ex2.extract(md3, all_objects=True)
    assert ex2.name_of(mug2['objectId']) == 'mug_2'
    assert ex2.object_id_of('mug_1') == ex.object_id_of('mug_1')
    assert {e['name'] for e in g4['entities']} >= {e['name'] for e in g1['entities']}


def test_bad_input_is_a_clear_error(house):
    ex = SceneGraphExtractor(TYPES, house)
    with pytest.raises(SceneGraphError, match='objects'):
        ex.extract({'agent': {}})
    with pytest.raises(SceneGraphError, match='objectId'):
        ex.extract({'objects': [{'objectType': 'Mug'}]})
    with pytest.raises(SceneGraphError, match='floorPolygon'):
        SceneGraphExtractor(TYPES, {'rooms': [{'roomType': 'Kitchen', 'floorPolygon': []}]})
    with pytest.raises(SceneGraphError, match='names'):
        ex.from_dict({'nope': 1})


def test_unknown_types_from_flags_or_thing(house):
    ex = SceneGraphExtractor(TYPES, house)
    objs = [{'objectId': 'Gizmo|1', 'objectType': 'Gizmo', 'visible': True, 'pickupable': True,
             'position': {'x': 1, 'y': 0, 'z': 1}},
            {'objectId': 'Crate|1', 'objectType': 'Crate', 'visible': True, 'receptacle': True,
             'openable': True, 'position': {'x': 1, 'y': 0, 'z': 1}},
            {'objectId': 'Blob|1', 'objectType': 'Blob', 'visible': True,
             'position': {'x': 1, 'y': 0, 'z': 1}}]
    types = by_type(ex.extract({'objects': objs, 'agent': {'position': {'x': 1, 'z': 1}}}))
    assert types['gizmo_1'] == 'item' and types['crate_1'] == 'container'
    assert types['blob_1'] == 'thing'


def test_goal_holds(md, house):
    ex = SceneGraphExtractor(TYPES, house)
    assert ex.goal_holds(md, '(and (in_receptacle tomato_1 fridge_1) (not (is_dirty plate_1)))')
    assert not ex.goal_holds(md, ['(not (is_dirty mug_1))'])


def test_graph_is_valid_for_the_domain(md, house):
    """Entities have domain types; facts use domain predicates with matching arities/types."""
    problem = PDDLReader().parse_problem(str(DOMAIN))
    types = {str(t.name): t for t in problem.user_types}
    assert {'robot', 'room', 'thing', 'item', 'food', 'dish', 'decor', 'surface',
            'container', 'fridge', 'sink', 'bed', 'garbage_can', 'faucet'} <= set(types)
    preds = {f.name: f for f in problem.fluents}

    def is_sub(t, ancestor):
        while t is not None:
            if t == ancestor:
                return True
            t = t.father
        return False

    graphs = [SceneGraphExtractor(TYPES, house).extract(md, all_objects=True)]
    double = ControllerDouble()
    graphs.append(SceneGraphExtractor(TYPES, double.house).extract(
        double.last_event.metadata, all_objects=True))
    for g in graphs:
        ent = by_type(g)
        assert set(ent.values()) <= set(types)
        for trip in g['facts']:
            subj, pred, *rest = trip
            args = [subj] if rest == ['true'] else [subj, *rest]
            assert pred in preds, pred
            params = preds[pred].signature
            assert len(params) == len(args), trip
            for a, p in zip(args, params, strict=True):
                assert is_sub(types[ent[a]], p.type), (trip, a, ent[a], p.type)
