# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Experience memory: strategies distilled from solved tasks (EvoMemKG).

After a task whose plan succeeded, :meth:`ExperienceMemory.record` abstracts it by entity
types: the task text with each named entity replaced by ``<type>`` ("place <pen> on the
table in <room>") and the goal with each entity replaced by a typed variable
(``(and (placed_at_table ?pen ?table))``, ``?pen - pen``), keeping the concrete task, goal
and entity→variable map as the worked example. A new strategy whose template text is at
least ``theta`` (0.8) similar to a stored one with the same goal template is merged into it
(its success count grows). :meth:`ExperienceMemory.retrieve` returns the ``k`` (3) most
similar strategies; :meth:`ExperienceMemory.instantiate` binds their variables to the new
task's entities (named in the text first, then retrieved), by type. Strategies live in the
store's SQLite file (table ``strategies``; vectors in ``memory_vectors``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..world.kg import KnowledgeGraph
from .episodic import connect
from .index import DEFAULT_THRESHOLD, VectorIndex, VectorTable, open_index, resolve_embedder
from .qa import entity_phrase, mentioned_entities

_DDL = """
CREATE TABLE IF NOT EXISTS strategies (
    id INTEGER PRIMARY KEY AUTOINCREMENT, task_template TEXT NOT NULL,
    goal_template TEXT NOT NULL, variables TEXT NOT NULL, example_task TEXT NOT NULL,
    example_goal TEXT NOT NULL, bindings TEXT NOT NULL, successes INTEGER NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL
)
"""
SPACE = 'strategies'
_TOKEN = re.compile(r'(?<![?\w-])[A-Za-z][\w-]*')


@dataclass
class Strategy:
    """A task abstracted by entity types, with its goal template and a worked example."""

    task_template: str
    goal_template: str
    variables: dict[str, str]  # ?var -> type, in order of appearance in the goal
    example_task: str
    example_goal: str
    bindings: dict[str, str]  # ?var -> entity of the worked example
    successes: int = 1
    id: int | None = None
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'id': self.id, 'task_template': self.task_template,
                'goal_template': self.goal_template, 'variables': self.variables,
                'example_task': self.example_task, 'example_goal': self.example_goal,
                'bindings': self.bindings, 'successes': self.successes}


@dataclass
class Instantiation:
    """A strategy bound to a new task's entities (``complete`` when every variable is)."""

    strategy: Strategy
    similarity: float
    bindings: dict[str, str]
    goal: str
    complete: bool

    def describe(self) -> str:
        """Return the worked-example lines for a prompt."""
        s = self.strategy
        vars_ = ', '.join(f'{v} - {t}' for v, t in s.variables.items())
        lines = [f'Past task: {s.example_task}', f'Its goal: {s.example_goal}',
                 f'Pattern: "{s.task_template}" -> {s.goal_template} ({vars_})']
        if self.bindings:
            bound = ', '.join(f'{v} = {e}' for v, e in self.bindings.items())
            lines.append(f'For this task ({bound}): {self.goal}')
        return '\n'.join(lines)


def _span_pattern(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r'\b' + r"(?:'s)?[\s_-]+".join(words) + r"(?:'s)?\b", re.I)


def abstract_text(text: str, kg: KnowledgeGraph) -> tuple[str, dict[str, str]]:
    """Replace each entity a text names by ``<type>``; return the text and name → type."""
    names = mentioned_entities(kg, text)
    out = text
    found: dict[str, str] = {}
    for name in sorted(names, key=lambda n: len(entity_phrase(n)), reverse=True):
        pattern = _span_pattern(entity_phrase(name))
        if pattern.search(out):
            out = pattern.sub(f'<{kg.entities[name]}>', out)
            found[name] = kg.entities[name]
    return out, found


def abstract_goal(goal: str, kg: KnowledgeGraph) -> tuple[str, dict[str, str], dict[str, str]]:
    """Replace entities in a goal by typed variables.

    Return ``(template, variables ?var → type, bindings ?var → entity)``; variables are
    named for their type (``?pen``, then ``?pen2``) in order of first appearance.
    """
    variables: dict[str, str] = {}
    bindings: dict[str, str] = {}
    by_entity: dict[str, str] = {}

    def sub(m: re.Match[str]) -> str:
        token = m.group(0)
        name = token.lower()
        if name not in kg.entities:
            return token
        if name not in by_entity:
            type_ = kg.entities[name]
            var, i = f'?{type_}', 2
            while var in variables:
                var, i = f'?{type_}{i}', i + 1
            by_entity[name] = var
            variables[var] = type_
            bindings[var] = name
        return by_entity[name]

    template = _TOKEN.sub(sub, ' '.join(goal.split()))
    return template, variables, bindings


def abstract_task(text: str, goal: str, kg: KnowledgeGraph) -> Strategy:
    """Return the strategy of one solved task (not yet stored)."""
    template, variables, bindings = abstract_goal(goal, kg)
    task_template, _ = abstract_text(text, kg)
    return Strategy(task_template=task_template, goal_template=template, variables=variables,
                    example_task=' '.join(text.split()), example_goal=' '.join(goal.split()),
                    bindings=bindings)


def fill(template: str, bindings: dict[str, str]) -> str:
    """Substitute bound variables in a goal template (longest names first)."""
    out = template
    for var in sorted(bindings, key=len, reverse=True):
        out = re.sub(re.escape(var) + r'(?![\w-])', bindings[var], out)
    return out


def instantiate(strategy: Strategy, kg: KnowledgeGraph, text: str,
                retrieved: Iterable[str] = (), similarity: float = 0.0,
                is_subtype: Callable[[str, str], bool] | None = None) -> Instantiation:
    """Bind the strategy's variables to the new task's entities, by type.

    Candidates: entities named in ``text`` (in order of mention), then ``retrieved`` ones
    (sorted); each variable takes the first unused candidate of its type (or a subtype).
    """
    same = is_subtype or (lambda t, want: t == want)
    cands = mentioned_entities(kg, text) + sorted(e for e in set(retrieved)
                                                  if e in kg.entities)
    used: set[str] = set()
    bindings: dict[str, str] = {}
    for var, type_ in strategy.variables.items():
        for name in cands:
            if name not in used and same(kg.entities[name], type_):
                bindings[var] = name
                used.add(name)
                break
    return Instantiation(strategy, similarity, bindings, fill(strategy.goal_template, bindings),
                         len(bindings) == len(strategy.variables))


class ExperienceMemory:
    """Strategies in the store file, searched by embedding similarity of their templates.

    ``embedder`` as for :class:`~l3mp_ros.memory.episodic.EpisodicMemory` (``None``: the
    shared all-MiniLM-L6-v2; an object with ``encode``; a factory).
    """

    def __init__(self, path: str | Path, *, embedder: Any = None, k: int = 3,
                 theta: float = 0.8, min_similarity: float = 0.3,
                 threshold: int | None = DEFAULT_THRESHOLD) -> None:
        self.path = Path(path)
        self.k = k
        self.theta = theta
        self.min_similarity = min_similarity
        self.threshold = threshold
        self._embedder_arg = embedder
        self._embedder: Any = None
        self.conn = connect(self.path)
        self.conn.execute(_DDL)
        self._table: VectorTable | None = None
        self._index: VectorIndex | None = None

    @property
    def embedder(self) -> Any:
        """Return the text encoder (loaded on first use)."""
        if self._embedder is None:
            self._embedder = resolve_embedder(self._embedder_arg)
        return self._embedder

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder.encode(list(texts)), dtype=np.float32)

    @property
    def index(self) -> VectorIndex:
        """Return the vector index of task templates."""
        if self._index is None:
            dim = int(self._encode(['x']).shape[1])
            self._table, self._index = open_index(self.conn, SPACE, dim, self.path,
                                                  self.threshold)
        return self._index

    # -- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.conn.execute('SELECT COUNT(*) FROM strategies').fetchone()[0])

    def get(self, ids: Sequence[int]) -> list[Strategy]:
        """Return strategies by id (in the given order; unknown ids skipped)."""
        if not ids:
            return []
        marks = ','.join('?' * len(ids))
        rows = {r[0]: r for r in self.conn.execute(
            f'SELECT * FROM strategies WHERE id IN ({marks})', [int(i) for i in ids])}
        out = []
        for i in ids:
            r = rows.get(int(i))
            if r is None:
                continue
            out.append(Strategy(id=r[0], task_template=r[1], goal_template=r[2],
                                variables=json.loads(r[3]), example_task=r[4],
                                example_goal=r[5], bindings=json.loads(r[6]),
                                successes=r[7], created=r[8], updated=r[9]))
        return out

    def all(self) -> list[Strategy]:
        """Return every strategy, oldest first."""
        return self.get([r[0] for r in self.conn.execute('SELECT id FROM strategies '
                                                         'ORDER BY id')])

    def retrieve(self, text: str, kg: KnowledgeGraph | None = None,
                 k: int | None = None) -> list[tuple[Strategy, float]]:
        """Return the ``k`` strategies most similar to a task (its abstracted text)."""
        k = self.k if k is None else k
        if k <= 0 or len(self) == 0:
            return []
        query = abstract_text(text, kg)[0] if kg is not None else text
        hits = self.index.search(self._encode([query])[0], k)
        hits = [(i, s) for i, s in hits if s >= self.min_similarity]
        got = {s.id: s for s in self.get([i for i, _ in hits])}
        return [(got[i], s) for i, s in hits if i in got]

    def instantiate(self, text: str, kg: KnowledgeGraph, retrieved: Iterable[str] = (),
                    k: int | None = None,
                    is_subtype: Callable[[str, str], bool] | None = None
                    ) -> list[Instantiation]:
        """Retrieve and bind the top-k strategies for a new task."""
        retrieved = list(retrieved)
        return [instantiate(s, kg, text, retrieved, sim, is_subtype)
                for s, sim in self.retrieve(text, kg, k)]

    def prompt_block(self, text: str, kg: KnowledgeGraph, retrieved: Iterable[str] = (),
                     is_subtype: Callable[[str, str], bool] | None = None) -> str:
        """Return the worked-examples block for the goal prompt ('' when none)."""
        found = self.instantiate(text, kg, retrieved, is_subtype=is_subtype)
        if not found:
            return ''
        body = '\n\n'.join(i.describe() for i in found)
        return f'Worked examples from similar tasks that succeeded:\n{body}\n'

    # -- writing ---------------------------------------------------------------------
    def record(self, text: str, goal: str, kg: KnowledgeGraph) -> tuple[Strategy, bool]:
        """Store the strategy of a solved task; return it and whether it was merged."""
        new = abstract_task(text, goal, kg)
        vec = self._encode([new.task_template])
        index = self.index
        for sid, sim in index.search(vec[0], 5):
            if sim < self.theta:
                break
            old = self.get([sid])
            if old and old[0].goal_template == new.goal_template:
                merged = old[0]
                merged.successes += 1
                merged.updated = time.time()
                self.conn.execute('UPDATE strategies SET successes = ?, updated = ? '
                                  'WHERE id = ?', (merged.successes, merged.updated, sid))
                return merged, True
        self.conn.execute('BEGIN IMMEDIATE')
        try:
            cur = self.conn.execute(
                'INSERT INTO strategies (task_template, goal_template, variables, example_task,'
                ' example_goal, bindings, successes, created, updated) '
                'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
                (new.task_template, new.goal_template, json.dumps(new.variables),
                 new.example_task, new.example_goal, json.dumps(new.bindings),
                 new.successes, new.created, new.updated))
            new.id = int(cur.lastrowid or 0)
            assert self._table is not None
            self._table.put([new.id], vec)
            self.conn.execute('COMMIT')
        except sqlite3.Error:
            if self.conn.in_transaction:
                self.conn.execute('ROLLBACK')
            raise
        index.add([new.id], vec)
        return new, False

    def close(self) -> None:
        """Save the index and close the connection."""
        try:
            if self._index is not None:
                self._index.save()
        finally:
            self.conn.close()
