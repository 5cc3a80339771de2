# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""world_model_node: the KG's writer on the ROS graph (a managed node).

Applies ``scene_graph`` and ``kg_update`` one at a time through :class:`WorldModel`;
every applied, rejected or malformed input goes out on ``events``, the KG on
``kg/markers`` (``markers_rate`` Hz); ``kg_query`` is answered on ``kg_query_result``;
services ``save_snapshot``, ``kg_stats``, ``kg_snapshot`` (std_srvs/Trigger). Commits of
other writers are picked up (``store_poll`` s for SQLite, pushed by PostgreSQL). The
logic is :class:`~l3mp_ros.world.inputs.WorldInputs`; configure opens the store.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from std_msgs.msg import String
from std_srvs.srv import Trigger
from visualization_msgs.msg import MarkerArray

from ..compose import open_world
from ..config import WORLD, Config, checked, node_parameters
from ..world.inputs import StoreFollower, WorldInputs
from ..world.model import ApplyResult, WorldModel
from .common import COMMAND_QOS, LATCHED_QOS, STREAM_QOS, guarded, publish_json, run
from .common import trigger_answer as answer
from .managed import ManagedNode
from .markers import kg_markers


class WorldModelNode(ManagedNode):
    """Owns the :class:`WorldModel`; everything else reads or asks."""

    def __init__(self, world: WorldModel | None = None, **kwargs: Any) -> None:
        super().__init__('world_model', node_parameters(WORLD), **kwargs)
        self._given = world
        self._dirty = threading.Event()
        self.start()

    def configure(self) -> None:
        """Open the store (or take the given world model) and the publishers."""
        self.world = self._given or open_world(Config.from_params(self.params),
                                               writer=self.get_fully_qualified_name())
        self.inputs = WorldInputs(self.world, self.params)
        self.events_pub = self.publisher('events', COMMAND_QOS)
        self.markers_pub = self.publisher('kg/markers', LATCHED_QOS, MarkerArray)
        self.query_pub = self.publisher('kg_query_result', COMMAND_QOS)
        self.world.listeners.append(self._on_applied)
        self.follower = StoreFollower(self.world, self.get_logger().error)
        self.get_logger().info(f'world model: {len(self.world.kg)} facts, store '
                               f'{self.params["store"] or "(memory)"}')

    def activate(self) -> None:
        """Open the inputs, the marker timer and the store follower."""
        writes = MutuallyExclusiveCallbackGroup()  # one update at a time
        reads = MutuallyExclusiveCallbackGroup()  # snapshots: never blocked by a long write
        self.subscribe('scene_graph', self._on_scene_graph, STREAM_QOS, callback_group=writes)
        self.subscribe('kg_update', self._on_kg_update, COMMAND_QOS, callback_group=writes)
        self.subscribe('kg_query', self._on_query, COMMAND_QOS, callback_group=reads)
        for name, fn, group in (
                ('save_snapshot', self.inputs.save_snapshot, writes),
                ('kg_stats', lambda: (True, self.inputs.stats()), writes),
                ('kg_snapshot', lambda: (True, self.world.snapshot().dumps()), reads)):
            self.service(Trigger, name, lambda q, r, fn=fn: answer(r, fn),
                         callback_group=group)
        self._markers_timer = self.timer(
            1.0 / max(float(self.params['markers_rate']), 0.01), self._publish_markers)
        self._dirty.set()
        if not self.follower.start() and float(self.params['store_poll']) > 0 \
                and self.world.store is not None:  # SQLite: look every store_poll s
            self.timer(float(self.params['store_poll']), self.follower.refresh,
                       callback_group=writes)

    def on_deactivate(self, state: Any) -> Any:
        """Stop following the store, then close the inputs."""
        self.follower.stop()
        return super().on_deactivate(state)

    def release(self) -> None:
        """Stop listening to the world model; close it when this node opened it."""
        self.follower.stop()
        if self._on_applied in self.world.listeners:
            self.world.listeners.remove(self._on_applied)
        if self._given is None:
            self.world.close()

    def setters(self) -> dict[str, Any]:
        """Perception config, scene size and marker settings change live."""
        def rate(v: float) -> None:
            if self.state == 'active':
                self.destroy_timer(self._markers_timer)
                self._markers_timer = self.timer(1.0 / v, self._publish_markers)
        return {'perception_config': self.inputs.set_perception,
                'max_scene_entities': checked(lambda v: v > 0, 'a positive count',
                                              lambda v: None),  # read per message
                'markers_rate': checked(lambda v: v > 0, 'a positive rate (Hz)', rate),
                'markers_frame': checked(lambda v: isinstance(v, str), 'a frame name',
                                         lambda v: self._dirty.set())}

    def _on_applied(self, eid: int | None, result: ApplyResult) -> None:
        try:
            publish_json(self.events_pub, self.inputs.event(eid, result))
        except Exception as exc:  # a listener must not break the writer
            self.get_logger().error(f'cannot publish event {eid}: {exc}')
        if result.applied:
            self._dirty.set()

    def _errors(self, bodies: list[dict]) -> None:
        for body in bodies:
            self.get_logger().warning(f'{body.get("topic")}: ' + '; '.join(body['errors'])[:300])
            publish_json(self.events_pub, body)

    @guarded('scene_graph')
    def _on_scene_graph(self, msg: String) -> None:
        self._errors(self.inputs.scene_graph(msg.data))

    @guarded('kg_update')
    def _on_kg_update(self, msg: String) -> None:
        self._errors(self.inputs.kg_update(msg.data))

    @guarded('kg_query')
    def _on_query(self, msg: String) -> None:
        body, errors = self.inputs.query(msg.data)
        self._errors(errors)
        if body is not None:
            publish_json(self.query_pub, body)

    def _publish_markers(self) -> None:
        if not self._dirty.is_set() or self.markers_pub.get_subscription_count() == 0:
            return
        self._dirty.clear()
        try:
            self.markers_pub.publish(kg_markers(self.world.snapshot(), self.world.domain,
                                                str(self.params['markers_frame']),
                                                self.get_clock().now().to_msg()))
        except Exception as exc:
            self.get_logger().error(f'cannot publish markers: {exc!r}')


def main(args: list[str] | None = None) -> int:
    """Run the world model node."""
    return run(WorldModelNode, args, name='world_model_node')


if __name__ == '__main__':
    sys.exit(main())
