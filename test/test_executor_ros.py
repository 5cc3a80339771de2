# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""PoolExecutor over real DDS: a burst is served without queueing any task twice."""

from __future__ import annotations

import threading
import time

import pytest

from . import ros_fixtures  # noqa: F401 (first: it isolates the ROS domain)

pytestmark = pytest.mark.ros

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup  # noqa: E402
from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from rclpy.node import Node  # noqa: E402
from std_msgs.msg import String  # noqa: E402

from l3mp_ros.nodes.common import COMMAND_QOS  # noqa: E402
from l3mp_ros.nodes.executor import PoolExecutor  # noqa: E402

BURST = 300


class Counter(Node):
    """Two subscriptions in two callback groups (like the world model's writes and reads)."""

    def __init__(self) -> None:
        super().__init__('pool_counter')
        self.got = {'a': 0, 'b': 0}
        self.lock = threading.Lock()
        for topic in self.got:
            self.create_subscription(String, f'pool_{topic}', self._count(topic), COMMAND_QOS,
                                     callback_group=MutuallyExclusiveCallbackGroup())

    def _count(self, topic: str):
        def cb(msg: String) -> None:
            time.sleep(0.001)  # some work, as a callback does
            with self.lock:
                self.got[topic] += 1
        return cb


def serve_burst(executor: MultiThreadedExecutor) -> Counter:
    counter = Counter()
    sender = Node('pool_sender')
    pubs = {t: sender.create_publisher(String, f'pool_{t}', COMMAND_QOS) for t in counter.got}
    executor.add_node(counter)
    spin = threading.Thread(target=executor.spin, daemon=True)
    spin.start()
    try:
        end = time.monotonic() + 10
        while any(p.get_subscription_count() == 0 for p in pubs.values()):
            assert time.monotonic() < end, 'the counter never subscribed'
            time.sleep(0.05)
        for i in range(BURST):
            for pub in pubs.values():
                pub.publish(String(data=str(i)))
        end = time.monotonic() + 120  # a bound for a stuck executor, not a timing assertion
        while min(counter.got.values()) < BURST and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        executor.shutdown(timeout_sec=2.0)
        spin.join(5.0)
        counter.destroy_node()
        sender.destroy_node()
    return counter


def test_a_burst_is_served_and_no_task_is_queued_twice(ros_context):
    executor = PoolExecutor(num_threads=4)
    counter = serve_burst(executor)
    assert counter.got == {'a': BURST, 'b': BURST}
    # one task per message, plus the node's own (parameter services, guards): rclpy's
    # MultiThreadedExecutor queues the same waiting task again on every spin (thousands)
    assert executor.submitted <= 2 * BURST + 50, executor.submitted


def test_a_callback_exception_surfaces_in_spin_as_in_rclpy(ros_context):
    node = Node('pool_raiser')
    node.create_timer(0.01, lambda: 1 / 0)
    executor = PoolExecutor(num_threads=2)
    executor.add_node(node)
    try:
        with pytest.raises(ZeroDivisionError):
            end = time.monotonic() + 10
            while time.monotonic() < end:
                executor.spin_once(timeout_sec=0.1)
    finally:
        executor.shutdown(timeout_sec=2.0)
        node.destroy_node()


def _racing_executor(shut: bool):
    """A PoolExecutor on its own context whose wait fails as when a signal lands mid-spin."""
    import rclpy
    import rclpy.context
    ctx = rclpy.context.Context()
    rclpy.init(context=ctx)
    node = Node('pool_racer', context=ctx)
    executor = PoolExecutor(num_threads=2, context=ctx)
    executor.add_node(node)
    real = executor.wait_for_ready_callbacks

    def racing(*args, **kwargs):
        if shut:  # SIGTERM's handler shuts the context down after spin's ok() check
            ctx.shutdown()
            return real(*args, **kwargs)  # rcl: "the given context is not valid"
        raise RuntimeError('a wait set failure with the context alive')
    executor.wait_for_ready_callbacks = racing
    return ctx, node, executor


def test_a_shutdown_racing_the_wait_set_ends_spin_quietly():
    # bringup exited 2 on SIGTERM when the signal landed between the spin loop's check
    # and the wait set's creation (seen in a loaded CI run)
    ctx, node, executor = _racing_executor(shut=True)
    try:
        done = threading.Event()
        thread = threading.Thread(target=lambda: (executor.spin(), done.set()), daemon=True)
        thread.start()
        thread.join(timeout=10)
        assert done.is_set() and not ctx.ok()
    finally:
        node.destroy_node()
        ctx.try_shutdown()


def test_a_wait_set_failure_with_the_context_alive_still_raises():
    ctx, node, executor = _racing_executor(shut=False)
    try:
        with pytest.raises(RuntimeError, match='context alive'):
            executor.spin_once(timeout_sec=0.1)
    finally:
        executor.shutdown(timeout_sec=2.0)
        node.destroy_node()
        ctx.try_shutdown()
