# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""One utterance handled as the router says (a turn), and the robot's reply in words.

:meth:`Agent.say <l3mp_ros.agent.agent.Agent.say>` takes a turn: a report (Algorithm 3;
also the answer to a question the robot asked back, and "undo that"), a task (Algorithm
4) or a question answered from the facts. ``l3mp say`` prints its outcome; ``l3mp chat``
prints :meth:`Turn.reply`, one turn per line a person types.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..llm.protocol import Answer, llm_unavailable
from ..planning.status import Status
from ..text import UtteranceKind
from ..world.model import WorldModel
from ..world.phrasing import Phrasing
from ..world.templates import Form
from .report.reading import UpdateOutcome
from .task.outcome import TaskOutcome

EXPIRED = 'I did not get an answer to my question in time, so I left that report out.'


@dataclass
class Turn:
    """An utterance, what the router made of it, and its outcome (one of the three)."""

    text: str
    kind: UtteranceKind
    report: UpdateOutcome | None = None
    task: TaskOutcome | None = None
    answer: Answer | None = None
    #: questions asked back that waited too long and were closed before this turn
    expired: list[int] = field(default_factory=list)

    @property
    def failed(self) -> str | None:
        """Return why the turn could not be handled at all (the LLM unreachable), else None.

        A report rejected or a task without a plan is an outcome, not a failure; a question
        that could not be answered is one.
        """
        if self.answer is not None:
            return self.answer.error
        out = self.report or self.task
        errors = out.errors if out is not None else []
        return str(errors[0]) if llm_unavailable(errors) else None

    def reply(self, world: WorldModel) -> list[str]:
        """Return what the robot says back, first line first (the rest continue it)."""
        said = [EXPIRED] if self.expired else []
        if self.failed is not None:
            return [*said, f'Sorry, that did not work: {_one_line(self.failed)}']
        if self.answer is not None:
            return [*said, _one_line(self.answer.text)]
        if self.task is not None:
            return [*said, *_task_reply(self.text, self.task, world)]
        assert self.report is not None
        return [*said, *_report_reply(self.report, world)]


def _report_reply(out: UpdateOutcome, world: WorldModel) -> list[str]:
    """Say what a report wrote, the question it waits on, or why nothing was written."""
    if out.applied:
        said = Phrasing(world.domain, world.snapshot()).change(out.update) if out.update else ''
        head = 'Taken back.' if _withdraws(world, out.event_id) else 'Noted.'
        return [f'{head} {said}'.strip()]
    if out.question:  # said before it: why an answer did not fit (the question stays)
        return [*(_one_line(e) for e in out.errors if out.question not in e),
                _one_line(out.question)]
    if out.already:  # "Jerry put the TV remote on the table." where it lay: already so
        said = Phrasing(world.domain, world.snapshot())
        return [' '.join(said.say(f, Form.ALREADY) for f in out.already)]
    why = _one_line(str(out.errors[0])) if out.errors else 'no update was produced'
    if why[:1].isupper():  # already a sentence for the speaker ("There is no open ...")
        return [why]
    return [f'I could not update my knowledge: {why.rstrip(".")}.']


def _withdraws(world: WorldModel, event_id: int | None) -> bool:
    """Tell whether the event ``event_id`` takes back an earlier one ("undo that")."""
    if event_id is None:
        return False
    events = world.events(since_id=event_id - 1)
    return bool(events) and events[0].id == event_id and 'withdraws' in events[0].info


def _task_reply(text: str, out: TaskOutcome, world: WorldModel | None) -> list[str]:
    """Say a task's plan, one step a line in a sentence, or why there is none.

    "My plan for "Bring the pen to Anna" (2 steps):", "1. Remove the red pen from the
    table.", ...: each step by its action's template (:meth:`Phrasing.step`); without a
    world (the words only) the steps are said as planned.
    """
    status = Status(out.status)
    if status == Status.ALREADY_SATISFIED or (status.ok and not out.steps):
        return [f'Nothing to do: "{text}" already holds.']
    if status.ok:
        n = len(out.steps)
        steps = out.steps if world is None else \
            Phrasing(world.domain, world.snapshot()).steps(out.steps)
        return [f'My plan for "{text}" ({n} step{"s" if n != 1 else ""}):',
                *(f'{i}. {step}' for i, step in enumerate(steps, 1))]
    reason = f': {_one_line(str(out.errors[0]))}' if out.errors else ''
    return [f'I cannot do "{text}" ({status}){reason}']


def _one_line(text: str) -> str:
    """Return ``text`` with its whitespace, newlines included, collapsed."""
    return ' '.join(str(text).split())
