# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 2 of the paper: subgraph matching of a query graph onto the KG.

:func:`match` finds the injective mapping of query nodes to KG entities with the best
score, given the similarity matrix ``S`` (query nodes x entities) of
:mod:`l3mp_ros.retrieval.embed`; :class:`LinkOracle` says how well the KG links two
entities.

Scoring (Algorithm 2's ``mapping_score``)::

    score(M) = sum_q S[q, M(q)] + edge_weight * sum_(i, rel, j) link(M(i), M(j))

``link(a, b)`` says how well the KG supports a query edge between ``a`` and ``b``. Facts
are undirected links and the relation text is *not* compared (a query edge "in" is
satisfied by ``item_on``/``furniture_in`` chains just as well as by ``item_in``):

- ``1`` when one fact mentions both ``a`` and ``b`` (e.g. ``(red_pen, item_in, kitchen)``);
- ``hop_decay`` (default 0.9) when two facts ``a - z - b`` link them through an entity
  ``z`` whose type differs from both ``a``'s and ``b``'s (``red_pen`` on ``table``,
  ``table`` in ``jerry_bedroom``); only with ``edge_hops >= 2``. The type rule keeps
  chains through *peers* out: a pen in the kitchen is not "in Jerry's bedroom" because
  the kitchen is connected to it (room - room), nor is a pen "on the table" because it
  lies next to another pen. A chain satisfies the query edge almost as well as a fact:
  with 0.5 the edge bonus lost by a chain (0.25) outweighed the similarity gap between
  colours, so "the silver pen in Ivan's hallway" became a grey pen lying there directly
  instead of the silver one on the hallway's shelf;
- ``0`` otherwise (or when a query node stayed unmapped).

Candidates of query node ``q`` are the entities with
``S[q, c] >= best_q - (1 - cutoff) * |best_q|`` (``cutoff * best_q`` for a positive best;
``>=`` so the best entity always qualifies), the ``max_candidates`` most similar of them,
plus (``guided``) any entity within ``edge_hops`` of the entity an already mapped query
neighbour got whose similarity *plus the edge score that link earns* reaches the threshold
— so the right red pen is found near Jerry's bedroom even when hundreds of red pens
elsewhere fill the top of the list, and "the window" in "Rachel's bedroom" is that room's
window even when another window's name is closer to the bare word. The mapping is injective; a node
whose candidates are all taken (by earlier or later nodes) stays unmapped (similarity 0).

Search order: ``order='constrained'`` (default) takes the node with the fewest candidates
above the cutoff first, ``'similarity'`` the paper's order (best similarity first); either
way each next node is one linked in the query to a node already placed, when there is one,
so its guided candidates apply. ``'constrained'`` also places every node whose candidates
were cut by ``max_candidates`` after all uncut ones (a cut node linked to nothing placed
yet waits rather than be tried among an arbitrary ``max_candidates``): "the fifth shelf
level" (hundreds alike) linked only to "the tall glass" (lying elsewhere) is searched
near the shelf of "Lucy's bedroom", not among 20 levels of other wings. With all
candidates (the paper's uncapped search) the order changes only the speed; with the cap it
decides what is found: in the paper's order "red pen" (hundreds of equal red pens) comes
before "Jerry Smith's bedroom" (one), and the cap keeps an arbitrary 20 pens (50k entities:
target found 70 % against 100 %).

Branch-and-bound: before expanding a partial mapping with score ``cur``, its upper bound
``cur + sum(max(best_r, 0) for remaining nodes r) + edge_weight * (edges not yet decided)``
is compared with the best complete score found; the branch is pruned when it cannot beat
it. Candidates are tried in descending similarity, so the first leaf is the greedy mapping
and the bound bites early. With ``bound=False`` the search is exhaustive over the same
candidates and returns the same best mapping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from l3mp_ros.retrieval.query_graph import QueryGraph
from l3mp_ros.world.kg import Fact, KnowledgeGraph


class LinkOracle:
    """How well the KG links two entities (see the module docstring), memoised per KG state."""

    def __init__(self, kg: KnowledgeGraph, edge_hops: int = 2, hop_decay: float = 0.9) -> None:
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
          edge_hops: int = 2, hop_decay: float = 0.9, bound: bool = True,
          order: str = 'constrained', guided: bool = True,
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
    if guided and columns is None and links.edge_hops > 0 and query.edges:
        columns = {name: c for c, name in enumerate(names)}
    search = _BranchAndBound(S, query, names, links, w, _Candidates(S, cutoff, max_candidates),
                             order, bound, columns if guided else None, max_expansions)
    search.dfs(0, 0.0)
    return search.result(start)


class _Candidates:
    """Per query node: best similarity, threshold and the capped candidate columns.

    Line 8 of Algorithm 2: the entities at least ``candidate_threshold`` similar, the
    ``max_candidates`` most similar of them, most similar first.
    """

    def __init__(self, S: np.ndarray, cutoff: float, max_candidates: int) -> None:
        n = S.shape[0]
        self.best = np.full(n, -np.inf)
        self.thr = np.full(n, np.inf)
        self.passing = np.zeros(n, dtype=np.int64)
        self.cut = [False] * n  # more passed than max_candidates keeps
        self.base: list[list[int]] = []
        for q in range(n):
            row = S[q]
            if row.size == 0:
                self.base.append([])
                continue
            self.best[q] = float(row.max())
            self.thr[q] = candidate_threshold(self.best[q], cutoff)
            idx = np.flatnonzero(row >= self.thr[q])
            self.passing[q] = idx.size
            if idx.size > max_candidates:
                self.cut[q] = True
                idx = idx[np.argpartition(-row[idx], max_candidates - 1)[:max_candidates]]
            self.base.append(sorted(idx.tolist(), key=lambda c, r=row: (-r[c], c)))


def _connected_order(n: int, edges: Sequence[tuple[int, str, int]],
                     key: Callable[[int], tuple[Any, ...]],
                     capped: Callable[[int], bool] | None = None) -> list[int]:
    """Return the query nodes by ``key``, each next one linked to an earlier one if any is.

    A node placed next to a mapped neighbour gets that neighbour's guided candidates, so
    a description shared by hundreds of entities ("red pen") is searched near the entity
    its neighbour ("Jerry's bedroom") already holds instead of among an arbitrary
    ``max_candidates`` of them. With ``capped``, nodes it holds for come after all others
    (linked ones first within each group): an uncut node loses nothing by waiting, a cut
    one is only as good as the neighbour placed before it.
    """
    nbrs: list[set[int]] = [set() for _ in range(n)]
    for a, _, b in edges:
        nbrs[a].add(b)
        nbrs[b].add(a)
    cut = {q for q in range(n) if capped is not None and capped(q)}
    seq: list[int] = []
    placed: set[int] = set()
    left = set(range(n))
    while left:
        near = {q for q in left if nbrs[q] & placed}
        pool = next(p for p in (near - cut, left - cut, near, left) if p)
        q = min(pool, key=key)
        seq.append(q)
        placed.add(q)
        left.discard(q)
    return seq


class _BranchAndBound:
    """The depth-first search of :func:`match` over one query (state of one call)."""

    def __init__(self, S: np.ndarray, query: QueryGraph, names: Sequence[str],
                 links: LinkOracle, w: float, cands: _Candidates, order: str, bound: bool,
                 columns: MappingABC[str, int] | None, max_expansions: int) -> None:
        n = len(query.nodes)
        self.S, self.query, self.names, self.links, self.w = S, query, names, links, w
        self.cands, self.bound, self.columns = cands, bound, columns
        self.n, self.max_expansions = n, max_expansions
        best, passing = cands.best, cands.passing
        # node order (Algorithm 1, line 3) and, per position, the edges decided there
        if order == 'similarity':
            self.seq = _connected_order(n, query.edges, lambda q: (-best[q], q))
        else:
            self.seq = _connected_order(n, query.edges, lambda q: (passing[q], -best[q], q),
                                        cands.cut.__getitem__)
        pos_of = {q: p for p, q in enumerate(self.seq)}
        self.decided: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (edge, other)
        for e, (a, _, b) in enumerate(query.edges):
            later, other = (a, b) if pos_of[a] > pos_of[b] else (b, a)
            self.decided[pos_of[later]].append((e, other))
        self.suffix_best = [0.0] * (n + 1)
        self.remaining_edges = [0] * (n + 1)
        for p in range(n - 1, -1, -1):
            self.suffix_best[p] = self.suffix_best[p + 1] + max(float(best[self.seq[p]]), 0.0)
            self.remaining_edges[p] = self.remaining_edges[p + 1] + len(self.decided[p])
        self.query_nbrs: list[set[int]] = [set() for _ in range(n)]
        for a, _, b in query.edges:
            self.query_nbrs[a].add(b)
            self.query_nbrs[b].add(a)
        self.extra_cache: dict[tuple[int, str], list[int]] = {}
        self.assign: dict[int, str | None] = {}
        self.cols: dict[int, int] = {}
        self.used: set[str] = set()
        self.left_out: dict[int, list[int]] = {}  # unmapped node → its candidates
        self.best_score = -np.inf
        self.expanded = self.leaves = self.pruned = 0
        self.truncated = False
        self.best_assign: dict[int, str | None] = {}
        self.best_cols: dict[int, int] = {}

    def extras(self, q: int, entity: str) -> list[int]:
        """Return the columns of ``q`` near ``entity`` that reach the threshold with the link."""
        key = (q, entity)
        got = self.extra_cache.get(key)
        if got is None:
            got = []
            for x in self.links.within(entity):
                c = self.columns.get(x) if self.columns is not None else None
                if c is not None and (self.S[q, c] + self.w * self.links.link(x, entity)
                                      >= self.cands.thr[q]):
                    got.append(c)
            self.extra_cache[key] = got
        return got

    def candidates(self, q: int) -> list[int]:
        """Return ``q``'s candidates, guided ones near mapped query neighbours included."""
        cands = self.cands.base[q]
        if self.columns is not None:
            more: set[int] = set()
            for other in self.query_nbrs[q]:
                ent = self.assign.get(other)
                if ent is not None:
                    more.update(self.extras(q, ent))
            if more:
                more.difference_update(cands)
                if more:
                    row = self.S[q]
                    cands = sorted([*cands, *more], key=lambda c: (-row[c], c))
        return cands

    def dfs(self, p: int, cur: float) -> None:
        """Extend the partial mapping at search position ``p`` (score so far ``cur``)."""
        if p == self.n:
            self.leaves += 1
            if any(not self.used.issuperset(self.names[c] for c in cands)
                   for cands in self.left_out.values()):
                return  # a node left unmapped while one of its candidates stayed free
            if cur > self.best_score:
                self.best_score = cur
                self.best_assign = dict(self.assign)
                self.best_cols = dict(self.cols)
            return
        if self.bound and (cur + self.suffix_best[p] + self.w * self.remaining_edges[p]
                           <= self.best_score):
            self.pruned += 1
            return
        if self.expanded >= self.max_expansions:
            self.truncated = True
            return
        self.expanded += 1
        q = self.seq[p]
        cands = self.candidates(q)
        free = 0
        for c in cands:
            name = self.names[c]
            if name in self.used:
                continue
            free += 1
            gain = float(self.S[q, c])
            if self.w:
                for _, other in self.decided[p]:
                    ent = self.assign.get(other)
                    if ent is not None:
                        gain += self.w * self.links.link(name, ent)
            self.assign[q] = name
            self.cols[q] = c
            self.used.add(name)
            self.dfs(p + 1, cur + gain)
            self.used.discard(name)
            del self.assign[q], self.cols[q]
            if self.truncated:
                return
        # Leave q unmapped: allowed when every candidate ends up taken, by an earlier node
        # or (whatever the search order) a later one; checked at the leaf.
        if free <= self.n - p - 1:
            self.assign[q] = None
            self.left_out[q] = cands
            self.dfs(p + 1, cur)
            del self.assign[q], self.left_out[q]

    def result(self, start: float) -> Mapping:
        """Return the best mapping found, its scores, link witnesses and search stats."""
        final = {q: e for q, e in self.best_assign.items() if e is not None}
        node_scores = {q: float(self.S[q, self.best_cols[q]]) for q in final}
        edge_links: list[float] = []
        witnesses: list[Fact] = []
        for a, _, b in self.query.edges:
            if a in final and b in final and self.w:
                value = self.links.link(final[a], final[b])
                if value:
                    witnesses.extend(f for f in self.links.witness(final[a], final[b])
                                     if f not in witnesses)
            else:
                value = 0.0
            edge_links.append(value)
        score = sum(node_scores.values()) + self.w * sum(edge_links)
        stats = {
            'expanded': self.expanded, 'leaves': self.leaves, 'pruned': self.pruned,
            'truncated': self.truncated, 'order': self.seq,
            'candidates': [len(c) for c in self.cands.base],
            'above_cutoff': self.cands.passing.tolist(),
            'seconds': time.perf_counter() - start,
        }
        return Mapping(final, score, node_scores, edge_links, witnesses, stats)
