# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Prompt assembly shared by the pipelines: static part first (server prompt caches)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from ..paths import package_file
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from .grounding import format_items

# Above this many entities the prompt lists only the retrieved ones (the paper lists all).
MAX_LISTED_ENTITIES = 150
YES_NO_SCHEMA = {'type': 'object', 'properties': {'answer': {'enum': ['yes', 'no']}},
                 'required': ['answer'], 'additionalProperties': False}


@cache
def prompt_text(name: str) -> str:
    """Return ``l3mp_ros/llm/prompts/<name>.txt``."""
    return package_file('llm', 'prompts', f'{name}.txt').read_text(encoding='utf-8')


def system_prompt(name: str, domain: DomainSchema, examples: str = '') -> str:
    """Return a prompt with the domain's name, signatures and worked examples filled in."""
    sigs = '\n'.join(domain.signatures())
    return (prompt_text(name).replace('{signatures}', sigs)
            .replace('{domain}', domain.name).replace('{examples}', examples).strip() + '\n')


def grounded_message(kg: KnowledgeGraph, entities: Iterable[str], facts: Iterable[Fact],
                     label: str, text: str, whole: str | None = None) -> str:
    """Return the variable part of a grounded request: typed entities, facts, utterance.

    The utterance is data, not instructions: it is quoted on one line after its label.
    ``whole`` is the full utterance when ``text`` is one part of it (context for "he").
    """
    ents = ', '.join(f'{n} ({kg.entities[n]})' for n in entities if kg.has_entity(n))
    one_line = ' '.join(str(text).split())
    said = f'Whole {label.lower()}: {" ".join(str(whole).split())}\n' if whole else ''
    return (f'Entities: {ents or "(none)"}\nFacts before:\n{format_items(facts)}\n'
            f'{said}{label}: {one_line}\nAnswer:')


def format_facts(facts: Iterable[Fact]) -> str:
    """Return facts as ``[s, p, o], ...`` one per line."""
    return '\n'.join('[' + ', '.join(f.triplet()) + ']' for f in sorted(facts)) or '(none)'


def format_entities(kg: KnowledgeGraph, facts: Iterable[Fact],
                    extra: Iterable[str] = ()) -> str:
    """List entities with types: all when few, else those in the context."""
    if len(kg.entities) <= MAX_LISTED_ENTITIES:
        names = sorted(kg.entities)
    else:
        names = sorted({a for f in facts for a in f.args} | {e for e in extra
                                                             if kg.has_entity(e)})
    return ', '.join(f'{n} - {kg.entities[n]}' for n in names) or '(none)'


def user_message(kg: KnowledgeGraph, facts: Iterable[Fact], label: str, text: str,
                 extra_entities: Iterable[str] = ()) -> str:
    """Return the variable part: entities, facts and the utterance."""
    facts = list(facts)
    return (f'Entities: {format_entities(kg, facts, extra_entities)}\n'
            f'Facts:\n{format_facts(facts)}\n'
            f'{label}: {text}')


def llm_failure(exc: Exception, during: str = '') -> str:
    """Describe an LLM failure: unreachable/timeout vs a request the endpoint refused."""
    where = f' during {during}' if during else ''
    if getattr(exc, 'kind', '') == 'http' and getattr(exc, 'status', None) in (400, 413, 422):
        return f'LLM refused the request{where} (prompt too long for its context?): {exc}'
    return f'LLM unavailable{where}: {exc}'


def ask_choice(llm: Any, prompt: str, question: str, options: list[str]) -> tuple[int, Any]:
    """Ask which of ``options`` is meant (listed 1..n after ``question``).

    Returns (index of the chosen option, reply); -1 when the reply names none. Raises the
    client's ``LLMError``.
    """
    numbers = [str(i) for i in range(1, len(options) + 1)]
    schema = {'type': 'object', 'properties': {'answer': {'enum': numbers}},
              'required': ['answer'], 'additionalProperties': False}
    listed = ''.join(f'{n}. {o}\n' for n, o in zip(numbers, options, strict=True))
    messages = [{'role': 'system', 'content': prompt_text(prompt)},
                {'role': 'user', 'content': f'{question}{listed}Answer:'}]
    reply = llm.chat(messages, schema=schema, schema_name=prompt, max_tokens=8)
    data = reply.data if isinstance(reply.data, dict) else {}
    answer = str(data.get('answer', reply.text or '')).strip()
    return (numbers.index(answer) if answer in numbers else -1), reply


def ask_yes_no(llm: Any, prompt: str, question: str) -> tuple[bool, Any]:
    """Ask one yes/no question after the system prompt ``prompt``; return (yes, reply).

    Anything but an answer starting with "yes" counts as no. Raises the client's
    ``LLMError``.
    """
    messages = [{'role': 'system', 'content': prompt_text(prompt)},
                {'role': 'user', 'content': question}]
    reply = llm.chat(messages, schema=YES_NO_SCHEMA, schema_name=prompt, max_tokens=8)
    data = reply.data if isinstance(reply.data, dict) else {}
    return str(data.get('answer', reply.text or '')).strip().lower().startswith('yes'), reply
