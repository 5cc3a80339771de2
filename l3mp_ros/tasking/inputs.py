# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What the planner node does with each message it receives (no ROS).

:class:`PlannerInputs` takes the raw text of ``task``, ``goal``, ``cancel``,
``execution_feedback`` and ``voice_command``, the applied ``events`` and the node's clock,
and hands slow work (planning, re-planning, a patrol) to a worker in arrival order. What
it makes goes out through :class:`Outlets`: ``plan/v1`` bodies, sentences, error events.
The active task and its queue are :class:`~.lifecycle.TaskLifecycle`; where an idle robot
looks is :mod:`.patrol`. The planner node is a thin shell around this class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..planning.status import Status
from ..schemas import error_event, parse
from ..world.events import EventStatus
from ..world.phrasing import Phrasing
from .lifecycle import TaskLifecycle
from .patrol import PATROL_PREFIX, PatrolPolicy, patrol_policy
from .requests import RequestError, parse_cancel, parse_request, spoken, yes_no

Job = Callable[[], None]


@dataclass(frozen=True)
class Outlets:
    """Where the planner's logic sends what it makes (a node gives its publishers)."""

    plan: Callable[[dict], None]  # a plan/v1 body, on ``plan``
    say: Callable[[str], None]  # a sentence, on ``say``
    event: Callable[[dict], None]  # an error event, on ``events``
    warn: Callable[[str], None]  # a log line
    submit: Callable[[str, Job], None]  # a job for the worker thread, by label


class PlannerInputs:
    """Task requests, execution and confirmations in; plans and sentences out."""

    def __init__(self, agent: Any, params: dict[str, Any], out: Outlets, *,
                 has_executor: Callable[[], bool], new_id: Callable[[], str]) -> None:
        self.agent = agent
        self.params = params  # read per message: live parameter changes take effect
        self.out = out
        self.has_executor = has_executor
        self.new_id = new_id  # a task id for a request that names none
        self.tasks = TaskLifecycle.for_agent(agent, params, has_executor=has_executor)
        self.patrol: PatrolPolicy | None = None
        self._patrols = 0
        self._patrol_planning = False
        self._patrol_place: dict[str, str] = {}  # patrol task id -> place
        self.set_patrol(str(params['patrol']))

    def set_patrol(self, policy: str) -> None:
        """Patrol when idle (``idle``) or never (anything else)."""
        self.patrol = (patrol_policy(self.agent.world.domain,
                                     str(self.params['perception_config']))
                       if policy == 'idle' else None)

    def bad(self, topic: str, errors: list[str], raw: str) -> None:
        """Log a refused message and publish it as an error event."""
        self.out.warn(f'{topic}: {errors[0]}')
        self.out.event(error_event('planner', errors, utterance=raw[:200], topic=topic))

    # -- inputs ---------------------------------------------------------------------
    def request(self, topic: str, raw: str) -> None:
        """Announce a ``task`` (NL) or ``goal`` (PDDL) and queue its planning."""
        try:
            what, tid = parse_request(raw, 'text' if topic == 'task' else 'goal')
            tid = tid or self.new_id()
            self.publish(self.tasks.announce(tid, what if topic == 'task' else None,
                                             what if topic == 'goal' else None))
        except ValueError as exc:  # RequestError, or a task id in use
            self.bad(topic, [str(exc)], raw or '')
            return

        def plan() -> Any:
            if topic == 'task':
                return self.agent.task(what, task_id=tid)
            return self.agent.plan_goal(what, task_id=tid)

        def job() -> None:
            started = self.tasks.start(tid)
            if started is None:
                return  # cancelled while it waited
            self.publish(started)
            try:
                outcome = plan()
            except Exception as exc:
                self.publish(self.tasks.abandon(tid, f'planning failed: {exc}'))
                raise
            self.publish(self.tasks.submit(outcome))
        self.out.submit(topic, job)

    def cancel(self, raw: str) -> None:
        """Cancel the task a ``cancel`` message names (or all of them)."""
        try:
            self.publish(self.tasks.cancel(parse_cancel(raw), reason='cancelled on request'))
        except KeyError as exc:
            self.bad('cancel', [str(exc.args[0])], raw or '')
        except (RequestError, ValueError) as exc:  # malformed, finished, empty
            self.bad('cancel', [str(exc)], raw or '')

    def event(self, data: dict[str, Any]) -> None:
        """Re-check the active task against an applied ``event/v1`` (on the worker)."""
        if self.tasks.active is not None and data.get('status') == EventStatus.APPLIED:
            self.out.submit('event', lambda: self.publish(self.tasks.on_event(data)))

    def feedback(self, raw: str) -> None:
        """Take an ``execution_feedback/v1`` (on the worker; step effects when set)."""
        data, errors = parse('execution_feedback', raw)
        if errors:
            self.bad('execution_feedback', errors, raw or '')
            return
        effects = ((lambda step: self.tasks.apply_step(self.agent.world, step))
                   if self.params['apply_step_effects'] else None)
        self.out.submit('feedback', lambda: self.publish(self.tasks.on_feedback(data, effects)))

    def voice(self, raw: str) -> None:
        """Take a plain yes or no said while a plan waits for one; ignore anything else."""
        said = yes_no(raw)
        if said is not None and self.tasks.awaiting() is not None:
            self.answer(said)

    def answer(self, yes: bool) -> tuple[bool, str]:
        """Answer the plan waiting for a yes or no (a "no" starts the next task: worker)."""
        task_id = self.tasks.awaiting()
        if task_id is None:
            return False, 'no plan is waiting for a yes or no'

        def job() -> None:
            try:
                self.publish(self.tasks.confirm_plan(yes, task_id))
            except LookupError:  # answered or cancelled meanwhile
                pass
        self.out.submit('confirm', job)
        return True, task_id

    def tick(self) -> None:
        """Look at the active task's execution clock, then at the patrol (a timer's call)."""
        if self.tasks.overdue():  # starting the next task plans it: on the worker
            self.out.submit('execution_timeout',
                            lambda: self.publish(self.tasks.check_timeout()))
        self.check_patrol()

    # -- patrols --------------------------------------------------------------------
    def check_patrol(self) -> None:
        """Plan a patrol when idle (policy ``idle``) with an executor; never while a task waits."""
        policy = self.patrol
        if policy is None or self._patrol_planning or not self.tasks.idle():
            return
        if self.tasks.execute != 'feedback' or not self.has_executor():
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
                self.publish(self.tasks.start_patrol(outcome))
            finally:
                self._patrol_planning = False
        self.out.submit('patrol', job)

    # -- output ---------------------------------------------------------------------
    def say_steps(self, steps: list[str]) -> list[str]:
        """Return a plan's steps as sentences, names as the world model holds them now."""
        world = self.agent.world
        return Phrasing(world.domain, world.snapshot()).steps(steps)

    def publish(self, bodies: list[dict]) -> None:
        """Send plan bodies out; say the final ones, except a patrol's (remembered instead)."""
        for body in bodies:
            self.out.plan(body)
            if body.get('patrol'):
                place = self._patrol_place.get(str(body.get('task_id')))
                if body.get('status') in (Status.DONE, Status.FAILED) and place and self.patrol:
                    # visited (or could not get there): not again for a while
                    why = 'visited' if body['status'] == Status.DONE else 'the visit failed'
                    self.patrol.skip(place, why, self.agent.world.last_event())
                continue  # a patrol is not announced on say
            sentence = spoken(body, self.say_steps)
            if sentence is not None:
                self.out.say(sentence)
