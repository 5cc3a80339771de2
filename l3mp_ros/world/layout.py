# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Where each entity of the KG is drawn (RViz markers of ``kg/markers``), no ROS."""

from __future__ import annotations

from collections import deque

from .domain import DomainSchema
from .kg import KnowledgeGraph

ROOM_SPACING = 8.0
ITEM_SPACING = 1.2


def marker_layout(kg: KnowledgeGraph, room_type: str = 'room',
                  domain: DomainSchema | None = None,
                  ) -> tuple[list[tuple[str, str, str, tuple[float, float, float]]],
                             list[tuple[str, str, str]]]:
    """Lay the KG out for RViz: entities grouped by room, binary facts as lines.

    Returns ``(entities, lines)``: ``(name, type, room, (x, y, z))`` per entity and
    ``(subject, predicate, object)`` per binary fact. An entity belongs to the nearest room
    through facts (breadth-first); rooms sit on a row, their entities on a grid around them.
    """
    def is_room(t: str) -> bool:
        return t == room_type or (domain is not None and domain.is_subtype(t, room_type))

    rooms = sorted(n for n, t in kg.entities.items() if is_room(t))
    home: dict[str, str] = {r: r for r in rooms}
    frontier = deque(rooms)
    while frontier:
        n = frontier.popleft()
        for f in kg.facts_of(n):
            for a in f.args:
                if a not in home:
                    home[a] = home[n]
                    frontier.append(a)
    groups: dict[str, list[str]] = {r: [] for r in rooms}
    groups['(no room)'] = []
    for name in sorted(kg.entities):
        if name not in rooms:
            groups[home.get(name, '(no room)')].append(name)
    out: list[tuple[str, str, str, tuple[float, float, float]]] = []
    for i, (room, members) in enumerate(groups.items()):
        x0 = i * ROOM_SPACING
        if room in kg.entities:
            out.append((room, kg.entities[room], room, (x0, 0.0, 2.0)))
        side = max(1, int(len(members) ** 0.5 + 0.999))
        for j, name in enumerate(members):
            x = x0 + (j % side - side / 2) * ITEM_SPACING
            y = (j // side + 1) * ITEM_SPACING
            out.append((name, kg.entities[name], room, (x, y, 0.5)))
    lines = [(f.args[0], f.predicate, f.args[1]) for f in sorted(kg.facts) if len(f.args) == 2]
    return out, lines
