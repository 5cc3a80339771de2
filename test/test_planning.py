# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Planning from the KG: goal parsing, problem building, widening, validation, execution, CLI.

Real planners (LAPKT, Fast Downward) on the shipped household state and the office domain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from unified_planning.shortcuts import FluentExp, SequentialSimulator

from l3mp_ros.cli import main
from l3mp_ros.planning.engines import ENGINES
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import PLAN_SCHEMA, Planner, plan_on
from l3mp_ros.planning.problem import GoalError, goal_holds, goal_objects, parse_goal
from l3mp_ros.planning.up_problem import agent_types, build_problem
from l3mp_ros.schemas import validate
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.store import Store

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / 'data'
HOUSEHOLD = ROOT / 'pddl' / 'household.pddl'


@pytest.fixture(autouse=True)
def _private_cwd(tmp_path, monkeypatch):
    # Fast Downward's driver writes output.sas into the working directory.
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope='module')
def house():
    return DomainSchema.load(HOUSEHOLD)


@pytest.fixture
def kg():
    return KnowledgeGraph.loads((ROOT / 'config' / 'household_state.json').read_text())


@pytest.fixture(scope='module')
def office():
    domain = DomainSchema.load(DATA / 'office.pddl')
    return domain, KnowledgeGraph.loads((DATA / 'office_state.json').read_text())


TASKS = {
    'place_item': '(placed_at_table book_dune jerry_bedroom_table)',
    'hand_item': '(in_person_hand red_pen helen)',
    'light_on': '(light_on jerry_bedroom_light)',
    'light_off': '(not (light_on kitchen_light))',
    'window': '(window_open anna_bedroom_window)',
    'faucet_off': '(not (faucet_on bathroom_sink))',
    'wash_dish': '(dish_is_clean dinner_plate)',
    'laundry_cycle': '(and (cloth_is_clean black_jeans) (cloth_is_dry black_jeans)'
                     ' (placed_at_laundrybasket black_jeans laundry_basket))',
    'fill_glass': '(and (glass_has_liquid drinking_glass orange_juice)'
                  ' (in_person_hand drinking_glass jerry))',
    'answer_phone': '(not (phone_ringing helen_phone))',
}


def assert_valid_on_kg(domain, kg, goal, steps):
    """The plan runs on the whole KG and reaches the goal (both by UP and by execute_plan)."""
    full = build_problem(domain, kg, kg.facts, goal)
    from l3mp_ros.planning import engines
    valid, reason = engines.validate(full, plan_on(full, steps))
    assert valid, reason
    run = execute_plan(domain, kg, steps)
    assert run.ok, run.error
    assert goal_holds(domain, run.kg, goal)


# ---------------------------------------------------------------- solving


@pytest.mark.parametrize('engine', ['lapkt', 'fast-downward'])
@pytest.mark.parametrize('task', sorted(TASKS))
def test_household_task(house, kg, engine, task):
    goal = TASKS[task]
    result = Planner(house, engine=engine, timeout=60).plan(kg, goal, context='auto')
    assert result.status == 'solved', (result.errors, result.attempts)
    assert result.steps and result.engine == engine
    assert result.widening in ('context', 'neighbours', 'types', 'full')
    assert set(result.timings) >= {'build', 'plan', 'validate', 'total'}
    assert result.problem_size['objects'] < len(kg.entities) or result.widening == 'full'
    assert_valid_on_kg(house, kg, goal, result.steps)


def test_auto_context_is_small_and_enough(house, kg):
    result = Planner(house, engine='fast-downward').plan(kg, TASKS['place_item'])
    assert result.widening == 'context'
    assert result.problem_size['init'] < len(kg.facts) / 2


def test_widening_when_context_lacks_a_fact(house, kg):
    goal = TASKS['place_item']
    context = kg.facts_of('book_dune')  # not even the shelf's room: unsolvable as given
    result = Planner(house, engine='fast-downward').plan(kg, goal, context=context)
    assert result.status == 'solved'
    assert result.widening != 'context'
    assert result.attempts[0]['widening'] == 'context'
    assert result.attempts[0]['status'] == 'unsolvable'
    assert_valid_on_kg(house, kg, goal, result.steps)


def test_widening_when_plan_is_invalid_on_whole_kg(house, kg):
    # The context misses (faucet_on bathroom_sink): the goal looks true, the empty plan is
    # found, and validation on the whole KG rejects it.
    goal = TASKS['faucet_off']
    context = {Fact('room_has', ('bathroom', 'bathroom_sink'))}
    result = Planner(house, engine='fast-downward').plan(kg, goal, context=context)
    assert result.status == 'solved'
    assert result.attempts[0]['valid'] is False
    assert result.widening != 'context'
    assert '(turn_off_faucet the_robot bathroom_sink bathroom)' in result.steps


def test_full_context(house, kg):
    result = Planner(house, engine='fast-downward').plan(kg, TASKS['window'], context='full')
    assert result.status == 'solved' and result.widening == 'full'
    assert result.problem_size['init'] == len(kg.facts)


def test_quantified_goal(house, kg):
    goal = '(forall (?d - kitchenware) (dish_is_clean ?d))'
    result = Planner(house, engine='lapkt').plan(kg, goal)
    assert result.status == 'solved'
    assert_valid_on_kg(house, kg, goal, result.steps)


@pytest.mark.parametrize('engine', ENGINES)
def test_exists_goal_on_every_engine(house, kg, engine):
    # pyperplan used to fail: DISJUNCTIVE_CONDITIONS left after compiling the quantifier
    goal = '(exists (?p - person) (in_person_hand red_pen ?p))'
    result = Planner(house, engine=engine).plan(kg, goal)
    assert result.status == 'solved', result.errors
    assert_valid_on_kg(house, kg, goal, result.steps)


def test_already_satisfied(house, kg):
    result = Planner(house).plan(kg, '(and (light_on kitchen_light) (tv_on living_room_tv))')
    assert result.status == 'already_satisfied'
    assert result.steps == [] and result.ok
    assert result.to_json()['status'] == 'already_satisfied'


@pytest.mark.parametrize('engine, context', [('lapkt', 'full'), ('fast-downward', 'auto')])
def test_unsolvable(house, kg, engine, context):
    goal = '(placed_at_pantry milk kitchen_pantry)'  # perishables never go to the pantry
    result = Planner(house, engine=engine).plan(kg, goal, context=context)
    assert result.status == 'unsolvable'
    assert result.steps == []
    assert [a['widening'] for a in result.attempts][-1] == 'full'
    assert all(a['status'] == 'unsolvable' for a in result.attempts)
    assert result.proven is not None
    assert any('no plan exists' in e for e in result.errors)


def test_timeout(house, kg):
    goal = ('(and (forall (?d - kitchenware) (dish_is_clean ?d))'
            ' (forall (?c - cloth) (and (cloth_is_clean ?c) (cloth_is_dry ?c)))'
            ' (forall (?l - light) (light_on ?l)) (forall (?w - window) (window_open ?w)))')
    result = Planner(house, engine='fast-downward').plan(kg, goal, timeout=0.05)
    assert result.status == 'timeout', (result.status, result.errors)
    assert result.steps == []
    assert result.timings['total'] < 10


def test_plan_json(house, kg):
    result = Planner(house, engine='fast-downward').plan(kg, TASKS['light_on'])
    doc = result.to_json(task_id='t1', utterance="turn on the light in jerry's bedroom")
    assert doc['schema'] == PLAN_SCHEMA == 'l3mp/plan/v1'
    assert doc['task_id'] == 't1' and doc['status'] == 'solved'
    assert doc['steps'] == result.steps and doc['widening'] == 'context'
    assert doc['goal'] == '(light_on jerry_bedroom_light)'
    json.dumps(doc)


# ---------------------------------------------------------------- goal parsing


@pytest.mark.parametrize('text', [
    '(:goal (and (light_on jerry_bedroom_light) (window_open anna_bedroom_window)))',
    '(and (light_on jerry_bedroom_light) (window_open anna_bedroom_window))',
    'Here is the goal:\n```pddl\n(:goal (and (light_on jerry_bedroom_light)\n'
    '  (window_open anna_bedroom_window)))\n```\nThis turns the light on :)',
    '(define (problem p) (:domain household) (:objects) (:init)\n'
    ' (:goal (and (LIGHT_ON jerry_bedroom_light) (window_open anna_bedroom_window))))',
])
def test_goal_forms(house, kg, text):
    goal = parse_goal(house, kg, text)
    assert goal.text == '(and (light_on jerry_bedroom_light) (window_open anna_bedroom_window))'
    assert goal_objects(goal) == {'jerry_bedroom_light', 'anna_bedroom_window'}


def test_goal_connectives(house, kg):
    assert goal_holds(house, kg, '(light_on kitchen_light)')
    assert not goal_holds(house, kg, '(not (light_on kitchen_light))')
    assert goal_holds(house, kg, '(or (light_on jerry_bedroom_light) (light_on kitchen_light))')
    assert not goal_holds(house, kg, '(forall (?d - kitchenware) (dish_is_clean ?d))')
    assert goal_holds(house, kg, '(exists (?d - kitchenware) (dish_is_clean ?d))')
    assert goal_holds(house, kg, '(forall (?c - cloth) (imply (placed_at_dryer ?c '
                                 'laundry_room_dryer) (cloth_is_dry ?c)))')
    goal = parse_goal(house, kg, '(exists (?p - person) (in_person_hand red_pen ?p))')
    assert goal.quantified_types == {'person'} and goal_objects(goal) == {'red_pen'}
    result = Planner(house, engine='fast-downward').plan(kg, goal)
    assert result.status == 'solved'
    assert_valid_on_kg(house, kg, goal, result.steps)


@pytest.mark.parametrize('text, words', [
    ('(and (light_onn kitchen_light))', ['unknown predicate "light_onn"', 'light_on']),
    ('(light_on kitchen_lamp)', ['unknown object "kitchen_lamp"', 'kitchen_light']),
    ('(placed_at_table book_dune)', ['has 1 argument but placed_at_table takes 2']),
    ('(in_person_hand bathroom_sink anna)', ['"bathroom_sink" is a bathroomsink',
                                             'must be an item']),
    ('turn on the light please', ['no PDDL formula']),
    ('(and (light_on kitchen_light)', ['unbalanced parentheses']),
    ('', ['empty']),
    ('(forall (?x - gadget) (light_on ?x))', ['unknown type "gadget"']),
    ('(light_on ?x)', ['variable ?x', 'not bound']),
    ('(and light_on)', ['bare word "light_on"']),
])
def test_malformed_goal(house, kg, text, words):
    with pytest.raises(GoalError) as exc:
        parse_goal(house, kg, text)
    joined = ' '.join(exc.value.errors)
    for w in words:
        assert w in joined, joined
    result = Planner(house).plan(kg, text)
    assert result.status == 'invalid_goal' and result.errors == exc.value.errors


def test_goal_errors_are_all_listed(house, kg):
    with pytest.raises(GoalError) as exc:
        parse_goal(house, kg, '(and (fooo a) (light_on bathroom_sink) (light_on x y))')
    assert len(exc.value.errors) >= 4


# ---------------------------------------------------------------- problem building


def test_build_problem_objects(house, kg):
    assert agent_types(house) == {'agent'}
    goal = '(light_on jerry_bedroom_light)'
    problem = build_problem(house, kg, set(), goal)
    names = {o.name for o in problem.all_objects}
    assert names == {'the_robot', 'living_room', 'jerry_bedroom_light'}
    init = {str(k) for k, v in problem.explicit_initial_values.items() if v.is_true()}
    assert init == {'agent_in_room(the_robot, living_room)'}


# ---------------------------------------------------------------- execution


def simulate(domain, kg, steps):
    """Final facts by UP's own simulator (the reference semantics)."""
    problem = build_problem(domain, kg, kg.facts, '(and)')
    plan = plan_on(problem, steps)
    with SequentialSimulator(problem) as sim:
        state = sim.get_initial_state()
        for ai in plan.actions:
            state = sim.apply(state, ai)
        true = set()
        for fluent in problem.fluents:
            groundings = [()]
            for param in fluent.signature:
                groundings = [g + (o,) for g in groundings for o in problem.objects(param.type)]
            for g in groundings:
                if state.get_value(FluentExp(fluent, g)).bool_constant_value():
                    true.add(Fact(fluent.name, tuple(o.name for o in g)))
    return true


WASH = [
    '(move_to_room the_robot living_room laundry_room)',
    '(remove_from_laundrybasket the_robot black_jeans laundry_basket laundry_room)',
    '(place_at_washer the_robot black_jeans laundry_room_washer laundry_room)',
    '(run_washer_cycle the_robot laundry_room_washer laundry_room)',
]


def test_execute_conditional_effects(house, kg):
    before = kg.copy()
    run = execute_plan(house, kg, WASH)
    assert run.ok and run.failed_step is None and len(run.steps) == 4
    cycle = run.steps[-1].update
    assert cycle.add == {Fact('cloth_is_clean', ('black_jeans',))}
    assert cycle.remove == {Fact('cloth_is_dry', ('black_jeans',))}
    assert Fact('cloth_is_clean', ('red_sweater',)) in run.kg  # also in the washer, still clean
    assert Fact('cloth_is_dry', ('green_towel',)) in run.kg  # in the dryer: untouched
    assert kg.facts == before.facts  # the input KG is not modified
    assert set(run.kg.facts) == simulate(house, kg, WASH)
    assert before.diff_to(run.kg) == run.update


def test_execute_matches_up_simulator(house, kg):
    steps = Planner(house, engine='fast-downward').plan(kg, TASKS['fill_glass']).steps
    assert set(execute_plan(house, kg, steps).kg.facts) == simulate(house, kg, steps)
    tv = ['(move_to_room the_robot living_room anna_bedroom)',
          '(take_from_person the_robot anna_bedroom_tv_remote anna anna_bedroom)',
          '(turn_on_tv the_robot anna_bedroom_tv anna_bedroom_tv_remote anna_bedroom)',
          '(switch_tv_channel the_robot anna_bedroom_tv anna_bedroom_tv_remote news_channel '
          'anna_bedroom)']
    run = execute_plan(house, kg, tv)
    assert run.ok, run.error
    assert Fact('tv_playing_channel', ('anna_bedroom_tv', 'news_channel')) in run.kg
    assert Fact('tv_playing_channel', ('anna_bedroom_tv', 'cartoon_channel')) not in run.kg
    assert set(run.kg.facts) == simulate(house, kg, tv)


@pytest.mark.parametrize('steps, words', [
    (['(move_to_room the_robot living_room kitchen)',
      '(move_to_room the_robot bathroom kitchen)'],
     ['step 2', 'precondition (agent_in_room the_robot bathroom) does not hold']),
    (['(turn_off_light the_robot jerry_bedroom_light jerry_bedroom)'],
     ['(agent_in_room the_robot jerry_bedroom)']),
    (['(fly the_robot kitchen)'], ['unknown action "fly"']),
    (['(move_to_room the_robot living_room attic)'], ['unknown object "attic"']),
    (['(move_to_room the_robot kitchen)'], ['takes 3 arguments']),
    (['(move_to_room the_robot living_room red_pen)'], ['must be a room', 'is a pen']),
])
def test_execute_reports_failures(house, kg, steps, words):
    run = execute_plan(house, kg, steps)
    assert not run.ok
    assert run.failed_step == len(steps) - 1
    assert not run.steps[-1].ok
    for w in words:
        assert w in run.error, run.error
    # the steps before the failure are kept in the final KG
    assert len(run.steps) == len(steps)
    assert run.kg.facts == (kg.facts - run.update.remove) | run.update.add


# ---------------------------------------------------------------- second domain


@pytest.mark.parametrize('goal', [
    '(delivered letter_1 alice)',
    '(delivered memo_2 bob)',
    '(and (delivered parcel_3 carol) (signed_for parcel_3))',
])
def test_office_domain(office, goal):
    domain, kg = office
    assert agent_types(domain) == {'robot'}
    result = Planner(domain, engine='lapkt').plan(kg, goal)
    assert result.status == 'solved', (result.errors, result.attempts)
    assert_valid_on_kg(domain, kg, goal, result.steps)


def test_office_errors_and_unsolvable(office):
    domain, kg = office
    with pytest.raises(GoalError, match='must be a parcel'):
        parse_goal(domain, kg, '(signed_for letter_1)')
    result = Planner(domain, engine='fast-downward').plan(kg, '(delivered letter_1 bob)')
    assert result.status == 'unsolvable'


# ---------------------------------------------------------------- CLI


@pytest.fixture
def store(tmp_path, kg):
    path = tmp_path / 'kg.db'
    Store.create(path, kg, domain_path=str(HOUSEHOLD)).close()
    return str(path)


def test_cli_plan(store, capsys):
    code = main(['plan', '--store', store, '--goal', '(light_on jerry_bedroom_light)',
                 '--engine', 'fast-downward'])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out == ['(move_to_room the_robot living_room jerry_bedroom)',
                   '(turn_on_light the_robot jerry_bedroom_light jerry_bedroom)']
    code = main(['plan', '--store', store, '--goal', '(window_open anna_bedroom_window)',
                 '--engine', 'fast-downward', '--context', 'full', '--json'])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc['schema'] == 'l3mp/plan/v1' and doc['widening'] == 'full'
    assert validate('plan', doc) == [] and doc['task_id'].startswith('cli-')
    main(['plan', '--store', store, '--goal', '(light_on kitchen_lamp)', '--json',
          '--task-id', 't7'])
    doc = json.loads(capsys.readouterr().out)
    assert validate('plan', doc) == [] and doc['task_id'] == 't7'


def test_cli_exit_codes(store, tmp_path, capsys):
    assert main(['plan', '--store', store, '--goal', '(light_on kitchen_light)']) == 0
    assert 'already holds' in capsys.readouterr().out
    assert main(['plan', '--store', store, '--goal', '(placed_at_pantry milk kitchen_pantry)',
                 '--engine', 'fast-downward', '--context', 'full']) == 1
    assert 'unsolvable' in capsys.readouterr().err
    assert main(['plan', '--store', store, '--goal', '(light_on kitchen_lamp)']) == 2
    err = capsys.readouterr().err
    assert 'invalid goal' in err and 'kitchen_lamp' in err
    assert main(['plan', '--store', store, '--goal', '(light_on kitchen_lamp)', '--json']) == 2
    assert json.loads(capsys.readouterr().out)['status'] == 'invalid_goal'
    assert main(['plan', '--store', str(tmp_path / 'none.db'), '--goal', '(and)']) == 2
    assert main(['plan', '--store', store, '--goal', '(light_on jerry_bedroom_light)',
                 '--timeout', '0']) == 2
