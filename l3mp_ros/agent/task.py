# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4 (L3M+P): plan an NL task from the KG.

retrieve → the LLM writes the ``:goal`` (domain predicates, retrieved facts, task) →
the planner builds the problem from the retrieved subgraph (widening the context when
a needed fact is missing) and plans → if the goal does not parse or no plan exists,
re-prompt with the reason (bounded).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from ..llm.client import LLMError, Usage
from ..llm.parse import strip_fences
from ..planning.planner import Planner, PlanResult
from ..retrieval.base import Retrieval, Retriever
from ..world.model import WorldModel
from .prompting import llm_failure, system_prompt, user_message

GOAL_SCHEMA = {
    'type': 'object',
    'properties': {'goal': {'type': 'string'}},
    'required': ['goal'],
    'additionalProperties': False,
}
RETRY_STATUSES = ('invalid_goal', 'unsolvable')
_ids = itertools.count(1)


def new_task_id() -> str:
    """Return a process-unique task id."""
    return f'task-{int(time.time())}-{next(_ids)}'


@dataclass
class TaskOutcome:
    """Result of one task: the goal, the plan and what it cost."""

    task_id: str
    text: str | None
    status: str = 'error'
    goal: str | None = None
    plan: PlanResult | None = None
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    context_size: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def steps(self) -> list[str]:
        """Return the plan's steps, empty without a plan."""
        return list(self.plan.steps) if self.plan else []

    def to_json(self) -> dict[str, Any]:
        """Return the ``l3mp/plan/v1`` body."""
        body = self.plan.to_json() if self.plan else {'schema': 'l3mp/plan/v1'}
        body.update({
            'schema': 'l3mp/plan/v1', 'task_id': self.task_id, 'utterance': self.text,
            'goal': self.goal, 'status': self.status, 'steps': self.steps,
            'errors': self.errors, 'attempts': self.attempts,
            'tokens': {'prompt': self.usage.prompt_tokens,
                       'completion': self.usage.completion_tokens},
            'llm_calls': self.usage.calls,
        })
        timings = dict(body.get('timings') or {})
        timings.update({'retrieval': round(self.retrieval_seconds, 4),
                        'total_task': round(self.seconds, 4)})
        body['timings'] = timings
        return body


def extract_goal(data: Any, text: str) -> str:
    """Return the goal text from a JSON reply or from free text."""
    if isinstance(data, dict):
        for key in ('goal', ':goal', 'Goal'):
            if isinstance(data.get(key), str):
                return data[key]
    return strip_fences(text or '')


class TaskPlanner:
    """Run Algorithm 4 against a world model."""

    def __init__(self, world: WorldModel, llm: Any, retriever: Retriever | None,
                 planner: Planner, *, max_attempts: int = 3, max_tokens: int = 300,
                 memory: Any = None) -> None:
        self.world = world
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.llm = llm
        self.retriever = retriever
        self.planner = planner
        self.max_attempts = max(1, max_attempts)
        self.max_tokens = max_tokens

    def plan_goal(self, goal: str, *, task_id: str | None = None, text: str | None = None,
                  context: Any = 'auto') -> TaskOutcome:
        """Plan a PDDL goal directly (no LLM)."""
        began = time.perf_counter()
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text, goal=goal, attempts=1)
        kg = self.world.snapshot()
        out.plan = self.planner.plan(kg, goal, context=context)
        out.status = out.plan.status
        out.errors = list(out.plan.errors)
        out.seconds = time.perf_counter() - began
        return out

    def run(self, text: str, *, task_id: str | None = None,
            retrieval: Retrieval | None = None) -> TaskOutcome:
        """Plan an NL task; never raises for LLM, goal or planner failures."""
        began = time.perf_counter()
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text)
        text = (text or '').strip()
        if not text:
            out.errors = ['empty task']
            return self._done(out, began)
        kg = self.world.snapshot()
        try:
            if retrieval is None:
                retrieval = (self.retriever.retrieve(kg, text, self.llm) if self.retriever
                             else Retrieval(facts=set(kg.facts)))
        except LLMError as exc:
            out.errors = [llm_failure(exc, 'retrieval')]
            return self._done(out, began)
        out.retrieval_seconds = retrieval.seconds
        out.usage.prompt_tokens += retrieval.prompt_tokens
        out.usage.completion_tokens += retrieval.completion_tokens
        out.context_size = len(retrieval.facts)
        recalled = (self.memory.task_context(kg, text, retrieval.facts, retrieval.entities)
                    if self.memory is not None else '')
        messages = [
            {'role': 'system', 'content': system_prompt('goal', self.world.domain)},
            {'role': 'user', 'content': recalled + user_message(kg, retrieval.facts, 'Task',
                                                                text, retrieval.entities)},
        ]
        for attempt in range(1, self.max_attempts + 1):
            out.attempts = attempt
            try:
                reply = self.llm.chat(messages, schema=GOAL_SCHEMA, schema_name='pddl_goal',
                                      max_tokens=self.max_tokens)
            except LLMError as exc:
                out.status, out.errors = 'error', [llm_failure(exc)]
                break
            out.usage.add(reply)
            out.goal = extract_goal(reply.data, reply.text)
            out.plan = self.planner.plan(kg, out.goal, context=set(retrieval.facts))
            out.status = out.plan.status
            out.errors = list(out.plan.errors)
            out.history.append({'attempt': attempt, 'goal': out.goal, 'status': out.status,
                                'errors': list(out.errors)})
            if out.status not in RETRY_STATUSES:
                break
            reason = ('the goal has errors:\n- ' + '\n- '.join(out.errors)
                      if out.status == 'invalid_goal' else
                      'no plan reaches that goal from the current state; check that the goal '
                      'says what the task asks and uses the right entities and predicates')
            messages = messages + [
                {'role': 'assistant', 'content': reply.text},
                {'role': 'user', 'content': f'Your goal failed: {reason}\n'
                 'Reply with a corrected JSON goal.'}]
        if self.memory is not None:
            self.memory.task_done(text, out.goal, out.status, kg)
        return self._done(out, began)

    @staticmethod
    def _done(out: TaskOutcome, began: float) -> TaskOutcome:
        out.seconds = time.perf_counter() - began
        return out
