# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Knowledge graph, fact forms, the paper's update text and the domain schema."""

import json
import os

import pytest

from l3mp_ros.world.domain import DomainError, DomainSchema
from l3mp_ros.world.kg import Fact, KGError, KnowledgeGraph, Update


def test_fact_forms():
    f = Fact.from_triplet(['red_pen', 'in_hand', 'gary'])
    assert f == Fact('in_hand', ('red_pen', 'gary'))
    assert f.pddl() == '(in_hand red_pen gary)'
    assert f.text() == '(red_pen, in_hand, gary)'
    unary = Fact.from_triplet(('kitchen', 'lit', 'true'))
    assert unary == Fact('lit', ('kitchen',)) and unary.triplet() == ('kitchen', 'lit', 'true')
    hyper = Fact('between', ('dune', 'a', 'b'))
    assert Fact.from_triplet(hyper.triplet()) == hyper
    assert Fact.parse_pddl('(lit kitchen)') == unary
    with pytest.raises(KGError):
        Fact.from_triplet(['a', 'b'])


def test_update_parse_paper_form():
    text = ('REMOVE: (red_pen, in_person_hand, gary), (gary, person_in_room, jessica_bedroom)\n'
            'ADD: (gary, person_in_room, alexander_bedroom)')
    u = Update.parse(text)
    assert u.remove == {Fact('in_person_hand', ('red_pen', 'gary')),
                        Fact('person_in_room', ('gary', 'jessica_bedroom'))}
    assert u.add == {Fact('person_in_room', ('gary', 'alexander_bedroom'))}
    assert Update.parse(u.text()) == u


@pytest.mark.parametrize('text', [
    "REMOVE:(\"red_pen\",'in_hand' , gary)  ADD: []",
    'remove: (red_pen, in_hand, gary)\nadd:',
    'REMOVE: [[red_pen, in_hand, gary]]\nADD: none',
])
def test_update_parse_tolerant(text):
    u = Update.parse(text)
    assert u.remove == {Fact('in_hand', ('red_pen', 'gary'))} and not u.add


@pytest.mark.parametrize('text', [
    'REMOVE: (rex, housed_in, paddock) ADD: (rex, housed_in, kennel_1)',
    'REMOVE: (rex, housed_in, paddock), (tag, removed_by, addison)\nADD: (rex, housed_in, '
    'kennel_1)',
])
def test_update_markers_are_whole_words_not_parts_of_names(text):
    """A thing named ``paddock`` (or ``removed_by``, ``addison``) holds no section marker."""
    u = Update.parse(text)
    assert Fact('housed_in', ('rex', 'paddock')) in u.remove
    assert u.add == {Fact('housed_in', ('rex', 'kennel_1'))}
    assert Update.parse(u.text()) == u


def test_update_false_means_remove():
    u = Update.parse('REMOVE:\nADD: (kitchen, lit, false), (jerry_bedroom, lit, true)')
    assert u.remove == {Fact('lit', ('kitchen',))}
    assert u.add == {Fact('lit', ('jerry_bedroom',))}


@pytest.mark.parametrize('text', ['hello world', 'REMOVE: (a, b) ADD:',
                                  'REMOVE: (a, p, b) ADD: (c, p d) garbage', 42])
def test_update_parse_rejects_garbage(text):
    with pytest.raises(KGError):
        Update.parse(text)


def test_update_json_roundtrip():
    u = Update.of([Fact('lit', ('kitchen',))], [Fact('in_hand', ('dune', 'gary'))])
    assert Update.from_json(u.to_json()) == u
    assert u.inverse().inverse() == u
    with pytest.raises(KGError):
        Update.from_json({'add': [['a', 1, 'b']]})


def test_kg_apply_atomic(mini_kg):
    before = mini_kg.to_json()
    bad = Update.of([Fact('in_hand', ('red_pen', 'gary')), Fact('lit', ('jerry_bedroom',))],
                    [Fact('placed_at', ('red_pen', 'kitchen_table'))])
    with pytest.raises(KGError, match='absent'):
        mini_kg.apply(bad)
    assert mini_kg.to_json() == before
    with pytest.raises(KGError, match='unknown entities'):
        mini_kg.apply(Update.of([], [Fact('lit', ('garage',))]))
    assert mini_kg.to_json() == before
    good = Update.of([Fact('in_hand', ('red_pen', 'gary'))],
                     [Fact('placed_at', ('red_pen', 'kitchen_table'))])
    mini_kg.apply(good)
    assert Fact('placed_at', ('red_pen', 'kitchen_table')) in mini_kg
    assert mini_kg.graph.has_edge('red_pen', 'kitchen_table', key='placed_at')
    assert not mini_kg.graph.has_edge('red_pen', 'gary', key='in_hand')
    mini_kg.apply(good.inverse())
    assert mini_kg.to_json() == before


def test_kg_neighbourhood(mini_kg):
    assert mini_kg.neighbours(['dune'], 0) == {'dune'}
    assert mini_kg.neighbours(['dune'], 1) == {'dune', 'kitchen_table'}
    assert 'kitchen' in mini_kg.neighbours(['dune'], 2)
    facts = mini_kg.subgraph_facts(['dune'], 2)
    assert Fact('room_has', ('kitchen', 'kitchen_table')) in facts
    assert all('jerry' not in f.args for f in facts)


def test_kg_hyperfacts_kept(mini_kg):
    h = Fact('between', ('dune', 'kitchen_table', 'jerry_shelf'))
    mini_kg.add_fact(h)
    again = KnowledgeGraph.from_json(mini_kg.to_json())
    assert h in again and 'jerry_shelf' in again.neighbours(['dune'], 1)


def test_kg_snapshot_errors():
    with pytest.raises(KGError, match='schema'):
        KnowledgeGraph.from_json({'schema': 'other/v9', 'entities': []})
    with pytest.raises(KGError, match='unknown entities'):
        KnowledgeGraph.from_json({'entities': [{'name': 'a', 'type': 't'}],
                                  'facts': [['a', 'p', 'b']]})
    with pytest.raises(KGError, match='malformed JSON'):
        KnowledgeGraph.loads('{nope')
    with pytest.raises(KGError):
        KnowledgeGraph.from_json({'entities': [{'name': 3}]})


def test_domain_schema(mini_domain):
    d = mini_domain
    assert d.name == 'mini'
    assert d.is_subtype('pen', 'item') and not d.is_subtype('item', 'pen')
    assert d.is_subtype('robot', 'object')
    assert d.subtypes('furniture') == {'furniture', 'table', 'shelf'}
    assert d.predicates['in_hand'].params[1][1] == ('person', 'robot')
    assert d.accepts('in_hand', 1, 'robot') and not d.accepts('in_hand', 1, 'room')
    assert d.predicates['between'].arity == 3
    assert set(d.actions) == {'move', 'pick', 'place', 'switch_on'}
    assert '(either person robot)' in d.signature('in_hand')
    assert d.fluent_predicates() == {'in_room', 'placed_at', 'in_hand', 'lit', 'dark'}


def test_domain_errors(tmp_path):
    with pytest.raises(DomainError, match='cannot read'):
        DomainSchema.load(tmp_path / 'missing.pddl')
    with pytest.raises(DomainError, match='malformed PDDL'):
        DomainSchema.from_text('(define (domain x) (:predicates (p ?a - ')


def test_snapshot_accepts_a_json_true_and_refuses_a_false_fact():
    """The paper's (subject, property, boolean) triplet: true holds, false is refused."""
    ents = [{'name': 'rover', 'type': 'robot'}]
    kg = KnowledgeGraph.from_json({'entities': ents, 'facts': [['rover', 'hand_free', True]]})
    assert Fact('hand_free', ('rover',)) in kg
    for bad in (['rover', 'hand_free', False], ['rover', 'hand_free', 'false']):
        with pytest.raises(KGError, match='leave a false one out'):
            KnowledgeGraph.from_json({'entities': ents, 'facts': [bad]})
    with pytest.raises(KGError, match='list of strings'):
        KnowledgeGraph.from_json({'entities': ents, 'facts': [['rover', 'hand_free', None]]})
    # a number last is a function's value (issue 59); the domain decides if it is one
    kg = KnowledgeGraph.from_json({'entities': ents, 'facts': [['rover', 'hand_free', 1]]})
    assert kg.value_of('hand_free', ['rover']) == 1


def test_domain_summary_cache_gives_the_same_schema_without_parsing(tmp_path, monkeypatch):
    """A second process reads the kept summary; the UP problem is parsed only when used."""
    from l3mp_ros.world import domain as domain_module

    from .conftest import MINI_DOMAIN
    monkeypatch.setenv(domain_module.CACHE_ENV, str(tmp_path / 'cache'))
    path = tmp_path / 'mini.pddl'
    path.write_text(MINI_DOMAIN)
    fresh = DomainSchema.load(path)  # parsed: the summary is written
    assert fresh._up_problem is not None
    assert len(list((tmp_path / 'cache').glob('*.json'))) == 1
    domain_module._CACHE.clear()  # as a new process would start
    parsed = []
    real = domain_module._parse
    monkeypatch.setattr(domain_module, '_parse', lambda *a: parsed.append(1) or real(*a))
    cached = DomainSchema.load(path)
    assert cached is not fresh and cached._up_problem is None and parsed == []
    assert cached.summary() == fresh.summary()
    assert cached.predicates == fresh.predicates and cached.actions == fresh.actions
    assert cached.fluent_predicates() == fresh.fluent_predicates()
    assert cached.static_predicates() == {'room_has', 'between'}
    assert cached.predicates['in_hand'].params[1][1] == ('person', 'robot')
    assert cached.up_problem.name == fresh.up_problem.name and parsed == [1]  # on first use
    assert {a.name for a in cached.up_problem.actions} == set(fresh.actions)
    # another text is another entry; a damaged entry is parsed again; "off" keeps nothing
    domain_module._CACHE.clear()
    path.write_text(MINI_DOMAIN + '\n; edited\n')
    DomainSchema.load(path)
    files = sorted((tmp_path / 'cache').glob('*.json'))
    assert len(files) == 2 and parsed == [1, 1]
    for f in files:
        f.write_text('{"version": 1, "name": ')
    domain_module._CACHE.clear()
    assert DomainSchema.load(path).summary() == cached.summary() and parsed == [1, 1, 1]
    monkeypatch.setenv(domain_module.CACHE_ENV, 'off')
    domain_module._CACHE.clear()
    DomainSchema.load(path)
    assert parsed == [1, 1, 1, 1]


def test_an_update_process_never_loads_the_planning_engines(tmp_path):
    """``l3mp update`` with a kept domain summary does not import UP's engines (SciPy)."""
    import subprocess
    import sys

    from l3mp_ros.testing import FakeOpenAI
    from l3mp_ros.world.store import Store

    from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE
    path = tmp_path / 'kg.db'
    Store.create(path, KnowledgeGraph.from_json(json.loads(STATE.read_text())),
                 domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS)).close()
    env = {**os.environ, 'L3MP_DOMAIN_CACHE': str(tmp_path / 'cache'),
           'L3MP_EMBED_KEEP_ALIVE': '0'}
    probe = ('import sys; from l3mp_ros.cli import main; rc = main(sys.argv[1:]); '
             'print("ENGINES" if "unified_planning.engines" in sys.modules else "LEAN"); '
             'sys.exit(rc)')
    reply = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    with FakeOpenAI([reply, reply]) as fake:
        runs = [subprocess.run(
            [sys.executable, '-c', probe, 'update', '--store', str(path), '--text',
             'Jerry took the red pen from the living room table.', '--llm', fake.base_url,
             '--model', 'fake', '--retriever', 'link'], capture_output=True, text=True,
            env=env, timeout=300) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr[-500:]
    assert runs[0].stdout.strip().endswith('ENGINES')  # the first run parsed the domain
    assert runs[1].stdout.strip().endswith('LEAN'), runs[1].stdout[-300:]
