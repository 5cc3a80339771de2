# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Bring your own PDDL (issue 44): problem files in and out, durative domains, costs, quirks.

Round trip: a KG written as a problem file is read back by unified-planning's reader to the
same objects and atoms, imported again to the same KG, and Fast Downward (its own driver, on
the domain file as written) plans on it a plan that UP's validator accepts on our problem.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from unified_planning.io import PDDLReader, PDDLWriter

from l3mp_ros.cli import main
from l3mp_ros.planning import engines
from l3mp_ros.planning.planner import Planner, plan_on
from l3mp_ros.planning.up_problem import build_problem
from l3mp_ros.world.domain import DURATIVE_NOTE, DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph, Update
from l3mp_ros.world.pddl import normalise_domain
from l3mp_ros.world.problem_file import ProblemImportError, kg_from_problem, problem_text
from l3mp_ros.world.store import Store

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / 'data'


@pytest.fixture(autouse=True)
def _private_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # Fast Downward's driver writes output.sas in the cwd


def _ai2thor_kg() -> KnowledgeGraph:
    from l3mp_ros.ai2thor.scene_graph import SceneGraphExtractor

    house = json.loads((DATA / 'ai2thor' / 'house.json').read_text())
    meta = json.loads((DATA / 'ai2thor' / 'nested_metadata.json').read_text())
    graph = SceneGraphExtractor(ROOT / 'config' / 'ai2thor_types.yaml', house).extract(meta)
    return KnowledgeGraph.from_json({'schema': 'l3mp/kg/v1', 'domain': 'ai2thor',
                                     'entities': graph['entities'], 'facts': graph['facts']})


def _from_problem(domain_file: str, problem_file: str) -> KnowledgeGraph:
    domain = DomainSchema.load(DATA / domain_file)
    return kg_from_problem(domain, (DATA / problem_file).read_text()).kg


WORLDS = {
    'household': (ROOT / 'pddl' / 'household.pddl',
                  lambda: KnowledgeGraph.loads((ROOT / 'config' / 'household_state.json')
                                               .read_text()),
                  '(and (light_on jerry_bedroom_light) (not (light_on kitchen_light)))'),
    'office': (DATA / 'office.pddl',
               lambda: KnowledgeGraph.loads((DATA / 'office_state.json').read_text()), None),
    'ai2thor': (ROOT / 'pddl' / 'ai2thor.pddl', _ai2thor_kg, None),
    'depot_costs': (DATA / 'depot_costs.pddl',
                    lambda: _from_problem('depot_costs.pddl', 'depot_costs_p1.pddl'),
                    '(and (at c1 depot) (at c2 shop))'),
    'patrol_durative': (DATA / 'patrol_durative.pddl',
                        lambda: _from_problem('patrol_durative.pddl',
                                              'patrol_durative_p1.pddl'),
                        '(and (inspected wp2) (robot_at rob base))'),
}


def _fast_downward(domain: Path, problem: Path, tmp: Path) -> list[str]:
    """Run Fast Downward's own driver (as a user would, on the files) and return the plan."""
    import up_fast_downward

    driver = Path(up_fast_downward.__file__).parent / 'downward' / 'fast-downward.py'
    plan = tmp / 'fd.plan'
    out = subprocess.run([sys.executable, str(driver), '--plan-file', str(plan),
                          '--sas-file', str(tmp / 'out.sas'), '--alias', 'lama-first',
                          str(domain), str(problem)], capture_output=True, text=True,
                         cwd=tmp, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return [ln.strip() for ln in plan.read_text().splitlines() if ln.startswith('(')]


@pytest.mark.parametrize('world', sorted(WORLDS))
def test_a_state_goes_out_as_a_problem_and_comes_back_the_same(world, tmp_path):
    path, make_kg, goal = WORLDS[world]
    domain = DomainSchema.load(path)
    kg = make_kg()
    text = problem_text(domain, kg, goal)
    # unified-planning reads it to the same objects and atoms
    tidy = normalise_domain(path.read_text()).text
    tidy = re.sub(r'\(\s*either\s[^()]*\)', 'object', tidy, flags=re.I)
    up_problem = PDDLReader().parse_problem_string(tidy, text)
    objects = {o.name: o.type.name for o in up_problem.all_objects}
    assert objects == {**kg.entities, **domain.constants}
    atoms = {(f.fluent().name, tuple(str(a) for a in f.args))
             for f, v in up_problem.explicit_initial_values.items()
             if v.is_bool_constant() and v.is_true()}
    assert atoms == {(f.predicate, f.args) for f in kg.facts}
    # imported again: the same KG (the domain's constants are entities of every state)
    back = kg_from_problem(domain, text).kg
    assert back.facts == kg.facts
    assert back.entities == {**kg.entities, **domain.constants}
    if goal is None:
        return
    # Fast Downward reads the domain as written with our problem (a durative one: as
    # compiled, which UP writes); its plan is valid on ours
    (tmp_path / 'p.pddl').write_text(text)
    if DURATIVE_NOTE in domain.notes:
        path = tmp_path / 'compiled.pddl'
        compiled = PDDLWriter(domain.up_problem).get_domain()  # UP names it <name>-domain
        path.write_text(compiled.replace(f'(domain {domain.name}-domain)',
                                         f'(domain {domain.name})'))
    steps = _fast_downward(path, tmp_path / 'p.pddl', tmp_path)
    ours = build_problem(domain, kg, kg.facts, goal, extra_objects=kg.entities)
    valid, why = engines.validate(ours, plan_on(ours, steps))
    assert steps and valid, why


def test_kg_init_reads_a_problem_file_and_export_writes_it_back(tmp_path, capsys):
    store = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(DATA / 'depot_costs.pddl'), '--from',
                 str(DATA / 'depot_costs_p1.pddl'), '--store', str(store)]) == 0
    out = capsys.readouterr()
    assert 'plan it with: l3mp plan --goal "(and (at c1 depot) (at c2 shop))"' in out.err
    kg = Store(store).load_kg()
    assert kg.type_of('depot') == 'place'  # the constant is an entity of the state
    assert main(['kg', 'export', '--pddl', '--store', str(store), '--out',
                 str(tmp_path / 'out.pddl'), '--goal', '(at c1 depot)']) == 0
    text = (tmp_path / 'out.pddl').read_text()
    assert '(= (total-cost) 0)' in text and '(:metric minimize (total-cost))' in text
    assert '(:goal (at c1 depot))' in text
    assert main(['kg', 'show', '--pddl', '--store', str(store)]) == 0
    assert '(:goal (and))' in capsys.readouterr().out
    # and the exported file creates the same store
    again = tmp_path / 'again.db'
    assert main(['kg', 'init', '--domain', str(DATA / 'depot_costs.pddl'), '--from',
                 str(tmp_path / 'out.pddl'), '--store', str(again)]) == 0
    assert Store(again).load_kg().to_json() == kg.to_json()


def test_durative_domain_plans_with_both_engines_and_says_durations_were_dropped():
    domain = DomainSchema.load(DATA / 'patrol_durative.pddl')
    assert DURATIVE_NOTE in domain.notes
    assert set(domain.actions) == {'move', 'charge', 'inspect'}
    kg = _from_problem('patrol_durative.pddl', 'patrol_durative_p1.pddl')
    goal = '(and (inspected wp2) (robot_at rob base))'
    for engine in ('lapkt', 'fast-downward'):
        result = Planner(domain, engine=engine, timeout=60).plan(kg, goal)
        assert result.status == 'solved', result.errors
        assert DURATIVE_NOTE in result.to_json('t')['notes']
        names = [s.split()[0].strip('(') for s in result.steps]
        # over all (charged ?r) on move: the robot charges before it moves at all
        assert names[0] == 'charge' and names.count('inspect') == 1


def test_the_sequential_reading_checks_over_all_conditions_after_start_effects(tmp_path):
    """An over-all condition the action's own start effect deletes can never hold."""
    text = (DATA / 'patrol_durative.pddl').read_text().replace(
        '(over all (charged ?r)))', '(over all (robot_at ?r ?a)))')
    path = tmp_path / 'd.pddl'
    path.write_text(text)
    domain = DomainSchema.load(path)
    kg = _from_problem('patrol_durative.pddl', 'patrol_durative_p1.pddl')
    result = Planner(domain, engine='fast-downward', timeout=60).plan(
        kg, '(robot_at rob wp1)')
    assert result.status == 'unsolvable'


def test_costs_are_used_by_fast_downward_and_dropped_for_lapkt_with_a_note():
    domain = DomainSchema.load(DATA / 'depot_costs.pddl')
    assert domain.costs and 'total-cost' not in domain.predicates
    kg = _from_problem('depot_costs.pddl', 'depot_costs_p1.pddl')
    goal = '(and (at c1 depot) (at c2 shop))'
    fd = Planner(domain, engine='fast-downward', timeout=60).plan(kg, goal)
    lapkt = Planner(domain, engine='lapkt', timeout=60).plan(kg, goal)
    assert fd.status == lapkt.status == 'solved'
    assert any('plans with the action costs' in n for n in fd.notes)
    assert any('does not use action costs' in n for n in lapkt.notes)
    assert not any('no installed engine' in e for e in fd.errors + lapkt.errors)


def test_costs_read_from_numeric_functions_are_dropped_with_a_note(tmp_path):
    text = (DATA / 'depot_costs.pddl').read_text().replace(
        '(:functions (total-cost) - number)',
        '(:functions (total-cost) - number (distance ?a ?b - place) - number)').replace(
        '(increase (total-cost) 5)', '(increase (total-cost) (distance ?a ?b))')
    path = tmp_path / 'd.pddl'
    path.write_text(text)
    domain = DomainSchema.load(path)
    assert not domain.costs and any('(distance)' in n for n in domain.notes)
    kg = _from_problem('depot_costs.pddl', 'depot_costs_p1.pddl')
    result = Planner(domain, engine='lapkt', timeout=60).plan(kg, '(at c1 depot)')
    assert result.status == 'solved'


def test_real_numeric_state_is_read_with_its_functions(tmp_path):
    """Numeric fluents load (issue 59): their values are KG facts, a numeric engine plans."""
    text = (DATA / 'depot_costs.pddl').read_text().replace(
        '(:functions (total-cost) - number)',
        '(:functions (total-cost) (fuel ?t - truck) - number)').replace(
        ':precondition (and (at ?t ?a) (road ?a ?b))',
        ':precondition (and (at ?t ?a) (road ?a ?b) (> (fuel ?t) 0))')
    domain = DomainSchema.from_text(text)
    assert domain.numeric_state == ('fuel',) and list(domain.functions) == ['fuel']
    assert domain.functions['fuel'].signature() == '(fuel ?t - truck)'


@pytest.mark.parametrize('quirk, text', [
    ('an empty (:functions)', '(:functions\n)'),
    ('a type declared twice', '(:types room thing room)'),
    (':constants after :predicates', '(:constants hall - room)'),
])
def test_pddl_that_planners_accept_loads(quirk, text):
    types = '' if quirk == 'a type declared twice' else '(:types room thing)'
    body = (f'(define (domain q) (:requirements :strips :typing) {types if types else text} '
            '(:predicates (at ?t - thing ?r - room) (at_hall ?t - thing)) '
            f'{text if types else ""} '
            '(:action go :parameters (?t - thing ?a ?b - room) :precondition (at ?t ?a) '
            ':effect (and (not (at ?t ?a)) (at ?t ?b))))')
    domain = DomainSchema.from_text(body)
    assert set(domain.types) >= {'room', 'thing'}
    assert domain.up_problem.action('go') is not None


def test_a_predicate_and_an_action_sharing_a_name_plan():
    domain = DomainSchema.load(DATA / 'depot_costs.pddl')
    assert 'lift' in domain.predicates and 'lift' in domain.actions
    assert not any('error_used_name' in n for n in domain.notes)
    kg = _from_problem('depot_costs.pddl', 'depot_costs_p1.pddl')
    result = Planner(domain, engine='lapkt', timeout=60).plan(kg, '(lift c1)')
    assert result.status == 'solved' and result.steps[-1].startswith('(lift c1')


def test_constants_in_the_state_and_in_updates(tmp_path, capsys):
    store = tmp_path / 'kg.db'
    state = tmp_path / 's.json'
    # a snapshot naming the constant without declaring it: the constant is an entity
    state.write_text(json.dumps({'schema': 'l3mp/kg/v1', 'domain': 'depot_costs', 'entities': [
        {'name': 't1', 'type': 'truck'}, {'name': 'c1', 'type': 'crate'}],
        'facts': [['t1', 'at', 'depot'], ['c1', 'at', 'depot']]}))
    assert main(['kg', 'init', '--domain', str(DATA / 'depot_costs.pddl'), '--from',
                 str(state), '--store', str(store)]) == 0
    assert main(['kg', 'apply', '--store', str(store), '--update',
                 'REMOVE: (c1, at, depot) ADD: (c1, in, t1)']) == 0
    capsys.readouterr()
    assert main(['kg', 'apply', '--store', str(store), '--update',
                 'ADD: (c1, at, place)']) == 1
    assert '"place" in (c1, at, place) is a type of the domain' in capsys.readouterr().err


def test_unknown_names_in_a_problem_say_constant_or_type():
    domain = DomainSchema.load(DATA / 'depot_costs.pddl')
    text = (DATA / 'depot_costs_p1.pddl').read_text()
    with pytest.raises(ProblemImportError, match=r'line 3, col \d+: "truck" is a type of '
                       r'domain depot_costs, not an object in \(at truck farm\)'):
        kg_from_problem(domain, text.replace('(at t1 depot)', '(at truck farm)'))


@pytest.mark.parametrize('edit, message', [
    (lambda t: t.replace('(road farm shop)', '(road farm shop'),
     r'line 4, col \d+: "\(" of \(road ...\) is never closed'),
    (lambda t: t + ')', r'line 8, col 1: "\)" closes nothing'),
    (lambda t: t.replace('(:domain depot_costs)', '(:domain logistics)'),
     'written for domain "logistics" but the domain file is "depot_costs"'),
    (lambda t: t.replace('(road depot farm)', '(street depot farm)'),
     r'line 4, col \d+: unknown predicate "street"'),
    (lambda t: t.replace('(at c1 farm)', '(at c1 farm depot)'),
     r'line 3, col \d+: \(c1, at, farm, depot\) gives at 3 argument'),
    (lambda t: t.replace('shop farm - place', 'shop farm - field'),
     'object shop has type "field", which domain depot_costs does not define'),
    (lambda t: t.replace('(at c2 depot)', '(at c2 nowhere)'),
     r'line 3, col \d+: unknown object "nowhere" in \(at c2 nowhere\)'),
    (lambda t: 'this is not pddl', 'neither a KG snapshot'),
])
def test_a_bad_problem_file_is_one_line_and_no_store(tmp_path, capsys, edit, message):
    bad = tmp_path / 'p.pddl'
    bad.write_text(edit((DATA / 'depot_costs_p1.pddl').read_text()))
    store = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(DATA / 'depot_costs.pddl'), '--from',
                 str(bad), '--store', str(store)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(message, err), err
    assert not store.exists()


def test_a_whole_problem_as_goal_is_refused_not_half_read(tmp_path, capsys):
    store = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(DATA / 'depot_costs.pddl'), '--from',
                 str(DATA / 'depot_costs_p1.pddl'), '--store', str(store)]) == 0
    capsys.readouterr()
    goal = (DATA / 'depot_costs_p1.pddl').read_text()
    assert main(['plan', '--store', str(store), '--goal', goal]) == 2
    err = capsys.readouterr().err
    assert 'whole PDDL problem file' in err and ':init would be ignored' in err


def test_a_fact_without_arguments_in_the_text_update_form():
    update = Update.parse('REMOVE: (handempty) ADD: (a, holding, true)')
    assert [f.pddl() for f in update.remove] == ['(handempty)']
    assert Update.parse('REMOVE: (none) ADD: (handempty)').remove == frozenset()


def test_sweep_script_reads_a_directory(tmp_path):
    """benchmarks/pddl_sweep.py on one tiny domain: init from the problem, both engines."""
    d = tmp_path / 'depot'
    d.mkdir()
    (d / 'domain.pddl').write_text((DATA / 'depot_costs.pddl').read_text())
    (d / 'p1.pddl').write_text((DATA / 'depot_costs_p1.pddl').read_text())
    out = subprocess.run([sys.executable, str(ROOT / 'benchmarks' / 'pddl_sweep.py'),
                          str(d.parent), '--no-up', '--timeout', '30'], capture_output=True,
                         text=True, env={**os.environ, 'PYTHONPATH': str(ROOT)}, timeout=300)
    assert '| depot | p1 | pddl | solved (' in out.stdout, out.stdout + out.stderr[-2000:]


TOOLS = ('(define (domain tools) (:requirements :strips :typing) (:types tool item) '
         '(:predicates (rough ?i - item) (smooth ?i - item)) '
         '(:action polish :parameters (?i - item ?t - tool) :precondition (rough ?i) '
         ':effect (and (not (rough ?i)) (smooth ?i))))')


def test_an_object_with_no_facts_is_still_an_action_parameter():
    """IPC woodworking's grinder appears in no :init atom, only as a parameter."""
    domain = DomainSchema.from_text(TOOLS)
    kg = kg_from_problem(domain, '(define (problem p) (:domain tools) (:objects t1 - tool '
                                 'i1 - item) (:init (rough i1)) (:goal (smooth i1)))').kg
    result = Planner(domain, engine='lapkt', timeout=60).plan(kg, '(smooth i1)')
    assert result.status == 'solved' and result.steps == ['(polish i1 t1)']


def test_an_object_named_like_a_type_is_renamed_with_a_note():
    """IPC tidybot has ``cart - cart``: planners allow it, the KG renames the object."""
    domain = DomainSchema.from_text(TOOLS)
    imported = kg_from_problem(domain, '(define (problem p) (:domain tools) (:objects '
                                       'tool - tool i1 - item) (:init (rough i1)) '
                                       '(:goal (forall (?t - tool) (smooth i1))))')
    assert imported.kg.type_of('tool_obj') == 'tool' and not imported.kg.has_entity('tool')
    assert imported.notes == ['object tool renamed tool_obj: its name is also a type of '
                              'domain tools']
    assert imported.goal == '(forall (?t - tool) (smooth i1))'
