# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Native temporal planning (issue 59): durative domains keep start times and durations.

``test/data/fleet_durative.pddl``: a robot drives while its arm stows and a second robot
inspects a room meanwhile. The portfolio plans it with Aries (real engine, its own binary):
the steps overlap, the schedule is in ``plan/v1``, UP's time-triggered validator accepts it,
and the makespan is shorter than the compiled plan run step after step. A temporal plan that
breaks an over-all condition (TAMER's, on this problem) is refused by the validator. With no
temporal engine installed, a pinned one is one line and the portfolio plans the compiled
domain with one note; nothing is written.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from unified_planning.plans import ActionInstance, TimeTriggeredPlan

from l3mp_ros import schemas
from l3mp_ros.cli import main
from l3mp_ros.config import TEMPORAL_ENGINES
from l3mp_ros.planning import engines
from l3mp_ros.planning.planner import NO_TEMPORAL_NOTE, Planner, PlanResult
from l3mp_ros.planning.up_problem import build_problem
from l3mp_ros.world.domain import DURATIVE_NOTE, DomainSchema
from l3mp_ros.world.problem_file import kg_from_problem
from l3mp_ros.world.stores import open_store

DATA = Path(__file__).resolve().parent / 'data'
DOMAIN = DATA / 'fleet_durative.pddl'
PROBLEM = DATA / 'fleet_durative_p1.pddl'
GOAL = '(and (robot_at r1 kitchen) (arm_stowed r1) (inspected lab))'
DURATIONS = {'move': 10, 'stow_arm': 3, 'inspect': 4}


@pytest.fixture(scope='module')
def domain() -> DomainSchema:
    return DomainSchema.load(DOMAIN)


@pytest.fixture(scope='module')
def kg(domain):
    return kg_from_problem(domain, PROBLEM.read_text()).kg


@pytest.fixture(scope='module')
def native(domain, kg):
    return Planner(domain, timeout=60).plan(kg, GOAL)


def test_the_portfolio_plans_durative_actions_at_once(native):
    assert native.status == 'solved' and native.solved_by == 'aries', native.errors
    starts = {step: s['start'] for step, s in zip(native.steps, native.schedule, strict=True)}
    assert starts['(move r1 dock kitchen)'] == starts['(stow_arm r1)'] == 0.0
    assert starts['(move r2 hall lab)'] == 0.0 and starts['(inspect r2 lab)'] >= 10.0
    assert native.makespan == 14.0
    assert DURATIVE_NOTE not in native.notes and any('natively' in n for n in native.notes)


def test_native_makespan_beats_the_compiled_plan(domain, kg, native):
    compiled = Planner(domain, engine='fast-downward', timeout=60).plan(kg, GOAL)
    assert compiled.status == 'solved' and not compiled.schedule
    assert DURATIVE_NOTE in compiled.notes
    one_after_another = sum(DURATIONS[s.split()[0].strip('(')] for s in compiled.steps)
    assert one_after_another == 27 and native.makespan < one_after_another


def test_the_schedule_travels_in_plan_v1(native):
    body = native.to_json(task_id='t1')
    assert schemas.validate('plan', body) == []
    assert schemas.validate('plan', {**body, 'schedule': [{'start': -1}]})  # checked
    assert body['makespan'] == 14.0 and len(body['schedule']) == len(body['steps'])
    # a sequential plan's body is what it was: no schedule, no makespan
    plain = PlanResult(status='solved', steps=['(a)']).to_json('t2')
    assert 'schedule' not in plain and 'makespan' not in plain


def test_the_validator_refuses_a_schedule_that_breaks_an_over_all_condition(domain, kg):
    problem = build_problem(domain, kg, kg.facts, GOAL, extra_objects=kg.entities, timed=True)

    def act(name, *args):
        return ActionInstance(problem.action(name), tuple(problem.object(a) for a in args))

    early = TimeTriggeredPlan([
        (Fraction(0), act('move', 'r1', 'dock', 'kitchen'), Fraction(10)),
        (Fraction(0), act('stow_arm', 'r1'), Fraction(3)),
        (Fraction(0), act('move', 'r2', 'hall', 'lab'), Fraction(10)),
        (Fraction(0), act('inspect', 'r2', 'lab'), Fraction(4))])  # r2 is not there yet
    valid, reason = engines.validate(problem, early)
    assert not valid and reason
    late = TimeTriggeredPlan([*early.timed_actions[:3],
                              (Fraction(10), act('inspect', 'r2', 'lab'), Fraction(4))])
    assert engines.validate(problem, late) == (True, '')


def test_a_pinned_temporal_engine_whose_plan_fails_validation_says_so(domain, kg):
    result = Planner(domain, engine='tamer', timeout=60).plan(kg, GOAL)
    if result.status == 'solved':  # a TAMER build that plans this right: then it validated
        assert result.schedule and result.solved_by == 'tamer'
        return
    assert result.status == 'error' and len(result.errors) == 1
    assert result.errors[0].startswith('tamer (temporal planning): its plan failed validation')


def test_the_cli_prints_start_times_and_durations(tmp_path, capsys):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    capsys.readouterr()
    assert main(['plan', '--store', where, '--goal', GOAL, '--timeout', '60']) == 0
    out = capsys.readouterr()
    assert '0.000: (move r1 dock kitchen) [10]' in out.out.splitlines()
    assert '; makespan 14.000' in out.err


def _stored(where: str) -> tuple[dict, int]:
    with open_store(where) as s:
        return s.load_kg().to_json(), s.last_event_id()


def test_no_temporal_engine_installed_is_one_line_and_writes_nothing(tmp_path, capsys,
                                                                     monkeypatch):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    before = _stored(where)
    installed = engines.installed  # UP's factory lacks an engine whose package is missing
    monkeypatch.setattr(engines, 'installed', lambda name, env=None:
                        name not in TEMPORAL_ENGINES and installed(name, env))
    capsys.readouterr()
    for name in TEMPORAL_ENGINES:  # pinned: no fallback, the one line naming the package
        assert main(['plan', '--store', where, '--goal', GOAL, '--engine', name]) == 2
        assert capsys.readouterr().err.splitlines() == [
            'no plan (unsupported): the engine cannot plan this kind of problem',
            f'  - {name} (temporal planning): {name} is not installed: pip install '
            f'up-{name} (requirements.txt)']
    # the portfolio plans the compiled domain, one note saying why
    assert main(['plan', '--store', where, '--goal', GOAL, '--timeout', '60']) == 0
    out = capsys.readouterr()
    notes = [x for x in out.err.splitlines() if x.startswith('; note: ')]
    assert notes == [f'; note: {DURATIVE_NOTE}', f'; note: {NO_TEMPORAL_NOTE}']
    assert sorted(out.out.splitlines()) == ['(inspect r2 lab)', '(move r1 dock kitchen)',
                                            '(move r2 hall lab)', '(stow_arm r1)']
    assert 'Traceback' not in out.err and 'makespan' not in out.err
    assert _stored(where) == before
