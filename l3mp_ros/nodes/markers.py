# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The KG as RViz markers: entities as text, facts as labelled lines (``kg/markers``)."""

from __future__ import annotations

from typing import Any

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import Point
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph
from ..world.layout import marker_layout


def _text(ns: str, i: int, text: str, frame: str, stamp: Any, at: Point, size: float,
          color: ColorRGBA) -> Marker:
    m = Marker(type=Marker.TEXT_VIEW_FACING, action=Marker.ADD, ns=ns, id=i, text=text,
               lifetime=Duration())
    m.header.frame_id, m.header.stamp = frame, stamp
    m.pose.position = at
    m.pose.orientation.w = 1.0
    m.scale.z = size
    m.color = color
    return m


def kg_markers(kg: KnowledgeGraph, domain: DomainSchema | None, frame: str,
               stamp: Any) -> MarkerArray:
    """Return the markers of ``kg`` laid out by :func:`marker_layout` (DELETEALL first)."""
    ents, lines = marker_layout(kg, domain=domain)
    out = MarkerArray()
    out.markers.append(Marker(action=Marker.DELETEALL))
    where: dict[str, Point] = {}
    white = ColorRGBA(r=1.0, g=1.0, b=1.0, a=1.0)
    for i, (name, type_, _, (x, y, z)) in enumerate(ents):
        where[name] = Point(x=x, y=y, z=z)
        out.markers.append(_text('entities', i, f'{name} ({type_})', frame, stamp,
                                 where[name], 0.4 if type_ != 'room' else 0.8, white))
    edges = Marker(type=Marker.LINE_LIST, action=Marker.ADD, ns='facts', id=0)
    edges.header.frame_id, edges.header.stamp = frame, stamp
    edges.pose.orientation.w = 1.0
    edges.scale.x = 0.02
    edges.color = ColorRGBA(r=0.3, g=0.7, b=1.0, a=0.8)
    label = ColorRGBA(r=0.6, g=0.85, b=1.0, a=0.9)
    for i, (a, pred, b) in enumerate(lines):
        if a in where and b in where:
            edges.points.extend([where[a], where[b]])
            mid = Point(x=(where[a].x + where[b].x) / 2, y=(where[a].y + where[b].y) / 2,
                        z=(where[a].z + where[b].z) / 2 + 0.1)
            out.markers.append(_text('fact_labels', i, pred, frame, stamp, mid, 0.2, label))
    out.markers.append(edges)
    return out
