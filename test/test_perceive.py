# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Perception integration (scene_graph/v1 → update) and the message schemas."""

import json
from pathlib import Path

import pytest

from l3mp_ros.schemas import NAMES, parse, validate
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.perceive import (
    FrameGate,
    PerceptionError,
    load_perceivable,
    scene_graph_update,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope='module')
def household():
    domain = DomainSchema.load(ROOT / 'pddl' / 'household.pddl')
    constraints = Constraints.load(ROOT / 'pddl' / 'household.constraints.yaml')
    perceivable = load_perceivable(ROOT / 'config' / 'household_perception.yaml')
    return domain, constraints, perceivable


@pytest.fixture
def kg():
    return KnowledgeGraph.loads((ROOT / 'config' / 'household_state.json').read_text())


def sg(facts, observed, entities=()):
    return {'schema': 'l3mp/scene_graph/v1', 'entities': [
        {'name': n, 'type': t} for n, t in entities], 'facts': [list(f) for f in facts],
        'observed': list(observed)}


def F(s, p, o='true'):
    return Fact.from_triplet((s, p, o))


def test_perception_config_files_match_their_domains(household):
    domain, _, perceivable = household
    assert perceivable <= set(domain.predicates)
    assert 'room_has' not in perceivable
    thor = DomainSchema.load(ROOT / 'pddl' / 'ai2thor.pddl')
    assert load_perceivable(ROOT / 'config' / 'ai2thor_perception.yaml') <= set(thor.predicates)


def test_observed_entity_facts_are_replaced(household, kg):
    domain, constraints, perceivable = household
    msg = sg([('red_pen', 'placed_at_table', 'jerry_bedroom_table')], ['red_pen'])
    upd, new = scene_graph_update(kg, msg, perceivable, domain, constraints)
    assert upd.remove == {F('red_pen', 'placed_at_table', 'living_room_table')}
    assert upd.add == {F('red_pen', 'placed_at_table', 'jerry_bedroom_table')}
    assert new == {}


def test_closed_fridge_keeps_its_remembered_contents(household, kg):
    domain, constraints, perceivable = household
    upd, _ = scene_graph_update(kg, sg([], ['kitchen_fridge']), perceivable, domain,
                                constraints)
    assert upd.is_empty()


def test_unary_flags_absent_mean_false_for_observed(household, kg):
    domain, constraints, perceivable = household
    msg = sg([('juice_glass', 'placed_at_table', 'living_room_table'),
              ('juice_glass', 'glass_empty', 'true')], ['juice_glass'])
    upd, _ = scene_graph_update(kg, msg, perceivable, domain, constraints)
    assert upd.remove == {F('juice_glass', 'glass_has_liquid', 'orange_juice')}
    assert upd.add == {F('juice_glass', 'glass_empty')}


def test_functional_rule_removes_old_fact_of_unobserved_holder(household, kg):
    domain, constraints, perceivable = household
    blind = perceivable - {'in_person_hand'}
    msg = sg([('black_pen', 'placed_at_table', 'living_room_table')], ['black_pen'])
    upd, _ = scene_graph_update(kg, msg, blind, domain, constraints)
    assert F('black_pen', 'in_person_hand', 'joshua') in upd.remove
    world = WorldModel(domain, constraints, kg=kg)
    assert world.apply(upd, source='perception').applied


def test_silence_about_an_exactly_group_keeps_the_old_location(household, kg):
    domain, constraints, perceivable = household
    upd, _ = scene_graph_update(kg, sg([], ['red_pen']), perceivable, domain, constraints)
    assert F('red_pen', 'placed_at_table', 'living_room_table') not in upd.remove


def test_perception_adds_entities_and_static_facts(household, kg):
    domain, constraints, perceivable = household
    msg = sg([('kitchen', 'room_has', 'kitchen_table'),
              ('green_cup', 'placed_at_table', 'kitchen_table')], ['green_cup', 'kitchen_table'],
             [('kitchen_table', 'table'), ('green_cup', 'kitchenware')])
    upd, new = scene_graph_update(kg, msg, perceivable, domain, constraints)
    assert new == {'kitchen_table': 'table', 'green_cup': 'kitchenware'}
    world = WorldModel(domain, constraints, kg=kg)
    res = world.apply(upd, source='perception', new_entities=new)
    assert res.applied, res.errors
    assert F('kitchen', 'room_has', 'kitchen_table') in world.kg


@pytest.mark.parametrize('msg, needle', [
    (sg([], ['ghost']), 'neither in the KG'),
    (sg([], ['x'], [('x', 'spaceship')]), 'unknown type'),
    (sg([], ['milk'], [('milk', 'table')]), 'is a perishable in the KG'),
    (sg([('milk', 'placed_at_fridge', 'kitchen_fridge')], []), 'not in "observed"'),
    (sg([('milk', 'flies_to', 'kitchen_fridge')], ['milk']), 'unknown predicate'),
    (sg([('milk', 'placed_at_fridge', 'moon')], ['milk']), 'unknown entities moon'),
    ({'schema': 'l3mp/other/v1'}, 'not a l3mp/scene_graph/v1'),
])
def test_bad_scene_graphs_raise_readable_errors(household, kg, msg, needle):
    domain, constraints, perceivable = household
    with pytest.raises(PerceptionError) as exc:
        scene_graph_update(kg, msg, perceivable, domain, constraints)
    assert needle in str(exc.value)


def test_huge_scene_graph_is_refused(household, kg):
    domain, constraints, perceivable = household
    ents = [(f'thing_{i}', 'book') for i in range(10_000)]
    with pytest.raises(PerceptionError, match='too large'):
        scene_graph_update(kg, sg([], [n for n, _ in ents], ents), perceivable, domain,
                           constraints)


def test_schemas_are_valid_and_errors_are_readable():
    for name in NAMES:
        assert isinstance(validate(name, {}), list)
    errors = validate('scene_graph', {'schema': 'l3mp/scene_graph/v1', 'entities': [{}],
                                      'facts': [['a', 'b']], 'observed': 'x'})
    text = '\n'.join(errors)
    assert "entities[0]: 'name' is a required property" in text
    assert 'facts[0]' in text and 'observed' in text
    assert parse('event', 'not json')[1][0].startswith('not JSON')
    good = sg([('a', 'p', 'b')], ['a'])
    assert parse('scene_graph', json.dumps(good)) == (good, [])
    fb = {'schema': 'l3mp/execution_feedback/v1', 'task_id': 't', 'step': 0,
          'status': 'succeeded'}
    assert validate('execution_feedback', fb) == []
    assert validate('execution_feedback', {**fb, 'status': 'meh'})


def test_frame_gate_throttles_and_deduplicates():
    gate = FrameGate(max_rate=10.0, refresh=1.0)
    a, b = sg([('a', 'p', 'b')], ['a']), sg([('a', 'p', 'c')], ['a'])
    gate.offer(a)
    assert gate.take(0.0) is a
    gate.offer(b)
    assert gate.take(0.05) is None  # too soon
    gate.offer(a)
    gate.offer(b)  # latest wins
    assert gate.take(0.2) is b and gate.dropped == 2
    gate.offer(dict(b, stamp=5.0))
    assert gate.take(0.4) is None and gate.unchanged == 1  # same view
    gate.offer(b)
    assert gate.take(1.5) is b  # re-sent after refresh


def test_an_observation_that_contradicts_a_report_names_it(tmp_path):
    """What the robot sees wins through the verified path; the event names the report."""
    from l3mp_ros.world.inputs import WorldInputs

    from .agent_fixtures import household_world

    world = household_world(tmp_path)
    said = world.apply(Update.of([Fact('placed_at_table', ('red_pen', 'living_room_table'))],
                                 [Fact('in_person_hand', ('red_pen', 'jerry'))]),
                       source='nl', utterance='Jerry took the red pen.')
    assert world.origin(Fact('in_person_hand', ('red_pen', 'jerry'))) == (said.event_id, 'nl')
    inputs = WorldInputs(world, {'perception_config': 'config/household_perception.yaml',
                                 'max_scene_entities': 100})
    seen = {'schema': 'l3mp/scene_graph/v1', 'entities': [], 'observed': ['red_pen'],
            'facts': [['red_pen', 'placed_at_table', 'anna_bedroom_table']]}
    assert inputs.scene_graph(json.dumps(seen)) == []
    event = world.events(since_id=said.event_id)[-1]
    assert event.status == 'applied' and event.source == 'perception'
    assert event.info['overrides'] == [said.event_id]
    assert Fact('placed_at_table', ('red_pen', 'anna_bedroom_table')) in world.kg
    # an observation that only confirms or concerns other facts overrides nothing
    assert inputs.scene_graph(json.dumps(seen)) == []  # nothing changes: no event
    lamp = {'schema': 'l3mp/scene_graph/v1', 'entities': [], 'observed': ['kitchen_light'],
            'facts': []}
    inputs.scene_graph(json.dumps(lamp))
    assert 'overrides' not in world.events(since_id=event.id)[-1].info
    world.close()
