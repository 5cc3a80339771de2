# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The world model: KG + domain + verifier + durable store.

Every change goes through :meth:`WorldModel.apply`: take the store's write lock,
catch up with what other writers (another node, ``l3mp kg apply``) committed since
this model last looked, verify against that current state, commit, release, then
change the in-memory KG. So any number of writers on one store keep every
constraint, and the event log replays to the state. A rejected update is logged
and changes nothing.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from .. import schemas
from .constraints import Constraints
from .domain import DomainSchema
from .events import EventStatus, verdict
from .kg import Fact, KnowledgeGraph, Update
from .store import Event, Store, StoreError
from .support import RECENT_SEEN, REFRESH_SEEN, SAID, Support, SupportIndex, classify
from .verify import Verifier


@dataclass
class ApplyResult:
    """Outcome of one update."""

    applied: bool
    update: Update
    errors: list[str] = field(default_factory=list)
    event_id: int | None = None
    new_entities: dict[str, str] = field(default_factory=dict)
    #: committed by another writer of the store; this model caught up with it
    external: bool = False

    def to_json(self) -> dict:
        """Return a JSON-ready dict."""
        return {'applied': self.applied, 'diff': self.update.to_json(), 'errors': self.errors,
                'event_id': self.event_id,
                'new_entities': [{'name': n, 'type': t}
                                 for n, t in sorted(self.new_entities.items())]}


def follow(kg: KnowledgeGraph, update: Update | None,
           new_entities: Mapping[str, str]) -> None:
    """Apply a committed update as set operations (replaying an overlap converges)."""
    for name, t in new_entities.items():
        kg.add_entity(name, t)
    if update is None:
        return
    for f in update.remove:
        kg.remove_fact(f)
    for f in update.add:
        if all(kg.has_entity(a) for a in f.args):
            kg.add_fact(f)


MEMORY_EVENTS = 2000  # events an in-memory world model keeps


class WorldModel:
    """Owns the KG and (optionally) its store; serialises all writes with a lock."""

    def __init__(self, domain: DomainSchema, constraints: Constraints | None = None,
                 kg: KnowledgeGraph | None = None, store: Store | None = None) -> None:
        self.domain = domain
        self.constraints = constraints or Constraints.empty()
        self.verifier = Verifier(domain, self.constraints)
        self.store = store
        self._seen = 0  # newest store event reflected in self.kg
        #: what every fact rests on (seen, told, given, done; world/support.py)
        self.support = SupportIndex()
        #: a report removing a fact seen less than this many seconds ago is doubtful
        self.recent_seen = RECENT_SEEN
        #: a sighting of a fact seen less than this many seconds ago writes no confirmation
        self.refresh_seen = REFRESH_SEEN
        if kg is None and store is not None:
            kg, self._seen, self.support = store.load_world()
        elif store is not None:
            self._seen = store.last_event_id()
            self.support = store.load_support()
        self.kg = kg if kg is not None else KnowledgeGraph(domain.name)
        if store is None:
            self.support.give(self.kg.facts, 0, time.time())
        self._lock = threading.RLock()
        self._closed = False  # set by close(): the store's connection is gone
        self.listeners: list[Callable[[Event | None, ApplyResult], None]] = []
        # without a store, the newest events live here (pending questions need them)
        self._log: collections.deque[Event] = collections.deque(maxlen=MEMORY_EVENTS)
        # which event (id, source) added each fact this model saw being added; facts
        # loaded at start-up have no known origin
        self._origin: dict[Fact, tuple[int, str]] = {}

    def apply(self, update: Update, *, source: str, utterance: str | None = None,
              new_entities: Mapping[str, str] | None = None, verify: bool = True,
              info: dict | None = None) -> ApplyResult:
        """Verify and apply atomically; on errors log the rejection and change nothing.

        A numeric fact whose function term already has another value replaces it (the
        old value joins the update's removals).
        """
        with self._lock:
            caught: list[Event] = []
            with self._writing(caught):
                new_entities = {k.lower(): v.lower() for k, v in (new_entities or {}).items()
                                if self.kg.type_of(k.lower()) != v.lower()}
                # the domain's constants are entities of every state (older stores lack them)
                new_entities.update({a: self.domain.constants[a] for f in update.add
                                     for a in f.args if a in self.domain.constants
                                     and self.kg.type_of(a) is None})
                # a new value of a function replaces the one held: the event records both
                replaced = self.kg.replaced_values(update)
                if replaced:
                    update = Update(update.remove | replaced, update.add)
                info = self._doubt(update, source, info)
                errors = self.verifier.check(self.kg, update, new_entities) if verify else []
                if not errors and not verify:
                    # even unverified updates must be applicable (existence, known entities)
                    known = {**self.kg.entities, **new_entities}
                    errors = [f'cannot REMOVE {f.text()}: it is not in the KG'
                              for f in sorted(update.remove) if f not in self.kg]
                    errors += [f'unknown entity "{a}" in {f.text()}' for f in sorted(update.add)
                               for a in f.args if a not in known]
                eid = None
                if self.store is not None:
                    if errors:
                        eid = self.store.reject(update, errors, source=source,
                                                utterance=utterance, info=info)
                    else:
                        eid = self.store.commit(update, source=source, utterance=utterance,
                                                new_entities=new_entities, info=info)
                else:
                    eid = self._remember(verdict(not errors), source,
                                         utterance, update, errors, info, new_entities)
            # committed (or there is no store): now the in-memory view follows
            self._seen = eid or self._seen
            if errors:
                result = ApplyResult(False, update, errors, eid)
            else:
                for name, t in new_entities.items():
                    self.kg.add_entity(name, t)
                self.kg.apply(update)
                self._track(update, eid, source)
                writer = getattr(self.store, 'writer', None)
                self.support.apply(eid or 0, time.time(), source, update,
                                   {'writer': writer, **(info or {})} if writer else info)
                result = ApplyResult(True, update, [], eid, dict(new_entities))
            self._notify_external(caught)
            self._notify(eid, result)
            return result

    def reject(self, errors: list[str], *, source: str, utterance: str | None = None,
               update: Update | None = None, info: dict | None = None,
               status: EventStatus = EventStatus.REJECTED) -> ApplyResult:
        """Record a failure that never produced a verifiable update (e.g. LLM garbage).

        ``status`` ``clarify``: the update waits for the speaker to say which thing is
        meant (``info['clarify']``, see :mod:`l3mp_ros.agent.core.clarify`).
        """
        with self._lock:
            caught: list[Event] = []
            with self._writing(caught):
                eid = (self.store.reject(update, errors, source=source, utterance=utterance,
                                         info=info, status=status) if self.store else
                       self._remember(status, source, utterance, update, errors, info, {}))
            self._seen = eid or self._seen
            result = ApplyResult(False, update or Update(), list(errors), eid)
            self._notify_external(caught)
            self._notify(eid, result)
            return result

    def refresh(self) -> int:
        """Catch up with updates other writers committed to the store; return how many.

        Cheap when nothing changed (one indexed read). Listeners hear of each caught-up
        update as an :class:`ApplyResult` with ``external=True``.
        """
        if self.store is None:
            return 0
        with self._lock:
            if self._closed or self.store.last_event_id() <= self._seen:
                return 0
            caught: list[Event] = []
            self._catch_up(caught)
            self._notify_external(caught)
            return len(caught)

    # -- keeping up with other writers ------------------------------------------
    @contextlib.contextmanager
    def _writing(self, caught: list[Event]) -> Iterator[None]:
        """Hold the store's write lock with the KG brought up to date inside it."""
        if self.store is None:
            yield
            return
        self._check_open()
        with self.store.transaction():
            self._catch_up(caught)
            yield

    def _catch_up(self, caught: list[Event]) -> None:
        """Apply the applied events committed after ``self._seen`` (set semantics)."""
        assert self.store is not None
        for ev in self.store.history(since_id=self._seen):
            if ev.status == EventStatus.INIT:
                raise StoreError(f'{self.store.path} was re-initialised by another process '
                                 f'(event {ev.id}): reopen it')
            if ev.status == EventStatus.APPLIED:
                follow(self.kg, ev.update, ev.new_entities)
                if ev.update is not None:
                    self._track(ev.update, ev.id, ev.source)
                self.support.apply(ev.id, ev.time, ev.source, ev.update, ev.info)
                caught.append(ev)
            self._seen = ev.id

    def _track(self, update: Update, eid: int | None, source: str) -> None:
        for fact in update.remove:
            self._origin.pop(fact, None)
        if eid is not None:
            for fact in update.add:
                self._origin[fact] = (eid, source)

    # -- what facts rest on ------------------------------------------------------------
    def _doubt(self, update: Update, source: str, info: dict | None) -> dict | None:
        """Mark a report that removes what was seen moments ago as doubtful.

        Perception is the ground truth here and language a hint: such a report is still
        written (the thing may have been moved since) but its facts are ``doubtful`` until
        seen, and the event names what it contradicts (``info['contradicts_seen']``).
        """
        if classify(source, info) not in SAID:
            return info
        now = time.time()
        fresh = sorted(f for f in update.remove if (s := self.support.get(f)) is not None
                       and s.seen_time is not None and now - s.seen_time < self.recent_seen)
        if not fresh:
            return info
        return {**(info or {}), 'doubtful': True,
                'contradicts_seen': [list(f.triplet()) for f in fresh]}

    def support_of(self, fact: Fact) -> Support | None:
        """Return what ``fact`` rests on (None: not in the KG)."""
        with self._lock:
            return self.support.get(fact) if fact in self.kg else None

    def to_confirm(self, facts: Iterable[Fact], now: float | None = None) -> list[Fact]:
        """Return the held facts of ``facts`` a sighting would tell something new about.

        Never seen since written, or last seen ``refresh_seen`` seconds ago or more.
        """
        now = time.time() if now is None else now
        with self._lock:
            out = []
            for f in facts:
                s = self.support.get(f)
                if f in self.kg and s is not None and (
                        s.seen_time is None or now - s.seen_time >= self.refresh_seen):
                    out.append(f)
            return sorted(out)

    def origin(self, fact: Fact) -> tuple[int, str] | None:
        """Return (event id, source) of the update that added ``fact``, when seen here."""
        return self._origin.get(fact)

    def overrides(self, update: Update, sources: Iterable[str]) -> list[int]:
        """Return the events from ``sources`` whose added facts ``update`` removes.

        What an observation contradicts: ``overrides(update, ('nl',))`` names the reports
        whose facts the scene graph removes.
        """
        keep = set(sources)
        return sorted({o[0] for f in update.remove
                       if (o := self._origin.get(f)) is not None and o[1] in keep})

    def _notify_external(self, caught: list[Event]) -> None:
        for ev in caught:
            self._notify(ev.id, ApplyResult(True, ev.update or Update(), [], ev.id,
                                            dict(ev.new_entities), external=True))

    def _notify(self, eid: int | None, result: ApplyResult) -> None:
        for listener in list(self.listeners):
            listener(eid, result)

    def event_message(self, eid: int | None, result: ApplyResult) -> dict:
        """Return the ``event/v1`` of an applied or rejected update (read back from the log)."""
        if eid is not None and self.store is not None:
            events = self.store.history(since_id=eid - 1, limit=1)
            if events and events[0].id == eid:
                e = events[0]
                return schemas.event(id=e.id, time=e.time, source=e.source, status=e.status,
                                     utterance=e.utterance,
                                     diff=e.update.to_json() if e.update is not None else None,
                                     new_entities=e.new_entities, errors=e.errors, info=e.info)
        return schemas.event(id=eid, time=time.time(), source='unknown',
                             status=verdict(result.applied),
                             diff=result.update.to_json(), errors=result.errors,
                             new_entities=result.new_entities)

    def _remember(self, status: EventStatus, source: str, utterance: str | None,
                  update: Update | None, errors: list[str], info: dict | None,
                  new_entities: Mapping[str, str]) -> int:
        """Keep an event of a world model without a store; return its id."""
        eid = (self._log[-1].id if self._log else 0) + 1
        self._log.append(Event(eid, time.time(), source, status, utterance, update,
                               dict(new_entities), list(errors), dict(info or {})))
        return eid

    def events(self, since_id: int = 0, status: str | None = None) -> list[Event]:
        """Return the logged events with id > ``since_id`` (optionally one status)."""
        if self.store is not None:
            with self._lock:
                self._check_open()
                return self.store.history(since_id=since_id, status=status)
        return [e for e in self._log if e.id > since_id and status in (None, e.status)]

    def last_event(self) -> int:
        """Return the id of the newest logged event (0 if none)."""
        if self.store is not None:
            with self._lock:
                self._check_open()
                return self.store.last_event_id()
        return self._log[-1].id if self._log else 0

    def snapshot(self) -> KnowledgeGraph:
        """Return a copy of the KG taken under the lock."""
        with self._lock:
            return self.kg.copy()

    def close(self) -> None:
        """Close the store once no other thread is using it (idempotent).

        A timer's :meth:`refresh` on an executor thread may still be reading the store
        when a node is torn down; closing a SQLite connection under a running query
        crashes the process, so the close waits for the model's lock. A closed model's
        :meth:`refresh` returns 0 and its other store reads raise :class:`StoreError`.
        """
        with self._lock:
            if self.store is not None and not self._closed:
                self._closed = True
                self.store.close()

    def _check_open(self) -> None:
        if self._closed:
            where = getattr(self.store, 'path', None) or getattr(self, 'store_path', 'the store')
            raise StoreError(f'{where} was closed')
