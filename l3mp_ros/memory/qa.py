# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Questions about the past, answered from episodic memory.

:func:`is_past_question` recognises past-tense questions ("where was the red pen before Gary
took it?", "who moved the mug?", "when did I last see the remote?"). :class:`PastAnswerer`
answers three forms deterministically from the fact history (no LLM: what makes oracle QA
benchmarks possible) and everything else with the LLM over the top-k episodes of an
episodic search (prompt ``episodic_answer``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..llm.prompting import format_facts, prompt_text
from ..llm.protocol import Answer, LLMError, llm_failure
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from ..world.phrasing import Phrasing
from .episodic import Episode, EpisodicMemory

_PAST_WORDS = re.compile(
    r'\b(was|were|did|had|before|after|last|ago|earlier|previously|yesterday|used to)\b', re.I)
_PAST_VERB = re.compile(r'^\s*who\s+(\w+ed|took|put|left|brought|threw|ate|drank|broke|gave|'
                        r'got|made|hid|stole|threw|came|went|picked|grabbed)\b', re.I)
_WHERE_BEFORE = re.compile(r'^\s*where\s+(was|were)\b.*\bbefore\b', re.I)
_WHO_MOVED = re.compile(r'^\s*who\s+(\w+ed|took|put|left|brought|threw|gave|got|hid|stole|'
                        r'picked|grabbed)\b', re.I)
_LAST_SEEN = re.compile(r'^\s*when\b.*\blast\b|^\s*when\s+(was|were|did)\b', re.I)
SEEING_SOURCES = ('perception', 'scene_graph', 'camera', 'vision')
EPISODIC_ANSWER_SCHEMA = {
    'type': 'object',
    'properties': {'answer': {'type': 'string'},
                   'events': {'type': 'array', 'items': {'type': 'integer'}}},
    'required': ['answer', 'events'], 'additionalProperties': False,
}


def is_past_question(text: str) -> bool:
    """Return True for a question about the past (answered from episodes)."""
    t = (text or '').strip()
    return bool(_PAST_VERB.match(t) or (_PAST_WORDS.search(t) and (
        t.endswith('?') or re.match(r'^\s*(where|what|who|when|which|how)\b', t, re.I))))


def _norm(text: str) -> str:
    text = re.sub(r"'s\b", '', text.lower())
    return ' ' + re.sub(r'[^a-z0-9]+', ' ', text).strip() + ' '


def entity_phrase(name: str) -> str:
    """Return how an entity name is said: ``red_pen_2`` → ``red pen``."""
    return re.sub(r'(?:[_\s-]*\d+)+$', '', name).replace('_', ' ').strip() or name


def mentioned_entities(kg: KnowledgeGraph, text: str,
                       types: Iterable[str] | None = None) -> list[str]:
    """Return the entities a text names, longest phrase first, in order of mention.

    A phrase is an entity's name without a trailing number, underscores as spaces; a
    longer phrase hides the shorter ones inside it ("red pen" hides "pen").
    """
    want = set(types) if types is not None else None
    norm = _norm(text)
    by_phrase: dict[str, list[str]] = {}
    for name, type_ in kg.entities.items():
        if want is not None and type_ not in want:
            continue
        by_phrase.setdefault(entity_phrase(name), []).append(name)
    taken = [False] * len(norm)
    hits: list[tuple[int, str]] = []
    for phrase in sorted(by_phrase, key=len, reverse=True):
        for m in re.finditer(re.escape(f' {phrase} '), norm):
            start, end = m.start() + 1, m.end() - 1
            if any(taken[start:end]):
                continue
            for i in range(start, end):
                taken[i] = True
            hits.extend((start, n) for n in sorted(by_phrase[phrase]))
    seen: list[str] = []
    for _, name in sorted(hits):
        if name not in seen:
            seen.append(name)
    return seen


def where_facts(episode: Episode, entity: str, *, removed: bool) -> list[Fact]:
    """Return the binary facts with ``entity`` as subject the episode removed (or added)."""
    facts = episode.removed if removed else episode.added
    return [f for f in facts if len(f.args) >= 2 and f.args[0] == entity]


def _doubt(ep: Episode) -> str:
    """Return a sentence saying that later observations contradicted the episode, or ''."""
    if not ep.contradicted_by:
        return ''
    ids = ', '.join(str(i) for i in ep.contradicted_by)
    return f' What I saw later (event {ids}) contradicts that report.'


def stamp(t: float) -> str:
    """Return a local time stamp."""
    return time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(t))


@dataclass
class PastAnswer(Answer):
    """An answer from memory: the cited facts may no longer hold; ``episodes`` are cited."""

    episodes: list[int] = field(default_factory=list)
    method: str = 'history'  # history (deterministic) | llm | none

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {**super().to_json(), 'episodes': self.episodes, 'method': self.method}


class PastAnswerer:
    """Answer past-tense questions from an :class:`EpisodicMemory`."""

    def __init__(self, memory: EpisodicMemory, llm: Any = None, retriever: Any = None, *,
                 k: int = 8, person_types: Iterable[str] = ('person',),
                 item_types: Iterable[str] | None = None,
                 domain: DomainSchema | None = None) -> None:
        self.memory = memory
        self.domain = domain  # for sentences from its predicate names
        self.llm = llm
        self.retriever = retriever
        self.k = k
        self.person_types = tuple(person_types)
        self.item_types = tuple(item_types) if item_types is not None else None

    # -- deterministic -----------------------------------------------------------------
    def _subject(self, kg: KnowledgeGraph, text: str) -> tuple[str | None, list[str]]:
        people = mentioned_entities(kg, text, self.person_types)
        others = [e for e in mentioned_entities(kg, text) if e not in people]
        if self.item_types is not None:
            others = [e for e in others if kg.entities.get(e) in self.item_types] or others
        # among entities said the same way, the one with the newest history
        if others:
            return max(others[:1] + [o for o in others[1:] if entity_phrase(o)
                                     == entity_phrase(others[0])],
                       key=lambda e: (self._last_move(e) or 0, e)), people
        return (people[0] if people else None), people[1:] if people else []

    def _last_move(self, entity: str) -> int | None:
        for ep in self.memory.history(entity, limit=50):
            if where_facts(ep, entity, removed=True):
                return ep.id
        return None

    def _moves(self, entity: str) -> list[Episode]:
        """Episodes in which ``entity`` stopped being somewhere, newest first."""
        return [ep for ep in self.memory.history(entity)
                if where_facts(ep, entity, removed=True)]

    def _mover(self, kg: KnowledgeGraph, ep: Episode, entity: str) -> str | None:
        for f in where_facts(ep, entity, removed=False):
            if kg.entities.get(f.args[1]) in self.person_types:
                return f.args[1]
        if ep.utterance:
            people = mentioned_entities(kg, ep.utterance, self.person_types)
            if people:
                return people[0]
        for f in where_facts(ep, entity, removed=False):
            if f.predicate == 'in_agent_hand' or kg.entities.get(f.args[1]) == 'agent':
                return f.args[1]
        return None

    def _said(self, kg: KnowledgeGraph, facts: list[Fact]) -> str:
        """Return past facts as one clause: "the red pen was on the table and ..."."""
        phrasing = Phrasing(self.domain, kg, legacy=True)
        text = ' and '.join(phrasing.sentence(f, past=True).rstrip('.') for f in facts)
        return text[:1].lower() + text[1:] if text.startswith('The ') else text

    def deterministic(self, kg: KnowledgeGraph, question: str) -> PastAnswer | None:
        """Answer "where was X before ...", "who moved X", "when did I last see X" or None."""
        self.memory.sync()
        entity, people = self._subject(kg, question)
        if entity is None:
            return None
        out = PastAnswer(question=question, text='')
        said = entity_phrase(entity)
        if _WHERE_BEFORE.match(question):
            moves = self._moves(entity)
            if people:  # P took it (X now with P); else P is named in the report
                who = people[0]
                moves = ([ep for ep in moves if any(who in f.args[1:] for f in
                                                    where_facts(ep, entity, removed=False))]
                         or [ep for ep in moves if who in mentioned_entities(
                             kg, ep.utterance or '', self.person_types)])
            if not moves:
                out.text = f'I have no record of the {said} moving' + (
                    f' because of {people[0]}.' if people else '.')
                out.method = 'none'
                return out
            ep = moves[0]
            was = where_facts(ep, entity, removed=True)
            out.facts, out.episodes = was, [ep.id]
            out.text = (f'Before that (event {ep.id}, {stamp(ep.time)}), '
                        + self._said(kg, was) + '.' + _doubt(ep))
            return out
        if _WHO_MOVED.match(question):
            moves = self._moves(entity)
            if not moves:
                out.text, out.method = f'I have no record of anyone moving the {said}.', 'none'
                return out
            ep = moves[0]
            who = self._mover(kg, ep, entity)
            out.episodes = [ep.id]
            out.facts = where_facts(ep, entity, removed=False)
            out.text = (f'{who.replace("_", " ").title() if who else "Someone"} did '
                        f'(event {ep.id}, {stamp(ep.time)}'
                        + (f': "{ep.utterance}"' if ep.utterance else '') + ').')
            if who is None:
                out.text = f'I do not know who; it was recorded by {ep.source} (event {ep.id}).'
            out.text += _doubt(ep)
            return out
        if _LAST_SEEN.match(question):
            history = self.memory.history(entity)
            seen = [ep for ep in history if ep.source.startswith(SEEING_SOURCES)] or history
            if not seen:
                out.text, out.method = f'I have no record of the {said}.', 'none'
                return out
            ep = seen[0]
            now = where_facts(ep, entity, removed=False)
            out.episodes, out.facts = [ep.id], now
            out.text = (f'At {stamp(ep.time)} (event {ep.id}, {ep.source}), '
                        + (self._said(kg, now) if now
                           else f'the {said} was involved: {ep.describe()}') + '.')
            return out
        return None

    # -- LLM over episodes ---------------------------------------------------------------
    def with_llm(self, kg: KnowledgeGraph, question: str) -> PastAnswer:
        """Answer with the LLM over the top-k episodes (episodic search)."""
        began = time.perf_counter()
        out = PastAnswer(question=question, text='', method='llm')
        self.memory.sync()
        facts: set[Fact] = set()
        try:
            if self.retriever is not None:
                retrieval = self.retriever.retrieve(kg, question, self.llm)
                facts |= set(retrieval.facts)
                out.usage.prompt_tokens += retrieval.prompt_tokens
                out.usage.completion_tokens += retrieval.completion_tokens
            named = mentioned_entities(kg, question)
            for ent in named[:3]:  # the facts these entities ever had (episodic edges)
                for ep in self.memory.history(ent, limit=20):
                    facts |= {f for f in ep.facts if ent in f.args}
            found = self.memory.search(question, facts, self.k, recent=0)
            episodes = sorted((s.episode for s in found), key=lambda e: e.id)
            current = {f for f in facts if f in kg}
            lines = '\n'.join(e.describe() for e in episodes) or '(none)'
            messages = [{'role': 'system', 'content': prompt_text('episodic_answer')},
                        {'role': 'user', 'content': f'Past events:\n{lines}\n'
                         f'Current facts:\n{format_facts(current)}\nQuestion: {question}'}]
            reply = self.llm.chat(messages, schema=EPISODIC_ANSWER_SCHEMA,
                                  schema_name='episodic_answer', max_tokens=200)
            out.usage.add(reply)
        except LLMError as exc:
            out.text, out.error = 'I cannot answer right now.', llm_failure(exc)
            out.seconds = time.perf_counter() - began
            return out
        data = reply.data if isinstance(reply.data, dict) else {}
        out.text = str(data.get('answer') or reply.text or '').strip() or 'I do not know.'
        known = {e.id for e in episodes}
        for e in data.get('events') or []:
            try:
                if int(e) in known and int(e) not in out.episodes:
                    out.episodes.append(int(e))
            except (TypeError, ValueError):
                continue
        out.seconds = time.perf_counter() - began
        return out

    def answer(self, kg: KnowledgeGraph, question: str, *,
               use_llm: bool | None = None) -> PastAnswer:
        """Deterministic answer when the form allows, else the LLM (when there is one)."""
        began = time.perf_counter()
        if not use_llm:
            found = self.deterministic(kg, question)
            if found is not None and (found.method != 'none' or self.llm is None
                                      or use_llm is False):
                found.seconds = time.perf_counter() - began
                return found
        if self.llm is None or use_llm is False:
            return PastAnswer(question=question, text='I do not know.', method='none',
                              seconds=time.perf_counter() - began)
        return self.with_llm(kg, question)
