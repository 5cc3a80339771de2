# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The world model: KG + domain + verifier + durable store, one writer.

Every change goes through :meth:`WorldModel.apply`: verify, then commit to the
store, then change the in-memory KG. A rejected update is logged and changes
nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .constraints import Constraints
from .domain import DomainSchema
from .kg import KnowledgeGraph, Update
from .store import Event, Store
from .verify import Verifier


@dataclass
class ApplyResult:
    """Outcome of one update."""

    applied: bool
    update: Update
    errors: list[str] = field(default_factory=list)
    event_id: int | None = None
    new_entities: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        """Return a JSON-ready dict."""
        return {'applied': self.applied, 'diff': self.update.to_json(), 'errors': self.errors,
                'event_id': self.event_id,
                'new_entities': [{'name': n, 'type': t}
                                 for n, t in sorted(self.new_entities.items())]}


class WorldModel:
    """Owns the KG and (optionally) its store; serialises all writes with a lock."""

    def __init__(self, domain: DomainSchema, constraints: Constraints | None = None,
                 kg: KnowledgeGraph | None = None, store: Store | None = None) -> None:
        self.domain = domain
        self.constraints = constraints or Constraints.empty()
        self.verifier = Verifier(domain, self.constraints)
        self.store = store
        self.kg = kg if kg is not None else (store.load_kg() if store else KnowledgeGraph(
            domain.name))
        self._lock = threading.RLock()
        self.listeners: list[Callable[[Event | None, ApplyResult], None]] = []

    @classmethod
    def open(cls, store_path: str | Path, domain_path: str | Path | None = None,
             constraints_path: str | Path | None = None) -> WorldModel:
        """Open a store; the domain/constraints default to the paths recorded in it."""
        store = Store(store_path)
        meta = store.meta
        dpath = domain_path or meta.get('domain_path')
        cpath = constraints_path or meta.get('constraints_path') or None
        if not dpath:
            store.close()
            raise ValueError(f'{store_path} records no domain file: pass --domain')
        domain = DomainSchema.load(dpath)
        constraints = Constraints.load(cpath) if cpath else Constraints.empty()
        return cls(domain, constraints, store=store)

    def apply(self, update: Update, *, source: str, utterance: str | None = None,
              new_entities: Mapping[str, str] | None = None, verify: bool = True,
              info: dict | None = None) -> ApplyResult:
        """Verify and apply atomically; on errors log the rejection and change nothing."""
        new_entities = {k.lower(): v.lower() for k, v in (new_entities or {}).items()
                        if self.kg.type_of(k.lower()) != v.lower()}
        with self._lock:
            errors = self.verifier.check(self.kg, update, new_entities) if verify else []
            if not errors and not verify:
                # even unverified updates must be applicable (existence, known entities)
                known = {**self.kg.entities, **new_entities}
                errors = [f'cannot REMOVE {f.text()}: it is not in the KG'
                          for f in sorted(update.remove) if f not in self.kg]
                errors += [f'unknown entity "{a}" in {f.text()}' for f in sorted(update.add)
                           for a in f.args if a not in known]
            if errors:
                eid = self.store.reject(update, errors, source=source, utterance=utterance,
                                        info=info) if self.store else None
                result = ApplyResult(False, update, errors, eid)
                self._notify(eid, result)
                return result
            eid = None
            if self.store is not None:
                eid = self.store.commit(update, source=source, utterance=utterance,
                                        new_entities=new_entities, info=info)
            for name, t in new_entities.items():
                self.kg.add_entity(name, t)
            self.kg.apply(update)
            result = ApplyResult(True, update, [], eid, dict(new_entities))
            self._notify(eid, result)
            return result

    def reject(self, errors: list[str], *, source: str, utterance: str | None = None,
               update: Update | None = None, info: dict | None = None) -> ApplyResult:
        """Record a failure that never produced a verifiable update (e.g. LLM garbage)."""
        with self._lock:
            eid = self.store.reject(update, errors, source=source, utterance=utterance,
                                    info=info) if self.store else None
            result = ApplyResult(False, update or Update(), list(errors), eid)
            self._notify(eid, result)
            return result

    def _notify(self, eid: int | None, result: ApplyResult) -> None:
        for listener in list(self.listeners):
            listener(eid, result)

    def snapshot(self) -> KnowledgeGraph:
        """Return a copy of the KG taken under the lock."""
        with self._lock:
            return self.kg.copy()

    def close(self) -> None:
        """Close the store."""
        if self.store is not None:
            self.store.close()
