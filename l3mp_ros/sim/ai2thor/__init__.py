# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""AI2-THOR support: perception as scene graphs, plan execution, a controller double."""

from l3mp_ros.sim.ai2thor.double import ControllerDouble, Event, default_scene, make_object_id
from l3mp_ros.sim.ai2thor.executor import PlanExecutor, StepError, feedback, parse_step
from l3mp_ros.sim.ai2thor.scene_graph import (
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
    'ControllerDouble',
    'Event',
    'PlanExecutor',
    'RoomIndex',
    'SceneGraphError',
    'SceneGraphExtractor',
    'StepError',
    'TypeMap',
    'default_scene',
    'direct_parents',
    'feedback',
    'make_object_id',
    'parse_literals',
    'parse_step',
]
