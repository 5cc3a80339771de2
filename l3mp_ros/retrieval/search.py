# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""R^S: search-based retrieval, the paper's Algorithms 1 (retrieval) and 2 (subgraph matching).

Algorithm 1: the LLM turns the utterance into a :class:`QueryGraph` of *ungrounded* entity
descriptions ("red pen", "Jerry's bedroom") and relations between them; a sentence
embedding model scores every query node against every KG entity (matrix ``S``); Algorithm 2
(:func:`match`) finds the injective mapping of query nodes to KG entities with the best
score; the context is the facts around the mapped entities.

Scoring (Algorithm 2's ``mapping_score``)::

    score(M) = sum_q S[q, M(q)] + edge_weight * sum_(i, rel, j) link(M(i), M(j))

``link(a, b)`` says how well the KG supports a query edge between ``a`` and ``b``. Facts
are undirected links and the relation text is *not* compared (a query edge "in" is
satisfied by ``item_on``/``furniture_in`` chains just as well as by ``item_in``):

- ``1`` when one fact mentions both ``a`` and ``b`` (e.g. ``(red_pen, item_in, kitchen)``);
- ``hop_decay`` (default 0.5) when two facts ``a - z - b`` link them through an entity
  ``z`` whose type differs from both ``a``'s and ``b``'s (``red_pen`` on ``table``,
  ``table`` in ``jerry_bedroom``); only with ``edge_hops >= 2``. The type rule keeps
  chains through *peers* out: a pen in the kitchen is not "in Jerry's bedroom" because
  the kitchen is connected to it (room - room), nor is a pen "on the table" because it
  lies next to another pen;
- ``0`` otherwise (or when a query node stayed unmapped).

Candidates of query node ``q`` are the entities with
``S[q, c] >= best_q - (1 - cutoff) * |best_q|`` (``cutoff * best_q`` for a positive best;
``>=`` so the best entity always qualifies), the ``max_candidates`` most similar of them,
plus (``guided``) any above-cutoff entity within ``edge_hops`` of the entity an already
mapped query neighbour got — so the right red pen is found near Jerry's bedroom even when
hundreds of red pens elsewhere fill the top of the list. The mapping is injective; a node
whose candidates are all taken stays unmapped (similarity 0). Query nodes are searched in
the paper's order (best similarity first; ``order='constrained'``: fewest candidates first).

Branch-and-bound: before expanding a partial mapping with score ``cur``, its upper bound
``cur + sum(max(best_r, 0) for remaining nodes r) + edge_weight * (edges not yet decided)``
is compared with the best complete score found; the branch is pruned when it cannot beat
it. Candidates are tried in descending similarity, so the first leaf is the greedy mapping
and the bound bites early. With ``bound=False`` the search is exhaustive over the same
candidates and returns the same best mapping.
"""

from __future__ import annotations

import time
from collections.abc import Mapping as MappingABC
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from l3mp_ros.llm.prompting import prompt_text
from l3mp_ros.llm.protocol import ChatLLM, reply_tokens
from l3mp_ros.retrieval.base import Retrieval, context_facts
from l3mp_ros.retrieval.embed import EntityIndex, TextEncoder
from l3mp_ros.world.kg import Fact, KnowledgeGraph

QUERY_GRAPH_SCHEMA: dict[str, Any] = {
    'type': 'object',
    'properties': {
        'entities': {'type': 'array', 'items': {'type': 'string'}},
        'relations': {
            'type': 'array',
            'items': {
                'type': 'array',
                'items': {'anyOf': [{'type': 'integer'}, {'type': 'string'}]},
                'minItems': 3,
                'maxItems': 3,
            },
        },
    },
    'required': ['entities', 'relations'],
    'additionalProperties': False,
}

_ENTITY_KEYS = ('entities', 'nodes')
_RELATION_KEYS = ('relations', 'edges', 'relationships')
_NAME_KEYS = ('name', 'description', 'text', 'entity', 'label')
_SRC_KEYS = ('source', 'subject', 'from', 'head')
_REL_KEYS = ('relation', 'predicate', 'rel', 'type')
_DST_KEYS = ('target', 'object', 'to', 'tail')


class QueryGraphError(ValueError):
    """A malformed query graph (from the LLM or a file)."""


# --------------------------------------------------------------------------- query graph
@dataclass
class QueryGraph:
    """Ungrounded entity descriptions and relations between them (by node index)."""

    nodes: list[str]
    edges: list[tuple[int, str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.nodes, list) or not all(
                isinstance(n, str) and n.strip() for n in self.nodes):
            raise QueryGraphError('query graph nodes must be a list of non-empty strings')
        self.nodes = [n.strip() for n in self.nodes]
        checked: list[tuple[int, str, int]] = []
        for k, edge in enumerate(self.edges):
            if not isinstance(edge, (tuple, list)) or len(edge) != 3:
                raise QueryGraphError(f'relation {k} must be (node, relation, node), got {edge!r}')
            a, rel, b = edge
            for end in (a, b):
                if isinstance(end, bool) or not isinstance(end, int) or not (
                        0 <= end < len(self.nodes)):
                    raise QueryGraphError(
                        f'relation {k} {list(edge)!r}: node {end!r} is not an index in '
                        f'0..{len(self.nodes) - 1}')
            if a == b:
                raise QueryGraphError(
                    f'relation {k} links entity {a} ({self.nodes[a]!r}) to itself')
            if not isinstance(rel, str):
                raise QueryGraphError(f'relation {k}: the relation must be a string, got {rel!r}')
            item = (a, rel.strip(), b)
            if item not in checked:
                checked.append(item)
        self.edges = checked

    @classmethod
    def from_json(cls, data: Any, *, add_missing: bool = True) -> QueryGraph:
        """Build from LLM output ``{"entities": [...], "relations": [[a, rel, b], ...]}``.

        Tolerates JSON text (fences, prose around it), ``nodes``/``edges`` as key names,
        entities written as ``{"name": ...}`` objects, relations as objects
        (``source``/``relation``/``target``), endpoints given as indices, digit strings or
        entity strings (matched case-insensitively). With ``add_missing`` an endpoint string
        that names no listed entity becomes a new node. Raises :class:`QueryGraphError`.
        """
        if isinstance(data, str):
            from l3mp_ros.llm.parse import extract_json

            parsed = extract_json(data)
            if parsed is None:
                raise QueryGraphError('the query graph is not JSON')
            data = parsed
        if isinstance(data, list):
            data = {'entities': data}
        if not isinstance(data, dict):
            raise QueryGraphError(
                'a query graph must be a JSON object {"entities": [...], "relations": [...]}')
        raw_nodes = next((data[k] for k in _ENTITY_KEYS if k in data), None)
        if not isinstance(raw_nodes, list):
            raise QueryGraphError('the query graph needs an "entities" list of strings')
        nodes: list[str] = []
        for k, item in enumerate(raw_nodes):
            if isinstance(item, dict):
                item = next((item[key] for key in _NAME_KEYS if isinstance(item.get(key), str)),
                            None)
            if not isinstance(item, str) or not item.strip():
                raise QueryGraphError(f'entity {k} must be a non-empty string, got {item!r}')
            nodes.append(item.strip())
        if not nodes:
            raise QueryGraphError('the query graph has no entities')
        raw_edges = next((data[k] for k in _RELATION_KEYS if k in data), None) or []
        if not isinstance(raw_edges, list):
            raise QueryGraphError('"relations" must be a list of [entity, relation, entity]')
        lookup = {n.lower(): i for i, n in reversed(list(enumerate(nodes)))}

        def endpoint(value: Any, k: int) -> int:
            if isinstance(value, bool):
                raise QueryGraphError(f'relation {k}: {value!r} is not an entity')
            if isinstance(value, int):
                if not 0 <= value < len(nodes):
                    raise QueryGraphError(
                        f'relation {k}: entity index {value} is out of range 0..{len(nodes) - 1}')
                return value
            if isinstance(value, str) and value.strip():
                key = value.strip().lower()
                if key in lookup:
                    return lookup[key]
                if key.isdigit():
                    return endpoint(int(key), k)
                if add_missing:
                    nodes.append(value.strip())
                    lookup[key] = len(nodes) - 1
                    return len(nodes) - 1
                raise QueryGraphError(f'relation {k}: {value!r} is not one of the entities')
            raise QueryGraphError(f'relation {k}: {value!r} is neither an index nor an entity')

        edges: list[tuple[int, str, int]] = []
        for k, rel in enumerate(raw_edges):
            if isinstance(rel, dict):
                parts = [next((rel[key] for key in keys if key in rel), None)
                         for keys in (_SRC_KEYS, _REL_KEYS, _DST_KEYS)]
            elif isinstance(rel, (list, tuple)) and len(rel) == 3:
                parts = list(rel)
            else:
                raise QueryGraphError(
                    f'relation {k} must be [entity, relation, entity], got {rel!r}')
            text = parts[1] if parts[1] is not None else ''
            if not isinstance(text, str):
                raise QueryGraphError(f'relation {k}: the relation must be a string, got {text!r}')
            edges.append((endpoint(parts[0], k), text, endpoint(parts[2], k)))
        return cls(nodes, edges)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"entities": [...], "relations": [[i, rel, j], ...]}``."""
        return {'entities': list(self.nodes), 'relations': [list(e) for e in self.edges]}


# --------------------------------------------------------------------------- links
class LinkOracle:
    """How well the KG links two entities (see the module docstring), memoised per KG state."""

    def __init__(self, kg: KnowledgeGraph, edge_hops: int = 2, hop_decay: float = 0.5) -> None:
        if edge_hops not in (0, 1, 2):
            raise ValueError(f'edge_hops must be 0, 1 or 2, got {edge_hops}')
        if not 0.0 <= hop_decay <= 1.0:
            raise ValueError(f'hop_decay must be in [0, 1], got {hop_decay}')
        self.kg = kg
        self.edge_hops = edge_hops
        self.hop_decay = hop_decay
        self._nbrs: dict[str, frozenset[str]] = {}
        self._links: dict[tuple[str, str], float] = {}
        self._within: dict[str, frozenset[str]] = {}

    def neighbours(self, name: str) -> frozenset[str]:
        """Return the entities sharing a fact with ``name``."""
        out = self._nbrs.get(name)
        if out is None:
            found: set[str] = set()
            for f in self.kg.facts_of(name):
                found.update(f.args)
            found.discard(name)
            out = self._nbrs[name] = frozenset(found)
        return out

    def _via(self, a: str, b: str) -> list[str]:
        """Return the intermediates of two-fact chains ``a - z - b`` (z typed unlike a, b)."""
        peers = {self.kg.type_of(a), self.kg.type_of(b)}
        common = self.neighbours(a) & self.neighbours(b)
        return [z for z in common if self.kg.type_of(z) not in peers]

    def link(self, a: str, b: str) -> float:
        """Return 1 (a fact links a and b), ``hop_decay`` (a two-fact chain) or 0."""
        key = (a, b) if a <= b else (b, a)
        value = self._links.get(key)
        if value is None:
            value = 0.0
            if self.edge_hops >= 1 and a != b:
                if b in self.neighbours(a):
                    value = 1.0
                elif self.edge_hops >= 2 and self._via(a, b):
                    value = self.hop_decay
            self._links[key] = value
        return value

    def within(self, name: str) -> frozenset[str]:
        """Return the entities ``link`` may connect to ``name`` (a superset; not ``name``)."""
        out = self._within.get(name)
        if out is None:
            near = set(self.neighbours(name)) if self.edge_hops >= 1 else set()
            if self.edge_hops >= 2:
                own = self.kg.type_of(name)
                for n in list(near):
                    if self.kg.type_of(n) != own:
                        near |= self.neighbours(n)
            near.discard(name)
            out = self._within[name] = frozenset(near)
        return out

    def witness(self, a: str, b: str) -> list[Fact]:
        """Return facts showing the link between ``a`` and ``b`` (empty when unlinked)."""
        direct = sorted(f for f in self.kg.facts_of(a) if b in f.args)
        if direct or self.edge_hops < 2:
            return direct[:1] if direct else []
        for z in sorted(self._via(a, b)):
            az = sorted(f for f in self.kg.facts_of(z) if a in f.args)
            zb = sorted(f for f in self.kg.facts_of(z) if b in f.args)
            if az and zb:
                return [az[0], zb[0]]
        return []


# --------------------------------------------------------------------------- Algorithm 2
@dataclass
class Mapping:
    """A (partial, injective) map of query nodes to KG entities with its score."""

    assignment: dict[int, str]
    score: float
    node_scores: dict[int, float] = field(default_factory=dict)
    edge_links: list[float] = field(default_factory=list)
    witnesses: list[Fact] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    def entities(self) -> set[str]:
        """Return the mapped KG entities."""
        return set(self.assignment.values())

    def named(self, query: QueryGraph) -> dict[str, str | None]:
        """Return ``{query node text: entity or None}`` (later duplicates get ``#k``)."""
        out: dict[str, str | None] = {}
        for i, text in enumerate(query.nodes):
            key = text if text not in out else f'{text}#{i}'
            out[key] = self.assignment.get(i)
        return out


def candidate_threshold(best: float, cutoff: float) -> float:
    """Return the similarity a candidate needs: ``cutoff * best`` for ``best > 0``."""
    return best - (1.0 - cutoff) * abs(best)


def match(S: np.ndarray, query: QueryGraph, kg: KnowledgeGraph, names: Sequence[str], *,
          cutoff: float = 0.9, max_candidates: int = 20, edge_weight: float = 0.5,
          edge_hops: int = 2, hop_decay: float = 0.5, bound: bool = True,
          order: str = 'similarity', guided: bool = True,
          columns: MappingABC[str, int] | None = None, max_expansions: int = 200_000,
          links: LinkOracle | None = None) -> Mapping:
    """Algorithm 2: the best-scoring injective mapping of ``query`` nodes onto ``names``.

    ``S`` is the ``(len(query.nodes), len(names))`` similarity matrix whose column ``c`` is
    entity ``names[c]``. See the module docstring for candidates, score and bound.
    ``stats`` holds ``expanded`` (search nodes expanded), ``leaves``, ``pruned``,
    ``candidates`` (per query node), ``order`` and ``truncated`` (hit ``max_expansions``).
    """
    start = time.perf_counter()
    S = np.asarray(S, dtype=np.float64)
    n = len(query.nodes)
    if S.ndim != 2 or S.shape != (n, len(names)):
        raise ValueError(f'S has shape {S.shape}, expected ({n}, {len(names)})')
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f'cutoff must be in [0, 1], got {cutoff}')
    if edge_weight < 0 or max_candidates < 1:
        raise ValueError('edge_weight must be >= 0 and max_candidates >= 1')
    if order not in ('similarity', 'constrained'):
        raise ValueError(f"order must be 'similarity' or 'constrained', got {order!r}")
    links = links or LinkOracle(kg, edge_hops, hop_decay)
    w = float(edge_weight) if links.edge_hops > 0 else 0.0

    # candidates per node (line 8 of Algorithm 2, capped)
    best = np.full(n, -np.inf)
    thr = np.full(n, np.inf)
    passing = np.zeros(n, dtype=np.int64)
    base: list[list[int]] = []
    for q in range(n):
        row = S[q]
        if row.size == 0:
            base.append([])
            continue
        best[q] = float(row.max())
        thr[q] = candidate_threshold(best[q], cutoff)
        idx = np.flatnonzero(row >= thr[q])
        passing[q] = idx.size
        if idx.size > max_candidates:
            idx = idx[np.argpartition(-row[idx], max_candidates - 1)[:max_candidates]]
        base.append(sorted(idx.tolist(), key=lambda c, r=row: (-r[c], c)))

    # node order (Algorithm 1, line 3) and, per position, the edges decided there
    if order == 'similarity':
        seq = sorted(range(n), key=lambda q: (-best[q], q))
    else:
        seq = sorted(range(n), key=lambda q: (passing[q], -best[q], q))
    pos_of = {q: p for p, q in enumerate(seq)}
    decided: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (edge index, other node)
    for e, (a, _, b) in enumerate(query.edges):
        later, other = (a, b) if pos_of[a] > pos_of[b] else (b, a)
        decided[pos_of[later]].append((e, other))
    suffix_best = [0.0] * (n + 1)
    remaining_edges = [0] * (n + 1)
    for p in range(n - 1, -1, -1):
        suffix_best[p] = suffix_best[p + 1] + max(float(best[seq[p]]), 0.0)
        remaining_edges[p] = remaining_edges[p + 1] + len(decided[p])
    query_nbrs: list[set[int]] = [set() for _ in range(n)]
    for a, _, b in query.edges:
        query_nbrs[a].add(b)
        query_nbrs[b].add(a)
    if guided and columns is None and links.edge_hops > 0 and query.edges:
        columns = {name: c for c, name in enumerate(names)}
    extra_cache: dict[tuple[int, str], list[int]] = {}

    def extras(q: int, entity: str) -> list[int]:
        key = (q, entity)
        got = extra_cache.get(key)
        if got is None:
            got = []
            for x in links.within(entity):
                c = columns.get(x) if columns is not None else None
                if c is not None and S[q, c] >= thr[q]:
                    got.append(c)
            extra_cache[key] = got
        return got

    assign: dict[int, str | None] = {}
    cols: dict[int, int] = {}
    used: set[str] = set()
    state = {'best': -np.inf, 'expanded': 0, 'leaves': 0, 'pruned': 0, 'truncated': False}
    best_assign: dict[int, str | None] = {}
    best_cols: dict[int, int] = {}

    def candidates(q: int) -> list[int]:
        cands = base[q]
        if guided and columns is not None:
            more: set[int] = set()
            for other in query_nbrs[q]:
                ent = assign.get(other)
                if ent is not None:
                    more.update(extras(q, ent))
            if more:
                more.difference_update(cands)
                if more:
                    row = S[q]
                    cands = sorted([*cands, *more], key=lambda c: (-row[c], c))
        return cands

    def dfs(p: int, cur: float) -> None:
        nonlocal best_assign, best_cols
        if p == n:
            state['leaves'] += 1
            if cur > state['best']:
                state['best'] = cur
                best_assign = dict(assign)
                best_cols = dict(cols)
            return
        if bound and cur + suffix_best[p] + w * remaining_edges[p] <= state['best']:
            state['pruned'] += 1
            return
        if state['expanded'] >= max_expansions:
            state['truncated'] = True
            return
        state['expanded'] += 1
        q = seq[p]
        tried = False
        for c in candidates(q):
            name = names[c]
            if name in used:
                continue
            tried = True
            gain = float(S[q, c])
            if w:
                for _, other in decided[p]:
                    ent = assign.get(other)
                    if ent is not None:
                        gain += w * links.link(name, ent)
            assign[q] = name
            cols[q] = c
            used.add(name)
            dfs(p + 1, cur + gain)
            used.discard(name)
            del assign[q], cols[q]
            if state['truncated']:
                return
        if not tried:  # every candidate taken (or none): leave q unmapped
            assign[q] = None
            dfs(p + 1, cur)
            del assign[q]

    dfs(0, 0.0)
    final = {q: e for q, e in best_assign.items() if e is not None}
    node_scores = {q: float(S[q, best_cols[q]]) for q in final}
    edge_links: list[float] = []
    witnesses: list[Fact] = []
    for a, _, b in query.edges:
        if a in final and b in final and w:
            value = links.link(final[a], final[b])
            if value:
                witnesses.extend(f for f in links.witness(final[a], final[b])
                                 if f not in witnesses)
        else:
            value = 0.0
        edge_links.append(value)
    score = sum(node_scores.values()) + w * sum(edge_links)
    stats = {
        'expanded': state['expanded'], 'leaves': state['leaves'], 'pruned': state['pruned'],
        'truncated': state['truncated'], 'order': seq,
        'candidates': [len(c) for c in base], 'above_cutoff': passing.tolist(),
        'seconds': time.perf_counter() - start,
    }
    return Mapping(final, score, node_scores, edge_links, witnesses, stats)


# --------------------------------------------------------------------------- Algorithm 1
class SearchRetriever:
    """Search-based retrieval R^S (Algorithm 1 around :func:`match`).

    Keeps an :class:`EntityIndex` that is synced incrementally with the KG it is given; the
    first call embeds every entity (seconds per thousand), later calls only new ones.
    """

    name = 'search'

    def __init__(self, embedder: TextEncoder | None = None, *, cutoff: float = 0.9,
                 depth: int = 1, max_facts: int | None = 200, edge_weight: float = 0.5,
                 edge_hops: int = 2, hop_decay: float = 0.5, max_candidates: int = 20,
                 order: str = 'similarity', guided: bool = True,
                 max_expansions: int = 200_000, descriptions: dict[str, str] | None = None,
                 index: EntityIndex | None = None, prompt: str = 'query_graph.txt',
                 strict: bool = False) -> None:
        self.index = index or EntityIndex(embedder, descriptions=descriptions)
        self.cutoff = cutoff
        self.depth = depth
        self.max_facts = max_facts
        self.edge_weight = edge_weight
        self.edge_hops = edge_hops
        self.hop_decay = hop_decay
        self.max_candidates = max_candidates
        self.order = order
        self.guided = guided
        self.max_expansions = max_expansions
        self.prompt_name = prompt
        self.strict = strict

    def messages(self, text: str) -> list[dict[str, str]]:
        """Return the chat messages asking for the query graph of ``text``."""
        return [{'role': 'system', 'content': prompt_text(self.prompt_name)},
                {'role': 'user', 'content': f'Request: {text}'}]

    def retrieve_with_query(self, kg: KnowledgeGraph, query: QueryGraph) -> Retrieval:
        """Ground ``query`` in ``kg`` (no LLM) and return the context around the mapping."""
        start = time.perf_counter()
        sync = self.index.sync(kg)
        t_sync = time.perf_counter()
        vectors = self.index.encode_queries(query.nodes)
        t_enc = time.perf_counter()
        S = self.index.similarity(vectors)
        t_sim = time.perf_counter()
        mapping = match(S, query, kg, self.index.names, cutoff=self.cutoff,
                        max_candidates=self.max_candidates, edge_weight=self.edge_weight,
                        edge_hops=self.edge_hops, hop_decay=self.hop_decay,
                        order=self.order, guided=self.guided,
                        columns=self.index.columns,
                        max_expansions=self.max_expansions)
        t_match = time.perf_counter()
        facts = context_facts(kg, mapping.entities(), self.depth, self.max_facts,
                              first=mapping.witnesses)
        end = time.perf_counter()
        info: dict[str, Any] = {
            'retriever': self.name,
            'query_graph': query.to_json(),
            'mapping': mapping.named(query),
            'score': mapping.score,
            'edge_links': mapping.edge_links,
            'witnesses': [list(f.triplet()) for f in mapping.witnesses],
            'stats': {k: v for k, v in mapping.stats.items() if k != 'seconds'},
            'index_sync': sync,
            'sync_seconds': t_sync - start,
            'encode_seconds': t_enc - t_sync,
            'similarity_seconds': t_sim - t_enc,
            'match_seconds': t_match - t_sim,
            'context_seconds': end - t_match,
        }
        return Retrieval(facts=set(facts), entities=mapping.entities(), seconds=end - start,
                         info=info)

    def query_graph(self, text: str, llm: ChatLLM) -> tuple[QueryGraph, dict[str, Any]]:
        """Ask ``llm`` for the query graph of ``text``; return it and call accounting.

        An unusable reply raises :class:`QueryGraphError` with ``strict``; otherwise the
        whole utterance becomes a single query node and ``meta['query_graph_error']`` says
        why.
        """
        start = time.perf_counter()
        reply = llm.chat(self.messages(text), schema=QUERY_GRAPH_SCHEMA,
                         schema_name='query_graph')
        prompt_tokens, completion_tokens = reply_tokens(reply)
        meta: dict[str, Any] = {'llm_seconds': time.perf_counter() - start,
                                'prompt_tokens': prompt_tokens,
                                'completion_tokens': completion_tokens}
        data = getattr(reply, 'data', None)
        if data is None:
            data = getattr(reply, 'text', None) or getattr(reply, 'content', None)
        try:
            if data is None:
                raise QueryGraphError('the LLM returned no JSON query graph')
            return QueryGraph.from_json(data), meta
        except QueryGraphError as exc:
            if self.strict:
                raise
            meta['query_graph_error'] = str(exc)
            meta['raw_reply'] = data if isinstance(data, (str, dict, list)) else repr(data)
            return QueryGraph([text.strip() or 'unknown']), meta

    def retrieve(self, kg: KnowledgeGraph, text: str, llm: ChatLLM | None) -> Retrieval:
        """Algorithm 1: LLM query graph → similarity → Algorithm 2 → context facts."""
        if llm is None:
            raise ValueError('the search retriever (R^S) needs an LLM client for retrieve(); '
                             'use retrieve_with_query() with a known query graph')
        start = time.perf_counter()
        query, meta = self.query_graph(text, llm)
        out = self.retrieve_with_query(kg, query)
        out.seconds = time.perf_counter() - start
        out.llm_seconds = meta.pop('llm_seconds')
        out.prompt_tokens = meta.pop('prompt_tokens')
        out.completion_tokens = meta.pop('completion_tokens')
        out.info.update(meta)
        return out
