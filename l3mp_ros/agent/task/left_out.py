# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A thing the task names that a planned goal leaves out, asked of the model (Algorithm 4).

:func:`left_out` finds them; the goal check :class:`LeftOut` (``left_out``) asks the model,
constrained to conditions about the thing, what must hold of it when the task is done, and
the goal grows by the answer (:func:`.rewrites.extend_goal`) when the bigger goal still
plans; otherwise it stays. Asked once per task.
"""

from __future__ import annotations

from ...llm.protocol import LLMError
from ...retrieval.mention import Mention
from ...text import words
from ...world.kg import KnowledgeGraph
from ..core.attempts import Verdict
from ..core.clauses import named_as_source
from ..core.rulings import Ruling
from .formula import exists_type, goal_entities
from .goal_checks import GoalAnswer, Planned
from .outcome import extract_goal
from .rewrites import extend_goal

# words by which a part of a task speaks of something another part names
PRONOUNS = frozenset('it them him her his its their they he she one'.split())


def left_out(goal: str, kg: KnowledgeGraph, mentions: list[Mention],
             parts: list[str] | None = None) -> list[str]:
    """Return the things the task names that a goal leaves out, in reading order.

    A thing counts when a mention names it alone (one candidate, not a plural: "Lena's
    tubes" may be several), describes no other mention and is not described away: no
    mention of the same thing describes another ("from Professor Okafor": where the rack
    is now). It is covered when the goal names it or a mention that describes it ("the
    water in the bathroom sink": the sink's faucet). "Bring Theo a charged tablet"
    answered with only the tablet's charge leaves Theo out. With ``parts`` (the task's
    requests, descriptions like "it is on the table" left out) only mentions inside one
    count.
    """
    named = goal_entities(goal, kg)
    asked = [' '.join(p.lower().split()) for p in parts] if parts is not None else None
    describing = {m.resolved for m in mentions if m.describes is not None}
    out: list[str] = []
    for m in mentions:
        n = m.resolved
        if n is None or m.plural or m.describes is not None or n in describing or n in out:
            continue
        if asked is not None and not any(' '.join(m.surface.lower().split()) in p
                                         for p in asked):
            continue
        group, grew = {m.start}, True
        while grew:  # the mentions describing it, and those describing them
            more = {o.start for o in mentions if o.describes in group} - group
            grew, group = bool(more), group | more
        covered = {c for o in mentions if o.start in group for c in o.candidates}
        if not covered & named:
            out.append(n)
    return out


class LeftOut:
    """What the task wants of each thing it names that a planned goal leaves out is asked.

    "Bring Rachel the juice glass filled with orange juice" answered with the glass in
    Rachel's hand alone: the model is asked, constrained to conditions about the orange
    juice, what must hold of it when the task is done, and the goal grows by that when
    the bigger goal still plans; otherwise the goal stays as it was.
    """

    name, setting = 'left_out', 'ask_left_out'

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether a planned goal is still to be checked for what it leaves out."""
        return not g.a.asked_left_out and g.verdict()[0] is Verdict.ACCEPTED and bool(g.goal)

    def judge(self, g: GoalAnswer) -> Ruling:
        """Ask about each thing left out (two at most); grow the goal by what plans."""
        g.a.asked_left_out = True
        a, domain, kg = g.a, g.world.domain, g.kg
        some = exists_type(domain, kg, g.goal)
        notes: list[str] = []
        best: Planned | None = None
        for name in left_out(g.goal or '', kg, a.req.mentions, a.parts)[:2]:
            try:
                more = self.ask(g, name, some, notes)
            except LLMError as exc:
                notes.append(f'asked about {name}: {exc}')
                break
            if more is None:
                continue
            goal = best.goal if best is not None else g.goal
            grown, settled = extend_goal(domain, kg, g.world.constraints, goal or '', more)
            got = g.adopt(grown) if grown is not None else None
            if got is not None:
                best = got
                notes.append(f'asked what the task wants of {name} (the goal left it out): '
                             f'added {more}' + ''.join(f'; {n}' for n in settled))
            else:
                notes.append(f'asked what the task wants of {name}, the answer {more} does '
                             'not plan with the goal: the goal stays')
        return Ruling.amend(best, notes) if best is not None else Ruling(notes=notes)

    @staticmethod
    def ask(g: GoalAnswer, name: str, some: str | None, notes: list[str]) -> str | None:
        """Return the conditions the model gives about ``name``, or None."""
        a = g.a
        among, asks = beside(a.req.text, a.req.mentions, a.parts, name)
        if among is not None and not asks:
            return None  # "out of the fridge" only: where something leaves, not a goal
        schema = a.grounding.about_schema(name, among=among, some=some)
        if schema is None:
            return None
        said = a.names.get(name, name.replace('_', ' '))
        where = f' ("{asks[-1]}")' if asks and asks[-1] != ' '.join(a.req.text.split()) \
            else ''
        got = a.chat(schema)(a.messages + [
            {'role': 'assistant', 'content': g.reply.text or ''},
            {'role': 'user', 'content': f'The task also names {said}{where}. Which condition '
                                        f'about {said} must hold when the task is done?'}])
        data = got.data if got.data is not None else extract_goal(None, got.text)
        more, errors = a.grounding.read_about(data, some)
        if errors or not more:
            notes.append(f'asked about {name}, the answer did not read: {errors[:1]}')
            return None
        return more


def beside(text: str, mentions: list[Mention], parts: list[str],
           name: str) -> tuple[frozenset[str] | None, list[str]]:
    """Return what a condition about ``name`` may name besides it, and where it is asked.

    The parts of the task that name ``name``, not as where something is taken from, and
    the things they name: asked what must hold of the freezer in "get Theo's tube out of
    the minus eighty, and lock the freezer afterwards", a small model put the tube back in
    it. A part that speaks of something by a pronoun ("put it back in the fridge") may name
    anything the task names (None), and so may a question about a thing no part could be
    found naming. No part, though parts name it: it is named only as where something
    leaves, and is not asked about.
    """
    told = words(text)
    among: set[str] | None = {name}
    asks: list[str] = []
    found = False
    for part, at in spans(text, parts):
        here = [m for m in mentions if m.start in at]
        named = [m for m in here if m.resolved == name]
        found |= bool(named)
        if not any(not named_as_source(told, m.start) for m in named):
            continue  # not named here, or only as where something leaves
        asks.append(part)
        if among is not None and PRONOUNS & set(told[at.start:at.stop]):
            among = None
        if among is not None:
            among |= {c for m in here for c in m.candidates}
    if not found:
        return None, []
    return (frozenset(among) if among is not None else None), asks


def spans(text: str, parts: list[str]) -> list[tuple[str, range]]:
    """Return each of ``text``'s ``parts`` found in it, in order, with its word positions."""
    low, at, out = ' '.join(text.lower().split()), 0, []
    for part in parts:
        p = ' '.join(part.lower().split())
        k = low.find(p, at)
        if k < 0:
            continue
        first = len(words(low[:k]))
        out.append((' '.join(part.split()), range(first, first + len(words(p)))))
        at = k + len(p)
    return out
