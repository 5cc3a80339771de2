# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The active task: queueing, execution feedback and re-planning (no ROS).

One task is *active* at a time (the robot executes one plan); tasks that arrive meanwhile
wait in a FIFO queue and are re-planned from their goal when their turn comes (the world
has changed since). The active task is re-planned

* when an applied update touches an object of its remaining steps or goal **and** the
  remaining steps no longer reach the goal from the current KG (a perception frame that
  merely confirms the plan's progress does not cause churn);
* when execution feedback reports that a step failed;
* when the rest of the plan relies on a fact that was only *told* about an entity an
  observation just saw, and the frame did not show that fact (``told_check``, from
  :func:`~l3mp_ros.tasking.patrol.not_seen_on_arrival`; the frame kept it only because
  nothing else says where the thing is): the task re-plans with such facts set aside
  (``plan_on``: the goal planned on the KG without them), so it does not act on what it was
  told but did not see; with no plan left it fails and says why. A told fact the frame
  contradicts outright is replaced by what it shows (the first rule re-plans); facts about
  entities the frame did not see (a closed cupboard's contents) and facts seen before are
  not checked.

Feedback that the last step succeeded marks the task ``done``. With no executor
(``execute: none``) a published plan ends ``planned``: nothing was done. Under
``feedback``, an active task that hears nothing for ``execution_timeout`` seconds (per
step: any feedback on it restarts the clock) ends ``failed`` with reason
``execution_timeout``, and the next task starts. Under ``feedback`` with nobody to
execute (``has_executor`` says no: in the node, nothing publishes ``execution_feedback``)
a plan ends ``planned`` at once, with that reason, instead of waiting for the time-out.
With ``confirm`` a plan that becomes active first waits in ``awaiting_confirmation`` for
:meth:`confirm_plan` (a person's yes or no; ``confirm_timeout`` seconds, 0: for ever); yes
makes it ``solved`` (the executor starts), no or silence ``cancelled``, and the next task
starts. A patrol does not wait (``patrol: idle`` is the consent to move unasked, and a
patrol is not said). Every change produces a ``plan/v1`` body (``revision`` counts
re-plans, ``next_step`` is the step to execute, ``progress`` the steps done of all) for the
caller to publish.

Lifecycle of a task (``status``): ``queued`` (received, waiting to be planned, or planned
and waiting behind the active task) → ``planning`` → ``solved`` (active, no step done yet)
(or ``awaiting_confirmation`` first) → ``executing`` (step k of n succeeded) → ``done``;
or ``planned`` (no executor),
``failed`` (incl. ``execution_timeout``) / ``cancelled`` / the
planner's own failure (``unsolvable``, ``timeout``, ``invalid_goal``, ...). :meth:`cancel`
takes a task in any unfinished state. Methods may be called from any thread (a lock
serialises them).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import schemas
from ..planning.execute import execute_plan, parse_step
from ..planning.problem import GoalError, goal_holds, goal_objects, parse_goal
from ..planning.status import Status
from ..world.domain import DomainSchema
from ..world.events import EventStatus
from ..world.kg import Fact, KnowledgeGraph, Update
from ..world.support import SupportKind, classify

SOLVED = Status.SOLVED
AWAITING = Status.AWAITING_CONFIRMATION  # confirm: the plan waits for a person's yes or no
EXECUTING = Status.EXECUTING
OK_STATUSES = (Status.SOLVED, Status.ALREADY_SATISFIED)
FINISHED = (Status.DONE, Status.PLANNED, Status.FAILED, Status.CANCELLED)
EXECUTION_TIMEOUT = 'execution_timeout'
RECENT = 100  # finished tasks remembered for status queries
# feedback: the active plan waits for execution_feedback; none: no executor is attached,
# a published plan ends ``planned`` (not done) and the next queued task starts.
EXECUTE_POLICIES = ('feedback', 'none')
PlanGoal = Callable[[str, str, 'str | None'], Any]  # (goal, task_id, text) -> TaskOutcome
#: (kg, goal, task_id, text) -> an outcome planned on ``kg`` (told facts set aside)
PlanOn = Callable[[KnowledgeGraph, str, str, 'str | None'], Any]
#: (kg, remaining steps, goal, observed entities) -> told facts they rely on, not seen
ToldCheck = Callable[[KnowledgeGraph, list[str], str, set[str]], list[Fact]]


@dataclass
class ActiveTask:
    """A task being executed (or waiting its turn)."""

    task_id: str
    text: str | None
    goal: str | None
    body: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    next_step: int = 0
    revision: int = 0
    replans: int = 0
    status: Status = Status.QUEUED
    heard: float = 0.0  # monotonic time of activation or of the last feedback on it
    patrol: bool = False  # a visit to confirm told facts (tasking/patrol.py): any task wins
    confirmed: bool = False  # a person said yes to one of its plans (confirm)
    #: told facts not seen on arrival: this task's plans do not rely on them
    set_aside: set[Fact] = field(default_factory=set)

    def summary(self, now: float | None = None) -> dict[str, Any]:
        """Return the task's status in a few fields (for a status query)."""
        out = {'task_id': self.task_id, 'status': self.status, 'utterance': self.text,
               'goal': self.goal, 'revision': self.revision,
               'progress': {'done': self.next_step, 'total': len(self.steps)}}
        if now is not None:
            out['waiting_s'] = round(now - self.heard, 3)
        return out


@dataclass
class Replanned:
    """A plan made by the planner alone on a given KG (the goal is known: no LLM)."""

    task_id: str
    text: str | None
    goal: str
    plan: Any  # a PlanResult

    @property
    def status(self) -> Status:
        """Return the planner's status."""
        return self.plan.status

    @property
    def steps(self) -> list[str]:
        """Return the plan's steps."""
        return list(self.plan.steps)

    def to_json(self) -> dict[str, Any]:
        """Return the ``plan/v1`` body."""
        body = self.plan.to_json()
        body.update({'task_id': self.task_id, 'utterance': self.text, 'goal': self.goal,
                     'status': self.status, 'steps': self.steps})
        return body


def _objects(steps: list[str]) -> set[str]:
    out: set[str] = set()
    for s in steps:
        try:
            out.update(parse_step(s)[1])
        except ValueError:
            continue
    return out


def _diff_entities(diff: dict | None) -> set[str]:
    if not diff:
        return set()
    try:
        return Update.from_json(diff).entities()
    except ValueError:
        return set()


class TaskLifecycle:
    """State machine of the active task and the queue behind it."""

    def __init__(self, domain: DomainSchema, plan_goal: PlanGoal,
                 snapshot: Callable[[], KnowledgeGraph], *, max_replans: int = 5,
                 self_sources: tuple[str, ...] = ('execution',),
                 execute: str = 'feedback', execution_timeout: float = 0.0,
                 clock: Callable[[], float] = time.monotonic,
                 has_executor: Callable[[], bool] | None = None, confirm: bool = False,
                 confirm_timeout: float = 0.0, told_check: ToldCheck | None = None,
                 plan_on: PlanOn | None = None) -> None:
        if execute not in EXECUTE_POLICIES:
            raise ValueError(f'execute must be one of {", ".join(EXECUTE_POLICIES)}, '
                             f'got {execute!r}')
        self.execute = execute
        self.execution_timeout = execution_timeout  # seconds per step; 0: wait for ever
        self.clock = clock
        self.has_executor = has_executor  # None: assume one (feedback) is attached
        self.confirm = confirm
        self.confirm_timeout = confirm_timeout  # seconds a plan waits for yes/no; 0: ever
        self.domain = domain
        self.plan_goal = plan_goal
        self.snapshot = snapshot
        self.max_replans = max_replans
        self.told_check = told_check if plan_on is not None else None
        self.plan_on = plan_on
        self.self_sources = self_sources
        self.active: ActiveTask | None = None
        self.queue: deque[ActiveTask] = deque()
        self.pending: dict[str, ActiveTask] = {}  # received, not planned yet (or planning)
        self.recent: OrderedDict[str, ActiveTask] = OrderedDict()  # finished, newest last
        self.dropped: set[str] = set()  # cancelled while waiting or planning
        self._lock = threading.RLock()

    @classmethod
    def for_agent(cls, agent: Any, params: dict[str, Any],
                  has_executor: Callable[[], bool] | None = None) -> TaskLifecycle:
        """Return the task manager of an agent's planner.

        ``max_replans``, ``execute``, ``execution_timeout``, ``confirm_plan`` and
        ``confirm_timeout`` come from ``params``. With a ``perception_config``, told facts
        a plan relies on are checked against what each observation saw.
        """
        told_check: ToldCheck | None = None
        plan_on: PlanOn | None = None
        if params.get('perception_config'):
            from ..world.perceive import load_perceivable
            from .patrol import not_seen_on_arrival
            perceivable = load_perceivable(str(params['perception_config']))
            world = agent.world

            def check(kg: KnowledgeGraph, steps: list[str], goal: str,
                      observed: set[str]) -> list[Fact]:
                return not_seen_on_arrival(perceivable, world.domain, kg, world.support,
                                           steps, goal, observed)

            def replan(kg: KnowledgeGraph, goal: str, tid: str, text: str | None) -> Any:
                return Replanned(tid, text, goal, agent.planner.plan(kg, goal, strict=True))
            told_check, plan_on = check, replan
        return cls(agent.world.domain,
                   lambda goal, tid, text: agent.plan_goal(goal, task_id=tid, text=text),
                   agent.world.snapshot, max_replans=int(params['max_replans']),
                   execute=str(params['execute']),
                   execution_timeout=float(params['execution_timeout']),
                   has_executor=has_executor, confirm=bool(params.get('confirm_plan')),
                   confirm_timeout=float(params.get('confirm_timeout') or 0.0),
                   told_check=told_check, plan_on=plan_on)

    # -- messages -------------------------------------------------------------
    @staticmethod
    def _body(task: ActiveTask, reason: str | None) -> dict[str, Any]:
        fields = {k: v for k, v in task.body.items() if k != 'schema'}
        fields.update({'task_id': task.task_id, 'utterance': task.text, 'goal': task.goal,
                       'status': task.status, 'steps': list(task.steps),
                       'revision': task.revision, 'next_step': task.next_step,
                       'progress': {'done': task.next_step, 'total': len(task.steps)},
                       'reason': reason})
        if task.patrol:
            fields['patrol'] = True
        return schemas.plan(**fields)

    def _finish(self, task: ActiveTask, status: Status | None = None) -> None:
        """Remember a task that will not change any more."""
        if status is not None:
            task.status = status
        self.recent.pop(task.task_id, None)
        self.recent[task.task_id] = task
        while len(self.recent) > RECENT:
            self.recent.popitem(last=False)

    def _adopt(self, task: ActiveTask, outcome: Any) -> None:
        task.body = outcome.to_json()
        task.goal = outcome.goal or task.goal
        task.steps = list(outcome.steps)
        task.next_step = 0
        task.status = outcome.status

    # -- tasks ----------------------------------------------------------------
    def announce(self, task_id: str, text: str | None = None,
                 goal: str | None = None) -> list[dict[str, Any]]:
        """Register a task that was received and waits to be planned (status ``queued``).

        A patrol in progress is pre-empted at once: cancelled before the task is planned,
        so the executor stops it now.
        """
        with self._lock:
            if self._find(task_id) is not None and task_id not in self.recent:
                raise ValueError(f'task id {task_id!r} is already in use')
            out = self.preempt_patrol(task_id)
            self.recent.pop(task_id, None)
            self.dropped.discard(task_id)
            task = ActiveTask(task_id, text, goal)
            self.pending[task_id] = task
            return out + [self._body(task, 'received; waiting to be planned')]

    # -- patrols (tasking/patrol.py) ------------------------------------------
    def idle(self) -> bool:
        """Tell whether no task is active, queued, or received and waiting to be planned."""
        with self._lock:
            return self.active is None and not self.queue and not self.pending

    def patrolling(self) -> bool:
        """Tell whether the active task is a patrol."""
        with self._lock:
            return self.active is not None and self.active.patrol

    def preempt_patrol(self, by: str) -> list[dict[str, Any]]:
        """Cancel an active patrol for the task ``by``; return its message."""
        with self._lock:
            task = self.active
            if task is None or not task.patrol:
                return []
            self.active = None
            self._finish(task, Status.CANCELLED)
            return [self._body(task, f'pre-empted by task {by}')]

    def start_patrol(self, outcome: Any) -> list[dict[str, Any]]:
        """Activate a planned patrol when still idle (else drop it); return its messages."""
        with self._lock:
            if not self.idle():
                return []
            task = ActiveTask(outcome.task_id, outcome.text, outcome.goal, patrol=True)
            self._adopt(task, outcome)
            if task.status not in OK_STATUSES:
                self._finish(task)
                return [self._body(task, 'patrol: no plan')]
            return self._activate(task, 'patrol: looking to confirm what I was told',
                                  replan=False)

    def start(self, task_id: str) -> list[dict[str, Any]] | None:
        """Mark an announced task ``planning``; None when it was cancelled meanwhile."""
        with self._lock:
            if task_id in self.dropped:
                self.dropped.discard(task_id)
                return None
            task = self.pending.get(task_id)
            if task is None:
                return []
            task.status = Status.PLANNING
            return [self._body(task, Status.PLANNING)]

    def submit(self, outcome: Any) -> list[dict[str, Any]]:
        """Take a planned task (a ``TaskOutcome``); return the plan messages to publish."""
        with self._lock:
            if outcome.task_id in self.dropped:
                self.dropped.discard(outcome.task_id)
                return []  # cancelled while it was being planned (already reported)
            self.pending.pop(outcome.task_id, None)
            task = ActiveTask(outcome.task_id, outcome.text, outcome.goal)
            self._adopt(task, outcome)
            if task.status not in OK_STATUSES:
                self._finish(task)
                return [self._body(task, 'planning failed')]
            out = self.preempt_patrol(task.task_id)
            if self.active is not None:
                task.status = Status.QUEUED
                self.queue.append(task)
                return [self._body(task, f'queued behind {self.active.task_id}')]
            return out + self._activate(task, 'new task', replan=False)

    def _activate(self, task: ActiveTask, reason: str, replan: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if replan:
            task.revision += 1
            if task.set_aside and self.plan_on is not None:
                kg = self.snapshot()
                for f in task.set_aside:
                    kg.remove_fact(f)
                self._adopt(task, self.plan_on(kg, task.goal or '', task.task_id, task.text))
            else:
                self._adopt(task, self.plan_goal(task.goal or '', task.task_id, task.text))
        if task.status in OK_STATUSES and not task.steps:
            self._finish(task, Status.DONE)
            out.append(self._body(task, 'the goal already holds'))
            return out + self._next()
        if task.status not in OK_STATUSES:
            self._finish(task, Status.FAILED if replan else task.status)
            out.append(self._body(task, reason + ': no plan'))
            return out + self._next()
        if self.execute == 'none':  # nothing executes plans: planned, not done
            self._finish(task, Status.PLANNED)
            out.append(self._body(task, f'{reason}; plan published, no executor '
                                        '(execute: none)'))
            return out + self._next()
        if self.has_executor is not None and not self.has_executor():
            self._finish(task, Status.PLANNED)  # waiting for execution_timeout would help nobody
            out.append(self._body(task, f'{reason}; plan published, no executor: nothing '
                                        'publishes execution_feedback'))
            return out + self._next()
        task.heard = self.clock()
        self.active = task
        if self.confirm and not task.confirmed and not task.patrol:  # patrol: idle consents
            task.status = AWAITING
            out.append(self._body(task, f'{reason}; waiting for a yes or no'))
            return out
        task.status = SOLVED
        out.append(self._body(task, reason))
        return out

    def awaiting(self) -> str | None:
        """Return the id of the task whose plan waits for a yes or no, if any."""
        task = self.active
        return task.task_id if task is not None and task.status == AWAITING else None

    def confirm_plan(self, yes: bool, task_id: str | None = None) -> list[dict[str, Any]]:
        """Take a person's answer to the waiting plan: yes executes it, no cancels it.

        Raises ``LookupError`` when no plan (or not ``task_id``'s) waits for an answer.
        """
        with self._lock:
            task = self.active
            if task is None or task.status != AWAITING or task_id not in (None, task.task_id):
                raise LookupError('no plan is waiting for a yes or no'
                                  + (f' for task {task_id!r}' if task_id else ''))
            if yes:
                task.confirmed = True
                task.status = SOLVED
                task.heard = self.clock()
                return [self._body(task, 'confirmed')]
            self._finish(task, Status.CANCELLED)
            return [self._body(task, 'declined')] + self._next()

    def _next(self) -> list[dict[str, Any]]:
        self.active = None
        while self.queue:
            task = self.queue.popleft()
            out = self._activate(task, 'its turn came', replan=True)
            if self.active is not None or out:
                return out
        return []

    def _find(self, task_id: str) -> ActiveTask | None:
        if self.active is not None and self.active.task_id == task_id:
            return self.active
        return self.pending.get(task_id) or next(
            (t for t in self.queue if t.task_id == task_id), None) or self.recent.get(task_id)

    def cancel(self, task_id: str | None = None,
               reason: str = 'cancelled') -> list[dict[str, Any]]:
        """Cancel one task (any unfinished state) or, with None, every task; start the next.

        Raises ``KeyError`` for an unknown id and ``ValueError`` for a finished task.
        """
        with self._lock:
            if task_id is None:
                victims = [*self.pending.values(), *self.queue]
                victims += [self.active] if self.active is not None else []
            else:
                task = self._find(task_id)
                if task is None:
                    raise KeyError(f'no task {task_id!r}')
                if task_id in self.recent:
                    raise ValueError(f'task {task_id!r} is already {task.status}')
                victims = [task]
            out: list[dict[str, Any]] = []
            was_active = self.active in victims
            for task in victims:
                if self.pending.pop(task.task_id, None) is not None:
                    self.dropped.add(task.task_id)
                if task in self.queue:
                    self.queue.remove(task)
                self._finish(task, Status.CANCELLED)
                out.append(self._body(task, reason))
            return out + (self._next() if was_active else [])

    def abandon(self, task_id: str, reason: str) -> list[dict[str, Any]]:
        """Mark an announced task ``failed`` (its planning raised); return its message."""
        with self._lock:
            task = self.pending.pop(task_id, None)
            if task is None:
                return []
            self._finish(task, Status.FAILED)
            body = self._body(task, reason)
            body['errors'] = [reason]
            return [body]

    def status(self) -> dict[str, Any]:
        """Return every known task's status: active, queued (planned), pending, recent."""
        with self._lock:
            active = self.active.summary(self.clock()) if self.active else None
            if active is not None:
                active['execution_timeout_s'] = self.execution_timeout or None
            return {'active': active,
                    'queued': [t.summary() for t in self.queue],
                    'pending': [t.summary() for t in self.pending.values()],
                    'recent': [t.summary() for t in reversed(self.recent.values())]}

    # -- world changes ----------------------------------------------------------
    def still_valid(self, task: ActiveTask, kg: KnowledgeGraph) -> bool:
        """Return True when the remaining steps reach the goal from ``kg``."""
        result = execute_plan(self.domain, kg, task.steps[task.next_step:])
        if not result.ok:
            return False
        try:
            return goal_holds(self.domain, result.kg, task.goal or '')
        except GoalError:
            return False

    def relevant(self, task: ActiveTask, kg: KnowledgeGraph) -> set[str]:
        """Return the objects the active plan relies on."""
        objs = _objects(task.steps[task.next_step:])
        try:
            objs |= goal_objects(parse_goal(self.domain, kg, task.goal or ''))
        except GoalError:
            pass
        return objs

    def on_event(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """React to an ``event/v1``: re-plan when an applied change breaks the plan."""
        with self._lock:
            task = self.active
            if (task is None or event.get('status') != EventStatus.APPLIED
                    or event.get('source') in self.self_sources):
                return []
            kg = self.snapshot()
            touched = _diff_entities(event.get('diff')) | {
                str(e.get('name')) for e in event.get('new_entities') or []}
            if touched & self.relevant(task, kg) and not self.still_valid(task, kg):
                return self._replan(task, f'the world changed (event {event.get("id")})')
            return self._check_told(task, kg, event)

    def _check_told(self, task: ActiveTask, kg: KnowledgeGraph,
                    event: dict[str, Any]) -> list[dict[str, Any]]:
        """After an observation: re-plan when a told fact the plan relies on is not seen."""
        info = event.get('info') or {}
        if (self.told_check is None or task.status == AWAITING
                or classify(str(event.get('source')), info) != SupportKind.SEEN):
            return []
        observed = {str(o) for o in info.get('observed_entities') or []}
        differs = [f for f in self.told_check(kg, task.steps[task.next_step:], task.goal or '',
                                              observed) if f not in task.set_aside]
        if not differs:
            return []
        task.set_aside.update(differs)
        return self._replan(task, 'told but not seen when looked at: '
                            + '; '.join(f.text() for f in differs))

    def _replan(self, task: ActiveTask, reason: str) -> list[dict[str, Any]]:
        task.replans += 1
        if task.replans > self.max_replans:
            self._finish(task, Status.FAILED)
            return [self._body(task, f'{reason}; gave up after {self.max_replans} re-plans')] \
                + self._next()
        return self._activate(task, reason, replan=True)

    def on_feedback(self, fb: dict[str, Any],
                    apply_effects: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
        """React to ``execution_feedback/v1`` for the active task."""
        with self._lock:
            task = self.active
            if task is None or fb.get('task_id') != task.task_id:
                return []
            if 'revision' in fb and fb['revision'] != task.revision:
                return []  # feedback on a plan that was replaced
            step = int(fb.get('step', -1))
            status = fb.get('status')
            if step < 0 or step >= len(task.steps) or task.status == AWAITING:
                return []  # not a step of this plan, or a plan nobody said yes to yet
            task.heard = self.clock()  # the executor is alive: the step clock restarts
            if status == Status.FAILED:
                why = fb.get('message') or 'no reason given'
                return self._replan(task, f'step {step + 1} {task.steps[step]} failed: {why}')
            if status != Status.SUCCEEDED:
                return []
            if apply_effects is not None:
                apply_effects(task.steps[step])
            task.next_step = step + 1
            if task.next_step >= len(task.steps):
                self._finish(task, Status.DONE)
                return [self._body(task, 'the last step succeeded')] + self._next()
            task.status = EXECUTING
            return [self._body(task, f'step {step + 1} of {len(task.steps)} succeeded')]

    def overdue(self) -> bool:
        """Return True when the active task has waited past its time-out.

        ``confirm_timeout`` for a plan waiting for a yes or no, else ``execution_timeout``.
        """
        task = self.active
        if task is None:
            return False
        limit = self.confirm_timeout if task.status == AWAITING else (
            self.execution_timeout if self.execute == 'feedback' else 0.0)
        return limit > 0 and self.clock() - task.heard > limit

    def check_timeout(self) -> list[dict[str, Any]]:
        """End an overdue active task; start the next.

        ``failed`` (``execution_timeout``), or ``cancelled`` for a plan nobody confirmed.
        """
        with self._lock:
            if not self.overdue():
                return []
            task = self.active
            waited = self.clock() - task.heard
            if task.status == AWAITING:
                self._finish(task, Status.CANCELLED)
                body = self._body(task, 'not confirmed')
                body['errors'] = [f'no yes or no within {self.confirm_timeout:g} s '
                                  '(confirm_timeout)']
                return [body] + self._next()
            self._finish(task, Status.FAILED)
            body = self._body(task, EXECUTION_TIMEOUT)
            body['errors'] = [f'no execution feedback for {waited:.1f} s on step '
                              f'{task.next_step + 1} of {len(task.steps)} (execution_timeout '
                              f'{self.execution_timeout:g} s)']
            return [body] + self._next()

    def apply_step(self, world: Any, step: str) -> None:
        """Apply a succeeded step's effects to ``world`` when they apply to its KG.

        They may not: perception got there first, or the step did something else.
        """
        update = self.step_effects(world.snapshot(), step)
        if update is not None and not update.is_empty():
            world.apply(update, source='execution', utterance=step)

    def step_effects(self, kg: KnowledgeGraph, step: str) -> Update | None:
        """Return the KG change of one step, or None when it does not apply to ``kg``."""
        result = execute_plan(self.domain, kg, [step])
        return result.update if result.ok else None
