# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Prompt building shared by every LLM user: the static part first (server prompt caches).

The texts live in ``l3mp_ros/llm/prompts/``; :func:`system_prompt` fills in a domain's
name, signatures and worked examples; :func:`ask_yes_no` and :func:`ask_choice` are the
two short constrained questions the pipelines ask, and :func:`both_orders` asks a choice
in both option orders.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from ..paths import package_file
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from .protocol import ChatLLM

# Above this many entities the prompt lists only the retrieved ones (the paper lists all).
MAX_LISTED_ENTITIES = 150
YES_NO_SCHEMA = {'type': 'object', 'properties': {'answer': {'enum': ['yes', 'no']}},
                 'required': ['answer'], 'additionalProperties': False}


@cache
def prompt_text(name: str) -> str:
    """Return ``l3mp_ros/llm/prompts/<name>.txt`` (``name`` with or without ``.txt``)."""
    name = name.removesuffix('.txt')
    return package_file('llm', 'prompts', f'{name}.txt').read_text(encoding='utf-8')


def system_prompt(name: str, domain: DomainSchema, examples: str = '') -> str:
    """Return a prompt with the domain's name, signatures and worked examples filled in."""
    sigs = '\n'.join(domain.signatures())
    return (prompt_text(name).replace('{signatures}', sigs)
            .replace('{domain}', domain.name).replace('{examples}', examples).strip() + '\n')


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


def ask_choice(llm: ChatLLM, prompt: str, question: str, options: list[str], *,
               system: str | None = None, odds: bool = False) -> tuple[int, Any]:
    """Ask which of ``options`` is meant (listed 1..n after ``question``).

    ``system``: the system text (default: the prompt file ``prompt``, which names the
    answer schema either way); ``odds``: ask for each option number's log-probability
    when the endpoint gives them. Returns (index of the chosen option, reply); -1 when
    the reply names none. Raises the client's ``LLMError``.
    """
    numbers = [str(i) for i in range(1, len(options) + 1)]
    schema = {'type': 'object', 'properties': {'answer': {'enum': numbers}},
              'required': ['answer'], 'additionalProperties': False}
    listed = ''.join(f'{n}. {o}\n' for n, o in zip(numbers, options, strict=True))
    messages = [{'role': 'system', 'content': prompt_text(prompt) if system is None else system},
                {'role': 'user', 'content': f'{question}{listed}Answer:'}]
    extra = ({'logprobs': len(numbers)} if odds and getattr(llm, 'supports_logprobs', False)
             else {})
    reply = llm.chat(messages, schema=schema, schema_name=prompt, max_tokens=8, **extra)
    data = reply.data if isinstance(reply.data, dict) else {}
    answer = str(data.get('answer', reply.text or '')).strip()
    return (numbers.index(answer) if answer in numbers else -1), reply


def both_orders(pick: Callable[[list[int]], int], n: int,
                go_on: Callable[[int], bool] | None = None) -> tuple[int, bool | None]:
    """Ask a choice among ``n`` options in their order, then reversed; return (pick, agreed).

    ``pick(order)`` asks with the options listed in ``order`` and returns the position
    chosen (-1: none of them). A small model's pick often follows an option's position,
    not its meaning: only a pick both orders make is a reading. The reversed order is not
    asked (``agreed`` None) when the first pick is none of them or ``go_on`` refuses it.
    Raises whatever ``pick`` raises.
    """
    order = list(range(n))
    j = pick(order)
    k = order[j] if j >= 0 else -1
    if k < 0 or (go_on is not None and not go_on(k)):
        return k, None
    back = order[::-1]
    j = pick(back)
    return k, j >= 0 and back[j] == k


def ask_yes_no(llm: ChatLLM, prompt: str, question: str) -> tuple[bool, Any]:
    """Ask one yes/no question after the system prompt ``prompt``; return (yes, reply).

    Anything but an answer starting with "yes" counts as no. Raises the client's
    ``LLMError``.
    """
    messages = [{'role': 'system', 'content': prompt_text(prompt)},
                {'role': 'user', 'content': question}]
    extra = {'logprobs': YES_NO_TOP} if getattr(llm, 'supports_logprobs', False) else {}
    reply = llm.chat(messages, schema=YES_NO_SCHEMA, schema_name=prompt, max_tokens=8,
                     **extra)
    data = reply.data if isinstance(reply.data, dict) else {}
    return str(data.get('answer', reply.text or '')).strip().lower().startswith('yes'), reply


YES_NO_TOP = 5  # candidates asked for at each token of a yes/no answer


def ask_yes_no_each(llm: ChatLLM, prompt: str, head: str, statements: list[str],
                    name: str | None = None) -> tuple[list[bool], list[float | None], Any]:
    """Ask yes/no about each of ``statements`` in one call; return (yes, P(yes), reply).

    The statements are numbered after ``head`` (the report); the answer is a JSON object
    with one ``"yes"``/``"no"`` per number, in order, so each answer's token odds give its
    P(yes) (:func:`yes_probabilities`). ``name``: the schema's name (default ``prompt``),
    which tells apart calls that share a prompt. Raises the client's ``LLMError``.
    """
    keys = [str(i) for i in range(1, len(statements) + 1)]
    schema = {'type': 'object', 'properties': {k: {'enum': ['yes', 'no']} for k in keys},
              'required': keys, 'additionalProperties': False}
    listed = ''.join(f'{k}. {s}\n' for k, s in zip(keys, statements, strict=True))
    messages = [{'role': 'system', 'content': prompt_text(prompt)},
                {'role': 'user', 'content': f'{head}Statements:\n{listed}Answer:'}]
    extra = {'logprobs': YES_NO_TOP} if getattr(llm, 'supports_logprobs', False) else {}
    reply = llm.chat(messages, schema=schema, schema_name=name or prompt,
                     max_tokens=8 + 8 * len(keys), **extra)
    data = reply.data if isinstance(reply.data, dict) else {}
    yes = [str(data.get(k, '')).strip().lower().startswith('yes') for k in keys]
    odds = yes_probabilities(reply)
    if len(odds) != len(keys):
        odds = [None] * len(keys)
    return yes, odds, reply


def yes_probabilities(reply: Any) -> list[float | None]:
    """Return P(yes) / (P(yes) + P(no)) at each generated token that answers yes or no."""
    out: list[float | None] = []
    for token, top in getattr(reply, 'top_logprobs', None) or []:
        if token.strip().strip('"').lower() not in ('yes', 'no'):
            continue
        yes = sum(math.exp(lp) for c, lp in top if c.strip().strip('"').lower() == 'yes')
        no = sum(math.exp(lp) for c, lp in top if c.strip().strip('"').lower() == 'no')
        out.append(yes / (yes + no) if yes + no > 0 else None)
    return out


def yes_probability(reply: Any) -> float | None:
    """Return the model's P(yes) / (P(yes) + P(no)) at the token that answers, or None.

    Read from ``reply.top_logprobs`` (an endpoint that returns none gives None): at the
    first generated token that is "yes" or "no", the candidates that spell either word
    (any case, leading space) are summed. A grammar-constrained answer is always one of
    the two; this says how sure the model was.
    """
    steps = getattr(reply, 'top_logprobs', None) or []
    for token, top in steps:
        if token.strip().lower() not in ('yes', 'no'):
            continue
        yes = sum(math.exp(lp) for c, lp in top if c.strip().lower() == 'yes')
        no = sum(math.exp(lp) for c, lp in top if c.strip().lower() == 'no')
        if yes + no <= 0:
            return None
        return yes / (yes + no)
    return None
