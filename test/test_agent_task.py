# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4, routing and questions through the real openai client and real planners."""

import pytest

from l3mp_ros.agent.router import QuestionAnswerer, Router, heuristic_kind
from l3mp_ros.agent.task.goal_checks import ALREADY_HOLDS
from l3mp_ros.agent.task.left_out import left_out
from l3mp_ros.agent.task.rewrites import drop_held, extend_goal
from l3mp_ros.agent.task.task import TaskPlanner, TaskSettings, named_types
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import Planner
from l3mp_ros.planning.problem import goal_holds, parse_goal
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.retrieval.link import LinkRetriever
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import client, household_world

TASK = 'Give the red pen to Anna.'
GOOD = {'goal': '(and (in_person_hand red_pen anna))'}


def _planner(world, engine='fast-downward'):
    return Planner(world.domain, engine=engine, timeout=30)


@pytest.mark.parametrize('engine', ['lapkt', 'fast-downward'])
def test_task_solved_and_valid_on_ground_truth(tmp_path, engine):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GOOD}]) as fake:
        tp = TaskPlanner(world, client(fake), FullRetriever(), _planner(world, engine))
        out = tp.run(TASK)
        req = fake.requests[0]
    assert out.status == 'solved' and out.attempts == 1, out.errors
    assert out.steps and out.steps[-1].startswith('(hand_to_person')
    assert '(in_person_hand ?' in req['messages'][0]['content'] and TASK in req['messages'][1][
        'content']
    # executing the plan on the whole KG reaches the goal
    res = execute_plan(world.domain, world.kg, out.steps)
    goal = parse_goal(world.domain, world.kg, GOOD['goal'])
    assert goal_holds(world.domain, res.kg, goal)
    body = out.to_json()
    assert body['schema'] == 'l3mp/plan/v1' and body['task_id'] == out.task_id
    assert body['tokens']['prompt'] > 0 and body['utterance'] == TASK
    stages = body['stages']  # where the time went: the planner's share is its own stage
    assert {'retrieval', 'context', 'propose', 'check', 'plan'} <= set(stages['seconds'])
    assert [(c['stage'], c['kind']) for c in stages['calls']] == [('propose', 'pddl_goal')]
    assert stages['seconds']['plan'] >= body['engine_seconds'].get(body['solved_by'], 0) * 0.5


@pytest.mark.parametrize('mode', ['full', 'widen', 'referents'])
def test_task_prompt_listing(tmp_path, mode):
    # a task has no doubt signal to widen on: "widen" lists every retrieved fact, as "full"
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GOOD}]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(prompt_context=mode)).run(TASK)
        user = fake.requests[0]['messages'][1]['content']
    assert out.status == 'solved', out.errors
    listed = [line for line in user.splitlines() if line.startswith('[')]
    if mode == 'referents':
        assert listed and len(listed) < len(world.kg.facts) / 4
    else:
        assert len(listed) == len(world.kg.facts)


def test_task_retries_bad_goals_with_reasons(tmp_path):
    world = household_world(tmp_path)
    script = [
        {'content': {'goal': '(and (holding anna red_pen))'}},            # unknown predicate
        {'content': {'goal': '(and (placed_at_pantry milk kitchen_pantry))'}},  # unsolvable
        {'content': '```pddl\n(:goal (and (in_person_hand red_pen anna)))\n```'},  # fenced
    ]
    with FakeOpenAI(script) as fake:  # no mention check: the pantry goal must reach the planner
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(resolve_mentions=False, read_back=False)).run(TASK)
        second = fake.requests[1]['messages'][-1]['content']
        third = fake.requests[2]['messages'][-1]['content']
    assert out.status == 'solved' and out.attempts == 3
    assert 'holding' in second and 'goal has errors' in second
    assert 'no plan reaches that goal' in third
    assert [h['status'] for h in out.history] == ['invalid_goal', 'unsolvable', 'solved']


def test_goal_restating_where_a_thing_is_now_keeps_only_where_it_goes(tmp_path):
    world = household_world(tmp_path)
    here = next(f for f in world.kg.facts_of('red_pen') if f.args[0] == 'red_pen')
    said = f'({here.predicate} {" ".join(here.args)})'
    script = [{'content': {'goal': f'(and {said} (in_person_hand red_pen anna))'}}]
    with FakeOpenAI(script) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world)).run(TASK)
    assert out.status == 'solved' and out.attempts == 1, out.errors
    assert out.goal == '(and (in_person_hand red_pen anna))'
    assert 'holds now' in out.history[0]['notes'][0]


def test_goal_whose_conjuncts_no_state_allows_is_reprompted(tmp_path):
    world = household_world(tmp_path)
    script = [{'content': {'goal': '(and (in_person_hand red_pen anna) '
                                   '(in_person_hand red_pen jerry))'}},
              {'content': {'answer': 'yes'}}, {'content': {'answer': 'yes'}},  # both wanted
              {'content': GOOD}]
    with FakeOpenAI(script) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world)).run(TASK)
        again = fake.requests[3]['messages'][-1]['content']
    assert out.status == 'solved' and out.attempts == 2
    assert 'cannot both hold' in again and 'state after the task' in again


@pytest.mark.parametrize(('task', 'lit', 'kept'), [
    ('Please switch the kitchen light off.', '(light_on kitchen_light)',
     '(and (not (light_on kitchen_light)))'),  # on now: the change is "not on"
    ("Turn the light in Anna's room on, please.", '(light_on anna_bedroom_light)',
     '(and (light_on anna_bedroom_light))'),  # off now: the change is "on"
])
def test_goal_asking_an_atom_and_its_negation_keeps_the_change(tmp_path, task, lit, kept):
    # a small model writes where the task starts beside where it ends; re-asked, it
    # repeats itself: the goal is settled without a re-prompt, in either order
    world = household_world(tmp_path)
    for goal in (f'(and {lit} (not {lit}))', f'(and (not {lit}) {lit})'):
        with FakeOpenAI([{'content': {'goal': goal}}] * 3) as fake:
            out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world)).run(task)
            calls = len(fake.requests)
        assert out.status == 'solved' and out.attempts == 1 and calls == 1, out.errors
        assert out.goal == kept
        assert 'the change the task wants' in ' '.join(out.history[0]['notes'])


JERRY = {'goal': '(and (in_person_hand red_pen jerry))'}  # plannable, but not for Anna


@pytest.mark.parametrize(('about', 'goal', 'note'), [
    # the answer about Anna wins over the conjunct it cannot hold beside (one hand)
    ({'goal': [['in_person_hand', 'red_pen', 'anna']]}, GOOD['goal'], 'added'),
    ({'goal': []}, JERRY['goal'], 'did not read'),  # garbage: the goal stays
])
def test_goal_leaving_out_what_the_task_names_is_asked_about_it(tmp_path, about, goal, note):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([{'content': JERRY}, {'content': about}, {'content': GOOD}]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world)).run(
            'Bring Anna the red pen.')
        asked = fake.requests[1]
        calls = len(fake.requests)
    assert calls == 2 and 'The task also names Anna.' in asked['messages'][-1]['content']
    # the question's schema offers only conditions about Anna
    branches = asked['response_format']['json_schema']['schema']['properties']['goal'][
        'items']['anyOf']  # literals only: no "not" (a thing named is a thing to give)
    assert branches and all(any(slot.get('enum') == ['anna'] for slot in b['prefixItems'][1:])
                            for b in branches)
    assert out.status == 'solved' and out.goal == goal and out.attempts == 1, out.errors
    assert note in ' '.join(out.history[0]['notes'])
    assert world.kg.to_json() == before  # planning changes nothing


def test_what_a_goal_leaves_out_and_how_an_answer_about_it_joins(tmp_path):
    world = household_world(tmp_path)
    d, kg = world.domain, world.kg

    def missing(goal, text, parts=None):
        return left_out(goal, kg, resolve(kg, text, steady=d.static_predicates(),
                                          predicates=d.predicates), parts)
    gave = '(and (in_person_hand red_pen anna))'
    assert missing('(and (placed_at_table red_pen living_room_table))',
                   'Give Anna the red pen.') == ['anna']
    # what only describes another mention (where the pen lies) is not asked for
    assert missing(gave, "Give the red pen on the table in Jerry's bedroom to Anna.") == []
    assert missing(gave, 'Give Anna all the pens.') == []  # a plural may be several
    assert missing('(and (light_on kitchen_light))', 'Give Anna the red pen, it is on the '
                   'table.', ['Give Anna the red pen']) == ['anna', 'red_pen']
    # the narrower answer wins where the two clash: one hand, one polarity
    off = '(and (in_person_hand red_pen anna) (not (light_on kitchen_light)))'
    jerry = '(and (in_person_hand red_pen jerry) (light_on kitchen_light))'
    grown, notes = extend_goal(d, kg, world.constraints, jerry, off)
    assert grown == off
    assert len(notes) == 2 and extend_goal(d, kg, world.constraints, gave, '(nonsense)')[0] is None


def _branches(request):
    return request['response_format']['json_schema']['schema']['properties']['goal'][
        'items']['anyOf']


def test_a_thing_left_out_is_asked_about_with_what_its_own_part_names(tmp_path):
    world = household_world(tmp_path)
    give = {'content': {'goal': [['in_person_hand', 'drinking_glass', 'anna']]}}
    tap = {'content': {'goal': [['faucet_on', 'kitchen_sink']]}}
    text = 'Get the drinking glass out of the kitchen sink for Anna, and turn on the kitchen sink.'
    with FakeOpenAI([give, give, tap]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(text)
        asked = fake.requests[2]
    # the question quotes the part that asks for something of the sink
    assert 'The task also names the kitchen sink ("turn on the kitchen sink."). Which' in asked[
        'messages'][-1]['content'], asked['messages'][-1]['content']
    # the sink is named as where the glass leaves, and alone where it is asked for: the
    # question offers nothing that puts the glass (or any dish) back in it
    offered = {b['prefixItems'][0]['const'] for b in _branches(asked)}
    assert offered == {'faucet_on'}, offered
    assert out.status == 'solved', out.errors
    assert out.goal == '(and (in_person_hand drinking_glass anna) (faucet_on kitchen_sink))'
    # where a part speaks of a thing by a pronoun, the question may name anything the task
    # names
    said = 'Show the drinking glass to Anna and then put it in the kitchen sink.'
    with FakeOpenAI([give, give, tap]) as fake:
        TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(said)
        asked = fake.requests[2]
    offered = {b['prefixItems'][0]['const'] for b in _branches(asked)}
    assert 'placed_at_kitchensink' in offered, offered
    # a thing named only as where something leaves is not asked about: nothing to do to it
    put = {'content': {'goal': [['placed_at_table', 'drinking_glass', 'living_room_table']]}}
    with FakeOpenAI([put, put, tap]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(
            'Take the drinking glass out of the kitchen sink and put it on the living room '
            'table.')
        assert len(fake.requests) == 2  # one per part; the sink is not asked about
    assert out.status == 'solved', out.errors
    assert out.goal == '(and (placed_at_table drinking_glass living_room_table))'


def test_a_goal_asking_for_some_thing_says_more_of_that_one_when_asked(tmp_path):
    world = household_world(tmp_path)
    clean = {'content': {'goal': [{'exists': 'cloth', 'where': [['cloth_is_clean', '?x']]}]}}
    hers = {'content': {'goal': [['in_person_hand', '?x', 'anna']]}}
    with FakeOpenAI([clean, hers]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(
            'Bring Anna a piece of clothing that is clean.')
        asked = fake.requests[1]
    # ?x stands for the cloth the goal asks for; no cloth of the house is offered instead
    slots = [slot['enum'] for b in _branches(asked) for slot in b['prefixItems'][1:]]
    assert ['?x'] in slots and not any(
        e in slot for slot in slots for e in ('blue_shirt', 'green_towel', 'red_sweater'))
    assert out.status == 'solved', out.errors
    assert out.goal == ('(and (exists (?x - cloth) (and (cloth_is_clean ?x) '
                        '(in_person_hand ?x anna))))')
    # the plan hands Anna one cloth that is clean when she gets it
    res = execute_plan(world.domain, world.kg, out.steps)
    assert goal_holds(world.domain, res.kg, parse_goal(world.domain, world.kg, out.goal))
    given = [f.args[0] for f in res.kg.facts if f.predicate == 'in_person_hand'
             and f.args[1] == 'anna' and res.kg.type_of(f.args[0]) == 'cloth']
    assert given and all(Fact('cloth_is_clean', (c,)) in res.kg for c in given)


def test_goal_naming_everything_the_task_names_is_not_asked_again(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GOOD}]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world)).run(
            'Bring Anna the red pen.')
    assert out.status == 'solved' and out.attempts == 1 and len(fake.requests) == 1
    with FakeOpenAI([{'content': JERRY}]) as fake:  # the setting off: the goal as written
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(ask_left_out=False)).run('Bring Anna the red pen.')
    assert out.goal == JERRY['goal'] and out.attempts == 1


def test_task_gives_up_after_bounded_attempts(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI(['no idea, sorry'] * 2) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(max_attempts=2)).run(TASK)
        assert len(fake.requests) == 2
    assert out.status == 'invalid_goal' and out.errors and not out.steps
    assert world.kg.to_json() == before


def test_goal_that_already_holds_is_read_back_literal_by_literal(tmp_path):
    world = household_world(tmp_path)
    holds = {'content': {'goal': [['light_on', 'kitchen_light']]}}
    yes, no = {'content': {'answer': 'yes'}}, {'content': {'answer': 'no'}}
    with FakeOpenAI([holds, yes]) as fake:  # the task really asks for what holds
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(
            'Make sure the kitchen light is on.')
        asked = fake.requests[1]['messages'][-1]['content']
    assert 'will this be true: the kitchen light is on?' in asked, asked
    assert out.status == 'already_satisfied' and out.steps == [] and out.attempts == 1
    with FakeOpenAI([holds, no]) as fake:  # polarity wrong: the read-back negates it
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(
            'Turn off the kitchen light.')
    assert out.status == 'solved' and out.attempts == 1, out.errors
    assert out.goal == '(and (not (light_on kitchen_light)))'
    assert any('turn_off_light' in s for s in out.steps)
    assert 'negated (light_on kitchen_light)' in out.history[-1]['notes'][0]
    # without the read-back, a goal that holds is re-prompted once, then accepted
    with FakeOpenAI([holds, holds]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(read_back=False)).run('Make sure the kitchen light is on.')
        second = fake.requests[1]['messages'][-1]['content']
    assert ALREADY_HOLDS in second
    assert [h['status'] for h in out.history] == ['already_holds', 'already_satisfied']
    assert out.status == 'already_satisfied' and out.steps == []  # the model insisted


def test_goal_the_read_back_turns_into_what_holds_is_asked_for_again_once(tmp_path):
    # the laundry room's light is off and in no room: no plan turns it on
    unlit = ['laundry_room', 'room_has', 'laundry_room_light']
    world = household_world(tmp_path, without=(unlit,))
    loose = TaskSettings(resolve_mentions=False)  # the goal need not name what it mentions
    on = {'content': {'goal': [['light_on', 'laundry_room_light']]}}
    no = {'content': {'answer': 'no'}}
    give = {'content': {'goal': [['in_person_hand', 'red_pen', 'anna']]}}
    # no plan reaches it; read back, the model denies it: what is left holds already, and
    # the task asks for a change, so the goal is asked for again
    with FakeOpenAI([on, no, give]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          loose).run(TASK)
        again = fake.requests[2]['messages'][-1]['content']
    assert ALREADY_HOLDS in again
    assert [h['status'] for h in out.history if 'status' in h] == ['already_holds', 'solved']
    assert out.status == 'solved' and out.goal == GOOD['goal'], out.errors
    # once only: asked again, a goal that holds is taken as nothing to do
    off = {'content': {'goal': [{'not': ['light_on', 'laundry_room_light']}]}}
    with FakeOpenAI([on, no, off]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          loose).run(TASK)
        calls = len(fake.requests)
    assert out.status == 'already_satisfied' and out.attempts == 2 and calls == 3, out.history


def test_quantified_goal_of_the_wrong_type_is_asked_again_with_x_where_it_fits(tmp_path):
    world = household_world(tmp_path)
    # "everything": no type named, so one branch serves every type and ?x may stand anywhere
    wrong = {'content': {'goal': [{'forall': 'pen', 'if': [], 'then': [
        ['person_in_room', '?x', 'kitchen']], 'negate': False}]}}
    right = {'content': {'goal': [{'forall': 'pen', 'if': [], 'then': [
        ['in_person_hand', '?x', 'anna']], 'negate': False}]}}
    with FakeOpenAI([wrong, right]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world),
                          TaskSettings(ask_left_out=False, ask_kinds=False)).run(
            'Give Anna everything you can write with.')
        first, second = (r['response_format']['json_schema']['schema'] for r in fake.requests)
    assert 'person_in_room' in out.history[0]['errors'][0]

    def quantified(schema):
        alts = schema['properties']['goal']['items']['anyOf']
        return [a for a in alts if 'forall' in a.get('properties', {})]
    assert len(quantified(first)) == 1  # one branch for every type
    narrowed = quantified(second)
    assert [b['properties']['forall'] for b in narrowed] == [{'const': 'pen'}]
    then = narrowed[0]['properties']['then']['items']['anyOf']
    assert then and all(slot.get('enum') != ['?x'] or k == 0 for b in then
                        for k, slot in enumerate(b['prefixItems'][1:]))  # ?x: the item only
    assert out.status == 'solved' and out.attempts == 2, out.errors
    assert out.goal == '(and (forall (?x - pen) (in_person_hand ?x anna)))'


def test_structured_goal_within_the_context_schema(tmp_path):
    world = household_world(tmp_path)
    goal = {'goal': [['in_person_hand', 'red_pen', 'anna'],
                     {'forall': 'light', 'if': [], 'then': [['light_on', '?x']],
                      'negate': True}]}
    outside = {'goal': [['in_person_hand', 'red_pen', 'gerry']]}
    with FakeOpenAI([{'content': outside}, {'content': goal}]) as fake:  # asked at once
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(split_clauses=False)).run(
            'Give the red pen to Anna and switch off every light.')
        schema = fake.requests[0]['response_format']['json_schema']['schema']
        second = fake.requests[1]['messages'][-1]['content']
    assert schema['properties']['goal']['items']['anyOf']  # literals, not, forall, exists
    assert 'gerry is not among the entities' in second
    assert out.status == 'solved', out.errors
    assert out.goal == ('(and (in_person_hand red_pen anna) '
                        '(forall (?x - light) (not (light_on ?x))))')
    assert out.steps[-1].startswith('(hand_to_person') or any(
        'turn_off' in s for s in out.steps)


def test_goal_must_name_what_the_task_mentions(tmp_path):
    world = household_world(tmp_path)
    wrong = {'content': {'goal': [['in_person_hand', 'anna_bedroom_tv_remote', 'joshua']]}}
    right = {'content': {'goal': [['in_person_hand', 'red_pen', 'anna']]}}
    with FakeOpenAI([wrong, right]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(TASK)
        second = fake.requests[1]['messages'][-1]['content']
    assert 'the task does not mention anna_bedroom_tv_remote, joshua' in second
    assert out.status == 'solved' and out.attempts == 2


def test_plan_goal_without_llm(tmp_path):
    world = household_world(tmp_path)
    tp = TaskPlanner(world, None, None, _planner(world))
    out = tp.plan_goal('(and (light_on laundry_room_light))')
    assert out.status == 'solved' and any('turn_on_light' in s for s in out.steps)
    bad = tp.plan_goal('(and (light_on attic_light))')
    assert bad.status == 'invalid_goal' and any('attic_light' in e for e in bad.errors)


def test_router_heuristics_and_llm():
    assert heuristic_kind('Where is the red pen?') == 'question'
    assert heuristic_kind('Please bring me the red pen.') == 'task'
    assert heuristic_kind('Could you turn off the TV?') == 'task'
    assert heuristic_kind('Gary put the pen on the table.') is None
    with FakeOpenAI([{'content': {'kind': 'report'}}, 'it is a question i think']) as fake:
        router = Router(client(fake))
        assert router.classify('Gary put the pen on the table.') == 'report'
        assert router.classify('The kitchen light, is it on') == 'question'
        assert len(fake.requests) == 2


def test_questions_cite_only_real_facts(tmp_path):
    world = household_world(tmp_path)
    reply = {'answer': 'The red pen is on the living room table.',
             'facts': [['red_pen', 'placed_at_table', 'living_room_table'],
                       ['red_pen', 'placed_at_table', 'the_moon']]}
    with FakeOpenAI([{'content': reply}]) as fake:
        qa = QuestionAnswerer(client(fake), FullRetriever())
        ans = qa.answer(world.kg, 'Where is the red pen?')
    assert 'living room table' in ans.text
    assert ans.facts == [Fact('placed_at_table', ('red_pen', 'living_room_table'))]


def test_answer_cites_from_the_linked_entities_facts(tmp_path):
    world = household_world(tmp_path)
    reply = {'answer': 'It is on the living room table.',
             'facts': [['red_pen', 'placed_at_table', 'living_room_table']]}
    with FakeOpenAI([{'content': reply}]) as fake:
        qa = QuestionAnswerer(client(fake), LinkRetriever(), domain=world.domain.name)
        ans = qa.answer(world.kg, 'Is the red pen on a table?')  # not a "where" form
        req = fake.requests[0]
    system, user = req['messages'][0]['content'], req['messages'][1]['content']
    assert 'household robot' not in system and f'"{world.domain.name}" world' in system
    assert '[red_pen, placed_at_table, living_room_table]' in user
    assert len(user.splitlines()) < 60  # the linked entities' facts, not the whole KG
    cited = req['response_format']['json_schema']['schema']['properties']['facts']
    assert ['red_pen', 'placed_at_table', 'living_room_table'] in cited['items']['enum']
    assert all(tuple(t) in {f.triplet() for f in world.kg.facts} for t in cited['items']['enum'])
    assert ans.facts == [Fact('placed_at_table', ('red_pen', 'living_room_table'))]


def test_answer_naming_what_its_facts_do_not_say_is_replaced_by_the_facts(tmp_path):
    world = household_world(tmp_path)
    held = Fact('in_person_hand', ('red_pen', 'jerry'))
    world.apply(Update.of([Fact('placed_at_table', ('red_pen', 'living_room_table'))], [held]),
                source='test')
    reply = {'answer': 'Joshua holds the red pen; jerry holds the red pen.',
             'facts': [list(held.triplet())]}
    with FakeOpenAI([{'content': reply}]) as fake:
        ans = QuestionAnswerer(client(fake), FullRetriever(), schema=world.domain).answer(
            world.kg, 'Does somebody hold the red pen?')
    assert ans.text == "The red pen is in Jerry's hand." and ans.facts == [held]
    fine = {'answer': 'Jerry holds the red pen.', 'facts': [list(held.triplet())]}
    with FakeOpenAI([{'content': fine}]) as fake:
        ans = QuestionAnswerer(client(fake), FullRetriever()).answer(
            world.kg, 'Does somebody hold the red pen?')
    assert ans.text == 'Jerry holds the red pen.'


def test_where_and_who_has_are_answered_in_sentences_without_the_llm(tmp_path):
    world = household_world(tmp_path)
    held = Fact('in_person_hand', ('red_pen', 'jerry'))
    world.apply(Update.of([Fact('placed_at_table', ('red_pen', 'living_room_table'))], [held]),
                source='test')
    with FakeOpenAI([]) as fake:  # no reply scripted: any LLM call would fail the answer
        qa = QuestionAnswerer(client(fake), FullRetriever(), schema=world.domain,
                              constraints=world.constraints)
        ans = qa.answer(world.kg, 'Where is the red pen?')
        # and where the holder is: one hop along a fact an exactly-one rule keeps single
        assert ans.text == "The red pen is in Jerry's hand. Jerry is in the living room."
        assert ans.facts == [held, Fact('person_in_room', ('jerry', 'living_room'))]
        assert qa.answer(world.kg, 'who has the red pen').text == ans.text
        anna = qa.answer(world.kg, 'Where is Anna?')
        assert anna.text == "Anna is in Anna's bedroom."
        assert anna.facts == [Fact('person_in_room', ('anna', 'anna_bedroom'))]
        assert fake.requests == []


def test_goal_keeps_only_changes_unless_the_task_says_keep(tmp_path):
    world = household_world(tmp_path)
    d, kg = world.domain, world.kg
    light = next(f for f in kg.facts if f.predicate == 'light_on')
    held = f'({light.predicate} {light.args[0]})'
    goal = f'(and {held} (in_person_hand red_pen anna))'
    assert drop_held(d, kg, goal, TASK) == ('(and (in_person_hand red_pen anna))', [
        f'dropped {held} from the goal: it holds now and the task asks for a change'])
    assert drop_held(d, kg, goal, 'Give the pen to Anna and leave the light on.')[0] == goal
    # "leave it in the cradle" written as not in it: under a keep word only a negated
    # conjunct that holds is asked about, and turned when the task wants it
    off = next(f for f in kg.facts if f.predicate == 'person_in_room')
    other = next(r for r, t in kg.entities.items() if t == 'room' and r != off.args[1])
    neg = f'(not (person_in_room {off.args[0]} {other}))'
    leave = f'(and {held} {neg} (in_person_hand red_pen anna))'
    keep_text = 'Give the pen to Anna and leave the light on.'
    asked: list[Fact] = []
    assert drop_held(d, kg, leave, keep_text, lambda f: asked.append(f) or None)[0] == leave
    assert asked == [Fact('person_in_room', (off.args[0], other))]  # the positive is not asked
    turned, notes = drop_held(d, kg, leave, keep_text, lambda f: True)
    assert turned == (f'(and {held} (person_in_room {off.args[0]} {other}) '
                      '(in_person_hand red_pen anna))') and notes[0].startswith('negated')
    assert drop_held(d, kg, f'(and {held})', TASK)[0] == f'(and {held})'  # nothing else: kept
    # a one-entity or negated conjunct that holds is asked about: negated when not wanted,
    # kept when wanted (washing a dry shirt wets it: "dry" must stay in the goal)
    assert drop_held(d, kg, goal, TASK, lambda f: True) == (goal, [])
    flipped, notes = drop_held(d, kg, goal, TASK, lambda f: False)
    assert flipped == f'(and (not {held}) (in_person_hand red_pen anna))'
    assert notes[0].startswith(f'negated {held}: it holds now')
    # the schema sent for a task offers only the entities the task names
    with FakeOpenAI([{'content': GOOD}]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(TASK)
        schema = fake.requests[0]['response_format']['json_schema']['schema']
    assert out.status == 'solved', out.errors
    named = {e for branch in schema['properties']['goal']['items']['anyOf']
             for lit in branch.get('anyOf', []) for slot in lit['prefixItems'][1:]
             for e in slot.get('enum', [])}
    assert named == {'red_pen', 'anna'}, named
    assert named_types(d, 'Switch off the lights in every room.') >= {'light', 'room'}
    assert 'pen' in named_types(d, TASK) and not named_types(d, 'Do it now, please.')


def test_task_of_two_parts_is_asked_part_by_part(tmp_path):
    world = household_world(tmp_path)
    off = {'content': {'goal': [{'not': ['light_on', 'kitchen_light']}]}}
    give = {'content': {'goal': [['in_person_hand', 'red_pen', 'anna']]}}
    text = 'Switch off the kitchen light and give the red pen to Anna.'
    with FakeOpenAI([off, give]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(text)
        asked = [r['messages'][-1]['content'] for r in fake.requests]
    assert len(asked) == 2 and all(f'Whole task: {text}' in a for a in asked)
    assert 'Task: Switch off the kitchen light\n' in asked[0]
    assert 'Task: give the red pen to Anna.\n' in asked[1]
    assert out.status == 'solved' and out.attempts == 1, out.errors
    assert out.goal == '(and (not (light_on kitchen_light)) (in_person_hand red_pen anna))'
    assert out.usage.calls == 2
    # a part that describes ("it is ...") is no request: the request is asked, the whole
    # task beside it (a small model writes "it is ringing" into the goal otherwise)
    said = 'Give the red pen to Anna, it is on the table.'
    with FakeOpenAI([give]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(said)
        asked = [r['messages'][-1]['content'] for r in fake.requests]
    assert len(asked) == 1 and 'Task: Give the red pen to Anna\n' in asked[0]
    assert f'Whole task: {said}' in asked[0]
    assert out.status == 'solved', out.errors
    # a task of one request is asked at once
    with FakeOpenAI([give]) as fake:
        out = TaskPlanner(world, client(fake), LinkRetriever(), _planner(world)).run(TASK)
        asked = [r['messages'][-1]['content'] for r in fake.requests]
    assert len(asked) == 1 and f'Task: {TASK}\n' in asked[0] and 'Whole task' not in asked[0]


def test_goal_conjuncts_a_rule_forbids_together_are_settled_by_asking(tmp_path):
    world = household_world(tmp_path)
    both = {'content': {'goal': [['in_person_hand', 'red_pen', 'anna'],
                                 ['placed_at_table', 'red_pen', 'jerry_bedroom_table']]}}
    yes, no = {'content': {'answer': 'yes'}}, {'content': {'answer': 'no'}}
    with FakeOpenAI([both, yes, no]) as fake:
        out = TaskPlanner(world, client(fake), FullRetriever(), _planner(world),
                          TaskSettings(resolve_mentions=False)).run(TASK)
        asked = [r['messages'][-1]['content'] for r in fake.requests[1:]]
    assert out.status == 'solved' and out.attempts == 1, out.errors
    assert out.goal == '(and (in_person_hand red_pen anna))'
    assert 'red pen is in hand anna?' in asked[0] and 'jerry bedroom table?' in asked[1]
    assert 'does not read it in the task' in out.history[-1]['notes'][0]


def test_a_retrieval_that_asked_the_llm_counts_in_the_tasks_usage(tmp_path):
    from l3mp_ros.retrieval.base import Retrieval

    world = household_world(tmp_path)
    give = {'content': {'goal': [['in_person_hand', 'red_pen', 'anna']]}}
    searched = Retrieval(facts=set(world.kg.facts), prompt_tokens=40, completion_tokens=9,
                         llm_seconds=0.5)
    with FakeOpenAI([give]) as fake:
        out = TaskPlanner(world, client(fake), None, _planner(world)).run(
            TASK, retrieval=searched)
    assert out.status == 'solved', out.errors
    assert out.usage.calls == 2 and out.to_json()['llm_calls'] == 2  # goal + query graph
    assert out.usage.prompt_tokens >= 40 and out.usage.completion_tokens >= 9
    with FakeOpenAI([give]) as fake:  # a retrieval without the LLM costs no call
        out = TaskPlanner(world, client(fake), None, _planner(world)).run(
            TASK, retrieval=Retrieval(facts=set(world.kg.facts)))
    assert out.usage.calls == 1
