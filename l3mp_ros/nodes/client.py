# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A small Python client of a running robot: send tasks and goals, follow, cancel, query.

In the style of nav2_simple_commander's ``BasicNavigator``: one object per robot (its
namespace is the constructor argument), blocking calls, typed results::

    import rclpy
    from l3mp_ros.nodes.client import L3mpClient, TaskResult

    rclpy.init()
    robot = L3mpClient(namespace='robot1')
    task = robot.send_goal('(light_on kitchen_light)')   # or robot.send_task('Turn on ...')
    while not robot.is_task_complete(task):
        print(robot.get_feedback(task).progress)         # a TaskStatus
    if robot.get_result(task) == TaskResult.SUCCEEDED:
        ...
    print(robot.query(entity='red_pen').facts)           # a KgAnswer
    robot.destroy()
    rclpy.shutdown()

The client spins its own node in a background thread, so its calls may block. It talks to
the nodes' topics and services (docs/ros.md): ``goal``/``task``/``cancel`` out, ``plan``
(every status of every task, KEEP_ALL, transient-local) and ``say`` in; ``kg_query`` →
``kg_query_result``; the ``tasks`` and ``confirm`` services. It is not an executor: it
publishes no ``execution_feedback``.
"""

from __future__ import annotations

import enum
import json
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger

from .. import schemas
from ..planning.status import Status
from ..schemas import WireError
from .common import COMMAND_QOS, PLAN_READER_QOS, wait_for_subscriber

__all__ = ['KgAnswer', 'L3mpClient', 'TaskResult', 'TaskStatus']

SUCCESS = (Status.DONE,)
FAILURE = (Status.FAILED, Status.UNSOLVABLE, Status.TIMEOUT, Status.INVALID_GOAL,
           Status.UNSUPPORTED, Status.ERROR)


class TaskResult(enum.Enum):
    """How a task ended (``UNKNOWN``: not ended, or never heard of)."""

    UNKNOWN = 0
    SUCCEEDED = 1  # done: the last step succeeded, or the goal already held
    PLANNED = 2  # a plan was published, nothing executed it (no executor)
    CANCELED = 3
    FAILED = 4  # failed, or the planner's verdict (unsolvable, timeout, invalid_goal, ...)


@dataclass(frozen=True)
class TaskStatus:
    """The newest ``plan/v1`` message of a task, typed."""

    task_id: str
    status: str
    goal: str | None = None
    utterance: str | None = None
    steps: tuple[str, ...] = ()
    revision: int = 0
    done_steps: int = 0
    reason: str | None = None
    errors: tuple[str, ...] = ()
    engine: str | None = None
    solved_by: str | None = None

    @property
    def progress(self) -> tuple[int, int]:
        """Return (steps done, steps of the current plan)."""
        return self.done_steps, len(self.steps)

    @property
    def result(self) -> TaskResult:
        """Return how the task ended (``UNKNOWN`` while it goes on)."""
        if self.status in SUCCESS:
            return TaskResult.SUCCEEDED
        if self.status == Status.PLANNED:
            return TaskResult.PLANNED
        if self.status == Status.CANCELLED:
            return TaskResult.CANCELED
        if self.status in FAILURE:
            return TaskResult.FAILED
        return TaskResult.UNKNOWN

    @classmethod
    def from_plan(cls, body: dict[str, Any]) -> TaskStatus:
        """Read a ``plan/v1`` body."""
        progress = body.get('progress') or {}
        return cls(task_id=str(body.get('task_id')), status=str(body.get('status')),
                   goal=body.get('goal'), utterance=body.get('utterance'),
                   steps=tuple(str(s) for s in body.get('steps') or ()),
                   revision=int(body.get('revision') or 0),
                   done_steps=int(progress.get('done') or body.get('next_step') or 0),
                   reason=body.get('reason'), errors=tuple(body.get('errors') or ()),
                   engine=body.get('engine'), solved_by=body.get('solved_by'))


@dataclass(frozen=True)
class KgAnswer:
    """The answer to a KG query (``kg_query_result/v1``), typed."""

    ok: bool
    facts: tuple[tuple[str, ...], ...] = ()
    entities: dict[str, str] = field(default_factory=dict)
    count: int = 0
    truncated: bool = False
    last_event_id: int | None = None
    errors: tuple[str, ...] = ()

    @classmethod
    def from_result(cls, body: dict[str, Any]) -> KgAnswer:
        """Read a ``kg_query_result/v1`` body."""
        return cls(ok=bool(body.get('ok')),
                   facts=tuple(tuple(str(x) for x in f) for f in body.get('facts') or ()),
                   entities=dict(body.get('entities') or {}), count=int(body.get('count') or 0),
                   truncated=bool(body.get('truncated')),
                   last_event_id=body.get('last_event_id'),
                   errors=tuple(body.get('errors') or ()))


class L3mpClient(Node):
    """One robot's l3mp_ros nodes, seen from a Python program (see the module docstring)."""

    def __init__(self, namespace: str = '', node_name: str = 'l3mp_client') -> None:
        super().__init__(node_name, namespace=namespace)
        self._cond = threading.Condition()
        self._tasks: dict[str, TaskStatus] = {}
        self._history: dict[str, list[TaskStatus]] = {}
        self._answers: dict[str, KgAnswer] = {}
        self._asked: set[str] = set()  # our queries without an answer yet
        self.said: list[str] = []  # what the robot said on ``say``, oldest first
        self._pubs = {t: self.create_publisher(String, t, COMMAND_QOS)
                      for t in ('goal', 'task', 'cancel', 'kg_query', 'voice_command')}
        self.create_subscription(String, 'plan', self._on_plan, PLAN_READER_QOS)
        self.create_subscription(String, 'kg_query_result', self._on_answer, COMMAND_QOS)
        self.create_subscription(String, 'say', self._on_say, COMMAND_QOS)
        self._tasks_srv = self.create_client(Trigger, 'tasks')
        self._confirm_srv = self.create_client(SetBool, 'confirm')
        self._executor = SingleThreadedExecutor(context=self.context)
        self._executor.add_node(self)
        self._spin = threading.Thread(target=self._spin_forever, name='l3mp_client',
                                      daemon=True)
        self._spin.start()

    # -- tasks -----------------------------------------------------------------------
    def send_goal(self, goal: str, task_id: str | None = None, wait: float = 10.0) -> str:
        """Send a PDDL goal; return its task id (follow it with the calls below)."""
        return self._send('goal', 'goal', goal, task_id, wait)

    def send_task(self, text: str, task_id: str | None = None, wait: float = 10.0) -> str:
        """Send a task in words (planned by the LLM, Algorithm 4); return its task id."""
        return self._send('task', 'text', text, task_id, wait)

    def get_feedback(self, task_id: str) -> TaskStatus | None:
        """Return the newest status of a task (None: nothing heard of it yet)."""
        with self._cond:
            return self._tasks.get(task_id)

    def history(self, task_id: str) -> list[TaskStatus]:
        """Return every status of a task heard so far, oldest first."""
        with self._cond:
            return list(self._history.get(task_id, ()))

    def is_task_complete(self, task_id: str, timeout: float = 0.1) -> bool:
        """Return True once the task has ended (waits up to ``timeout`` s for news)."""
        return self.wait_for_task(task_id, timeout) != TaskResult.UNKNOWN

    def get_result(self, task_id: str) -> TaskResult:
        """Return how the task ended (``UNKNOWN`` while it goes on)."""
        status = self.get_feedback(task_id)
        return status.result if status is not None else TaskResult.UNKNOWN

    def wait_for_task(self, task_id: str, timeout: float | None = None,
                      statuses: Iterable[str] = ()) -> TaskResult:
        """Wait until the task ends (or reaches one of ``statuses``); return its result."""
        wanted = set(statuses)

        def reached() -> bool:
            status = self._tasks.get(task_id)
            return status is not None and (status.result != TaskResult.UNKNOWN
                                           or status.status in wanted)
        with self._cond:
            self._cond.wait_for(reached, timeout)
        return self.get_result(task_id)

    def cancel_task(self, task_id: str | None = None, wait: float = 10.0) -> None:
        """Cancel one task, or every task with None (its status becomes ``cancelled``)."""
        body = {'all': True} if task_id is None else {'task_id': task_id}
        self._publish('cancel', json.dumps(body), wait)

    def confirm(self, yes: bool = True, timeout: float = 10.0) -> str:
        """Answer the plan waiting for a yes or no (``confirm_plan``); return its task id.

        Raises ``LookupError`` when no plan waits, ``TimeoutError`` without a planner.
        """
        ok, message = self._call(self._confirm_srv, SetBool.Request(data=yes), timeout)
        if not ok:
            raise LookupError(message)
        return message

    def say(self, text: str, wait: float = 10.0) -> None:
        """Speak to the robot on ``voice_command`` (a report, a task, a question, yes/no)."""
        self._publish('voice_command', text, wait)

    def tasks(self, timeout: float = 10.0) -> dict[str, Any]:
        """Return the planner's task list: ``active``, ``queued``, ``pending``, ``recent``."""
        ok, message = self._call(self._tasks_srv, Trigger.Request(), timeout)
        if not ok:
            raise RuntimeError(message)
        return json.loads(message)

    # -- the knowledge graph ---------------------------------------------------------
    def query(self, *, entity: str | None = None,
              pattern: Iterable[str | bool | None] | None = None, snapshot: bool = False,
              limit: int | None = None, timeout: float = 10.0) -> KgAnswer:
        """Ask the world model: facts about ``entity``, matching ``pattern``, or all.

        A pattern is a triplet with None as a wildcard, e.g. ``(None, 'person_in_room',
        'kitchen')``. Raises ``TimeoutError`` when no answer comes.
        """
        request_id = f'client-{uuid.uuid4().hex[:12]}'
        body = schemas.kg_query(request_id, entity=entity, pattern=pattern,
                                snapshot=snapshot, limit=limit)
        errors = schemas.validate('kg_query', body)
        if errors:
            raise ValueError(f'bad query: {errors[0]}')
        end = time.monotonic() + timeout
        with self._cond:
            self._asked.add(request_id)
        try:
            self._publish('kg_query', json.dumps(body), timeout)
            with self._cond:
                if not self._cond.wait_for(lambda: request_id in self._answers,
                                           max(0.0, end - time.monotonic())):
                    raise TimeoutError(f'no answer to the KG query within {timeout:g} s')
                return self._answers.pop(request_id)
        finally:
            with self._cond:
                self._asked.discard(request_id)
                self._answers.pop(request_id, None)

    def destroy(self) -> None:
        """Stop spinning and destroy the node (its handles are released here, not by GC)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        executor.remove_node(self)
        executor.shutdown(timeout_sec=2.0)
        self._spin.join(timeout=2.0)
        self.destroy_node()

    def __enter__(self) -> L3mpClient:
        """Use the client in a ``with`` block (destroyed at its end)."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Destroy the client."""
        self.destroy()

    # -- internals -------------------------------------------------------------------
    def _spin_forever(self) -> None:
        try:
            self._executor.spin()
        except Exception:  # noqa: BLE001 - the context was shut down under us
            pass

    def _send(self, topic: str, key: str, what: str, task_id: str | None,
              wait: float) -> str:
        task_id = task_id or f'client-{uuid.uuid4().hex[:12]}'
        self._publish(topic, json.dumps({'task_id': task_id, key: what}), wait)
        return task_id

    def _publish(self, topic: str, data: str, wait: float) -> None:
        """Publish once a subscriber is matched (a message sent before would be lost)."""
        pub = self._pubs[topic]
        if not wait_for_subscriber(pub, wait, poll=0.05):
            raise TimeoutError(f'nobody subscribes to {self.resolve_topic_name(topic)}')
        pub.publish(String(data=data))

    def _call(self, client: Any, request: Any, timeout: float) -> tuple[bool, str]:
        if not client.wait_for_service(timeout_sec=timeout):
            raise TimeoutError(f'service {client.srv_name} is not available')
        future = client.call_async(request)
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        if not done.wait(timeout):
            client.remove_pending_request(future)
            raise TimeoutError(f'service {client.srv_name} did not answer in {timeout:g} s')
        response = future.result()
        return bool(response.success), str(response.message)

    def _on_plan(self, msg: String) -> None:
        try:
            status = TaskStatus.from_plan(schemas.loads(msg.data))
        except (WireError, ValueError, TypeError, AttributeError):
            return
        with self._cond:
            self._tasks[status.task_id] = status
            self._history.setdefault(status.task_id, []).append(status)
            self._cond.notify_all()

    def _on_answer(self, msg: String) -> None:
        try:
            body = schemas.loads(msg.data)
        except WireError:
            return
        request_id = body.get('request_id') if isinstance(body, dict) else None
        with self._cond:
            if request_id not in self._asked:
                return  # another client's answer
            self._answers[str(request_id)] = KgAnswer.from_result(body)
            self._cond.notify_all()

    def _on_say(self, msg: String) -> None:
        with self._cond:
            self.said.append(msg.data)
            self._cond.notify_all()
