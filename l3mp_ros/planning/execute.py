# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Execute a plan on a KG: each step's preconditions are checked and its effects applied.

The actions are the domain's own unified-planning actions (``DomainSchema.up_problem``);
their precondition and effect expressions are evaluated directly on the KG's set of facts
(closed world), with PDDL semantics: every condition of a step (preconditions, ``when``
conditions, ``forall`` ranges) is read in the state before the step, then the deletions and
then the additions are applied. Quantifiers range over the KG's entities of the variable's
type (and the domain's constants). No problem is grounded, so a step costs microseconds on a
household of hundreds of facts; ``test/test_planning.py`` checks the result against UP's
``SequentialSimulator``.

Numeric fluents (issue 59) are read from the KG's numeric facts: comparisons and arithmetic
in conditions, ``increase``/``decrease``/``assign`` effects (computed in the state before
the step, exactly, with fractions); a changed value replaces the fact holding the old one.

The KG passed in is never modified: the result holds the final copy and the total update.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import unified_planning as up
from unified_planning.model import FNode

from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update, number_text

__all__ = ['ExecutionResult', 'StepResult', 'execute_plan', 'parse_step']


@dataclass
class StepResult:
    """One executed (or refused) step."""

    action: str
    ok: bool
    update: Update = field(default_factory=Update)
    error: str | None = None

    def to_json(self) -> dict:
        """Return a JSON-ready dict."""
        return {'action': self.action, 'ok': self.ok, 'update': self.update.to_json(),
                'error': self.error}


@dataclass
class ExecutionResult:
    """The outcome of a whole plan: ``ok`` when every step ran."""

    ok: bool
    steps: list[StepResult]
    kg: KnowledgeGraph
    update: Update
    failed_step: int | None = None
    error: str | None = None

    def to_json(self) -> dict:
        """Return a JSON-ready dict (without the final KG)."""
        return {'ok': self.ok, 'failed_step': self.failed_step, 'error': self.error,
                'steps': [s.to_json() for s in self.steps], 'update': self.update.to_json()}


class StepError(ValueError):
    """A step that cannot be read or grounded."""


_STEP_RE = re.compile(r'[^\s(),]+')


def parse_step(step: str) -> tuple[str, tuple[str, ...]]:
    """Read ``(a x y)``, ``a x y`` or ``a(x, y)`` into (action, args), lowercase."""
    if not isinstance(step, str):
        raise StepError(f'a plan step must be a string, not {type(step).__name__}')
    tokens = _STEP_RE.findall(step.lower())
    if not tokens:
        raise StepError(f'empty plan step {step!r}')
    return tokens[0], tuple(tokens[1:])


class _Evaluator:
    """Evaluates UP expressions on a set of facts with a variable binding."""

    def __init__(self, domain: DomainSchema, kg: KnowledgeGraph) -> None:
        self.domain = domain
        self.kg = kg
        self.facts: set[Fact] = set(kg.facts)
        self.numbers: dict[Fact, Fact] = {f.key: f for f in kg.numbers}  # term → value
        self._by_type: dict[str, list[str]] = {}

    def value(self, node: FNode, env: dict[str, str]) -> Fraction:
        """Return the value of a numeric expression in the current state."""
        if node.is_fluent_exp():
            held = self.numbers.get(self.atom(node, env))
            if held is None:
                raise StepError(f'{self.atom(node, env).pddl()} has no value in the KG')
            return Fraction(held.value)
        if node.is_int_constant() or node.is_real_constant():
            return Fraction(node.constant_value())
        args = [self.value(a, env) for a in node.args]
        if node.is_plus():
            return sum(args, Fraction(0))
        if node.is_minus():
            return args[0] - sum(args[1:], Fraction(0)) if len(args) > 1 else -args[0]
        if node.is_times():
            out = Fraction(1)
            for a in args:
                out *= a
            return out
        if node.is_div():
            if args[1] == 0:
                raise StepError(f'division by zero in {node}')
            return args[0] / args[1]
        raise StepError(f'unsupported numeric expression {node}')

    def update(self, update: Update) -> None:
        """Apply a step's update to the evaluator's state."""
        self.facts -= update.remove
        self.facts |= update.add
        for f in update.remove:
            if f.numeric and self.numbers.get(f.key) == f:
                del self.numbers[f.key]
        for f in update.add:
            if f.numeric:
                self.numbers[f.key] = f

    def objects_of(self, typ: str) -> list[str]:
        if typ not in self._by_type:
            names = [n for n, t in self.kg.entities.items() if self.domain.is_subtype(t, typ)]
            names += [n for n, t in self.domain.constants.items()
                      if self.domain.is_subtype(t, typ) and n not in self.kg.entities]
            self._by_type[typ] = names
        return self._by_type[typ]

    def term(self, node: FNode, env: dict[str, str]) -> str:
        if node.is_parameter_exp():
            return env[node.parameter().name]
        if node.is_variable_exp():
            return env[node.variable().name]
        if node.is_object_exp():
            return node.object().name.lower()
        raise StepError(f'unsupported term {node}')

    def atom(self, node: FNode, env: dict[str, str]) -> Fact:
        return Fact(node.fluent().name, tuple(self.term(a, env) for a in node.args))

    def bindings(self, variables: Iterable[up.model.Variable],
                 env: dict[str, str]) -> list[dict[str, str]]:
        combos = [env]
        for v in variables:
            objs = self.objects_of(v.type.name.lower())
            combos = [{**c, v.name: o} for c in combos for o in objs]
        return combos

    def holds(self, node: FNode, env: dict[str, str]) -> bool:
        if node.is_fluent_exp():
            return self.atom(node, env) in self.facts
        if node.is_and():
            return all(self.holds(a, env) for a in node.args)
        if node.is_or():
            return any(self.holds(a, env) for a in node.args)
        if node.is_not():
            return not self.holds(node.arg(0), env)
        if node.is_implies():
            return not self.holds(node.arg(0), env) or self.holds(node.arg(1), env)
        if node.is_iff():
            return self.holds(node.arg(0), env) == self.holds(node.arg(1), env)
        if node.is_bool_constant():
            return node.bool_constant_value()
        if node.is_le() or node.is_lt():
            left, right = self.value(node.arg(0), env), self.value(node.arg(1), env)
            return left <= right if node.is_le() else left < right
        if node.is_equals():
            if node.arg(0).type.is_int_type() or node.arg(0).type.is_real_type():
                return self.value(node.arg(0), env) == self.value(node.arg(1), env)
            return self.term(node.arg(0), env) == self.term(node.arg(1), env)
        if node.is_forall():
            return all(self.holds(node.arg(0), e) for e in self.bindings(node.variables(), env))
        if node.is_exists():
            return any(self.holds(node.arg(0), e) for e in self.bindings(node.variables(), env))
        raise StepError(f'unsupported condition {node}')

    def why(self, node: FNode, env: dict[str, str]) -> str:
        """Return ``: 10 > 7``: the values that make a false comparison false ('' else)."""
        if not (node.is_le() or node.is_lt()):
            return ''
        try:
            left, right = (number_text(float(self.value(a, env))) for a in node.args)
        except StepError:
            return ''
        return f': {left} {">" if node.is_le() else ">="} {right}'

    def first_failure(self, node: FNode, env: dict[str, str]) -> FNode | None:
        """Return the first conjunct of ``node`` that does not hold (None when it holds)."""
        if node.is_and():
            for a in node.args:
                bad = self.first_failure(a, env)
                if bad is not None:
                    return bad
            return None
        return None if self.holds(node, env) else node

    def render(self, node: FNode, env: dict[str, str]) -> str:
        if node.is_fluent_exp():
            return self.atom(node, env).pddl()
        if node.is_not():
            return f'(not {self.render(node.arg(0), env)})'
        if node.is_le() or node.is_lt():
            return (f'({"<=" if node.is_le() else "<"} {self.render(node.arg(0), env)} '
                    f'{self.render(node.arg(1), env)})')
        if node.is_int_constant() or node.is_real_constant():
            return number_text(float(node.constant_value()))
        text = str(node)
        for k, v in env.items():
            text = re.sub(rf'\b{re.escape(k)}\b', v, text)
        return text


def _ground(domain: DomainSchema, kg: KnowledgeGraph, name: str,
            args: tuple[str, ...]) -> tuple[up.model.InstantaneousAction, dict[str, str]]:
    problem = domain.up_problem
    if not problem.has_action(name):
        raise StepError(f'unknown action "{name}"')
    action = problem.action(name)
    params = action.parameters
    if len(args) != len(params):
        sig = ' '.join(f'?{p.name} - {p.type.name}' for p in params)
        raise StepError(f'{name} takes {len(params)} arguments ({sig}), got {len(args)}')
    env: dict[str, str] = {}
    for i, (p, a) in enumerate(zip(params, args, strict=True)):
        t = kg.type_of(a) or domain.constants.get(a)
        if t is None:
            raise StepError(f'unknown object "{a}" (argument {i + 1} of {name})')
        want = p.type.name.lower()
        if not domain.is_subtype(t, want):
            raise StepError(f'argument {i + 1} of {name} must be a {want}, but "{a}" is a {t}')
        env[p.name] = a
    return action, env


def _effects(ev: _Evaluator, action: up.model.InstantaneousAction,
             env: dict[str, str]) -> Update:
    adds: set[Fact] = set()
    dels: set[Fact] = set()
    values: dict[Fact, Fraction] = {}
    for eff in action.effects:
        numeric = not eff.fluent.type.is_bool_type()
        if not numeric and not eff.value.is_bool_constant():
            raise StepError(f'unsupported non-Boolean effect {eff}')
        for e in ev.bindings(eff.forall, env) if eff.is_forall() else [env]:
            if eff.is_conditional() and not ev.holds(eff.condition, e):
                continue
            fact = ev.atom(eff.fluent, e)
            if numeric:
                values[fact] = _new_value(ev, eff, fact, e)
                continue
            (adds if eff.value.bool_constant_value() else dels).add(fact)
    dels -= adds  # PDDL: additions win over deletions of the same step
    for term, new in values.items():
        old = ev.numbers.get(term)
        fact = term.with_value(number_text(float(new)))
        if old != fact:
            dels |= {old} if old is not None else set()
            adds.add(fact)
    return Update.of(dels & ev.facts, adds - ev.facts)


def _new_value(ev: _Evaluator, eff: up.model.Effect, term: Fact,
               env: dict[str, str]) -> Fraction:
    """Return a numeric effect's new value of ``term``, read in the state before the step."""
    amount = ev.value(eff.value, env)
    if eff.is_assignment():
        return amount
    held = ev.numbers.get(term)
    if held is None:
        raise StepError(f'{term.pddl()} has no value in the KG to change')
    if eff.is_increase():
        return Fraction(held.value) + amount
    if eff.is_decrease():
        return Fraction(held.value) - amount
    raise StepError(f'unsupported numeric effect {eff}')


def execute_plan(domain: DomainSchema, kg: KnowledgeGraph,
                 steps: Iterable[str]) -> ExecutionResult:
    """Apply the plan's steps in order; stop at the first one that cannot be applied."""
    ev = _Evaluator(domain, kg)
    results: list[StepResult] = []
    failed: int | None = None
    error: str | None = None
    for index, step in enumerate(steps):
        label = step if isinstance(step, str) else repr(step)
        try:
            name, args = parse_step(step)
            label = '(' + ' '.join((name, *args)) + ')'
            action, env = _ground(domain, kg, name, args)
            for pre in action.preconditions:
                bad = ev.first_failure(pre, env)
                if bad is not None:
                    raise StepError(f'precondition {ev.render(bad, env)} does not hold'
                                    f'{ev.why(bad, env)}')
            update = _effects(ev, action, env)
        except StepError as exc:
            failed, error = index, f'step {index + 1} {label}: {exc}'
            results.append(StepResult(label, False, Update(), str(exc)))
            break
        ev.update(update)
        results.append(StepResult(label, True, update))
    final = kg.copy()
    total = Update.of(kg.facts - ev.facts, ev.facts - kg.facts)
    final.apply(total)
    return ExecutionResult(failed is None, results, final, total, failed, error)
