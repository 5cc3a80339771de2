# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The nodes over real DDS: scene graphs, reports, goals, tasks, re-planning, bad input."""

import json
import subprocess
import sys
import time

import pytest

from l3mp_ros.testing import FakeOpenAI

from .ros_fixtures import Probe, ros_session, spinning

pytestmark = pytest.mark.ros

from rclpy.parameter import Parameter  # noqa: E402
from std_srvs.srv import Trigger  # noqa: E402

from l3mp_ros.agent.runtime import build_agent  # noqa: E402
from l3mp_ros.llm.client import LLMClient, LLMConfig  # noqa: E402
from l3mp_ros.nodes.language_node import LanguageNode  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402

SG = 'l3mp/scene_graph/v1'


@pytest.fixture(scope='module')
def ros_context():
    with ros_session():
        yield


@pytest.fixture
def spinner(ros_context):
    with spinning() as sp:
        yield sp


def params(tmp_path, **extra):
    values = {'store': str(tmp_path / 'kg.db'), 'retriever': 'full',
              'engine': 'fast-downward', 'plan_timeout': 20.0, 'replica_timeout': 20.0,
              'markers_rate': 20.0, **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


def sg(facts, observed, entities=()):
    return {'schema': SG, 'entities': [{'name': n, 'type': t} for n, t in entities],
            'facts': [list(f) for f in facts], 'observed': list(observed)}


def llm(fake):
    return LLMClient(LLMConfig(base_url=fake.base_url, model='fake', timeout=10.0,
                               max_retries=0, backoff=0.01))


def test_world_model_node_applies_perception_and_survives_bad_messages(spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    probe = spinner.add(Probe(listen=('events',)))
    bad = ['not json', json.dumps([1, 2]), json.dumps({'schema': 'l3mp/other/v1'}),
           json.dumps(sg([], ['ufo_1'], [('ufo_1', 'spaceship')])),
           json.dumps(sg([], [f't{i}' for i in range(10_000)], [(f't{i}', 'book')
                                                                for i in range(10_000)]))]
    for i, b in enumerate(bad):  # one at a time: scene_graph keeps only the newest 5
        probe.publish('scene_graph', b)
        probe.wait(lambda i=i: len(probe.json('events')) > i)
    good = sg([('red_pen', 'placed_at_table', 'jerry_bedroom_table')], ['red_pen'])
    probe.publish('scene_graph', good)
    applied = probe.wait_json('events', lambda e: e['status'] == 'applied')
    assert applied['source'] == 'perception' and applied['schema'] == 'l3mp/event/v1'
    assert applied['diff']['add'] == [['red_pen', 'placed_at_table', 'jerry_bedroom_table']]
    errors = probe.wait(lambda: len([e for e in probe.json('events')
                                     if e['status'] == 'error']) >= 5 and probe.json('events'))
    text = ' '.join(' '.join(e['errors']) for e in errors)
    for needle in ('not JSON', 'JSON object', 'schema', 'unknown type', 'too large'):
        assert needle in text
    # a kg_update outside its schema is an error event naming the field; nothing applied
    before = set(wm.world.kg.facts)
    probe.publish('kg_update', json.dumps({'schema': 'l3mp/kg_update/v1', 'request_id': 'r1',
                                           'source': 'nl', 'diff': {'add': 'oops'}}))
    err = probe.wait_json('events', lambda e: e['status'] == 'error'
                          and 'kg_update' in json.dumps(e) and 'diff' in ' '.join(e['errors']))
    assert err and set(wm.world.kg.facts) == before
    # services
    client = probe.create_client(Trigger, 'kg_stats')
    assert client.wait_for_service(timeout_sec=10.0)
    stats = json.loads(client.call(Trigger.Request()).message)
    assert stats['entities'] == len(wm.world.kg.entities) and stats['last_event_id'] >= 2
    snap = probe.create_client(Trigger, 'save_snapshot')
    assert snap.wait_for_service(timeout_sec=10.0) and snap.call(Trigger.Request()).success


def test_markers_are_published(spinner, tmp_path):
    from visualization_msgs.msg import MarkerArray

    from l3mp_ros.nodes.common import LATCHED_QOS
    spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    probe = spinner.add(Probe(listen=()))
    got = []
    probe.create_subscription(MarkerArray, 'kg/markers', got.append, LATCHED_QOS)
    probe.wait(lambda: got, timeout=10.0)
    kinds = {m.type for m in got[-1].markers}
    assert {9, 5} <= kinds  # TEXT_VIEW_FACING, LINE_LIST


def test_goal_plan_replan_and_done(spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    agent = build_agent({'retriever': 'full', 'engine': 'fast-downward',
                         'plan_timeout': 20.0}, wm.world, llm=object())
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(tmp_path)))
    probe = spinner.add(Probe())
    probe.publish('goal', '')  # bad: empty
    probe.publish('goal', json.dumps({'task_id': 'g1', 'goal':
                                      '(placed_at_table book_hamlet living_room_table)'}))
    plan = probe.wait_json('plan', lambda p: p['task_id'] == 'g1')
    assert plan['status'] == 'solved' and plan['revision'] == 0 and len(plan['steps']) == 4
    assert probe.wait_json('events', lambda e: e['errors'] == ['empty goal'])
    # perception sees the book elsewhere: the plan's first step no longer applies
    probe.publish('scene_graph', sg([('book_hamlet', 'placed_at_table', 'anna_bedroom_table')],
                                    ['book_hamlet']))
    plan = probe.wait_json('plan', lambda p: p['task_id'] == 'g1' and p['revision'] == 1)
    assert 'anna_bedroom_table' in ' '.join(plan['steps'])
    probe.publish('execution_feedback', '{"schema": "wrong"}')  # bad: keeps serving
    for i in range(len(plan['steps'])):
        probe.publish('execution_feedback', {
            'schema': 'l3mp/execution_feedback/v1', 'task_id': 'g1', 'revision': 1,
            'step': i, 'status': 'succeeded'})
    done = probe.wait_json('plan', lambda p: p['status'] == 'done')
    assert done['task_id'] == 'g1'
    assert ('book_hamlet', 'placed_at_table', 'living_room_table') in {
        f.triplet() for f in wm.world.kg.facts}
    assert probe.got['say']


def test_a_burst_of_plans_loses_nothing_and_late_joiners_get_them(spinner, tmp_path):
    wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
    agent = build_agent({'retriever': 'full', 'engine': 'fast-downward',
                         'plan_timeout': 20.0}, wm.world, llm=object())
    spinner.add(PlannerNode(agent=agent, parameter_overrides=params(tmp_path)))
    probe = spinner.add(Probe(listen=('plan',)))
    ids = [f'b{i}' for i in range(20)]
    for tid in ids:  # goals that already hold: each is published 'done' at once
        probe.publish('goal', json.dumps({'task_id': tid, 'goal': '(light_on kitchen_light)'}))
    probe.wait(lambda: {p['task_id'] for p in probe.json('plan')} >= set(ids), timeout=60)
    assert all(p['status'] == 'done' for p in probe.json('plan'))
    late = spinner.add(Probe(name='late_probe', listen=('plan',)))
    late.wait(lambda: {p['task_id'] for p in late.json('plan')} >= set(ids), timeout=30)


def test_language_node_reports_questions_and_queued_tasks(spinner, tmp_path):
    report = {'remove': [['red_pen', 'placed_at_table', 'living_room_table']],
              'add': [['red_pen', 'in_person_hand', 'jerry']]}

    def goal(request):  # the tasks may reach the planner in either order
        text = request['messages'][-1]['content'].lower()
        return {'content': {'goal': '(light_on laundry_room_light)' if 'laundry room light'
                            in text else '(window_open jerry_bedroom_window)'}}

    with FakeOpenAI([{'content': report}, goal, goal]) as fake:
        wm = spinner.add(WorldModelNode(parameter_overrides=params(tmp_path)))
        agent = build_agent({'retriever': 'full', 'engine': 'fast-downward'}, wm.world,
                            llm=llm(fake))
        spinner.add(LanguageNode(agent=agent, parameter_overrides=params(tmp_path)))
        spinner.add(PlannerNode(agent=agent, parameter_overrides=params(tmp_path)))
        probe = spinner.add(Probe())
        probe.publish('voice_command', '   ')
        probe.publish('nl_update', 'Jerry took the red pen from the living room table.')
        ev = probe.wait_json('events', lambda e: e['status'] == 'applied')
        assert ev['source'] == 'nl' and 'Jerry took' in ev['utterance']
        assert probe.wait_json('events', lambda e: e['errors'] == ['empty utterance'])
        probe.wait(lambda: any(s.startswith('Noted.') for s in probe.got['say']))
        # two tasks in a row: both planned, the second queued behind the first
        probe.publish('voice_command', 'Please turn on the laundry room light.')
        probe.publish('task', "Open the window in jerry's bedroom.")
        first = probe.wait_json('plan', lambda p: p.get('utterance', '').startswith('Please'))
        second = probe.wait_json('plan', lambda p: p.get('utterance', '').startswith('Open'))
        assert {first['status'], second['status']} == {'solved', 'queued'}
        assert first['goal'] == '(light_on laundry_room_light)'
        assert second['goal'] == '(window_open jerry_bedroom_window)'


def _child(tmp_path, ns=''):
    args = ['--ros-args', '-p', f'store:={tmp_path / "kg.db"}', '-p', 'markers_rate:=1.0']
    if ns:
        args += ['-r', f'__ns:={ns}']
    code = 'import sys; from l3mp_ros.nodes.world_model_node import main; main(sys.argv)'
    return subprocess.Popen([sys.executable, '-c', code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_two_processes_single_writer(spinner, tmp_path):
    proc = _child(tmp_path)
    try:
        with FakeOpenAI([{'content': {
                'remove': [['anna', 'person_in_room', 'anna_bedroom']],
                'add': [['anna', 'person_in_room', 'kitchen']]}}]) as fake:
            deadline = time.monotonic() + 30
            while not (tmp_path / 'kg.db').exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            lang = LanguageNode(parameter_overrides=params(
                tmp_path, llm_url=fake.base_url, llm_model='fake', llm_timeout=10.0))
            spinner.add(lang)
            planner = spinner.add(PlannerNode(parameter_overrides=params(tmp_path)))
            probe = spinner.add(Probe())
            probe.publish('nl_update', 'Anna went to the kitchen.')
            ev = probe.wait_json('events', lambda e: e['status'] == 'applied', timeout=40)
            assert ev['id'] >= 2 and ev['source'] == 'nl'
            # both replicas follow the writer
            probe.wait(lambda: planner.replica.last_event_id >= ev['id'])
            for replica in (lang.replica, planner.replica):
                assert ('anna', 'person_in_room', 'kitchen') in {
                    f.triplet() for f in replica.kg.facts}
            probe.publish('goal', '(person_in_room anna kitchen)')
            plan = probe.wait_json('plan', lambda p: True)
            assert plan['status'] == 'done'  # already satisfied in the replica's KG
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
        print(out)
    assert proc.returncode in (0, -15), out


def test_namespaces_isolate_robots(spinner, tmp_path):
    (tmp_path / 'r1').mkdir()
    (tmp_path / 'r2').mkdir()
    spinner.add(WorldModelNode(namespace='robot1', parameter_overrides=params(tmp_path / 'r1')))
    spinner.add(WorldModelNode(namespace='robot2', parameter_overrides=params(tmp_path / 'r2')))
    p1 = spinner.add(Probe('p1', listen=('events',), namespace='robot1'))
    p2 = spinner.add(Probe('p2', listen=('events',), namespace='robot2'))
    p1.publish('scene_graph', sg([('red_pen', 'placed_at_table', 'jerry_bedroom_table')],
                                 ['red_pen']))
    p1.wait_json('events', lambda e: e['status'] == 'applied')
    time.sleep(0.5)
    assert p2.json('events') == []


def test_bringup_runs_all_nodes_in_one_process(spinner, tmp_path):
    ns = 'bringup_test'
    cmd = [sys.executable, '-m', 'l3mp_ros.nodes.bringup', '--namespace', ns, '--ros-args',
           '-p', f'store:={tmp_path / "kg.db"}', '-p', 'engine:=fast-downward',
           '-p', 'retriever:=full']
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        probe = spinner.add(Probe('bringup_probe', namespace=ns))
        probe.publish('goal', '(light_on laundry_room_light)', wait=40.0)
        plan = probe.wait_json('plan', lambda p: True, timeout=40)
        assert plan['status'] == 'solved' and plan['steps']
        probe.publish('scene_graph', sg([('red_pen', 'placed_at_table', 'jerry_bedroom_table')],
                                        ['red_pen']))
        assert probe.wait_json('events', lambda e: e['status'] == 'applied')
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
        print(out)
    assert proc.returncode in (0, -15), out
