# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""One propose–judge–re-ask loop, shared by Algorithms 3 and 4.

A *proposer* asks the LLM for an answer (:class:`Chat`: one constrained chat call; a task's
proposer asks part by part first); a *judge* reads the answer and returns a
:class:`Judged`: a :class:`Verdict`, the value it settled on, the error sentences, the
re-prompt to send when the verdict is one a re-prompt may mend, and what the history keeps
of this attempt. :class:`Attempts` owns everything in between: the growing message list,
LLM errors, and the :class:`Trace` (usage, attempts, history, provenance) the checks and
read-backs also write to. A new proposer or judge is a callable of the same shape;
nothing else changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Generic, TypeVar

from ...llm.handles import LiteralHandles, Tokenize
from ...llm.protocol import ChatLLM, LLMError, LLMReply, Usage, llm_failure
from ...stages import Stages, stage

T = TypeVar('T')
Messages = list[dict[str, str]]


class Verdict(str, Enum):
    """What a judge made of one answer."""

    ACCEPTED = 'accepted'  # the answer passed every check
    NO_CHANGE = 'no_change'  # the answer states no change (a report)
    RESTATED = 'restated'  # everything the answer states already holds (a report)
    INVALID = 'invalid'  # the answer breaks a rule: re-prompted with the errors
    UNSOLVABLE = 'unsolvable'  # no plan reaches the goal: re-prompted
    ALREADY_HOLDS = 'already_holds'  # the goal holds, the task asks for a change: re-prompted
    FAILED = 'failed'  # a failure no re-prompt mends (the planner timed out, ...)
    LLM_ERROR = 'llm_error'  # the LLM call failed: nothing to judge

    @property
    def retried(self) -> bool:
        """Tell whether a re-prompt may mend an answer judged so."""
        return self in (Verdict.INVALID, Verdict.UNSOLVABLE, Verdict.ALREADY_HOLDS)


@dataclass
class Judged(Generic[T]):
    """One judged answer: the verdict, what it settled on, and what was wrong."""

    verdict: Verdict
    value: T | None = None
    errors: list[str] = field(default_factory=list)
    feedback: str = ''  # the re-prompt, when the verdict is retried
    record: dict[str, Any] = field(default_factory=dict)  # the history's entry (no 'attempt')

    @property
    def accepted(self) -> bool:
        """Tell whether the answer passed."""
        return self.verdict is Verdict.ACCEPTED


class DoubtReason(StrEnum):
    """Why the pipeline doubted the answer it kept (``Trace.doubts``)."""

    REPROMPTED = 'reprompted'  # the first answer was wrong and asked again
    NARRATIVE = 'narrative'  # several places of one thing told: the last named was kept
    CHOICE = 'choice'  # readings that disagreed, settled by a numbered choice
    DENIED = 'read_back_denied'  # the read-back denied a fact: asked again without it
    REPEATED = 'repeated_part'  # a part repeated an earlier part's change: asked again
    PLACE = 'place_as_before'  # asked where a moved thing is, both orders said "as before"
    AMENDED = 'place_amended'  # a place both orders of a where-question gave was taken in
    DESCRIBED = 'described_dropped'  # what a thing named only to place another was dropped


@dataclass
class Trace:
    """What one request's LLM work cost and said: usage, attempts, history, provenance."""

    usage: Usage = field(default_factory=Usage)
    attempts: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)  # model, endpoint, reply hash
    stages: Stages = field(default_factory=Stages)  # seconds per stage, each LLM call's cost
    #: why the answer kept was in doubt (a re-prompt, a settled choice, a denied read-back,
    #: a trimmed narrative): an applied report with doubts is marked doubtful in the log
    doubts: list[str] = field(default_factory=list)
    #: per check that did something (a ruling other than a bare pass, or LLM calls): how
    #: many such rulings and how many calls (:func:`.rulings.judge`); a check absent here
    #: changed nothing, so switching it off cannot change the outcome
    checks: dict[str, dict[str, int]] = field(default_factory=dict)

    def doubt(self, why: str) -> None:
        """Record one reason why the answer is in doubt, once."""
        if why not in self.doubts:
            self.doubts.append(why)


class Traced:
    """An outcome that keeps a :class:`Trace`: its attempts, usage and history, read-only."""

    trace: Trace

    @property
    def attempts(self) -> int:
        """Return how many answers were asked for."""
        return self.trace.attempts

    @property
    def usage(self) -> Usage:
        """Return the LLM usage."""
        return self.trace.usage

    @property
    def history(self) -> list[dict[str, Any]]:
        """Return the answers, questions and replies, in order."""
        return self.trace.history


def provenance(llm: ChatLLM, reply: LLMReply) -> dict[str, Any]:
    """Return where an answer came from: the model, the endpoint and the reply's hash."""
    return {'model': llm.model, 'endpoint': llm.endpoint,
            'reply_sha256': hashlib.sha256((reply.text or '').encode()).hexdigest()}


Propose = Callable[[Messages, int], LLMReply]  # (messages, attempt) → reply; may raise LLMError
Judge = Callable[[LLMReply], Judged[Any]]


@dataclass
class Chat:
    """The plain proposer: one chat call constrained by a JSON schema, counted in a trace."""

    llm: ChatLLM
    trace: Trace
    schema: Callable[[], dict[str, Any]] | dict[str, Any]
    schema_name: str
    max_tokens: int
    #: the model's tokenizer: the schema's ``[name, ...]`` branches are offered as handles
    #: and the reply's data read back to whole names (:class:`~l3mp_ros.llm.handles.
    #: LiteralHandles`); its text keeps what the model wrote
    tokenize: Tokenize | None = None
    #: top candidates asked for at each generated token (0: none; see :mod:`.slot_odds`)
    logprobs: int = 0
    #: the schema of the last call, as built for it (the reply's odds are read against it)
    sent: dict[str, Any] | None = field(default=None, init=False)

    def __call__(self, messages: Messages, attempt: int = 1) -> LLMReply:
        """Ask once; the schema is rebuilt per call when it is given as a function."""
        schema = self.schema() if callable(self.schema) else self.schema
        self.sent = schema
        short = LiteralHandles(schema, self.tokenize) if self.tokenize and schema else None
        extra = ({'logprobs': self.logprobs}
                 if self.logprobs > 0 and getattr(self.llm, 'supports_logprobs', False) else {})
        reply = self.llm.chat(messages, schema=short.schema if short else schema,
                              schema_name=self.schema_name, max_tokens=self.max_tokens, **extra)
        self.trace.usage.add(reply)
        if short is not None and reply.data is not None:
            reply = dataclasses.replace(reply, data=short.expand(reply.data))
        return reply


def reprompt(messages: Messages, reply: LLMReply, feedback: str) -> Messages:
    """Return ``messages`` with the answer and what was wrong with it appended."""
    return messages + [{'role': 'assistant', 'content': reply.text},
                       {'role': 'user', 'content': feedback}]


@dataclass
class Attempts:
    """Propose, judge, re-prompt with what was wrong: at most ``limit`` answers.

    A proposer counts its replies' usage in :attr:`trace`; the loop counts the attempts,
    keeps each judged answer in the history and the last answer's provenance.
    """

    llm: ChatLLM
    trace: Trace
    limit: int
    judged: list[Judged[Any]] = field(default_factory=list)  # the last run's, in order

    def run(self, messages: Messages, propose: Propose, judge: Judge) -> Judged[Any]:
        """Return the first answer not to be re-prompted, or the last one.

        An answer that repeats the one before it word for word, and is judged with the
        same re-prompt, ends the loop: the model did not take the re-prompt in, and asking
        a third time with the same exchange appended costs a whole answer (~3-8 s on 2
        cores) for what was, on the sets measured, the same answer again.
        """
        judged: Judged[Any] = Judged(Verdict.INVALID)
        self.judged = []
        last: tuple[str, str] | None = None  # (the answer without spacing, its re-prompt)
        for attempt in range(1, max(1, self.limit) + 1):
            self.trace.attempts += 1
            try:
                reply = propose(messages, attempt)
            except LLMError as exc:
                return Judged(Verdict.LLM_ERROR, errors=[llm_failure(exc)])
            self.trace.provenance = provenance(self.llm, reply)
            with stage('check'):
                judged = judge(reply)
            self.judged.append(judged)
            self.trace.history.append({'attempt': attempt, **judged.record})
            if not judged.verdict.retried:
                return judged
            said = (''.join((reply.text or '').split()), judged.feedback)
            if said == last:
                self.trace.history[-1]['repeated'] = True
                return judged
            last = said
            messages = reprompt(messages, reply, judged.feedback)
            self.trace.doubt(DoubtReason.REPROMPTED)
        return judged
