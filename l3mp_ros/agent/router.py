# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Route an utterance (report, task or question) and answer questions from the KG."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from typing import Any

from ..llm.prompting import format_facts, prompt_text
from ..llm.protocol import Answer, ChatLLM, LLMError, Usage, llm_failure
from ..retrieval.base import Retriever
from ..retrieval.link import named_fully
from ..retrieval.mention import Mention
from ..retrieval.mention_lists import head
from ..retrieval.mentions import resolve
from ..text import STOPWORDS, name_words, stem, words
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.kg import Fact, KGError, KnowledgeGraph
from ..world.phrasing import Phrasing
from .core import clarify

KINDS = ('report', 'task', 'question')
MAX_WHICH = 4  # a question back names at most this many things; beyond, no question
ROUTE_SCHEMA = {'type': 'object', 'properties': {'kind': {'type': 'string', 'enum': list(KINDS)}},
                'required': ['kind'], 'additionalProperties': False}
_QUESTION_START = re.compile(
    r'^(where|what|who|whom|whose|which|when|why|how|is|are|was|were|does|do|did|has|have|'
    r'can|could)\b', re.I)
_TASK_START = re.compile(
    r'^(please|could you|can you|would you|bring|put|place|give|hand|take|turn|switch|open|'
    r'close|wash|clean|fill|empty|answer|do|get|fetch|move|start|stop|organi[sz]e|make|go)\b',
    re.I)
# "where is X?", "who has X?": answered from X's facts, in sentences, without the LLM
_WHERE = re.compile(r'^\s*(?:where\s+(?:is|are|did|does|has|have)|who\s+(?:has|holds|is\s+'
                    r'(?:holding|carrying)|carries|took))\s+(.+?)'
                    r'(?:\s+(?:now|at\s+the\s+moment|right\s+now|end\s+up|ended\s+up|gone|go))?'
                    r'\s*\??\s*$', re.I)
# "which room is Dr. Hale in?", "which part of the building is Omar in?": where X is
_WHICH_IN = re.compile(r'^\s*which\s+[\w\s]+?\s+(?:is|are)\s+(.+?)\s+(?:in|at)\s*\??\s*$', re.I)
# "what is in the grey tote?", "which tablet is on Mia's desk?": what X holds
_CONTENTS = re.compile(r'^\s*(?:what|which\s+([\w\s]+?))\s+(?:is|are)\s+(?:\w+ing\s+)?'
                       r'(?:in|inside|on|at|under|in\s+front\s+of)\s+(.+?)\s*\??\s*$', re.I)


def heuristic_kind(text: str) -> str | None:
    """Return the kind when the surface form decides it, else None."""
    t = text.strip()
    if t.endswith('?') and not re.match(r'^(could|can|would|will) you\b', t, re.I):
        return 'question'
    if _TASK_START.match(t):
        return 'task'
    if _QUESTION_START.match(t) and t.endswith('?'):
        return 'question'
    return None


class Router:
    """Classify utterances: surface heuristics first, the LLM when they cannot tell."""

    def __init__(self, llm: ChatLLM | None) -> None:
        self.llm = llm

    def classify(self, text: str, usage: Usage | None = None) -> str:
        """Return ``report``, ``task`` or ``question`` (``report`` when unsure)."""
        kind = heuristic_kind(text)
        if kind is not None or self.llm is None:
            return kind or 'report'
        messages = [{'role': 'system', 'content': prompt_text('route')},
                    {'role': 'user', 'content': text}]
        reply = self.llm.chat(messages, schema=ROUTE_SCHEMA, schema_name='route', max_tokens=20)
        if usage is not None:
            usage.add(reply)
        data = reply.data if isinstance(reply.data, dict) else {}
        kind = str(data.get('kind', '')).lower()
        if kind not in KINDS:
            m = re.search(r'report|task|question', reply.text or '', re.I)
            kind = m.group(0).lower() if m else 'report'
        return kind


def unsupported_names(kg: KnowledgeGraph, text: str, cited: Iterable[Fact],
                      context: Iterable[Fact]) -> set[str]:
    """Return context entities the answer names in full that no cited fact mentions."""
    cited_names = {a for f in cited for a in f.args}
    return named_fully({n for f in context for n in f.args}, text) - cited_names


def answer_schema(facts: Iterable[Fact], max_cited: int = 6) -> dict[str, Any]:
    """Return the answer schema for a context: citations are chosen among its facts."""
    choices = [list(f.triplet()) for f in sorted(facts)]
    cited: dict[str, Any] = ({'type': 'array', 'items': {'enum': choices},
                              'maxItems': max_cited} if choices
                             else {'type': 'array', 'maxItems': 0})
    return {'type': 'object', 'properties': {'answer': {'type': 'string'}, 'facts': cited},
            'required': ['answer', 'facts'], 'additionalProperties': False}


def named_entity(kg: KnowledgeGraph, phrase: str) -> str | None:
    """Return the one entity ``phrase`` names in full (most words wins), or None."""
    named = named_fully(kg.entities, phrase)
    if not named:
        return None
    best = max(len(name_words(n)) for n in named)
    top = [n for n in named if len(name_words(n)) == best]
    return top[0] if len(top) == 1 else None


def referred(kg: KnowledgeGraph, phrase: str, schema: DomainSchema | None = None) -> str | None:
    """Return the entity a noun phrase of a question refers to, or None.

    Its first mention that settles on one entity (:func:`~l3mp_ros.retrieval.mentions.
    resolve`: "Anna's reading lamp", "the TV remote of Anna", "the key to the yard door");
    else the name it says in full.
    """
    return entity_of(kg, head_mention(kg, phrase, schema), phrase)


def entity_of(kg: KnowledgeGraph, found: Mention | None, phrase: str) -> str | None:
    """Return the one entity the phrase's head mention settles on, else the name in full."""
    if found is not None and found.resolved is not None:
        return found.resolved
    if found is not None and len(fitting := by_prefix(found, phrase)) == 1:
        return fitting[0]
    return named_entity(kg, phrase)


def by_prefix(found: Mention, phrase: str) -> list[str]:
    """Return the mention's candidates the phrase's other words name best, by word stems.

    "the pricing gun": ``price_gun`` shares "pric" with "pricing", ``tape_gun`` nothing.
    Empty when no word outside the mention tells them apart.
    """
    candidates = found.candidates
    said = {stem(w) for i, w in enumerate(words(phrase)) if not found.start <= i < found.end}
    said = {w for w in said if w not in STOPWORDS and len(w) > 3}

    def alike(a: str, b: str) -> bool:  # one stem: "pricing" / "price", "charger" / "charging"
        shared = len(os.path.commonprefix([a, b]))
        return shared >= 4 and shared >= min(len(a), len(b)) - 2

    def score(name: str) -> int:
        own = [stem(w) for w in name_words(name) if len(w) > 3]
        return sum(any(alike(w, o) for o in own) for w in said)

    scores = {n: score(n) for n in candidates}
    best = max(scores.values(), default=0)
    top = [n for n in candidates if scores[n] == best]
    return top if best and len(top) < len(candidates) else []


def head_mention(kg: KnowledgeGraph, phrase: str,
                 schema: DomainSchema | None = None) -> Mention | None:
    """Return the mention a question's noun phrase is about (:func:`.mention_lists.head`)."""
    steady = schema.static_predicates() if schema is not None else None
    preds = schema.predicates if schema is not None else ()
    return head(resolve(kg, phrase, steady=steady, predicates=preds), phrase)


_NO_RULES = Constraints.empty()  # no rules: every binary fact names its thing first


def contents(kg: KnowledgeGraph, holder: str, kind: str | None,
             schema: DomainSchema | None, constraints: Constraints = _NO_RULES) -> list[Fact]:
    """Return the facts that place something on or in ``holder`` (changeable ones first).

    ``kind``: the words a question names the things by ("which tablet"): only things
    whose name or type has them. ``constraints`` say which argument is the thing.
    """
    wanted = {stem(w) for w in words(kind or '')} - STOPWORDS
    facts = sorted(f for f in kg.facts_of(holder) if len(f.args) == 2
                   and constraints.place_of(f) == holder
                   and (not wanted or wanted & {
                       stem(w) for w in name_words(constraints.thing_of(f))
                       + name_words(kg.entities.get(constraints.thing_of(f), ''))}))
    if schema is not None:
        fluent = [f for f in facts if f.predicate in schema.fluent_predicates()]
        facts = fluent or facts
    return facts


def relation_facts(kg: KnowledgeGraph, entity: str, schema: DomainSchema | None,
                   constraints: Constraints = _NO_RULES) -> list[Fact]:
    """Return what relates ``entity`` to others: its binary facts, changeable ones first.

    Facts about it: it first, or second in a place predicate that names the place first
    (by ``constraints``: ``occupied_by(place, person)``).
    """
    facts = sorted(f for f in kg.facts_of(entity) if len(f.args) == 2
                   and constraints.thing_of(f) == entity)
    if schema is not None:
        fluent = [f for f in facts if f.predicate in schema.fluent_predicates()]
        facts = fluent or facts
    return facts


class QuestionAnswerer:
    """Answer questions from retrieved facts, citing only facts that are in the KG.

    "Where is X?" and "who has X?" about one entity are answered from its facts in
    sentences (:class:`~l3mp_ros.world.phrasing.Phrasing`, no LLM); other questions by the
    LLM over retrieved facts. An LLM sentence that names what its cited facts do not say is
    replaced by the cited facts in sentences.
    """

    def __init__(self, llm: ChatLLM, retriever: Retriever, domain: str | None = None,
                 schema: DomainSchema | None = None,
                 constraints: Constraints = _NO_RULES) -> None:
        self.llm = llm
        self.retriever = retriever
        self.domain = domain
        self.schema = schema
        self.constraints = constraints  # which predicates say where a thing is, and how
        self.places = constraints.place_predicates()  # where a thing is (its one place)

    def direct(self, kg: KnowledgeGraph, question: str) -> Answer | None:
        """Answer a question about where something is, or what it holds, from facts.

        "Where is X?", "who has X?", "which room is X in?": X's facts; "what is in X?",
        "which tablet is on X?": the facts that place something on X (of the named kind).
        None for other questions (the LLM answers them).
        """
        facts: list[Fact] = []
        m = _WHERE.match(question) or _WHICH_IN.match(question)
        if m:
            found = head_mention(kg, m.group(1), self.schema)
            asked = self.which_one(kg, question, found, m.group(1))
            if asked is not None:
                return asked
            entity = entity_of(kg, found, m.group(1))
            at = self.constraints
            facts = relation_facts(kg, entity, self.schema, at) if entity else []
            # and where that is: "on the equipment bench, which is in the equipment room"
            facts += [g for f in facts for g in relation_facts(
                kg, at.place_of(f), self.schema, at)
                      if g.predicate in self.places and at.place_of(g) != entity
                      and g not in facts][:2]
        if not facts and (c := _CONTENTS.match(question)):
            holder = referred(kg, c.group(2), self.schema)
            facts = contents(kg, holder, c.group(1), self.schema,
                             self.constraints) if holder else []
        if not facts:
            return None
        return Answer(question=question, text=Phrasing(self.schema, kg).sentences(facts),
                      facts=facts)

    def which_one(self, kg: KnowledgeGraph, question: str, found: Mention | None,
                  phrase: str) -> Answer | None:
        """Ask back which thing a question means when its head mention fits several.

        Only when the things are in different places (the answer would differ), in the
        words of :class:`.clarify.Ambiguity` ("Which tool case do you mean: toolcase 1, the
        one that rests on bench, or tool case 2, ...?"). None when the phrase settles on one.
        """
        if found is None or not 1 < len(found.candidates) <= MAX_WHICH \
                or by_prefix(found, phrase):
            return None  # one thing, too many to list, or the phrase's words say which
        where = {n: relation_facts(kg, n, self.schema, self.constraints)
                 for n in found.candidates}
        if len({tuple(self.constraints.place_of(f) for f in fs)
                for fs in where.values()}) < len(where):
            return None  # some are where another is: the answer would not tell them apart
        options, said = [], Phrasing(self.schema, kg)
        for n, fs in where.items():
            fs = [f for f in fs if f.predicate in self.places] or fs  # where it is, first
            options.append(clarify.Option.said(said, n, fs[0] if fs else None))
        mention = found.surface.split("'s ")[-1]  # "Ada's tool case": which tool case
        return Answer(question=question,
                      text=clarify.Ambiguity(mention, '', options).question())

    def domain_name(self) -> str:
        """Return the name the prompt gives the world (the domain's, when known)."""
        return self.domain or 'robot'

    def answer(self, kg: KnowledgeGraph, question: str) -> Answer:
        """Return the answer; LLM failures become an answer that says so."""
        began = time.perf_counter()
        direct = self.direct(kg, question)
        if direct is not None:
            direct.seconds = time.perf_counter() - began
            return direct
        out = Answer(question=question, text='')
        try:
            retrieval = self.retriever.retrieve(kg, question, self.llm)
            out.usage.prompt_tokens += retrieval.prompt_tokens
            out.usage.completion_tokens += retrieval.completion_tokens
            system = prompt_text('answer').replace('{domain}', self.domain_name())
            messages = [{'role': 'system', 'content': system},
                        {'role': 'user', 'content': f'Facts:\n{format_facts(retrieval.facts)}\n'
                                                    f'Question: {question}'}]
            reply = self.llm.chat(messages, schema=answer_schema(retrieval.facts),
                                  schema_name='answer', max_tokens=200)
            out.usage.add(reply)
        except LLMError as exc:
            out.text, out.error = 'I cannot answer right now.', llm_failure(exc)
            out.seconds = time.perf_counter() - began
            return out
        data = reply.data if isinstance(reply.data, dict) else {}
        out.text = str(data.get('answer') or reply.text or '').strip() or 'I do not know.'
        for trip in data.get('facts') or []:
            try:
                fact = Fact.from_triplet(trip)
            except (KGError, TypeError):
                continue
            if fact in kg and fact not in out.facts:
                out.facts.append(fact)
        unsupported = unsupported_names(kg, out.text, out.facts, retrieval.facts)
        if unsupported:
            # the sentence names something its cited facts do not: say the facts instead
            out.text = (Phrasing(self.schema, kg).sentences(out.facts) if out.facts
                        else 'I do not know.')
        out.seconds = time.perf_counter() - began
        return out
