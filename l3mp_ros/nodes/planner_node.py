# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""planner_node: tasks and goals → ``plan``; re-plans when the world or execution disagrees.

``task`` (NL, Algorithm 4) and ``goal`` (PDDL) are planned on a worker thread in arrival
order. :class:`~l3mp_ros.tasking.lifecycle.TaskLifecycle` keeps the active task: re-plans on
``events``/``execution_feedback``, ``execution_timeout``, ``planned`` with no executor.
Every status goes out on ``plan`` (transient-local), final ones as a sentence on ``say``;
``cancel`` takes a task id or ``all``; service ``tasks`` (std_srvs/Trigger) lists them.

With ``patrol: idle`` an idle planner sends the robot to look at the place whose
perceivable facts are most worth checking (told and unconfirmed, or unseen for long;
:mod:`l3mp_ros.tasking.patrol`): planned like a goal on the worker, published on ``plan``
with ``patrol: true`` and executed like any task; a task arriving on ``task`` or ``goal``
pre-empts it at once.

With nothing publishing ``execution_feedback`` (no executor) a plan ends ``planned`` at
once. With ``confirm_plan`` a plan is said and waits for a plain yes or no on
``voice_command`` (or service ``confirm``, std_srvs/SetBool) before it is executed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger

from ..agent.task import new_task_id
from ..compose import agent_setters
from ..config import PATROL_POLICIES, PLANNER, checked, node_parameters
from ..planning.status import Status
from ..schemas import error_event, loads, parse
from ..tasking.lifecycle import TaskLifecycle
from ..tasking.patrol import PATROL_PREFIX, PatrolPolicy, patrol_policy
from ..tasking.requests import RequestError, parse_cancel, parse_request, spoken, yes_no
from ..world.events import EventStatus
from .common import COMMAND_QOS, PLAN_QOS, guarded, publish_json, run
from .common import trigger_answer as answer
from .managed import AgentNode, Given

TIMEOUT_CHECK_PERIOD = 0.5  # seconds between looks at the active task's execution clock


class PlannerNode(AgentNode):
    """Owns the active task and publishes its plans."""

    def __init__(self, agent: Given = None, world: Given = None, **kwargs: Any) -> None:
        super().__init__('planner', node_parameters(PLANNER), agent, world, **kwargs)
        self.start()

    def configure(self) -> None:
        """Build the agent, the task manager and the ``plan`` publisher."""
        super().configure()
        self.plan_pub = self.publisher('plan', PLAN_QOS)
        self.tasks = TaskLifecycle.for_agent(self.agent, self.params,
                                             has_executor=self._has_executor)
        self.patrol: PatrolPolicy | None = None
        self._patrols = 0
        self._patrol_planning = False
        self._patrol_place: dict[str, str] = {}  # patrol task id -> place
        if self.params['patrol'] == 'idle':
            self.patrol = patrol_policy(self.agent.world.domain,
                                        str(self.params['perception_config']))

    def _has_executor(self) -> bool:
        """Tell whether an executor is attached: a node publishing ``execution_feedback``."""
        return self.count_publishers('execution_feedback') > 0

    def setters(self) -> dict[str, Any]:
        """Engine, time-outs, attempts, the execute and patrol policies change live."""
        out = agent_setters(self.agent, self.tasks)

        def set_patrol(v: str) -> None:
            self.patrol = (patrol_policy(self.agent.world.domain,
                                         str(self.params['perception_config']))
                           if v == 'idle' else None)
        out['patrol'] = checked(lambda v: v in PATROL_POLICIES,
                                'one of ' + ', '.join(PATROL_POLICIES), set_patrol)
        return out

    def activate(self) -> None:
        """Open the task inputs, the status service and the execution clock."""
        for topic, callback in (('task', self._on_task), ('goal', self._on_goal),
                                ('cancel', self._on_cancel), ('events', self._on_event),
                                ('execution_feedback', self._on_feedback),
                                ('voice_command', self._on_voice)):
            self.subscribe(topic, callback, COMMAND_QOS)
        self.service(Trigger, 'tasks', lambda q, r: answer(
            r, lambda: (True, json.dumps(self.tasks.status()))))
        self.service(SetBool, 'confirm', lambda q, r: answer(r, lambda: self._answer(q.data)))
        self.timer(TIMEOUT_CHECK_PERIOD, self._check_timeout)
        self.follow_log()

    def _bad(self, topic: str, errors: list[str], raw: str) -> None:
        self.get_logger().warning(f'{topic}: {errors[0]}')
        publish_json(self.events_pub, error_event('planner', errors, utterance=raw[:200],
                                                  topic=topic))

    def _queue(self, topic: str, raw: str, plan: Any) -> None:
        try:
            what, tid = parse_request(raw, 'text' if topic == 'task' else 'goal')
            tid = tid or new_task_id()
            self._publish(self.tasks.announce(tid, what if topic == 'task' else None,
                                              what if topic == 'goal' else None))
        except ValueError as exc:  # RequestError, or a task id in use
            self._bad(topic, [str(exc)], raw or '')
            return

        def job() -> None:
            started = self.tasks.start(tid)
            if started is None:
                return  # cancelled while it waited
            self._publish(started)
            try:
                outcome = plan(what, tid)
            except Exception as exc:
                self._publish(self.tasks.abandon(tid, f'planning failed: {exc}'))
                raise
            self._publish(self.tasks.submit(outcome))
        self.worker.submit(topic, job)

    @guarded('task')
    def _on_task(self, msg: String) -> None:
        self._queue('task', msg.data, lambda text, t: self.agent.task(text, task_id=t))

    @guarded('goal')
    def _on_goal(self, msg: String) -> None:
        self._queue('goal', msg.data, lambda goal, t: self.agent.plan_goal(goal, task_id=t))

    @guarded('cancel')
    def _on_cancel(self, msg: String) -> None:
        try:
            self._publish(self.tasks.cancel(parse_cancel(msg.data),
                                            reason='cancelled on request'))
        except KeyError as exc:
            self._bad('cancel', [str(exc.args[0])], msg.data or '')
        except (RequestError, ValueError) as exc:  # malformed, finished, empty
            self._bad('cancel', [str(exc)], msg.data or '')

    @guarded('events')
    def _on_event(self, msg: String) -> None:
        data = loads(msg.data)
        if self.replica is not None:
            self.replica.on_event(data)
        if self.tasks.active is not None and data.get('status') == EventStatus.APPLIED:
            self.worker.submit('event', lambda: self._publish(self.tasks.on_event(data)))

    @guarded('execution_feedback')
    def _on_feedback(self, msg: String) -> None:
        data, errors = parse('execution_feedback', msg.data)
        if errors:
            self._bad('execution_feedback', errors, msg.data or '')
            return
        effects = ((lambda step: self.tasks.apply_step(self.agent.world, step))
                   if self.params['apply_step_effects'] else None)
        self.worker.submit('feedback', lambda: self._publish(
            self.tasks.on_feedback(data, effects)))

    @guarded('voice_command')
    def _on_voice(self, msg: String) -> None:
        said = yes_no(msg.data)
        if said is not None and self.tasks.awaiting() is not None:
            self._answer(said)

    def _answer(self, yes: bool) -> tuple[bool, str]:
        """Answer the plan waiting for a yes or no (a "no" starts the next task: worker)."""
        task_id = self.tasks.awaiting()
        if task_id is None:
            return False, 'no plan is waiting for a yes or no'

        def job() -> None:
            try:
                self._publish(self.tasks.confirm_plan(yes, task_id))
            except LookupError:  # answered or cancelled meanwhile
                pass
        self.worker.submit('confirm', job)
        return True, task_id

    def _check_timeout(self) -> None:
        if self.tasks.overdue():  # starting the next task plans it: on the worker
            self.worker.submit('execution_timeout',
                               lambda: self._publish(self.tasks.check_timeout()))
        self._check_patrol()

    def _check_patrol(self) -> None:
        """Plan a patrol when idle (policy ``idle``) with an executor; never while a task waits."""
        policy = self.patrol
        if policy is None or self._patrol_planning or not self.tasks.idle():
            return
        if self.tasks.execute != 'feedback' or not self._has_executor():
            return  # nobody would walk it: the patrol would end planned, again and again
        world = self.agent.world
        last = world.last_event()
        with world._lock:
            visit = policy.choose(world.kg, world.support, last)
        if visit is None:
            return
        self._patrols += 1
        tid = f'{PATROL_PREFIX}{self._patrols}'
        self._patrol_planning = True

        def job() -> None:
            try:
                if not self.tasks.idle():
                    return  # a task came while this waited for the worker
                outcome = self.agent.plan_goal(visit.goal, task_id=tid)
                if not Status(outcome.status).ok or not outcome.steps:
                    policy.skip(visit.place, f'no plan to reach it ({outcome.status})', last)
                    return
                outcome.text = f'look at {visit.place} ({len(visit.facts)} told facts)'
                self._patrol_place[tid] = visit.place
                self._publish(self.tasks.start_patrol(outcome))
            finally:
                self._patrol_planning = False
        self.worker.submit('patrol', job)

    def _publish(self, bodies: list[dict]) -> None:
        for body in bodies:
            publish_json(self.plan_pub, body)
            if body.get('patrol'):
                place = self._patrol_place.get(str(body.get('task_id')))
                if body.get('status') in (Status.DONE, Status.FAILED) and place and self.patrol:
                    # visited (or could not get there): not again for a while
                    why = 'visited' if body['status'] == Status.DONE else 'the visit failed'
                    self.patrol.skip(place, why, self.agent.world.last_event())
                continue  # a patrol is not announced on say
            sentence = spoken(body)
            if sentence is not None:
                self._say(sentence)


def main(args: list[str] | None = None) -> int:
    """Run the planner node."""
    return run(PlannerNode, args, name='planner_node')


if __name__ == '__main__':
    sys.exit(main())
