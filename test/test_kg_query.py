# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Read-only KG queries (kg_query/v1 → kg_query_result/v1), no ROS."""

import json
from pathlib import Path

import pytest

from l3mp_ros.schemas import validate
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.query import answer

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope='module')
def world():
    domain = DomainSchema.load(ROOT / 'pddl' / 'household.pddl')
    kg = KnowledgeGraph.loads((ROOT / 'config' / 'household_state.json').read_text())
    return kg, domain.predicates


def ask(world, **query):
    kg, preds = world
    q = {'schema': 'l3mp/kg_query/v1', 'request_id': 'r', **query}
    assert validate('kg_query', q) == []
    body = answer(kg, q, preds, last_event_id=7)
    assert validate('kg_query_result', body) == []
    return body


def test_facts_about_an_entity(world):
    kg, _ = world
    body = ask(world, entity='Red_Pen')
    assert body['ok'] and body['count'] == len(kg.facts_of('red_pen')) > 0
    assert all('red_pen' in f for f in body['facts'])
    assert body['entities']['red_pen'] == kg.entities['red_pen']
    assert all(a in body['entities'] for f in body['facts'] for a in f[:1])
    assert body['last_event_id'] == 7


def test_pattern_with_wildcards_unary_and_limit(world):
    kg, _ = world
    on = ask(world, pattern=[None, 'light_on', True])
    assert on['ok'] and on['facts'] and all(f[1:] == ['light_on', 'true'] for f in on['facts'])
    assert on['count'] == len(kg.facts_with('light_on'))
    rooms = ask(world, pattern=[None, 'person_in_room', None], limit=2)
    assert rooms['count'] > 2 and len(rooms['facts']) == 2 and rooms['truncated']
    anywhere = ask(world, pattern=['red_pen', None, None])
    assert anywhere['facts'] and all(f[0] == 'red_pen' for f in anywhere['facts'])


def test_mistakes_are_errors_not_empty_answers(world):
    assert ask(world, entity='dragon')['errors'] == ["unknown entity 'dragon'"]
    bad = ask(world, pattern=['red_pen', 'owns', 'anna'])
    assert not bad['ok'] and bad['errors'] == ["unknown predicate 'owns'"]
    bad = ask(world, pattern=['unicorn', 'light_on', True])
    assert bad['errors'] == ["unknown entity 'unicorn'"]
    assert 'closed world' in ask(world, pattern=['x', 'light_on', False])['errors'][0]


def test_snapshot_and_schema_refusals(world):
    kg, _ = world
    snap = ask(world, snapshot=True)
    assert KnowledgeGraph.from_json(snap['snapshot']).facts == kg.facts
    assert snap['count'] == len(kg)
    base = {'schema': 'l3mp/kg_query/v1', 'request_id': 'r'}
    assert validate('kg_query', base)  # no question
    assert validate('kg_query', {**base, 'entity': 'a', 'snapshot': True})  # two
    assert validate('kg_query', {**base, 'entity': 'a', 'sql': 'drop'})
    json.dumps(snap)
