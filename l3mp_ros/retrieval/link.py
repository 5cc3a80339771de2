# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Mention linking without an LLM: the utterance's words against the KG's entity names.

The paper's R^S asks the LLM for a query graph first (Algorithm 1, ``search.py``); on a
small local model that call costs as much as the update itself. :class:`LinkRetriever`
(``link``) grounds the utterance directly:

- a *lexical* score per entity: the share of its name's words (IDF-weighted over all
  entity names, so ``mia`` counts more than ``tube``) that occur in the utterance, with
  possessives, plurals and number words normalised (``Mia's second tube`` → mia, 2, tube);
- a *semantic* score: the best cosine similarity between the utterance's short word
  spans (1–4 words) and the entity's text, with the sentence-transformers model of
  :mod:`.embed` (``the chem lab`` still finds a wet lab);
- score = the larger of the two (the semantic one damped); a word that names at most two
  entities (``acetone``, ``pbs``) makes each of them a mention on its own.

Entities scoring above ``strong`` are the *mentioned* ones (the semantic checks of the
update pipeline use them); the best ``max_seeds`` are the seeds whose facts form the
context, and every entity of that context can appear in the LLM's answer.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from l3mp_ros.llm.protocol import ChatLLM
from l3mp_ros.retrieval.base import Retrieval
from l3mp_ros.retrieval.embed import EntityIndex, TextEncoder
from l3mp_ros.text import STOPWORDS, name_words, stem, words
from l3mp_ros.world.kg import Fact, KnowledgeGraph


def named_fully(names: Iterable[str], text: str) -> set[str]:
    """Return the ``names`` every word of which occurs in ``text`` ("kitchen sink")."""
    present = set(words(text))
    return {n for n in names if set(name_words(n)) <= present}


def named_in(kg: KnowledgeGraph, text: str, *, rare: int = 3) -> set[str]:
    """Return the entities ``text`` names, by words alone.

    An entity is named when the text holds half of its name's words ("the shaker" names
    shaker_incubator), or a word that at most ``rare`` names share and no entity sharing
    it is named more fully ("the goggles" names both pairs; "the blue ice bucket" names
    ice_bucket_blue, not blue_key_card), or its type when few entities have that type
    ("the robot"). A loose test for "could this clause be about X?".
    """
    present = {stem(w) for w in words(text)} - STOPWORDS
    if not present:
        return set()
    names = {n: {stem(w) for w in name_words(n)} for n in kg.entities}
    cover = {n: len(ws & present) / len(ws) for n, ws in names.items() if ws & present}
    named = {n for n, c in cover.items() if c >= 0.5}
    for w in present:
        owners = [n for n in cover if w in names[n]]
        if 0 < len(owners) <= rare:
            top = max(cover[n] for n in owners)
            named.update(n for n in owners if cover[n] == top)
    by_type: dict[str, list[str]] = {}
    for n, t in kg.entities.items():
        by_type.setdefault(t, []).append(n)
    for t, members in by_type.items():
        if len(members) <= rare and present & {stem(w) for w in name_words(t)}:
            named.update(members)
    return named


@dataclass
class Linking:
    """Entities an utterance refers to, best first."""

    scores: dict[str, float] = field(default_factory=dict)
    lexical: dict[str, float] = field(default_factory=dict)
    semantic: dict[str, float] = field(default_factory=dict)
    mentioned: list[str] = field(default_factory=list)

    def ranked(self) -> list[str]:
        """Return entity names by decreasing score."""
        return sorted(self.scores, key=lambda n: (-self.scores[n], n))


class EntityLinker:
    """Score every KG entity against an utterance (lexical + embedding similarity)."""

    def __init__(self, embedder: TextEncoder | None = None, *, index: EntityIndex | None = None,
                 strong: float = 0.62, max_span: int = 4) -> None:
        self.index = index or EntityIndex(embedder)
        self.strong = strong
        self.max_span = max_span
        self._vocab_key: int | None = None
        self._idf: dict[str, float] = {}
        self._names: dict[str, list[str]] = {}
        self._rare: set[str] = set()

    def _sync_vocab(self, kg: KnowledgeGraph) -> None:
        key = hash(frozenset(kg.entities.items()))
        if key == self._vocab_key:
            return
        self._names = {n: [stem(w) for w in name_words(n)] for n in kg.entities}
        df: Counter[str] = Counter()
        for ws in self._names.values():
            df.update(set(ws))
        total = max(1, len(self._names))
        self._idf = {w: math.log(1.0 + total / c) for w, c in df.items()}
        self._rare = {w for w, c in df.items() if c <= 2 and not w.isdigit() and len(w) > 2}
        self._vocab_key = key

    def spans(self, text: str) -> list[str]:
        """Return the utterance's spans of 1 to ``max_span`` words (no stopword at an end)."""
        ws = words(text)
        out: list[str] = []
        for i in range(len(ws)):
            for j in range(i + 1, min(len(ws), i + self.max_span) + 1):
                span = ws[i:j]
                if span[0] in STOPWORDS or span[-1] in STOPWORDS:
                    continue
                out.append(' '.join(span))
        return list(dict.fromkeys(out)) or [text.strip().lower() or 'nothing']

    def link(self, kg: KnowledgeGraph, text: str) -> Linking:
        """Score every entity of ``kg`` against ``text``."""
        self._sync_vocab(kg)
        present = {stem(w) for w in words(text)} - STOPWORDS
        lexical: dict[str, float] = {}
        for name, ws in self._names.items():
            total = sum(self._idf[w] for w in ws)
            if total <= 0:
                continue
            hit = sum(self._idf[w] for w in ws if w in present)
            if hit:
                lexical[name] = hit / total
                if any(w in present for w in ws if w in self._rare):
                    lexical[name] = max(lexical[name], self.strong + 0.05)
        semantic: dict[str, float] = {}
        self.index.sync(kg)
        if self.index.names:
            sims = self.index.similarity(self.spans(text))
            best = sims.max(axis=0) if sims.size else np.zeros(len(self.index.names))
            for name, col in self.index.columns.items():
                semantic[name] = float(best[col])
        scores = {}
        for name in kg.entities:
            lex, sem = lexical.get(name, 0.0), semantic.get(name, 0.0)
            scores[name] = max(lex, sem * 0.9, 0.55 * lex + 0.45 * sem)
        mentioned = [n for n in sorted(scores, key=lambda n: (-scores[n], n))
                     if scores[n] >= self.strong]
        return Linking(scores, lexical, semantic, mentioned)


class LinkRetriever:
    """Retriever ``link``: entities linked from the utterance's words, and their facts.

    No LLM call. ``info['mentioned']`` lists the entities the utterance refers to;
    ``entities`` is every entity the context makes available (seeds and their
    neighbours through the context facts), best first in ``info['ranked']``.
    """

    name = 'link'

    def __init__(self, embedder: TextEncoder | None = None, *, max_seeds: int = 8,
                 min_seeds: int = 3, max_facts: int = 28, facts_per_seed: int = 8,
                 max_entities: int = 40, strong: float = 0.62,
                 index: EntityIndex | None = None) -> None:
        self.linker = EntityLinker(embedder, index=index, strong=strong)
        self.max_seeds = max_seeds
        self.min_seeds = min_seeds
        self.max_facts = max_facts
        self.facts_per_seed = facts_per_seed
        self.max_entities = max_entities

    def retrieve(self, kg: KnowledgeGraph, text: str, llm: ChatLLM | None = None) -> Retrieval:
        """Link ``text`` to entities and return the facts around them."""
        start = time.perf_counter()
        linking = self.linker.link(kg, text)
        linking.mentioned.extend(self.related_mentions(kg, text, linking.mentioned))
        ranked = linking.ranked()
        seeds = linking.mentioned[:self.max_seeds]
        for name in ranked:
            if len(seeds) >= self.min_seeds:
                break
            if name not in seeds:
                seeds.append(name)
        facts = self.context(kg, seeds, linking.scores)
        score = dict(linking.scores)
        for f in facts:  # neighbours inherit a share of the seed's score
            top = max(score.get(a, 0.0) for a in f.args if a in seeds) if any(
                a in seeds for a in f.args) else 0.0
            for a in f.args:
                if a not in seeds:
                    score[a] = max(linking.scores.get(a, 0.0), min(score.get(a, 0.0), 1.0),
                                   0.5 * top)
        names = list(dict.fromkeys([*seeds, *(a for f in facts for a in f.args)]))
        names.sort(key=lambda n: (n not in seeds, -score.get(n, 0.0), n))
        names = names[:self.max_entities]
        info: dict[str, Any] = {
            'retriever': self.name, 'mentioned': list(linking.mentioned), 'seeds': seeds,
            'ranked': names,
            'scores': {n: round(score.get(n, 0.0), 3) for n in names},
        }
        return Retrieval(facts=set(facts), entities=set(names),
                         seconds=time.perf_counter() - start, info=info,
                         mentioned=list(linking.mentioned), ranked=names)

    @staticmethod
    def related_mentions(kg: KnowledgeGraph, text: str, mentioned: list[str]) -> list[str]:
        """Return entities referred to by a head noun and a relation to a mention.

        "the tablet from Theo's desk": a tablet (its name's or its type's last word is in
        the utterance) that shares a fact with a mentioned entity (``theo_desk``).
        """
        present = {stem(w) for w in words(text)} - STOPWORDS
        strong = set(mentioned)
        out: list[str] = []
        for name in sorted({a for m in strong for f in kg.facts_of(m) for a in f.args}
                           - strong):
            kept = ([x for x in name_words(n) if not x.isdigit()]
                    for n in (name, kg.entities[name]))
            heads = {stem(w[-1]) for w in kept if w}
            if heads & present:
                out.append(name)
        return out

    def context(self, kg: KnowledgeGraph, seeds: Iterable[str],
                scores: dict[str, float]) -> list[Fact]:
        """Return the seeds' facts: those joining two seeds first, a cap per seed."""
        seeds = [s for s in seeds if kg.has_entity(s)]
        seedset = set(seeds)
        out: list[Fact] = []
        seen: set[Fact] = set()

        def rank(f: Fact) -> tuple:
            inside = sum(a in seedset for a in set(f.args))
            return (-inside, -max(scores.get(a, 0.0) for a in f.args), f)

        for s in seeds:
            own = sorted((f for f in kg.facts_of(s) if f not in seen), key=rank)
            for f in own[:self.facts_per_seed]:
                seen.add(f)
                out.append(f)
        out.sort(key=rank)
        return out[:self.max_facts]
