# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers for testing one check alone: a scripted LLM, a report read by hand, coverage.

No server and no loop: a test builds the check's input (a report's :class:`Reading`, one
part's :class:`PartQuestion`, a task's :class:`Asking`) on the ``mini`` world of
``conftest.py`` and calls the check's ``applies`` and ``judge`` itself. :func:`covers`
marks a test as one of a check's, so that ``test_check_coverage.py`` can tell that every
check of the pipelines has tests of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from l3mp_ros.agent.core.attempts import Trace
from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.report.context import report_context
from l3mp_ros.agent.report.reading import PartQuestion, Reading
from l3mp_ros.agent.report.update import UpdateSettings
from l3mp_ros.llm.protocol import LLMReply
from l3mp_ros.retrieval.base import Retrieval
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.model import WorldModel

from .conftest import MINI_CONSTRAINTS, MINI_DOMAIN, MINI_STATE

#: per check class name, the tests that exercise it (filled as the test modules load)
COVERED: dict[str, list[str]] = {}

Reply = dict[str, Any] | Callable[[list[dict[str, str]]], dict[str, Any]]


def covers(*checks: type) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a test as exercising ``checks`` (see ``test_check_coverage.py``)."""
    def mark(test: Callable[..., None]) -> Callable[..., None]:
        for check in checks:
            COVERED.setdefault(check.__name__, []).append(test.__name__)
        return test
    return mark


class ScriptedLLM:
    """A :class:`~l3mp_ros.llm.protocol.ChatLLM` answering from a script, in order.

    Each reply is the JSON data of the answer, or a function of the messages returning it
    (:func:`option`). A call beyond the script fails the test.
    """

    model = 'scripted'
    endpoint = None

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.asked: list[str] = []  # the schema name of each call, in order

    def chat(self, messages: list[dict[str, str]], *, schema: dict | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None,
             **extra: Any) -> LLMReply:
        """Return the next scripted reply."""
        self.asked.append(schema_name)
        assert self.replies, f'no reply scripted for call {len(self.asked)} ({schema_name})'
        got = self.replies.pop(0)
        data = got(messages) if callable(got) else got
        return LLMReply(json.dumps(data), data, 1, 1, 0.0, False, 1)


def option(words: str) -> Reply:
    """Return the answer to a numbered choice: the option whose sentence has ``words``."""
    def pick(messages: list[dict[str, str]]) -> dict[str, Any]:
        listed = re.findall(r'^(\d+)\. (.*)$', messages[-1]['content'], re.M)
        chosen = [n for n, said in listed if words in said]
        assert len(chosen) == 1, (words, listed)
        return {'answer': chosen[0]}
    return pick


def mini_world(without: str | None = None) -> WorldModel:
    """Return the ``mini`` world in memory, less the entity ``without`` and its facts.

    Without the robot, the people are said by their names (their type is the only one
    under ``agent``): what the checks about who put a thing somewhere need.
    """
    state = {**MINI_STATE,
             'entities': [e for e in MINI_STATE['entities'] if e['name'] != without],
             'facts': [f for f in MINI_STATE['facts'] if without not in f]}
    return WorldModel(DomainSchema.from_text(MINI_DOMAIN), Constraints.from_dict(MINI_CONSTRAINTS),
                      kg=KnowledgeGraph.from_json(state))


def ruled(check: Any, read: Any) -> Any:
    """Return ``check``'s ruling on ``read``, which the check must apply to."""
    assert check.applies(read), f'{check.name} does not apply'
    return check.judge(read)


def fact(subject: str, predicate: str, *rest: str) -> Fact:
    """Return a fact written as the store writes it: subject, predicate, the rest."""
    return Fact(predicate, (subject, *rest))


def reading(world: WorldModel, text: str, parts: list[str] | None = None,
            settings: UpdateSettings | None = None) -> Reading:
    """Return a report read by hand: every fact retrieved, its mentions resolved."""
    req = Request.start(world, text)
    assert req is not None
    req.retrieval = Retrieval(facts=set(req.kg.facts))
    ctx = report_context(world, settings or UpdateSettings(), req.kg, req.retrieval,
                         req.resolve())
    return Reading(req, ctx, {'role': 'system', 'content': 'Answer.'}, '', parts or [text],
                   req.kg)


def question(world: WorldModel, r: Reading, part: str | None = None,
             checks: tuple[Any, ...] = (), settings: UpdateSettings | None = None,
             llm: Any = None) -> PartQuestion:
    """Return one part's question as Algorithm 3 asks it (judged by ``checks``)."""
    return PartQuestion.asking(world, settings or UpdateSettings(), llm or ScriptedLLM(),
                               checks, r, part or r.parts[0], Trace())
