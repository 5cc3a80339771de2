# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A read-only replica of a world model owned by another process (single writer).

The writer (the world-model node) publishes every applied or rejected update as an
``event/v1``. A :class:`ReplicaWorldModel` loads the writer's SQLite store (WAL: readers
never block the writer), then follows those events, applying their diffs as set operations
(idempotent, so replaying an overlapping stretch of history converges on the writer's
state). A gap in the event ids triggers a replay from the store's event log, and
:meth:`refresh` (called on a clock) replays what was logged but never heard.

Its :meth:`apply` and :meth:`reject` do not write: they hand the request to ``send`` (the
transport, e.g. a ROS publisher on ``kg_update``) and wait for the writer's event carrying
the same ``request_id``. So the agent's pipelines run unchanged against a replica.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from .. import schemas
from .constraints import Constraints
from .domain import DomainSchema
from .events import EventStatus
from .kg import Update
from .model import ApplyResult, WorldModel, follow
from .stores import is_url, open_store

KG_UPDATE_SCHEMA = schemas.KG_UPDATE_SCHEMA


class ReplicaError(RuntimeError):
    """The writer did not answer a forwarded update in time."""


def kg_update_request(update: Update | None, *, source: str, utterance: str | None,
                      new_entities: Mapping[str, str] | None = None, verify: bool = True,
                      info: dict | None = None, errors: list[str] | None = None,
                      request_id: str | None = None) -> dict:
    """Return a ``kg_update/v1`` body (an update, or a rejection when ``errors`` is set)."""
    return schemas.kg_update(update.to_json() if update is not None else None,
                             source=source, utterance=utterance, new_entities=new_entities,
                             verify=verify, info=info, errors=errors or [],
                             request_id=request_id)


#: sources a ``kg_update/v1`` may name by default: the language and planner nodes' own
WIRE_SOURCES = ('nl', 'execution')


def apply_request(world: WorldModel, req: Mapping, *,
                  sources: Sequence[str] | None = WIRE_SOURCES,
                  max_facts: int | None = None) -> ApplyResult:
    """Apply (or record the rejection in) a ``kg_update/v1`` request on the writer.

    A request from the wire is always verified (its ``verify`` is not honoured), and its
    ``source`` must be one of ``sources`` (``None``: any, for trusted in-process callers):
    perception reaches the KG through ``scene_graph`` only. ``max_facts`` bounds the facts
    one request may change (``None``: any). Everything else is a logged rejection.
    """
    if not isinstance(req, Mapping) or req.get('schema') != KG_UPDATE_SCHEMA:
        return world.reject([f'not a {KG_UPDATE_SCHEMA} message'], source='kg_update')
    source = str(req.get('source') or 'remote')
    utterance = req.get('utterance')
    info = dict(req.get('info') or {})
    info['request_id'] = req.get('request_id')
    if sources is not None and source not in sources:
        return world.reject([f'source "{source}" may not write on kg_update (allowed: '
                             f'{", ".join(sources) or "none"})'], source='kg_update',
                            utterance=utterance, info={**info, 'claimed_source': source})
    try:
        update = Update.from_json(req['diff']) if req.get('diff') is not None else None
        ents = {str(e['name']): str(e['type']) for e in req.get('new_entities') or []}
    except (KeyError, TypeError, ValueError) as exc:
        return world.reject([f'malformed kg_update: {exc}'], source=source,
                            utterance=utterance, info=info)
    if req.get('errors') or update is None:
        return world.reject(list(req.get('errors') or ['no update produced']), source=source,
                            utterance=utterance, update=update, info=info,
                            status=(EventStatus.CLARIFY if info.get('clarify')
                                    else EventStatus.REJECTED))
    changed = len(update.remove) + len(update.add)
    if max_facts is not None and changed > max_facts:
        return world.reject([f'the update changes {changed} facts; a kg_update may change at '
                             f'most {max_facts} (kg_update_max_facts)'], source=source,
                            utterance=utterance, info=info)
    if sources is not None and req.get('verify') is False:
        info['verify_requested'] = False  # recorded, not honoured
    return world.apply(update, source=source, utterance=utterance, new_entities=ents,
                       verify=sources is not None or bool(req.get('verify', True)), info=info)


class ReplicaWorldModel(WorldModel):
    """Mirror of a remote writer's KG; writes are forwarded to it."""

    def __init__(self, domain: DomainSchema, constraints: Constraints | None,
                 store_path: str | Path, send: Callable[[dict], None],
                 timeout: float = 30.0) -> None:
        self.store_path = store_path if is_url(store_path) else Path(store_path)
        self._reader = open_store(self.store_path)
        last = self._reader.last_event_id()
        super().__init__(domain, constraints, kg=self._reader.load_kg())
        self.support = self._reader.load_support()
        self.last_event_id = last
        self._replay(last)
        self.send = send
        self.timeout = timeout
        self._waiting: dict[str, tuple[threading.Event, list[ApplyResult]]] = {}

    # -- following the writer -------------------------------------------------
    def _apply_diff(self, diff: Mapping | None, new_entities: Mapping[str, str],
                    event: Mapping | None = None) -> None:
        update = Update.from_json(diff) if diff else None
        follow(self.kg, update, new_entities)
        if event is not None and isinstance(event.get('id'), int):
            self.support.apply(event['id'], float(event.get('time') or time.time()),
                               str(event.get('source') or ''), update, event.get('info'))

    def _replay(self, since: int) -> None:
        for ev in self._reader.history(since_id=since):
            if ev.status == EventStatus.APPLIED:
                self._apply_diff(ev.update.to_json() if ev.update else None, ev.new_entities,
                                 {'id': ev.id, 'time': ev.time, 'source': ev.source,
                                  'info': ev.info})
            self.last_event_id = max(self.last_event_id, ev.id)

    def on_event(self, event: Mapping) -> None:
        """Follow one ``event/v1`` from the writer (call for every event received)."""
        eid = event.get('id')
        with self._lock:
            if isinstance(eid, int):
                if eid <= self.last_event_id:
                    pass  # already in the state we loaded
                elif eid > self.last_event_id + 1:
                    self._replay(self.last_event_id)  # missed some: read them from the log
                else:
                    if event.get('status') == EventStatus.APPLIED:
                        ents = {str(e['name']): str(e['type'])
                                for e in event.get('new_entities') or []}
                        self._apply_diff(event.get('diff'), ents, event)
                    self.last_event_id = eid
            elif event.get('status') == EventStatus.APPLIED:  # writer without a store
                ents = {str(e['name']): str(e['type']) for e in event.get('new_entities') or []}
                self._apply_diff(event.get('diff'), ents)
        rid = event.get('request_id') or (event.get('info') or {}).get('request_id')
        waiter = self._waiting.get(rid) if rid else None
        if waiter is not None:
            diff = event.get('diff')
            upd = Update.from_json(diff) if diff else Update()
            waiter[1].append(ApplyResult(event.get('status') == EventStatus.APPLIED, upd,
                                         list(event.get('errors') or []), eid))
            waiter[0].set()

    def refresh(self) -> int:
        """Follow events the writer logged but this replica never heard of; return how many.

        Events travel on a volatile topic: one published before the writer discovered this
        reader is lost, and a replica that missed the newest event would stay behind until
        the next one. One indexed read when nothing is missing (nodes call it on a clock).
        """
        with self._lock:
            before = self.last_event_id
            if self._closed or self._reader.last_event_id() <= before:
                return 0
            self._replay(before)
            return self.last_event_id - before

    # -- forwarded writes -----------------------------------------------------
    def _forward(self, body: dict) -> ApplyResult:
        done = threading.Event()
        box: list[ApplyResult] = []
        rid = body['request_id']
        self._waiting[rid] = (done, box)
        try:
            self.send(body)
            if not done.wait(self.timeout) and not self._from_log(rid, box):
                raise ReplicaError(f'the world model did not answer update {rid} within '
                                   f'{self.timeout:.0f} s')
        finally:
            self._waiting.pop(rid, None)
        result = box[0]
        self._notify(result.event_id, result)
        return result

    def _from_log(self, rid: str, box: list[ApplyResult]) -> bool:
        """Find the writer's verdict in its event log (its event may have been lost)."""
        with self._lock:
            since = self.last_event_id
            for ev in self._reader.history(since_id=max(since - 1000, 0)):
                if ev.info.get('request_id') == rid:
                    self._replay(since)
                    box.append(ApplyResult(ev.status == EventStatus.APPLIED,
                                           ev.update or Update(), list(ev.errors), ev.id))
                    return True
        return False

    def apply(self, update: Update, *, source: str, utterance: str | None = None,
              new_entities: Mapping[str, str] | None = None, verify: bool = True,
              info: dict | None = None) -> ApplyResult:
        """Send the update to the writer and wait for its verdict (the replica follows)."""
        try:
            return self._forward(kg_update_request(update, source=source, utterance=utterance,
                                                   new_entities=new_entities, verify=verify,
                                                   info=info))
        except ReplicaError as exc:
            return ApplyResult(False, update, [str(exc)])

    def reject(self, errors: list[str], *, source: str, utterance: str | None = None,
               update: Update | None = None, info: dict | None = None,
               status: EventStatus = EventStatus.REJECTED) -> ApplyResult:
        """Have the writer log a failure (and publish it on ``events``).

        A ``clarify`` (``info['clarify']`` set) travels as a rejection carrying its
        question: the writer logs it with status ``clarify``.
        """
        if status == EventStatus.CLARIFY and not (info or {}).get('clarify'):
            raise ValueError('a clarify event needs info["clarify"]')
        try:
            return self._forward(kg_update_request(update, source=source, utterance=utterance,
                                                   info=info, errors=errors))
        except ReplicaError as exc:
            return ApplyResult(False, update or Update(), [*errors, str(exc)])

    def events(self, since_id: int = 0, status: str | None = None) -> list:
        """Return the writer's logged events with id > ``since_id`` (read from its store)."""
        with self._lock:
            self._check_open()
            return self._reader.history(since_id=since_id, status=status)

    def last_event(self) -> int:
        """Return the id of the writer's newest logged event."""
        with self._lock:
            self._check_open()
            return self._reader.last_event_id()

    def wait_for(self, event_id: int, timeout: float = 5.0) -> bool:
        """Block until the replica has followed the writer up to ``event_id``."""
        end = time.monotonic() + timeout
        while self.last_event_id < event_id:
            if time.monotonic() > end:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        """Close the read connection once no other thread reads it (idempotent)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._reader.close()


__all__ = ['KG_UPDATE_SCHEMA', 'ReplicaError', 'ReplicaWorldModel', 'apply_request',
           'kg_update_request']
