# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Episodic memory on the durable store (AriGraph's episodic vertices, edges and search).

Every ``applied`` event of the store (a perception frame, an NL report, an executed plan
step, a CLI edit) is an *episode*: its time, source and utterance, linked by episodic edges
to each fact it added and each fact it removed. The links live in the store's own SQLite
file (tables ``episodes``, ``episode_facts``, ``episode_entities``), derived from the
append-only ``events`` table incrementally by :meth:`EpisodicMemory.sync` (a high-water
mark in ``memory_meta``), so they survive restarts and can always be rebuilt from events.

Episodic search (AriGraph, eq. 1): given the triplets retrieved for a query, episode *i*
scores ``rel_i = n_i / max(N_i, 1) · log(max(N_i, 1))`` (``n_i`` retrieved triplets the
episode touches, ``N_i`` all its triplets). Here it is combined with the cosine similarity
of the episode's text (utterance + diff) to the query:
``score = alpha · rel_i / max_j rel_j + (1 − alpha) · max(sim_i, 0)``; the top-k episodes
outside the ``recent`` window (the newest episodes, already in the prompt's context) win.
"""

from __future__ import annotations

import hashlib
import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..world.events import EventStatus
from ..world.kg import Fact
from ..world.store import args_key, stored_fact
from ..world.stores import is_url
from .index import DEFAULT_THRESHOLD, VectorIndex, VectorTable, open_index, resolve_embedder

_DDL = """
CREATE TABLE IF NOT EXISTS memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS episodes (
    id INTEGER PRIMARY KEY, time REAL NOT NULL, source TEXT NOT NULL, utterance TEXT,
    n_facts INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS episode_facts (
    episode INTEGER NOT NULL, op TEXT NOT NULL, predicate TEXT NOT NULL, args TEXT NOT NULL,
    PRIMARY KEY (episode, op, predicate, args)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS episode_facts_by_fact ON episode_facts (predicate, args);
CREATE TABLE IF NOT EXISTS episode_entities (
    entity TEXT NOT NULL, episode INTEGER NOT NULL, PRIMARY KEY (entity, episode)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS episode_contradictions (
    episode INTEGER NOT NULL, by_event INTEGER NOT NULL, PRIMARY KEY (episode, by_event)
) WITHOUT ROWID;
"""
SYNC_KEY = 'episodic_synced_event'
# memory files older than the contradiction table are re-read once for ``info.overrides``
CONTRADICTIONS_KEY = 'episodic_contradictions_from'
SPACE = 'episodes'


def arigraph_relevance(n: int, total: int) -> float:
    """Return AriGraph's eq. 1: ``n / max(N, 1) · log(max(N, 1))``."""
    big = max(int(total), 1)
    return n / big * math.log(big)


def _key(fact: Fact) -> tuple[str, str]:
    return fact.predicate, args_key(fact)


def fact_words(fact: Fact) -> str:
    """Return a fact as words for embedding: ``red pen in person hand gary``."""
    return ' '.join(re.sub(r'_+', ' ', x) for x in fact.triplet() if x != 'true')


@dataclass
class Episode:
    """One applied update: when, from where, what was said, what it added and removed."""

    id: int
    time: float
    source: str
    utterance: str | None = None
    added: list[Fact] = field(default_factory=list)
    removed: list[Fact] = field(default_factory=list)
    #: events (observations) that later contradicted what this episode wrote
    contradicted_by: list[int] = field(default_factory=list)

    @property
    def facts(self) -> set[Fact]:
        """Return every fact the episode touches (its episodic edges)."""
        return set(self.added) | set(self.removed)

    def text(self) -> str:
        """Return the text embedded for the episode: utterance, then the diff in words."""
        parts = [self.utterance.strip().rstrip('.')] if self.utterance else []
        if self.removed:
            parts.append('no longer: ' + '; '.join(fact_words(f) for f in self.removed))
        if self.added:
            parts.append('now: ' + '; '.join(fact_words(f) for f in self.added))
        return '. '.join(parts) or self.source

    def describe(self) -> str:
        """Return one line for a prompt: ``[event 12, source] "utterance" REMOVE ... ADD``."""
        rem = ', '.join(f.text() for f in sorted(self.removed))
        add = ', '.join(f.text() for f in sorted(self.added))
        said = f' "{self.utterance.strip()}"' if self.utterance else ''
        line = f'[event {self.id}, {self.source}]{said} REMOVE: {rem} ADD: {add}'
        return line + self.contradiction_note()

    def contradiction_note(self) -> str:
        """Return `` (contradicted by what was seen in event N)`` or ''."""
        if not self.contradicted_by:
            return ''
        ids = ', '.join(str(i) for i in self.contradicted_by)
        return f' (contradicted by what was seen in event {ids})'

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'id': self.id, 'time': self.time, 'source': self.source,
                'utterance': self.utterance,
                'removed': [list(f.triplet()) for f in sorted(self.removed)],
                'added': [list(f.triplet()) for f in sorted(self.added)],
                'contradicted_by': list(self.contradicted_by)}


@dataclass
class ScoredEpisode:
    """An episode with its search scores."""

    episode: Episode
    score: float
    rel: float = 0.0
    sim: float = 0.0
    n: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {**self.episode.to_json(), 'score': round(self.score, 4),
                'rel': round(self.rel, 4), 'sim': round(self.sim, 4), 'n': self.n}


SYNC_BATCH = 1000  # events read from the store per transaction


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the memory file (a SQLite store file, or a PostgreSQL store's local memory file)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0,
                           check_same_thread=False)
    conn.execute('PRAGMA journal_mode=WAL')
    return conn


def memory_file(location: str | Path, configured: str = '') -> Path:
    """Return the SQLite file that holds lifelong memory's own tables for a store.

    ``configured`` when set; else the store file itself (SQLite), or, for a PostgreSQL
    store (whose event log memory reads through the store interface),
    ``~/.l3mp/memory/<digest of the URL without its password>.db`` on this machine.
    """
    if configured:
        return Path(configured).expanduser()
    if not is_url(location):
        return Path(location).expanduser()
    from ..world.pgstore import redact
    digest = hashlib.sha256(redact(str(location)).encode()).hexdigest()[:16]
    return Path('~/.l3mp/memory').expanduser() / f'{digest}.db'


class EpisodicMemory:
    """Episodes derived from a store's events, with episodic search and fact history.

    ``path``: the SQLite file of the episode tables (:func:`memory_file`); ``events``: the
    store whose log the episodes come from (a store object with ``history(since_id,
    limit)``, or a location: a SQLite file or a postgresql:// URL, opened on first use),
    default the SQLite store at ``path``.

    ``embedder``: a text encoder (``encode(texts) -> unit rows``), a zero-argument factory,
    ``None`` for the shared all-MiniLM-L6-v2 (:func:`~l3mp_ros.retrieval.embed.get_embedder`,
    loaded on first use) or ``False`` to search by the AriGraph score alone.
    """

    def __init__(self, path: str | Path, *, events: Any = None, embedder: Any = None,
                 alpha: float = 0.5, recent: int = 5,
                 threshold: int | None = DEFAULT_THRESHOLD) -> None:
        self.path = Path(path)
        # the event log is read through the store interface (``history``): SQLite and
        # PostgreSQL alike; by default the SQLite store at ``path``
        self._events = None if isinstance(events, (str, Path)) else events
        self._location = events if isinstance(events, (str, Path)) else self.path
        self._own_events = self._events is None
        self.alpha = alpha
        self.recent = recent
        self.threshold = threshold
        self._embedder_arg = embedder
        self._embedder: Any = None
        self.conn = connect(self.path)
        for stmt in _DDL.split(';'):
            if stmt.strip():
                self.conn.execute(stmt)
        self._table: VectorTable | None = None
        self._index: VectorIndex | None = None

    # -- embedding -------------------------------------------------------------------
    @property
    def uses_embeddings(self) -> bool:
        """Return False when the memory searches by the AriGraph score alone."""
        return self._embedder_arg is not False

    @property
    def embedder(self) -> Any:
        """Return the text encoder (loaded on first use)."""
        if self._embedder is None:
            self._embedder = resolve_embedder(self._embedder_arg)
        return self._embedder

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts (unit rows)."""
        return np.asarray(self.embedder.encode(list(texts)), dtype=np.float32)

    @property
    def index(self) -> VectorIndex:
        """Return the vector index of episode texts (built from the store on first use)."""
        if self._index is None:
            dim = int(self.encode(['x']).shape[1])
            self._table, self._index = open_index(self.conn, SPACE, dim, self.path,
                                                  self.threshold)
        return self._index

    def embed_pending(self, batch: int = 256) -> int:
        """Embed episodes that have no vector yet; return how many were embedded."""
        if not self.uses_embeddings:
            return 0
        index = self.index
        last = max(index.ids) if len(index) else 0
        ids = [int(r[0]) for r in self.conn.execute(
            'SELECT id FROM episodes WHERE id > ? ORDER BY id', (last,))]
        ids = [i for i in ids if i not in index]
        for start in range(0, len(ids), batch):
            chunk = self.episodes(ids[start:start + batch])
            vecs = self.encode([e.text() for e in chunk])
            assert self._table is not None
            self.conn.execute('BEGIN IMMEDIATE')
            try:
                self._table.put([e.id for e in chunk], vecs)
                self.conn.execute('COMMIT')
            except sqlite3.Error:
                self.conn.execute('ROLLBACK')
                raise
            index.add([e.id for e in chunk], vecs)
        return len(ids)

    # -- deriving episodes from events ---------------------------------------------------
    def synced_event(self) -> int:
        """Return the id of the last event already turned into episodes."""
        row = self.conn.execute('SELECT value FROM memory_meta WHERE key = ?',
                                (SYNC_KEY,)).fetchone()
        return int(row[0]) if row else 0

    def sync(self, *, embed: bool = False) -> int:
        """Turn the store's new ``applied`` events into episodes; return how many.

        One transaction per call: the episodes, their fact and entity links and the
        high-water mark commit together, so a crash never leaves half an episode.
        """
        since = self.synced_event()
        self._backfill_contradictions(since)
        made = 0
        while True:
            events = self.event_log().history(since_id=since, limit=SYNC_BATCH)
            if not events:
                break
            self.conn.execute('BEGIN IMMEDIATE')
            try:
                for e in events:
                    self._mark_contradictions(e)
                    if e.status != EventStatus.APPLIED or e.update is None or e.update.is_empty():
                        continue
                    self._insert(e.id, e.time, e.source, e.utterance, set(e.update.add),
                                 set(e.update.remove), list(e.new_entities))
                    made += 1
                self.conn.execute('INSERT OR REPLACE INTO memory_meta VALUES (?, ?)',
                                  (SYNC_KEY, str(events[-1].id)))
                self.conn.execute('COMMIT')
            except (sqlite3.Error, ValueError):
                if self.conn.in_transaction:
                    self.conn.execute('ROLLBACK')
                raise
            since = events[-1].id
        if embed:
            self.embed_pending()
        return made

    def _mark_contradictions(self, event: Any) -> None:
        """Record the reports an observation event names in ``info.overrides``."""
        if event.status != EventStatus.APPLIED:
            return
        overrides = (event.info or {}).get('overrides') or []
        self.conn.executemany(
            'INSERT OR IGNORE INTO episode_contradictions VALUES (?, ?)',
            [(int(o), int(event.id)) for o in overrides
             if isinstance(o, int) and not isinstance(o, bool)])

    def _backfill_contradictions(self, synced: int) -> None:
        """Once per memory file: read ``info.overrides`` of events synced before the table."""
        row = self.conn.execute('SELECT value FROM memory_meta WHERE key = ?',
                                (CONTRADICTIONS_KEY,)).fetchone()
        if row is not None:
            return
        since = 0
        self.conn.execute('BEGIN IMMEDIATE')
        try:
            while since < synced:
                events = self.event_log().history(since_id=since, limit=SYNC_BATCH)
                if not events:
                    break
                for e in events:
                    if e.id <= synced:
                        self._mark_contradictions(e)
                since = events[-1].id
            self.conn.execute('INSERT OR REPLACE INTO memory_meta VALUES (?, ?)',
                              (CONTRADICTIONS_KEY, str(synced)))
            self.conn.execute('COMMIT')
        except (sqlite3.Error, ValueError):
            if self.conn.in_transaction:
                self.conn.execute('ROLLBACK')
            raise

    def contradicted(self) -> dict[int, list[int]]:
        """Return ``{episode: [events that contradicted it]}``."""
        out: dict[int, list[int]] = {}
        for eid, by in self.conn.execute(
                'SELECT episode, by_event FROM episode_contradictions ORDER BY episode, by_event'):
            out.setdefault(int(eid), []).append(int(by))
        return out

    def event_log(self) -> Any:
        """Return the store whose events become episodes (opened on first use)."""
        if self._events is None:  # its own connection: never inside a writer's transaction
            from ..world.stores import open_store
            self._events = open_store(self._location)
        return self._events

    def _insert(self, eid: int, t: float, source: str, utterance: str | None,
                added: set[Fact], removed: set[Fact], new_entities: Iterable[str]) -> None:
        facts = added | removed
        self.conn.execute('INSERT OR REPLACE INTO episodes VALUES (?, ?, ?, ?, ?)',
                          (eid, t, source, utterance, len(facts)))
        self.conn.executemany(
            'INSERT OR IGNORE INTO episode_facts VALUES (?, ?, ?, ?)',
            [(eid, 'add', *_key(f)) for f in added]
            + [(eid, 'remove', *_key(f)) for f in removed])
        ents = {a for f in facts for a in f.args} | set(new_entities)
        self.conn.executemany('INSERT OR IGNORE INTO episode_entities VALUES (?, ?)',
                              [(e, eid) for e in sorted(ents)])

    def add_episode(self, eid: int, t: float, source: str, utterance: str | None,
                    added: Iterable[Fact], removed: Iterable[Fact]) -> None:
        """Insert one episode directly (tests, imports); events stay the usual source."""
        self.conn.execute('BEGIN IMMEDIATE')
        self._insert(eid, t, source, utterance, set(added), set(removed), ())
        self.conn.execute('COMMIT')

    # -- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.conn.execute('SELECT COUNT(*) FROM episodes').fetchone()[0])

    def episodes(self, ids: Sequence[int]) -> list[Episode]:
        """Return the episodes with these ids, in the given order (unknown ids skipped)."""
        out: dict[int, Episode] = {}
        ids = [int(i) for i in ids]
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ','.join('?' * len(chunk))
            for eid, t, source, utt in self.conn.execute(
                    f'SELECT id, time, source, utterance FROM episodes WHERE id IN ({marks})',
                    chunk):
                out[eid] = Episode(eid, t, source, utt)
            for eid, op, pred, args in self.conn.execute(
                    'SELECT episode, op, predicate, args FROM episode_facts '
                    f'WHERE episode IN ({marks})', chunk):
                fact = stored_fact(pred, args)
                (out[eid].added if op == 'add' else out[eid].removed).append(fact)
            for eid, by in self.conn.execute(
                    'SELECT episode, by_event FROM episode_contradictions '
                    f'WHERE episode IN ({marks}) ORDER BY by_event', chunk):
                if eid in out:
                    out[eid].contradicted_by.append(int(by))
        for ep in out.values():
            ep.added.sort()
            ep.removed.sort()
        return [out[i] for i in ids if i in out]

    def recent_ids(self, window: int | None = None) -> list[int]:
        """Return the ids of the newest ``window`` episodes (the working memory)."""
        window = self.recent if window is None else window
        if window <= 0:
            return []
        return [int(r[0]) for r in self.conn.execute(
            'SELECT id FROM episodes ORDER BY id DESC LIMIT ?', (window,))]

    def history(self, entity: str, *, limit: int | None = None,
                before: int | None = None) -> list[Episode]:
        """Return the episodes that touched ``entity``, newest first."""
        sql = 'SELECT episode FROM episode_entities WHERE entity = ?'
        params: list[Any] = [entity.lower()]
        if before is not None:
            sql += ' AND episode < ?'
            params.append(before)
        sql += ' ORDER BY episode DESC'
        if limit is not None:
            sql += ' LIMIT ?'
            params.append(limit)
        return self.episodes([int(r[0]) for r in self.conn.execute(sql, params)])

    def fact_history(self, fact: Fact) -> list[tuple[int, str, float]]:
        """Return ``(episode, 'add'|'remove', time)`` for one fact, oldest first."""
        return [(int(e), op, float(t)) for e, op, t in self.conn.execute(
            'SELECT f.episode, f.op, e.time FROM episode_facts f JOIN episodes e '
            'ON e.id = f.episode WHERE f.predicate = ? AND f.args = ? ORDER BY f.episode',
            _key(fact))]

    # -- episodic search -------------------------------------------------------------
    def relevance(self, facts: Iterable[Fact],
                  exclude: Iterable[int] = ()) -> dict[int, tuple[int, int, float]]:
        """Return ``{episode: (n_i, N_i, rel_i)}`` for every episode touching ``facts``."""
        keys = sorted({_key(f) for f in facts})
        if not keys:
            return {}
        skip = set(exclude)
        self.conn.execute('CREATE TEMP TABLE IF NOT EXISTS q_facts '
                          '(predicate TEXT, args TEXT, PRIMARY KEY (predicate, args))')
        self.conn.execute('DELETE FROM q_facts')
        self.conn.executemany('INSERT OR IGNORE INTO q_facts VALUES (?, ?)', keys)
        rows = self.conn.execute(
            'SELECT f.episode, COUNT(DISTINCT f.predicate || f.args), e.n_facts '
            'FROM episode_facts f JOIN q_facts q ON q.predicate = f.predicate '
            'AND q.args = f.args JOIN episodes e ON e.id = f.episode GROUP BY f.episode'
        ).fetchall()
        return {int(e): (int(n), int(total), arigraph_relevance(n, total))
                for e, n, total in rows if int(e) not in skip}

    def search(self, query: str, facts: Iterable[Fact] = (), k: int = 5, *,
               recent: int | None = None, candidates: int = 50,
               alpha: float | None = None) -> list[ScoredEpisode]:
        """Return the top-k episodes for a query and its retrieved facts.

        Candidates: every episode touching a retrieved fact, plus the ``candidates``
        nearest episode texts (through the vector index); the ``recent`` newest episodes
        are excluded.
        """
        if k <= 0:
            return []
        alpha = self.alpha if alpha is None else alpha
        skip = set(self.recent_ids(recent))
        rel = self.relevance(facts, skip)
        sims: dict[int, float] = {}
        if self.uses_embeddings and query:
            self.embed_pending()
            q = self.encode([query])[0]
            for eid, s in self.index.search(q, max(candidates, k), exclude=skip):
                sims[eid] = s
            missing = [e for e in rel if e not in sims]
            if missing:
                sims.update(zip(missing, map(float, self.index.similarity(q, missing)),
                                strict=True))
        else:
            alpha = 1.0
        top_rel = max((r for _, _, r in rel.values()), default=0.0)
        scored: list[tuple[float, int, float, float, int]] = []
        for eid in set(rel) | set(sims):
            n, _, r = rel.get(eid, (0, 0, 0.0))
            s = sims.get(eid, 0.0)
            norm = r / top_rel if top_rel > 0 else 0.0
            score = alpha * norm + (1.0 - alpha) * max(s, 0.0)
            scored.append((score, eid, r, s, n))
        scored.sort(key=lambda x: (-x[0], -x[1]))
        scored = scored[:k]
        eps = {e.id: e for e in self.episodes([x[1] for x in scored])}
        return [ScoredEpisode(eps[eid], score, r, s, n) for score, eid, r, s, n in scored
                if eid in eps]

    def prompt_block(self, query: str, facts: Iterable[Fact], k: int) -> str:
        """Return the ``Relevant past events`` block for a prompt ('' when none)."""
        found = self.search(query, facts, k)
        if not found:
            return ''
        lines = '\n'.join(s.episode.describe() for s in sorted(found, key=lambda s: s.episode.id))
        return f'Relevant past events (oldest first):\n{lines}\n'

    def save(self) -> None:
        """Persist the ANN graph next to the store (the vectors are in SQLite already)."""
        if self._index is not None:
            self._index.save()

    def close(self) -> None:
        """Save the index and close the connection (and the store it opened)."""
        try:
            self.save()
        finally:
            self.conn.close()
            if self._own_events and self._events is not None:
                self._events.close()
                self._events = None


SyncHook = Callable[..., None]


def sync_listener(memory: EpisodicMemory) -> SyncHook:
    """Return a :class:`~l3mp_ros.world.model.WorldModel` listener that syncs episodes."""
    def listener(eid: int | None, result: Any) -> None:
        if eid is not None and getattr(result, 'applied', False):
            memory.sync()
    return listener
