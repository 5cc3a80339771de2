# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Real planners through l3mp_ros.planning: LAPKT, Fast Downward and pyperplan."""

import io
import tempfile
import time

import psutil
import pytest
from unified_planning.engines import PlanGenerationResultStatus
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import OneshotPlanner

import l3mp_ros.planning as planning
from l3mp_ros import paths
from l3mp_ros.planning import lapkt_engine, lapkt_warm
from l3mp_ros.planning.lapkt_engine import LAPKTPlanner

DOMAIN = """
(define (domain house)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)
  (:types room agent item - object robot - agent)
  (:predicates (at ?a - agent ?r - room) (in ?i - item ?r - room)
               (holding ?a - robot ?i - item) (connected ?r1 ?r2 - room)
               (free ?a - robot) (locked ?r - room) (clean ?r - room))
  (:action move_to_room
    :parameters (?a - robot ?from ?to - room)
    :precondition (and (at ?a ?from) (connected ?from ?to) (not (locked ?to)))
    :effect (and (not (at ?a ?from)) (at ?a ?to)
                 (forall (?i - item)
                   (when (holding ?a ?i) (and (not (in ?i ?from)) (in ?i ?to))))))
  (:action pick
    :parameters (?a - robot ?i - item ?r - room)
    :precondition (and (at ?a ?r) (in ?i ?r) (free ?a))
    :effect (and (holding ?a ?i) (not (free ?a))))
  (:action drop
    :parameters (?a - robot ?i - item ?r - room)
    :precondition (and (at ?a ?r) (holding ?a ?i))
    :effect (and (not (holding ?a ?i)) (free ?a)))
  (:action tidy
    :parameters (?a - robot ?r - room)
    :precondition (and (at ?a ?r) (not (clean ?r)) (free ?a))
    :effect (clean ?r)))
"""

ROOMS = """
(:objects kitchen hall bathroom - room the_robot - robot cup plate - item)
(:init (at the_robot kitchen) (in cup kitchen) (in plate hall) (free the_robot)
       (connected kitchen hall) (connected hall kitchen)
       (connected hall bathroom) (connected bathroom hall))
"""

SOLVABLE = f"""(define (problem fetch) (:domain house) {ROOMS}
  (:goal (and (in cup bathroom) (clean bathroom) (free the_robot))))"""

# The robot holds one item at a time: both goals hold only in the delete relaxation.
UNSOLVABLE = f"""(define (problem greedy) (:domain house) {ROOMS}
  (:goal (and (holding the_robot cup) (holding the_robot plate))))"""

FEATURES_DOMAIN = """
(define (domain feat)
  (:requirements :strips :typing :negative-preconditions :equality
                 :universal-preconditions :existential-preconditions :disjunctive-preconditions)
  (:types room item)
  (:predicates (at ?r - room) (in ?i - item ?r - room) (conn ?a ?b - room)
               (lit ?r - room) (done))
  (:action move :parameters (?a ?b - room)
    :precondition (and (at ?a) (conn ?a ?b) (not (= ?a ?b)) (or (lit ?b) (lit ?a)))
    :effect (and (not (at ?a)) (at ?b)))
  (:action light :parameters (?r - room)
    :precondition (and (at ?r) (exists (?i - item) (in ?i ?r)))
    :effect (lit ?r))
  (:action finish :parameters ()
    :precondition (forall (?r - room) (lit ?r))
    :effect (done)))
"""

FEATURES_PROBLEM = """(define (problem f1) (:domain feat)
  (:objects a b c - room lamp1 lamp2 lamp3 - item)
  (:init (at a) (lit a) (conn a a) (conn a b) (conn b c) (conn b a) (conn c b)
         (in lamp1 a) (in lamp2 b) (in lamp3 c))
  (:goal (and (done) (not (at c)))))"""

# No item exists: LAPKT's own front end fails on the quantifier; ours compiles it first.
EMPTY_TYPE_PROBLEM = """(define (problem f0) (:domain feat)
  (:objects a b - room)
  (:init (at a) (conn a b))
  (:goal (at a)))"""

SEARCHES = ('siw-then-bfsf', 'bfws', 'bfsf', 'siw')


def hard_problem(rooms: int = 40, items: int = 30) -> str:
    """A long corridor with many items to carry to its end, one at a time."""
    names = [f'r{i}' for i in range(rooms)]
    things = [f'o{i}' for i in range(items)]
    links = ' '.join(f'(connected {a} {b}) (connected {b} {a})'
                     for a, b in zip(names, names[1:], strict=False))
    init = ' '.join(f'(in {o} {names[i % rooms]})' for i, o in enumerate(things))
    goal = ' '.join(f'(in {o} {names[-1 - (i % 3)]})' for i, o in enumerate(things))
    return f"""(define (problem corridor) (:domain house)
  (:objects {' '.join(names)} - room the_robot - robot {' '.join(things)} - item)
  (:init (at the_robot r0) (free the_robot) {links} {init})
  (:goal (and {goal} (clean r0) (clean {names[-1]}))))"""


def parse(domain: str, problem: str):
    return PDDLReader().parse_problem_string(domain, problem)


def children() -> list[psutil.Process]:
    """Processes this one left running, but the resident warm LAPKT process (its forks count)."""
    warm = lapkt_warm.pids()
    return [p for p in psutil.Process().children(recursive=True) if p.pid not in warm]


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """Temp files and the working directory both point into an empty directory."""
    scratch = tmp_path / 'scratch'
    scratch.mkdir()
    monkeypatch.setattr(tempfile, 'tempdir', str(scratch))
    monkeypatch.chdir(scratch)
    return scratch


@pytest.mark.parametrize('engine', planning.ENGINES)
def test_each_engine_solves_and_plan_validates(engine, private_tmp, capfd):
    problem = parse(DOMAIN, SOLVABLE)
    result = planning.solve(problem, engine, timeout=30)
    assert result.status == 'solved', result.log
    assert result.engine == engine
    assert result.plan and all(s.startswith('(') and s == s.lower() for s in result.plan)
    assert result.plan == planning.plan_strings(result.up_plan)
    assert result.plan[0].split()[0] in {'(move_to_room', '(pick', '(tidy'}
    assert planning.validate(problem, result.up_plan) == (True, '')
    assert list(private_tmp.iterdir()) == []
    assert capfd.readouterr().out == ''
    assert children() == []


@pytest.mark.parametrize('engine', planning.ENGINES)
def test_each_engine_plans_an_exists_goal(engine):
    # removing the quantifier leaves a disjunction: the compilations must go on (pyperplan
    # used to fail with DISJUNCTIVE_CONDITIONS after compilation)
    problem = parse(DOMAIN, f"""(define (problem any) (:domain house) {ROOMS}
      (:goal (exists (?i - item) (in ?i bathroom))))""")
    result = planning.solve(problem, engine, timeout=30)
    assert result.status == 'solved', result.log
    assert planning.validate(problem, result.up_plan) == (True, '')


NUMERIC = """(define (domain batt) (:requirements :strips :numeric-fluents)
  (:predicates (done))
  (:functions (charge) - number)
  (:action work :parameters () :precondition (>= (charge) 1)
    :effect (and (done) (decrease (charge) 1))))"""


def test_an_unsupported_problem_is_refused_before_planning():
    problem = parse(NUMERIC, """(define (problem p) (:domain batt)
      (:init (= (charge) 3)) (:goal (done)))""")
    started = time.monotonic()
    result = planning.solve(problem, 'pyperplan', timeout=30)
    assert result.status == 'error' and result.up_status == 'UNSUPPORTED_PROBLEM'
    assert result.log.startswith('pyperplan cannot plan this problem: it needs ')
    assert 'numeric' in result.log and 'use enhsp' in result.log  # issue 59
    assert time.monotonic() - started < 5 and children() == []


@pytest.mark.parametrize('search', SEARCHES)
def test_lapkt_searches(search):
    problem = parse(DOMAIN, SOLVABLE)
    result = planning.solve(problem, 'lapkt', timeout=30, params={'search': search})
    assert result.status == 'solved', result.log
    assert planning.validate(problem, result.up_plan)[0]


@pytest.mark.parametrize('search', SEARCHES)
def test_lapkt_claimed_features(search):
    problem = parse(FEATURES_DOMAIN, FEATURES_PROBLEM)
    kind = problem.kind.features
    assert {'EQUALITIES', 'DISJUNCTIVE_CONDITIONS', 'EXISTENTIAL_CONDITIONS',
            'UNIVERSAL_CONDITIONS', 'NEGATIVE_CONDITIONS'} <= kind
    assert LAPKTPlanner.supports(problem.kind)
    result = planning.solve(problem, 'lapkt', timeout=30, params={'search': search})
    assert result.status == 'solved', result.log
    ok, reason = planning.validate(problem, result.up_plan)
    assert ok, reason


def test_lapkt_quantifier_over_empty_type_and_empty_plan():
    problem = parse(FEATURES_DOMAIN, EMPTY_TYPE_PROBLEM)
    result = planning.solve(problem, 'lapkt', timeout=30)
    assert result.status == 'solved', result.log
    assert result.plan == []
    assert planning.validate(problem, result.up_plan)[0]


def test_fast_downward_on_feature_problem():
    problem = parse(FEATURES_DOMAIN, FEATURES_PROBLEM)
    result = planning.solve(problem, 'fast-downward', timeout=30)
    assert result.status == 'solved', result.log
    assert planning.validate(problem, result.up_plan)[0]


@pytest.mark.parametrize('engine', planning.ENGINES)
def test_unsolvable(engine):
    result = planning.solve(parse(DOMAIN, UNSOLVABLE), engine, timeout=30)
    assert result.status == 'unsolvable', result.log
    assert result.plan == [] and result.up_plan is None


def test_lapkt_relaxed_unreachable_goal_is_proven_unsolvable():
    text = SOLVABLE.replace('(free the_robot)', '(free the_robot) (locked bathroom)', 1)
    result = planning.solve(parse(DOMAIN, text), 'lapkt', timeout=30)
    assert (result.status, result.up_status) == ('unsolvable', 'UNSOLVABLE_PROVEN')


@pytest.mark.parametrize('engine', planning.ENGINES)
def test_timeout_kills_the_planner(engine, private_tmp, capfd):
    problem = parse(DOMAIN, hard_problem())
    timeout = 0.5
    started = time.monotonic()
    result = planning.solve(problem, engine, timeout=timeout)
    elapsed = time.monotonic() - started
    assert result.status == 'timeout', (result.status, result.log)
    assert elapsed < timeout + 4.0
    time.sleep(0.2)
    assert children() == []
    assert list(private_tmp.iterdir()) == []
    assert capfd.readouterr().out == ''


def test_lapkt_timeout_bounds_compiling_a_disjunctive_goal(private_tmp):
    """UP's DNF compilation of this goal alone took 219 s in-process for a 10 s timeout."""
    import json

    from l3mp_ros.planning.up_problem import build_problem
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.kg import KnowledgeGraph
    root = paths.share_dir()
    domain = DomainSchema.load(root / 'pddl' / 'household.pddl')
    kg = KnowledgeGraph.from_json(json.loads((root / 'config' / 'household_state.json')
                                             .read_text()))
    lights = sorted(e for e, t in kg.entities.items() if t.endswith('light'))
    windows = sorted(e for e, t in kg.entities.items() if t.endswith('window'))
    ors = ' '.join(f'(or (light_on {lights[i % len(lights)]}) '
                   f'(light_on {lights[(i + 1) % len(lights)]}) '
                   f'(window_open {windows[i % len(windows)]}))' for i in range(7))
    problem = build_problem(domain, kg, kg.facts, f'(and {ors})')  # 3^7 disjuncts
    started = time.monotonic()
    result = planning.solve(problem, 'lapkt', timeout=3.0)
    elapsed = time.monotonic() - started
    assert result.status == 'timeout', (result.status, result.log[-300:])
    assert elapsed < 8.0
    time.sleep(0.2)
    assert children() == []


def test_oneshot_planner_from_factory():
    problem = parse(DOMAIN, SOLVABLE)
    with OneshotPlanner(name='lapkt', params={'search': 'bfws'}) as planner:
        assert planner.name == 'lapkt'
        result = planner.solve(problem, timeout=30)
    assert result.status == PlanGenerationResultStatus.SOLVED_SATISFICING
    assert planning.validate(problem, result.plan)[0]


def test_register_engines_is_idempotent():
    from unified_planning.environment import get_environment

    planning.register_engines()
    planning.register_engines()
    names = get_environment().factory.engines
    assert all(names.count(e) == 1 for e in planning.ENGINES)


def test_bad_arguments():
    problem = parse(DOMAIN, SOLVABLE)
    with pytest.raises(ValueError):
        planning.solve(problem, 'nope', timeout=1)
    with pytest.raises(ValueError):
        planning.solve(problem, 'lapkt', timeout=0)
    with pytest.raises(ValueError):
        LAPKTPlanner(search='astar')
    bad = planning.solve(problem, 'lapkt', timeout=5, params={'search': 'astar'})
    assert bad.status == 'error' and 'astar' in bad.log


def test_validate_rejects_a_wrong_plan():
    problem = parse(DOMAIN, SOLVABLE)
    good = planning.solve(problem, 'fast-downward', timeout=30).up_plan
    from unified_planning.plans import SequentialPlan

    wrong = SequentialPlan(list(reversed(good.actions)))
    ok, reason = planning.validate(problem, wrong)
    assert not ok and reason
    assert planning.validate(problem, None)[0] is False


def test_expansion_counts_the_disjuncts_a_goal_compiles_into():
    import json

    from l3mp_ros.planning.engines import expansion
    from l3mp_ros.planning.up_problem import build_problem
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.kg import KnowledgeGraph
    root = paths.share_dir()
    domain = DomainSchema.load(root / 'pddl' / 'household.pddl')
    kg = KnowledgeGraph.from_json(json.loads((root / 'config' / 'household_state.json')
                                             .read_text()))
    cloths = sum(1 for t in kg.entities.values() if domain.is_subtype(t, 'cloth'))

    def size(goal):
        return expansion(build_problem(domain, kg, kg.facts, goal))
    assert size('(light_on kitchen_light)') == 1
    assert size('(forall (?l - light) (not (light_on ?l)))') == 1
    assert size('(or (light_on kitchen_light) (light_on bathroom_light))') == 2
    # "every dry cloth in the basket": one (not dry or in basket) per cloth, multiplied
    assert size('(forall (?x - cloth) (imply (cloth_is_dry ?x) '
                '(placed_at_laundrybasket ?x laundry_basket)))') == 2 ** cloths


@pytest.mark.parametrize('search', sorted(lapkt_engine.SEARCHES))
def test_lapkt_leaves_nothing_in_the_working_directory(search, tmp_path, monkeypatch):
    """LAPKT writes execution.details where it runs: that must be the engine's temp dir."""
    work = tmp_path / 'work'
    work.mkdir()
    monkeypatch.chdir(work)
    result = planning.solve(parse(DOMAIN, SOLVABLE), 'lapkt', timeout=30,
                            params={'search': search})
    assert result.status == 'solved', result.log
    assert list(work.iterdir()) == []


def test_lapkt_deadline_holds_while_the_planner_prints_half_a_line(tmp_path, private_tmp,
                                                                   monkeypatch):
    """A grounder that prints part of a line and works on is killed at the deadline.

    UP's runner read such output line by line and checked the clock between lines: a
    whole-KG problem ran for 8 minutes past a 60 s limit.
    """
    monkeypatch.setenv(lapkt_warm.ENV, 'off')  # LAPKT's cold driver (the warm one: its tests)
    fake = tmp_path / 'python'
    fake.write_text("#!/bin/sh\nprintf 'grounding'\nsleep 30\n")
    fake.chmod(0o755)
    problem = parse(DOMAIN, SOLVABLE)
    started = time.monotonic()
    sink = io.StringIO()  # as planning.solve passes: UP then reads the output line by line
    with LAPKTPlanner(python=str(fake)) as planner:
        result = planner.solve(problem, timeout=1.0, output_stream=sink)
    elapsed = time.monotonic() - started
    assert result.status == PlanGenerationResultStatus.TIMEOUT
    assert result.plan is None
    assert elapsed < 6.0
    assert 'grounding' in ''.join(m.message for m in result.log_messages)
    assert sink.getvalue() == 'grounding'
    time.sleep(0.2)
    assert children() == []
