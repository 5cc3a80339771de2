# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A goal as formula nodes: its conjuncts, the names it uses, what a ``forall`` covers.

The nodes are those of :func:`~l3mp_ros.planning.problem.parse_goal` (``('atom', p,
args)``, ``('not', n)``, ``('and', nodes)``, ``('forall', params, body)``, ...); the goal
checks (:mod:`.goal_checks`) and rewrites (:mod:`.goal_rewrites`) read and write goals
through these.
"""

from __future__ import annotations

import re
from typing import Any

from ...planning.problem import GoalError, Node, entities_of_type, parse_goal, render_goal
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph

_NAME_RE = re.compile(r'[^\s()]+')


def goal_entities(goal: str, kg: KnowledgeGraph) -> set[str]:
    """Return the KG entities a PDDL goal names."""
    return {w for w in _NAME_RE.findall(goal.lower()) if kg.has_entity(w)}


def top_level(domain: DomainSchema, kg: KnowledgeGraph, goal: str, *,
              consistent: bool = True) -> list[Any] | None:
    """Return the top-level conjuncts of a goal as formula nodes (None: it does not parse).

    ``consistent=False`` reads a goal asking an atom and its negation too.
    """
    try:
        node = parse_goal(domain, kg, goal, consistent=consistent).formula
    except GoalError:
        return None
    return list(node[1]) if node[0] == 'and' else [node]


def conjuncts(domain: DomainSchema, kg: KnowledgeGraph,
              goal: str) -> list[tuple[Any, tuple[Fact, bool] | None]] | None:
    """Return the top-level conjuncts of a goal, each with (fact, positive) or None.

    A ground literal comes with its fact and polarity, anything else (a quantifier) with
    None; an unreadable goal gives None.
    """
    items = top_level(domain, kg, goal)
    if items is None:
        return None
    out: list[tuple[Any, tuple[Fact, bool] | None]] = []
    for n in items:
        neg = n[0] == 'not' and n[1][0] == 'atom'
        atom = n[1] if neg else n
        ground = atom[0] == 'atom' and atom[2] and not any(a.startswith('?') for a in atom[2])
        out.append((n, (Fact(atom[1], tuple(atom[2])), not neg) if ground else None))
    return out


def conjoin(nodes: list[Any]) -> str:
    """Return the PDDL conjunction of goal nodes, each once (a negation may repeat one)."""
    return render_goal(('and', tuple({render_goal(n): n for n in nodes}.values())))


def exists_type(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None) -> str | None:
    """Return the type of a goal's one top-level one-variable ``exists`` (None: not one)."""
    items = top_level(domain, kg, goal, consistent=False) if goal else None
    found = [n[1][0][1] for n in items or [] if n[0] == 'exists' and len(n[1]) == 1]
    return found[0] if len(found) == 1 else None


def instances(domain: DomainSchema, kg: KnowledgeGraph, node: Node) -> set[str]:
    """Return the ground atoms (rendered) a one-variable ``forall`` asks about."""
    return {render_goal(s[1] if s[0] == 'not' else s)
            for s in instance_literals(domain, kg, node)}


def instance_literals(domain: DomainSchema, kg: KnowledgeGraph, node: Node) -> list[Node]:
    """Return the ground literals a one-variable ``forall`` asks for.

    One per entity of its type whose condition (``imply``'s first part, an atom) holds
    in ``kg`` now.
    """
    if node[0] != 'forall' or len(node[1]) != 1:
        return []
    (var, typ), body = node[1][0], node[2]
    cond = None
    if body[0] == 'imply':
        cond, body = body[1], body[2]
    out: list[Any] = []
    for e in entities_of_type(domain, kg, typ):
        sub = substitute(body, var, e)
        if sub is None:
            continue
        if cond is not None:
            c = substitute(cond, var, e)
            if c is None or c[0] != 'atom' or Fact(c[1], tuple(c[2])) not in kg:
                continue
        out.append(sub)
    return out


def substitute(node: Node, var: str, entity: str) -> Node:
    """Return a literal node with ``var`` replaced by ``entity`` (None: not a literal)."""
    inner = node
    while inner[0] == 'not':
        inner = inner[1]
    return rename(node, var, entity) if inner[0] == 'atom' else None


def rename(node: Node, var: str, to: str) -> Node:
    """Return a formula node with variable ``var`` written ``to`` (a name or a variable)."""
    if node[0] == 'atom':
        return ('atom', node[1], tuple(to if a == var else a for a in node[2]))
    if node[0] in ('and', 'or'):
        return (node[0], tuple(rename(k, var, to) for k in node[1]))
    if node[0] == 'not':
        return ('not', rename(node[1], var, to))
    if node[0] == 'imply':
        return ('imply', rename(node[1], var, to), rename(node[2], var, to))
    return node
