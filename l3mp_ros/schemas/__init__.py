# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""JSON schemas (draft 2020-12) of the ROS message payloads, with readable validation.

``loads(text)`` parses a payload with its size and nesting bounded before the parser
sees it (``WireError`` otherwise: never a ``RecursionError``).
``validate('scene_graph', data)`` returns a list of sentences (empty: valid). Names:
``scene_graph``, ``plan``, ``event``, ``execution_feedback``, ``kg_update``,
``kg_query``, ``kg_query_result``
(files ``<name>.v1.json``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from ..world.kg import PDDL_NAME

NAMES = ('scene_graph', 'plan', 'event', 'execution_feedback', 'kg_update', 'kg_query',
         'kg_query_result')
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
def _validator(name: str) -> Draft202012Validator:
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
