# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""perception_node: a raw scene-graph stream → ``scene_graph`` for the world model.

A camera pipeline may publish ``perception/scene_graph`` at frame rate. This node checks
each frame against the ``scene_graph/v1`` schema (bad frames become ``error`` events),
keeps only the newest frame, forwards at most ``max_rate`` Hz and skips frames that say
nothing new (re-sending an unchanged view once a second). The world model does the rest.
``max_rate`` and ``max_scene_entities`` can be changed live. A managed node
(:mod:`.managed`).
Sources that already publish at a sane rate (the AI2-THOR bridge) publish on
``scene_graph`` directly.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from std_msgs.msg import String

from ..config import PERCEPTION, checked, node_parameters
from ..schemas import WireError, error_event, loads, validate
from ..world.perceive import FrameGate
from .common import COMMAND_QOS, STREAM_QOS, publish_json, run
from .managed import ManagedNode


class PerceptionNode(ManagedNode):
    """Validate, throttle and de-duplicate scene graphs."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('perception', node_parameters(PERCEPTION), **kwargs)
        self.start()

    def configure(self) -> None:
        """Read the limits; open the publishers."""
        self.limit = int(self.params['max_scene_entities'])
        self.rate = max(float(self.params['max_rate']), 0.1)
        self.gate = FrameGate(self.rate)
        self.out = self.publisher('scene_graph', STREAM_QOS)
        self.events_pub = self.publisher('events', COMMAND_QOS)

    def activate(self) -> None:
        """Take frames; forward the newest at most ``max_rate`` times a second."""
        self.subscribe('perception/scene_graph', self._on_frame, STREAM_QOS)
        self.flush_timer = self.timer(1.0 / self.rate, self._flush)

    def setters(self) -> dict[str, Any]:
        """``max_rate`` and ``max_scene_entities`` change live."""
        return {'max_rate': checked(lambda v: v >= 0.1, 'at least 0.1 Hz', self._set_rate),
                'max_scene_entities': checked(lambda v: v > 0, 'a positive count',
                                              lambda v: setattr(self, 'limit', int(v)))}

    def _set_rate(self, value: float) -> None:
        self.rate = value
        self.gate.period = 1.0 / value
        if self.state == 'active':
            self.destroy_timer(self.flush_timer)
            self.flush_timer = self.timer(1.0 / value, self._flush)

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
