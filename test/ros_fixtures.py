# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers for tests over real DDS: an isolated ROS domain, a spinning executor, a probe.

Importing this module sets ``ROS_DOMAIN_ID`` (10..99, from the pytest process id) and
``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` before rclpy is initialised, so concurrent test
sessions on one machine do not see each other.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

os.environ['ROS_DOMAIN_ID'] = str(10 + os.getpid() % 90)
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'

import rclpy  # noqa: E402
from rclpy.node import Node  # noqa: E402
from std_msgs.msg import String  # noqa: E402

from l3mp_ros.nodes.common import COMMAND_QOS, PLAN_READER_QOS  # noqa: E402
from l3mp_ros.nodes.executor import PoolExecutor  # noqa: E402
from l3mp_ros.schemas import WireError, loads  # noqa: E402


class Probe(Node):
    """Publishes strings and records what arrives on the topics it listens to."""

    def __init__(self, name: str = 'probe', listen: tuple[str, ...] = ('events', 'plan', 'say'),
                 namespace: str = '') -> None:
        super().__init__(name, namespace=namespace)
        self.got: dict[str, list[str]] = defaultdict(list)
        self._lock = threading.Lock()
        self._pubs: dict[str, object] = {}
        self._subs: dict[str, object] = {}
        for topic in listen:
            qos = PLAN_READER_QOS if topic == 'plan' else COMMAND_QOS
            self._subs[topic] = self.create_subscription(String, topic, self._keep(topic), qos)

    def _keep(self, topic: str) -> Callable[[String], None]:
        def cb(msg: String) -> None:
            with self._lock:
                self.got[topic].append(msg.data)
        return cb

    def json(self, topic: str) -> list[dict]:
        """The messages on ``topic`` as JSON, skipping any no node could send (too deep)."""
        out = []
        with self._lock:
            for x in self.got[topic]:
                try:
                    out.append(loads(x))
                except WireError:
                    pass
        return out

    def publish(self, topic: str, data: str | dict, wait: float = 10.0) -> None:
        """Publish once a subscriber is matched (late joiners miss messages)."""
        if topic not in self._pubs:
            self._pubs[topic] = self.create_publisher(String, topic, COMMAND_QOS)
        pub = self._pubs[topic]
        end = time.monotonic() + wait
        while pub.get_subscription_count() == 0:
            if time.monotonic() > end:
                raise TimeoutError(f'nobody subscribes to {topic}')
            time.sleep(0.05)
        pub.publish(String(data=data if isinstance(data, str) else json.dumps(data)))

    def matched(self, topic: str, publishers: int = 1, wait: float = 60.0) -> None:
        """Return once ``topic``'s subscription is matched with ``publishers`` writers.

        Volatile topics (``events``) are lost to a reader another process has not yet
        discovered; a test that listens across processes waits for the match first.
        """
        sub = self._subs[topic]
        end = time.monotonic() + wait
        while sub.get_publisher_count() < publishers:
            if time.monotonic() > end:
                raise TimeoutError(f'{topic}: {sub.get_publisher_count()} of {publishers} '
                                   'publishers matched')
            time.sleep(0.05)

    def as_executor(self, wait: float = 10.0) -> None:
        """Publish on ``execution_feedback`` (the planner then sees an executor attached).

        Returns once the planner's subscription is matched, so the planner knows of it.
        """
        if 'execution_feedback' not in self._pubs:
            self._pubs['execution_feedback'] = self.create_publisher(
                String, 'execution_feedback', COMMAND_QOS)
        pub = self._pubs['execution_feedback']
        end = time.monotonic() + wait
        while pub.get_subscription_count() == 0:
            if time.monotonic() > end:
                raise TimeoutError('nobody subscribes to execution_feedback')
            time.sleep(0.05)

    def wait(self, pred: Callable[[], object], timeout: float = 20.0) -> object:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = pred()
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f'condition not met in {timeout} s; got {dict(self.got)}')

    def wait_json(self, topic: str, pred: Callable[[dict], bool],
                  timeout: float = 20.0) -> dict:
        """Return the first message on ``topic`` that satisfies ``pred``."""
        def find() -> dict | None:
            return next((m for m in self.json(topic) if pred(m)), None)
        return self.wait(find, timeout)


class Spinner:
    """A PoolExecutor (multi-threaded) spinning in a background thread."""

    def __init__(self) -> None:
        self.executor = PoolExecutor(num_threads=4)
        self.nodes: list[Node] = []
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        try:
            self.executor.spin()
        except Exception:  # executor shut down under us at teardown
            pass

    def add(self, node: Node) -> Node:
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def close(self) -> None:
        for node in reversed(self.nodes):
            self.executor.remove_node(node)
            node.destroy_node()
        self.nodes.clear()


@contextmanager
def ros_session() -> Iterator[None]:
    """Initialise rclpy for a block (the test module's fixture wraps this)."""
    rclpy.init()
    try:
        yield
    finally:
        rclpy.try_shutdown()


@contextmanager
def spinning() -> Iterator[Spinner]:
    """Yield a spinning executor; destroy its nodes afterwards."""
    sp = Spinner()
    try:
        yield sp
    finally:
        sp.close()
        sp.executor.shutdown(timeout_sec=2.0)
