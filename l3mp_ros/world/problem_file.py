# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""PDDL problem files in and out of a KG: objects and ``:init`` become entities and facts.

:func:`kg_from_problem` reads a problem written for a domain (its ``(:domain ...)`` must
name it) and returns a KG holding the domain's constants, the problem's objects and the
atoms of ``:init``; every error names its line and column, and nothing is half-built (the
caller stores the KG only when no error was raised). A numeric value of ``:init``, ``(=
(battery_level robot1) 73.5)``, of a function of the domain becomes a numeric fact;
``(= (total-cost) 0)`` is the metric's counter, not state, and values of functions the
domain only reads for dropped action costs are counted in a note (see :mod:`.pddl`).
:func:`problem_text` writes a KG back as a problem file that unified-planning and Fast
Downward read, its numeric facts in ``:init``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .domain import DomainSchema
from .kg import Fact, KGError, KnowledgeGraph, check_name
from .pddl import COST, PDDLSyntaxError, ProblemFile, read_problem, write_problem
from .verify import Verifier

__all__ = ['ImportedProblem', 'ProblemImportError', 'kg_from_problem', 'looks_like_pddl',
           'problem_text', 'unknown_name']


class ProblemImportError(ValueError):
    """A problem file that cannot become a KG (one line: the place and the reason)."""


@dataclass
class ImportedProblem:
    """The KG a problem file describes, its goal text and what was left out."""

    kg: KnowledgeGraph
    goal: str
    notes: list[str] = field(default_factory=list)


def looks_like_pddl(text: str) -> bool:
    """Return True when ``text`` opens with ``(define`` (comments and blanks skipped)."""
    body = re.sub(r';[^\n]*', '', text).lstrip()
    return re.match(r'\(\s*define\b', body, re.I) is not None


def unknown_name(domain: DomainSchema, name: str) -> str:
    """Return why ``name`` is no entity: a type or a constant of the domain, or unknown."""
    if domain.has_type(name):
        return f'"{name}" is a type of domain {domain.name}, not an object'
    if name in domain.constants:
        return f'"{name}" is a constant of domain {domain.name} (a {domain.constants[name]})'
    return f'unknown object "{name}"'


def _add_checked(kg: KnowledgeGraph, domain: DomainSchema, verifier: Verifier, fact: Fact,
                 where: str, *, declare: bool) -> None:
    """Add ``fact`` (an atom or a value of :init) to ``kg`` after checking it, or raise.

    ``declare``: an unknown argument's error says to declare it in (:objects ...).
    """
    for a in fact.args:
        if kg.type_of(a) is None:
            hint = ': declare it in (:objects ...)' if declare and unknown_name(
                domain, a).startswith('unknown') else ''
            raise ProblemImportError(f'{where}: {unknown_name(domain, a)} in {fact.pddl()}{hint}')
    errors = verifier.check_fact(fact, kg.entities)
    if errors:
        raise ProblemImportError(f'{where}: {errors[0]}')
    kg.add_fact(fact)


def kg_from_problem(domain: DomainSchema, text: str, what: str = 'PDDL problem'
                    ) -> ImportedProblem:
    """Read a problem file for ``domain``; raise :class:`ProblemImportError` (one line)."""
    try:
        pf = read_problem(text, what)
    except PDDLSyntaxError as exc:
        raise ProblemImportError(f'malformed {exc}') from None
    if pf.domain and pf.domain != domain.name:
        raise ProblemImportError(f'{what} is written for domain "{pf.domain}" but the domain '
                                 f'file is "{domain.name}"')
    kg = KnowledgeGraph(domain.name)
    for name, typ in sorted(domain.constants.items()):
        kg.add_entity(name, typ)
    notes = _rename_reserved(domain, pf)
    for name, typ in pf.objects.items():
        try:
            check_name(name, 'object name')
        except KGError as exc:
            raise ProblemImportError(f'{what}: {exc}') from None
        if not domain.has_type(typ):
            raise ProblemImportError(f'{what}: object {name} has type "{typ}", which domain '
                                     f'{domain.name} does not define')
        if name in domain.constants and domain.constants[name] != typ:
            raise ProblemImportError(f'{what}: object {name} is a constant of domain '
                                     f'{domain.name} of type {domain.constants[name]}, '
                                     f'declared here as {typ}')
        kg.add_entity(name, typ)
    verifier = Verifier(domain)
    for pred, args, place in pf.atoms:
        fact = Fact(pred, args)
        if pred not in domain.predicates:
            hint = ' (a type, not a predicate)' if domain.has_type(pred) else ''
            raise ProblemImportError(f'{what}: {place}: unknown predicate "{pred}" in '
                                     f'{fact.pddl()}{hint}: domain {domain.name} has no such '
                                     'predicate')
        _add_checked(kg, domain, verifier, fact, f'{what}: {place}', declare=True)
    dropped = []
    for function, args, value, place in pf.values:
        if function == COST:
            continue
        fact = Fact(function, args, value)
        if function not in domain.functions:
            if function in domain.predicates:
                raise ProblemImportError(f'{what}: {place}: {fact.pddl()} gives a number to '
                                         f'{function}, a predicate of domain {domain.name}')
            dropped.append(fact.key.pddl())
            continue
        _add_checked(kg, domain, verifier, fact, f'{what}: {place}', declare=False)
    if dropped:
        notes.append(f'{len(dropped)} numeric value(s) of :init not kept (the KG holds facts; '
                     f'e.g. {dropped[0]})')
    return ImportedProblem(kg, pf.goal, notes)


def _rename_reserved(domain: DomainSchema, pf: ProblemFile) -> list[str]:
    """Rename objects named like a type, predicate or action (planners allow it; a KG not).

    ``cart - cart`` becomes ``cart_obj``, in the atoms and the goal alike; a note says so.
    """
    notes = []
    for name in sorted(pf.objects):
        kind = ('type' if domain.has_type(name) else 'predicate' if name in domain.predicates
                else 'action' if name in domain.actions else None)
        if kind is None:
            continue
        new, n = f'{name}_obj', 1
        while new in pf.objects or new in domain.constants:
            n += 1
            new = f'{name}_obj{n}'
        pf.rename(name, new)
        notes.append(f'object {name} renamed {new}: its name is also a {kind} of domain '
                     f'{domain.name}')
    return notes


def problem_text(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None = None,
                 name: str = 'state') -> str:
    """Return the KG as a PDDL problem for ``domain`` (constants are not redeclared)."""
    objects = {n: t for n, t in kg.entities.items() if domain.constants.get(n) != t}
    safe = re.sub(r'[^a-z0-9_-]', '-', name.lower()).strip('-') or 'state'
    if not safe[0].isalpha():
        safe = 'p-' + safe
    return write_problem(safe, domain.name, objects, [f.pddl() for f in sorted(kg.facts)],
                         goal, costs=domain.costs or domain.total_cost)
