# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""planner_node: tasks and goals → ``plan``; re-plans when the world or execution disagrees.

``task`` (NL, Algorithm 4: the LLM writes the goal) and ``goal`` (PDDL, no LLM) are planned
on a worker thread in arrival order. Text, or JSON ``{"task_id", "text"}`` /
``{"task_id", "goal"}``. :class:`~l3mp_ros.agent.tasks.TaskManager` keeps the active task
(others queue behind it) and decides, from ``events`` and ``execution_feedback``, when to
re-plan and when the task is done. Every status change of a task (queued, planning, solved,
executing step k of n, done, failed, cancelled) goes out on ``plan`` (transient-local).
``cancel`` takes a task id, ``all``, or JSON ``{"task_id"}`` / ``{"all": true}``; the
``tasks`` service (std_srvs/Trigger) returns every known task's status as JSON. Engine,
time-outs, attempts and the execute policy can be changed live (``ros2 param set``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from std_msgs.msg import String
from std_srvs.srv import Trigger

from ..agent.agent import Agent
from ..agent.task import new_task_id
from ..agent.tasks import TaskManager
from ..compose import agent_setters
from ..config import PLANNER, node_parameters
from ..schemas import WireError, error_event, loads, loads_object, parse
from ..world.model import WorldModel
from .common import (
    COMMAND_QOS,
    PLAN_QOS,
    AgentNode,
    Worker,
    declare,
    guarded,
    live_parameters,
    publish_json,
    run,
)

MAX_TEXT = 4000


class PlannerNode(AgentNode):
    """Owns the active task and publishes its plans."""

    def __init__(self, agent: Agent | None = None, world: WorldModel | None = None,
                 **kwargs: Any) -> None:
        super().__init__('planner', **kwargs)
        self.params = declare(self, node_parameters(PLANNER))
        self.plan_pub = self.create_publisher(String, 'plan', PLAN_QOS)
        self.say_pub = self.create_publisher(String, 'say', COMMAND_QOS)
        self.events_pub = self.create_publisher(String, 'events', COMMAND_QOS)
        self.agent = agent = self.attach_agent(self.params, agent, world)
        self.tasks = TaskManager(
            agent.world.domain,
            lambda goal, tid, text: agent.plan_goal(goal, task_id=tid, text=text),
            agent.world.snapshot, max_replans=int(self.params['max_replans']),
            execute=str(self.params['execute']))
        self.worker = Worker('planner', self._job_failed)
        live_parameters(self, self.params, agent_setters(agent, self.tasks))
        self.create_subscription(String, 'task', self._on_task, COMMAND_QOS)
        self.create_subscription(String, 'goal', self._on_goal, COMMAND_QOS)
        self.create_subscription(String, 'cancel', self._on_cancel, COMMAND_QOS)
        self.create_service(Trigger, 'tasks', self._task_status)
        self.create_subscription(String, 'events', self._on_event, COMMAND_QOS)
        self.create_subscription(String, 'execution_feedback', self._on_feedback, COMMAND_QOS)
        self.get_logger().info('planner node ready')

    # -- inputs (executor thread) ------------------------------------------------
    def _request(self, msg: String, topic: str, key: str) -> tuple[str, str | None] | None:
        raw = (msg.data or '').strip()
        text, task_id = raw, None
        if raw.startswith('{'):
            try:
                data = loads_object(raw)
                text, task_id = str(data.get(key) or '').strip(), data.get('task_id')
                task_id = str(task_id) if task_id else None
            except WireError as exc:
                return self._bad(topic, [f'malformed JSON: {exc}'], raw)
        if not text:
            return self._bad(topic, [f'empty {key}'], raw)
        if len(text) > MAX_TEXT:
            return self._bad(topic, [f'{key} of {len(text)} characters exceeds {MAX_TEXT}'],
                             raw)
        return text, task_id

    def _bad(self, topic: str, errors: list[str], raw: str) -> None:
        self.get_logger().warning(f'{topic}: {errors[0]}')
        publish_json(self.events_pub, error_event('planner', errors, utterance=raw[:200],
                                                  topic=topic))
        return None

    @guarded('task')
    def _on_task(self, msg: String) -> None:
        req = self._request(msg, 'task', 'text')
        if req is not None:
            text, tid = req
            self._queue('task', tid, text, None,
                        lambda t: self.agent.task(text, task_id=t))

    @guarded('goal')
    def _on_goal(self, msg: String) -> None:
        req = self._request(msg, 'goal', 'goal')
        if req is not None:
            goal, tid = req
            self._queue('goal', tid, None, goal,
                        lambda t: self.agent.plan_goal(goal, task_id=t))

    def _queue(self, topic: str, tid: str | None, text: str | None, goal: str | None,
               plan: Any) -> None:
        tid = tid or new_task_id()
        try:
            self._publish(self.tasks.announce(tid, text, goal))
        except ValueError as exc:
            self._bad(topic, [str(exc)], text or goal or '')
            return

        def job() -> None:
            started = self.tasks.start(tid)
            if started is None:
                return  # cancelled while it waited
            self._publish(started)
            try:
                outcome = plan(tid)
            except Exception as exc:
                self._publish(self.tasks.abandon(tid, f'planning failed: {exc}'))
                raise
            self._publish(self.tasks.submit(outcome))
        self.worker.submit(topic, job)

    @guarded('cancel')
    def _on_cancel(self, msg: String) -> None:
        raw = (msg.data or '').strip()
        target: str | None = raw
        try:
            if raw.startswith('{'):
                data = loads_object(raw)
                target = None if data.get('all') is True else str(data.get('task_id') or '')
            elif raw.lower() in ('all', '*'):
                target = None
            if target == '':
                raise ValueError('say which task: a task id, "all", {"task_id": ...} or '
                                 '{"all": true}')
            self._publish(self.tasks.cancel(target, reason='cancelled on request'))
        except KeyError as exc:
            self._bad('cancel', [str(exc.args[0])], raw)
        except Exception as exc:  # malformed JSON, a finished task, an empty request
            self._bad('cancel', [str(exc)], raw)

    def _task_status(self, request: Trigger.Request,
                     response: Trigger.Response) -> Trigger.Response:
        response.success, response.message = True, json.dumps(self.tasks.status())
        return response

    @guarded('events')
    def _on_event(self, msg: String) -> None:
        try:
            data = loads(msg.data)
            if self.replica is not None:
                self.replica.on_event(data)
            if self.tasks.active is not None and data.get('status') == 'applied':
                self.worker.submit('event', lambda: self._publish(self.tasks.on_event(data)))
        except Exception as exc:
            self.get_logger().error(f'cannot use event: {exc!r}')

    @guarded('execution_feedback')
    def _on_feedback(self, msg: String) -> None:
        data, errors = parse('execution_feedback', msg.data)
        if errors:
            self._bad('execution_feedback', errors, msg.data or '')
            return
        effects = self._apply_effects if self.params['apply_step_effects'] else None
        self.worker.submit('feedback', lambda: self._publish(
            self.tasks.on_feedback(data, effects)))

    # -- jobs (worker thread) ----------------------------------------------------
    def _apply_effects(self, step: str) -> None:
        world = self.agent.world
        update = self.tasks.step_effects(world.snapshot(), step)
        if update is None:  # perception got there first, or the step did not do that
            self.get_logger().info(f'{step}: effects do not apply to the KG; left as is')
            return
        if not update.is_empty():
            world.apply(update, source='execution', utterance=step)

    def _publish(self, bodies: list[dict]) -> None:
        for body in bodies:
            publish_json(self.plan_pub, body)
            if body.get('status') not in ('planning', 'executing') and (
                    body.get('status') != 'queued' or body.get('steps')):
                self._say(self._summary(body))  # progress goes on plan only

    @staticmethod
    def _summary(body: dict) -> str:
        status, n = body.get('status'), len(body.get('steps') or [])
        what = body.get('utterance') or body.get('goal')
        if status == 'solved':
            return f'Plan for "{what}": {n} steps' + (
                f' (re-planned: {body.get("reason")})' if body.get('revision') else '')
        if status == 'done':
            return f'Done: {what}'
        if status == 'queued':
            return f'Queued: {what}'
        if status == 'cancelled':
            return f'Cancelled: {what}'
        errors = body.get('errors') or []
        return f'I cannot do "{what}" ({status})' + (f': {errors[0]}' if errors else '')

    def _job_failed(self, label: str, exc: BaseException) -> None:
        self.get_logger().error(f'{label} failed: {exc!r}')
        publish_json(self.events_pub, error_event('planner', [f'{label} failed: {exc}'],
                                                  topic=label))


def main(args: list[str] | None = None) -> int:
    """Run the planner node."""
    return run(PlannerNode, args, name='planner_node')


if __name__ == '__main__':
    sys.exit(main())
