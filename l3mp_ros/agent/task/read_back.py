# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A goal read back to the LLM (Algorithm 4): a yes/no question per literal.

"Once the task is done, will this be true?" is easier for a small model than writing the
goal; it is asked of a goal whose polarity is suspect, and of single facts the goal
rewrites are unsure of (``wants``, :mod:`.goal_rewrites`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...llm.prompting import ask_yes_no
from ...llm.protocol import ChatLLM, LLMError
from ...planning.problem import render_goal
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph
from ..core.attempts import Trace
from ..core.wording import say
from .formula import conjoin, conjuncts
from .rewrites import MAX_READ_BACK


@dataclass
class GoalReadBack:
    """Ask the LLM, literal by literal, whether the task wants what a goal says."""

    llm: ChatLLM
    domain: DomainSchema
    enabled: bool = True

    def read_back(self, text: str, goal: str, kg: KnowledgeGraph, names: dict[str, str],
                  out: Trace, notes: list[str]) -> str | None:
        """Ask of each literal of a suspect goal whether the task wants it.

        A small model often gets the polarity wrong ("answer the phone" → the phone is
        ringing); a task asks for a change, so a goal that holds already is suspect, and so
        is one no plan reaches ("unlock the door" → the door is locked). A
        yes/no question per literal ("once the task is done, is Jerry's phone ringing?")
        is easier for it than writing the goal. Literals the answer contradicts are
        negated; return the new goal, or None when every literal is confirmed (the task
        really asks for what holds: nothing to do) or the goal is not a conjunction of a
        few ground literals.
        """
        parsed = conjuncts(self.domain, kg, goal) if self.enabled else None
        lits = [(n, lit) for n, lit in parsed or [] if lit is not None]
        if not lits or len(lits) != len(parsed or []) or len(lits) > MAX_READ_BACK:
            return None
        changed = False
        nodes = []
        for node, (fact, positive) in lits:
            wanted = self.wants(text, fact, names, out)
            if wanted is None:
                return None
            if wanted != positive:
                changed = True
                notes.append(f'negated {render_goal(node)}: asked whether the task wants '
                             f'{fact.text()}, the model answered {"yes" if wanted else "no"}')
                node = ('atom', fact.predicate, fact.args) if wanted else ('not', node)
            nodes.append(node)
        if not changed:
            return None
        return conjoin(nodes)

    def wants(self, text: str, fact: Fact, names: dict[str, str],
              out: Trace) -> bool | None:
        """Ask yes/no whether ``fact`` is true once the task is done; None on an LLM error."""
        claim = say(fact, plain=True, domain=self.domain, names=names)
        try:
            yes, reply = ask_yes_no(self.llm, 'outcome', f'Request: {" ".join(text.split())}\n'
                                    f'Question: When the robot is done, will this be true: '
                                    f'{claim}?')
        except LLMError:
            return None
        out.usage.add(reply)
        out.history.append({'read_back': claim, 'reply': (reply.text or '')[:200]})
        return yes
