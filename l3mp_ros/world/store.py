# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Durable KG store: SQLite (WAL), current state + append-only event log.

One transaction per applied update: the state tables and the event row change
together or not at all, so reopening restores exactly the acknowledged state.
Every applied or rejected update is an event with provenance (time, source,
utterance, diff, verifier errors).

Any number of processes may write one store. A writer takes the write lock first
(:meth:`Store.transaction`, SQLite's ``BEGIN IMMEDIATE``; others wait up to
``busy_timeout`` seconds), reads the events other writers committed since its own
view (:meth:`Store.history`), verifies against the state brought up to date, and
commits in the same transaction (see :class:`~l3mp_ros.world.model.WorldModel`). So
event ids are the commit order and replaying the log gives the state.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from .events import NOT_APPLIED, EventStatus
from .kg import Fact, KnowledgeGraph, Update
from .support import COLUMNS as SUPPORT_COLUMNS
from .support import Rows, Support, SupportIndex, event_rows, replay

SCHEMA_VERSION = '1'

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entities (name TEXT PRIMARY KEY, type TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS facts (
    predicate TEXT NOT NULL, args TEXT NOT NULL, PRIMARY KEY (predicate, args)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time REAL NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    utterance TEXT,
    diff TEXT,
    new_entities TEXT,
    errors TEXT,
    info TEXT
);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event_id INTEGER, time REAL NOT NULL, kg TEXT NOT NULL
);
"""
#: the derived support table (world/support.py); added to older stores when opened
SUPPORT_DDL = (
    'CREATE TABLE IF NOT EXISTS support (predicate TEXT NOT NULL, args TEXT NOT NULL, '
    'kind TEXT NOT NULL, event_id BIGINT NOT NULL, time DOUBLE PRECISION NOT NULL, '
    'source TEXT NOT NULL, robot TEXT, speaker TEXT, doubtful INTEGER NOT NULL, '
    'seen_event BIGINT, seen_time DOUBLE PRECISION, seen_robot TEXT, '
    'PRIMARY KEY (predicate, args))')
#: meta key: the newest event the support table reflects
SUPPORT_UPTO = 'support_upto'


class StoreError(RuntimeError):
    """The store file is missing, not a store, or cannot be written."""


@dataclass
class Event:
    """One entry of the event log."""

    id: int
    time: float
    source: str
    status: EventStatus  # init | applied | rejected | clarify (a stored word becomes one)
    utterance: str | None = None
    update: Update | None = None
    new_entities: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.status = EventStatus(self.status)

    def to_json(self) -> dict:
        """Return a JSON-ready dict (the ``event/v1`` payload body)."""
        return {
            'id': self.id, 'time': self.time, 'source': self.source, 'status': self.status,
            'utterance': self.utterance,
            'diff': self.update.to_json() if self.update is not None else None,
            'new_entities': [{'name': n, 'type': t} for n, t in sorted(self.new_entities.items())],
            'errors': self.errors, 'info': self.info,
        }


_SQLITE_HEADER = b'SQLite format 3\x00'


def _check_header(path: Path) -> None:
    """Refuse a file that is not an SQLite database without writing to it."""
    try:
        with open(path, 'rb') as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f'cannot read store {path}: {exc.strerror}') from None
    if head != _SQLITE_HEADER:
        what = 'an empty file' if not head else 'not an SQLite database'
        raise StoreError(f'{path} is not an l3mp store ({what}); nothing was changed')


def args_key(fact: Fact) -> str:
    """Return how a fact's arguments are stored (a JSON array).

    A numeric fact's value follows its arguments as ``"=73.5"`` (never a PDDL name), so
    the (predicate, args) key of both stores, their support table included, tells two
    values apart and stores made before numbers read unchanged.
    """
    if fact.numeric:
        return json.dumps([*fact.args, '=' + fact.value])
    return json.dumps(fact.args)


def stored_fact(predicate: str, args: str) -> Fact:
    """Return the fact of a stored (predicate, args) row: the inverse of :func:`args_key`."""
    items = json.loads(args)
    if items and isinstance(items[-1], str) and items[-1].startswith('='):
        return Fact(predicate, tuple(items[:-1]), items[-1][1:])
    return Fact(predicate, tuple(items))


BUSY_TIMEOUT = 30.0  # seconds a writer waits for another writer's transaction


class StoreBase:
    """What both store backends share: writer provenance, nested writes, ``with`` use."""

    writer: str | None = None

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """Hold the store's write lock (each backend implements it)."""
        raise NotImplementedError

    def _in_transaction(self) -> bool:
        raise NotImplementedError

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Use the caller's transaction if one is open, else open one."""
        if self._in_transaction():
            yield
        else:
            with self.transaction():
                yield

    @staticmethod
    def _history_query(since_id: int, limit: int | None, status: str | None,
                       mark: str) -> tuple[str, list]:
        """Return the events query (``mark``: the driver's parameter placeholder)."""
        sql = (f'SELECT id, time, source, status, utterance, diff, new_entities, errors, info '
               f'FROM events WHERE id > {mark}')
        params: list = [since_id]
        if status:
            sql += f' AND status = {mark}'
            params.append(status)
        sql += ' ORDER BY id'
        if limit is not None:
            sql += f' LIMIT {mark}'
            params.append(limit)
        return sql, params

    def reject(self, update: Update | None, errors: list[str], *, source: str,
               utterance: str | None = None, info: dict | None = None,
               status: EventStatus = EventStatus.REJECTED) -> int:
        """Log a rejected update (the state is not touched); return the event id.

        ``status``: ``rejected``, or ``clarify`` (waiting for the speaker's answer).
        """
        if status not in NOT_APPLIED:
            raise ValueError(f'status {str(status)!r} is not one of {", ".join(NOT_APPLIED)}')
        diff = json.dumps(update.to_json()) if update is not None else None
        return self._log_rejection(status, source, utterance, diff, json.dumps(errors), info)

    def _log_rejection(self, status: str, source: str, utterance: str | None,
                       diff: str | None, errors: str, info: dict | None) -> int:
        """Insert one not-applied event (each backend implements it)."""
        raise NotImplementedError

    def _info(self, info: dict | None) -> str:
        """Return an event's ``info`` as JSON, with the writer when one is set."""
        body = dict(info or {})
        if self.writer:
            body.setdefault('writer', self.writer)
        return json.dumps(body)

    def close(self) -> None:
        """Close the connection."""
        raise NotImplementedError

    # -- the derived support table (world/support.py) ---------------------------------
    _mark = '?'  # the driver's parameter placeholder

    def _exec(self, sql: str, params: tuple | list = ()) -> None:
        raise NotImplementedError

    def _many(self, sql: str, seq: list[tuple]) -> None:
        raise NotImplementedError

    def _fetch(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql if self._mark == '?' else sql.replace('?', self._mark)

    def _support_upto(self) -> str | None:
        rows = self._fetch(self._q('SELECT value FROM meta WHERE key = ?'), (SUPPORT_UPTO,))
        return rows[0][0] if rows else None

    def _set_support_upto(self, eid: int) -> None:
        self._exec(self._q('INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE '
                           'SET value = EXCLUDED.value'), (SUPPORT_UPTO, str(eid)))

    def _put_support(self, put: Mapping[Fact, Support]) -> None:
        cols = ', '.join(SUPPORT_COLUMNS)
        sets = ', '.join(f'{c} = EXCLUDED.{c}' for c in SUPPORT_COLUMNS)
        marks = ', '.join('?' * (len(SUPPORT_COLUMNS) + 2))
        self._many(self._q(f'INSERT INTO support (predicate, args, {cols}) VALUES ({marks}) '
                           f'ON CONFLICT (predicate, args) DO UPDATE SET {sets}'),
                   [(f.predicate, args_key(f), *s.row()) for f, s in put.items()])

    def _support_sync(self) -> None:
        """Rebuild the support table from the event log when it is behind (write lock held).

        A store made before the table existed, or written by an older build, is caught up
        here: the table is derived data, the event log is the truth.
        """
        self._exec(SUPPORT_DDL)
        last = self.last_event_id()
        if self._support_upto() == str(last):
            return
        index = replay(self.load_kg().facts, self.history())
        self._exec('DELETE FROM support')
        self._put_support(index.rows)
        self._set_support_upto(last)

    def _support_event(self, eid: int, prev: int, t: float, source: str,
                       update: Update | None, info: dict | None) -> None:
        """Keep the support table current with event ``eid`` (inside its transaction)."""
        if self._support_upto() != str(prev):
            self._support_sync()
            return
        if update is not None:
            rows: Rows = event_rows(eid, t, source, update, info)
            self._many(self._q('DELETE FROM support WHERE predicate = ? AND args = ?'),
                       [(f.predicate, args_key(f)) for f in rows.delete])
            self._many(self._q('UPDATE support SET doubtful = 0, seen_event = ?, '
                               'seen_time = ?, seen_robot = ? WHERE predicate = ? AND args = ?'),
                       [(*rows.seen, f.predicate, args_key(f)) for f in rows.confirm])
            self._put_support(rows.put)
        self._set_support_upto(eid)

    def _read_support(self) -> SupportIndex:
        """Return the support of every fact (the table, or a replay when it is behind)."""
        try:
            upto = self._support_upto()
            if upto is not None and upto == str(self.last_event_id()):
                cols = ', '.join(SUPPORT_COLUMNS)
                return SupportIndex({
                    stored_fact(p, a): Support.from_row(rest)
                    for p, a, *rest in self._fetch(f'SELECT predicate, args, {cols} '
                                                   'FROM support')})
        except Exception:  # noqa: BLE001 - no table (a read-only old store): replay
            pass
        return replay(self.load_kg().facts, self.history())

    def load_support(self) -> SupportIndex:
        """Return the support of every current fact, without replaying a current table."""
        return self._read_support()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Store(StoreBase):
    """A KG store file; one connection, used by one thread at a time."""

    def __init__(self, path: str | Path, *, synchronous: str = 'FULL',
                 busy_timeout: float = BUSY_TIMEOUT, writer: str | None = None) -> None:
        self.path = Path(path)
        self.writer = writer  # recorded in every event's info (a fleet's robot namespace)
        if not self.path.exists():
            raise StoreError(f'no store at {self.path} (create one with "l3mp kg init")')
        _check_header(self.path)  # before SQLite would turn an empty file into a database
        self.read_only = False
        self._conn: sqlite3.Connection | None = None
        try:
            self._conn = self._connect(self.path, synchronous, busy_timeout)
            version = self.meta.get('schema_version')
        except sqlite3.OperationalError as exc:
            # a read-only directory or a full disk: SQLite cannot set up its WAL files;
            # a cleanly closed store (no WAL content) can still be read as it is
            if getattr(self, '_conn', None) is not None:
                self._conn.close()
            wal = Path(str(self.path) + '-wal')
            if 'locked' in str(exc) or (wal.exists() and wal.stat().st_size > 0):
                # busy with another writer, or holding commits only the WAL has
                raise StoreError(f'cannot open store {self.path}: {exc}') from None
            self._conn = self._connect_read_only(self.path)
            self.read_only = True
            try:
                version = self.meta.get('schema_version')
            except sqlite3.DatabaseError as exc2:
                raise StoreError(f'cannot open store {self.path}: {exc2}') from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f'{self.path} is not an l3mp store: {exc}') from None
        if version != SCHEMA_VERSION:
            raise StoreError(f'{self.path} is not an l3mp store (schema version {version!r})')
        self._inode = self._current_inode()
        if not self.read_only:
            self._open_support()

    def _open_support(self) -> None:
        """Add the support table to an older store, or catch it up with the log."""
        try:
            last = self.last_event_id()
            if self._support_upto() == str(last):
                return
            with self.transaction():
                self._support_sync()
        except (sqlite3.Error, StoreError):
            pass  # busy or unwritable: readers replay (load_support); the next write syncs

    def _current_inode(self) -> int | None:
        try:
            return os.stat(self.path).st_ino
        except OSError:
            return None

    @staticmethod
    def _connect(path: Path, synchronous: str,
                 busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                               timeout=busy_timeout)
        conn.execute('PRAGMA journal_mode=WAL')
        conn.execute(f'PRAGMA synchronous={synchronous}')
        conn.execute('PRAGMA foreign_keys=ON')
        return conn

    @staticmethod
    def _connect_read_only(path: Path) -> sqlite3.Connection:
        uri = f'{path.resolve().as_uri()}?mode=ro&immutable=1'
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    @classmethod
    def create(cls, path: str | Path, kg: KnowledgeGraph, *, domain_path: str | None = None,
               constraints_path: str | None = None, source: str = 'init',
               overwrite: bool = False, synchronous: str = 'FULL',
               meta: dict[str, str] | None = None) -> Store:
        """Create a store holding ``kg``; refuse to overwrite unless asked.

        The store is written beside ``path`` and renamed into place once complete, so a
        failure (a full disk) leaves no half-made store and an overwritten one intact.
        """
        path = Path(path)
        if path.exists() and not overwrite:
            raise StoreError(f'{path} exists (pass --force to overwrite)')
        tmp = path.with_name(f'.{path.name}.{os.getpid()}.tmp')
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            cls._write_new(tmp, kg, domain_path, constraints_path, source, synchronous,
                           meta or {})
            for suffix in ('-wal', '-shm'):
                Path(str(path) + suffix).unlink(missing_ok=True)
            os.replace(tmp, path)
        except (OSError, sqlite3.Error) as exc:
            for suffix in ('', '-wal', '-shm', '-journal'):
                Path(str(tmp) + suffix).unlink(missing_ok=True)
            raise StoreError(f'cannot create store {path}: {exc}') from None
        return cls(path, synchronous=synchronous)

    @classmethod
    def _write_new(cls, path: Path, kg: KnowledgeGraph, domain_path: str | None,
                   constraints_path: str | None, source: str, synchronous: str,
                   extra: dict[str, str]) -> None:
        path.unlink(missing_ok=True)
        conn = cls._connect(path, synchronous)
        for stmt in _DDL.split(';'):
            if stmt.strip():
                conn.execute(stmt)
        conn.execute('BEGIN IMMEDIATE')
        meta = {'schema_version': SCHEMA_VERSION, 'domain': kg.domain,
                'domain_path': str(Path(domain_path).resolve()) if domain_path else '',
                'constraints_path': (str(Path(constraints_path).resolve())
                                     if constraints_path else ''),
                'created': repr(time.time()), **extra}  # extra: the phrasebook (kg init)
        conn.executemany('INSERT OR REPLACE INTO meta VALUES (?, ?)', meta.items())
        conn.executemany('INSERT INTO entities VALUES (?, ?)', sorted(kg.entities.items()))
        conn.executemany('INSERT INTO facts VALUES (?, ?)',
                         [(f.predicate, args_key(f)) for f in sorted(kg.facts)])
        now = time.time()
        cur = conn.execute('INSERT INTO events (time, source, status, info) VALUES (?, ?, ?, ?)',
                           (now, source, EventStatus.INIT, json.dumps(
                               {'entities': len(kg.entities), 'facts': len(kg.facts)})))
        conn.execute(SUPPORT_DDL)
        given = SupportIndex()
        given.give(kg.facts, int(cur.lastrowid), now, source)
        cols = ', '.join(SUPPORT_COLUMNS)
        conn.executemany(f'INSERT INTO support (predicate, args, {cols}) VALUES '
                         f'({", ".join("?" * (len(SUPPORT_COLUMNS) + 2))})',
                         [(f.predicate, args_key(f), *v.row()) for f, v in given.rows.items()])
        conn.execute('INSERT INTO meta VALUES (?, ?)', (SUPPORT_UPTO, str(cur.lastrowid)))
        conn.execute('COMMIT')
        conn.execute('PRAGMA journal_mode=DELETE')  # fold the WAL in: one file to rename
        conn.close()

    # -- reading -------------------------------------------------------------
    @property
    def meta(self) -> dict[str, str]:
        """Return the store's metadata (domain name and paths, version)."""
        return dict(self._conn.execute('SELECT key, value FROM meta').fetchall())

    def load_kg(self) -> KnowledgeGraph:
        """Return the current (acknowledged) state."""
        kg = KnowledgeGraph(self.meta.get('domain', ''))
        for name, type_ in self._conn.execute('SELECT name, type FROM entities'):
            kg.add_entity(name, type_)
        for pred, args in self._conn.execute('SELECT predicate, args FROM facts'):
            kg.add_fact(stored_fact(pred, args))
        return kg

    def load_state(self) -> tuple[KnowledgeGraph, int]:
        """Return the current state and the id of the newest event it includes.

        Both are read in one read transaction, so no other writer's commit falls
        between them.
        """
        conn = self._conn
        if conn.in_transaction:
            return self.load_kg(), self.last_event_id()
        conn.execute('BEGIN')
        try:
            return self.load_kg(), self.last_event_id()
        finally:
            conn.execute('COMMIT')

    def load_world(self) -> tuple[KnowledgeGraph, int, SupportIndex]:
        """Return the state, its newest event and every fact's support (one read)."""
        conn = self._conn
        if conn.in_transaction:
            return self.load_kg(), self.last_event_id(), self._read_support()
        conn.execute('BEGIN')
        try:
            return self.load_kg(), self.last_event_id(), self._read_support()
        finally:
            conn.execute('COMMIT')

    def history(self, since_id: int = 0, limit: int | None = None,
                status: str | None = None) -> list[Event]:
        """Return events with id > ``since_id`` in order (optionally only one status)."""
        sql, params = self._history_query(since_id, limit, status, '?')
        return [self._event(row) for row in self._conn.execute(sql, params)]

    def _exec(self, sql: str, params: tuple | list = ()) -> None:
        self._conn.execute(sql, params)

    def _many(self, sql: str, seq: list[tuple]) -> None:
        if seq:
            self._conn.executemany(sql, seq)

    def _fetch(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        return self._conn.execute(sql, params).fetchall()

    def last_event_id(self) -> int:
        """Return the id of the newest event (0 if none)."""
        row = self._conn.execute('SELECT MAX(id) FROM events').fetchone()
        return int(row[0] or 0)

    @staticmethod
    def _event(row: tuple) -> Event:
        eid, t, source, status, utt, diff, new_ents, errors, info = row
        return Event(
            id=eid, time=t, source=source, status=status, utterance=utt,
            update=Update.from_json(json.loads(diff)) if diff else None,
            new_entities={e['name']: e['type'] for e in json.loads(new_ents or '[]')},
            errors=json.loads(errors or '[]'), info=json.loads(info or '{}'))

    # -- writing -------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the store's write lock: commit on leaving, roll back on an exception.

        :meth:`commit` and :meth:`reject` called inside write in this transaction.
        Waits up to ``busy_timeout`` seconds for another writer; then a StoreError.
        """
        conn = self._conn
        if self.read_only:
            raise StoreError(f'{self.path} can only be read here (its directory or disk '
                             'cannot be written): nothing was changed')
        if self._current_inode() != self._inode:
            raise StoreError(f'{self.path} was replaced or removed since it was opened '
                             '("kg init --force"?): reopen it; nothing was changed')
        if conn.in_transaction:
            raise StoreError(f'{self.path}: a write transaction is already open')
        try:
            conn.execute('BEGIN IMMEDIATE')
        except sqlite3.Error as exc:
            raise StoreError(f'cannot lock {self.path} for writing: {exc}') from None
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute('ROLLBACK')
            raise
        try:
            conn.execute('COMMIT')
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute('ROLLBACK')
            raise StoreError(f'cannot commit to {self.path}: {exc}') from None

    def _in_transaction(self) -> bool:
        return self._conn.in_transaction

    def commit(self, update: Update, *, source: str, utterance: str | None = None,
               new_entities: Mapping[str, str] | None = None, info: dict | None = None) -> int:
        """Apply a (verified) update durably in one transaction; return the event id."""
        ents = sorted((new_entities or {}).items())
        conn = self._conn
        try:
            with self._writing():
                conn.executemany('INSERT OR REPLACE INTO entities VALUES (?, ?)', ents)
                conn.executemany('DELETE FROM facts WHERE predicate = ? AND args = ?',
                                 [(f.predicate, args_key(f)) for f in update.remove])
                conn.executemany('INSERT OR IGNORE INTO facts VALUES (?, ?)',
                                 [(f.predicate, args_key(f)) for f in update.add])
                prev, now, body = self.last_event_id(), time.time(), self._info(info)
                cur = conn.execute(
                    'INSERT INTO events (time, source, status, utterance, diff, new_entities, '
                    'info) VALUES (?, ?, ?, ?, ?, ?, ?)',
                    (now, source, EventStatus.APPLIED, utterance, json.dumps(update.to_json()),
                     json.dumps([{'name': n, 'type': t} for n, t in ents]), body))
                self._support_event(int(cur.lastrowid), prev, now, source, update,
                                    json.loads(body))
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute('ROLLBACK')
            raise StoreError(f'cannot commit update to {self.path}: {exc}') from None
        return int(cur.lastrowid)

    def _log_rejection(self, status: str, source: str, utterance: str | None,
                       diff: str | None, errors: str, info: dict | None) -> int:
        conn = self._conn
        try:
            with self._writing():
                prev = self.last_event_id()
                cur = conn.execute(
                    'INSERT INTO events (time, source, status, utterance, diff, errors, info) '
                    'VALUES (?, ?, ?, ?, ?, ?, ?)',
                    (time.time(), source, status, utterance, diff, errors, self._info(info)))
                self._support_event(int(cur.lastrowid), prev, 0.0, source, None, None)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute('ROLLBACK')
            raise StoreError(f'cannot log rejection to {self.path}: {exc}') from None
        return int(cur.lastrowid)

    def save_snapshot(self, kg: KnowledgeGraph) -> int:
        """Store a full snapshot of ``kg`` tagged with the newest event id."""
        try:
            with self._writing():
                cur = self._conn.execute(
                    'INSERT INTO snapshots (event_id, time, kg) VALUES (?, ?, ?)',
                    (self.last_event_id(), time.time(), json.dumps(kg.to_json())))
        except sqlite3.Error as exc:
            raise StoreError(f'cannot save a snapshot to {self.path}: {exc}') from None
        return int(cur.lastrowid)

    def close(self) -> None:
        """Close the connection (a checkpoint folds the WAL into the file)."""
        try:
            self._conn.close()
        except sqlite3.Error:
            pass
