# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Every wire format is built in l3mp_ros.schemas, and what it builds is valid."""

import ast
from pathlib import Path

import pytest

from l3mp_ros import schemas
from l3mp_ros.planning.planner import PlanResult
from l3mp_ros.world.kg import Fact, Update

PACKAGE = Path(__file__).resolve().parents[1] / 'l3mp_ros'

BUILT = {
    'plan': [schemas.plan(status='solved', task_id='t1', goal='(and (p a))',
                          steps=['(go a b)'], engine='lapkt', timings={'plan': 0.1}),
             schemas.plan(status='unsolvable', task_id='t2', attempts=2, revision=1, next_step=0,
                          progress={'done': 0, 'total': 0}, reason='new task'),
             PlanResult('solved', steps=['(go a b)'], goal='(p a)').to_json('t', 'do it')],
    'event': [schemas.event(id=3, time=1.0, source='nl', status='applied', utterance='x',
                            diff=Update.of([], [Fact('p', ('a',))]).to_json(),
                            new_entities={'a': 'thing'}, info={'request_id': 'r'}),
              schemas.error_event('perception', ['bad frame'], topic='scene_graph')],
    'kg_update': [schemas.kg_update(Update.of([Fact('p', ('a',))], []).to_json(),
                                    source='nl', utterance='a is no longer p'),
                  schemas.kg_update(None, source='nl', utterance=None, errors=['no']),],
    'kg_query': [schemas.kg_query('q1', entity='red_pen'),
                 schemas.kg_query('q2', pattern=['red_pen', None, None], limit=5),
                 schemas.kg_query('q3', snapshot=True)],
    'kg_query_result': [schemas.kg_query_result('q1', facts=[('a', 'p', 'b')],
                                                entities={'a': 't', 'b': 't'}, count=1),
                        schemas.kg_query_result('q2', errors=['unknown entity']),],
    'scene_graph': [schemas.scene_graph(source='cam', entities=[{'name': 'a', 'type': 't'}],
                                        facts=[['a', 'on', 'b']], observed=['a'])],
    'execution_feedback': [schemas.execution_feedback('t1', 0, 'succeeded', revision=0,
                                                      action='(go a b)'),
                           schemas.execution_feedback('t1', 1, 'failed', message='blocked')],
}


@pytest.mark.parametrize('name', schemas.NAMES)
def test_each_builder_builds_valid_messages(name):
    assert BUILT[name], name
    for body in BUILT[name]:
        assert body['schema'] == schemas.SCHEMA_IDS[name]
        assert schemas.validate(name, body) == [], body


def test_the_schemas_notice_a_broken_body():
    body = schemas.event(id=1, time=1.0, source='nl', status='applied')
    body['status'] = 'maybe'
    assert schemas.validate('event', body)
    assert schemas.validate('plan', {**BUILT['plan'][0], 'steps': 'one'})


def test_no_module_spells_a_wire_schema_id_but_schemas():
    """A message body is built by the schemas module, not assembled by hand elsewhere."""
    ids = set(schemas.SCHEMA_IDS.values())
    found = []
    for path in PACKAGE.rglob('*.py'):
        if path.parent.name == 'schemas':
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in ids:
                found.append(f'{path.relative_to(PACKAGE)}:{node.lineno} {node.value}')
    assert found == []
