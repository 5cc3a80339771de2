# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What the world model's writer does with each message it receives (no ROS).

:class:`WorldInputs` takes the raw JSON of a scene graph, a ``kg_update`` request or a
``kg_query`` and returns the messages to publish: error events for what it refuses, the
query's answer. Applied and rejected updates reach ``events`` through the world model's
listener (:meth:`WorldInputs.event`), once per apply, whichever writer made it. The
world model node is a thin shell around this class.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from ..schemas import WireError, error_event, loads_object, validate
from . import query, replica
from .events import verdict
from .model import ApplyResult, WorldModel
from .perceive import PerceptionError, load_perceivable, perceived, scene_graph_update

MAX_MESSAGE_BYTES = 4_000_000
LANGUAGE_SOURCES = ('nl',)  # what people said (an observation may override it)


class WorldInputs:
    """Scene graphs, update requests and queries against one :class:`WorldModel`."""

    def __init__(self, world: WorldModel, params: dict[str, Any]) -> None:
        self.world = world
        self.params = params  # read per message: live parameter changes take effect
        self.perceivable = load_perceivable(params['perception_config'])
        self._current = threading.local()  # provenance of the scene graph being applied

    def set_perception(self, path: str) -> Any:
        """Check a perception config; return the change that installs it."""
        preds = load_perceivable(path)  # ValueError: unreadable, malformed
        unknown = sorted(p for p in preds if p not in self.world.domain.predicates)
        if unknown:
            raise ValueError(f'names predicates the domain lacks: {", ".join(unknown)}')
        return lambda: setattr(self, 'perceivable', preds)

    # -- events -------------------------------------------------------------------------
    def event(self, eid: int | None, result: ApplyResult) -> dict:
        """Return the ``event/v1`` of an apply (ours without reading the log back)."""
        meta = None if result.external else getattr(self._current, 'meta', None)
        if meta is None:
            return self.world.event_message(eid, result)
        body = error_event(meta['source'], list(result.errors))
        body.update(id=eid, status=verdict(result.applied),
                    diff=result.update.to_json(), topic='scene_graph',
                    new_entities=[{'name': n, 'type': t}
                                  for n, t in sorted(result.new_entities.items())],
                    info=meta['info'])
        return body

    @staticmethod
    def _parse(raw: str, topic: str, source: str) -> tuple[dict | None, list[dict]]:
        try:
            return loads_object(raw, max_bytes=MAX_MESSAGE_BYTES), []
        except WireError as exc:
            return None, [error_event(source, [str(exc)], topic=topic)]

    # -- inputs -------------------------------------------------------------------------
    def scene_graph(self, raw: str) -> list[dict]:
        """Merge one scene graph; return the error events (applied ones go to listeners)."""
        data, errors = self._parse(raw, 'scene_graph', 'perception')
        if data is None:
            return errors
        limit = int(self.params['max_scene_entities'])
        size = max(len(data.get('entities') or []), len(data.get('observed') or []))
        if size > limit:  # refuse before the (costly) schema check
            return [error_event('perception', [f'scene graph too large: {size} entities '
                                               f'(limit {limit})'], topic='scene_graph')]
        problems = validate('scene_graph', data)
        if problems:
            return [error_event('perception', problems, topic='scene_graph')]
        try:
            update, new = scene_graph_update(self.world.kg, data, self.perceivable,
                                             self.world.domain, self.world.constraints, limit)
        except PerceptionError as exc:
            return [error_event('perception', exc.errors, topic='scene_graph')]
        # what the frame sees that the KG holds already: the facts it confirms
        confirms = self.world.to_confirm(perceived(data, self.perceivable) - update.add)
        if update.is_empty() and not new and not confirms:
            return []  # nothing changed and nothing newly confirmed: no event
        source = str(data.get('source') or 'perception')
        observed = sorted({str(o).lower() for o in data.get('observed') or []})
        # which entities it saw: a task checks the told facts its plan relies on against them
        info = {'stamp': data.get('stamp'), 'observed': len(observed),
                'observed_entities': observed}
        if confirms:
            info['confirmed'] = [list(f.triplet()) for f in confirms]
        if data.get('robot'):
            info['robot'] = str(data['robot'])
        overridden = self.world.overrides(update, LANGUAGE_SOURCES)
        if overridden:  # the reports whose facts what the robot sees now contradicts
            info['overrides'] = overridden
        self._current.meta = {'source': source, 'info': info}
        try:
            self.world.apply(update, source=source, new_entities=new, info=info)
        finally:
            self._current.meta = None
        return []

    def kg_update(self, raw: str) -> list[dict]:
        """Apply one ``kg_update/v1`` request; return the error events."""
        data, errors = self._parse(raw, 'kg_update', 'kg_update')
        if data is None:
            return errors
        rid = data.get('request_id')
        if data.get('schema') != replica.KG_UPDATE_SCHEMA:
            return [error_event('kg_update', [f'not a {replica.KG_UPDATE_SCHEMA} message'],
                                topic='kg_update', request_id=rid)]
        problems = validate('kg_update', data)
        if problems:
            return [error_event('kg_update', problems, topic='kg_update', request_id=rid)]
        replica.apply_request(self.world, data,
                              sources=tuple(self.params['kg_update_sources']),
                              max_facts=int(self.params['kg_update_max_facts']))
        return []

    def query(self, raw: str) -> tuple[dict | None, list[dict]]:
        """Answer one ``kg_query/v1``: (``kg_query_result/v1`` or None, error events).

        Malformed JSON has no request id to answer: it is an error event only.
        """
        data, errors = self._parse(raw, 'kg_query', 'kg_query')
        if data is None:
            return None, errors
        rid = data.get('request_id') if isinstance(data.get('request_id'), str) else None
        try:
            problems = validate('kg_query', data)
            store = self.world.store
            last = store.last_event_id() if store is not None else None
            if problems:
                return query.result(rid, errors=problems, last_event_id=last), []
            body = query.answer(self.world.snapshot(), data, self.world.domain.predicates,
                                last)
            query.add_support(body, self.world, self.perceivable)
            return body, []
        except Exception as exc:  # the asker gets an answer whatever happens
            return query.result(rid, errors=[f'internal error: {exc!r}']), []

    # -- services -----------------------------------------------------------------------
    def save_snapshot(self) -> tuple[bool, str]:
        """Save a snapshot of the KG in the store: (success, message)."""
        if self.world.store is None:
            return False, 'no store (in-memory KG)'
        return True, f'snapshot {self.world.store.save_snapshot(self.world.snapshot())}'

    def stats(self) -> str:
        """Return entity, fact and type counts and the last event id, as JSON."""
        kg = self.world.snapshot()
        types: dict[str, int] = {}
        for t in kg.entities.values():
            types[t] = types.get(t, 0) + 1
        store = self.world.store
        return json.dumps({'entities': len(kg.entities), 'facts': len(kg), 'types': types,
                           'last_event_id': store.last_event_id() if store else None})


class StoreFollower:
    """Keep a world model up to date with what other writers commit to its store.

    PostgreSQL pushes every commit (``LISTEN/NOTIFY``): a thread waits on it. SQLite
    cannot: :meth:`start` returns False and the caller polls :meth:`refresh`.
    """

    def __init__(self, world: WorldModel, on_error: Any) -> None:
        self.world = world
        self.on_error = on_error  # called with a one-line message
        self._stop = threading.Event()
        self._listener: Any = None

    def start(self) -> bool:
        """Follow pushed commits on a thread; False when the store cannot push."""
        listen = getattr(self.world.store, 'listen', None)
        if not callable(listen):
            return False
        self._stop = stop = threading.Event()  # one per start: an old thread ends
        self._listener = listener = listen()
        threading.Thread(target=self._follow, args=(listener, stop), name='store_events',
                         daemon=True).start()
        return True

    def _follow(self, listener: Any, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if listener.wait(1.0):
                    self.refresh()
            except Exception as exc:  # the thread must go on following
                if not stop.is_set():
                    self.on_error(f'store listener: {exc!r}')
                stop.wait(1.0)

    def refresh(self) -> None:
        """Catch up (listeners publish what another writer committed); never raises."""
        try:
            self.world.refresh()
        except Exception as exc:
            self.on_error(f'cannot follow the store: {exc!r}')

    def stop(self) -> None:
        """Stop following (idempotent)."""
        self._stop.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
