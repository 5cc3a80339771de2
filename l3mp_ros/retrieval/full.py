# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""R−: retrieval that returns the whole knowledge graph (no LLM call)."""

from __future__ import annotations

import time

from l3mp_ros.llm.protocol import ChatLLM
from l3mp_ros.retrieval.base import Retrieval
from l3mp_ros.world.kg import KnowledgeGraph


class FullRetriever:
    """Return every fact and every entity of the KG."""

    name = 'full'

    def __init__(self, max_facts: int | None = None) -> None:
        self.max_facts = max_facts

    def retrieve(self, kg: KnowledgeGraph, text: str, llm: ChatLLM | None = None) -> Retrieval:
        """Return all facts (the first ``max_facts`` in sorted order when capped)."""
        start = time.perf_counter()
        facts = kg.facts
        info: dict = {'retriever': self.name, 'total_facts': len(facts)}
        if self.max_facts is not None and 0 <= self.max_facts < len(facts):
            facts = frozenset(sorted(facts)[:self.max_facts])
            info['truncated'] = True
        return Retrieval(facts=set(facts), entities=set(kg.entities),
                         seconds=time.perf_counter() - start, info=info)
