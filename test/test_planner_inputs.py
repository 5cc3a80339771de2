# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planner node's logic without ROS: requests, cancels, yes/no, feedback and patrols."""

import json

import pytest

from l3mp_ros.compose import build_agent, open_world
from l3mp_ros.config import NODE_PARAMETERS, PLANNER, Config, node_parameters
from l3mp_ros.tasking.inputs import Outlets, PlannerInputs
from l3mp_ros.world.kg import Fact, Update

GOAL = '(placed_at_table red_pen jerry_bedroom_table)'


class Wire:
    """What the inputs sent out, and the worker's jobs (run when the test says)."""

    def __init__(self):
        self.plans, self.said, self.events, self.warned, self.jobs = [], [], [], [], []
        self.outlets = Outlets(plan=self.plans.append, say=self.said.append,
                               event=self.events.append, warn=self.warned.append,
                               submit=lambda label, job: self.jobs.append((label, job)))

    def run(self):
        """Run the queued jobs in arrival order; return their labels."""
        labels = []
        while self.jobs:
            label, job = self.jobs.pop(0)
            labels.append(label)
            job()
        return labels

    def statuses(self):
        return [(p['task_id'], p['status']) for p in self.plans]


@pytest.fixture
def make(tmp_path):
    cfg = Config(store=str(tmp_path / 'kg.db'), retriever='full', engine='fast-downward',
                 plan_timeout=20.0)
    world = open_world(cfg)
    agent = build_agent(cfg, world, llm=object())
    ids = iter(f'auto-{i}' for i in range(1, 100))

    def inputs(executor=False, **params):
        values = {n: NODE_PARAMETERS[n][0] for n in node_parameters(PLANNER)}
        values.update(params)
        wire = Wire()
        return PlannerInputs(agent, values, wire.outlets, has_executor=lambda: executor,
                             new_id=lambda: next(ids)), wire
    return inputs


def test_a_goal_is_announced_at_once_and_planned_on_the_worker(make):
    inputs, wire = make()
    inputs.request('goal', json.dumps({'task_id': 'g1', 'goal': GOAL}))
    assert wire.statuses() == [('g1', 'queued')] and wire.said == []
    assert wire.run() == ['goal']
    # no executor: the plan ends planned at once, and that is said
    assert wire.statuses()[1:] == [('g1', 'planning'), ('g1', 'planned')]
    assert wire.said == ['Planned: ' + GOAL + ' (3 steps)']
    inputs.request('goal', GOAL)  # plain text: the task id is made
    wire.run()
    assert wire.plans[-1]['task_id'] == 'auto-1'


def test_refused_requests_are_one_warning_and_one_error_event_each(make):
    inputs, wire = make()
    inputs.request('task', '')
    inputs.request('goal', '{"goal": ')
    inputs.cancel('no-such-task')
    inputs.cancel('')
    inputs.feedback('{"task_id": "g1"}')
    assert wire.jobs == [] and wire.plans == []
    assert [e['topic'] for e in wire.events] == ['task', 'goal', 'cancel', 'cancel',
                                                 'execution_feedback']
    assert all(e['source'] == 'planner' and e['status'] == 'error' for e in wire.events)
    assert wire.warned[0] == 'task: empty text' and len(wire.warned) == 5
    assert 'say which task' in wire.events[3]['errors'][0]


def test_a_task_id_in_use_is_refused_and_a_cancel_while_waiting_drops_the_job(make):
    inputs, wire = make()
    inputs.request('goal', json.dumps({'task_id': 'g1', 'goal': GOAL}))
    inputs.request('goal', json.dumps({'task_id': 'g1', 'goal': GOAL}))
    assert len(wire.events) == 1 and len(wire.jobs) == 1
    inputs.cancel('all')
    assert wire.statuses()[-1] == ('g1', 'cancelled') and wire.said[-1] == f'Cancelled: {GOAL}'
    wire.run()
    assert ('g1', 'planning') not in wire.statuses()


def test_a_plan_waits_for_a_plain_yes_said_or_asked_by_service(make):
    inputs, wire = make(executor=True, confirm_plan=True)
    assert inputs.answer(True) == (False, 'no plan is waiting for a yes or no')
    inputs.request('goal', json.dumps({'task_id': 'g1', 'goal': GOAL}))
    wire.run()
    assert wire.statuses()[-1] == ('g1', 'awaiting_confirmation')
    assert wire.said[-1].endswith('Shall I go ahead? Say yes or no.')
    inputs.voice('maybe later')  # not a plain yes or no: ignored
    assert wire.jobs == []
    inputs.voice('Yes!')
    assert wire.run() == ['confirm']
    assert wire.statuses()[-1] == ('g1', 'solved') and wire.said[-1] == f'Going ahead: {GOAL}'
    # then it runs on feedback; an applied event is looked at only while a task is active
    inputs.event({'status': 'applied', 'id': 1})
    inputs.event({'status': 'rejected', 'id': 2})
    assert [label for label, _ in wire.jobs] == ['event']
    wire.run()
    for i in range(3):
        inputs.feedback(json.dumps({'schema': 'l3mp/execution_feedback/v1', 'task_id': 'g1',
                                    'step': i, 'status': 'succeeded'}))
    assert wire.run() == ['feedback'] * 3
    assert wire.statuses()[-1] == ('g1', 'done') and wire.said[-1] == f'Done: {GOAL}'
    inputs.event({'status': 'applied', 'id': 3})
    assert wire.jobs == []


def _tell(inputs):
    """Tell the world something nobody saw: the red pen is on Jerry's table (another room)."""
    told = Update(remove=frozenset({Fact('placed_at_table', ('red_pen', 'living_room_table'))}),
                  add=frozenset({Fact('placed_at_table', ('red_pen', 'jerry_bedroom_table'))}))
    assert inputs.agent.world.apply(told, source='nl', info={'speaker': 'gary'}).applied


def test_an_idle_planner_patrols_only_with_an_executor_and_remembers_the_visit(make):
    idle, wire = make(patrol='idle')
    _tell(idle)
    idle.tick()
    assert wire.jobs == []  # nobody would walk it
    inputs, wire = make(executor=True, patrol='idle')
    inputs.tick()
    inputs.tick()  # one patrol is planned at a time
    assert wire.run() == ['patrol']
    patrol = wire.plans[-1]
    assert patrol['patrol'] and patrol['status'] == 'solved' and wire.said == []
    assert patrol['task_id'] == 'patrol-1'
    assert patrol['goal'] == '(agent_in_room the_robot jerry_bedroom)'
    for i in range(len(patrol['steps'])):
        inputs.feedback(json.dumps({'schema': 'l3mp/execution_feedback/v1',
                                    'task_id': 'patrol-1', 'step': i,
                                    'status': 'succeeded'}))
    wire.run()
    assert wire.statuses()[-1] == ('patrol-1', 'done') and wire.said == []
    assert inputs.patrol.skipped['jerry_bedroom'][0] == 'visited'
    inputs.set_patrol('off')
    inputs.tick()
    assert inputs.patrol is None and wire.jobs == []


def test_a_task_pre_empts_a_patrol(make):
    inputs, wire = make(executor=True, patrol='idle')
    _tell(inputs)
    inputs.tick()
    wire.run()
    assert wire.plans and wire.plans[-1]['patrol']
    inputs.request('goal', json.dumps({'task_id': 't1', 'goal': GOAL}))
    assert wire.statuses()[-2:] == [('patrol-1', 'cancelled'), ('t1', 'queued')]
    inputs.tick()  # t1 waits to be planned: no patrol
    assert [label for label, _ in wire.jobs] == ['goal']
