# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Floor-plan geometry on the (x, z) plane (AI2-THOR rooms): point in polygon, distances."""

from __future__ import annotations

import math


def point_in_polygon(x: float, z: float, polygon: list[tuple[float, float]]) -> bool:
    """Return True when (x, z) lies inside the polygon (even-odd rule, edges inside)."""
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, z1), (x2, z2) = polygon[i], polygon[(i + 1) % n]
        if _on_segment(x, z, x1, z1, x2, z2):
            return True
        if (z1 > z) != (z2 > z):
            cross = x1 + (z - z1) * (x2 - x1) / (z2 - z1)
            if x < cross:
                inside = not inside
    return inside


def _on_segment(x: float, z: float, x1: float, z1: float, x2: float, z2: float) -> bool:
    return segment_distance(x, z, x1, z1, x2, z2) < 1e-9


def segment_distance(x: float, z: float, x1: float, z1: float, x2: float, z2: float) -> float:
    """Return the distance from (x, z) to the segment (x1, z1)-(x2, z2)."""
    dx, dz = x2 - x1, z2 - z1
    length2 = dx * dx + dz * dz
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - x1) * dx + (z - z1) * dz) / length2))
    return math.hypot(x - (x1 + t * dx), z - (z1 + t * dz))
