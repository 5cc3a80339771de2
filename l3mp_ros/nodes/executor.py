# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A multi-threaded executor that hands each ready callback to the worker pool once.

rclpy's ``MultiThreadedExecutor`` (Jazzy, rclpy 7.1) yields a task again while it still
waits in the thread pool's queue for a worker (it is neither executing nor done), and
returns at once instead of waiting while such a task exists (ros2/rclpy#1452). Under a
burst of messages its spin thread loops at full speed, queues the same task thousands of
times and holds the GIL the workers need: 300 ``kg_update`` messages to the world model
took 49-60 s on a 2-core machine where the callbacks themselves took 0.3 s.

:class:`PoolExecutor` keeps the base executor's scheduling and queues a task only when it
is not already queued; while it is, the spin thread waits (at most ``REQUEUE_WAIT``
seconds, then looks again) for a worker to start it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rclpy.executors import (
    ConditionReachedException,
    ExternalShutdownException,
    MultiThreadedExecutor,
    ShutdownException,
    TimeoutException,
)
from rclpy.task import Task

REQUEUE_WAIT = 0.1  # seconds the spin thread waits for a queued task to start


class PoolExecutor(MultiThreadedExecutor):
    """``MultiThreadedExecutor`` whose thread pool never holds one task twice."""

    def __init__(self, num_threads: int | None = None, **kwargs: object) -> None:
        super().__init__(num_threads=num_threads, **kwargs)
        self._queued: set[Task] = set()
        self._queue_changed = threading.Condition()
        self.submitted = 0  # tasks handed to the pool (a measure for tests and benchmarks)

    def _start(self, task: Task) -> None:
        with self._queue_changed:
            self._queued.discard(task)
            self._queue_changed.notify_all()
        task()

    def _spin_once_impl(self, timeout_sec: float | None = None,
                        wait_condition: Callable[[], bool] = lambda: False) -> None:
        try:
            task, _, _ = self.wait_for_ready_callbacks(timeout_sec, None, wait_condition)
        except (ExternalShutdownException, ShutdownException, TimeoutException,
                ConditionReachedException):
            return
        except Exception:
            # a signal shut the context down between the spin loop's check and the wait
            # set's creation (rcl: "the given context is not valid"): that is a shutdown
            if not self._context.ok():
                return
            raise
        with self._queue_changed:
            if task in self._queued:  # still waiting for a worker: let one take it
                self._queue_changed.wait_for(lambda: task not in self._queued,
                                             timeout=REQUEUE_WAIT)
                return
            self._queued.add(task)
            self.submitted += 1
        self._executor.submit(self._start, task)
        if task not in self._futures:
            self._futures.append(task)
        for done in [f for f in self._futures if f.done()]:
            self._futures.remove(done)
            done.result()  # a callback's exception surfaces here, as in the base class
