# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The L3M+P agent: one object wiring world model, LLM, retriever and planner.

:func:`l3mp_ros.compose.build_agent` builds one from the configuration; the pipelines
live in :mod:`.update` (Algorithm 3), :mod:`.task` (Algorithm 4) and :mod:`.router`;
one utterance routed and handled is a :class:`~.turn.Turn` (:meth:`Agent.say`).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ..config import Config
from ..llm.protocol import Answer, ChatLLM, Usage
from ..planning.planner import Planner
from ..retrieval.base import Retriever
from ..text import UtteranceKind
from ..world.model import WorldModel
from ..world.support import told_notes
from .report.update import NLUpdater, UpdateOutcome, UpdateSettings
from .router import QuestionAnswerer, Router
from .task.task import TaskOutcome, TaskPlanner, TaskSettings
from .turn import Turn

if TYPE_CHECKING:
    from ..memory.hooks import Memory


class Agent:
    """Facade over the pipelines; thread-safe for one writer via the world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever, planner: Planner,
                 config: Config | None = None, *, memory: Memory | None = None) -> None:
        cfg = config if config is not None else Config()
        self.world = world
        self.report_timeout = cfg.report_timeout
        self.llm = llm
        self.retriever = retriever
        self.planner = planner
        self.memory = memory  # None: lifelong memory off
        if memory is not None:
            memory.attach(world)
        self.updater = NLUpdater(world, llm, retriever, UpdateSettings.from_config(cfg),
                                 memory=memory)
        self.tasks = TaskPlanner(world, llm, retriever, planner, TaskSettings.from_config(cfg),
                                 memory=memory)
        self.router = Router(llm)
        self.answerer = QuestionAnswerer(llm, retriever, domain=world.domain.name,
                                         schema=world.domain,
                                         constraints=world.constraints)

    def _budget(self) -> contextlib.AbstractContextManager[None]:
        """Bound the LLM calls of one request by ``report_timeout`` (if the client can)."""
        budget = getattr(self.llm, 'budget', None)
        return budget(self.report_timeout) if callable(budget) else contextlib.nullcontext()

    def update(self, text: str, source: str = 'nl') -> UpdateOutcome:
        """Algorithm 3 on one report, or the answer to the open question of an earlier one."""
        answered = self.updater.answer(text, source=source)
        if answered is not None:
            return answered
        with self._budget():
            return self.updater.run(text, source=source)

    def task(self, text: str, task_id: str | None = None) -> TaskOutcome:
        """Algorithm 4 on one NL task."""
        with self._budget():
            return self.tasks.run(text, task_id=task_id)

    def plan_goal(self, goal: str, task_id: str | None = None,
                  text: str | None = None) -> TaskOutcome:
        """Plan a PDDL goal (no LLM)."""
        return self.tasks.plan_goal(goal, task_id=task_id, text=text)

    def ask(self, text: str) -> Answer:
        """Answer a question from the KG (past-tense ones from episodes, if enabled)."""
        kg = self.world.snapshot()
        with self._budget():
            if self.memory is not None:
                past = self.memory.answer(kg, text)
                if past is not None:
                    return past
            answer = self.answerer.answer(kg, text)
        notes = told_notes(self.world, answer.facts)  # seen or only told (issue 43)
        if notes and not answer.error:
            answer.text = f'{answer.text.rstrip()} {" ".join(notes)}'
        return answer

    def route(self, text: str, usage: Usage | None = None) -> str:
        """Classify an utterance as ``report``, ``task`` or ``question``.

        An answer to the open question of an earlier report is a ``report`` (no LLM call),
        and so is an answer with no question open (it is told so, nothing is written).
        """
        if self.updater.answers(text) or self.updater.questions.stray(text):
            return 'report'
        with self._budget():
            return self.router.classify(text, usage)

    def say(self, text: str, kind: UtteranceKind | None = None, *,
            source: str = 'nl') -> Turn:
        """Handle one utterance as a ``kind`` (None: as :meth:`route` says): one turn.

        What other writers committed since the last turn is taken in first, so a long
        session (``l3mp chat``) reads the store as a fresh ``l3mp say`` would, and a
        question asked back that waited past ``clarify_timeout`` is closed (``expired``).
        """
        self.world.refresh()
        expired = self.updater.expire(source=source)
        kind = UtteranceKind(kind if kind is not None else self.route(text))
        if kind == UtteranceKind.REPORT:
            turn = Turn(text, kind, report=self.update(text, source=source))
        elif kind == UtteranceKind.TASK:
            turn = Turn(text, kind, task=self.task(text))
        else:
            turn = Turn(text, kind, answer=self.ask(text))
        turn.expired = expired
        return turn

    def close(self) -> None:
        """Close the store and the LLM client."""
        if self.memory is not None:
            self.memory.close()
        self.world.close()
        close = getattr(self.llm, 'close', None)
        if callable(close):
            close()
