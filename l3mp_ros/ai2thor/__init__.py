# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The robot-facing AI2-THOR adapter: perception as scene graphs, plan execution, the bridge.

The controller double (AI2-THOR's event metadata without Unity) is in
:mod:`l3mp_ros.ai2thor.double`; the paper's experiments in :mod:`l3mp_ros_bench.ai2thor`.
"""

from l3mp_ros.ai2thor.executor import PlanExecutor, StepError, feedback, parse_step
from l3mp_ros.ai2thor.scene_graph import (
    SCHEMA,
    RoomIndex,
    SceneGraphError,
    SceneGraphExtractor,
    TypeMap,
    direct_parents,
    parse_literals,
)

__all__ = [
    'SCHEMA',
    'PlanExecutor',
    'RoomIndex',
    'SceneGraphError',
    'SceneGraphExtractor',
    'StepError',
    'TypeMap',
    'direct_parents',
    'feedback',
    'parse_literals',
    'parse_step',
]
