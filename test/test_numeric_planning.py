# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Numeric planning (issue 59): a battery and a tray, planned by ENHSP, executed on the KG.

The robot of ``test/data/battery_tray.pddl`` drains its battery by the distance it drives
and carries two items at most: three cups need two trips and a stop at the charger. The
portfolio gives a numeric problem to ENHSP (real planner, a Java runtime), UP's validator
checks the plan on the whole KG, and executing it on the KG leaves the numbers UP's own
simulator computes for the plan.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from unified_planning.engines.sequential_simulator import UPSequentialSimulator

from l3mp_ros.cli import main
from l3mp_ros.compose import open_store_world
from l3mp_ros.planning import engines
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import Planner, plan_on
from l3mp_ros.planning.problem import goal_holds
from l3mp_ros.planning.up_problem import build_problem
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.problem_file import kg_from_problem
from l3mp_ros.world.store import Store
from l3mp_ros.world.stores import open_store

# make venv installs a Java runtime as root; elsewhere it says how (docs/pddl.md)
pytestmark = pytest.mark.skipif(shutil.which('java') is None,
                                reason='ENHSP needs a Java runtime (default-jre-headless)')

DATA = Path(__file__).resolve().parent / 'data'
DOMAIN = DATA / 'battery_tray.pddl'
PROBLEM = DATA / 'battery_tray_p1.pddl'
GOAL = '(and (item_at cup1 lab) (item_at cup2 lab) (item_at cup3 lab))'


@pytest.fixture(scope='module')
def domain() -> DomainSchema:
    return DomainSchema.load(DOMAIN)


@pytest.fixture(scope='module')
def kg(domain):
    return kg_from_problem(domain, PROBLEM.read_text()).kg


@pytest.fixture(scope='module')
def solved(domain, kg):
    return Planner(domain, timeout=60).plan(kg, GOAL)


def test_the_portfolio_plans_two_trips_and_a_recharge_with_enhsp(solved):
    assert solved.status == 'solved' and solved.solved_by == 'enhsp', solved.errors
    steps = solved.steps
    assert steps.count('(move robot1 kitchen lab)') == 2  # the tray holds two of three
    assert any(s.startswith('(recharge robot1') for s in steps)


def test_the_validator_checks_numbers(domain, kg, solved):
    problem = build_problem(domain, kg, kg.facts, GOAL, extra_objects=kg.entities)
    assert engines.validate(problem, plan_on(problem, solved.steps)) == (True, '')
    no_charge = [s for s in solved.steps if not s.startswith('(recharge')]
    valid, reason = engines.validate(problem, plan_on(problem, no_charge))
    assert not valid and reason


def test_executing_the_plan_leaves_the_numbers_of_its_effects(domain, kg, solved, tmp_path):
    result = execute_plan(domain, kg, solved.steps)
    assert result.ok, result.error
    # UP's own simulator on the same problem: the plan's effects on every number
    problem = build_problem(domain, kg, kg.facts, GOAL, extra_objects=kg.entities)
    # the class itself: the factory cannot tell ahead that it handles undefined distances
    with UPSequentialSimulator(problem, error_on_failed_checks=False) as sim:
        state = sim.get_initial_state()
        for action in plan_on(problem, solved.steps).actions:
            state = sim.apply(state, action)
        em = problem.environment.expression_manager
        for fact in sorted(kg.numbers):
            term = problem.fluent(fact.predicate)(*(problem.object(a) for a in fact.args))
            want = float(state.get_value(em.auto_promote(term)[0]).constant_value())
            assert result.kg.value_of(fact.predicate, fact.args) == want, fact
    assert result.kg.value_of('battery_level', ['robot1']) == 10
    assert result.kg.value_of('tray_load', ['robot1']) == 0
    # and the store keeps them, as done by the robot
    where = tmp_path / 'kg.db'
    Store.create(where, kg, domain_path=str(DOMAIN)).close()
    world = open_store_world(where)
    try:
        applied = world.apply(result.update, source='execution')
        assert applied.applied, applied.errors
        assert world.support_of(Fact('battery_level', ('robot1',), '10')).kind == 'done'
    finally:
        world.close()
    assert Store(where).load_kg().value_of('battery_level', ['robot1']) == 10


def test_a_goal_that_needs_a_recharge(domain, kg):
    low = kg.copy()
    low.apply(Update.of([Fact('battery_level', ('robot1',), '20')],
                        [Fact('battery_level', ('robot1',), '12')]))
    result = Planner(domain, engine='enhsp', timeout=60).plan(low, '(robot_at robot1 lab)')
    assert result.status == 'solved', result.errors
    assert result.steps == ['(move robot1 dock kitchen)', '(recharge robot1 kitchen)',
                            '(move robot1 kitchen lab)']
    # without the charge the second move is refused, naming the number that is short
    bad = execute_plan(domain, low, ['(move robot1 dock kitchen)', '(move robot1 kitchen lab)'])
    assert not bad.ok and bad.failed_step == 1
    assert '(<= (distance kitchen lab) (battery_level robot1)) does not hold: 10 > 7' in bad.error


def test_a_classical_engine_refuses_a_numeric_problem_in_one_line(tmp_path, capsys):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    capsys.readouterr()
    assert main(['plan', '--store', where, '--goal', GOAL, '--engine', 'lapkt']) == 2
    err = capsys.readouterr().err
    assert 'Traceback' not in err
    assert 'lapkt cannot plan this problem' in err and 'use enhsp' in err


def test_a_numeric_goal_is_planned_and_checked(domain, kg, tmp_path, capsys):
    result = Planner(domain, timeout=60).plan(kg, '(>= (battery_level robot1) 30)')
    assert result.status == 'solved' and result.solved_by == 'enhsp', result.errors
    assert result.steps == ['(move robot1 dock kitchen)', '(recharge robot1 kitchen)']
    done = execute_plan(domain, kg, result.steps)
    assert done.kg.value_of('battery_level', ['robot1']) == 40
    # arithmetic, as IPC numeric goals write it, read on the KG's numbers
    assert goal_holds(domain, kg, '(<= (+ (tray_load robot1) 2) (tray_capacity robot1))')
    assert not goal_holds(domain, kg, '(> (* 2 (battery_level robot1)) (battery_capacity '
                                      'robot1))')
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    for goal, why in (('(> (battery_charge robot1) 3)', 'unknown function "battery_charge"'),
                      ('(>= (battery_level kitchen) 3)', '"kitchen" is a location'),
                      ('(>= (battery_level robot1) high)', '"high" in'),
                      ('(>= (robot_at robot1 lab) 1)', 'unknown function "robot_at"')):
        capsys.readouterr()
        assert main(['plan', '--store', where, '--goal', goal]) == 2
        err = capsys.readouterr().err
        lines = [x for x in err.splitlines() if x.startswith('  - ')]
        assert len(lines) == 1 and why in lines[0] and 'Traceback' not in err, err
    # a numeric goal no pinned engine of that kind plans: one line naming the one that can
    capsys.readouterr()
    assert main(['plan', '--store', where, '--goal', '(>= (battery_level robot1) 30)',
                 '--engine', 'fast-downward']) == 2
    err = capsys.readouterr().err
    assert 'fast-downward cannot plan this problem' in err and 'use enhsp' in err


@pytest.mark.parametrize('missing, line', [
    ('java', 'enhsp needs a Java runtime and none is installed: apt-get install '
             'default-jre-headless (make venv does it as root)'),
    ('up-enhsp', 'enhsp is not installed: pip install up-enhsp (requirements.txt)'),
])
def test_a_numeric_goal_with_no_numeric_engine_is_one_line(tmp_path, capsys, monkeypatch,
                                                           missing, line):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    with open_store(where) as s:
        before = s.load_kg().to_json(), s.last_event_id()
    if missing == 'java':
        monkeypatch.setattr(engines.shutil, 'which', lambda *a, **k: None)
    else:
        installed = engines.installed
        monkeypatch.setattr(engines, 'installed', lambda name, env=None:
                            name != 'enhsp' and installed(name, env))
    capsys.readouterr()
    assert main(['plan', '--store', where, '--goal', '(>= (battery_level robot1) 30)']) == 2
    assert capsys.readouterr().err.splitlines() == [
        'no plan (unsupported): the engine cannot plan this kind of problem', f'  - {line}']
    with open_store(where) as s:
        assert (s.load_kg().to_json(), s.last_event_id()) == before
