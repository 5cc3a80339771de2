# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The query graph of R^S (paper Algorithm 1, line 1): what the LLM reads out of a request.

A :class:`QueryGraph` holds *ungrounded* entity descriptions ("red pen", "Jerry's
bedroom") and relations between them by node index. :meth:`QueryGraph.from_json` reads
the LLM's JSON tolerantly (fences and prose around it, alternative key names, endpoints
as indices or entity strings); :data:`QUERY_GRAPH_SCHEMA` is the structured-output schema
the request asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

QUERY_GRAPH_SCHEMA: dict[str, Any] = {
    'type': 'object',
    'properties': {
        'entities': {'type': 'array', 'items': {'type': 'string'}},
        'relations': {
            'type': 'array',
            'items': {
                'type': 'array',
                'items': {'anyOf': [{'type': 'integer'}, {'type': 'string'}]},
                'minItems': 3,
                'maxItems': 3,
            },
        },
    },
    'required': ['entities', 'relations'],
    'additionalProperties': False,
}

_ENTITY_KEYS = ('entities', 'nodes')
_RELATION_KEYS = ('relations', 'edges', 'relationships')
_NAME_KEYS = ('name', 'description', 'text', 'entity', 'label')
_SRC_KEYS = ('source', 'subject', 'from', 'head')
_REL_KEYS = ('relation', 'predicate', 'rel', 'type')
_DST_KEYS = ('target', 'object', 'to', 'tail')


class QueryGraphError(ValueError):
    """A malformed query graph (from the LLM or a file)."""


@dataclass
class QueryGraph:
    """Ungrounded entity descriptions and relations between them (by node index)."""

    nodes: list[str]
    edges: list[tuple[int, str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.nodes, list) or not all(
                isinstance(n, str) and n.strip() for n in self.nodes):
            raise QueryGraphError('query graph nodes must be a list of non-empty strings')
        self.nodes = [n.strip() for n in self.nodes]
        checked: list[tuple[int, str, int]] = []
        for k, edge in enumerate(self.edges):
            if not isinstance(edge, (tuple, list)) or len(edge) != 3:
                raise QueryGraphError(f'relation {k} must be (node, relation, node), got {edge!r}')
            a, rel, b = edge
            for end in (a, b):
                if isinstance(end, bool) or not isinstance(end, int) or not (
                        0 <= end < len(self.nodes)):
                    raise QueryGraphError(
                        f'relation {k} {list(edge)!r}: node {end!r} is not an index in '
                        f'0..{len(self.nodes) - 1}')
            if a == b:
                raise QueryGraphError(
                    f'relation {k} links entity {a} ({self.nodes[a]!r}) to itself')
            if not isinstance(rel, str):
                raise QueryGraphError(f'relation {k}: the relation must be a string, got {rel!r}')
            item = (a, rel.strip(), b)
            if item not in checked:
                checked.append(item)
        self.edges = checked

    @classmethod
    def from_json(cls, data: Any, *, add_missing: bool = True) -> QueryGraph:
        """Build from LLM output ``{"entities": [...], "relations": [[a, rel, b], ...]}``.

        Tolerates JSON text (fences, prose around it), ``nodes``/``edges`` as key names,
        entities written as ``{"name": ...}`` objects, relations as objects
        (``source``/``relation``/``target``), endpoints given as indices, digit strings or
        entity strings (matched case-insensitively). With ``add_missing`` an endpoint string
        that names no listed entity becomes a new node. Raises :class:`QueryGraphError`.
        """
        if isinstance(data, str):
            from l3mp_ros.llm.parse import extract_json

            parsed = extract_json(data)
            if parsed is None:
                raise QueryGraphError('the query graph is not JSON')
            data = parsed
        if isinstance(data, list):
            data = {'entities': data}
        if not isinstance(data, dict):
            raise QueryGraphError(
                'a query graph must be a JSON object {"entities": [...], "relations": [...]}')
        raw_nodes = next((data[k] for k in _ENTITY_KEYS if k in data), None)
        if not isinstance(raw_nodes, list):
            raise QueryGraphError('the query graph needs an "entities" list of strings')
        nodes: list[str] = []
        for k, item in enumerate(raw_nodes):
            if isinstance(item, dict):
                item = next((item[key] for key in _NAME_KEYS if isinstance(item.get(key), str)),
                            None)
            if not isinstance(item, str) or not item.strip():
                raise QueryGraphError(f'entity {k} must be a non-empty string, got {item!r}')
            nodes.append(item.strip())
        if not nodes:
            raise QueryGraphError('the query graph has no entities')
        raw_edges = next((data[k] for k in _RELATION_KEYS if k in data), None) or []
        if not isinstance(raw_edges, list):
            raise QueryGraphError('"relations" must be a list of [entity, relation, entity]')
        lookup = {n.lower(): i for i, n in reversed(list(enumerate(nodes)))}

        def endpoint(value: Any, k: int) -> int:
            if isinstance(value, bool):
                raise QueryGraphError(f'relation {k}: {value!r} is not an entity')
            if isinstance(value, int):
                if not 0 <= value < len(nodes):
                    raise QueryGraphError(
                        f'relation {k}: entity index {value} is out of range 0..{len(nodes) - 1}')
                return value
            if isinstance(value, str) and value.strip():
                key = value.strip().lower()
                if key in lookup:
                    return lookup[key]
                if key.isdigit():
                    return endpoint(int(key), k)
                if add_missing:
                    nodes.append(value.strip())
                    lookup[key] = len(nodes) - 1
                    return len(nodes) - 1
                raise QueryGraphError(f'relation {k}: {value!r} is not one of the entities')
            raise QueryGraphError(f'relation {k}: {value!r} is neither an index nor an entity')

        edges: list[tuple[int, str, int]] = []
        for k, rel in enumerate(raw_edges):
            if isinstance(rel, dict):
                parts = [next((rel[key] for key in keys if key in rel), None)
                         for keys in (_SRC_KEYS, _REL_KEYS, _DST_KEYS)]
            elif isinstance(rel, (list, tuple)) and len(rel) == 3:
                parts = list(rel)
            else:
                raise QueryGraphError(
                    f'relation {k} must be [entity, relation, entity], got {rel!r}')
            text = parts[1] if parts[1] is not None else ''
            if not isinstance(text, str):
                raise QueryGraphError(f'relation {k}: the relation must be a string, got {text!r}')
            edges.append((endpoint(parts[0], k), text, endpoint(parts[2], k)))
        return cls(nodes, edges)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"entities": [...], "relations": [[i, rel, j], ...]}``."""
        return {'entities': list(self.nodes), 'relations': [list(e) for e in self.edges]}
