# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Tests of retrieval: Algorithm 2 (search.match), the entity index, R−, R+ and R^S."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from l3mp_ros.retrieval import make_retriever
from l3mp_ros.retrieval.base import Retrieval, Retriever, context_facts
from l3mp_ros.retrieval.embed import EntityIndex, entity_text, get_embedder
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.retrieval.match import LinkOracle, match
from l3mp_ros.retrieval.query_graph import QUERY_GRAPH_SCHEMA, QueryGraph, QueryGraphError
from l3mp_ros.retrieval.search import SearchRetriever
from l3mp_ros.retrieval.select import SelectRetriever, normalise_name
from l3mp_ros.world.kg import Fact, KnowledgeGraph


# --------------------------------------------------------------------------- helpers
def make_kg(entities: dict[str, str], facts: list[tuple[str, ...]]) -> KnowledgeGraph:
    kg = KnowledgeGraph('household')
    for name, type_ in entities.items():
        kg.add_entity(name, type_)
    for f in facts:
        kg.add_fact(Fact(f[0], tuple(f[1:])))
    return kg


def pens_kg(right: str = 'red_pen', wrong: str = 'red_pen_2') -> KnowledgeGraph:
    """``right`` lies on a table in Jerry's bedroom; ``wrong`` is in the kitchen next door."""
    return make_kg(
        {right: 'pen', wrong: 'pen', 'blue_pen': 'pen', 'jerry_bedroom': 'room',
         'kitchen': 'room', 'table': 'furniture', 'jerry': 'person', 'mug': 'cup'},
        [('item_on', right, 'table'), ('furniture_in', 'table', 'jerry_bedroom'),
         ('item_in', wrong, 'kitchen'), ('item_in', 'blue_pen', 'jerry_bedroom'),
         ('connected', 'kitchen', 'jerry_bedroom'), ('connected', 'jerry_bedroom', 'kitchen'),
         ('person_in', 'jerry', 'kitchen'), ('item_in', 'mug', 'kitchen')])


RED_PEN_QUERY = QueryGraph(['red pen', "Jerry's bedroom"], [(0, 'in', 1)])


@dataclass
class FakeReply:
    data: Any
    prompt_tokens: int = 11
    completion_tokens: int = 7


class FakeLLM:
    model, endpoint = 'fake', None

    def __init__(self, data: Any) -> None:
        self.data = data
        self.calls: list[dict[str, Any]] = []

    def chat(self, messages: list[dict[str, str]], *, schema: dict | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None) -> FakeReply:
        self.calls.append({'messages': messages, 'schema': schema, 'schema_name': schema_name})
        return FakeReply(self.data)


class CountingEncoder:
    """Deterministic fake embedder that records what it embeds."""

    dim = 16

    def __init__(self) -> None:
        self.seen: list[str] = []

    def vec(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(abs(hash(text)) % (2 ** 32))
        v = rng.normal(size=self.dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def encode(self, texts: list[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.stack([self.vec(t) for t in texts]) if texts else np.zeros((0, self.dim))


def sim_matrix(names: list[str], rows: list[dict[str, float]], default: float = 0.1):
    return np.array([[row.get(n, default) for n in names] for row in rows])


@pytest.fixture(scope='module')
def embedder():
    return get_embedder()


# --------------------------------------------------------------------------- Algorithm 2
@pytest.mark.parametrize('right,wrong', [('red_pen', 'red_pen_2'), ('red_pen_2', 'red_pen')])
def test_edges_disambiguate_with_given_similarities(right: str, wrong: str) -> None:
    kg = pens_kg(right, wrong)
    names = sorted(kg.entities)
    # the wrong pen has the closer name
    S = sim_matrix(names, [{wrong: 0.95, right: 0.88, 'blue_pen': 0.7},
                           {'jerry_bedroom': 0.92, 'kitchen': 0.5}])
    m = match(S, RED_PEN_QUERY, kg, names)
    assert m.assignment == {0: right, 1: 'jerry_bedroom'}
    assert m.edge_links == [0.9]  # pen - table - room: a two-fact chain (hop_decay)
    assert set(m.witnesses) == {Fact('item_on', (right, 'table')),
                                Fact('furniture_in', ('table', 'jerry_bedroom'))}
    assert m.score == pytest.approx(0.88 + 0.92 + 0.5 * 0.9)
    # only direct facts count with edge_hops=1: the right pen is out of reach; in the paper's
    # order the name decides, room first the blue pen lying in the room directly wins
    assert match(S, RED_PEN_QUERY, kg, names, edge_hops=1,
                 order='similarity').assignment[0] == wrong
    assert match(S, RED_PEN_QUERY, kg, names, edge_hops=1).assignment[0] == 'blue_pen'
    # without the edge the closer name wins too
    assert match(S, QueryGraph(RED_PEN_QUERY.nodes), kg, names).assignment[0] == wrong


def test_peer_chains_do_not_satisfy_edges() -> None:
    kg = pens_kg()
    links = LinkOracle(kg, edge_hops=2)
    # red_pen_2 - kitchen - jerry_bedroom goes through a room: not "in Jerry's bedroom"
    assert links.link('red_pen_2', 'jerry_bedroom') == 0.0
    assert links.link('red_pen', 'jerry_bedroom') == 0.9
    assert links.link('blue_pen', 'jerry_bedroom') == 1.0
    assert links.link('jerry_bedroom', 'blue_pen') == 1.0
    assert links.witness('red_pen_2', 'jerry_bedroom') == []


@pytest.mark.parametrize('right,wrong', [('red_pen', 'red_pen_2'), ('red_pen_2', 'red_pen')])
def test_real_embedder_finds_the_pen_in_jerrys_room(embedder, right: str, wrong: str) -> None:
    kg = pens_kg(right, wrong)
    retriever = SearchRetriever(embedder, depth=1)
    out = retriever.retrieve_with_query(kg, RED_PEN_QUERY)
    assert out.info['mapping'] == {'red pen': right, "Jerry's bedroom": 'jerry_bedroom'}
    assert out.entities == {right, 'jerry_bedroom'}
    assert Fact('item_on', (right, 'table')) in out.facts
    assert Fact('furniture_in', ('table', 'jerry_bedroom')) in out.facts
    assert out.seconds > 0 and out.info['stats']['expanded'] >= 2


def test_real_embedder_ranks_red_pen_first(embedder) -> None:
    kg = pens_kg()
    kg.add_entity('red_cup', 'cup')
    kg.add_entity('pen_holder', 'container')
    index = EntityIndex(embedder, strip_numbers=False)
    index.sync(kg)
    sims = index.similarity(['red pen'])[0]
    ranking = [index.names[c] for c in np.argsort(-sims)]
    assert ranking[0] == 'red_pen'
    assert ranking.index('red_pen_2') < ranking.index('blue_pen') < ranking.index('mug')
    assert sims.dtype == np.float32
    assert np.allclose(np.linalg.norm(index.vectors, axis=1), 1.0, atol=1e-4)


def test_cutoff_selects_candidates_relative_to_the_best() -> None:
    kg = make_kg({'a': 't', 'b': 't', 'c': 't', 'd': 't'}, [])
    names = ['a', 'b', 'c', 'd']
    q = QueryGraph(['x'])

    def count(row: list[float], **kw: Any) -> int:
        return match(np.array([row]), q, kg, names, **kw).stats['candidates'][0]

    assert count([1.0, 0.95, 0.85, 0.5], cutoff=0.9) == 2
    assert count([1.0, 0.95, 0.85, 0.5], cutoff=0.8) == 3
    assert count([1.0, 0.95, 0.85, 0.5], cutoff=1.0) == 1
    assert count([1.0, 0.95, 0.85, 0.5], cutoff=0.0) == 4
    assert count([1.0, 0.95, 0.85, 0.5], cutoff=0.0, max_candidates=2) == 2
    # a negative best still yields itself and close neighbours
    assert count([-0.2, -0.21, -0.5, -0.9], cutoff=0.9) == 2
    best = match(np.array([[0.2, 0.9, 0.3, 0.1]]), q, kg, names)
    assert best.assignment == {0: 'b'} and best.score == pytest.approx(0.9)
    with pytest.raises(ValueError, match='cutoff'):
        match(np.array([[0.2, 0.9, 0.3, 0.1]]), q, kg, names, cutoff=1.5)
    with pytest.raises(ValueError, match='shape'):
        match(np.zeros((2, 4)), q, kg, names)


def test_mapping_is_injective_and_leaves_nodes_unmapped_when_forced() -> None:
    kg = make_kg({'p1': 'pen', 'p2': 'pen', 'cup': 'cup'}, [])
    names = ['p1', 'p2', 'cup']
    two_pens = QueryGraph(['pen', 'pen'])
    m = match(np.array([[0.9, 0.85, 0.1], [0.9, 0.85, 0.1]]), two_pens, kg, names)
    assert sorted(m.assignment.values()) == ['p1', 'p2']
    # only one candidate passes the cutoff for both nodes: one stays unmapped
    m = match(np.array([[0.9, 0.1, 0.1], [0.8, 0.1, 0.1]]), two_pens, kg, names)
    assert m.assignment == {0: 'p1'} and m.score == pytest.approx(0.9)
    assert m.named(two_pens) == {'pen': 'p1', 'pen#1': None}


def test_guided_candidates_reach_beyond_the_cap() -> None:
    # 30 red pens elsewhere outrank the one in Jerry's bedroom; the cap keeps 5
    ents = {f'red_pen_{k}': 'pen' for k in range(30)}
    ents.update({'red_pen_x': 'pen', 'jerry_bedroom': 'room', 'hall': 'room', 'desk': 'furn'})
    facts = [('item_in', f'red_pen_{k}', 'hall') for k in range(30)]
    facts += [('item_on', 'red_pen_x', 'desk'), ('furniture_in', 'desk', 'jerry_bedroom')]
    kg = make_kg(ents, facts)
    names = sorted(kg.entities)
    row = {f'red_pen_{k}': 0.95 - k * 0.001 for k in range(30)}
    row['red_pen_x'] = 0.9
    S = sim_matrix(names, [row, {'jerry_bedroom': 0.9, 'hall': 0.4}])
    query = RED_PEN_QUERY
    for order in ('similarity', 'constrained'):
        blind = match(S, query, kg, names, max_candidates=5, guided=False, order=order)
        assert blind.assignment[0] == 'red_pen_0'
    guided = match(S, query, kg, names, max_candidates=5, order='constrained')
    assert guided.assignment == {0: 'red_pen_x', 1: 'jerry_bedroom'}
    assert match(S, query, kg, names, max_candidates=5).assignment[0] == 'red_pen_x'
    # in the paper's order the pen node comes first, before the room is known
    paper = {'order': 'similarity'}
    assert match(S, query, kg, names, max_candidates=5, **paper).assignment[0] == 'red_pen_0'
    assert match(S, query, kg, names, max_candidates=40, **paper).assignment[0] == 'red_pen_x'


def test_cut_nodes_wait_for_an_uncut_neighbour() -> None:
    # "the glass on the fifth level of the shelf in Lucy's bedroom": the glass (one
    # candidate) lies in the kitchen, linked in the query only to the level; 30 alike
    # levels elsewhere outrank Lucy's level 5, so the cap (5) never holds it, unless the
    # level is searched after the shelf of Lucy's bedroom is placed
    ents = {f'wing_level_{k}': 'level' for k in range(30)}
    ents.update({'lucy_level_5': 'level', 'lucy_shelf': 'shelf', 'lucy_bedroom': 'room',
                 'kitchen': 'room', 'tall_glass': 'glass', 'wing_shelf': 'shelf'})
    facts = [('level_of', f'wing_level_{k}', 'wing_shelf') for k in range(30)]
    facts += [('level_of', 'lucy_level_5', 'lucy_shelf'),
              ('in_room', 'lucy_shelf', 'lucy_bedroom'), ('in_room', 'tall_glass', 'kitchen')]
    kg = make_kg(ents, facts)
    names = sorted(kg.entities)
    levels = {f'wing_level_{k}': 0.8 - k * 0.001 for k in range(30)}
    levels['lucy_level_5'] = 0.75
    S = sim_matrix(names, [{'tall_glass': 0.95}, levels, {'lucy_shelf': 0.8, 'wing_shelf': 0.79},
                           {'lucy_bedroom': 0.94, 'kitchen': 0.3}])
    query = QueryGraph(['tall glass', 'fifth shelf level', 'shelf', "Lucy's bedroom"],
                       [(0, 'on', 1), (1, 'of', 2), (2, 'in', 3)])
    m = match(S, query, kg, names, max_candidates=5)
    assert m.assignment == {0: 'tall_glass', 1: 'lucy_level_5', 2: 'lucy_shelf',
                            3: 'lucy_bedroom'}
    assert m.stats['order'][-1] == 1  # the cut node last, after its uncut neighbours
    # linked-first alone would place the level second, among 5 wing levels
    assert match(S, query, kg, names, max_candidates=5,
                 order='similarity').assignment[1].startswith('wing_level_')


def test_branch_and_bound_prunes() -> None:
    rng = np.random.default_rng(3)
    ents = {f'e{k}': f't{k % 3}' for k in range(12)}
    facts = [('rel', f'e{a}', f'e{b}') for a, b in rng.integers(0, 12, size=(14, 2)) if a != b]
    kg = make_kg(ents, facts)
    names = sorted(ents)
    query = QueryGraph(['a', 'b', 'c', 'd'], [(0, 'r', 1), (1, 'r', 2), (2, 'r', 3)])
    S = rng.uniform(0.3, 1.0, size=(4, 12))
    full = match(S, query, kg, names, cutoff=0.0, bound=False)
    bb = match(S, query, kg, names, cutoff=0.0, bound=True)
    assert bb.assignment == full.assignment
    assert bb.score == pytest.approx(full.score)
    assert bb.stats['expanded'] < full.stats['expanded'] / 5
    assert bb.stats['pruned'] > 0 and full.stats['pruned'] == 0


def test_max_expansions_truncates_but_returns_a_mapping() -> None:
    ents = {f'e{k}': 't' for k in range(10)}
    kg = make_kg(ents, [])
    S = np.random.default_rng(0).uniform(0.5, 1.0, size=(4, 10))
    m = match(S, QueryGraph(['a', 'b', 'c', 'd']), kg, sorted(ents), cutoff=0.0,
              bound=False, max_expansions=10)
    assert m.stats['truncated'] and len(m.assignment) == 4


def _link(kg: KnowledgeGraph, a: str, b: str, hops: int) -> float:
    """Independent reimplementation of the documented link rule."""
    if hops >= 1 and any(b in f.args for f in kg.facts_of(a)):
        return 1.0
    if hops >= 2:
        for z in kg.entities:
            if z in (a, b) or kg.type_of(z) in (kg.type_of(a), kg.type_of(b)):
                continue
            if any(z in f.args for f in kg.facts_of(a)) and any(
                    z in f.args for f in kg.facts_of(b)):
                return 0.9  # the default hop_decay
    return 0.0


@st.composite
def random_problem(draw: Any) -> dict[str, Any]:
    n_ent = draw(st.integers(2, 7))
    n_q = draw(st.integers(1, min(4, n_ent)))
    types = draw(st.lists(st.sampled_from(['a', 'b', 'c']), min_size=n_ent, max_size=n_ent))
    ents = {f'e{k}': types[k] for k in range(n_ent)}
    pairs = [(a, b) for a in range(n_ent) for b in range(n_ent) if a != b]
    facts = draw(st.lists(st.sampled_from(pairs), max_size=10, unique=True))
    qpairs = [(a, b) for a in range(n_q) for b in range(n_q) if a < b]
    edges = draw(st.lists(st.sampled_from(qpairs), max_size=4, unique=True)) if qpairs else []
    seed = draw(st.integers(0, 2 ** 31))
    S = np.random.default_rng(seed).uniform(-0.2, 1.0, size=(n_q, n_ent))
    return {
        'kg': make_kg(ents, [('p', f'e{a}', f'e{b}') for a, b in facts]),
        'names': list(ents),
        'query': QueryGraph([f'q{k}' for k in range(n_q)], [(a, 'r', b) for a, b in edges]),
        'S': S,
        'cutoff': draw(st.sampled_from([0.0, 0.5, 0.9])),
        'max_candidates': draw(st.integers(1, 5)),
        'edge_hops': draw(st.integers(0, 2)),
        'edge_weight': draw(st.sampled_from([0.0, 0.3, 1.0])),
        'guided': draw(st.booleans()),
        'order': draw(st.sampled_from(['similarity', 'constrained'])),
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_problem())
def test_branch_and_bound_equals_exhaustive(p: dict[str, Any]) -> None:
    kw = {k: p[k] for k in ('cutoff', 'max_candidates', 'edge_hops', 'edge_weight',
                            'guided', 'order')}
    exhaustive = match(p['S'], p['query'], p['kg'], p['names'], bound=False, **kw)
    bb = match(p['S'], p['query'], p['kg'], p['names'], bound=True, **kw)
    assert bb.score == pytest.approx(exhaustive.score, abs=1e-9)
    assert bb.assignment == exhaustive.assignment
    assert bb.stats['expanded'] <= exhaustive.stats['expanded']
    # the reported score is the documented formula
    w = kw['edge_weight'] if kw['edge_hops'] else 0.0
    names = p['names']
    formula = sum(p['S'][q, names.index(e)] for q, e in bb.assignment.items()) + w * sum(
        _link(p['kg'], bb.assignment[a], bb.assignment[b], kw['edge_hops'])
        for a, _, b in p['query'].edges if a in bb.assignment and b in bb.assignment)
    assert bb.score == pytest.approx(formula, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(random_problem())
def test_uncapped_search_is_optimal_over_all_injective_mappings(p: dict[str, Any]) -> None:
    kg, names, query, S = p['kg'], p['names'], p['query'], p['S']
    hops, w = p['edge_hops'], p['edge_weight'] if p['edge_hops'] else 0.0
    got = match(S, query, kg, names, cutoff=0.0, max_candidates=len(names), edge_hops=hops,
                edge_weight=p['edge_weight'], guided=False)
    # cutoff 0 keeps entities down to best - |best|; restrict the brute force likewise.
    # The documented mapping space: injective, and a node is left unmapped only when every
    # one of its candidates is taken by another node.
    n_q = len(query.nodes)
    thr = [S[q].max() - abs(S[q].max()) for q in range(n_q)]
    cands = [[c for c in range(len(names)) if S[q, c] >= thr[q]] for q in range(n_q)]
    best = -np.inf
    for choice in itertools.product(*[[*c, None] for c in cands]):
        taken = [c for c in choice if c is not None]
        if len(taken) != len(set(taken)):
            continue
        if any(c is None and not set(cands[q]) <= set(taken) for q, c in enumerate(choice)):
            continue
        score = sum(S[q, c] for q, c in enumerate(choice) if c is not None) + w * sum(
            _link(kg, names[choice[a]], names[choice[b]], hops) for a, _, b in query.edges
            if choice[a] is not None and choice[b] is not None)
        best = max(best, score)
    if best > -np.inf:
        assert got.score == pytest.approx(best, abs=1e-9)


def test_node_whose_candidates_are_taken_stays_unmapped() -> None:
    """Hypothesis found this: q0's only candidate is e1, which q1 scores far higher."""
    kg = make_kg({'e0': 'a', 'e1': 'a'}, [])
    S = np.array([[-0.165, -0.041], [0.120, 0.788]])
    got = match(S, QueryGraph(['q0', 'q1'], []), kg, ['e0', 'e1'], cutoff=0.0,
                max_candidates=2, edge_hops=0, guided=False)
    assert got.assignment == {1: 'e1'} and got.score == pytest.approx(0.788)


# --------------------------------------------------------------------------- query graphs
def test_query_graph_from_tolerant_json() -> None:
    q = QueryGraph.from_json({'entities': ['red pen', "Jerry's bedroom"],
                              'relations': [['red pen', 'in', "jerry's bedroom"]]})
    assert q.nodes == ['red pen', "Jerry's bedroom"] and q.edges == [(0, 'in', 1)]
    text = '```json\n{"nodes": [{"name": "cup"}, "table"], "edges": [[0, "on", "1"]]}\n```'
    assert QueryGraph.from_json(text).edges == [(0, 'on', 1)]
    q = QueryGraph.from_json({'entities': ['cup'], 'relations': [
        {'source': 'cup', 'relation': 'in', 'target': 'kitchen'}]})
    assert q.nodes == ['cup', 'kitchen'] and q.edges == [(0, 'in', 1)]
    q = QueryGraph.from_json({'entities': ['a', 'b'], 'relations': [[0, 'x', 1], [0, 'x', 1]]})
    assert q.edges == [(0, 'x', 1)]
    assert QueryGraph.from_json(q.to_json()) == q
    assert QueryGraph.from_json({'entities': ['a']}).edges == []


@pytest.mark.parametrize('data,message', [
    (None, 'JSON object'),
    ('no json here', 'not JSON'),
    ({'relations': []}, '"entities" list'),
    ({'entities': []}, 'no entities'),
    ({'entities': ['a', 3]}, 'entity 1 must be a non-empty string'),
    ({'entities': ['a', '  ']}, 'entity 1'),
    ({'entities': ['a', 'b'], 'relations': [[0, 'in']]}, r'relation 0 must be \[entity'),
    ({'entities': ['a', 'b'], 'relations': [[0, 'in', 5]]}, 'index 5 is out of range'),
    ({'entities': ['a', 'b'], 'relations': [[True, 'in', 1]]}, 'not an entity'),
    ({'entities': ['a', 'b'], 'relations': [[0, 'in', 0]]}, 'to itself'),
    ({'entities': ['a', 'b'], 'relations': [[0, 7, 1]]}, 'relation must be a string'),
    ({'entities': ['a', 'b'], 'relations': 'a in b'}, '"relations" must be a list'),
    ({'entities': ['a', 'b'], 'relations': [[0, 'in', None]]}, 'neither an index'),
])
def test_malformed_query_graphs_are_rejected(data: Any, message: str) -> None:
    with pytest.raises(QueryGraphError, match=message):
        QueryGraph.from_json(data)


def test_unknown_endpoint_rejected_without_add_missing() -> None:
    with pytest.raises(QueryGraphError, match="'kitchen' is not one of the entities"):
        QueryGraph.from_json({'entities': ['cup'], 'relations': [['cup', 'in', 'kitchen']]},
                             add_missing=False)
    with pytest.raises(QueryGraphError, match='not an index'):
        QueryGraph(['a', 'b'], [(0, 'in', 2)])


# --------------------------------------------------------------------------- entity index
def test_entity_text() -> None:
    assert entity_text('red_pen_57', 'item') == 'red pen (item)'
    assert entity_text('red_pen_57', 'item', strip_numbers=False) == 'red pen 57 (item)'
    assert entity_text('table_1_2', 'furniture', 'oak') == 'table (furniture): oak'
    assert entity_text('42', 'thing') == '42 (thing)'


def test_entity_index_syncs_incrementally() -> None:
    enc = CountingEncoder()
    kg = pens_kg()
    index = EntityIndex(enc)
    assert index.sync(kg) == {'added': 8, 'updated': 0, 'removed': 0}
    assert len(enc.seen) == 8 and entity_text('red_pen', 'pen') in enc.seen
    assert index.sync(kg) == {'added': 0, 'updated': 0, 'removed': 0}
    assert len(enc.seen) == 8
    kg.add_entity('green_pen', 'pen')
    kg.add_entity('mug', 'glass')  # retyped
    kg.remove_entity('blue_pen')
    enc.seen.clear()
    assert index.sync(kg) == {'added': 1, 'updated': 1, 'removed': 1}
    assert sorted(enc.seen) == ['green pen (pen)', 'mug (glass)']
    assert sorted(index.names) == sorted(kg.entities) and 'blue_pen' not in index
    for name in kg.entities:  # rows still belong to their names after the swap-removal
        assert np.allclose(index.vectors[index.column(name)],
                           enc.vec(entity_text(name, kg.type_of(name))))
    sims = index.similarity(['green pen (pen)'])
    assert sims.shape == (1, len(kg.entities))
    assert index.names[int(np.argmax(sims))] == 'green_pen'
    index.descriptions = {'mug': 'the chipped one'}
    enc.seen.clear()
    assert index.sync(kg)['updated'] == 1 and enc.seen == ['mug (glass): the chipped one']


def test_entity_index_follows_each_graph_it_is_given() -> None:
    """The O(1) unchanged check never mistakes one graph, or a copy, for another."""
    enc = CountingEncoder()
    a, b = pens_kg(), pens_kg()
    b.remove_entity('blue_pen')
    b.add_entity('stapler', 'tool')  # same size as a, other entities
    index = EntityIndex(enc)
    for kg in (a, b, a, b.copy(), a.copy()):
        index.sync(kg)
        assert sorted(index.names) == sorted(kg.entities)
    c = a.copy()
    c.add_entity('red_pen', 'marker')  # retyped in the copy only
    index.sync(c)
    assert index.text_of('red_pen') == 'red pen (marker)'
    index.sync(a)
    assert index.text_of('red_pen') == 'red pen (pen)'
    enc.seen.clear()
    assert index.sync(a) == {'added': 0, 'updated': 0, 'removed': 0} and enc.seen == []


def test_real_embedder_caches_queries_and_embeds_only_new_entities(embedder) -> None:
    kg = pens_kg()
    index = EntityIndex(embedder)
    index.sync(kg)
    before = embedder.strings_encoded
    kg.add_entity('stapler', 'tool')
    index.sync(kg)
    assert embedder.strings_encoded == before + 1
    a = embedder.encode(['a query nobody asked before'])
    b = embedder.encode(['a query nobody asked before'])
    assert embedder.strings_encoded == before + 2 and np.array_equal(a, b)
    assert a.dtype == np.float32 and a.shape == (1, embedder.dim)


# --------------------------------------------------------------------------- retrievers
def test_context_facts_are_capped_nearest_first() -> None:
    kg = pens_kg()
    witness = [Fact('connected', ('kitchen', 'jerry_bedroom'))]
    facts = context_facts(kg, ['red_pen'], depth=2, max_facts=3, first=witness)
    assert facts[0] == witness[0]
    assert facts[1] == Fact('item_on', ('red_pen', 'table'))
    assert facts[2] == Fact('furniture_in', ('table', 'jerry_bedroom'))
    assert len(context_facts(kg, ['red_pen'], depth=4, max_facts=None)) == len(kg)


def test_full_retriever_returns_everything() -> None:
    kg = pens_kg()
    out = make_retriever('full').retrieve(kg, 'anything', None)
    assert isinstance(out, Retrieval) and out.facts == set(kg.facts)
    assert out.entities == set(kg.entities) and out.prompt_tokens == 0
    assert len(FullRetriever(max_facts=2).retrieve(kg, 'x').facts) == 2


def test_select_retriever_with_fake_llm() -> None:
    kg = pens_kg()
    llm = FakeLLM({'entities': ['Red pen', 'jerry_bedroom (room)', 'ghost', 3]})
    retriever = make_retriever('select', depth=1)
    assert isinstance(retriever, Retriever)
    out = retriever.retrieve(kg, 'Bring me the red pen from my bedroom', llm)
    assert out.entities == {'red_pen', 'jerry_bedroom'}
    assert out.info['unknown'] == ['ghost', '3']
    assert out.facts == kg.subgraph_facts(['red_pen', 'jerry_bedroom'], 1)
    assert (out.prompt_tokens, out.completion_tokens) == (11, 7)
    call = llm.calls[0]
    assert call['schema_name'] == 'select_entities'
    assert '- red_pen (pen)' in call['messages'][-1]['content']
    assert call['messages'][-1]['content'].endswith('Request: Bring me the red pen from my '
                                                    'bedroom')
    bad = SelectRetriever().retrieve(kg, 'x', FakeLLM(None))
    assert bad.entities == set() and bad.facts == set() and 'error' in bad.info
    assert normalise_name(' "Jerry Bedroom" ') == 'jerry_bedroom'


def test_search_retriever_with_fake_llm(embedder) -> None:
    kg = pens_kg('red_pen_2', 'red_pen')
    llm = FakeLLM({'entities': ['red pen', "Jerry's bedroom"],
                   'relations': [['red pen', 'in', "Jerry's bedroom"]]})
    retriever = make_retriever('search', embedder=embedder)
    out = retriever.retrieve(kg, "Bring me the red pen from Jerry's room", llm)
    assert out.info['mapping'] == {'red pen': 'red_pen_2', "Jerry's bedroom": 'jerry_bedroom'}
    assert (out.prompt_tokens, out.completion_tokens) == (11, 7)
    assert out.seconds >= out.llm_seconds >= 0
    call = llm.calls[0]
    assert call['schema'] == QUERY_GRAPH_SCHEMA and call['schema_name'] == 'query_graph'
    assert 'Request: Bring me the red pen' in call['messages'][-1]['content']
    json.dumps(out.to_json())  # JSON-friendly


def test_search_retriever_malformed_reply(embedder) -> None:
    kg = pens_kg()
    llm = FakeLLM({'entities': ['red pen'], 'relations': [[0, 'in', 4]]})
    out = SearchRetriever(embedder).retrieve(kg, 'the red pen', llm)
    assert 'out of range' in out.info['query_graph_error']
    assert out.info['query_graph'] == {'entities': ['the red pen'], 'relations': []}
    assert out.entities == {'red_pen'}
    with pytest.raises(QueryGraphError, match='out of range'):
        SearchRetriever(embedder, strict=True).retrieve(kg, 'the red pen', llm)
    with pytest.raises(ValueError, match='needs an LLM'):
        SearchRetriever(embedder).retrieve(kg, 'the red pen', None)


def test_make_retriever_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match='unknown retriever'):
        make_retriever('magic')
