# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report of what already holds: "Jerry put the TV remote on the table." where it lay.

With ``changes_only`` the answer's schema can only state changes, so a report that
restates the graph reads as no change at all (or as a change the speaker denies). Then
the facts that may change and hold now about the things it names are read back, one
yes/no each, as the read-back reads a stated fact: the surest "yes" is what the report
says, already so, and the robot says so ("The TV remote is already on the living room
table.") instead of "I could not understand". At most :data:`MAX_OFFERED` calls, only
for a report read as no change or whose talk ended in no; nothing is written.
"""

from __future__ import annotations

from ...llm.prompting import ask_yes_no, yes_probability
from ...llm.protocol import ChatLLM
from ...world.kg import Fact, KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from ..core.attempts import Trace
from .context import subject_predicates
from .read_back import read_back_question

__all__ = ['MAX_OFFERED', 'already_said', 'candidates']

MAX_OFFERED = 4  # facts read back at most (one call each)
MIN_YES = 0.6  # the least P(yes) of a "yes" that says the report restates the fact


def candidates(world: WorldModel, kg: KnowledgeGraph, named: list[str]) -> list[Fact]:
    """Return the facts that may change and hold now about the things named, in order.

    May change about their first argument (:func:`.context.subject_predicates`: an action
    changes them, or a rule keeps them single for it, as where a person is; not which
    room has which furniture).
    """
    fluent = subject_predicates(world)
    out: list[Fact] = []
    for entity in dict.fromkeys(named):
        out += sorted(f for f in kg.facts_of(entity)
                      if f.args and f.args[0] == entity and f.predicate in fluent
                      and f not in out)
    return out[:MAX_OFFERED]


def already_said(world: WorldModel, llm: ChatLLM, kg: KnowledgeGraph, text: str,
                 named: list[str], out: Trace) -> list[Fact]:
    """Return the fact the report restates (the surest "yes"), or [] when none is said.

    Each candidate is read back as the read-back does (a yes/no per statement, its
    P(yes)); a numbered choice among them follows the options' positions on the small
    model. Raises the client's ``LLMError``.
    """
    facts = candidates(world, kg, named)
    said = Phrasing(world.domain, kg)
    best: tuple[float, Fact] | None = None
    for fact in facts:
        claim = said.say(fact).rstrip('.')
        yes, reply = ask_yes_no(llm, 'confirm', read_back_question(text, None, claim))
        out.usage.add(reply)
        p_yes = yes_probability(reply)
        out.history.append({'already': claim, 'reply': (reply.text or '')[:200],
                            'fact': list(fact.triplet()), 'p_yes': p_yes})
        sure = 1.0 if p_yes is None else p_yes
        if yes and sure >= MIN_YES and (best is None or sure > best[0]):
            best = (sure, fact)
    return [] if best is None else [best[1]]
