# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""An answer that carries content, read as a correction of the reading asked about.

"No, she turned it on.", "No, it's on the desk.", "Yes, and Joana went in too.": the
answer's words after its yes/no (:func:`..core.asking.content_of`) say what the reading got
wrong or left out. One call reads the report again with the robot's question and the
person's answer beside it, constrained to the report's schema (the same grounding as its
first reading: retrieval, mentions, the domain's predicates); the answer is completed by
the domain's rules and verified on the graph as it is now. What comes back is offered once
more ("Then: ... Is that right?"), never written on the strength of one reading alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...llm.handles import tokenizer
from ...llm.protocol import ChatLLM, LLMError
from ...retrieval.base import Retriever
from ...world.complete import complete
from ...world.kg import Update
from ...world.model import WorldModel
from ..core.attempts import Trace
from ..core.grounding import grounded_message
from ..core.request import Request
from .context import report_context
from .reading import UPDATE_TOKENS
from .settings import UpdateSettings


@dataclass
class Corrected:
    """What a correction came to: the change it reads (None: none) and why not."""

    update: Update | None
    why: str = ''


def correction_text(report: str, question: str, answer: str) -> str:
    """Return the utterance the correction is read as: the report, the question, the answer."""
    return (f'{" ".join(report.split())} (The robot asked: "{" ".join(question.split())}" '
            f'The person who made the report answered: "{" ".join(answer.split())}")')


def read_correction(world: WorldModel, llm: ChatLLM, retriever: Retriever,
                    settings: UpdateSettings, system: str, report: str, question: str,
                    answer: str, trace: Trace) -> Corrected:
    """Read ``report`` again with the question asked and the answer given; one LLM call.

    Returns the verified change (completed by the domain's rules) or why there is none.
    """
    req = Request.start(world, report)
    if req is None:
        return Corrected(None, 'the report is empty')
    why = req.retrieve(retriever, llm, None, trace.usage)
    if why is not None:
        return Corrected(None, why)
    ctx = report_context(world, settings, req.kg, req.retrieval, req.resolve(),
                         tokenizer(llm, settings.answer_handles), f'{report} {answer}')
    g = ctx.grounding
    entities, facts = g.shown(settings.prompt_context if settings.prompt_context != 'widen'
                              else 'full', g.about())
    said = correction_text(report, question, answer)
    messages = [{'role': 'system', 'content': system},
                {'role': 'user', 'content': grounded_message(req.kg, entities, facts, 'Report',
                                                             said)}]
    try:
        reply = llm.chat(messages, schema=g.update_schema(), schema_name='kg_update',
                         max_tokens=UPDATE_TOKENS)
    except LLMError as exc:
        return Corrected(None, f'the model could not read the correction: {exc}')
    trace.usage.add(reply)
    trace.history.append({'correction': answer, 'reply': (reply.text or '')[:2000]})
    stated, errors = g.read_update(reply.data if reply.data is not None else reply.text)
    if errors:
        return Corrected(None, '; '.join(errors))
    done = complete(req.kg, stated, world.constraints, world.domain)
    if done.update.is_empty():
        return Corrected(None, 'read with the answer, the report changes nothing')
    problems = world.verifier.check(req.kg, done.update)
    if problems:
        return Corrected(None, '; '.join(problems))
    return Corrected(done.update)
