# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What a planned goal misses, asked of the model (Algorithm 4): the last two goal checks.

A goal that plans may still miss part of the task: every one of a kind the task speaks of
as a whole (:class:`Kinds`, from :func:`uncovered`), or a thing the task names
(:class:`LeftOut`, from :func:`left_out`). The model is asked, constrained to conditions
about what was missed, and the goal grows by the answer (:func:`.goal_rewrites.
extend_goal`) when the bigger goal still plans a change; otherwise it stays. Each is asked
once per task.
"""

from __future__ import annotations

from typing import Any

from ..llm.protocol import LLMError
from ..retrieval.mentions import Mention
from ..text import name_words, words
from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph
from .attempts import Verdict
from .clauses import named_as_source
from .goal_checks import GoalAnswer, Planned
from .goal_formula import exists_type, goal_entities, top_level
from .goal_rewrites import extend_goal, last_condition, settle_quantified
from .kinds import ALL, Kind, kinds
from .rulings import Ruling
from .task_asking import extract_goal

# words by which a part of a task speaks of something another part names
PRONOUNS = frozenset('it them him her his its their they he she one'.split())
MAX_KINDS = 3  # kinds of one task asked about


def uncovered(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None,
              kinds: list[Kind]) -> list[Kind]:
    """Return the kinds a task asks about as a whole that a goal does not cover.

    A kind is covered by a ``forall`` over its type (or a type above or below it) or by
    naming every member: "turn off all the lights" answered with three of eleven lights
    is not.
    """
    items = top_level(domain, kg, goal, consistent=False) if goal else []
    over = {t for n in items or [] if n[0] == 'forall' for _, t in n[1]}
    named = goal_entities(goal or '', kg)
    return [k for k in kinds
            if not any(domain.is_subtype(t, k.type) or domain.is_subtype(k.type, t)
                       for t in over) and not k.members <= named]


def left_out(goal: str, kg: Any, mentions: list[Mention],
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


class Kinds:
    """What must hold of every one of a kind the task speaks of as a whole is asked.

    "Turn off all the lights, faucets and TVs" answered about three lights: per kind the
    goal does not cover, the model is asked for conditions with ``?x`` for each one
    (constrained to literals where that type fits, or their negation), read as one
    ``forall``. The goal grows by it (replacing what it said of the members), or is
    replaced by it when the two do not plan together (the goal missed the kind, so the
    rest of it is suspect too); kept only when the result plans and does not already hold.
    Asked on a planned goal, or on the last one the loop gets.
    """

    name, setting = 'kinds', 'ask_kinds'

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether the kinds are still to be asked about, and now is the time."""
        return not g.a.asked_kinds and (g.verdict()[0] is Verdict.ACCEPTED
                                        or g.a.out.attempts >= g.settings.attempts)

    def judge(self, g: GoalAnswer) -> Ruling:
        """Ask about each kind the goal does not cover; grow the goal by what plans."""
        g.a.asked_kinds = True
        domain, kg, text = g.world.domain, g.kg, g.a.req.text
        notes: list[str] = []
        best: Planned | None = None
        for kind in uncovered(domain, kg, g.goal, kinds(domain, kg, text))[:MAX_KINDS]:
            try:
                more = self.ask(g, kind, notes)
            except LLMError as exc:
                notes.append(f'asked about every {kind.type}: {exc}')
                break
            if more is not None:
                best = self.grow(g, kind, more, best, notes) or best
        return Ruling.amend(best, notes) if best is not None else Ruling(notes=notes)

    @staticmethod
    def ask(g: GoalAnswer, kind: Kind, notes: list[str]) -> str | None:
        """Return what must hold of every one of ``kind`` (a ``forall``), or None."""
        a, constraints = g.a, g.world.constraints
        schema = a.grounding.kind_schema(kind.type, constraints.place_predicates())
        if schema is None:
            return None
        every = ' '.join(w for w in name_words(kind.type) if not w.isdigit())
        said = kind.said if kind.said.split()[0] in ALL else (
            f'{kind.said}: every {every} it means')
        # the request alone, not the answer that missed the kind: shown it, the model
        # copies its predicate ("Lena's tubes" held by Lena, as the one tube was)
        request = a.messages[-1]['content'].removesuffix('\nAnswer:')
        got = a.chat(schema)(a.messages[:-1] + [{'role': 'user', 'content': (
            f'{request}\nQuestion: the task speaks of {said}. Which condition must hold '
            f'for each of them when the task is done? Write "?x" for each one.\nAnswer:')}])
        data = got.data.get('goal') if isinstance(got.data, dict) else None
        if isinstance(data, list):
            data, dropped = last_condition(data, constraints, a.req.text, a.req.mentions)
            notes += dropped
        more, errors = a.grounding.read_kind(data, kind.type, kind.where)
        if errors or not more:
            notes.append(f'asked about every {kind.type}, the answer did not read: '
                         f'{errors[:1]}')
            return None
        if g.wants is not None:
            more, flipped = settle_quantified(g.world.domain, g.kg, f'(and {more})', g.wants)
            notes += flipped
        return more

    @staticmethod
    def grow(g: GoalAnswer, kind: Kind, more: str, best: Planned | None,
             notes: list[str]) -> Planned | None:
        """Return the goal grown by ``more`` (or ``more`` alone) planned, or None."""
        goal = best.goal if best is not None else g.goal
        tries = [extend_goal(g.world.domain, g.kg, g.world.constraints, goal or '', more),
                 (more, [])]
        for grown, settled in tries:
            got = g.adopt(grown) if grown is not None else None
            if got is not None:
                notes.append(f'asked what must hold of {kind.said} (the goal did not '
                             f'cover them): {more}' + ''.join(f'; {n}' for n in settled))
                return got
        notes.append(f'asked what must hold of {kind.said}, the answer {more} does '
                     'not plan: the goal stays')
        return None


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
