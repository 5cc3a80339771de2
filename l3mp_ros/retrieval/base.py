# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Shared retrieval types: the :class:`Retrieval` result, the :class:`Retriever` protocol.

Three retrievers implement the protocol (paper §IV-A): ``full`` (R−, every fact),
``select`` (R+, the LLM picks entity names, then neighbourhood expansion) and ``search``
(R^S, Algorithms 1–2). :func:`l3mp_ros.retrieval.make_retriever` builds one by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from l3mp_ros.llm.protocol import ChatLLM
from l3mp_ros.world.kg import Fact, KnowledgeGraph


@dataclass
class Retrieval:
    """The context retrieved for one utterance."""

    facts: set[Fact] = field(default_factory=set)
    entities: set[str] = field(default_factory=set)
    seconds: float = 0.0
    llm_seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    info: dict[str, Any] = field(default_factory=dict)  # what the retriever reports
    #: the entities the utterance refers to (empty: the retriever does not say)
    mentioned: list[str] = field(default_factory=list)
    #: the context's entities, best first (empty: the retriever does not rank them)
    ranked: list[str] = field(default_factory=list)

    def sorted_facts(self) -> list[Fact]:
        """Return the facts in a stable order (for prompts)."""
        return sorted(self.facts)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-friendly summary (facts as triplets)."""
        return {
            'facts': [list(f.triplet()) for f in self.sorted_facts()],
            'entities': sorted(self.entities),
            'seconds': self.seconds,
            'llm_seconds': self.llm_seconds,
            'prompt_tokens': self.prompt_tokens,
            'completion_tokens': self.completion_tokens,
            'info': self.info,
        }


@runtime_checkable
class Retriever(Protocol):
    """Select the KG facts relevant to an utterance."""

    def retrieve(self, kg: KnowledgeGraph, text: str, llm: ChatLLM | None) -> Retrieval:
        """Return the context for ``text`` (``llm`` may be unused)."""
        ...


def context_facts(kg: KnowledgeGraph, seeds: Iterable[str], depth: int,
                  max_facts: int | None, first: Sequence[Fact] = ()) -> list[Fact]:
    """Return facts around ``seeds`` to ``depth`` hops, nearest first, at most ``max_facts``.

    ``first`` (e.g. the facts witnessing a search mapping) come before everything else.
    Within one distance, facts mentioning more seeds come first, then sorted order.
    """
    seeds = {s for s in seeds if kg.has_entity(s)}
    cap = None if max_facts is None or max_facts < 0 else max_facts
    out: list[Fact] = []
    seen: set[Fact] = set()

    def full() -> bool:
        return cap is not None and len(out) >= cap

    for f in first:
        if f in kg and f not in seen and not full():
            seen.add(f)
            out.append(f)
    for d in range(1, max(depth, 0) + 1):
        if full():
            break
        level = [f for f in kg.subgraph_facts(seeds, d) if f not in seen]
        level.sort(key=lambda f: (-sum(a in seeds for a in set(f.args)), f))
        for f in level:
            if full():
                break
            seen.add(f)
            out.append(f)
    return out


def facts_about(kg: KnowledgeGraph, names: Iterable[str],
                predicates: Iterable[str] | None = None) -> set[Fact]:
    """Return the facts whose first argument is one of ``names``.

    ``predicates`` limits them (e.g. to those a change can touch); None: every predicate.
    """
    keep = None if predicates is None else frozenset(predicates)
    return {f for n in names if kg.has_entity(n) for f in kg.facts_of(n)
            if f.args and f.args[0] == n and (keep is None or f.predicate in keep)}
