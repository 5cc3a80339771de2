# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Read-only KG queries (``kg_query/v1`` → ``kg_query_result/v1``), no ROS.

Three kinds: the facts that mention an entity, the facts matching a triplet pattern
(``null`` is a wildcard; a unary fact's object is ``true``), or the whole snapshot. Facts
come back as triplets, sorted, at most ``limit`` of them (``count`` says how many
matched); ``entities`` gives the type of every entity they mention. Unknown entities and
predicates are errors, not empty answers, so a typo is not mistaken for "nothing there".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .. import schemas
from .kg import TRUE, Fact, KnowledgeGraph
from .phrasing import Phrasing
from .support import describe

DEFAULT_LIMIT = 1000


def result(request_id: str | None, *, facts: list[Fact] | None = None,
           kg: KnowledgeGraph | None = None, errors: list[str] | None = None,
           limit: int = DEFAULT_LIMIT, last_event_id: int | None = None) -> dict[str, Any]:
    """Return a ``kg_query_result/v1`` body."""
    found = sorted(facts or [])
    shown = found[:limit]
    names = {a for f in shown for a in f.args}
    return schemas.kg_query_result(
        request_id, errors=errors or [], facts=[f.triplet() for f in shown],
        entities={n: kg.entities[n] for n in sorted(names) if kg is not None and n in kg.entities},
        count=len(found), truncated=len(found) > limit, last_event_id=last_event_id)


def _matches(fact: Fact, pattern: list[str | None]) -> bool:
    triplet = fact.triplet()
    return len(triplet) == len(pattern) and all(
        want is None or want == have for want, have in zip(pattern, triplet, strict=True))


def answer(kg: KnowledgeGraph, query: dict[str, Any], predicates: Collection[str] = (),
           last_event_id: int | None = None) -> dict[str, Any]:
    """Answer a ``kg_query/v1`` (already checked against its schema) from ``kg``.

    ``predicates``: the domain's predicate names (a pattern naming another is an error).
    """
    rid = query.get('request_id')
    limit = int(query.get('limit') or DEFAULT_LIMIT)
    if query.get('snapshot'):
        body = result(rid, facts=list(kg.facts), kg=kg, limit=limit,
                      last_event_id=last_event_id)
        body['snapshot'] = kg.to_json()
        return body
    if 'entity' in query:
        name = str(query['entity']).strip().lower()
        if name not in kg.entities:
            return result(rid, errors=[f'unknown entity {name!r}'],
                          last_event_id=last_event_id)
        body = result(rid, facts=list(kg.facts_of(name)), kg=kg, limit=limit,
                      last_event_id=last_event_id)
        body['entities'].setdefault(name, kg.entities[name])
        return body
    raw = list(query.get('pattern') or [])
    pattern = [TRUE if item is True else None if item is None else str(item).strip().lower()
               for item in raw]
    if any(item is False for item in raw):
        return result(rid, errors=['a pattern cannot ask for false: the KG stores true facts '
                                   'only (closed world)'], last_event_id=last_event_id)
    at = 1 if len(pattern) > 1 else 0
    predicate = pattern[at]
    errors = [f'unknown entity {n!r}' for i, n in enumerate(pattern)
              if i != at and n is not None and n != TRUE and n not in kg.entities]
    if predicate is not None and predicates and predicate not in predicates:
        errors.insert(0, f'unknown predicate {predicate!r}')
    if errors:
        return result(rid, errors=errors, last_event_id=last_event_id)
    pool = kg.facts_with(predicate) if predicate is not None else kg.facts
    return result(rid, facts=[f for f in pool if _matches(f, pattern)], kg=kg, limit=limit,
                  last_event_id=last_event_id)


def add_support(body: dict[str, Any], world: Any, perceivable: Collection[str]) -> None:
    """Add ``support`` to a ``kg_query_result/v1``: per fact, what it rests on.

    One entry per triplet of ``facts`` (same order): the fact's support (seen, told,
    given or done; which event, robot or speaker, when; ``confirmed``, ``doubtful``),
    ``perceivable`` (whether perception can ever see it) and ``said``, a sentence.
    """
    if not body.get('facts') or 'snapshot' in body:
        return
    kg = world.snapshot()
    phrase = Phrasing(world.domain, kg)
    out = []
    for trip in body['facts']:
        fact = Fact.from_triplet(trip)
        s = world.support_of(fact)
        see = fact.predicate in perceivable
        entry: dict[str, Any] = {'perceivable': see}
        if s is not None:
            entry.update(s.to_json())
            entry['said'] = describe(phrase.sentence(fact), s, see)
        out.append(entry)
    body['support'] = out
