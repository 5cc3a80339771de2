# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report of what already holds: "Jerry put the TV remote on the table." where it lay.

With ``changes_only`` the answer's schema can only state changes, so a report that
restates the graph reads as no change at all. Before it is refused, the facts that may
change and hold now about the things it names are put to the model as a numbered choice,
with "none of them" last, in both orders of the facts (:func:`~...llm.prompting.
both_orders`): the fact both orders pick is what the report says, already so, and the
robot says so ("The TV remote is already on the living room table.") instead of "I could
not understand". Two calls, only for a report read as no change; nothing is written.
"""

from __future__ import annotations

from ...llm.prompting import ask_choice, both_orders
from ...llm.protocol import ChatLLM
from ...world.kg import Fact, KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from ..core.attempts import Trace
from .context import changing
from .read_back import report_head

__all__ = ['MAX_OFFERED', 'already_said']

MAX_OFFERED = 6  # facts offered at most (a longer list is no choice for a small model)
NONE = 'None of them: the report says something else.'


def candidates(world: WorldModel, kg: KnowledgeGraph, named: list[str]) -> list[Fact]:
    """Return the facts that may change and hold now about the things named, in order.

    May change: a report may change them (:func:`.context.changing`: an action changes
    them, or a rule keeps them single, as where a person is).
    """
    fluent = changing(world)
    out: list[Fact] = []
    for entity in dict.fromkeys(named):
        out += sorted(f for f in kg.facts_of(entity)
                      if f.args and f.args[0] == entity and f.predicate in fluent
                      and f not in out)
    return out[:MAX_OFFERED]


def already_said(world: WorldModel, llm: ChatLLM, kg: KnowledgeGraph, text: str,
                 named: list[str], out: Trace) -> list[Fact]:
    """Return the fact the report restates, both option orders agreeing; [] otherwise.

    Raises the client's ``LLMError``.
    """
    facts = candidates(world, kg, named)
    if not facts:
        return []
    said = Phrasing(world.domain, kg)
    claims = [said.say(f).rstrip('.') for f in facts]

    def pick(order: list[int]) -> int:
        j, reply = ask_choice(llm, 'already', report_head(text, None),
                              [claims[i] for i in order] + [NONE])
        out.usage.add(reply)
        out.history.append({'already': [claims[i] for i in order] + [NONE],
                            'reply': (reply.text or '')[:200]})
        return j if 0 <= j < len(order) else -1

    k, agreed = both_orders(pick, len(facts))
    return [facts[k]] if k >= 0 and agreed else []
