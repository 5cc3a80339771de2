# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Open a KG store by location: a SQLite file path, or a ``postgresql://`` URL.

SQLite (:class:`~l3mp_ros.world.store.Store`) is the embedded default: one robot, every
node sharing one file. PostgreSQL (:class:`~l3mp_ros.world.pgstore.PgStore`) lets a fleet
share one world model; both keep the same write contract and event log.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .kg import KnowledgeGraph
from .store import Store

if TYPE_CHECKING:
    from .pgstore import PgStore

URL_SCHEMES = ('postgresql://', 'postgres://')


def is_url(location: str | Path) -> bool:
    """Tell whether ``location`` names a PostgreSQL store."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def store_exists(location: str | Path) -> bool:
    """Tell whether a store exists at ``location`` (a server that is down raises)."""
    if is_url(location):
        from .pgstore import PgStore  # psycopg only for a PostgreSQL store
        return PgStore.exists(str(location))
    return Path(location).expanduser().exists()


def open_store(location: str | Path, *, writer: str | None = None,
               **kwargs: Any) -> Store | PgStore:
    """Open the store at ``location``; ``writer`` is recorded in every event it writes."""
    if is_url(location):
        from .pgstore import PgStore
        return PgStore(str(location), writer=writer, **kwargs)
    return Store(Path(location).expanduser(), writer=writer, **kwargs)


def create_store(location: str | Path, kg: KnowledgeGraph, **kwargs: Any) -> Store | PgStore:
    """Create a store holding ``kg`` at ``location`` (see the backends' ``create``)."""
    if is_url(location):
        from .pgstore import PgStore
        return PgStore.create(str(location), kg, **kwargs)
    kwargs.pop('writer', None)
    return Store.create(Path(location).expanduser(), kg, **kwargs)
