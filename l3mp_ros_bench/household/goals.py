# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Goals of benchmark tasks: a conjunction of (possibly negated) atoms, read, written, checked."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from l3mp_ros.world.kg import Fact, KnowledgeGraph

# =========================================================================== goals
ATOM_RE = re.compile(r'\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)')


def parse_goal(goal: str) -> list[tuple[bool, Fact]]:
    """Parse ``(and lit ...)`` (literals: atoms or ``(not atom)``) into (positive, fact)."""
    text = goal.strip()
    m = re.fullmatch(r'\(\s*and\s+(.*)\)', text, re.S | re.I)
    body = m.group(1) if m else text
    out: list[tuple[bool, Fact]] = []
    pos = 0
    lit_re = re.compile(r'\s*(\(\s*not\s*(\([^()]*\))\s*\)|\([^()]*\))', re.I)
    while pos < len(body):
        if not body[pos:].strip():
            break
        lm = lit_re.match(body, pos)
        if lm is None:
            raise ValueError(f'cannot parse goal near {body[pos:pos + 40]!r}')
        if lm.group(2):
            out.append((False, Fact.parse_pddl(lm.group(2))))
        else:
            out.append((True, Fact.parse_pddl(lm.group(1))))
        pos = lm.end()
    return out


def goal_text(literals: Iterable[tuple[bool, Fact]]) -> str:
    """Return ``(and ...)`` for literals (sorted, duplicates dropped)."""
    lits = sorted(set(literals), key=lambda lf: (lf[1], lf[0]))
    parts = [f.pddl() if pos else f'(not {f.pddl()})' for pos, f in lits]
    return '(and ' + ' '.join(parts) + ')'


def goal_holds(kg: KnowledgeGraph, goal: str | Sequence[tuple[bool, Fact]]) -> bool:
    """Return True when every literal of the goal holds in ``kg`` (closed world)."""
    lits = parse_goal(goal) if isinstance(goal, str) else goal
    return all((f in kg) == pos for pos, f in lits)
