# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of Algorithm 4 that find what a goal misses of the task.

A goal about nothing the task mentions (:func:`unmentioned`), a thing the task names that
the goal leaves out (:func:`left_out`; the task planner then asks what must hold of it,
constrained to conditions about it, and :func:`.goal_rewrites.extend_goal` joins the
answer), a kind the task speaks of as a whole that the goal does not cover
(:func:`uncovered`). How the checks rewrite a goal: :mod:`.goal_rewrites`; a goal as
formula nodes: :mod:`.goal_formula`; the yes/no read-back: :mod:`.goal_read_back`.
"""

from __future__ import annotations

from typing import Any

from ..retrieval.mentions import Mention
from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph
from .goal_formula import goal_entities, top_level
from .kinds import Kind


def unmentioned(goal: str, kg: Any, mentioned: set[str]) -> list[str]:
    """Return an error when a goal names entities but none the task is about."""
    named = goal_entities(goal, kg)
    if named and not named & mentioned:
        return [f'the goal names {", ".join(sorted(named))} but the task is '
                f'about {", ".join(sorted(mentioned)[:6])}']
    return []


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
