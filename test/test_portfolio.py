# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The default engine setting, ``portfolio``: LAPKT and Fast Downward (real planners)."""

from __future__ import annotations

import json

import pytest

from l3mp_ros import config
from l3mp_ros.cli import main
from l3mp_ros.planning import engines, portfolio
from l3mp_ros.planning.status import Status

from .test_planning_engines import DOMAIN, SOLVABLE, UNSOLVABLE, parse


def test_portfolio_is_the_default_engine_setting():
    assert config.Config().engine == config.PORTFOLIO
    assert config.ENGINE_SETTINGS == ('portfolio', 'lapkt', 'fast-downward', 'pyperplan',
                                      'enhsp', 'aries', 'tamer')
    with pytest.raises(ValueError, match='engine must be one of portfolio, lapkt'):
        config.Config(engine='astar')


def test_lapkt_answers_first_and_ends_the_portfolio():
    problem = parse(DOMAIN, SOLVABLE)
    res = portfolio.solve(problem, 'portfolio', 30)
    assert res.status == 'solved' and res.engine == 'lapkt'
    assert [s['engine'] for s in res.stages] == ['lapkt']
    assert res.stages[0]['budget'] == portfolio.lapkt_budget(30)


def test_a_proof_of_no_plan_ends_the_portfolio():
    res = portfolio.solve(parse(DOMAIN, UNSOLVABLE), 'portfolio', 30)
    assert res.status == 'unsolvable' and res.up_status == 'UNSOLVABLE_PROVEN'
    assert [s['engine'] for s in res.stages] == ['lapkt']


def test_fast_downward_takes_over_when_lapkt_gives_no_answer():
    """LAPKT fails (here: a search it does not have); Fast Downward gets the time left."""
    problem = parse(DOMAIN, SOLVABLE)
    res = portfolio.solve(problem, 'portfolio', 30, {'search': 'astar'})
    assert res.status == 'solved' and res.engine == 'fast-downward', res.stages
    assert [(s['engine'], s['status']) for s in res.stages] == [
        ('lapkt', 'error'), ('fast-downward', 'solved')]
    assert res.stages[1]['budget'] > res.stages[0]['budget']  # the time LAPKT left


# Eight items and "each item in the hall ... the hall is clean": UP's compilation for LAPKT
# makes 2 ** 8 disjuncts of the goal, Fast Downward reads the quantifier itself.
ITEMS = ' '.join(f'thing{i}' for i in range(8))
QUANTIFIED = f"""(define (problem every) (:domain house)
  (:objects kitchen hall bathroom - room the_robot - robot {ITEMS} - item)
  (:init (at the_robot kitchen) (free the_robot) (in thing0 hall) (in thing1 kitchen)
         (connected kitchen hall) (connected hall kitchen))
  (:goal (forall (?i - item) (imply (in ?i hall) (clean hall)))))"""


def test_a_goal_lapkt_would_get_expanded_goes_to_fast_downward_first():
    problem = parse(DOMAIN, QUANTIFIED)
    assert engines.expansion(problem) > 64 and engines.expands_for_lapkt(problem)
    assert portfolio.stages_for(problem) == ('fast-downward', 'lapkt')
    assert portfolio.stages_for(parse(DOMAIN, SOLVABLE)) == portfolio.STAGES
    res = portfolio.solve(problem, 'portfolio', 30)
    assert res.status == 'solved' and res.engine == 'fast-downward', res.stages
    assert [s['engine'] for s in res.stages] == ['fast-downward']
    assert res.stages[0]['budget'] == 30  # all the time: LAPKT only gets what it leaves
    assert res.plan == ['(move_to_room the_robot kitchen hall)', '(tidy the_robot hall)']


def test_lapkt_gets_the_time_fast_downward_leaves_unanswered(monkeypatch):
    """Fast Downward first ends early without an answer: LAPKT plans with the rest."""
    problem = parse(DOMAIN, QUANTIFIED)
    real = engines.solve

    def solve(problem, engine, timeout, params=None):
        if engine == 'fast-downward':  # as if it could not read the problem
            return engines.EngineResult(Status.ERROR, [], None, engine, 0.01, log='no')
        return real(problem, engine, timeout, params)

    monkeypatch.setattr(engines, 'solve', solve)
    res = portfolio.solve(problem, 'portfolio', 60)
    assert [(s['engine'], s['status']) for s in res.stages] == [
        ('fast-downward', 'error'), ('lapkt', res.status)]
    assert res.stages[1]['budget'] > 55
    assert res.status == 'solved' and res.engine == 'lapkt'


def test_one_engine_is_pinned_by_name():
    res = portfolio.solve(parse(DOMAIN, SOLVABLE), 'fast-downward', 30)
    assert res.engine == 'fast-downward' and res.stages == []


@pytest.mark.parametrize('left, budget', [(0.5, 0.5), (2.0, 1.0), (30.0, 7.5), (600.0, 10.0)])
def test_lapkt_budget(left, budget):
    assert portfolio.lapkt_budget(left) == budget


def test_plan_json_says_which_engine_solved_it(tmp_path, capsys):
    store = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', 'pddl/household.pddl', '--from',
                 'config/household_state.json', '--store', str(store)]) == 0
    capsys.readouterr()
    goal = '(and (light_on laundry_room_light))'
    assert main(['plan', '--store', str(store), '--goal', goal, '--json']) == 0
    body = json.loads(capsys.readouterr().out)
    assert body['engine'] == 'portfolio' and body['solved_by'] == 'lapkt'
    assert set(body['engine_seconds']) == {'lapkt'}
    assert body['attempts'][-1]['engines'][0]['engine'] == 'lapkt'
    assert main(['plan', '--store', str(store), '--goal', goal, '--json',
                 '--engine', 'fast-downward']) == 0
    pinned = json.loads(capsys.readouterr().out)
    assert pinned['engine'] == pinned['solved_by'] == 'fast-downward'
    assert set(pinned['engine_seconds']) == {'fast-downward'}


def test_compiling_for_lapkt_reads_each_problems_kind_once(monkeypatch):
    """UP recomputes ``Problem.kind`` on each access (~30 ms on a lab problem)."""
    import sys

    import unified_planning.model as upm

    from l3mp_ros.planning import lapkt_engine

    problem = parse(DOMAIN, QUANTIFIED)
    real = upm.Problem.kind
    seen: list[int] = []

    def kind(self):  # counted when read by the code under test (UP reads it too)
        if sys._getframe(1).f_code.co_filename == lapkt_engine.__file__:
            seen.append(id(self))
        return real.fget(self)
    monkeypatch.setattr(upm.Problem, 'kind', property(kind))
    same, maps = lapkt_engine.compile_away(problem, frozenset())
    assert same is problem and maps == [] and seen == []
    compiled, maps = lapkt_engine.compile_away(problem, lapkt_engine._PRECOMPILED)
    assert len(maps) >= 1 and compiled is not problem
    assert len(seen) == len(set(seen)) == len(maps) + 1  # each problem once
    assert not (real.fget(compiled).features & lapkt_engine._PRECOMPILED)
