# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The wire formats: every ROS message payload is built, parsed and validated here.

Builders (one per format; each returns a JSON-ready dict carrying its ``schema`` id):
:func:`plan`, :func:`event`, :func:`error_event`, :func:`kg_update`, :func:`kg_query`,
:func:`kg_query_result`, :func:`scene_graph`, :func:`execution_feedback`.
test/test_schemas.py validates what each builds against its JSON schema.

``loads(text)`` parses a payload with its size and nesting bounded before the parser
sees it (``WireError`` otherwise: never a ``RecursionError``).
``validate('scene_graph', data)`` returns a list of sentences (empty: valid). Names:
``scene_graph``, ``plan``, ``event``, ``execution_feedback``, ``kg_update``,
``kg_query``, ``kg_query_result`` (files ``<name>.v1.json``, JSON schema draft 2020-12).

This module imports nothing else of the package (the world model builds its messages
with it), and jsonschema only when a payload needs the full check.
"""

from __future__ import annotations

import json
import re
import time as _time
import uuid
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

NAMES = ('scene_graph', 'plan', 'event', 'execution_feedback', 'kg_update', 'kg_query',
         'kg_query_result')
SCHEMA_IDS = {name: f'l3mp/{name}/v1' for name in NAMES}
PLAN_SCHEMA = SCHEMA_IDS['plan']
EVENT_SCHEMA = SCHEMA_IDS['event']
KG_UPDATE_SCHEMA = SCHEMA_IDS['kg_update']
KG_QUERY_RESULT_SCHEMA = SCHEMA_IDS['kg_query_result']
SCENE_GRAPH_SCHEMA = SCHEMA_IDS['scene_graph']
FEEDBACK_SCHEMA = SCHEMA_IDS['execution_feedback']
#: an entity, predicate or type name (PDDL: a letter, then letters, digits, ``_``, ``-``)
PDDL_NAME = re.compile(r'[A-Za-z][A-Za-z0-9_-]*\Z')
MAX_ERRORS = 10
MAX_BYTES = 4_000_000  # the largest payload any input topic or file accepts
MAX_DEPTH = 32  # the deepest nesting of arrays/objects (our formats need at most 5)


class WireError(ValueError):
    """A payload that is not JSON, too large or too deeply nested."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r'[\[\]{}]')


def nesting(text: str, limit: int = MAX_DEPTH) -> int:
    """Return the nesting depth of JSON text, stopping as soon as it exceeds ``limit``."""
    depth = deepest = 0
    for b in _BRACKET.findall(_STRING.sub('', text)):
        depth += 1 if b in '[{' else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def loads(text: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
          what: str = 'message') -> object:
    """Parse JSON text bounded in size and depth; raise :class:`WireError` with the reason."""
    if isinstance(text, bytes):
        text = text.decode('utf-8', errors='replace')
    if not isinstance(text, str):
        raise WireError(f'{what} is not text')
    if len(text) > max_bytes:
        raise WireError(f'{what} of {len(text)} bytes exceeds {max_bytes}')
    if nesting(text, max_depth) > max_depth:
        raise WireError(f'{what} nests deeper than {max_depth} levels')
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise WireError(f'not JSON: {exc}') from None
    except (RecursionError, ValueError) as exc:  # a bound the scan did not foresee
        raise WireError(f'{what} cannot be parsed: {exc}') from None


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    if name not in NAMES:
        raise KeyError(f'unknown schema {name!r} (known: {", ".join(NAMES)})')
    path = Path(__file__).resolve().parent / f'{name}.v1.json'
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema(name: str) -> dict:
    """Return the JSON schema named ``name``."""
    return _validator(name).schema


def _where(path: object) -> str:
    parts = ''.join(f'[{p}]' if isinstance(p, int) else f'.{p}' for p in path)
    return parts.lstrip('.') or '(message)'


def _name(x: object) -> bool:
    return isinstance(x, str) and len(x) <= 200 and PDDL_NAME.match(x) is not None


def _fast_scene_graph(d: object) -> bool:
    """Return True only for data the scene_graph schema accepts (the common, valid case).

    jsonschema needs tens of milliseconds for a 200-object frame; this check needs a few.
    Anything it does not accept goes through jsonschema, which words the errors.
    """
    if not isinstance(d, dict) or d.get('schema') != 'l3mp/scene_graph/v1':
        return False
    if not set(d) >= {'entities', 'facts', 'observed'}:
        return False
    stamp = d.get('stamp', 0.0)
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
        return False
    if not all(isinstance(d.get(k, ''), str) for k in ('source', 'frame_id')):
        return False
    ents, facts, observed = d['entities'], d['facts'], d['observed']
    if not (isinstance(ents, list) and isinstance(facts, list) and isinstance(observed, list)):
        return False
    for e in ents:
        if not isinstance(e, dict) or not _name(e.get('name')) or not _name(e.get('type')):
            return False
    for f in facts:
        if not isinstance(f, list) or len(f) < 3 or not all(
                isinstance(x, str) and 1 <= len(x) <= 200 for x in f):
            return False
    if not all(_name(o) for o in observed) or len(set(observed)) != len(observed):
        return False
    return True


_FAST = {'scene_graph': _fast_scene_graph}


def validate(name: str, data: object) -> list[str]:
    """Return readable schema violations of ``data`` (at most ``MAX_ERRORS``)."""
    fast = _FAST.get(name)
    if fast is not None and fast(data):
        return []
    errors = sorted(_validator(name).iter_errors(data), key=lambda e: list(e.absolute_path))
    out = []
    for err in errors[:MAX_ERRORS]:
        msg = err.message
        if len(msg) > 160:
            msg = msg[:157] + '...'
        out.append(f'{_where(err.absolute_path)}: {msg}')
    if len(errors) > MAX_ERRORS:
        out.append(f'... and {len(errors) - MAX_ERRORS} more schema errors')
    return out


def loads_object(text: str | bytes, **bounds: int) -> dict:
    """Parse like :func:`loads` and require a JSON object (``WireError`` otherwise)."""
    data = loads(text, **bounds)
    if not isinstance(data, dict):
        raise WireError('expected a JSON object')
    return data


def parse(name: str, text: str) -> tuple[dict | None, list[str]]:
    """Parse JSON text and validate it; return ``(data or None, errors)``."""
    try:
        data = loads(text)
    except WireError as exc:
        return None, [str(exc)]
    errors = validate(name, data)
    return (data if not errors else None), errors


# -- builders ------------------------------------------------------------------------
def _entities(new_entities: Mapping[str, str] | None) -> list[dict[str, str]]:
    return [{'name': n, 'type': t} for n, t in sorted((new_entities or {}).items())]


def plan(*, status: str, task_id: str | None = None, utterance: str | None = None,
         goal: str = '', steps: Iterable[str] = (), engine: str = '',
         timings: Mapping[str, float] | None = None, widening: str | None = None,
         problem_size: Mapping[str, int] | None = None, errors: Iterable[str] = (),
         unsolvable_proven: bool | None = None, attempts: int | Iterable[dict] = (),
         **extra: Any) -> dict[str, Any]:
    """Return a ``plan/v1`` body; ``extra`` adds the optional fields (tokens, revision...).

    ``attempts``: the planner's attempts (widening steps) or, for an NL task, the number
    of LLM attempts.
    """
    body = {'schema': PLAN_SCHEMA, 'task_id': task_id, 'utterance': utterance, 'goal': goal,
            'steps': list(steps), 'status': status, 'engine': engine,
            'timings': dict(timings or {}), 'widening': widening,
            'problem_size': dict(problem_size or {}), 'errors': list(errors),
            'unsolvable_proven': unsolvable_proven,
            'attempts': attempts if isinstance(attempts, int) else list(attempts)}
    body.update(extra)
    return body


def event(*, id: int | None, time: float, source: str, status: str,
          utterance: str | None = None, diff: dict | None = None,
          new_entities: Mapping[str, str] | None = None, errors: Iterable[str] = (),
          info: dict | None = None, **extra: Any) -> dict[str, Any]:
    """Return an ``event/v1`` body of the event log (``request_id`` from ``info``)."""
    info = dict(info or {})
    body = {'schema': EVENT_SCHEMA, 'id': id, 'time': time, 'source': source,
            'status': status, 'utterance': utterance, 'diff': diff,
            'new_entities': _entities(new_entities), 'errors': list(errors), 'info': info,
            'request_id': info.get('request_id')}
    body.update(extra)
    return body


def error_event(source: str, errors: Iterable[str], *, utterance: str | None = None,
                topic: str | None = None, request_id: str | None = None) -> dict[str, Any]:
    """Return an ``event/v1`` for input that never became an update."""
    return event(id=None, time=_time.time(), source=source, status='error',
                 utterance=utterance, errors=errors, request_id=request_id,
                 topic=topic or source)


def kg_update(diff: dict | None, *, source: str, utterance: str | None,
              new_entities: Mapping[str, str] | None = None, verify: bool = True,
              info: dict | None = None, errors: Iterable[str] = (),
              request_id: str | None = None) -> dict[str, Any]:
    """Return a ``kg_update/v1`` body (an update, or a rejection when ``errors`` is set)."""
    return {'schema': KG_UPDATE_SCHEMA, 'request_id': request_id or uuid.uuid4().hex,
            'source': source, 'utterance': utterance, 'diff': diff,
            'new_entities': _entities(new_entities), 'verify': verify, 'info': info or {},
            'errors': list(errors)}


def kg_query_result(request_id: str | None, *, facts: Iterable[Iterable[str]] = (),
                    entities: Mapping[str, str] | None = None, count: int = 0,
                    truncated: bool = False, errors: Iterable[str] = (),
                    last_event_id: int | None = None) -> dict[str, Any]:
    """Return a ``kg_query_result/v1`` body (facts as triplets)."""
    errors = list(errors)
    return {'schema': KG_QUERY_RESULT_SCHEMA, 'request_id': request_id, 'ok': not errors,
            'errors': errors, 'facts': [list(f) for f in facts],
            'entities': dict(entities or {}), 'count': count, 'truncated': truncated,
            'last_event_id': last_event_id}


def kg_query(request_id: str, *, entity: str | None = None,
             pattern: Iterable[str | bool | None] | None = None, snapshot: bool = False,
             limit: int | None = None) -> dict[str, Any]:
    """Return a ``kg_query/v1`` body: one of ``entity``, ``pattern`` or ``snapshot``."""
    body: dict[str, Any] = {'schema': SCHEMA_IDS['kg_query'], 'request_id': request_id}
    if entity is not None:
        body['entity'] = entity
    if pattern is not None:
        body['pattern'] = list(pattern)
    if snapshot:
        body['snapshot'] = True
    if limit is not None:
        body['limit'] = limit
    return body


def scene_graph(*, source: str, entities: Iterable[Mapping[str, Any]],
                facts: Iterable[Iterable[str]], observed: Iterable[str],
                stamp: float | None = None, **extra: Any) -> dict[str, Any]:
    """Return a ``scene_graph/v1`` body (entities as ``{name, type}``; ``extra``: frame_id)."""
    body = {'schema': SCENE_GRAPH_SCHEMA, 'stamp': float(_time.time() if stamp is None else stamp),
            'source': source, 'entities': [dict(e) for e in entities],
            'facts': [list(f) for f in facts], 'observed': list(observed)}
    body.update(extra)
    return body


def execution_feedback(task_id: str, step: int, status: str, *, revision: int | None = None,
                       action: str | None = None, message: str | None = None,
                       ) -> dict[str, Any]:
    """Return an ``execution_feedback/v1`` body (``status``: started, succeeded, failed)."""
    body: dict[str, Any] = {'schema': FEEDBACK_SCHEMA, 'task_id': task_id, 'step': step,
                            'status': status}
    optional = {'revision': revision, 'action': action, 'message': message}
    body.update({k: v for k, v in optional.items() if v is not None})
    return body
