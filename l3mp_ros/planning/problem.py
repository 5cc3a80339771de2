# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A planning problem's goal: PDDL goal parsing, checking, rendering and evaluation on a KG.

``parse_goal`` reads the ``:goal`` an LLM (or a person) wrote: a whole ``(:goal ...)``
block, a bare formula, surrounding prose or Markdown fences are all accepted. The formula
language is PDDL's goal language: ``and``, ``or``, ``not``, ``imply``, ``=``, ``forall`` and
``exists`` over domain types, atoms of the domain's predicates over KG entities (or
domain constants), and comparisons of numbers (``>=``, ``<=``, ``>``, ``<``, ``=``) between
the domain's numeric function terms, numbers and arithmetic (``+ - * /``), e.g.
``(>= (battery_level robot1) 30)`` or ``(<= (+ (value c0) 1) (value c1))``.
Every problem found (unknown predicate, unknown object, wrong arity, wrong type, unbound
variable, garbage) becomes one readable sentence of a :class:`GoalError`; nothing raises
anything else.

``render_goal`` writes a goal node back as PDDL; ``goal_holds`` evaluates a goal on the KG
(closed world). The ``Problem`` that plans for a goal is built in
:mod:`l3mp_ros.planning.up_problem`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, is_number, number_text

__all__ = [
    'Goal', 'GoalError', 'NodeKind', 'entities_of_type', 'goal_holds', 'goal_objects',
    'parse_goal', 'render_goal', 'strict_goal_errors',
]

CONNECTIVES = ('and', 'or', 'not', 'imply', 'forall', 'exists', '=')


class NodeKind(StrEnum):
    """The tag of a goal AST node (its first element): PDDL's word for it."""

    ATOM = 'atom'
    EQUALS = '='
    AND = 'and'
    OR = 'or'
    NOT = 'not'
    IMPLY = 'imply'
    FORALL = 'forall'
    EXISTS = 'exists'
    COMPARE = 'cmp'  # a numeric comparison of two terms


# A goal AST node is a tuple whose first element is its NodeKind:
#   ('atom', predicate, (arg, ...))     args are object names or '?var'
#   ('=', a, b)
#   ('and' | 'or', (node, ...))
#   ('not', node)
#   ('imply', node, node)
#   ('forall' | 'exists', ((var, type), ...), node)
#   ('cmp', op, term, term)             term: ('num', text) | ('fn', function, (arg, ...))
#                                             | ('op', '+' | '-' | '*' | '/', term, term)
Node = tuple
COMPARISONS = ('>=', '<=', '>', '<')
ARITHMETIC = ('+', '-', '*', '/')


class GoalError(ValueError):
    """A goal that cannot be used; ``errors`` holds one readable sentence per problem."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = list(errors) or ['invalid goal']
        super().__init__('; '.join(self.errors))


@dataclass(frozen=True)
class Goal:
    """A parsed, checked goal formula."""

    formula: Node
    text: str
    objects: frozenset[str] = field(default_factory=frozenset)
    predicates: frozenset[str] = field(default_factory=frozenset)
    quantified_types: frozenset[str] = field(default_factory=frozenset)

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------ parsing

_FENCE_RE = re.compile(r'```[a-zA-Z0-9_-]*\s*\n?(.*?)```', re.S)
_TOKEN_RE = re.compile(r'[()]|[^\s()]+')


def _strip_comments(text: str) -> str:
    return re.sub(r';[^\n]*', '', text)


def _sexprs(text: str) -> tuple[list, list[str]]:
    """Return the top-level balanced s-expressions of ``text`` (as nested lists)."""
    tokens = _TOKEN_RE.findall(text.lower())
    out: list = []
    errors: list[str] = []
    stack: list[list] = []
    for tok in tokens:
        if tok == '(':
            stack.append([])
        elif tok == ')':
            if not stack:  # a stray ")" in prose, e.g. a smiley
                continue
            done = stack.pop()
            if stack:
                stack[-1].append(done)
            else:
                out.append(done)
        elif stack:
            stack[-1].append(tok)
    if stack:
        errors.append(f'unbalanced parentheses: {len(stack)} "(" never closed')
        return [], errors
    return out, errors


def _render(node: object) -> str:
    if isinstance(node, list):
        return '(' + ' '.join(_render(x) for x in node) + ')'
    return str(node)


def _find_goal_sexpr(text: str, predicates: Iterable[str]) -> tuple[list | None, list[str]]:
    """Pick the goal formula out of free text; return (s-expression, errors)."""
    if not isinstance(text, str) or not text.strip():
        return None, ['the goal is empty: expected a PDDL formula such as (and (p a b))']
    fenced = _FENCE_RE.findall(text)
    body = '\n'.join(fenced) if fenced else text
    body = _strip_comments(body)
    exprs, errors = _sexprs(body)
    if errors:
        return None, errors
    if not exprs:
        snippet = ' '.join(text.split())[:80]
        return None, errors + [f'no PDDL formula found in the goal text "{snippet}": '
                               'expected e.g. (and (p a b) (not (q c)))']

    def search(node: list) -> list | None:
        # (:goal X) anywhere, e.g. inside a whole (define (problem ...)) text
        if node and node[0] == ':goal':
            return node
        for child in node:
            if isinstance(child, list):
                hit = search(child)
                if hit is not None:
                    return hit
        return None

    hits = [h for h in (search(e) for e in exprs) if h is not None]
    if len(hits) > 1:
        return None, [f'{len(hits)} (:goal ...) blocks: give one goal (join its parts with '
                      '(and ...))']
    if hits:
        hit = hits[0]
        if len(hit) != 2:
            return None, [f'(:goal ...) must hold exactly one formula, found {len(hit) - 1}'
                          f' in {_render(hit)[:120]}']
        return hit[1], errors
    heads = set(CONNECTIVES) | set(predicates)
    known = [e for e in exprs if e and isinstance(e[0], str) and e[0] in heads]
    if len(known) == 1:
        return known[0], []
    if len(known) > 1:
        # several formulas in prose: treat them as a conjunction
        return ['and', *known], []
    return exprs[0], []


def _an(word: str) -> str:
    return ('an ' if word[:1] in 'aeiou' else 'a ') + word


def _close(word: str, options: Iterable[str], what: str) -> str:
    near = difflib.get_close_matches(word, list(options), n=3, cutoff=0.6)
    return f' (did you mean {", ".join(near)}?)' if near else ''


class _GoalChecker:
    def __init__(self, domain: DomainSchema, kg: KnowledgeGraph) -> None:
        self.domain = domain
        self.kg = kg
        self.errors: list[str] = []
        self.objects: set[str] = set()
        self.predicates: set[str] = set()
        self.qtypes: set[str] = set()

    def type_of(self, name: str) -> str | None:
        return self.kg.type_of(name) or self.domain.constants.get(name)

    def formula(self, expr: object, scope: dict[str, str]) -> Node | None:
        if not isinstance(expr, list):
            self.errors.append(f'expected a formula in parentheses, found the bare word '
                               f'"{expr}"')
            return None
        if not expr:
            self.errors.append('empty parentheses "()" are not a formula')
            return None
        head, args = expr[0], expr[1:]
        if isinstance(head, list):
            self.errors.append(f'a formula must start with a predicate or and/or/not/forall/'
                               f'exists, not with "{_render(head)}"')
            return None
        if head in ('and', 'or'):
            kids = tuple(self.formula(a, scope) for a in args)
            return (NodeKind(head), kids) if None not in kids else None
        if head == 'not':
            if len(args) != 1:
                self.errors.append(f'(not ...) takes exactly one formula, found {len(args)} in '
                                   f'{_render(expr)}')
                return None
            kid = self.formula(args[0], scope)
            return (NodeKind.NOT, kid) if kid is not None else None
        if head == 'imply':
            if len(args) != 2:
                self.errors.append(f'(imply A B) takes two formulas, found {len(args)} in '
                                   f'{_render(expr)}')
                return None
            a, b = self.formula(args[0], scope), self.formula(args[1], scope)
            return (NodeKind.IMPLY, a, b) if a is not None and b is not None else None
        if head in ('forall', 'exists'):
            return self.quantifier(head, args, expr, scope)
        if head in COMPARISONS or (head == '=' and any(
                isinstance(a, list) or is_number(a) for a in args)):
            return self.comparison(head, args, expr, scope)
        if head == '=':
            if len(args) != 2 or not all(isinstance(a, str) for a in args):
                self.errors.append(f'(= a b) compares two objects: {_render(expr)}')
                return None
            ok = all(self.term(a, scope, expr) is not None for a in args)
            return (NodeKind.EQUALS, args[0], args[1]) if ok else None
        return self.atom(head, args, expr, scope)

    def comparison(self, op: str, args: list, expr: list, scope: dict[str, str]) -> Node | None:
        """Read ``(>= (battery_level robot1) 30)``: function terms and numbers compared."""
        if len(args) != 2:
            self.errors.append(f'({op} a b) compares two numbers, found {len(args)} in '
                               f'{_render(expr)}')
            return None
        terms = [self.number_term(a, expr, scope) for a in args]
        return (NodeKind.COMPARE, op, terms[0], terms[1]) if None not in terms else None

    def number_term(self, arg: object, expr: list, scope: dict[str, str]) -> tuple | None:
        if isinstance(arg, str):
            if is_number(arg):
                return ('num', number_text(arg))
            self.errors.append(f'"{arg}" in {_render(expr)} is no number: compare function '
                               'terms such as (battery_level robot1) and numbers')
            return None
        name = arg[0] if arg and isinstance(arg[0], str) else ''
        if name in ARITHMETIC and len(arg) == 3:
            parts = [self.number_term(a, expr, scope) for a in arg[1:]]
            return ('op', name, parts[0], parts[1]) if None not in parts else None
        sig = self.domain.functions.get(name)
        if sig is None:
            known = self.domain.functions
            self.errors.append(f'unknown function "{name}" in {_render(expr)}'
                               + (_close(name, known, 'function') if known else
                                  f': domain {self.domain.name} declares no numeric functions'))
            return None
        fargs = arg[1:]
        if len(fargs) != sig.arity or not all(isinstance(a, str) for a in fargs):
            self.errors.append(f'{_render(arg)} in {_render(expr)} does not fit '
                               f'{sig.signature()}')
            return None
        types = [self.term(a, scope, expr) for a in fargs]
        ok = None not in types
        for i, (a, t) in enumerate(zip(fargs, types, strict=True)):
            if t is not None and not self.domain.is_subtype(t, sig.params[i][1]):
                self.errors.append(f'wrong type in {_render(expr)}: "{a}" is {_an(t)} but '
                                   f'argument {i + 1} of {name} must be '
                                   f'{_an(" or ".join(sig.params[i][1]))}: {sig.signature()}')
                ok = False
        self.predicates.add(name)
        return ('fn', name, tuple(fargs)) if ok else None

    def quantifier(self, head: str, args: list, expr: list, scope: dict[str, str]) -> Node | None:
        if len(args) != 2 or not isinstance(args[0], list):
            self.errors.append(f'({head} (?x - type) formula) expected, found {_render(expr)}')
            return None
        variables: list[tuple[str, str]] = []
        pending: list[str] = []
        toks = args[0]
        i, ok = 0, True
        while i < len(toks):
            tok = toks[i]
            if isinstance(tok, list):
                self.errors.append(f'bad variable list {_render(toks)} in {head}')
                return None
            if tok == '-':
                if i + 1 >= len(toks) or not isinstance(toks[i + 1], str):
                    self.errors.append(f'missing type after "-" in {_render(toks)}')
                    return None
                typ = toks[i + 1]
                if not self.domain.has_type(typ):
                    self.errors.append(f'unknown type "{typ}" in ({head} {_render(toks)} ...)'
                                       f'{_close(typ, self.domain.types, "type")}')
                    ok = False
                variables += [(v, typ) for v in pending]
                pending = []
                i += 2
                continue
            if not tok.startswith('?'):
                self.errors.append(f'"{tok}" in {_render(toks)} is not a variable (?name)')
                return None
            pending.append(tok)
            i += 1
        variables += [(v, 'object') for v in pending]
        if not variables:
            self.errors.append(f'({head} ...) declares no variable: {_render(expr)}')
            return None
        inner = dict(scope)
        inner.update(variables)
        body = self.formula(args[1], inner)
        if not ok or body is None:
            return None
        self.qtypes.update(t for _, t in variables)
        return (NodeKind(head), tuple(variables), body)

    def term(self, arg: object, scope: dict[str, str], expr: list) -> str | None:
        if isinstance(arg, list):
            self.errors.append(f'nested formula {_render(arg)} where an object is expected in '
                               f'{_render(expr)}')
            return None
        if arg.startswith('?'):
            if arg not in scope:
                self.errors.append(f'variable {arg} in {_render(expr)} is not bound by a '
                                   'forall/exists')
                return None
            return scope[arg]
        typ = self.type_of(arg)
        if typ is None:
            self.errors.append(f'unknown object "{arg}" in {_render(expr)}'
                               f'{_close(arg, self.kg.entities, "object")}')
            return None
        self.objects.add(arg)
        return typ

    def atom(self, pred: str, args: list, expr: list, scope: dict[str, str]) -> Node | None:
        sig = self.domain.predicates.get(pred)
        if sig is None:
            self.errors.append(f'unknown predicate "{pred}" in {_render(expr)}'
                               f'{_close(pred, self.domain.predicates, "predicate")}')
            for a in args:  # still report unknown objects
                if isinstance(a, str) and not a.startswith('?') and self.type_of(a) is None:
                    self.term(a, scope, expr)
            return None
        self.predicates.add(pred)
        types = [self.term(a, scope, expr) for a in args]
        if len(args) != sig.arity:
            self.errors.append(f'{_render(expr)} has {len(args)} argument'
                               f'{"s" if len(args) != 1 else ""} but {pred} takes {sig.arity}: '
                               f'{sig.signature()}')
            return None
        ok = None not in types
        for i, (a, t) in enumerate(zip(args, types, strict=True)):
            if t is None:
                continue
            accepted = sig.params[i][1]
            if not self.domain.is_subtype(t, accepted):
                want = ' or '.join(accepted)
                self.errors.append(f'wrong type in {_render(expr)}: "{a}" is {_an(t)} but '
                                   f'argument {i + 1} of {pred} must be {_an(want)}: '
                                   f'{sig.signature()}')
                ok = False
        return (NodeKind.ATOM, pred, tuple(args)) if ok else None


def render_goal(node: Node) -> str:
    """Return PDDL text for a goal AST node."""
    kind = node[0]
    if kind == NodeKind.ATOM:
        return '(' + ' '.join((node[1], *node[2])) + ')'
    if kind == NodeKind.EQUALS:
        return f'(= {node[1]} {node[2]})'
    if kind in (NodeKind.AND, NodeKind.OR):
        return f'({kind} ' + ' '.join(render_goal(k) for k in node[1]) + ')' if node[1] else \
            f'({kind})'
    if kind == NodeKind.NOT:
        return f'(not {render_goal(node[1])})'
    if kind == NodeKind.IMPLY:
        return f'(imply {render_goal(node[1])} {render_goal(node[2])})'
    if kind == NodeKind.COMPARE:
        return f'({node[1]} {_render_term(node[2])} {_render_term(node[3])})'
    variables = ' '.join(f'{v} - {t}' for v, t in node[1])
    return f'({kind} ({variables}) {render_goal(node[2])})'


def _render_term(term: tuple) -> str:
    if term[0] == 'op':
        return f'({term[1]} {_render_term(term[2])} {_render_term(term[3])})'
    return term[1] if term[0] == 'num' else '(' + ' '.join((term[1], *term[2])) + ')'


def strict_goal_errors(text: str) -> list[str]:
    """Return why ``text`` is not exactly one formula or one ``(:goal ...)`` block.

    For goals a person or program wrote (``l3mp plan``, the ``goal`` topic): text around
    the formula, or several formulas, would otherwise be dropped or joined silently.
    """
    body = _strip_comments(text if isinstance(text, str) else '')
    exprs, errors = _sexprs(body)
    if errors:
        return errors
    outside, depth = [], 0
    for tok in _TOKEN_RE.findall(body):
        if tok == '(':
            depth += 1
        elif depth == 0:
            outside.append(tok)  # a word, or a ")" that closes nothing
        elif tok == ')':
            depth -= 1
    if outside:
        return [f'text outside the goal formula: "{" ".join(outside)[:80]}"']
    if len(exprs) > 1:
        return [f'{len(exprs)} formulas: give one goal (join its parts with (and ...))']
    if exprs and exprs[0] and exprs[0][0] == 'define':
        return ['this is a whole PDDL problem file: its :objects and :init would be ignored; '
                'load it with "l3mp kg init --from FILE" and give only its goal formula here']
    return []


def _contradictions(node: Node) -> list[str]:
    """Return an error for each atom a conjunction asks to be both true and false."""
    def conjuncts(n: Node) -> list[Node]:
        return [c for k in n[1] for c in conjuncts(k)] if n[0] == NodeKind.AND else [n]
    parts = conjuncts(node)
    positive = {render_goal(p) for p in parts if p[0] == NodeKind.ATOM}
    return [f'the goal asks for {render_goal(p[1])} and its negation at once: it can never '
            'hold' for p in parts if p[0] == NodeKind.NOT and render_goal(p[1]) in positive]


def parse_goal(domain: DomainSchema, kg: KnowledgeGraph, text: str | Goal, *,
               strict: bool = False, consistent: bool = True) -> Goal:
    """Parse and check a PDDL goal against the domain and the KG's entities.

    Tolerant by default (a formula is picked out of an LLM's prose); ``strict`` refuses
    anything but one formula (:func:`strict_goal_errors`); ``consistent`` refuses a
    conjunction asking for an atom and its negation. Raises :class:`GoalError` listing
    every problem found.
    """
    if isinstance(text, Goal):
        return text
    if strict:
        problems = strict_goal_errors(text)
        if problems:
            raise GoalError(problems)
    expr, errors = _find_goal_sexpr(text, domain.predicates)
    if expr is None:
        raise GoalError(errors)
    checker = _GoalChecker(domain, kg)
    node = checker.formula(expr, {})
    errors = errors + checker.errors
    if node is not None and not errors and consistent:
        errors = _contradictions(node)
    if errors or node is None:
        raise GoalError(errors)
    return Goal(node, render_goal(node), frozenset(checker.objects),
                frozenset(checker.predicates), frozenset(checker.qtypes))


def goal_objects(goal: Goal) -> set[str]:
    """Return the objects (KG entities or domain constants) the goal names."""
    return set(goal.objects)


# ------------------------------------------------------------------ evaluation


def entities_of_type(domain: DomainSchema, kg: KnowledgeGraph, typ: str) -> list[str]:
    """Return the KG's entities and the domain's constants of type ``typ`` (or below it)."""
    names = [n for n, t in kg.entities.items() if domain.is_subtype(t, typ)]
    names += [n for n, t in domain.constants.items()
              if domain.is_subtype(t, typ) and n not in kg.entities]
    return names


def _holds(node: Node, facts: frozenset[Fact] | set[Fact], env: dict[str, str],
           domain: DomainSchema, kg: KnowledgeGraph) -> bool:
    kind = node[0]
    if kind == NodeKind.ATOM:
        return Fact(node[1], tuple(env.get(a, a) for a in node[2])) in facts
    if kind == NodeKind.EQUALS:
        return env.get(node[1], node[1]) == env.get(node[2], node[2])
    if kind == NodeKind.AND:
        return all(_holds(k, facts, env, domain, kg) for k in node[1])
    if kind == NodeKind.OR:
        return any(_holds(k, facts, env, domain, kg) for k in node[1])
    if kind == NodeKind.NOT:
        return not _holds(node[1], facts, env, domain, kg)
    if kind == NodeKind.IMPLY:
        return not _holds(node[1], facts, env, domain, kg) or _holds(node[2], facts, env,
                                                                     domain, kg)
    if kind == NodeKind.COMPARE:
        left, right = (_value(t, env, kg) for t in node[2:])
        if left is None or right is None:
            return False  # an undefined value compares false
        return {'>=': left >= right, '<=': left <= right, '>': left > right,
                '<': left < right, '=': left == right}[node[1]]
    variables, body = node[1], node[2]
    combos: list[dict[str, str]] = [dict(env)]
    for var, typ in variables:
        objs = entities_of_type(domain, kg, typ)
        combos = [{**c, var: o} for c in combos for o in objs]
    test = all if kind == NodeKind.FORALL else any
    return test(_holds(body, facts, c, domain, kg) for c in combos)


def _value(term: tuple, env: dict[str, str], kg: KnowledgeGraph) -> Fraction | None:
    if term[0] == 'num':
        return Fraction(term[1])
    if term[0] == 'op':
        left, right = _value(term[2], env, kg), _value(term[3], env, kg)
        if left is None or right is None or (term[1] == '/' and right == 0):
            return None
        return {'+': left + right, '-': left - right, '*': left * right,
                '/': left / right if right else left}[term[1]]
    held = kg.value_fact(Fact(term[1], tuple(env.get(a, a) for a in term[2])))
    return None if held is None else Fraction(held.value)


def goal_holds(domain: DomainSchema, kg: KnowledgeGraph, goal: str | Goal) -> bool:
    """Evaluate the goal on the KG (closed world: absent facts are false)."""
    goal = parse_goal(domain, kg, goal)
    return _holds(goal.formula, kg.facts, {}, domain, kg)
