# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What Algorithm 4 carries for one task: its outcome, its settings, the asking for its goal.

:class:`TaskOutcome` is what a task comes to (the ``plan/v1`` body), :class:`TaskSettings`
how tasks are read, and :class:`Asking` the state the propose–judge–re-prompt loop of
:class:`.task.TaskPlanner` and the goal checks (:mod:`.goal_checks`) share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ... import schemas
from ...config import Config, default, settings_of
from ...llm.parse import strip_fences
from ...planning.planner import PlanResult
from ...planning.status import Status
from ..core.attempts import Chat, Messages, Trace, Traced
from ..core.request import Request
from .grounding import GoalGrounding
from .read_back import GoalReadBack


@dataclass
class TaskOutcome(Traced):
    """Result of one task: the goal, the plan and what it cost."""

    task_id: str
    text: str | None
    status: Status = Status.ERROR
    goal: str | None = None
    plan: PlanResult | None = None
    errors: list[str] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)  # attempts, usage, history
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    context_size: int = 0

    @property
    def steps(self) -> list[str]:
        """Return the plan's steps, empty without a plan."""
        return list(self.plan.steps) if self.plan else []

    def to_json(self) -> dict[str, Any]:
        """Return the ``l3mp/plan/v1`` body."""
        body = self.plan.to_json() if self.plan else schemas.plan(status=self.status)
        body.update({
            'task_id': self.task_id, 'utterance': self.text,
            'goal': self.goal, 'status': self.status, 'steps': self.steps,
            'errors': self.errors, 'attempts': self.attempts,
            'tokens': {'prompt': self.usage.prompt_tokens,
                       'completion': self.usage.completion_tokens},
            'llm_calls': self.usage.calls, 'stages': self.trace.stages.to_json(),
        })
        timings = dict(body.get('timings') or {})
        timings.update({'retrieval': round(self.retrieval_seconds, 4),
                        'total_task': round(self.seconds, 4)})
        body['timings'] = timings
        return body


def extract_goal(data: object, text: str) -> str:
    """Return the goal text from a JSON reply or from free text."""
    if isinstance(data, dict):
        for key in ('goal', ':goal', 'Goal'):
            if isinstance(data.get(key), str):
                return data[key]
    return strip_fences(text or '')


@dataclass
class TaskSettings:
    """How Algorithm 4 reads tasks (defaults: :class:`~l3mp_ros.config.Config`)."""

    max_attempts: int = default('max_attempts')
    per_slot: int = default('per_slot')
    resolve_mentions: bool = default('resolve_mentions')
    read_back: bool = default('read_back')  # yes/no questions about a suspect goal's literals
    ask_left_out: bool = default('ask_left_out')  # what the task wants of a thing left out
    ask_kinds: bool = default('ask_kinds')  # what must hold of every one of a kind missed
    split_clauses: bool = default('split_clauses')
    prompt_context: str = default('prompt_context')  # what the prompt lists (Grounding.shown)
    answer_handles: bool = default('answer_handles')  # names in goals as short handles

    @classmethod
    def from_config(cls, cfg: Config) -> TaskSettings:
        """Return the settings of ``cfg``'s language section (one name end to end)."""
        return settings_of(cls, cfg)

    @property
    def attempts(self) -> int:
        """Return how many goals one task may get."""
        return max(1, self.max_attempts)


@dataclass
class Asking:
    """One task put to the LLM: the state Algorithm 4's loop carries."""

    req: Request
    grounding: GoalGrounding
    mentioned: set[str]  # the entities the task is about (the goal must name one)
    names: dict[str, str]  # how the task wrote the entities it settled on
    recalled: str  # what memory recalls for the task ('' without memory)
    parts: list[str]  # the requests of the task (descriptions left out)
    messages: Messages  # the request
    schema: dict[str, Any]
    asker: GoalReadBack  # yes/no questions about the goal's literals
    out: TaskOutcome  # the goal, plan and status of the latest answer
    chat: Callable[[dict[str, Any]], Chat]  # the goal question's proposer, for a schema
    flagged: bool = False  # a suspect goal was read back (once per task)
    asked_left_out: bool = False  # what the planned goal leaves out was asked about (once)
    asked_kinds: bool = False  # what must hold of every one of a kind was asked (once)
