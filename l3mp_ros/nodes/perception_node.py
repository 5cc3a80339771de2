# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""perception_node: a raw scene-graph stream → ``scene_graph`` for the world model.

A camera pipeline may publish ``perception/scene_graph`` at frame rate. This node checks
each frame against the ``scene_graph/v1`` schema (bad frames become ``error`` events),
keeps only the newest frame, forwards at most ``max_rate`` Hz and skips frames that say
nothing new (re-sending an unchanged view once a second). The world model does the rest.
``max_rate`` and ``max_scene_entities`` can be changed live.
Sources that already publish at a sane rate (the AI2-THOR bridge) publish on
``scene_graph`` directly.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from rclpy.node import Node
from std_msgs.msg import String

from ..config import PERCEPTION, checked, node_parameters
from ..schemas import WireError, error_event, loads, validate
from ..world.perceive import FrameGate
from .common import (
    COMMAND_QOS,
    STREAM_QOS,
    declare,
    live_parameters,
    publish_json,
    restart_timer,
    run,
)


class PerceptionNode(Node):
    """Validate, throttle and de-duplicate scene graphs."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('perception', **kwargs)
        params = declare(self, node_parameters(PERCEPTION))
        self.limit = int(params['max_scene_entities'])
        rate = max(float(params['max_rate']), 0.1)
        self.gate = FrameGate(rate)
        self.out = self.create_publisher(String, 'scene_graph', STREAM_QOS)
        self.events_pub = self.create_publisher(String, 'events', COMMAND_QOS)
        self.create_subscription(String, 'perception/scene_graph', self._on_frame, STREAM_QOS)
        self.timer = self.create_timer(1.0 / rate, self._flush)
        live_parameters(self, params, {
            'max_rate': checked(lambda v: v >= 0.1, 'at least 0.1 Hz', self._set_rate),
            'max_scene_entities': checked(lambda v: v > 0, 'a positive count',
                                          lambda v: setattr(self, 'limit', int(v)))})

    def _set_rate(self, value: float) -> None:
        self.gate.period = 1.0 / value
        self.timer = restart_timer(self, self.timer, value, self._flush)

    def _on_frame(self, msg: String) -> None:
        try:
            data = loads(msg.data)
            size = max(len(data.get('entities') or []), len(data.get('observed') or [])) \
                if isinstance(data, dict) else 0
            errors = ([f'scene graph too large: {size} entities (limit {self.limit})']
                      if size > self.limit else validate('scene_graph', data))
        except WireError as exc:
            errors = [str(exc)]
        except Exception as exc:
            errors = [f'internal error: {exc!r}']
        if errors:
            publish_json(self.events_pub, error_event('perception', errors,
                                                      topic='perception/scene_graph'))
            return
        self.gate.offer(data)

    def _flush(self) -> None:
        frame = self.gate.take(time.monotonic())
        if frame is not None:
            publish_json(self.out, frame)


def main(args: list[str] | None = None) -> int:
    """Run the perception node."""
    return run(PerceptionNode, args, name='perception_node')


if __name__ == '__main__':
    sys.exit(main())
