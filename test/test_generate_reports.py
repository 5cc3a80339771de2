# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The report generator (benchmarks/generate_reports.py) on a small domain of its own."""

import json
import sys
from pathlib import Path

import pytest

from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.verify import Verifier

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'benchmarks'))

import generate_reports as gen  # noqa: E402
import nl_reports  # noqa: E402

# a workshop nobody else uses: two people, three places, tools and parts, lamps
DOMAIN = """
(define (domain workshop)
  (:requirements :strips :typing :negative-preconditions)
  (:types person place thing - object
          tool part - thing)
  (:predicates (person_at ?p - person ?l - place)
               (thing_at ?t - thing ?l - place)
               (carrying ?p - person ?t - thing)
               (hands_free ?p - person)
               (lamp_lit ?l - place)
               (part_fixed ?x - part))
  (:action walk
    :parameters (?p - person ?from - place ?to - place)
    :precondition (person_at ?p ?from)
    :effect (and (not (person_at ?p ?from)) (person_at ?p ?to)))
  (:action pick_up
    :parameters (?p - person ?t - thing ?l - place)
    :precondition (and (person_at ?p ?l) (thing_at ?t ?l) (hands_free ?p))
    :effect (and (not (thing_at ?t ?l)) (carrying ?p ?t) (not (hands_free ?p))))
  (:action put_down
    :parameters (?p - person ?t - thing ?l - place)
    :precondition (and (person_at ?p ?l) (carrying ?p ?t))
    :effect (and (thing_at ?t ?l) (not (carrying ?p ?t)) (hands_free ?p)))
  (:action light_lamp
    :parameters (?p - person ?l - place)
    :precondition (and (person_at ?p ?l) (not (lamp_lit ?l)))
    :effect (lamp_lit ?l))
  (:action fix_part
    :parameters (?p - person ?x - part ?t - tool ?l - place)
    :precondition (and (person_at ?p ?l) (carrying ?p ?t) (thing_at ?x ?l))
    :effect (part_fixed ?x)))
"""
ENTITIES = {'ada': 'person', 'bruno': 'person', 'tool_shed': 'place', 'back_yard': 'place',
            'front_porch': 'place', 'hammer': 'tool', 'wrench': 'tool', 'hinge': 'part',
            'gear_wheel': 'part'}
FACTS = [('ada', 'person_at', 'tool_shed'), ('bruno', 'person_at', 'back_yard'),
         ('ada', 'hands_free', 'true'), ('bruno', 'hands_free', 'true'),
         ('hammer', 'thing_at', 'tool_shed'), ('wrench', 'thing_at', 'back_yard'),
         ('hinge', 'thing_at', 'front_porch'), ('gear_wheel', 'thing_at', 'tool_shed')]


@pytest.fixture(autouse=True)
def _rule_phrasing(monkeypatch):
    monkeypatch.setenv('L3MP_PHRASEBOOKS', 'off')  # templates by rules: no cache, no model


@pytest.fixture
def files(tmp_path):
    domain = tmp_path / 'workshop.pddl'
    domain.write_text(DOMAIN)
    state = tmp_path / 'workshop_state.json'
    state.write_text(json.dumps({
        'schema': 'l3mp/kg/v1', 'domain': 'workshop',
        'entities': [{'name': n, 'type': t} for n, t in ENTITIES.items()],
        'facts': [list(f) for f in FACTS]}))
    return domain, state


def _run(files, tmp_path, *extra, name='set.json'):
    out = tmp_path / 'out' / name
    assert gen.main([str(files[0]), str(files[1]), '--out', str(out), *extra]) == 0
    return out, json.loads(out.read_text())


def _gold(rep):
    return Update.of([Fact.from_triplet(t) for t in rep['remove']],
                     [Fact.from_triplet(t) for t in rep['add']])


def test_every_gold_diff_applies_and_verifies_in_a_chain(files, tmp_path):
    out, spec = _run(files, tmp_path, '--n', '40', '--seed', '3')
    domain = DomainSchema.load(files[0])
    verifier = Verifier(domain, Constraints.load(spec['constraints']))
    kg = KnowledgeGraph.from_json(json.loads(Path(spec['state']).read_text()))
    assert spec['chained'] is True and len(spec['reports']) == 40
    applied = 0
    for rep in spec['reports']:
        gold = _gold(rep)
        if rep['expect'] == 'reject':
            assert gold.is_empty()
            continue
        assert not gold.is_empty()  # an action that changes nothing is never a report
        assert verifier.check(kg, gold) == [], rep
        kg.apply(gold)
        applied += 1
    assert applied >= 30
    # the walk used most of the domain's actions, fix_part only after a tool was picked up
    used = {r['action'].strip('()').split()[0] for r in spec['reports'] if 'action' in r}
    assert {'walk', 'pick_up', 'put_down', 'light_lamp'} <= used


def test_texts_name_every_changed_thing(files, tmp_path):
    _, spec = _run(files, tmp_path, '--wordings', '4')
    domain = DomainSchema.load(files[0])
    kg = KnowledgeGraph.from_json(json.loads(Path(spec['state']).read_text()))
    speaker = gen.Speaker(domain, kg)
    kinds = set()
    for rep in spec['reports']:
        for variant in rep.get('variants', ()):
            kinds.add(variant['kind'])
            for entity in _gold(rep).entities():
                assert speaker.names(variant['text'], entity), (entity, variant)
    assert kinds == set(gen.WORDINGS)


def test_event_wording_from_the_action(files, tmp_path):
    domain = DomainSchema.load(files[0])
    kg = KnowledgeGraph.from_json(json.loads(files[1].read_text()))
    speaker = gen.Speaker(domain, kg)

    def said(action, *args):
        result = gen.execute_plan(domain, kg, ['(' + ' '.join((action, *args)) + ')'])
        assert result.ok
        return speaker.wordings(gen.Step(action, args, result.update))

    walk = said('walk', 'ada', 'tool_shed', 'front_porch')
    assert walk['event'] == 'Ada walked from the tool shed to the front porch.'
    assert 'Ada is now at the front porch.' in walk['facts']
    assert 'Ada is no longer at the tool shed.' in walk['facts']
    pick = said('pick_up', 'ada', 'hammer', 'tool_shed')
    assert pick['event'].startswith('Ada picked up the hammer.')
    # what holds now; of what no longer holds only what names a thing nothing else names
    assert pick['main'] == ('Ada is now carrying the hammer. '
                            'The hammer is no longer at the tool shed.')
    assert "Ada's hands are no longer free." in pick['facts']  # hands_free: a part's state
    assert said('light_lamp', 'bruno', 'back_yard')['event'].startswith('Bruno lit the lamp.')


def test_the_seed_decides_the_set(files, tmp_path):
    _, one = _run(files, tmp_path, '--seed', '5', name='a.json')
    _, two = _run(files, tmp_path, '--seed', '5', name='b.json')
    _, other = _run(files, tmp_path, '--seed', '6', name='c.json')
    assert one['reports'] == two['reports']
    assert one['reports'] != other['reports']


def test_rejects_are_present(files, tmp_path):
    _, spec = _run(files, tmp_path, '--n', '40', '--rejects', '0.1')
    rejects = [r for r in spec['reports'] if r['expect'] == 'reject']
    assert len(rejects) == 4
    assert all(r['remove'] == [] and r['add'] == [] for r in rejects)
    kinds = {r['reject'] for r in rejects}
    assert {'unknown_entity', 'no_change'} <= kinds
    made_up = next(r for r in rejects if r['reject'] == 'unknown_entity')
    assert made_up['made_up'] not in ENTITIES
    assert ENTITIES[made_up['instead_of']]  # a real thing's type, said with a new name
    remark = next(r for r in rejects if r['reject'] == 'no_change')['text'].lower()
    assert not any(w in remark for n in ENTITIES for w in n.split('_'))


def test_nl_reports_reads_the_set(files, tmp_path):
    out, spec = _run(files, tmp_path)
    loaded = nl_reports.load_set(out)
    assert loaded['schema'] == 'l3mp/nl_reports/v1' and loaded['chained'] is True
    for key in ('domain', 'constraints', 'state'):
        assert Path(nl_reports.ROOT / loaded[key]).is_file(), key
    KnowledgeGraph.from_json(json.loads(Path(loaded['state']).read_text()))
    assert Constraints.load(loaded['constraints']).rules == []  # none beside this domain
    assert all({'text', 'remove', 'add'} <= set(r) for r in loaded['reports'])


def test_bad_input_is_one_line(files, tmp_path, capsys):
    assert gen.main([str(files[0]), str(tmp_path / 'missing.json'),
                     '--out', str(tmp_path / 'x.json')]) == 2
    assert 'no such file' in capsys.readouterr().err
    assert not (tmp_path / 'x.json').exists()


def test_a_change_the_verifier_refuses_is_dropped(files, tmp_path):
    rules = tmp_path / 'rules.yaml'
    rules.write_text('domain: workshop\nrules:\n  - name: one_person_per_place\n'
                     '    kind: functional\n    predicates: [person_at]\n    key: 1\n'
                     '    exactly: false\n')
    _, spec = _run(files, tmp_path, '--constraints', str(rules), '--n', '30')
    assert spec['constraints'] == str(rules.resolve())
    assert spec['generator']['dropped'] == len(spec['dropped']) > 0
    assert all('(walk ' in step for step in spec['dropped'])
    kg = KnowledgeGraph.from_json(json.loads(Path(spec['state']).read_text()))
    for rep in spec['reports']:
        kg.apply(_gold(rep))
        places = [f.args[1] for f in kg.facts if f.predicate == 'person_at']
        assert len(places) == len(set(places))  # never two people in one place
