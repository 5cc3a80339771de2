# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Plan steps → AI2-THOR actions on the controller double; plan and execute a task."""

from pathlib import Path

import pytest
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import OneshotPlanner, get_environment

from l3mp_ros.ai2thor import (
    PlanExecutor,
    SceneGraphExtractor,
    feedback,
    parse_step,
)
from l3mp_ros.ai2thor.double import ControllerDouble

ROOT = Path(__file__).resolve().parents[1]
TYPES = ROOT / 'config' / 'ai2thor_types.yaml'
DOMAIN = ROOT / 'pddl' / 'ai2thor.pddl'
get_environment().credits_stream = None


@pytest.fixture
def sim():
    double = ControllerDouble()
    ex = SceneGraphExtractor(TYPES, double.house)
    ex.extract(double.last_event.metadata, all_objects=True)  # name everything
    return double, ex, PlanExecutor(double, ex, all_objects=True)


def oid(ex, name):
    return ex.object_id_of(name)


def obj(double, object_id):
    return double.last_event.get_object(object_id)


def test_parse_step_forms():
    assert parse_step('(pickup the_robot mug_1 countertop_1 kitchen_1)') == (
        'pickup', ['the_robot', 'mug_1', 'countertop_1', 'kitchen_1'])
    assert parse_step('open(the_robot, fridge_1)') == ('open', ['the_robot', 'fridge_1'])


def test_pick_and_place_success(sim):
    double, ex, run = sim
    mug = 'mug_1'  # the one on the counter (the cabinet's mug was unseen at first)
    assert obj(double, oid(ex, mug))['parentReceptacles'][0] == oid(ex, 'countertop_1')
    steps = [f'(navigate_to the_robot cabinet_1 {mug} kitchen_1 kitchen_1)',
             f'(pickup the_robot {mug} countertop_1 kitchen_1)',
             '(navigate_to the_robot countertop_1 diningtable_1 kitchen_1 kitchen_1)',
             f'(put_on the_robot {mug} diningtable_1 kitchen_1)']
    results = run.execute(steps)
    assert [r['success'] for r in results] == [True] * 4, results[-1]['error']
    assert results[0]['thor_actions'][0]['action'] == 'GetInteractablePoses'
    assert results[0]['thor_actions'][-1]['action'] == 'TeleportFull'
    assert results[1]['thor_actions'][-1] == {'action': 'PickupObject',
                                              'objectId': oid(ex, mug)}
    assert results[3]['thor_actions'][-1] == {'action': 'PutObject',
                                              'objectId': oid(ex, 'diningtable_1')}
    f = {tuple(x) for x in results[1]['scene_graph']['facts']}
    assert (mug, 'held_by', 'the_robot') in f and ('the_robot', 'robot_at', mug) in f
    f = {tuple(x) for x in results[3]['scene_graph']['facts']}
    assert (mug, 'in_receptacle', 'diningtable_1') in f
    assert ('the_robot', 'robot_at', 'diningtable_1') in f
    assert ('the_robot', 'hand_empty', 'true') in f
    assert feedback(results[3]) == {'step': 3, 'action': f'(put_on the_robot {mug} '
                                    'diningtable_1 kitchen_1)', 'success': True, 'error': ''}


def test_pick_from_closed_fridge_fails_then_open_succeeds(sim):
    double, ex, run = sim
    r = run.execute(['(navigate_to the_robot cabinet_1 fridge_1 kitchen_1 kitchen_1)',
                     '(pickup_from the_robot tomato_1 fridge_1 kitchen_1)'])
    assert r[0]['success'] and not r[1]['success']
    assert 'PickupObject failed' in r[1]['error']
    assert not obj(double, oid(ex, 'tomato_1'))['isPickedUp']
    r = run.execute(['(open the_robot fridge_1)',
                     '(pickup_from the_robot tomato_1 fridge_1 kitchen_1)'])
    assert [x['success'] for x in r] == [True, True]
    assert obj(double, oid(ex, 'tomato_1'))['isPickedUp']
    assert obj(double, oid(ex, 'tomato_1'))['temperature'] == 'RoomTemp'


def test_failure_modes(sim):
    double, ex, run = sim
    # too far away: the double reports the object as not interactable
    run.approach = False
    r = run.execute_step('(pickup the_robot potato_1 countertop_1 kitchen_1)')
    assert not r['success'] and 'not interactable' in r['error']
    run.approach = True
    # putting into a closed receptacle fails
    run.execute(['(navigate_to the_robot cabinet_1 potato_1 kitchen_1 kitchen_1)',
                 '(pickup the_robot potato_1 countertop_1 kitchen_1)',
                 '(navigate_to the_robot potato_1 fridge_1 kitchen_1 kitchen_1)'])
    r = run.execute_step('(put_in the_robot potato_1 fridge_1 kitchen_1)')
    assert not r['success'] and 'closed' in r['error']
    # hands full
    r = run.execute_step('(pickup the_robot apple_1 diningtable_1 kitchen_1)')
    assert not r['success'] and 'holding' in r['error']
    # unknown entity, unknown action, wrong arity: clear errors, nothing sent
    for step, msg in [('(pickup the_robot unicorn_1 countertop_1 kitchen_1)', 'unknown entity'),
                      ('(fly the_robot)', 'unknown action'),
                      ('(open the_robot)', 'takes 2 arguments'),
                      ('pickup the_robot', 'cannot parse')]:
        r = run.execute_step(step, 7)
        assert not r['success'] and msg in r['error'] and r['thor_actions'] == []
        assert r['step'] == 7 and r['scene_graph']['schema'] == 'l3mp/scene_graph/v1'
    # toggling a faucet that is already off fails; nothing that is not toggleable toggles
    run.execute_step('(navigate_to the_robot fridge_1 faucet_1 kitchen_1 kitchen_1)')
    assert not run.execute_step('(toggle_off the_robot faucet_1)')['success']
    assert not run.execute_step('(toggle_on the_robot sinkbasin_1)')['success']


def test_double_actions_and_scheduled_changes(sim):
    double, ex, run = sim
    plate = oid(ex, 'plate_1')
    with pytest.raises(ValueError):
        double.step(action='Fly')
    with pytest.raises(ValueError):
        double.step(action='PickupObject', objectId='Nope|1')
    ev = double.step(dict(action='GetReachablePositions'))
    assert ev.metadata['lastActionSuccess'] and len(ev.metadata['actionReturn']) > 50
    assert not double.step(action='Teleport', position={'x': 20, 'y': 0.9, 'z': 1})\
        .metadata['lastActionSuccess']
    # an object in the other room is not visible
    bed = obj(double, oid(ex, 'bed_1'))
    assert not bed['visible']
    # scheduled changes: reset (dirty again), relocation, addition
    double.clean(plate)
    assert not obj(double, plate)['isDirty']
    double.dirty(plate)
    assert obj(double, plate)['isDirty']
    double.relocate(plate, oid(ex, 'cabinet_1'))
    assert obj(double, plate)['parentReceptacles'][0] == oid(ex, 'cabinet_1')
    assert not obj(double, plate)['visible']  # inside a closed cabinet
    new = double.add_object('Bowl', oid(ex, 'countertop_1'), isDirty=True)
    assert obj(double, new)['isDirty'] and obj(double, new)['visible']
    g = ex.extract(double.last_event.metadata)
    assert ex.name_of(new) == 'bowl_2' and 'bowl_2' in g['observed']
    cabinet = obj(double, oid(ex, 'cabinet_1'))
    assert plate in cabinet['receptacleObjectIds']
    # random initial states are reproducible
    a = ControllerDouble(seed=3, randomize=True).last_event.metadata['objects']
    b = ControllerDouble(seed=3, randomize=True).last_event.metadata['objects']
    assert a == b


def _problem_text(graph, goal):
    ents = {}
    for e in graph['entities']:
        ents.setdefault(e['type'], []).append(e['name'])
    objects = '\n    '.join(f'{" ".join(sorted(ns))} - {t}' for t, ns in sorted(ents.items()))
    init = []
    for trip in graph['facts']:
        s, p, *rest = trip
        args = [s] if rest == ['true'] else [s, *rest]
        init.append('(' + ' '.join([p, *args]) + ')')
    return (f'(define (problem wash) (:domain ai2thor)\n  (:objects\n    {objects})\n'
            f'  (:init {" ".join(init)})\n  (:goal {goal}))')


def _plan(graph, goal):
    problem = PDDLReader().parse_problem_string(DOMAIN.read_text(),
                                                _problem_text(graph, goal))
    with OneshotPlanner(name='fast-downward') as planner:
        result = planner.solve(problem)
    assert result.plan is not None, result.status
    return ['(' + ' '.join([a.action.name, *(str(p) for p in a.actual_parameters)]) + ')'
            for a in result.plan.actions]


@pytest.mark.timeout(120)
def test_plan_and_execute_wash_dishes(sim):
    double, ex, run = sim
    graph = run.observe()
    dirty = sorted(e['name'] for e in graph['entities'] if e['type'] == 'dish'
                   and ['true'] == [f[2] for f in graph['facts']
                                    if f[0] == e['name'] and f[1] == 'is_dirty'])
    assert len(dirty) >= 3
    goal = '(and ' + ' '.join(f'(not (is_dirty {d}))' for d in dirty) + ')'
    assert not ex.goal_holds(double.last_event.metadata, goal)
    for _attempt in range(3):  # replan after a failure, as the lifelong agent would
        plan = _plan(graph, goal)
        results = run.execute(plan)
        graph = results[-1]['scene_graph']
        if all(r['success'] for r in results):
            break
    assert all(r['success'] for r in results), [feedback(r) for r in results]
    assert any('(wash ' in p for p in plan)
    assert ex.goal_holds(double.last_event.metadata, goal)
    for d in dirty:
        assert not obj(double, oid(ex, d))['isDirty']


@pytest.mark.timeout(120)
def test_plan_and_execute_other_tasks(sim):
    double, ex, run = sim
    graph = run.observe()
    goal = ('(and (not (is_dirty bed_1)) (in_receptacle vase_1 garbagecan_1)'
            ' (in_receptacle apple_1 fridge_1))')
    results = run.execute(_plan(graph, goal))
    assert all(r['success'] for r in results), [feedback(r) for r in results]
    assert ex.goal_holds(double.last_event.metadata, goal)
    assert obj(double, oid(ex, 'apple_1'))['temperature'] == 'Cold'
