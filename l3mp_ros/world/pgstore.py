# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Durable KG store on PostgreSQL (psycopg 3): one world model shared by a fleet.

Same interface and write contract as the SQLite :class:`~l3mp_ros.world.store.Store`
(state tables + append-only event log; see docs/decisions.md "Write safety"):

* **One writer at a time, gapless ids.** :meth:`PgStore.transaction` opens a transaction
  and takes a transaction-scoped advisory lock (``pg_advisory_xact_lock``; waits up to
  ``busy_timeout`` s). Inside it the world model reads the events committed since its
  view, verifies against the state brought up to date and commits. An event's id is
  ``max(id) + 1`` assigned under the lock, so ids are the commit order with no gap, and
  a reader never sees event ``n + 1`` before ``n``.
* **Pushed events.** Each commit sends ``NOTIFY l3mp_events, '<id>'`` (delivered at
  commit). :meth:`PgStore.listen` returns an :class:`EventListener`; a follower wakes on a
  notification and catches up from the log (``history(since)``), so a missed or coalesced
  notification, or a reconnect, never leaves a gap.
* **Writer identity.** ``writer`` (a robot's namespace, or host:pid for the CLI) is
  recorded in every event's ``info``.
* **Re-initialisation is detected.** ``kg init --force`` gives the store a new
  ``store_id``; a writer that opened the old one is refused.

Credentials never appear in messages (:func:`redact`).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from .events import EventStatus
from .kg import KnowledgeGraph, Update
from .store import (
    BUSY_TIMEOUT,
    SCHEMA_VERSION,
    SUPPORT_DDL,
    SUPPORT_UPTO,
    Event,
    Store,
    StoreBase,
    StoreError,
    args_key,
    stored_fact,
)
from .support import SupportIndex

CHANNEL = 'l3mp_events'
LOCK_KEY = 0x6C336D70  # 'l3mp': the advisory lock every writer of a database takes
CONNECT_TIMEOUT = 10  # seconds to reach the server
_DDL = (
    'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    'CREATE TABLE entities (name TEXT PRIMARY KEY, type TEXT NOT NULL)',
    'CREATE TABLE facts (predicate TEXT NOT NULL, args TEXT NOT NULL, '
    'PRIMARY KEY (predicate, args))',
    'CREATE TABLE events (id BIGINT PRIMARY KEY, time DOUBLE PRECISION NOT NULL, '
    'source TEXT NOT NULL, status TEXT NOT NULL, utterance TEXT, diff TEXT, '
    'new_entities TEXT, errors TEXT, info TEXT)',
    'CREATE TABLE snapshots (id BIGSERIAL PRIMARY KEY, event_id BIGINT, '
    'time DOUBLE PRECISION NOT NULL, kg TEXT NOT NULL)',
)
_TABLES = ('meta', 'entities', 'facts', 'events', 'snapshots', 'support')


def redact(url: str) -> str:
    """Return ``url`` without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ''
    if parts.port:
        host = f'{host}:{parts.port}'
    user = f'{parts.username}:***@' if parts.username else ''
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


def _connect(url: str, **kwargs: Any) -> psycopg.Connection:
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, **kwargs)
    except psycopg.Error as exc:
        msg = ' '.join(str(exc).split())
        raise StoreError(f'cannot connect to the store {redact(url)}: {msg}') from None


class PgStore(StoreBase):
    """A KG store in a PostgreSQL database; one connection, one thread at a time."""

    def __init__(self, url: str, *, writer: str | None = None,
                 busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.url = url
        self.path = redact(url)  # what messages name
        self.writer = writer
        self.read_only = False
        self.busy_timeout = busy_timeout
        self._tx = False
        self.reconnects = 0
        self._event_time = 0.0  # the time of the event being written
        self._conn = _connect(url)
        try:
            meta = dict(self._conn.execute('SELECT key, value FROM meta').fetchall())
        except psycopg.errors.UndefinedTable:
            self._conn.close()
            raise StoreError(f'no store at {self.path} (create one with "l3mp kg init")'
                             ) from None
        except psycopg.Error as exc:
            self._conn.close()
            raise StoreError(f'{self.path} is not an l3mp store: {exc}') from None
        if meta.get('schema_version') != SCHEMA_VERSION:
            self._conn.close()
            raise StoreError(f'{self.path} is not an l3mp store (schema version '
                             f'{meta.get("schema_version")!r})')
        self._store_id = meta.get('store_id')
        if meta.get(SUPPORT_UPTO) != str(self.last_event_id()):
            try:
                with self.transaction():
                    self._support_sync()  # an older store: derive the table from the log
            except StoreError:
                pass  # readers replay (load_support); the next write syncs

    # -- creating ----------------------------------------------------------------
    @classmethod
    def exists(cls, url: str) -> bool:
        """Tell whether the database holds an l3mp store (connection errors raise)."""
        with _connect(url) as conn:
            row = conn.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()
            return bool(row and row[0])

    @classmethod
    def create(cls, url: str, kg: KnowledgeGraph, *, domain_path: str | None = None,
               constraints_path: str | None = None, source: str = 'init',
               overwrite: bool = False, writer: str | None = None,
               meta: dict[str, str] | None = None, **_: Any) -> PgStore:
        """Create the store's tables holding ``kg`` in one transaction (all or nothing)."""
        from pathlib import Path

        conn = _connect(url)
        try:
            with conn.transaction():
                conn.execute('SELECT pg_advisory_xact_lock(%s)', (LOCK_KEY,))
                present = conn.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()[0]
                if present and not overwrite:
                    raise StoreError(f'{redact(url)} holds a store already (pass --force to '
                                     'overwrite)')
                for table in _TABLES:
                    conn.execute(f'DROP TABLE IF EXISTS {table}')
                for stmt in _DDL:
                    conn.execute(stmt)
                extra = meta or {}  # the phrasebook (kg init)
                meta = {**extra, 'schema_version': SCHEMA_VERSION, 'domain': kg.domain,
                        'domain_path': str(Path(domain_path).resolve()) if domain_path else '',
                        'constraints_path': (str(Path(constraints_path).resolve())
                                             if constraints_path else ''),
                        'created': repr(time.time()), 'store_id': uuid.uuid4().hex}
                with conn.cursor() as cur:
                    cur.executemany('INSERT INTO meta VALUES (%s, %s)', list(meta.items()))
                    cur.executemany('INSERT INTO entities VALUES (%s, %s)',
                                    sorted(kg.entities.items()))
                    cur.executemany('INSERT INTO facts VALUES (%s, %s)',
                                    [(f.predicate, args_key(f)) for f in sorted(kg.facts)])
                info = {'entities': len(kg.entities), 'facts': len(kg.facts)}
                if writer:
                    info['writer'] = writer
                now = time.time()
                conn.execute('INSERT INTO events (id, time, source, status, info) '
                             'VALUES (1, %s, %s, %s, %s)',
                             (now, source, EventStatus.INIT, json.dumps(info)))
                conn.execute(SUPPORT_DDL)
                given = SupportIndex()
                given.give(kg.facts, 1, now, source)
                with conn.cursor() as cur:
                    cur.executemany('INSERT INTO support VALUES (%s, %s, %s, %s, %s, %s, %s, '
                                    '%s, %s, %s, %s, %s)',
                                    [(f.predicate, args_key(f), *v.row())
                                     for f, v in given.rows.items()])
                conn.execute('INSERT INTO meta VALUES (%s, %s)', (SUPPORT_UPTO, '1'))
                conn.execute('SELECT pg_notify(%s, %s)', (CHANNEL, '1'))
        except psycopg.Error as exc:
            raise StoreError(f'cannot create store {redact(url)}: {exc}') from None
        finally:
            conn.close()
        return cls(url, writer=writer)

    # -- connection --------------------------------------------------------------
    def _reconnect_if_lost(self) -> None:
        """Open a new connection when the server dropped ours (outside a transaction)."""
        if not self._tx and (self._conn.closed or self._conn.broken):
            self._conn.close()
            self._conn = _connect(self.url)
            self.reconnects += 1

    # -- reading -----------------------------------------------------------------
    def _query(self, sql: str, params: Any = None) -> list[tuple]:
        for attempt in (1, 2):
            self._reconnect_if_lost()
            try:
                return self._conn.execute(sql, params).fetchall()
            except psycopg.errors.UndefinedTable:
                raise StoreError(f'{self.path} was removed since it was opened: reopen it'
                                 ) from None
            except psycopg.OperationalError as exc:
                if attempt == 2 or self._tx:
                    raise StoreError(f'lost the store {self.path}: '
                                     f'{" ".join(str(exc).split())}') from None
        raise AssertionError('unreachable')

    @property
    def meta(self) -> dict[str, str]:
        """Return the store's metadata (domain name and paths, version)."""
        return dict(self._query('SELECT key, value FROM meta'))

    def load_kg(self) -> KnowledgeGraph:
        """Return the current (acknowledged) state."""
        kg = KnowledgeGraph(self.meta.get('domain', ''))
        for name, type_ in self._query('SELECT name, type FROM entities'):
            kg.add_entity(name, type_)
        for pred, args in self._query('SELECT predicate, args FROM facts'):
            kg.add_fact(stored_fact(pred, args))
        return kg

    def load_state(self) -> tuple[KnowledgeGraph, int]:
        """Return the current state and the newest event it includes (one snapshot)."""
        if self._tx:
            return self.load_kg(), self.last_event_id()
        with self._conn.transaction():
            self._conn.execute('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
            return self.load_kg(), self.last_event_id()

    def load_world(self) -> tuple[KnowledgeGraph, int, SupportIndex]:
        """Return the state, its newest event and every fact's support (one snapshot)."""
        if self._tx:
            return self.load_kg(), self.last_event_id(), self._read_support()
        with self._conn.transaction():
            self._conn.execute('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
            return self.load_kg(), self.last_event_id(), self._read_support()

    def history(self, since_id: int = 0, limit: int | None = None,
                status: str | None = None) -> list[Event]:
        """Return events with id > ``since_id`` in order (optionally only one status)."""
        sql, params = self._history_query(since_id, limit, status, '%s')
        return [Store._event(row) for row in self._query(sql, params)]

    _mark = '%s'

    def _exec(self, sql: str, params: tuple | list = ()) -> None:
        self._conn.execute(sql, params or None)

    def _many(self, sql: str, seq: list[tuple]) -> None:
        if seq:
            with self._conn.cursor() as cur:
                cur.executemany(sql, seq)

    def _fetch(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        return self._query(sql, params or None)

    def last_event_id(self) -> int:
        """Return the id of the newest event (0 if none)."""
        return int(self._query('SELECT COALESCE(MAX(id), 0) FROM events')[0][0])

    # -- writing -----------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the store's write lock: commit on leaving, roll back on an exception."""
        if self._tx:
            raise StoreError(f'{self.path}: a write transaction is already open')
        self._reconnect_if_lost()
        conn = self._conn
        try:
            tx = conn.transaction()
            tx.__enter__()
        except psycopg.Error as exc:
            raise StoreError(f'cannot write to {self.path}: {exc}') from None
        self._tx = True
        try:
            try:
                conn.execute(f"SET LOCAL lock_timeout = '{int(self.busy_timeout * 1000)}ms'")
                conn.execute('SELECT pg_advisory_xact_lock(%s)', (LOCK_KEY,))
                row = conn.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
            except psycopg.errors.LockNotAvailable:
                raise StoreError(f'cannot lock {self.path} for writing: another writer held '
                                 f'it for {self.busy_timeout:g} s') from None
            except psycopg.errors.UndefinedTable:
                raise StoreError(f'{self.path} was removed since it was opened: reopen it; '
                                 'nothing was changed') from None
            if row is None or row[0] != self._store_id:
                raise StoreError(f'{self.path} was re-initialised by another process since it '
                                 'was opened ("kg init --force"?): reopen it; nothing was '
                                 'changed')
            yield
        except BaseException as exc:
            self._tx = False
            try:
                tx.__exit__(type(exc), exc, exc.__traceback__)
            except psycopg.Error:
                pass
            if isinstance(exc, psycopg.Error):
                raise StoreError(f'cannot write to {self.path}: {exc}') from None
            raise
        self._tx = False
        try:
            tx.__exit__(None, None, None)
        except psycopg.Error as exc:
            raise StoreError(f'cannot commit to {self.path}: {exc}') from None

    def _in_transaction(self) -> bool:
        return self._tx

    def _event(self, status: str, source: str, utterance: str | None, diff: str | None,
               new_entities: str | None, errors: str | None, info: dict | None) -> int:
        self._event_time = time.time()
        row = self._conn.execute(
            'INSERT INTO events (id, time, source, status, utterance, diff, new_entities, '
            'errors, info) SELECT COALESCE(MAX(id), 0) + 1, %s, %s, %s, %s, %s, %s, %s, %s '
            'FROM events RETURNING id',
            (self._event_time, source, status, utterance, diff, new_entities, errors,
             self._info(info))).fetchone()
        eid = int(row[0])
        self._conn.execute('SELECT pg_notify(%s, %s)', (CHANNEL, str(eid)))
        return eid

    def commit(self, update: Update, *, source: str, utterance: str | None = None,
               new_entities: Mapping[str, str] | None = None, info: dict | None = None) -> int:
        """Apply a (verified) update durably in one transaction; return the event id."""
        ents = sorted((new_entities or {}).items())
        with self._writing():
            with self._conn.cursor() as cur:
                cur.executemany('INSERT INTO entities VALUES (%s, %s) ON CONFLICT (name) '
                                'DO UPDATE SET type = EXCLUDED.type', ents)
                cur.executemany('DELETE FROM facts WHERE predicate = %s AND args = %s',
                                [(f.predicate, args_key(f)) for f in update.remove])
                cur.executemany('INSERT INTO facts VALUES (%s, %s) ON CONFLICT DO NOTHING',
                                [(f.predicate, args_key(f)) for f in update.add])
            eid = self._event(EventStatus.APPLIED, source, utterance,
                              json.dumps(update.to_json()),
                              json.dumps([{'name': n, 'type': t} for n, t in ents]), None,
                              info)
            self._support_event(eid, eid - 1, self._event_time, source, update,
                                json.loads(self._info(info)))
            return eid

    def _log_rejection(self, status: str, source: str, utterance: str | None,
                       diff: str | None, errors: str, info: dict | None) -> int:
        with self._writing():
            eid = self._event(status, source, utterance, diff, None, errors, info)
            self._support_event(eid, eid - 1, 0.0, source, None, None)
            return eid

    def save_snapshot(self, kg: KnowledgeGraph) -> int:
        """Store a full snapshot of ``kg`` tagged with the newest event id."""
        with self._writing():
            row = self._conn.execute(
                'INSERT INTO snapshots (event_id, time, kg) VALUES (%s, %s, %s) RETURNING id',
                (self.last_event_id(), time.time(), json.dumps(kg.to_json()))).fetchone()
        return int(row[0])

    # -- following ---------------------------------------------------------------
    def listen(self) -> EventListener:
        """Return a listener woken by every commit to this store (its own connection)."""
        return EventListener(self.url)

    def close(self) -> None:
        """Close the connection."""
        try:
            self._conn.close()
        except psycopg.Error:
            pass


class EventListener:
    """Wait for commits to a PostgreSQL store (``LISTEN``), reconnecting when cut off.

    :meth:`wait` returns True when something may have been committed: a notification
    came, or the connection was lost and re-made (notifications sent meanwhile are lost,
    so the caller must catch up from the log, which :meth:`WorldModel.refresh` does).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection | None = None
        self.reconnects = 0
        self._closed = False
        self._connect()

    def _connect(self) -> None:
        self._conn = _connect(self.url)
        self._conn.execute(f'LISTEN {CHANNEL}')

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` s; True when the caller should catch up."""
        try:
            if self._conn is None or self._conn.closed:
                raise psycopg.OperationalError('not connected')
            got = list(self._conn.notifies(timeout=timeout, stop_after=1))
            return bool(got)
        except psycopg.Error:
            if self._closed:
                return False
            self._drop()
            time.sleep(min(timeout, 1.0))
            try:
                self._connect()
            except StoreError:
                return False
            self.reconnects += 1
            return True

    def close(self) -> None:
        """Close the listening connection for good."""
        self._closed = True
        self._drop()

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
            self._conn = None
