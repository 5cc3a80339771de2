# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3 end to end: real openai client → loopback scripted server → verifier → store."""

import pytest

from l3mp_ros.agent.update import NLUpdater
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact
from l3mp_ros.world.store import Store

from .agent_fixtures import client, household_world, upd

REPORT = 'Jerry took the red pen from the living room table.'
GOOD = upd([('red_pen', 'placed_at_table', 'living_room_table')],
           [('red_pen', 'in_person_hand', 'jerry')])


def _disk(tmp_path):
    with Store(tmp_path / 'kg.db') as s:
        return s.load_kg().to_json(), s.history()


def test_correct_first_time(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GOOD, 'prompt_tokens': 900, 'completion_tokens': 40}]) as fake:
        out = NLUpdater(world, client(fake), FullRetriever()).run(REPORT)
        req = fake.requests[0]
    assert out.applied and out.attempts == 1 and not out.errors
    assert Fact('in_person_hand', ('red_pen', 'jerry')) in world.kg
    assert out.usage.prompt_tokens == 900 and out.usage.completion_tokens == 40
    assert req['temperature'] == 0 and 'seed' in req
    assert req['response_format']['type'] == 'json_schema'
    system, user = req['messages'][0]['content'], req['messages'][1]['content']
    assert '(in_person_hand ?' in system  # predicate signatures
    assert REPORT in user and '[red_pen, placed_at_table, living_room_table]' in user
    kg, history = _disk(tmp_path)
    assert kg == world.kg.to_json()
    assert history[-1].status == 'applied' and history[-1].utterance == REPORT


def test_retry_loop_fixes_wrong_types_and_invented_entities(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    script = [{'content': c} for c in (
        upd([('red_pen', 'placed_at_table', 'living_room_table')],
            [('red_pen', 'in_person_hand', 'living_room')]),        # wrong type
        upd([('red_pen', 'placed_at_table', 'living_room_table')],
            [('red_pen', 'in_person_hand', 'gerry')]),              # invented entity
        GOOD)]
    with FakeOpenAI(script) as fake:
        out = NLUpdater(world, client(fake), FullRetriever(), max_attempts=3).run(REPORT)
        second = fake.requests[1]['messages'][-1]['content']
        third = fake.requests[2]['messages'][-1]['content']
    assert out.applied and out.attempts == 3
    assert 'living_room is a room but argument 2 of in_person_hand must be a person' in second
    assert 'unknown entity "gerry"' in third
    assert world.kg.to_json() != before


@pytest.mark.parametrize('bad', [
    'I think the pen moved, probably.',                                   # garbage text
    {'content': {'remove': [['red_pen', 'placed_at_table', 'kitchen_sink']], 'add': []}},
    {'content': upd([], [('red_pen', 'in_person_hand', 'jerry')])},      # two places at once
    {'content': upd([], [])},                                             # empty update
    {'content': {'remove': 'all of it', 'add': 7}},                      # wrong JSON types
])
def test_nothing_wrong_is_ever_applied(tmp_path, bad):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([bad] * 3) as fake:
        out = NLUpdater(world, client(fake), FullRetriever(), max_attempts=3).run(REPORT)
        assert len(fake.requests) == 3
    assert not out.applied and out.errors and out.attempts == 3
    kg, history = _disk(tmp_path)
    assert kg == before == world.kg.to_json()
    assert history[-1].status == 'rejected' and history[-1].errors == out.errors


def test_timeout_is_a_clean_rejection(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([{'content': GOOD, 'delay': 2.0}] * 4) as fake:
        out = NLUpdater(world, client(fake, timeout=0.3, retries=1), FullRetriever()).run(REPORT)
    assert not out.applied and out.errors[0].startswith('LLM unavailable')
    assert world.kg.to_json() == before == _disk(tmp_path)[0]


def test_no_verify_ablation_applies_unverified_but_applicable(tmp_path):
    world = household_world(tmp_path)
    wrong = upd([('red_pen', 'placed_at_table', 'living_room_table')],
                [('red_pen', 'in_person_hand', 'living_room')])
    with FakeOpenAI([{'content': wrong}]) as fake:
        out = NLUpdater(world, client(fake), FullRetriever(), verify=False).run(REPORT)
        assert len(fake.requests) == 1
    assert out.applied  # the paper's R_- (no verifier) variant keeps the mistake
    assert Fact('in_person_hand', ('red_pen', 'living_room')) in world.kg


def test_empty_report_rejected_without_llm(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([]) as fake:
        out = NLUpdater(world, client(fake), FullRetriever()).run('   ')
        assert fake.requests == []
    assert not out.applied and out.errors == ['empty report']
