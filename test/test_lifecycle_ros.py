# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Managed nodes over real DDS: lifecycle_msgs transitions, task outcomes, spoken answers."""

from __future__ import annotations

import json

import pytest

from .ros_fixtures import Probe

pytestmark = pytest.mark.ros  # after ros_fixtures: it isolates the ROS domain first

from lifecycle_msgs.msg import Transition  # noqa: E402
from lifecycle_msgs.srv import ChangeState, GetState  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.compose import build_agent  # noqa: E402
from l3mp_ros.config import Config  # noqa: E402
from l3mp_ros.nodes.ai2thor_bridge_node import Ai2ThorBridgeNode  # noqa: E402
from l3mp_ros.nodes.language_node import LanguageNode  # noqa: E402
from l3mp_ros.nodes.perception_node import PerceptionNode  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402
from l3mp_ros.world.phrasing import Phrasing  # noqa: E402

SG = 'l3mp/scene_graph/v1'
CONFIGURE, CLEANUP = Transition.TRANSITION_CONFIGURE, Transition.TRANSITION_CLEANUP
ACTIVATE, DEACTIVATE = Transition.TRANSITION_ACTIVATE, Transition.TRANSITION_DEACTIVATE


def params(tmp_path, **extra):
    values = {'store': str(tmp_path / 'kg.db'), 'retriever': 'full',
              'engine': 'fast-downward', 'plan_timeout': 20.0, 'markers_rate': 20.0,
              'autostart': False, **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


class Manager:
    """A lifecycle manager's two services, called over DDS."""

    def __init__(self, probe: Probe, node: str) -> None:
        self.get = probe.create_client(GetState, f'/{node}/get_state')
        self.change = probe.create_client(ChangeState, f'/{node}/change_state')
        assert self.get.wait_for_service(timeout_sec=10.0)
        assert self.change.wait_for_service(timeout_sec=10.0)

    def state(self) -> str:
        return self.get.call(GetState.Request()).current_state.label

    def __call__(self, transition: int) -> bool:
        return self.change.call(ChangeState.Request(
            transition=Transition(id=transition))).success


def subscribers(probe: Probe, topic: str) -> int:
    return len(probe.get_subscriptions_info_by_topic(topic))


def light(name='kitchen_light', on=True):
    return {'schema': SG, 'entities': [], 'observed': [name],
            'facts': [[name, 'light_on', 'true']] if on else []}


def test_world_model_configure_activate_deactivate_reactivate_cleanup(spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    probe = spinner.add(Probe(listen=('events',)))
    manage = Manager(probe, 'world_model')
    assert manage.state() == 'unconfigured' and not hasattr(wm, 'world')
    assert subscribers(probe, '/scene_graph') == 0
    assert manage(CONFIGURE) and manage.state() == 'inactive'
    assert (tmp_path / 'kg.db').exists()  # configure opened the store
    assert subscribers(probe, '/scene_graph') == 0  # inputs open only when active
    assert manage(ACTIVATE) and manage.state() == 'active'
    probe.publish('scene_graph', light(on=False))
    probe.wait_json('events', lambda e: e['status'] == 'applied')
    assert manage(DEACTIVATE) and manage.state() == 'inactive'
    probe.wait(lambda: subscribers(probe, '/scene_graph') == 0)
    with pytest.raises(TimeoutError):  # nobody takes scene graphs while inactive
        probe.publish('scene_graph', light(on=True), wait=1.0)
    assert manage(ACTIVATE) and manage.state() == 'active'
    probe.publish('scene_graph', light(on=True))
    probe.wait(lambda: len([e for e in probe.json('events') if e['status'] == 'applied']) == 2)
    assert manage(DEACTIVATE) and manage(CLEANUP) and manage.state() == 'unconfigured'
    assert not wm.configured


def test_a_failing_configure_stays_unconfigured_and_the_next_attempt_works(spinner,
                                                                           tmp_path):
    blocker = tmp_path / 'not_a_dir'
    blocker.write_text('a file where the store directory should be')
    bad = params(tmp_path, store=str(blocker / 'kg.db'))
    wm = spinner.add(WorldModelNode(parameter_overrides=bad))
    probe = spinner.add(Probe(listen=()))
    manage = Manager(probe, 'world_model')
    assert not manage(CONFIGURE)
    assert manage.state() == 'unconfigured' and wm.failure
    wm.set_parameters([Parameter('store', value=str(tmp_path / 'kg.db'))])
    assert manage(CONFIGURE) and manage.state() == 'inactive'
    assert manage(ACTIVATE) and manage.state() == 'active'


@pytest.mark.parametrize('kind', ['language', 'planner', 'perception', 'bridge'])
def test_every_node_follows_the_lifecycle(spinner, tmp_path, kind):
    cfg = Config(store=str(tmp_path / 'kg.db'), retriever='full', engine='fast-downward')
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path, autostart=True)))
    make = {'language': lambda: LanguageNode(agent=build_agent(cfg, wm.world, llm=object()),
                                             parameter_overrides=params(tmp_path)),
            'planner': lambda: PlannerNode(agent=build_agent(cfg, wm.world, llm=object()),
                                           parameter_overrides=params(tmp_path)),
            'perception': lambda: PerceptionNode(parameter_overrides=params(tmp_path)),
            'bridge': lambda: Ai2ThorBridgeNode(parameter_overrides=[
                Parameter('controller', value='double'), Parameter('autostart', value=False)])}
    topic = {'language': '/nl_update', 'planner': '/goal',
             'perception': '/perception/scene_graph', 'bridge': '/plan'}[kind]
    node = spinner.add(make[kind]())
    probe = spinner.add(Probe(listen=()))
    manage = Manager(probe, node.get_name())
    assert manage.state() == 'unconfigured' and subscribers(probe, topic) == 0
    assert manage(CONFIGURE) and manage.state() == 'inactive'
    assert subscribers(probe, topic) == 0
    for _ in range(2):  # activate → deactivate → activate
        assert manage(ACTIVATE) and manage.state() == 'active'
        probe.wait(lambda: subscribers(probe, topic) == 1)
        assert manage(DEACTIVATE) and manage.state() == 'inactive'
        probe.wait(lambda: subscribers(probe, topic) == 0)
    assert manage(CLEANUP) and manage.state() == 'unconfigured' and not node.configured


def toggles(kg, n=5):
    lights = sorted(e for e, t in kg.entities.items() if t == 'light')[:n]
    on = {f.args[0] for f in kg.facts if f.predicate == 'light_on'}
    return [f'(not (light_on {x}))' if x in on else f'(light_on {x})' for x in lights]


@pytest.mark.parametrize('executor', [False, True])
def test_a_burst_with_no_execution_reaches_final_statuses(spinner, tmp_path, executor):
    """execute feedback, nobody executing: every task ends.

    With no executor attached (nothing publishes execution_feedback) each plan ends
    ``planned`` at once; with a silent one, each fails by execution_timeout.
    """
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path, autostart=True)))
    agent = build_agent(Config(retriever='full', engine='fast-downward', plan_timeout=20.0),
                        wm.world, llm=object())
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(
        tmp_path, autostart=True, execution_timeout=0.5 if executor else 120.0)))
    probe = spinner.add(Probe(listen=('plan', 'say')))
    if executor:
        probe.as_executor()  # an executor that never says anything
    goals = toggles(wm.world.kg)
    for i, goal in enumerate(goals):
        probe.publish('goal', json.dumps({'task_id': f'b{i}', 'goal': goal}))
    final = probe.wait(lambda: {p['task_id']: p for p in probe.json('plan')
                                if p['status'] in ('done', 'failed', 'planned', 'cancelled')}
                       if len({p['task_id'] for p in probe.json('plan') if p['status'] in (
                           'done', 'failed', 'planned', 'cancelled')}) == 5 else None,
                       timeout=60)
    if not executor:  # at once: far below the 120 s execution_timeout of five tasks
        assert {b['status'] for b in final.values()} == {'planned'}
        assert all('nothing publishes execution_feedback' in b['reason']
                   for b in final.values())
        assert all(b['steps'] for b in final.values())
        probe.wait(lambda: len([s for s in probe.got['say'] if s.startswith('Planned: ')]) == 5)
        return
    assert {b['status'] for b in final.values()} == {'failed'}
    assert {b['reason'] for b in final.values()} == {'execution_timeout'}
    assert any('execution_timeout' in s for s in probe.got['say'])


def test_with_no_executor_a_task_is_planned_not_done_and_answers_are_sentences(
        spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path, autostart=True)))
    agent = build_agent(Config(retriever='full', engine='fast-downward', plan_timeout=20.0),
                        wm.world, llm=object())
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(
        tmp_path, autostart=True, execute='none')))
    spinner.add(LanguageNode(agent=agent, parameter_overrides=params(tmp_path,
                                                                     autostart=True)))
    probe = spinner.add(Probe(listen=('plan', 'say')))
    goal = toggles(wm.world.kg, 1)[0]
    before = wm.world.snapshot()
    probe.publish('goal', json.dumps({'task_id': 'p1', 'goal': goal}))
    plan = probe.wait_json('plan', lambda p: p['status'] in ('done', 'planned'))
    assert plan['status'] == 'planned' and plan['steps']
    said = probe.wait(lambda: [s for s in probe.got['say'] if s.startswith('Planned: ')])
    assert said[0] == f'Planned: {goal} ({len(plan["steps"])} step' + (
        's)' if len(plan['steps']) != 1 else ')')
    assert wm.world.snapshot().facts == before.facts  # nothing was done
    probe.publish('voice_command', 'Where is Anna?')
    answer = probe.wait(lambda: [s for s in probe.got['say'] if 'Anna' in s])
    where = next(f for f in wm.world.kg.facts if f.predicate == 'person_in_room'
                 and f.args[0] == 'anna')
    assert answer[0] == Phrasing(wm.world.domain, wm.world.kg).sentences([where])
    assert answer[0].startswith('Anna is in ')
