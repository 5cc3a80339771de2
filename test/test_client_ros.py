# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The Python client and the plan confirmation over real DDS (issue 44, item 6).

The scenarios run in a pytest child process of their own (``L3MP_CLIENT_SCENARIOS=1``):
left in the suite's process, the client's rclpy objects were finalised by the garbage
collector inside a later test's forked child (ament_flake8's process pool), which crashed.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .ros_fixtures import Probe

INNER = os.environ.get('L3MP_CLIENT_SCENARIOS') == '1'
ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.ros


def test_client_scenarios_over_dds_in_a_process_of_their_own():
    if INNER:
        pytest.skip('this is the child process')
    env = {**os.environ, 'L3MP_CLIENT_SCENARIOS': '1', 'PYTHONPATH': str(ROOT)}
    out = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                          '-k', 'scenario_', str(Path(__file__))], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0 and '2 passed' in out.stdout, out.stdout[-4000:]


inner = pytest.mark.skipif(not INNER, reason='runs in the child process (see the top)')

from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.compose import build_agent  # noqa: E402
from l3mp_ros.config import Config  # noqa: E402
from l3mp_ros.nodes.client import KgAnswer, L3mpClient, TaskResult, TaskStatus  # noqa: E402
from l3mp_ros.nodes.language_node import LanguageNode  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402
from l3mp_ros.world.phrasing import Phrasing  # noqa: E402

NS = 'robot7'
BOOK = '(placed_at_table book_hamlet living_room_table)'
LIGHT = '(light_on laundry_room_light)'


def params(tmp_path, **extra):
    values = {'store': str(tmp_path / 'kg.db'), 'retriever': 'full',
              'engine': 'fast-downward', 'plan_timeout': 20.0, 'replica_timeout': 20.0,
              **extra}
    return [Parameter(k, value=v) for k, v in values.items()]


def robot(spinner, tmp_path, language: bool = False, **planner):
    """World model and planner (and language) nodes of one robot in namespace NS."""
    wm = spinner.add(WorldModelNode(namespace=NS, parameter_overrides=params(tmp_path)))
    agent = build_agent(Config(retriever='full', engine='fast-downward', plan_timeout=20.0),
                        wm.world, llm=object())
    spinner.add(PlannerNode(namespace=NS, agent=agent,
                            parameter_overrides=params(tmp_path, **planner)))
    if language:  # no LLM: an utterance routed to one would fail with an error event
        spinner.add(LanguageNode(namespace=NS, agent=agent,
                                 parameter_overrides=params(tmp_path)))
    executor = spinner.add(Probe('executor', listen=('events', 'say'), namespace=NS))
    executor.as_executor()
    return wm, executor


def feedback(executor, task_id, steps, revision=0):
    for i in range(steps):
        executor.publish('execution_feedback', {
            'schema': 'l3mp/execution_feedback/v1', 'task_id': task_id, 'revision': revision,
            'step': i, 'status': 'succeeded'})


@pytest.fixture
def client(ros_context):
    clients = [L3mpClient(namespace=NS)]
    yield clients[0]
    clients.pop().destroy()
    gc.collect()


@inner
def test_scenario_client_sends_follows_cancels_and_queries(spinner, tmp_path, client):
    wm, executor = robot(spinner, tmp_path)
    task = client.send_goal(BOOK)
    assert client.wait_for_task(task, 60, statuses=('solved',)) == TaskResult.UNKNOWN
    solved = client.get_feedback(task)
    assert isinstance(solved, TaskStatus) and solved.status == 'solved'
    assert solved.progress == (0, 4) and solved.solved_by == 'fast-downward'
    assert not client.is_task_complete(task)
    feedback(executor, task, len(solved.steps))
    assert client.wait_for_task(task, 30) == TaskResult.SUCCEEDED
    assert client.get_feedback(task).progress == (4, 4)
    assert [s.status for s in client.history(task)][:2] == ['queued', 'planning']
    # the step effects reached the KG: the query says where the book is now
    answer = client.query(entity='book_hamlet')
    assert isinstance(answer, KgAnswer) and answer.ok
    assert ('book_hamlet', 'placed_at_table', 'living_room_table') in answer.facts
    assert answer.entities['book_hamlet'] == 'book'
    people = client.query(pattern=(None, 'person_in_room', None))
    assert people.ok and people.count == len(people.facts) > 0
    unknown = client.query(entity='unicorn')
    assert not unknown.ok and 'unicorn' in unknown.errors[0]
    with pytest.raises(ValueError, match='bad query'):
        client.query()
    # cancel an active task
    second = client.send_goal(LIGHT if not _holds(wm, 'laundry_room_light')
                              else '(not (light_on laundry_room_light))')
    client.wait_for_task(second, 60, statuses=('solved',))
    client.cancel_task(second)
    assert client.wait_for_task(second, 30) == TaskResult.CANCELED
    recent = {t['task_id']: t['status'] for t in client.tasks()['recent']}
    assert recent == {task: 'done', second: 'cancelled'}
    # a goal that cannot be parsed ends as a failure with the planner's reason
    bad = client.send_goal('(flying book_hamlet)')
    assert client.wait_for_task(bad, 30) == TaskResult.FAILED
    assert client.get_feedback(bad).status == 'invalid_goal'


def _holds(wm, light: str) -> bool:
    return ('light_on', (light,)) in {(f.predicate, f.args) for f in wm.world.kg.facts}


@inner
def test_scenario_confirm_plan_waits_for_yes_or_no(spinner, tmp_path, client):
    wm, executor = robot(spinner, tmp_path, language=True, confirm_plan=True,
                         confirm_timeout=0.0)
    first = client.send_goal(BOOK)
    client.wait_for_task(first, 60, statuses=('awaiting_confirmation',))
    asked = client.get_feedback(first)
    assert asked.status == 'awaiting_confirmation' and len(asked.steps) == 4
    executor.wait(lambda: any('Shall I go ahead? Say yes or no.' in s
                              for s in executor.got['say']))
    said = next(s for s in executor.got['say'] if 'Shall I go ahead' in s)
    first_step = Phrasing(wm.world.domain, wm.world.snapshot()).step(asked.steps[0])
    assert first_step[0].isupper() and '_' not in first_step  # said in a sentence
    assert said.startswith(f'For "{BOOK}" I would do 4 steps: {first_step}')
    feedback(executor, first, 1)  # feedback before the yes is not for a plan to execute
    client.say('Yes.')  # on voice_command, as a person would
    client.wait_for_task(first, 30, statuses=('solved',))
    assert client.get_feedback(first).reason == 'confirmed'
    assert client.get_feedback(first).progress == (0, 4)
    feedback(executor, first, 4)
    assert client.wait_for_task(first, 30) == TaskResult.SUCCEEDED
    # the language node left the "yes" to the planner: a question after it is answered
    # (its worker runs in order) and no utterance failed
    client.say('Where is Anna?')
    executor.wait(lambda: any('anna' in s.lower() and 'Shall I' not in s
                              for s in executor.got['say']))
    assert not [e for e in executor.json('events') if e.get('topic') == 'voice_command']
    # no, through the service: the task is cancelled
    second = client.send_goal(LIGHT if not _holds(wm, 'laundry_room_light')
                              else '(not (light_on laundry_room_light))')
    client.wait_for_task(second, 60, statuses=('awaiting_confirmation',))
    assert client.confirm(False) == second
    assert client.wait_for_task(second, 30) == TaskResult.CANCELED
    assert client.get_feedback(second).reason == 'declined'
    with pytest.raises(LookupError, match='no plan is waiting'):
        client.confirm(True)
    assert json.loads(json.dumps(client.tasks()))['active'] is None
