# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""R^S: search-based retrieval, the paper's Algorithms 1 (retrieval) and 2 (subgraph matching).

Algorithm 1: the LLM turns the utterance into a :class:`QueryGraph` of *ungrounded* entity
descriptions ("red pen", "Jerry's bedroom") and relations between them; a sentence
embedding model scores every query node against every KG entity (matrix ``S``); Algorithm 2
(:func:`match`) finds the injective mapping of query nodes to KG entities with the best
score; the context is the facts around the mapped entities.

The query graph lives in :mod:`.query_graph`, Algorithm 2 and its scoring in :mod:`.match`.
"""

from __future__ import annotations

import time
from typing import Any

from l3mp_ros.llm.prompting import prompt_text
from l3mp_ros.llm.protocol import ChatLLM, reply_tokens
from l3mp_ros.retrieval.base import Retrieval, context_facts
from l3mp_ros.retrieval.embed import EntityIndex, TextEncoder
from l3mp_ros.retrieval.match import match
from l3mp_ros.retrieval.query_graph import QUERY_GRAPH_SCHEMA, QueryGraph, QueryGraphError
from l3mp_ros.world.kg import KnowledgeGraph


class SearchRetriever:
    """Search-based retrieval R^S (Algorithm 1 around :func:`match`).

    Keeps an :class:`EntityIndex` that is synced incrementally with the KG it is given; the
    first call embeds every entity (seconds per thousand), later calls only new ones.
    """

    name = 'search'

    def __init__(self, embedder: TextEncoder | None = None, *, cutoff: float = 0.9,
                 depth: int = 1, max_facts: int | None = 200, edge_weight: float = 0.5,
                 edge_hops: int = 2, hop_decay: float = 0.9, max_candidates: int = 20,
                 order: str = 'constrained', guided: bool = True,
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
