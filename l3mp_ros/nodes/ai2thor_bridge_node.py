# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""ai2thor_bridge_node: AI2-THOR (or its double) on the topics of a real robot.

Subscribes ``plan`` (plan/v1, transient-local) and executes its steps with
:class:`~l3mp_ros.ai2thor.executor.PlanExecutor` on a worker thread, one at a time:
``execution_feedback`` (execution_feedback/v1: ``started``, then ``succeeded`` or
``failed`` with the simulator's error) and the new frame's scene graph of the visible
objects on ``scene_graph`` (parameter ``scene_graph_topic``; ``perception/scene_graph``
when ``perception_node`` runs in front of the world model). After a succeeded step the
frame waits for the planner's progress echo on ``plan`` (at most 2 s), so the world model's
event is judged against the advanced plan; after a failed step the frame goes first, so
the re-plan sees it. A new plan (a re-plan: new
``revision``) preempts the running one between steps; ``done``/``failed``/``cancelled``
stops it. A first scene graph goes out once the world model listens (every object with
``initial_all_objects``), then one every ``scene_graph_period`` seconds while idle.
Parameters: :data:`~l3mp_ros.config.BRIDGE_PARAMETERS`. A managed node (:mod:`.managed`):
configure starts the controller (a failure, e.g. no AI2-THOR build, leaves the node
unconfigured), activate takes plans and publishes frames, cleanup stops the controller.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from std_msgs.msg import String

from .. import schemas
from ..ai2thor.bridge import (
    Offer,
    PlanTracker,
    build_controller,
    resolve_config,
)
from ..ai2thor.executor import PlanExecutor
from ..ai2thor.scene_graph import SceneGraphExtractor
from ..config import BRIDGE, node_parameters
from ..planning.status import Status
from ..schemas import WireError, loads, validate
from .common import COMMAND_QOS, PLAN_READER_QOS, STREAM_QOS, guarded, publish_json, run
from .managed import ManagedNode

ACK_TIMEOUT = 2.0  # seconds to wait for the planner's progress echo before the next frame
FRAME_SETTLE = 0.2  # seconds between a failed step's frame and its feedback


class Ai2ThorBridgeNode(ManagedNode):
    """Executes plans in AI2-THOR and reports what the robot sees."""

    def __init__(self, controller: Any = None, house: dict | None = None,
                 **kwargs: Any) -> None:
        super().__init__('ai2thor_bridge', node_parameters(BRIDGE), **kwargs)
        self._given = (controller, house)
        self.start()

    def configure(self) -> None:
        """Start (or take) the controller, the executor thread and the publishers."""
        controller, house = self._given
        if controller is None:
            controller, house = build_controller(self.params)
        elif house is None:
            house = getattr(controller, 'house', None)
        self.controller = controller
        self.lock = threading.RLock()  # the controller is not thread-safe
        self.extractor = SceneGraphExtractor(resolve_config(self.params['types_config']), house)
        self.executor_ = PlanExecutor(controller, self.extractor,
                                      all_objects=bool(self.params['all_objects']),
                                      approach=bool(self.params['approach']))
        self.tracker = PlanTracker()
        self.sg_pub = self.publisher(str(self.params['scene_graph_topic']), STREAM_QOS)
        self.fb_pub = self.publisher('execution_feedback', COMMAND_QOS)
        self._initial_sent = False
        self._last_frame = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name='ai2thor_bridge', daemon=True)
        self._thread.start()
        self.get_logger().info(
            f'AI2-THOR bridge: {type(controller).__name__}, '
            f'{len(controller.last_event.metadata.get("objects") or [])} objects')

    def activate(self) -> None:
        """Take plans; publish the first frame once the world model listens."""
        self._initial_sent = False
        self.subscribe('plan', self._on_plan, PLAN_READER_QOS)
        self.timer(0.25, self._tick)

    # -- scene graphs ---------------------------------------------------------------
    def publish_scene_graph(self, all_objects: bool | None = None) -> None:
        """Publish the scene graph of the current frame."""
        with self.lock:
            graph = self.extractor.extract(
                self.controller.last_event.metadata,
                all_objects=bool(self.params['all_objects'] if all_objects is None
                                 else all_objects))
        publish_json(self.sg_pub, graph)
        self._last_frame = time.monotonic()

    def _tick(self) -> None:
        try:
            if not self._initial_sent:
                if self.sg_pub.get_subscription_count() > 0:
                    self.publish_scene_graph(bool(self.params['initial_all_objects'])
                                             or None)
                    self._initial_sent = True
                return
            period = float(self.params['scene_graph_period'])
            if period > 0 and not self.tracker.busy() \
                    and time.monotonic() - self._last_frame >= period:
                self.publish_scene_graph()
        except Exception as exc:  # no exception escapes a callback
            self.get_logger().error(f'cannot publish a scene graph: {exc!r}')

    # -- plans ----------------------------------------------------------------------
    @guarded('plan')
    def _on_plan(self, msg: String) -> None:
        try:
            body = loads(msg.data)
            errors = validate('plan', body) if isinstance(body, dict) else ['not an object']
        except WireError as exc:
            errors = [str(exc)]
        if errors:
            self.get_logger().warning(f'ignoring a bad plan message: {errors[0]}')
            return
        what = self.tracker.offer(body)
        if what != Offer.IGNORED:
            self.get_logger().info(f'plan {body["task_id"]} r{body.get("revision", 0)} '
                                   f'{body["status"]}: {what}')

    def _feedback(self, task_id: str, revision: int, index: int, action: str, status: str,
                  message: str = '') -> None:
        publish_json(self.fb_pub, schemas.execution_feedback(
            task_id, index, status, revision=revision, action=action, message=message or None))

    def _publish_frame(self, graph: dict) -> None:
        publish_json(self.sg_pub, graph)
        self._last_frame = time.monotonic()

    def _run(self) -> None:
        while not self._stop.is_set():
            item = self.tracker.wait(0.2)
            if item is None:
                continue
            generation, job, index, step = item
            try:
                self._feedback(job.task_id, job.revision, index, step, Status.STARTED)
                with self.lock:
                    result = self.executor_.execute_step(step, index)
                ok = bool(result['success'])
                self.tracker.finished(generation, ok)
                if ok:
                    # the planner must count the step done before it sees the new frame, or
                    # the frame looks like a world where the plan's next step cannot run
                    self._feedback(job.task_id, job.revision, index, result['action'],
                                   Status.SUCCEEDED)
                    self.tracker.wait_ack(generation, index, ACK_TIMEOUT)
                    self._publish_frame(result['scene_graph'])
                else:
                    # a failure: the re-plan should see what the robot sees now
                    self._publish_frame(result['scene_graph'])
                    self._stop.wait(FRAME_SETTLE)
                    self._feedback(job.task_id, job.revision, index, result['action'],
                                   Status.FAILED, result['error'])
                    self.get_logger().warning(f'step {index} {step} failed: {result["error"]}')
            except Exception as exc:  # keep serving: report the step as failed
                self.tracker.finished(generation, False)
                self._feedback(job.task_id, job.revision, index, step, Status.FAILED,
                               f'bridge error: {exc!r}')
            delay = float(self.params['step_delay'])
            if delay > 0:
                self._stop.wait(delay)

    def release(self) -> None:
        """Stop the worker, then the controller."""
        self._stop.set()
        self.tracker.wake()
        self._thread.join(5.0)
        stop = getattr(self.controller, 'stop', None)
        if callable(stop):
            try:
                stop()
            except Exception as exc:
                self.get_logger().warning(f'cannot stop the controller: {exc!r}')


def main(args: list[str] | None = None) -> int:
    """Run the bridge; a bridge that cannot start exits 2 with one line."""
    return run(Ai2ThorBridgeNode, args, name='ai2thor_bridge_node')


if __name__ == '__main__':
    sys.exit(main())
