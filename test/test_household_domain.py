# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The shipped PDDL domains: they parse, their states are consistent, their tasks plan.

Problems come from ``l3mp_ros.planning.up_problem.build_problem`` (the whole state as
``:init``); the small constraint checker below is independent of the verifier on purpose.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from unified_planning.engines import PlanGenerationResultStatus
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import (
    FluentExp,
    OneshotPlanner,
    PlanValidator,
    SequentialSimulator,
    get_environment,
)

from l3mp_ros.planning import up_problem
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / 'data'
DOMAINS = {
    'household': (
        ROOT / 'pddl' / 'household.pddl',
        ROOT / 'pddl' / 'household.constraints.yaml',
        ROOT / 'config' / 'household_state.json',
    ),
    'office': (
        DATA / 'office.pddl',
        DATA / 'office.constraints.yaml',
        DATA / 'office_state.json',
    ),
}
UNSOLVABLE = (
    PlanGenerationResultStatus.UNSOLVABLE_PROVEN,
    PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY,
)

get_environment().credits_stream = None


@pytest.fixture(autouse=True)
def _private_cwd(tmp_path, monkeypatch):
    # Fast Downward's driver writes output.sas into the working directory: two runs sharing
    # one directory (parallel test sessions) read each other's task.
    monkeypatch.chdir(tmp_path)


# ---------------------------------------------------------------- helpers


def up_domain_text(path: Path) -> str:
    """Return the domain text with `(either ...)` replaced by `object` (UP 1.3 lacks it)."""
    return re.sub(r'\(\s*either\s[^()]*\)', 'object', path.read_text(), flags=re.IGNORECASE)


def load_state(path: Path) -> dict:
    state = json.loads(path.read_text())
    assert state['schema'] == 'l3mp/kg/v1'
    return state


def state_facts(state: dict) -> list[tuple[str, tuple[str, ...]]]:
    """Return the state's facts as (predicate, args)."""
    facts = []
    for s, p, o in state['facts']:
        facts.append((p, (s,) if o == 'true' else (s, o)))
    return facts


@functools.cache
def _world(name: str) -> tuple[DomainSchema, KnowledgeGraph]:
    domain_path, _, state_path = DOMAINS[name]
    return DomainSchema.load(domain_path), KnowledgeGraph.loads(state_path.read_text())


def build_problem(name: str, goal: str):
    """Return the whole state of `name` (every entity an object) with `goal`."""
    domain, kg = _world(name)
    return up_problem.build_problem(domain, kg, kg.facts, goal, name=f'{name}_test',
                                    extra_objects=kg.entities)


def solve(name: str, goal: str):
    problem = build_problem(name, goal)
    with OneshotPlanner(name='fast-downward') as planner:
        result = planner.solve(problem, timeout=30)
    return problem, result


def final_facts(problem, plan) -> set[tuple[str, tuple[str, ...]]]:
    """Execute the plan with UP's simulator; return every true fact of the final state."""
    with SequentialSimulator(problem) as sim:
        state = sim.get_initial_state()
        for ai in plan.actions:
            assert sim.is_applicable(state, ai), f'not applicable: {ai}'
            state = sim.apply(state, ai)
        true: set[tuple[str, tuple[str, ...]]] = set()
        for fluent in problem.fluents:
            groundings: list[tuple] = [()]
            for param in fluent.signature:
                objs = list(problem.objects(param.type))
                groundings = [g + (o,) for g in groundings for o in objs]
            for g in groundings:
                if state.get_value(FluentExp(fluent, g)).bool_constant_value():
                    true.add((fluent.name, tuple(o.name for o in g)))
        return true


def type_ancestors(problem) -> dict[str, set[str]]:
    """Map each user type to itself plus all its supertypes."""
    out = {}
    for t in problem.user_types:
        names, cur = set(), t
        while cur is not None:
            names.add(cur.name)
            cur = cur.father
        out[t.name] = names
    return out


def check_constraints(
    rules_path: Path, entities: dict[str, str], facts, ancestors: dict[str, set[str]]
) -> list[str]:
    """Check a set of facts against the YAML rules; return readable violations."""
    doc = yaml.safe_load(rules_path.read_text())
    errors = []
    for rule in doc['rules']:
        key = rule['key']
        types = set(rule.get('types', []))

        def wanted(entity, types=types):
            return not types or bool(ancestors[entities[entity]] & types)

        if rule['kind'] in ('functional', 'exclusive'):
            group = set(rule['predicates'])
            found: dict[str, list] = defaultdict(list)
            for p, args in facts:
                if p in group and len(args) > key and wanted(args[key]):
                    found[args[key]].append((p, args))
            for entity, hits in sorted(found.items()):
                count = len(hits) if rule['kind'] == 'functional' else len({p for p, _ in hits})
                if count > 1:
                    errors.append(f'{rule["name"]}: {entity}: {rule["description"]} {hits}')
            if rule['kind'] == 'functional' and rule.get('exactly'):
                assert types, f'{rule["name"]}: exactly needs types'
                for entity in sorted(entities):
                    if wanted(entity) and entity not in found:
                        errors.append(f'{rule["name"]}: {entity}: {rule["description"]} (none)')
        elif rule['kind'] == 'requires':
            have = {args[key] for p, args in facts if p in rule['then'] and len(args) > key}
            for p, args in facts:
                if p in rule['if'] and args[key] not in have and wanted(args[key]):
                    errors.append(f'{rule["name"]}: {args[key]}: {rule["description"]}')
        else:
            errors.append(f'{rule["name"]}: unknown kind {rule["kind"]}')
    return errors


def check_plan(name: str, goal: str) -> None:
    """Plan the goal, validate the plan, and check the final state against the rules."""
    problem, result = solve(name, goal)
    assert result.status in (
        PlanGenerationResultStatus.SOLVED_SATISFICING,
        PlanGenerationResultStatus.SOLVED_OPTIMALLY,
    ), f'{goal}: {result.status}'
    assert result.plan is not None and len(result.plan.actions) > 0
    with PlanValidator(name='sequential_plan_validator') as validator:
        assert validator.validate(problem, result.plan).status.name == 'VALID'
    _, rules_path, state_path = DOMAINS[name]
    entities = {e['name']: e['type'] for e in load_state(state_path)['entities']}
    end = final_facts(problem, result.plan)
    assert check_constraints(rules_path, entities, end, type_ancestors(problem)) == []


# ---------------------------------------------------------------- parsing


@pytest.mark.parametrize('name', sorted(DOMAINS))
def test_domain_parses(name):
    domain_path = DOMAINS[name][0]
    if 'either' in domain_path.read_text():  # UP 1.3 cannot read `either`
        problem = PDDLReader().parse_problem_string(up_domain_text(domain_path))
    else:
        problem = PDDLReader().parse_problem(domain_path)
    assert problem.name
    assert problem.fluents and problem.actions


def test_household_schema():
    problem = PDDLReader().parse_problem(DOMAINS['household'][0])
    ancestors = type_ancestors(problem)
    assert {'item', 'food', 'perishable'} <= ancestors['perishable']
    assert {'furniture', 'sink'} <= ancestors['kitchensink']
    assert {'kitchenware', 'item'} <= ancestors['glass']
    names = {f.name for f in problem.fluents}
    assert {
        'placed_at_table', 'placed_at_shelf', 'on_shelf_level', 'shelf_has_level',
        'placed_at_fridge', 'placed_at_pantry', 'placed_at_kitchensink', 'placed_at_washer',
        'placed_at_dryer', 'placed_at_laundrybasket', 'in_person_hand', 'in_agent_hand',
        'person_in_room', 'agent_in_room', 'room_has', 'light_on', 'window_open', 'faucet_on',
        'phone_ringing', 'tv_on', 'tv_playing_channel', 'cloth_is_clean', 'cloth_is_dry',
        'dish_is_clean', 'glass_empty', 'glass_has_liquid',
    } <= names
    for fluent in problem.fluents:
        assert fluent.name == fluent.name.lower()


def test_office_type_depth():
    problem = PDDLReader().parse_problem_string(up_domain_text(DOMAINS['office'][0]))
    ancestors = type_ancestors(problem)
    assert ancestors['urgent_letter'] - {'object'} == {'urgent_letter', 'letter', 'mail'}
    assert ancestors['office'] - {'object'} == {'office', 'room', 'area'}
    assert 'either' in DOMAINS['office'][0].read_text()


# ---------------------------------------------------------------- states and rules


@pytest.mark.parametrize('name', sorted(DOMAINS))
def test_state_is_well_typed_and_consistent(name):
    domain_path, rules_path, state_path = DOMAINS[name]
    state = load_state(state_path)
    assert state['domain'] == name
    names = [e['name'] for e in state['entities']]
    assert len(names) == len(set(names)), 'duplicate entity'
    entities = {e['name']: e['type'] for e in state['entities']}
    problem = build_problem(name, '(and)')  # UP checks argument types against the domain
    ancestors = type_ancestors(problem)
    assert set(entities.values()) <= set(ancestors)
    reserved = set(ancestors) | {f.name for f in problem.fluents}
    reserved |= {a.name for a in problem.actions}
    assert not reserved & set(entities), 'UP needs entity names unlike type/predicate names'
    facts = state_facts(state)
    assert len(facts) == len(set(facts)), 'duplicate fact'
    fluents = {f.name: f for f in problem.fluents}
    for p, args in facts:
        assert p in fluents, p
        assert len(args) == fluents[p].arity, (p, args)
        assert all(a in entities for a in args), (p, args)
    assert check_constraints(rules_path, entities, facts, ancestors) == []


def test_checker_catches_violations():
    _, rules_path, state_path = DOMAINS['household']
    state = load_state(state_path)
    entities = {e['name']: e['type'] for e in state['entities']}
    ancestors = type_ancestors(build_problem('household', '(and)'))
    facts = state_facts(state)
    bad = [f for f in facts if f != ('on_shelf_level', ('book_dune', 'living_room_shelf_level_1'))]
    bad += [
        ('in_agent_hand', ('red_pen', 'the_robot')),
        ('glass_empty', ('juice_glass',)),
        ('agent_in_room', ('the_robot', 'kitchen')),
    ]
    bad = [f for f in bad if f != ('person_in_room', ('helen', 'kitchen'))]
    errors = check_constraints(rules_path, entities, bad, ancestors)
    rules = {e.split(':')[0] for e in errors}
    assert rules == {
        'item_location', 'shelf_item_has_level', 'glass_contents', 'agent_location',
        'person_location',
    }


# ---------------------------------------------------------------- planning

HOUSEHOLD_GOALS = {
    'item_on_table': '(placed_at_table book_dune jerry_bedroom_table)',
    'book_on_shelf_level': '(and (placed_at_shelf book_hamlet living_room_shelf)'
    ' (on_shelf_level book_hamlet living_room_shelf_level_3))',
    'hand_to_person': '(in_person_hand red_pen helen)',
    'take_and_hand': '(in_person_hand black_pen anna)',
    'light_on': '(light_on jerry_bedroom_light)',
    'window_open': '(window_open anna_bedroom_window)',
    'faucet_off': '(not (faucet_on bathroom_sink))',
    'wash_dish': '(dish_is_clean dinner_plate)',
    'fill_glass': '(and (glass_has_liquid drinking_glass orange_juice)'
    ' (in_person_hand drinking_glass jerry))',
    'empty_glass': '(glass_empty juice_glass)',
    'answer_phone': '(not (phone_ringing helen_phone))',
    'laundry_cycle': '(and (cloth_is_clean black_jeans) (cloth_is_dry black_jeans)'
    ' (placed_at_laundrybasket black_jeans laundry_basket))',
    'tv_channel': '(and (tv_on anna_bedroom_tv)'
    ' (tv_playing_channel anna_bedroom_tv news_channel))',
    'food_back': '(and (placed_at_fridge cheese kitchen_fridge) (placed_at_table milk'
    ' living_room_table))',
}


@pytest.mark.parametrize('task', sorted(HOUSEHOLD_GOALS))
def test_household_task_is_solvable(task):
    check_plan('household', HOUSEHOLD_GOALS[task])


@pytest.mark.parametrize(
    'goal',
    [
        '(placed_at_pantry milk kitchen_pantry)',  # perishables never go to the pantry
        '(placed_at_fridge rice kitchen_fridge)',  # non-perishables never go to the fridge
        '(in_person_hand bathroom_sink anna)',  # furniture is not an item: ill-typed
    ],
)
def test_household_impossible_goal(goal):
    if 'bathroom_sink anna' in goal:
        with pytest.raises(Exception):  # noqa: B017  UP rejects the ill-typed goal
            build_problem('household', goal)
        return
    _, result = solve('household', goal)
    assert result.status in UNSOLVABLE
    assert result.plan is None


OFFICE_GOALS = {
    'letter': '(delivered letter_1 alice)',
    'locked_door': '(delivered memo_2 bob)',
    'parcel': '(and (delivered parcel_3 carol) (signed_for parcel_3))',
}


@pytest.mark.parametrize('task', sorted(OFFICE_GOALS))
def test_office_task_is_solvable(task):
    check_plan('office', OFFICE_GOALS[task])


def test_office_impossible_goal():
    _, result = solve('office', '(delivered letter_1 bob)')  # addressed to alice
    assert result.status in UNSOLVABLE
