# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report read from state questions alone, for the benchmarks that measure it.

Issue 45 measured state questions as the proposer of a whole change (every thing the
report names asked where it is and what states it has, the changes read from the options
chosen): they lost to the free diff, and the runtime keeps them only as its place check
(:mod:`l3mp_ros.agent.report.place_questions`). This module keeps the whole reading for
``benchmarks/state_questions.py`` and its tests: :func:`read_report`,
:func:`questions_for`, :func:`settle_mentions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros.agent.core.attempts import Trace
from l3mp_ros.agent.report.place_questions import (
    Question,
    as_said,
    ask,
    changeable,
    fits,
    place_groups,
    where_question,
)
from l3mp_ros.llm.prompting import prompt_text
from l3mp_ros.llm.protocol import ChatLLM, LLMError, llm_failure
from l3mp_ros.retrieval.mention import Mention
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.phrasing import Phrasing


@dataclass
class StateReading:
    """The change a report's state questions give, and how it was read."""

    update: Update = field(default_factory=Update)
    errors: list[str] = field(default_factory=list)
    asked: int = 0  # questions put to the model
    answers: list[dict[str, Any]] = field(default_factory=list)

def state_question(kg: KnowledgeGraph, phrasing: Phrasing, fact: Fact, said: str,
                   style: str = 'changed') -> Question:
    """Return a question on whether a one-argument fact holds after the report.

    The answer that keeps the state before comes first. ``style``: ``changed`` asks whether
    the report says it changed; ``true`` whether it is true after the report.
    """
    sentence = phrasing.sentence(fact).rstrip('.')
    holds = fact in kg
    if style == 'true':
        pddl = f'({fact.predicate} {" ".join(fact.args)})'
        text = (f'{said[0].upper() + said[1:]}: {pddl}, "{sentence}". Before the report this '
                f'was {"true" if holds else "false"}. After the report, is it true or false?')
        options = ['True (as before).', 'False.'] if holds else ['False (as before).', 'True.']
    else:
        now = _negated(phrasing, fact) if holds else sentence + ' now.'
        text = f'About {said}. Does the report say that this changed: "{now}"?'
        options = ['No, the report does not say so.', 'Yes, the report says so.']
    facts = [frozenset({fact}), frozenset()] if holds else [frozenset(), frozenset({fact})]
    return Question(fact.args[0], text, options, facts, frozenset({fact}))


def _negated(phrasing: Phrasing, fact: Fact) -> str:
    """Return "X is no longer ..." for a fact that stops holding."""
    text = phrasing.sentence(fact).rstrip('.')
    subject = phrasing.entity(fact.args[0])
    subject = subject[0].upper() + subject[1:]
    rest = text[len(subject):].strip() if text.startswith(subject) else text
    for verb in ('is ', 'are ', 'was '):
        if rest.startswith(verb):
            return f'{subject} {verb}no longer {rest[len(verb):]}.'
    return f'{subject}{"" if rest.startswith(chr(39)) else " "}{rest}: no longer so.'


def questions_for(world: WorldModel, kg: KnowledgeGraph, phrasing: Phrasing, entity: str,
                  objects: Sequence[str], said: str | None = None,
                  preds: frozenset[str] | None = None, style: str = 'changed'
                  ) -> list[Question]:
    """Return the state questions about ``entity``: where it is, then each state it has.

    ``objects``: the entities a new place may be (the report's referents).
    """
    preds = changeable(world) if preds is None else preds
    said = said or phrasing.entity(entity)
    out = [q for g in place_groups(world, kg, entity, preds)
           if (q := where_question(world, kg, phrasing, entity, said, g, objects))]
    for name in sorted(preds):
        if world.domain.predicates[name].arity == 1 and fits(world, kg, entity, name, 0):
            out.append(state_question(kg, phrasing, Fact(name, (entity,)), said, style))
    return out

def which(llm: ChatLLM, report: str, surface: str, options: Sequence[str],
          phrasing: Phrasing, trace: Trace) -> str | None:
    """Ask which of several entities the report's words ``surface`` mean; None if unsure."""
    q = Question('', f'Which one does the report mean by "{surface}"?',
                 [phrasing.entity(o)[0].upper() + phrasing.entity(o)[1:] + '.'
                  for o in options], [frozenset()] * len(options), frozenset())
    k = ask(llm, prompt_text('which'), report, q, trace)
    return options[k] if k >= 0 else None


MAX_WHICH = 4  # candidates of one mention the model may choose among


def settle_mentions(llm: ChatLLM, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
                    phrasing: Phrasing, trace: Trace) -> tuple[list[str], list[str]]:
    """Return (entities the mentions mean, in reading order; the mentions guessed).

    A mention with one candidate is that entity; one with a few is asked of the model
    ("the outside roller door": the yard's or the dock's?); more are left out.
    """
    report = ' '.join(text.split())
    out: list[str] = []
    guessed: list[str] = []
    for m in mentions:
        if m.resolved:
            out.append(m.resolved)
        elif 1 < len(m.candidates) <= MAX_WHICH:
            chosen = which(llm, report, m.surface or m.text, m.candidates, phrasing, trace)
            if chosen is not None:
                out.append(chosen)
                guessed.append(m.surface or m.text)
    return list(dict.fromkeys(out)), guessed


def read_report(llm: ChatLLM, world: WorldModel, kg: KnowledgeGraph, text: str,
                entities: Sequence[str], trace: Trace, *,
                written: dict[str, str] | None = None,
                objects: Sequence[str] | None = None) -> StateReading:
    """Read the change ``text`` tells about ``entities`` from state questions.

    ``objects``: what a new place may be (default: ``entities``). ``written``: how the
    report wrote each entity. The reading's update is what the answers chose, not yet
    completed by the rules.
    """
    out = StateReading()
    phrasing = Phrasing(world.domain, kg, legacy=True)
    system = prompt_text('state')
    report = ' '.join(text.split())
    preds = changeable(world)
    adds: set[Fact] = set()
    removes: set[Fact] = set()
    for entity in entities:
        said = as_said(phrasing, entity, written)
        for q in questions_for(world, kg, phrasing, entity, list(objects or entities),
                               said, preds):
            try:
                k = ask(llm, system, report, q, trace)
            except LLMError as exc:
                out.errors = [llm_failure(exc, 'state question')]
                return out
            out.asked += 1
            out.answers.append({'q': q.text, 'chose': q.options[k] if k >= 0 else None})
            if k < 0:
                out.errors = [f'asked "{q.text}", the model answered outside the options; '
                              'nothing is applied']
                return out
            change = q.update(k)
            adds |= change.add
            removes |= change.remove
    out.update = Update.of(removes - adds, adds - removes)
    return out
