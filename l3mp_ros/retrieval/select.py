# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""R+: the LLM picks relevant entity names from the entity list, then BFS to ``depth``.

The common RAG baseline of the paper (§IV-A): the prompt lists every entity with its type,
the reply is ``{"entities": [names]}``; names not in the KG are ignored and reported in
``Retrieval.info['unknown']``; the context is the facts around the selected entities.
"""

from __future__ import annotations

import re
import time
from typing import Any

from l3mp_ros.llm.prompting import prompt_text
from l3mp_ros.llm.protocol import ChatLLM, reply_tokens
from l3mp_ros.retrieval.base import Retrieval, context_facts
from l3mp_ros.world.kg import KnowledgeGraph

SELECT_SCHEMA: dict[str, Any] = {
    'type': 'object',
    'properties': {'entities': {'type': 'array', 'items': {'type': 'string'}}},
    'required': ['entities'],
    'additionalProperties': False,
}


def normalise_name(text: str) -> str:
    """Map an LLM-written name to KG spelling: ``"Red pen (pen)"`` → ``red_pen``."""
    name = str(text).strip().strip('\'"`').strip()
    name = re.sub(r'\s*\([^()]*\)\s*$', '', name)
    return re.sub(r'[\s\-]+', '_', name.strip().lower())


class SelectRetriever:
    """LLM entity selection + neighbourhood expansion (R+)."""

    name = 'select'

    def __init__(self, depth: int = 1, max_facts: int | None = 200,
                 prompt: str = 'select_entities.txt') -> None:
        self.depth = depth
        self.max_facts = max_facts
        self.prompt_name = prompt

    def messages(self, kg: KnowledgeGraph, text: str) -> list[dict[str, str]]:
        """Return the chat messages: static instructions, then the entity list and request."""
        listing = '\n'.join(f'- {n} ({t})' for n, t in sorted(kg.entities.items()))
        return [
            {'role': 'system', 'content': prompt_text(self.prompt_name)},
            {'role': 'user', 'content': f'Entities:\n{listing}\n\nRequest: {text}'},
        ]

    def retrieve(self, kg: KnowledgeGraph, text: str, llm: ChatLLM | None) -> Retrieval:
        """Ask ``llm`` for relevant entity names and return the facts around them."""
        if llm is None:
            raise ValueError('the select retriever (R+) needs an LLM client')
        start = time.perf_counter()
        reply = llm.chat(self.messages(kg, text), schema=SELECT_SCHEMA,
                         schema_name='select_entities')
        llm_seconds = time.perf_counter() - start
        prompt_tokens, completion_tokens = reply_tokens(reply)
        data = getattr(reply, 'data', None)
        info: dict[str, Any] = {'retriever': self.name}
        raw: list[Any] = []
        if isinstance(data, dict) and isinstance(data.get('entities'), list):
            raw = data['entities']
        elif isinstance(data, list):
            raw = data
        else:
            info['error'] = 'the LLM reply has no "entities" list'
        selected: list[str] = []
        unknown: list[str] = []
        for item in raw:
            if not isinstance(item, str):
                unknown.append(repr(item))
                continue
            name = normalise_name(item)
            if kg.has_entity(name):
                if name not in selected:
                    selected.append(name)
            else:
                unknown.append(item)
        info['selected'] = selected
        info['unknown'] = unknown
        facts = context_facts(kg, selected, self.depth, self.max_facts)
        return Retrieval(facts=set(facts), entities=set(selected),
                         seconds=time.perf_counter() - start, llm_seconds=llm_seconds,
                         prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                         info=info)
