# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Numeric fluents in the world model (issue 59): typed, verified, stored, shown, exported.

A fact may give a numeric function of the domain a value: ``(= (battery_level robot1) 20)``
in PDDL, the triplet ``(robot1, battery_level, 20)``. Both stores (a SQLite file and a real
PostgreSQL server) keep it with history and support; ``kg show``, ``kg export --pddl`` and
``kg init --from`` carry it; ``kg apply`` and scene graphs set it; bad input is one line and
changes nothing.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from l3mp_ros.cli import main
from l3mp_ros.compose import open_store_world
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KGError, KnowledgeGraph, Update
from l3mp_ros.world.perceive import PerceptionError, scene_graph_update
from l3mp_ros.world.problem_file import ProblemImportError, kg_from_problem
from l3mp_ros.world.stores import open_store
from l3mp_ros.world.verify import Verifier

from .pg_fixtures import postgres  # noqa: F401 (the session's server)

DATA = Path(__file__).resolve().parent / 'data'
DOMAIN = DATA / 'battery_tray.pddl'
PROBLEM = DATA / 'battery_tray_p1.pddl'


@pytest.fixture(scope='module')
def domain() -> DomainSchema:
    return DomainSchema.load(DOMAIN)


@pytest.fixture(params=['sqlite', 'postgresql'])
def store(request, tmp_path) -> str:
    """A store made by ``kg init --from`` the battery problem: a file, or a real server."""
    if request.param == 'sqlite':
        where = str(tmp_path / 'kg.db')
    else:
        server = request.getfixturevalue('postgres')
        where = server.create_database('n_' + uuid.uuid4().hex[:12])
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    return where


def _state(where: str) -> KnowledgeGraph:
    with open_store(where) as s:
        return s.load_kg()


def _events(where: str) -> int:
    with open_store(where) as s:
        return s.last_event_id()


def test_a_numeric_fact_reads_and_writes_in_every_form():
    fact = Fact.from_triplet(['robot1', 'battery_level', 73.5])
    assert fact == Fact('battery_level', ('robot1',), '73.50')
    assert fact.numeric and fact.number == 73.5
    assert fact.key == Fact('battery_level', ('robot1',))
    assert fact.pddl() == '(= (battery_level robot1) 73.5)'
    assert fact.text() == '(robot1, battery_level, 73.5)'
    assert Fact.from_triplet(fact.triplet()) == fact
    two = Fact.from_triplet(['kitchen', 'distance', 'lab', '10'])
    assert two.args == ('kitchen', 'lab') and two.pddl() == '(= (distance kitchen lab) 10)'
    update = Update.parse('REMOVE: ADD: (robot1, battery_level, 73.5), (total_load, 5)')
    assert Fact('total_load', (), '5') in update.add and fact in update.add
    assert Update.from_json(update.to_json()) == update
    kg = KnowledgeGraph('d')
    kg.add_entity('robot1', 'robot')
    kg.add_fact(fact)
    kg.add_fact(fact.with_value(60))  # a new value replaces the old one
    assert kg.value_of('battery_level', ['robot1']) == 60 and len(kg) == 1
    assert KnowledgeGraph.from_json(kg.to_json()).numbers == kg.numbers
    with pytest.raises(KGError):
        Update.parse('ADD: (robot1, battery_level, 7.3.5)')  # no number, no name


def test_the_domain_declares_its_functions(domain):
    assert set(domain.functions) == {'battery_level', 'battery_capacity', 'distance',
                                     'tray_load', 'tray_capacity'}
    assert domain.functions['distance'].signature() == (
        '(distance ?from - location ?to - location)')
    assert 'battery_level' in domain.numeric_state


def test_the_problem_file_values_become_facts_and_come_back(domain, tmp_path):
    kg = kg_from_problem(domain, PROBLEM.read_text()).kg
    assert kg.value_of('battery_level', ['robot1']) == 20
    assert kg.value_of('distance', ['kitchen', 'lab']) == 10
    assert len(kg.numbers) == 8


def test_both_stores_keep_numbers_with_history_and_support(store, capsys):
    capsys.readouterr()
    assert main(['kg', 'show', '--store', store]) == 0
    assert "Robot1's battery level is 20." in capsys.readouterr().out  # in English
    assert main(['kg', 'show', '--store', store, '--facts']) == 0
    assert '(robot1, battery_level, 20)' in capsys.readouterr().out
    assert main(['kg', 'apply', '--store', store, '--update',
                 'ADD: (robot1, battery_level, 73.5)']) == 0
    out = capsys.readouterr().out
    # the old value is replaced, and the event says so
    assert '(robot1, battery_level, 20)' in out and '(robot1, battery_level, 73.5)' in out
    kg = _state(store)
    assert kg.value_of('battery_level', ['robot1']) == 73.5
    assert Fact('battery_level', ('robot1',), '20') not in kg
    with open_store(store) as s:
        last = s.history()[-1]
        assert Fact('battery_level', ('robot1',), '20') in last.update.remove
        support = s.load_support()
    told = support.get(Fact('battery_level', ('robot1',), '73.5'))
    assert told is not None and told.kind == 'told'
    assert support.get(Fact('battery_level', ('robot1',), '20')) is None
    assert support.get(Fact('tray_capacity', ('robot1',), '2')).kind == 'given'
    assert main(['kg', 'history', '--store', store]) == 0
    assert '(robot1, battery_level, 73.5)' in capsys.readouterr().out
    # a world model opened afresh sees the same number
    world = open_store_world(store)
    try:
        assert world.kg.value_of('battery_level', ['robot1']) == 73.5
    finally:
        world.close()


def test_kg_show_says_a_number_in_words_and_json(tmp_path, capsys):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    capsys.readouterr()
    assert main(['kg', 'show', '--store', where, '--entity', 'robot1']) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index('(robot1, battery_level, 20)  [given]')
    assert lines[at + 1].strip().startswith("Robot1's battery level is 20 (as I was set up)")
    assert main(['kg', 'show', '--store', where, '--entity', 'kitchen']) == 0
    assert 'The distance for Kitchen and Lab is 10' in capsys.readouterr().out
    assert main(['kg', 'show', '--store', where, '--entity', 'robot1', '--json']) == 0
    rows = json.loads(capsys.readouterr().out)['facts']
    row = next(r for r in rows if r['fact'][1] == 'battery_level')
    assert row['fact'] == ['robot1', 'battery_level', '20']
    assert "Robot1's battery level is 20" in row['said']
    assert main(['kg', 'show', '--store', where, '--json']) == 0
    assert ['kitchen', 'distance', 'lab', '10'] in json.loads(capsys.readouterr().out)['facts']


def test_export_writes_numeric_init_and_init_reads_it_back(store, tmp_path, capsys):
    assert main(['kg', 'apply', '--store', store, '--update',
                 'ADD: (robot1, battery_level, 73.5)']) == 0
    out = tmp_path / 'state.pddl'
    assert main(['kg', 'export', '--pddl', '--store', store, '--out', str(out)]) == 0
    text = out.read_text()
    assert '(= (battery_level robot1) 73.5)' in text
    assert '(= (distance kitchen lab) 10)' in text
    again = tmp_path / 'again.db'
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(out),
                 '--store', str(again)]) == 0
    assert _state(str(again)).to_json() == _state(store).to_json()


@pytest.mark.parametrize('update, message', [
    ('ADD: (robot1, robot_at, 7)', 'gives the number 7 to robot_at, a predicate'),
    ('ADD: (robot1, battery_level, kitchen)', 'its value must be a number'),
    ('ADD: (robot1, battery_charge, 50)', 'unknown function "battery_charge"'),
    ('ADD: (kitchen, battery_level, 50)', 'kitchen is a location but argument 1 of '
                                          'battery_level must be a robot'),
    ('ADD: (robot1, distance, 5)', 'takes 2'),
    ('ADD: (robot1, battery_level, 50), (robot1, battery_level, 60)', 'two values at once'),
])
def test_bad_numbers_are_one_line_and_change_nothing(tmp_path, capsys, update, message):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    before = _state(where).to_json()
    capsys.readouterr()
    assert main(['kg', 'apply', '--store', where, '--update', update]) == 1
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith('  - ')]
    assert len(lines) == 1 and message in lines[0], err
    assert 'Traceback' not in err
    assert _state(where).to_json() == before


def test_a_malformed_number_in_an_update_is_a_usage_error(tmp_path, capsys):
    where = str(tmp_path / 'kg.db')
    assert main(['kg', 'init', '--domain', str(DOMAIN), '--from', str(PROBLEM),
                 '--store', where]) == 0
    events = _events(where)
    capsys.readouterr()
    assert main(['kg', 'apply', '--store', where, '--update',
                 'ADD: (robot1, battery_level, 7.3.5)']) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and 'Traceback' not in err
    assert _events(where) == events


@pytest.mark.parametrize('edit, message', [
    ('(= (battery_level robot1) 20)', '(= (battery_level kitchen) 20)'),
    ('(robot_at robot1 dock)', '(= (robot_at robot1 dock) 1)'),
])
def test_a_bad_value_in_a_problem_file_names_its_place(domain, edit, message):
    text = PROBLEM.read_text().replace(edit, message)
    with pytest.raises(ProblemImportError, match=r'line \d+, col \d+'):
        kg_from_problem(domain, text)


def test_a_scene_graph_sets_a_measured_number(domain):
    kg = kg_from_problem(domain, PROBLEM.read_text()).kg
    msg = {'schema': 'l3mp/scene_graph/v1', 'entities': [], 'observed': ['robot1'],
           'facts': [['robot1', 'battery_level', 35.5], ['robot1', 'robot_at', 'kitchen']]}
    update, new = scene_graph_update(kg, msg, {'robot_at'}, domain)
    assert Fact('battery_level', ('robot1',), '35.5') in update.add
    assert Fact('battery_level', ('robot1',), '20') in update.remove
    assert not Verifier(domain).check(kg, update)
    for bad, why in ((['robot1', 'battery_level', 'kitchen'], 'must be a number'),
                     (['robot1', 'battery_charge', 3], 'unknown function'),
                     (['robot1', 'robot_at', 3], 'a predicate')):
        with pytest.raises(PerceptionError, match=why):
            scene_graph_update(kg, {**msg, 'facts': [bad]}, {'robot_at'}, domain)
