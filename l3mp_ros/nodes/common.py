# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the nodes: parameters, QoS profiles, JSON topics, a worker, main()."""

from __future__ import annotations

import functools
import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import rclpy
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
from rclpy._rclpy_pybind11 import RCLError
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from ..config import NODE_PARAMETERS, Setter, plan_changes
from ..schemas import error_event
from ..world.replica import ReplicaError
from ..world.store import StoreError
from .executor import PoolExecutor

# commands, requests and their answers: reliable and KEEP_ALL on both sides, so a burst
# is never overwritten: when a reader falls behind, DDS flow control makes the writer wait
# (the backlog is bounded by the DDS resource limits, not by dropping messages)
COMMAND_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         history=HistoryPolicy.KEEP_ALL)
# streams (scene graphs): reliable but shallow, the newest frame matters
STREAM_QOS = QoSProfile(depth=5, reliability=ReliabilityPolicy.RELIABLE,
                        history=HistoryPolicy.KEEP_LAST)
# "latest state" topics (markers): late joiners get the last message
LATCHED_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         history=HistoryPolicy.KEEP_LAST,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
# plans (the planner's writer): late joiners get the newest 100 plan messages (the last
# one of a task is its latest state)
PLAN_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                      history=HistoryPolicy.KEEP_LAST,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)
# plans (a reader that needs every message, e.g. an executor): KEEP_ALL, so a reader that
# falls behind in a burst is not overwritten (a KEEP_LAST reader drops the oldest)
PLAN_READER_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             history=HistoryPolicy.KEEP_ALL,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)


def declare(node: Node, names: Iterable[str]) -> dict[str, Any]:
    """Declare parameters (default and description from the config); return their values."""
    values: dict[str, Any] = {}
    for name in names:
        default, description = NODE_PARAMETERS[name]
        node.declare_parameter(name, default, ParameterDescriptor(description=description))
        values[name] = node.get_parameter(name).value
    return values


def live_parameters(node: Node, params: dict[str, Any],
                    setters: dict[str, Setter]) -> Callable[[list[Any]], SetParametersResult]:
    """Apply parameter changes that can take effect live; refuse the others with a reason.

    A request is all or nothing: one refused parameter refuses the request. ``params`` is
    kept equal to the values in effect. Returns the callback (to remove it again).
    """
    def on_set(changed: list[Any]) -> SetParametersResult:
        request = {p.name: p.value for p in changed}
        todo, why = plan_changes(params, setters, request)
        if why is not None:
            node.get_logger().warning(f'parameter change refused: {why}')
            return SetParametersResult(successful=False, reason=why)
        for change in todo:
            change()
        params.update({k: v for k, v in request.items() if k in params})
        if todo:
            node.get_logger().info('parameters now in effect: ' + ', '.join(
                f'{k}={v!r}' for k, v in request.items() if k in params))
        return SetParametersResult(successful=True)

    node.add_on_set_parameters_callback(on_set)
    return on_set


def publish_json(pub: Any, body: dict) -> None:
    """Publish a dict as JSON on a std_msgs/String publisher."""
    pub.publish(String(data=json.dumps(body)))


def guarded(topic: str) -> Callable[[Callable[[Any, Any], None]],
                                    Callable[[Any, Any], None]]:
    """Decorate a node's subscription callback: nothing it raises escapes.

    An exception is logged and, when the node has an ``events_pub``, published as an
    error event naming ``topic``; the node goes on with the next message.
    """
    def wrap(fn: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
        @functools.wraps(fn)
        def callback(self: Any, msg: Any) -> None:
            try:
                fn(self, msg)
            except Exception as exc:  # the one place that catches everything
                why = f'internal error: {exc!r}'[:300]
                try:
                    self.get_logger().error(f'{topic}: {why}')
                    pub = getattr(self, 'events_pub', None)
                    if pub is not None:
                        publish_json(pub, error_event(self.get_name(), [why], topic=topic))
                except Exception:  # reporting must not raise either
                    pass
        return callback
    return wrap


def trigger_answer(response: Any, fn: Callable[[], tuple[bool, str]]) -> Any:
    """Fill a std_srvs/Trigger response from ``fn()``; an exception is a failed answer."""
    try:
        response.success, response.message = fn()
    except Exception as exc:
        response.success, response.message = False, str(exc)
    return response


def wait_for_subscriber(pub: Any, timeout: float, poll: float = 0.02) -> bool:
    """Wait until ``pub`` has a matched subscriber; False when ``timeout`` s passed first."""
    end = time.monotonic() + timeout
    while pub.get_subscription_count() == 0:
        if time.monotonic() > end:
            return False
        time.sleep(poll)
    return True


def publish_when_matched(pub: Any, body: dict, timeout: float = 10.0) -> None:
    """Publish once a subscriber is matched (a late joiner would miss the message)."""
    wait_for_subscriber(pub, timeout)
    publish_json(pub, body)


class Worker:
    """One thread and a FIFO queue: slow work (LLM, planner) off the executor thread.

    Jobs run in arrival order; an exception is reported through ``on_error`` and the
    worker goes on with the next job.
    """

    def __init__(self, name: str, on_error: Callable[[str, BaseException], None]) -> None:
        self._q: queue.Queue[tuple[str, Callable[[], None]] | None] = queue.Queue()
        self._on_error = on_error
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, label: str, job: Callable[[], None]) -> None:
        """Queue a job."""
        self._q.put((label, job))

    def pending(self) -> int:
        """Return the number of queued jobs."""
        return self._q.qsize()

    def _run(self) -> None:
        while True:
            item = self._q.get()
            if item is None:
                return
            label, job = item
            try:
                job()
            except Exception as exc:  # a job must never kill the worker
                self._on_error(label, exc)

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the queued jobs and stop."""
        self._q.put(None)
        self._thread.join(timeout)


def try_shutdown() -> None:
    """``rclpy.try_shutdown`` that loses its race with rclpy's signal thread quietly.

    On SIGINT rclpy's handler thread shuts the context down itself; when that lands between
    ``try_shutdown``'s ``ok()`` and its ``shutdown()``, rcl says it was "already called".
    The context is shut down either way, so the process still exits 0.
    """
    try:
        rclpy.try_shutdown()
    except RCLError as exc:
        if 'already called' not in str(exc):
            raise


# what a node's constructor raises for a setup it cannot start with (one line, exit 2)
STARTUP_ERRORS: tuple[type[BaseException], ...] = (ValueError, OSError, StoreError,
                                                   ReplicaError)


def run(make: Callable[[], Node], args: list[str] | None = None, name: str = '') -> int:
    """Jazzy-style main: init, spin one node (:class:`PoolExecutor`), destroy it, shut down.

    A node that cannot start (bad parameters, an unreadable file, a missing or refused
    store: :data:`STARTUP_ERRORS` from a constructor; or a managed node whose autostart
    configure failed) exits 2 with one line. A managed node without autostart waits,
    unconfigured, for a lifecycle manager. SIGINT while the node starts (its context shut
    down under a lifecycle transition: rcl's "context is invalid") is a clean exit too,
    wherever Python delivers its KeyboardInterrupt (even inside a handler below).
    """
    try:
        return _run(make, args, name)
    except KeyboardInterrupt:  # delivered late, inside an except or finally clause of _run
        try:
            try_shutdown()
        except KeyboardInterrupt:
            pass
        return 0


def _run(make: Callable[[], Node], args: list[str] | None, name: str) -> int:
    """:func:`run` without its last guard against a late KeyboardInterrupt."""
    try:
        rclpy.init(args=args)
        try:
            node = make()
        except STARTUP_ERRORS as exc:
            print(f'{name}: {exc}', file=sys.stderr)
            return 2
        if getattr(node, 'failure', None) and node.params.get('autostart'):
            print(f'{name}: {node.failure}', file=sys.stderr)
            node.destroy_node()
            return 2
        executor = PoolExecutor(num_threads=4)  # callback groups run side by side
        try:
            executor.add_node(node)
            executor.spin()
        finally:
            executor.shutdown(timeout_sec=2.0)
            node.destroy_node()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except RCLError:
        if rclpy.ok():  # not the context shut down under the node by SIGINT
            raise
    finally:
        try:
            try_shutdown()
        except KeyboardInterrupt:  # the SIGINT that shut the context down, delivered late
            pass
    return 0
