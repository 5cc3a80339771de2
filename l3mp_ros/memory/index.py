# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Vector index for episodes and strategies: brute force when small, HNSW when large.

The vectors themselves live in the store's SQLite file (table ``memory_vectors``, one row
per item and *space*: ``episodes``, ``strategies``), so they are as durable as the events
they describe. :class:`VectorIndex` keeps them in a numpy matrix (cosine similarity of
unit vectors is one matrix product) and, once it holds ``threshold`` items or more, an
hnswlib graph (inner-product space) beside it. The graph is persisted next to the store
(``<store>.<space>.hnsw``) and reloaded on the next start; items added since it was saved
are inserted incrementally, and a graph that does not match the vectors (e.g. a copy from
another store) is rebuilt. hnswlib is optional: without it the index stays brute force.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_THRESHOLD = 2000

_VECTOR_DDL = """
CREATE TABLE IF NOT EXISTS memory_vectors (
    space TEXT NOT NULL, id INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (space, id)
) WITHOUT ROWID
"""


def resolve_embedder(arg: Any) -> Any:
    """Return a text encoder: the shared MiniLM for None, ``arg`` if it encodes, else ``arg()``."""
    if arg is None:
        from ..retrieval.embed import get_embedder
        return get_embedder()
    return arg if hasattr(arg, 'encode') else arg()


def hnswlib_available() -> bool:
    """Return True when hnswlib imports."""
    try:
        import hnswlib  # noqa: F401
    except ImportError:
        return False
    return True


class VectorIndex:
    """Integer ids → unit vectors; top-k cosine search, exact or approximate (HNSW).

    ``threshold``: from this many items on, :meth:`search` uses the HNSW graph (``0``
    forces it, ``None`` never). ``ann_path``: where :meth:`save` writes the graph.
    """

    def __init__(self, dim: int, *, threshold: int | None = DEFAULT_THRESHOLD,
                 ann_path: str | Path | None = None, m: int = 16,
                 ef_construction: int = 200, ef_search: int = 128) -> None:
        self.dim = int(dim)
        self.threshold = threshold
        self.ann_path = Path(ann_path) if ann_path else None
        self.m = m
        self.ef_construction = ef_construction
        self.ef_search = ef_search
        self.ids: list[int] = []
        self._row: dict[int, int] = {}
        self._vecs = np.zeros((0, self.dim), dtype=np.float32)
        self._ann: Any = None
        self._ann_count = 0  # items of self.ids (in order) inserted into the graph
        self._ann_dirty = False
        self.rebuilds = 0

    # -- contents --------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, item: object) -> bool:
        return item in self._row

    @property
    def vectors(self) -> np.ndarray:
        """Return the ``(len, dim)`` matrix (rows follow :attr:`ids`)."""
        return self._vecs[:len(self.ids)]

    @property
    def backend(self) -> str:
        """Return ``hnsw`` when searches go through the graph, else ``brute``."""
        return 'hnsw' if self._use_ann() else 'brute'

    def vector(self, ids: Sequence[int]) -> np.ndarray:
        """Return the vectors of ``ids`` (zero rows for unknown ids)."""
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        for i, item in enumerate(ids):
            row = self._row.get(int(item))
            if row is not None:
                out[i] = self._vecs[row]
        return out

    def add(self, ids: Sequence[int], vecs: np.ndarray) -> None:
        """Add (or replace) items; vectors are normalised to unit length."""
        vecs = np.asarray(vecs, dtype=np.float32).reshape(len(ids), self.dim)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        vecs = vecs / np.where(norms > 0, norms, 1.0)
        new = [i for i, item in enumerate(ids) if int(item) not in self._row]
        need = len(self.ids) + len(new)
        if self._vecs.shape[0] < need:
            grown = np.zeros((max(need, 2 * self._vecs.shape[0], 256), self.dim), np.float32)
            grown[:len(self.ids)] = self.vectors
            self._vecs = grown
        replaced = False
        for i, item in enumerate(ids):
            item = int(item)
            row = self._row.get(item)
            if row is None:
                row = len(self.ids)
                self._row[item] = row
                self.ids.append(item)
            else:
                replaced = True
            self._vecs[row] = vecs[i]
        if replaced and self._ann is not None:
            self._ann_dirty = True  # an updated vector: rebuild the graph on next use

    # -- search ----------------------------------------------------------------------
    def _use_ann(self) -> bool:
        return (self.threshold is not None and len(self.ids) >= max(self.threshold, 1)
                and hnswlib_available())

    def search(self, query: np.ndarray, k: int, *, exclude: Iterable[int] = (),
               exact: bool = False) -> list[tuple[int, float]]:
        """Return up to ``k`` ``(id, cosine)`` pairs, best first, skipping ``exclude``."""
        n = len(self.ids)
        if n == 0 or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        if norm > 0:
            q = q / norm
        skip = {int(e) for e in exclude}
        want = min(n, k + len(skip & self._row.keys()))
        if not exact and self._use_ann():
            ann = self._ensure_ann()
            ann.set_ef(max(self.ef_search, want))
            labels, dists = ann.knn_query(q[None, :], k=want)
            pairs = [(int(lab), 1.0 - float(d))
                     for lab, d in zip(labels[0], dists[0], strict=True)]
        else:
            sims = self.vectors @ q
            if want < n:
                top = np.argpartition(-sims, want - 1)[:want]
            else:
                top = np.arange(n)
            top = top[np.argsort(-sims[top], kind='stable')]
            pairs = [(self.ids[int(r)], float(sims[int(r)])) for r in top]
        return [(i, s) for i, s in pairs if i not in skip][:k]

    def similarity(self, query: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """Return exact cosine similarities of ``query`` to the given items."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        return self.vector(ids) @ q

    # -- the HNSW graph --------------------------------------------------------------
    def _ensure_ann(self) -> Any:
        import hnswlib

        n = len(self.ids)
        if self._ann is None and self.ann_path is not None and self.ann_path.exists():
            self._ann = self._load_ann()
        if self._ann is None or self._ann_dirty:
            self._ann = hnswlib.Index(space='ip', dim=self.dim)
            self._ann.init_index(max_elements=max(2 * n, 1024), M=self.m,
                                 ef_construction=self.ef_construction)
            self._ann_count = 0
            self._ann_dirty = False
            self.rebuilds += 1
        if self._ann_count < n:
            if self._ann.get_max_elements() < n:
                self._ann.resize_index(max(2 * n, 1024))
            rows = np.arange(self._ann_count, n)
            self._ann.add_items(self._vecs[rows], np.asarray(self.ids[self._ann_count:n],
                                                             dtype=np.int64))
            self._ann_count = n
        return self._ann

    def _load_ann(self) -> Any:
        """Load the saved graph if it indexes a prefix of :attr:`ids`; else None."""
        import hnswlib

        assert self.ann_path is not None
        side = Path(str(self.ann_path) + '.json')
        try:
            meta = json.loads(side.read_text())
            count = int(meta['count'])
            if (meta.get('dim') != self.dim or count > len(self.ids)
                    or meta.get('last_id') != (self.ids[count - 1] if count else None)):
                return None
            ann = hnswlib.Index(space='ip', dim=self.dim)
            ann.load_index(str(self.ann_path), max_elements=max(2 * len(self.ids), 1024))
        except (OSError, ValueError, KeyError, RuntimeError):
            return None
        if ann.get_current_count() != count:
            return None
        self._ann_count = count
        return ann

    def save(self) -> bool:
        """Write the HNSW graph (if one is in use) next to the store; return True if so."""
        if self.ann_path is None or not self._use_ann():
            return False
        ann = self._ensure_ann()
        tmp = Path(str(self.ann_path) + '.tmp')
        ann.save_index(str(tmp))
        tmp.replace(self.ann_path)
        side = {'dim': self.dim, 'count': self._ann_count,
                'last_id': self.ids[self._ann_count - 1] if self._ann_count else None}
        Path(str(self.ann_path) + '.json').write_text(json.dumps(side))
        return True


class VectorTable:
    """The durable vectors of one *space* in the store's SQLite file."""

    def __init__(self, conn: sqlite3.Connection, space: str) -> None:
        self.conn = conn
        self.space = space
        conn.execute(_VECTOR_DDL)

    def load(self) -> tuple[list[int], np.ndarray | None]:
        """Return all ids (ascending) and their vectors (None when there are none)."""
        rows = self.conn.execute('SELECT id, vec FROM memory_vectors WHERE space = ? '
                                 'ORDER BY id', (self.space,)).fetchall()
        if not rows:
            return [], None
        mat = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
        return [int(i) for i, _ in rows], mat

    def put(self, ids: Sequence[int], vecs: np.ndarray) -> None:
        """Insert or replace vectors (the caller owns the transaction, if any)."""
        vecs = np.asarray(vecs, dtype=np.float32)
        self.conn.executemany(
            'INSERT OR REPLACE INTO memory_vectors VALUES (?, ?, ?)',
            [(self.space, int(i), vecs[r].tobytes()) for r, i in enumerate(ids)])


def open_index(conn: sqlite3.Connection, space: str, dim: int, store_path: str | Path,
               threshold: int | None = DEFAULT_THRESHOLD) -> tuple[VectorTable, VectorIndex]:
    """Return the durable table of a space and an index loaded from it."""
    table = VectorTable(conn, space)
    index = VectorIndex(dim, threshold=threshold, ann_path=f'{store_path}.{space}.hnsw')
    ids, mat = table.load()
    if ids and mat is not None and mat.shape[1] == dim:
        index.add(ids, mat)
    return table, index
