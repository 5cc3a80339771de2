# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The default engine setting, ``portfolio``: LAPKT first, then Fast Downward (real planners)."""

from __future__ import annotations

import json

import pytest

from l3mp_ros import config
from l3mp_ros.cli import main
from l3mp_ros.planning import portfolio

from .test_planning_engines import DOMAIN, SOLVABLE, UNSOLVABLE, parse


def test_portfolio_is_the_default_engine_setting():
    assert config.Config().engine == config.PORTFOLIO
    assert config.ENGINE_SETTINGS == ('portfolio', 'lapkt', 'fast-downward', 'pyperplan')
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
