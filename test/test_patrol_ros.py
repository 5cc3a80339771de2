# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Patrol over real DDS (issue 43): an idle planner looks to confirm; any task pre-empts it."""

import json

import pytest

from .ros_fixtures import Probe

pytestmark = pytest.mark.ros

from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.compose import build_agent  # noqa: E402
from l3mp_ros.config import Config  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402
from l3mp_ros.world.kg import Fact, Update  # noqa: E402


def params(tmp_path, **extra):
    values = {'store': str(tmp_path / 'kg.db'), 'retriever': 'full',
              'engine': 'fast-downward', 'plan_timeout': 20.0, 'replica_timeout': 20.0,
              'markers_rate': 20.0, **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


def test_a_task_pre_empts_a_patrol_at_once_and_none_runs_while_it_waits(spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    # told, never seen: the red pen is on Jerry's table (another room than the robot's)
    told = Update(remove=frozenset({Fact('placed_at_table', ('red_pen', 'living_room_table'))}),
                  add=frozenset({Fact('placed_at_table', ('red_pen', 'jerry_bedroom_table'))}))
    assert wm.world.apply(told, source='nl', info={'speaker': 'gary'}).applied
    agent = build_agent(Config(retriever='full', engine='fast-downward', plan_timeout=20.0),
                        wm.world, llm=object())
    probe = spinner.add(Probe())
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(tmp_path, patrol='idle')))
    # nothing publishes execution_feedback: no patrol (it would end planned, again and again)
    with pytest.raises(TimeoutError):
        probe.wait_json('plan', lambda p: p.get('patrol'), timeout=10.0)
    probe.as_executor()  # someone to walk it: the patrol starts
    patrol = probe.wait_json('plan', lambda p: p.get('patrol') and p['status'] == 'solved',
                             timeout=60.0)
    assert patrol['goal'] == '(agent_in_room the_robot jerry_bedroom)'
    assert patrol['task_id'].startswith('patrol-') and patrol['steps']
    # a task arrives: the patrol is cancelled before the task is even planned
    probe.publish('goal', json.dumps({'task_id': 't1', 'goal': '(light_on laundry_room_light)'}))
    plans = probe.wait_json('plan', lambda p: p['task_id'] == 't1' and p['status'] == 'solved',
                            timeout=60.0) and probe.json('plan')
    order = [(p['task_id'], p['status']) for p in plans]
    cancelled = order.index((patrol['task_id'], 'cancelled'))
    assert cancelled < order.index(('t1', 'planning')) < order.index(('t1', 'solved'))
    reason = next(p['reason'] for p in plans if p['task_id'] == patrol['task_id']
                  and p['status'] == 'cancelled')
    assert reason == 'pre-empted by task t1'
    # while t1 is active no patrol starts (the planner's patrol check runs every 0.5 s)
    with pytest.raises(TimeoutError):
        probe.wait_json('plan', lambda p: p.get('patrol') and p['task_id'] !=
                        patrol['task_id'], timeout=3.0)
    # t1 done: the robot is idle again and goes back to looking
    t1 = next(p for p in plans if p['task_id'] == 't1' and p['status'] == 'solved')
    for i in range(len(t1['steps'])):
        probe.publish('execution_feedback', {'schema': 'l3mp/execution_feedback/v1',
                                             'task_id': 't1', 'step': i,
                                             'status': 'succeeded'})
    probe.wait_json('plan', lambda p: p['task_id'] == 't1' and p['status'] == 'done')
    again = probe.wait_json('plan', lambda p: p.get('patrol') and p['status'] == 'solved'
                            and p['task_id'] != patrol['task_id'], timeout=60.0)
    assert again['goal'].endswith('jerry_bedroom)')
