# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Retrieval of the KG context: R- (full), R+ (LLM selection), R^S (search, Alg. 1-2).

:func:`make_retriever` builds one by name (the modules are imported on demand: the
search retriever loads the embedding model).
"""

from __future__ import annotations

from typing import Any

from l3mp_ros.retrieval.base import Retriever

RETRIEVERS = ('link', 'search', 'select', 'full')


def make_retriever(name: str, **params: Any) -> Retriever:
    """Build a retriever by name: ``full`` (R−), ``select`` (R+), ``search`` (R^S), ``link``."""
    key = name.strip().lower()
    if key in ('full', 'r-', 'none'):
        from l3mp_ros.retrieval.full import FullRetriever
        return FullRetriever(**params)
    if key in ('select', 'r+', 'llm'):
        from l3mp_ros.retrieval.select import SelectRetriever
        return SelectRetriever(**params)
    if key in ('search', 'rs', 'r^s'):
        from l3mp_ros.retrieval.search import SearchRetriever
        return SearchRetriever(**params)
    if key in ('link', 'rl'):
        from l3mp_ros.retrieval.link import LinkRetriever
        return LinkRetriever(**params)
    raise ValueError(f'unknown retriever {name!r}: expected full, select, search or link')
