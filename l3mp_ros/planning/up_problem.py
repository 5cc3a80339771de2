# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""From the knowledge graph to a unified-planning ``Problem``.

``build_problem`` makes a closed-world ``Problem`` from a set of context facts: its objects
are the entities those facts and the goal mention, plus every entity of the domain's *agent
types* (by default the types that are the first parameter of most actions, e.g. ``agent``)
together with that entity's own facts (where the robot is, what it holds); its initial state
those facts and the values of the numeric functions over its objects; its goal the parsed
goal (:func:`~l3mp_ros.planning.problem.parse_goal`) as UP expressions. Which facts go in
(the context, widened when a plan fails) is the planner's choice
(:mod:`l3mp_ros.planning.planner`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

import unified_planning as up
from unified_planning.model import Object, Problem, Variable

from l3mp_ros.planning.problem import Goal, Node, NodeKind, parse_goal
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.pddl import COST

__all__ = ['ProblemError', 'agent_types', 'build_problem', 'required_entities',
           'required_facts']


class ProblemError(ValueError):
    """The KG cannot be turned into a planning problem (unknown types, name clashes...)."""


def agent_types(domain: DomainSchema) -> set[str]:
    """Return the types that are the first parameter of at least half of the actions."""
    counts: dict[str, int] = {}
    for act in domain.actions.values():
        if act.params:
            t = act.params[0][1][0]
            counts[t] = counts.get(t, 0) + 1
    total = len(domain.actions)
    return {t for t, n in counts.items() if t != 'object' and 2 * n >= total}


def required_facts(domain: DomainSchema, kg: KnowledgeGraph,
                   include_types: Iterable[str] | None = None) -> set[Fact]:
    """Return the facts of every entity of ``include_types`` (default: the agent types)."""
    types = tuple(agent_types(domain) if include_types is None else include_types)
    out: set[Fact] = set()
    if not types:
        return out
    for name, t in kg.entities.items():
        if domain.is_subtype(t, types):
            out |= kg.facts_of(name)
    return out


def required_entities(domain: DomainSchema, kg: KnowledgeGraph,
                      include_types: Iterable[str] | None = None) -> set[str]:
    """Return every KG entity of ``include_types`` (default: the agent types)."""
    types = tuple(agent_types(domain) if include_types is None else include_types)
    return {n for n, t in kg.entities.items() if types and domain.is_subtype(t, types)}


def _up_goal(node: Node, problem: Problem, env: dict[str, Variable]) -> up.model.FNode:
    em = problem.environment.expression_manager
    kind = node[0]

    def term(name: str) -> object:
        return env[name] if name.startswith('?') else problem.object(name)

    if kind == NodeKind.ATOM:
        fluent = problem.fluent(node[1])
        return fluent(*(term(a) for a in node[2]))
    if kind == NodeKind.EQUALS:
        return em.Equals(term(node[1]), term(node[2]))
    if kind == NodeKind.AND:
        return em.And(*(_up_goal(k, problem, env) for k in node[1]))
    if kind == NodeKind.OR:
        return em.Or(*(_up_goal(k, problem, env) for k in node[1]))
    if kind == NodeKind.NOT:
        return em.Not(_up_goal(node[1], problem, env))
    if kind == NodeKind.IMPLY:
        return em.Implies(_up_goal(node[1], problem, env), _up_goal(node[2], problem, env))
    if kind == NodeKind.COMPARE:
        def number(t: tuple) -> object:
            if t[0] == 'num':
                return em.Real(Fraction(t[1]))
            if t[0] == 'op':
                return {'+': em.Plus, '-': em.Minus, '*': em.Times,
                        '/': em.Div}[t[1]](number(t[2]), number(t[3]))
            return problem.fluent(t[1])(*(term(a) for a in t[2]))
        left, right = number(node[2]), number(node[3])
        return {'>=': em.GE, '<=': em.LE, '>': em.GT, '<': em.LT,
                '=': em.Equals}[node[1]](left, right)
    variables = []
    inner = dict(env)
    for var, typ in node[1]:
        v = Variable(var[1:], problem.user_type(typ) if typ != 'object' else _root(problem),
                     problem.environment)
        variables.append(v)
        inner[var] = v
    body = _up_goal(node[2], problem, inner)
    return (em.Forall(body, *variables) if kind == NodeKind.FORALL
            else em.Exists(body, *variables))


def _root(problem: Problem) -> up.model.Type:
    if problem.has_type('object'):
        return problem.user_type('object')
    return problem.environment.type_manager.UserType('object')


def build_problem(domain: DomainSchema, kg: KnowledgeGraph, facts: Iterable[Fact],
                  goal: str | Goal, name: str = 'task',
                  include_types: Iterable[str] | None = None,
                  extra_objects: Iterable[str] = (), timed: bool = False) -> Problem:
    """Build a closed-world UP problem from context facts and a goal.

    Objects: the entities the facts and the goal mention, every entity of ``include_types``
    (default :func:`agent_types`) and ``extra_objects``; initial state: the facts plus the
    facts of those agent entities; the goal parsed with :func:`parse_goal`. Raises
    :class:`GoalError` for a bad goal and :class:`ProblemError` for facts or entities the
    domain cannot express. ``timed``: a durative domain's actions as written (for a temporal
    engine), not compiled to instantaneous ones.
    """
    goal = parse_goal(domain, kg, goal)
    init = set(facts) | required_facts(domain, kg, include_types)
    names = set(goal.objects) | set(extra_objects)
    names |= required_entities(domain, kg, include_types)
    for f in init:
        names.update(f.args)
    names -= set(domain.constants)
    problem = (domain.timed_problem if timed else domain.up_problem).clone()
    problem.name = re.sub(r'[^a-z0-9_]', '_', name.lower()) or 'task'
    reserved = set(domain.types) | set(domain.predicates) | set(domain.actions)
    errors: list[str] = []
    clash = sorted(names & reserved)
    if clash:
        errors.append('entity names equal to a type, predicate or action name cannot be '
                      'planned with: ' + ', '.join(clash))
    objects: dict[str, Object] = {}
    for n in sorted(names):
        t = kg.type_of(n)
        if t is None:
            errors.append(f'unknown entity "{n}"')
        elif not problem.has_type(t):
            errors.append(f'entity "{n}" has type "{t}", which the domain does not define')
        elif n not in reserved:
            objects[n] = Object(n, problem.user_type(t), problem.environment)
    if errors:
        raise ProblemError('; '.join(errors))
    problem.add_objects(objects.values())
    # the values of numeric functions over the problem's objects (a distance between two
    # rooms of the context is no fact "of" either room's neighbourhood)
    known = set(objects) | set(domain.constants)
    init = {f for f in init if not f.numeric} | {
        f for f in kg.numbers if all(a in known for a in f.args)}
    for f in sorted(init):
        if f.numeric:
            _set_value(problem, domain, objects, f)
            continue
        if f.predicate not in domain.predicates:
            raise ProblemError(f'fact {f.pddl()} uses predicate "{f.predicate}", which the '
                               'domain does not define')
        try:
            args = [objects[a] if a in objects else problem.object(a) for a in f.args]
            problem.set_initial_value(problem.fluent(f.predicate)(*args), True)
        except Exception as exc:  # UP type errors
            raise ProblemError(f'fact {f.pddl()} does not fit the domain: '
                               f'{" ".join(str(exc).split())[:200]}') from None
    if domain.total_cost and not domain.costs and problem.has_fluent(COST):
        # numeric state beside (total-cost): the metric the domain's costs are for
        from unified_planning.model.metrics import MinimizeExpressionOnFinalState
        problem.set_initial_value(problem.fluent(COST)(), 0)
        problem.add_quality_metric(MinimizeExpressionOnFinalState(problem.fluent(COST)()))
    problem.add_goal(_up_goal(goal.formula, problem, {}))
    return problem


def _set_value(problem: Problem, domain: DomainSchema, objects: dict[str, Object],
               fact: Fact) -> None:
    """Give a numeric function term of ``problem`` the KG's value."""
    if fact.predicate not in domain.functions or not problem.has_fluent(fact.predicate):
        raise ProblemError(f'{fact.pddl()} gives a value to "{fact.predicate}", which is no '
                           'numeric function of the domain')
    try:
        args = [objects[a] if a in objects else problem.object(a) for a in fact.args]
        problem.set_initial_value(problem.fluent(fact.predicate)(*args), Fraction(fact.value))
    except Exception as exc:  # UP type errors
        raise ProblemError(f'{fact.pddl()} does not fit the domain: '
                           f'{" ".join(str(exc).split())[:200]}') from None
