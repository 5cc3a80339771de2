# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Perception integration: a ``scene_graph/v1`` message → a KG update (no LLM).

Contract (see ``l3mp_ros/schemas/scene_graph.v1.json``):

* For each entity in ``observed``, its facts of a *perceivable* predicate whose first
  argument is that entity are replaced by the message's facts of that kind. Facts of other
  predicates, facts where the entity is a later argument (the contents of a closed fridge)
  and unobserved entities are left alone.
* Perception may add entities (``entities`` [{name, type}]); they are returned as
  ``new_entities`` for :meth:`WorldModel.apply`. A known entity keeps its type: a
  different type in the message is an error.
* Facts of non-perceivable predicates in the message (e.g. ``room_has`` for a newly seen
  fridge) are added when absent and never removed.
* Constraint rules then resolve conflicts with old facts elsewhere: for each added fact of a
  ``functional`` or ``exclusive`` rule, the old facts of the same rule group with the same
  key entity are removed (an item seen on the table leaves the hand of a person who is not
  observed). When an observed entity would be left with none of an ``exactly`` functional
  group because the message says nothing about it, its old facts of that group are kept.

The update is then verified by the world model like any other.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

import yaml

from .. import paths, schemas
from .constraints import Constraints, RuleKind
from .domain import DomainSchema
from .kg import Fact, KGError, KnowledgeGraph, Update
from .verify import Verifier

SCHEMA = schemas.SCENE_GRAPH_SCHEMA
DEFAULT_MAX_ENTITIES = 2000


class PerceptionError(ValueError):
    """A scene graph that cannot become an update (every reason in :attr:`errors`)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__('; '.join(errors))
        self.errors = errors


def load_perceivable(path: str | Path) -> set[str]:
    """Read ``perceivable_predicates`` from a YAML data file.

    A relative path is also looked for under the share directory, like the domain
    (:func:`l3mp_ros.paths.resolve`). The shipped files are plain data; a file in the
    older ``/**: ros__parameters:`` shape is still read.
    """
    try:
        data = yaml.safe_load(paths.resolve(path).read_text())
    except OSError as exc:
        raise ValueError(f'cannot read {path}: {exc.strerror}') from None
    except yaml.YAMLError as exc:
        raise ValueError(f'malformed YAML in {path}: {exc}'.replace('\n', ' ')) from None
    params = data
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), dict):
        params = next(iter(data.values())).get('ros__parameters', data)
    preds = params.get('perceivable_predicates') if isinstance(params, dict) else None
    if not isinstance(preds, list) or not all(isinstance(p, str) for p in preds):
        raise ValueError(f'{path}: "perceivable_predicates" must be a list of names')
    return {p.lower() for p in preds}


def _entities(msg: Mapping, kg: KnowledgeGraph, domain: DomainSchema,
              errors: list[str]) -> dict[str, str]:
    new: dict[str, str] = {}
    for ent in msg.get('entities', []) or []:
        name, type_ = str(ent['name']).lower(), str(ent['type']).lower()
        known = kg.type_of(name)
        if known is not None:
            if known != type_:
                errors.append(f'entity {name} is a {known} in the KG but perception says '
                              f'{type_}')
            continue
        if not domain.has_type(type_):
            errors.append(f'entity {name} has unknown type "{type_}"')
            continue
        new[name] = type_
    return new


def _conflicts(kg: KnowledgeGraph, constraints: Constraints, domain: DomainSchema,
               add: set[Fact], remove: set[Fact], types: Mapping[str, str]) -> set[Fact]:
    """Return old facts that the added facts displace under functional/exclusive rules."""
    out: set[Fact] = set()
    for rule in constraints.rules:
        if not rule.kind.grouped:
            continue
        group = set(rule.predicates)
        for fact in add:
            if fact.predicate not in group or len(fact.args) <= rule.key:
                continue
            key = fact.args[rule.key]
            if rule.types and not domain.is_subtype(types.get(key, ''), rule.types):
                continue
            for old in kg.facts_of(key):
                if (old.predicate in group and len(old.args) > rule.key
                        and old.args[rule.key] == key and old not in add and old not in remove
                        and (rule.kind == RuleKind.FUNCTIONAL
                             or old.predicate != fact.predicate)):
                    out.add(old)
    return out


def _keep_exactly(kg: KnowledgeGraph, constraints: Constraints, domain: DomainSchema,
                  add: set[Fact], remove: set[Fact], observed: set[str],
                  types: Mapping[str, str]) -> set[Fact]:
    """Return removals to cancel so no observed entity loses a whole ``exactly`` group."""
    keep: set[Fact] = set()
    for rule in constraints.rules:
        if rule.kind != RuleKind.FUNCTIONAL or not rule.exactly:
            continue
        group, k = set(rule.predicates), rule.key
        lost: dict[str, set[Fact]] = {}
        for f in remove:
            if f.predicate in group and len(f.args) > k and f.args[k] in observed:
                lost.setdefault(f.args[k], set()).add(f)
        if not lost:
            continue
        gained = {f.args[k] for f in add if f.predicate in group and len(f.args) > k}
        for name, facts in lost.items():
            if name in gained or (rule.types and not domain.is_subtype(
                    types.get(name, ''), rule.types)):
                continue
            still = any(f.predicate in group and len(f.args) > k and f.args[k] == name
                        and f not in remove for f in kg.facts_of(name))
            if not still:
                keep |= facts
    return keep


def scene_graph_update(kg: KnowledgeGraph, msg: dict, perceivable: set[str],
                       domain: DomainSchema, constraints: Constraints | None = None,
                       max_entities: int = DEFAULT_MAX_ENTITIES,
                       ) -> tuple[Update, dict[str, str]]:
    """Return ``(update, new_entities)`` turning ``kg`` into what ``msg`` shows.

    ``msg`` must already satisfy the JSON schema (:func:`l3mp_ros.schemas.validate`).
    Raises :class:`PerceptionError` listing every problem; nothing is half-applied.
    """
    constraints = constraints or Constraints.empty()
    perceivable = {p.lower() for p in perceivable}
    if msg.get('schema') != SCHEMA:
        raise PerceptionError([f'not a {SCHEMA} message (schema {msg.get("schema")!r})'])
    n = max(len(msg.get('entities', []) or []), len(msg.get('observed', []) or []))
    if n > max_entities:
        raise PerceptionError([f'scene graph too large: {n} entities (limit {max_entities})'])
    errors: list[str] = []
    new_entities = _entities(msg, kg, domain, errors)
    types = {**kg.entities, **new_entities}
    observed = {str(o).lower() for o in msg.get('observed', []) or []}
    for name in sorted(observed - set(types)):
        errors.append(f'observed entity {name} is neither in the KG nor in "entities"')
    seen: set[Fact] = set()
    extra: set[Fact] = set()
    numbers: set[Fact] = set()
    for trip in msg.get('facts', []) or []:
        try:
            fact = Fact.from_triplet(trip)
        except KGError as exc:
            errors.append(str(exc))
            continue
        unknown = [a for a in fact.args if a not in types]
        if unknown:
            errors.append(f'fact {fact.text()} names unknown entities {", ".join(unknown)}')
        elif fact.numeric or fact.predicate in domain.functions:
            # a measured number (battery level): it replaces the value the KG holds
            wrong = Verifier(domain).check_fact(fact, types)
            if wrong:
                errors.extend(wrong)
            elif fact not in kg:
                numbers.add(fact)
        elif fact.predicate not in domain.predicates:
            errors.append(f'unknown predicate "{fact.predicate}" in {fact.text()}')
        elif fact.predicate in perceivable:
            if not fact.args or fact.args[0] not in observed:
                errors.append(f'perceivable fact {fact.text()} is about an entity that is '
                              'not in "observed"')
            else:
                seen.add(fact)
        else:
            extra.add(fact)
    if errors:
        raise PerceptionError(errors)
    old: set[Fact] = set()
    for name in observed:
        old |= {f for f in kg.facts_of(name)
                if f.predicate in perceivable and f.args and f.args[0] == name}
    keys = {f.key for f in numbers}
    if len(keys) < len(numbers):
        raise PerceptionError(['a scene graph gives one function term two values: ' + ', '.join(
            f.text() for f in sorted(numbers))])
    remove = old - seen
    add = (seen - old) | {f for f in extra if f not in kg} | numbers
    remove |= kg.replaced_values(Update.of(add=numbers))
    remove |= _conflicts(kg, constraints, domain, add, remove, types)
    remove -= _keep_exactly(kg, constraints, domain, add, remove, observed, types)
    return Update.of(remove, add), new_entities


def perceived(msg: Mapping, perceivable: Collection[str]) -> set[Fact]:
    """Return the perceivable facts a (checked) scene graph says hold."""
    observed = {str(o).lower() for o in msg.get('observed', []) or []}
    out = set()
    for trip in msg.get('facts', []) or []:
        try:
            fact = Fact.from_triplet(trip)
        except KGError:
            continue
        if fact.predicate in perceivable and fact.args and fact.args[0] in observed:
            out.add(fact)
    return out


def frame_signature(msg: Mapping) -> tuple:
    """Return what a frame says (entities, facts, observed), ignoring its stamp."""
    ents = tuple(sorted((str(e.get('name')), str(e.get('type')))
                        for e in msg.get('entities', []) or []))
    facts = tuple(sorted(tuple(str(x) for x in t) for t in msg.get('facts', []) or []))
    return ents, facts, tuple(sorted(str(o) for o in msg.get('observed', []) or []))


class FrameGate:
    """Latest-frame-wins throttle with de-duplication, for a raw perception stream.

    :meth:`offer` keeps only the newest frame; :meth:`take` returns it at most
    ``max_rate`` times a second and only when it says something the last forwarded
    frame did not, or when ``refresh`` seconds passed (an unchanged view is re-sent now
    and then, so it corrects reports that contradict it).
    """

    def __init__(self, max_rate: float = 10.0, refresh: float = 1.0) -> None:
        self.period = 1.0 / max_rate if max_rate > 0 else 0.0
        self.refresh = refresh
        self._pending: dict | None = None
        self._last_sig: tuple | None = None
        self._last_time = float('-inf')
        self.dropped = 0
        self.unchanged = 0

    def offer(self, msg: dict) -> None:
        """Keep ``msg`` as the newest frame (replacing an unforwarded one)."""
        if self._pending is not None:
            self.dropped += 1
        self._pending = msg

    def take(self, now: float) -> dict | None:
        """Return the frame to forward now, or None."""
        if self._pending is None or now - self._last_time < self.period:
            return None
        msg, self._pending = self._pending, None
        sig = frame_signature(msg)
        if sig == self._last_sig and now - self._last_time < self.refresh:
            self.unchanged += 1
            return None
        self._last_sig, self._last_time = sig, now
        return msg
