# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Kinds a task speaks of as a whole, and the question that covers them (Algorithm 4)."""

import pytest

from l3mp_ros.agent.task.grounding import GoalGrounding
from l3mp_ros.agent.task.kinds import kinds, uncovered
from l3mp_ros.agent.task.rewrites import extend_goal, last_condition, turn_one_way
from l3mp_ros.agent.task.task import TaskPlanner, TaskSettings
from l3mp_ros.planning.planner import Planner
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import DOMAIN, client, household_world

LIGHTS = ('anna_bedroom_light', 'bathroom_light', 'jerry_bedroom_light', 'kitchen_light',
          'laundry_room_light', 'living_room_light')


def _kinds(world, text):
    return [(k.type, k.said, len(k.members), k.where)
            for k in kinds(world.domain, world.kg, text)]


def test_a_kind_is_named_by_a_type_or_by_the_predicate_it_has(tmp_path):
    world = household_world(tmp_path)
    assert _kinds(world, 'Please turn off all the lights, faucets and TVs.') == [
        ('light', 'all the lights', 6, None), ('sink', 'faucets', 2, None),
        ('tv', 'tvs', 3, None)]
    # "dish" is no type: the one argument of dish_is_clean is kitchenware
    assert _kinds(world, 'Collect every dish and put it in the kitchen sink.') == [
        ('kitchenware', 'every dish', 6, None)]
    assert _kinds(world, 'Could you wash all of the dishes?') == [
        ('kitchenware', 'all of the dishes', 6, None)]
    # counts, single things and plurals no word makes whole are not kinds
    for text in ('Bring Anna both pens.', 'Bring Anna two pens.', 'Turn off the kitchen light.',
                 'Give Anna pens.', 'Turn off the kitchen lights.'):
        assert _kinds(world, text) == [], text


def test_an_owner_or_a_place_restricts_a_kind_to_what_the_graph_links(tmp_path):
    world = household_world(tmp_path)
    pens = ('red_pen', 'blue_pen')
    res = world.apply(Update(add={Fact('in_person_hand', (p, 'anna')) for p in pens},
                             remove={f for f in world.kg.facts if f.args[0] in pens
                                     and f.predicate.startswith('placed_at')}), source='test')
    assert res.applied, res.errors
    got = kinds(world.domain, world.kg, "Put all of Anna's pens on the kitchen table.")
    assert [(k.type, sorted(k.members), k.where) for k in got] == [
        ('pen', ['blue_pen', 'red_pen'], ('in_person_hand', 0, 'anna'))]
    assert _kinds(world, "Put all of Helen's pens away.") == []  # Helen holds no pen
    # a definite plural that a place follows: the members there, else nothing
    sink = [f.args[0] for f in world.kg.facts if f.predicate == 'placed_at_kitchensink']
    got = kinds(world.domain, world.kg, 'Wash the dishes in the kitchen sink.')
    assert len(sink) >= 2 and got[0].members == frozenset(sink)
    assert got[0].where == ('placed_at_kitchensink', 0, 'kitchen_sink')
    assert _kinds(world, 'Turn off the lights in the garden shed.') == []


def test_a_goal_covers_a_kind_by_forall_or_by_naming_every_member(tmp_path):
    world = household_world(tmp_path)
    d, kg = world.domain, world.kg
    ks = kinds(d, kg, 'Turn off all the lights and TVs.')
    three = '(and ' + ' '.join(f'(not (light_on {x}))' for x in LIGHTS[:3]) + ')'
    assert [k.type for k in uncovered(d, kg, three, ks)] == ['light', 'tv']
    every = '(and (forall (?x - light) (not (light_on ?x))) (not (tv_on living_room_tv)))'
    assert [k.type for k in uncovered(d, kg, every, ks)] == ['tv']
    named = '(and ' + ' '.join(f'(not (light_on {x}))' for x in LIGHTS) + ')'
    assert [k.type for k in uncovered(d, kg, named, ks)] == ['tv']
    assert [k.type for k in uncovered(d, kg, None, ks)] == ['light', 'tv']
    # the forall replaces what the goal said of the members, either polarity
    grown, notes = extend_goal(d, kg, world.constraints,
                               '(and (light_on kitchen_light) (not (light_on bathroom_light)) '
                               '(in_person_hand red_pen anna))',
                               '(and (forall (?x - light) (not (light_on ?x))))')
    assert grown == ('(and (in_person_hand red_pen anna) '
                     '(forall (?x - light) (not (light_on ?x))))')
    assert len(notes) == 2
    assert extend_goal(d, kg, world.constraints, '', '(and (light_on kitchen_light))')[0] == \
        '(and (light_on kitchen_light))'
    # a member's literal the forall forbids by a rule goes too: every pen on the table, so
    # not the red pen in Jerry's hand (a goal no state satisfies, planned for the budget)
    grown, notes = extend_goal(d, kg, world.constraints,
                               '(and (in_person_hand red_pen jerry) (light_on kitchen_light))',
                               '(and (forall (?x - pen) (placed_at_table ?x living_room_table)))')
    assert grown == ('(and (light_on kitchen_light) '
                     '(forall (?x - pen) (placed_at_table ?x living_room_table)))')
    assert notes == ['dropped (in_person_hand red_pen jerry): it cannot hold with '
                     '(placed_at_table red_pen living_room_table)']


OFF = {'goal': [{'not': ['light_on', '?x']}]}
YES, NO = {'content': {'answer': 'yes'}}, {'content': {'answer': 'no'}}


@pytest.mark.parametrize('answer,read_back,goal,note', [
    # asked whether a light on now will be on: no, as the answer says
    (OFF, [NO], '(and (forall (?x - light) (not (light_on ?x))))', 'did not cover'),
    # the wrong polarity: asked whether a light off now will be on, "no" negates it
    ({'goal': [['light_on', '?x']]}, [NO], '(and (forall (?x - light) (not (light_on ?x))))',
     'negated what'),
    ({'goal': [['light_on', 'kitchen_light']]}, [], '(and (not (light_on kitchen_light)))',
     'did not read'),  # no "?x": refused, the goal stays
    ({'goal': [{'not': ['light_on', '?x']}, ['light_on', '?x']]}, [],
     '(and (not (light_on kitchen_light)))', 'did not read'),  # both polarities
])
def test_a_goal_missing_a_kind_is_asked_about_every_one(
        tmp_path, answer, read_back, goal, note):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    first = {'goal': [{'not': ['light_on', 'kitchen_light']}]}
    with FakeOpenAI([{'content': first}, {'content': answer}, *read_back]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(),
                          Planner(world.domain, engine='fast-downward', timeout=30)).run(
            'Please turn off all the lights.')
        asked = fake.requests[1]
        calls = [r['messages'][-1]['content'] for r in fake.requests]
    assert len(calls) == 2 + len(read_back)
    assert 'Question: the task speaks of all the lights.' in calls[1]
    assert '"light_on", "kitchen_light"' not in calls[1]  # not shown the answer it missed
    if read_back:
        light = 'bathroom light is on' if answer is OFF else 'anna bedroom light is on'
        assert calls[2].endswith(f'will this be true: {light}?')
    items = asked['response_format']['json_schema']['schema']['properties']['goal']['items']
    lits = [b for b in items['anyOf'] if 'prefixItems' in b]
    assert lits and all(b['prefixItems'][1].get('enum') == ['?x'] for b in lits
                        if b['prefixItems'][0]['const'] == 'light_on')
    assert out.goal == goal and out.status == 'solved', (out.goal, out.errors)
    assert note in ' '.join(next(h for h in out.history if 'notes' in h)['notes'])
    assert world.kg.to_json() == before


def test_a_kind_the_goal_covers_or_the_setting_off_asks_nothing(tmp_path):
    world = household_world(tmp_path)
    every = {'goal': [{'forall': 'light', 'if': [], 'then': [['light_on', '?x']],
                       'negate': False}]}  # "turn off" written as every light on
    with FakeOpenAI([{'content': every}, NO]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(),
                          Planner(world.domain, engine='fast-downward', timeout=30)).run(
            'Please turn off all the lights.')
    assert len(fake.requests) == 2 and out.status == 'solved'  # read back, not asked
    assert out.goal == '(and (forall (?x - light) (not (light_on ?x))))'
    one = {'goal': [{'not': ['light_on', 'kitchen_light']}]}
    with FakeOpenAI([{'content': one}]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(),
                          Planner(world.domain, engine='fast-downward', timeout=30),
                          TaskSettings(ask_kinds=False, read_back=False)).run(
            'Please turn off all the lights.')
    assert len(fake.requests) == 1 and out.goal == '(and (not (light_on kitchen_light)))'


def test_a_goal_asking_what_only_actions_undo_asks_for_the_change(tmp_path):
    world = household_world(tmp_path)
    d = world.domain
    # which values actions ever give a predicate, read from the domain's effects
    assert d.one_way('phone_ringing') is False and d.one_way('cloth_is_clean') is True
    assert d.one_way('light_on') is None and d.one_way('placed_at_table') is None
    assert d.summary()['made']['false'] and DomainSchema.load(DOMAIN).one_way(
        'phone_ringing') is False  # the cached summary keeps it
    res = world.apply(Update(add={Fact('phone_ringing', ('anna_phone',))}), source='test')
    assert res.applied, res.errors
    ringing = {'goal': [['phone_ringing', 'anna_phone']]}  # the description, not the request
    with FakeOpenAI([{'content': ringing}]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(),
                          Planner(d, engine='fast-downward', timeout=30)).run(
            "Please pick up Anna's phone, it is ringing.")
    assert len(fake.requests) == 1  # no read-back: the domain says which way it goes
    assert out.goal == '(and (not (phone_ringing anna_phone)))' and out.status == 'solved'
    assert 'no action makes it true again' in ' '.join(out.history[0]['notes'])
    # a literal that does not hold now, or one actions change both ways, is left alone
    assert turn_one_way(d, world.kg, '(and (phone_ringing jerry_phone))') == (None, [])
    assert turn_one_way(d, world.kg, '(and (light_on kitchen_light))') == (None, [])


def test_of_two_places_for_every_one_the_one_the_task_names_last_stays(tmp_path):
    world = household_world(tmp_path)
    text = "Put all of Anna's pens on the living room table."
    ms = resolve(world.kg, text)
    both = [['in_person_hand', '?x', 'anna'], ['placed_at_table', '?x', 'living_room_table']]
    kept, notes = last_condition(both, world.constraints, text, ms)
    assert kept == [both[1]] and 'names living_room_table later' in notes[0]
    assert last_condition(both[::-1], world.constraints, text, ms)[0] == [both[1]]
    # one condition, a negation, or places the task does not name: as they are
    assert last_condition(both[:1], world.constraints, text, ms) == (both[:1], [])
    neg = [both[0], {'not': both[1]}]
    assert last_condition(neg, world.constraints, text, ms) == (neg, [])
    other = [both[0], ['placed_at_table', '?x', 'jerry_bedroom_table']]
    assert last_condition(other, world.constraints, text, ms) == (other, [])


def test_a_kinds_question_offers_no_negated_place(tmp_path):
    world = household_world(tmp_path)
    grounding = GoalGrounding.build(world.domain, world.kg, sorted(world.kg.entities),
                                    world.kg.facts)
    placing = frozenset({'placed_at_kitchensink', 'placed_at_table'})
    items = grounding.kind_schema('kitchenware', placing)['properties']['goal']['items']
    plain = {b['prefixItems'][0]['const'] for b in items['anyOf'] if 'prefixItems' in b}
    negated = {b['prefixItems'][0]['const'] for o in items['anyOf'] if 'properties' in o
               for b in o['properties']['not']['anyOf']}
    assert {'placed_at_kitchensink', 'dish_is_clean'} <= plain
    assert 'dish_is_clean' in negated and not negated & placing
    # repeated items read as one condition
    more, errors = grounding.read_kind({'goal': [['dish_is_clean', '?x']] * 3}, 'kitchenware')
    assert more == '(forall (?x - kitchenware) (dish_is_clean ?x))' and not errors
