# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The AI2-THOR bridge over real DDS: plan → execution → scene graphs → re-plan.

World model, language and planner nodes (one shared agent, as in ``l3mp_bringup``), the
bridge on the controller double and a scripted LLM (FakeOpenAI) wash the dishes of the
double's house while someone moves a dirty dish into the closed cabinet.
"""

import json

import pytest

from l3mp_ros.testing import FakeOpenAI

from .ros_fixtures import Probe

pytestmark = pytest.mark.ros

from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.ai2thor.bridge import BridgeError, PlanTracker, build_controller  # noqa: E402
from l3mp_ros.compose import build_agent  # noqa: E402
from l3mp_ros.config import Config  # noqa: E402
from l3mp_ros.llm.client import LLMClient, LLMConfig  # noqa: E402
from l3mp_ros.nodes.ai2thor_bridge_node import Ai2ThorBridgeNode  # noqa: E402
from l3mp_ros.nodes.language_node import LanguageNode  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402
from l3mp_ros.planning.execute import parse_step  # noqa: E402

TASK = 'Wash all the dirty dishes.'


def params(tmp_path, **extra):
    values = {'store': str(tmp_path / 'kg.db'), 'domain': 'pddl/ai2thor.pddl',
              'perception_config': 'config/ai2thor_perception.yaml', 'initial_state': '',
              'retriever': 'full', 'engine': 'fast-downward', 'plan_timeout': 20.0,
              'apply_step_effects': False, 'markers_rate': 1.0, **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


def bridge_params(**extra):
    values = {'controller': 'double', 'step_delay': 0.5, 'scene_graph_period': 1.0, **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


class Script:
    """A scripted LLM: the goal for the task, the gold diff for the report."""

    def __init__(self) -> None:
        self.goal = ''
        self.diff: dict = {}

    def __call__(self, request: dict) -> dict:
        name = request.get('response_format', {}).get('json_schema', {}).get('name')
        if name == 'kg_update':
            return {'content': self.diff}
        return {'content': {'goal': self.goal}}


def start(spinner, tmp_path, fake, **planner_extra):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    client = LLMClient(LLMConfig(base_url=fake.base_url, model='fake', timeout=10.0,
                                 max_retries=0, backoff=0.01))
    agent = build_agent(Config(retriever='full', engine='fast-downward', plan_timeout=20.0),
                        wm.world, llm=client)
    spinner.add(LanguageNode(agent=agent, parameter_overrides=params(tmp_path)))
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(tmp_path, **planner_extra)))
    bridge = spinner.add(Ai2ThorBridgeNode(parameter_overrides=bridge_params()))
    probe = spinner.add(Probe(listen=('events', 'plan', 'say', 'execution_feedback')))
    # the initial frame (every object: the robot knows the house) reaches the KG
    probe.wait(lambda: len(wm.world.kg.entities) > 20, timeout=20)
    return wm, bridge, probe


def dirty_dishes(bridge):
    with bridge.lock:
        md = bridge.controller.last_event.metadata
        return sorted(bridge.extractor.name_of(o['objectId']) for o in md['objects']
                      if o['objectType'] in ('Mug', 'Plate', 'Bowl') and o['isDirty'])


def move_last_dish(bridge, plan):
    """Move the dirty dish the plan picks up last into the closed cabinet; return the diff."""
    picks = {}
    for i, step in enumerate(plan['steps']):
        name, args = parse_step(step)
        if name.startswith('pickup'):
            picks[args[1]] = i
    dish = max(picks, key=picks.get)
    ex = bridge.extractor
    with bridge.lock:
        obj = bridge.controller.last_event.get_object(ex.object_id_of(dish))
        old = ex.name_of(obj['parentReceptacles'][0])
        bridge.controller.relocate(ex.object_id_of(dish), ex.object_id_of('cabinet_1'))
    assert old != 'cabinet_1'
    return dish, old, {'remove': [[dish, 'in_receptacle', old]],
                       'add': [[dish, 'in_receptacle', 'cabinet_1']]}


def goal_of(dishes):
    return '(and ' + ' '.join(f'(not (is_dirty {d}))' for d in dishes) + ')'


@pytest.mark.timeout(120)
def test_wash_dishes_with_a_verbal_report_of_a_moved_dish(spinner, tmp_path):
    script = Script()
    with FakeOpenAI([], responder=script) as fake:
        wm, bridge, probe = start(spinner, tmp_path, fake)
        dishes = dirty_dishes(bridge)
        assert len(dishes) >= 3
        script.goal = goal_of(dishes)
        probe.publish('task', json.dumps({'task_id': 'wash', 'text': TASK}))
        first = probe.wait_json('plan', lambda p: p['task_id'] == 'wash'
                                and p['status'] == 'solved', timeout=30)
        assert first['revision'] == 0
        dish, old, script.diff = move_last_dish(bridge, first)
        probe.publish('nl_update', f'I moved the dirty {dish} from the {old} to the cabinet.')
        replanned = probe.wait_json('plan', lambda p: p['revision'] >= 1, timeout=30)
        assert 'world changed' in replanned['reason']
        assert any('cabinet_1' in s and s.startswith('(open') for s in replanned['steps'])
        done = probe.wait_json('plan', lambda p: p['status'] == 'done', timeout=90)
        assert done['task_id'] == 'wash'
        assert dirty_dishes(bridge) == []
        fb = probe.json('execution_feedback')
        # a re-plan is made from the KG of its moment while the robot goes on with the old
        # plan, so its first step may already be done: at most a failure or two, then done
        assert len([f for f in fb if f['status'] == 'failed']) <= 2, fb
        assert {f['schema'] for f in fb} == {'l3mp/execution_feedback/v1'}
        events = probe.json('events')
        assert any(e['source'] == 'nl' and e['status'] == 'applied' for e in events)
        assert any(e['source'] == 'ai2thor' and e['status'] == 'applied' for e in events)


@pytest.mark.timeout(120)
def test_visual_only_needs_an_execution_failure(spinner, tmp_path):
    script = Script()
    with FakeOpenAI([], responder=script) as fake:
        wm, bridge, probe = start(spinner, tmp_path, fake, max_replans=2)
        dishes = dirty_dishes(bridge)
        script.goal = goal_of(dishes)
        probe.publish('task', json.dumps({'task_id': 'wash', 'text': TASK}))
        first = probe.wait_json('plan', lambda p: p['task_id'] == 'wash'
                                and p['status'] == 'solved', timeout=30)
        dish, old, _ = move_last_dish(bridge, first)  # nobody says it
        failed = probe.wait_json('execution_feedback', lambda f: f['status'] == 'failed',
                                 timeout=60)
        assert dish in failed['action'] and 'PickupObject failed' in failed['message']
        replan = probe.wait_json('plan', lambda p: p['revision'] >= 1, timeout=30)
        assert 'failed' in replan['reason']  # the first re-plan: the failure, not a frame
        # the robot cannot see into the closed cabinet: it tries the old place again, gives up
        end = probe.wait_json('plan', lambda p: p['status'] == 'failed', timeout=60)
        assert 'gave up' in end['reason']
        assert dish in dirty_dishes(bridge)
        assert ((dish, 'in_receptacle', old)) in {f.triplet() for f in wm.world.kg.facts}


def test_plan_tracker_preempts_and_stops():
    t = PlanTracker()
    plan = {'task_id': 't', 'revision': 0, 'status': 'solved', 'steps': ['(a x)', '(b x)']}
    assert t.offer(plan) == 'new'
    gen, job, i, step = t.wait(0.01)
    assert (i, step) == (0, '(a x)')
    assert t.offer({**plan, 'next_step': 1}) == 'ignored'  # the planner's progress echo
    t.finished(gen, True)
    assert t.wait(0.01)[2:] == (1, '(b x)')
    assert t.offer({**plan, 'revision': 1, 'steps': [{'action': 'c', 'args': ['y']}]}) == 'new'
    t.finished(gen, True)  # result of the preempted plan: ignored
    gen, job, i, step = t.wait(0.01)
    assert (job.revision, i, step) == (1, 0, '(c y)')
    t.finished(gen, False)  # failed: wait for a re-plan
    assert t.wait(0.01) is None and not t.busy()
    assert t.offer({'task_id': 't', 'status': 'failed', 'steps': []}) == 'stop'
    assert t.offer({'task_id': 'u', 'status': 'queued', 'steps': ['(a x)']}) == 'ignored'


def test_real_controller_fails_clearly(monkeypatch, tmp_path):
    monkeypatch.delenv('DISPLAY', raising=False)
    with pytest.raises(BridgeError, match='display'):
        build_controller({'controller': 'real'})
    with pytest.raises(BridgeError, match='"real" or "double"'):
        build_controller({'controller': 'unity'})
    bad = tmp_path / 'house.json'
    bad.write_text('{"rooms": 3}')
    with pytest.raises(BridgeError, match='not a ProcTHOR house'):
        build_controller({'controller': 'real', 'house_json': str(bad)})
    sim, house = build_controller({'controller': 'double', 'double_seed': 4})
    assert house['rooms'] and sim.last_event.metadata['objects']
