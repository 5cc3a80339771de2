# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""PDDL text as written by people: s-expressions with places, domain tidying, problem files.

unified-planning's reader is strict where planners are not. :func:`normalise_domain`
rewrites what it refuses into what it reads, in PDDL terms: sections in the order of the
PDDL grammar (``:constants`` after ``:predicates`` is common), a type declared twice kept
once, an empty ``(:functions)`` dropped; it also sorts the numeric functions into action
costs (``total-cost`` and functions read only by cost increases) and real numeric state
(refused by :mod:`.domain`). :func:`read_problem` reads a problem file (objects, ``:init``,
``:goal``, ``:metric``) and every error names its line and token. :func:`write_problem`
writes a state back as a problem file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ['Group', 'PDDLSyntaxError', 'ProblemFile', 'Section', 'Word', 'DomainText',
           'normalise_domain', 'parse_sexprs', 'read_problem', 'render', 'write_problem']

COST = 'total-cost'
_TOKEN_RE = re.compile(r';[^\n]*|\(|\)|[^\s();]+')
_NUMBER_RE = re.compile(r'-?\d+(\.\d+)?$')


class PDDLSyntaxError(ValueError):
    """PDDL text that cannot be read; the message names the line and the token."""


class Word(str):
    """A token of PDDL text (lower-cased), remembering its line and column."""

    line: int
    col: int

    def __new__(cls, text: str, line: int = 0, col: int = 0) -> Word:
        """Make a word at ``line``:``col``."""
        obj = super().__new__(cls, text.lower())
        obj.line, obj.col = line, col
        return obj


class Group(list):
    """A parenthesised list of words and groups, remembering where it opens."""

    def __init__(self, line: int = 0, col: int = 0) -> None:
        super().__init__()
        self.line, self.col = line, col

    def head(self) -> str:
        """Return the first word ('' when the group is empty or starts with a group)."""
        return self[0] if self and isinstance(self[0], str) else ''


def where(node: object) -> str:
    """Return ``line L, col C`` of a word or group."""
    return f'line {getattr(node, "line", "?")}, col {getattr(node, "col", "?")}'


_NOT_ATOMS = frozenset({
    'define', 'problem', 'domain', 'and', 'or', 'not', 'imply', 'forall', 'exists', 'when',
    'at', 'over', 'either', '=', 'increase', 'decrease', 'assign', 'scale-up', 'scale-down',
    'preference', '*', '+', '-', '/', '>', '<', '>=', '<='})


def parse_sexprs(text: str, what: str = 'PDDL') -> list[Group | Word]:
    """Return the top-level s-expressions of ``text``; raise :class:`PDDLSyntaxError`.

    When a ``(`` is never closed, the atom that swallowed what follows it (an atom holding
    a parenthesised part, e.g. ``(road a b`` followed by ``(= (total-cost) 0)``) is named.
    """
    out: list[Group | Word] = []
    stack: list[Group] = []
    suspect: Group | None = None
    line_starts = [0] + [m.end() for m in re.finditer('\n', text)]
    line = 0
    for m in _TOKEN_RE.finditer(text):
        tok = m.group()
        if tok.startswith(';'):
            continue
        while line + 1 < len(line_starts) and line_starts[line + 1] <= m.start():
            line += 1
        pos = (line + 1, m.start() - line_starts[line] + 1)
        if tok == '(':
            stack.append(Group(*pos))
        elif tok == ')':
            if not stack:
                raise PDDLSyntaxError(f'{what}: line {pos[0]}, col {pos[1]}: ")" closes '
                                      'nothing')
            done = stack.pop()
            if suspect is None and done.head() and done.head() not in _NOT_ATOMS \
                    and not done.head().startswith(':') \
                    and any(isinstance(x, Group) for x in done):
                suspect = done
            (stack[-1] if stack else out).append(done)
        else:
            (stack[-1] if stack else out).append(Word(tok, *pos))
    if stack:
        if suspect is not None:
            raise PDDLSyntaxError(f'{what}: {where(suspect)}: "(" of ({suspect.head()} ...) '
                                  'is never closed (it runs into the next parenthesis)')
        raise PDDLSyntaxError(f'{what}: {where(stack[-1])}: "(" is never closed '
                              f'({len(stack)} unclosed)')
    return out


def render(node: object) -> str:
    """Return PDDL text for a word or group, on one line."""
    if isinstance(node, list):
        return '(' + ' '.join(render(x) for x in node) + ')'
    return str(node)


def _define(text: str, kind: str, what: str) -> tuple[Group, list]:
    """Return the ``(define (kind name) ...)`` group and its sections."""
    exprs = parse_sexprs(text, what)
    if not exprs:
        raise PDDLSyntaxError(f'{what}: no (define ...) found: the file is empty')
    top = exprs[0]
    if not isinstance(top, Group) or top.head() != 'define':
        tok = top if isinstance(top, Word) else (top[0] if top else top)
        raise PDDLSyntaxError(f'{what}: {where(tok)}: expected "(define ({kind} NAME) ...)", '
                              f'found "{render(tok)[:40]}"')
    if len(exprs) > 1:
        raise PDDLSyntaxError(f'{what}: {where(exprs[1])}: text after the end of (define ...)'
                              f': "{render(exprs[1])[:40]}"')
    if len(top) < 2 or not isinstance(top[1], Group) or len(top[1]) != 2 \
            or top[1].head() != kind:
        at = top[1] if len(top) > 1 else top
        raise PDDLSyntaxError(f'{what}: {where(at)}: expected "({kind} NAME)" after define')
    return top, list(top[2:])


def typed_list(items: Iterable, what: str) -> list[tuple[Word, Word]]:
    """Return ``[(name, type)]`` of ``a b - t c`` (untyped names are ``object``)."""
    out: list[tuple[Word, Word]] = []
    pending: list[Word] = []
    items = list(items)
    i = 0
    while i < len(items):
        tok = items[i]
        if isinstance(tok, Group):
            if tok.head() == 'either':
                raise PDDLSyntaxError(f'{what}: {where(tok)}: (either ...) is not allowed here')
            raise PDDLSyntaxError(f'{what}: {where(tok)}: unexpected "(" in a list of names')
        if tok == '-':
            if i + 1 >= len(items) or not isinstance(items[i + 1], (str, Group)):
                raise PDDLSyntaxError(f'{what}: {where(tok)}: "-" without a type after it')
            typ = items[i + 1]
            if isinstance(typ, Group):
                typ = Word('object', typ.line, typ.col)  # (either a b): the reader's rule
            out += [(p, typ) for p in pending]  # "- board" alone declares nothing
            pending = []
            i += 2
            continue
        pending.append(tok)
        i += 1
    out += [(p, Word('object', p.line, p.col)) for p in pending]
    return out


# -- domains ---------------------------------------------------------------------------

_ORDER = (':requirements', ':types', ':constants', ':predicates', ':functions',
          ':constraints')


@dataclass
class DomainText:
    """A domain text tidied for unified-planning, and what was changed or found."""

    text: str
    name: str
    notes: list[str] = field(default_factory=list)
    costs: bool = False  # the actions increase (total-cost) by numbers: a :metric applies
    numeric_state: list[str] = field(default_factory=list)  # functions that are real state


def _walk(node: object) -> Iterable[Group]:
    if isinstance(node, Group):
        yield node
        for child in node:
            yield from _walk(child)


def normalise_domain(text: str, what: str = 'PDDL domain') -> DomainText:
    """Tidy a domain text so unified-planning reads what planners read; see the module doc.

    Raises :class:`PDDLSyntaxError` (with line and token) when the text is not PDDL.
    """
    top, sections = _define(text, 'domain', what)
    name = str(top[1][1])
    notes: list[str] = []
    by_kind: dict[str, Group] = {}
    rest: list[Group] = []
    for sec in sections:
        if not isinstance(sec, Group) or not sec.head().startswith(':'):
            raise PDDLSyntaxError(f'{what}: {where(sec)}: expected a section such as '
                                  f'(:predicates ...), found "{render(sec)[:40]}"')
        kind = sec.head()
        if kind in _ORDER:
            if kind in by_kind:
                raise PDDLSyntaxError(f'{what}: {where(sec)}: a second ({kind} ...) section')
            by_kind[kind] = sec
        else:
            rest.append(sec)
    if ':types' in by_kind:
        by_kind[':types'] = _dedupe_types(by_kind[':types'], what)
    for kind in (':predicates', ':functions'):
        for decl in by_kind.get(kind, [])[1:]:
            if isinstance(decl, Group):
                _distinct_parameters(decl)
    functions = by_kind.get(':functions')
    if functions is not None and len(functions) == 1:
        del by_kind[':functions']  # an empty (:functions): nothing to declare
        functions = None
    out = DomainText('', name, notes)
    if functions is not None:
        _sort_functions(functions, rest, out, what)
        if len(functions) == 1:
            del by_kind[':functions']
    body = [by_kind[k] for k in _ORDER if k in by_kind] + rest
    out.text = f'(define (domain {name})\n' + '\n'.join(render(s) for s in body) + ')\n'
    return out


def _distinct_parameters(decl: Group) -> None:
    """Rename a repeated parameter of a declaration: ``(in ?obj ?obj)`` → ``?obj ?obj_2``."""
    seen: set[str] = set()
    for k, item in enumerate(decl):
        if isinstance(item, str) and item.startswith('?'):
            name, n = str(item), 1
            while name in seen:
                n += 1
                name = f'{item}_{n}'
            seen.add(name)
            decl[k] = Word(name, item.line, item.col)


def _dedupe_types(sec: Group, what: str) -> Group:
    """Keep each type once (a later ``- parent`` wins over an implicit ``object``)."""
    parents: dict[str, Word] = {}
    for tname, parent in typed_list(sec[1:], what):
        old = parents.get(tname)
        if old is not None and old != 'object' and parent != 'object' and old != parent:
            raise PDDLSyntaxError(f'{what}: {where(tname)}: type {tname} is declared twice, '
                                  f'below {old} and below {parent}')
        if old is None or old == 'object':
            parents[tname] = parent
    out = Group(sec.line, sec.col)
    out.append(sec[0])
    for tname, parent in parents.items():
        out += [Word(tname), Word('-'), parent]
    return out


def _sort_functions(functions: Group, actions: list[Group], out: DomainText,
                    what: str) -> None:
    """Sort the functions into costs and numeric state; drop costs read from functions.

    ``(increase (total-cost) 3)`` effects stay (the :metric makes them action costs).
    Functions read only by cost increases (``(increase (total-cost) (road-length ?a ?b))``)
    hold values a KG does not keep: those increases are removed, and the note says the
    domain plans without costs. Functions read only by ``:duration`` go with the durations.
    Any other use of a function is numeric state (``out.numeric_state``).
    """
    declared: dict[str, Group] = {item.head(): item for item in functions[1:]
                                  if isinstance(item, Group) and item.head()}
    increases: list[tuple[Group, int, Group]] = []  # (parent, index, the increase)
    ignored: set[int] = set()  # groups inside cost values and durations
    for action in actions:
        for k, item in enumerate(action):
            if item == ':duration' and k + 1 < len(action):
                ignored |= {id(g) for g in _walk(action[k + 1])}
        for group in _walk(action):
            for k, child in enumerate(group):
                if isinstance(child, Group) and child.head() == 'increase' and len(child) == 3 \
                        and isinstance(child[1], Group) and child[1].head() == COST:
                    increases.append((group, k, child))
                    ignored |= {id(g) for g in _walk(child)}
    state = {g.head() for action in actions for g in _walk(action)
             if g.head() in declared and id(g) not in ignored}
    out.numeric_state = sorted(state)
    if state:
        return
    fixed = all(isinstance(inc[2], str) and _NUMBER_RE.match(inc[2])
                for _, _, inc in increases)
    if not fixed:
        read = sorted({g.head() for _, _, inc in increases for g in _walk(inc[2])
                       if g.head() in declared})
        for parent, k, inc in increases:
            parent[k] = Group(inc.line, inc.col)
            parent[k].append(Word('and'))
        out.notes.append('action costs dropped: they read numeric functions '
                         f'({", ".join(read) or "expressions"}) whose values the KG does not '
                         'keep; plans ignore costs')
    out.costs = bool(increases) and fixed
    keep = {COST} if out.costs else set()
    functions[1:] = [item for item in functions[1:]
                     if not isinstance(item, Group) or item.head() in keep]
    _strip_number_markers(functions)


def _strip_number_markers(functions: Group) -> None:
    """Drop ``- number`` markers that no longer follow a function."""
    kept: list = [functions[0]]
    items = list(functions[1:])
    i = 0
    while i < len(items):
        if items[i] == '-' and i + 1 < len(items):
            if len(kept) > 1 and isinstance(kept[-1], Group):
                kept += items[i:i + 2]
            i += 2
            continue
        kept.append(items[i])
        i += 1
    functions[:] = kept


# -- problems --------------------------------------------------------------------------


class Section(StrEnum):
    """A section of a problem file, by its keyword."""

    DOMAIN = ':domain'
    OBJECTS = ':objects'
    INIT = ':init'
    GOAL = ':goal'
    METRIC = ':metric'
    REQUIREMENTS = ':requirements'  # read and ignored
    SITUATION = ':situation'  # read and ignored


@dataclass
class ProblemFile:
    """What a problem file says: objects, true atoms of ``:init``, goal text, metric."""

    name: str
    domain: str
    objects: dict[str, str]
    atoms: list[tuple[str, tuple[str, ...], str]]  # predicate, args, place
    numbers: dict[str, float]  # ground numeric function → value
    goal: str
    metric: str
    goal_formula: Group | None = None
    #: the numeric values of ``:init``: (function, args, number text, place)
    values: list[tuple[str, tuple[str, ...], str, str]] = field(default_factory=list)

    def rename(self, old: str, new: str) -> None:
        """Rename object ``old`` everywhere: objects, atoms and the goal's arguments."""
        self.objects = {new if n == old else n: t for n, t in self.objects.items()}
        self.atoms = [(p, tuple(new if a == old else a for a in args), place)
                      for p, args, place in self.atoms]
        self.values = [(f, tuple(new if a == old else a for a in args), v, place)
                       for f, args, v, place in self.values]
        if self.goal_formula is not None:
            for group in _walk(self.goal_formula):
                for k in range(1, len(group)):
                    if group[k] == old and group[k - 1] != '-':
                        group[k] = Word(new, group[k].line, group[k].col)
            self.goal = render(self.goal_formula)


def read_problem(text: str, what: str = 'PDDL problem') -> ProblemFile:
    """Read a problem file; raise :class:`PDDLSyntaxError` naming the line and token."""
    top, sections = _define(text, 'problem', what)
    name = str(top[1][1])
    domain, goal, metric = '', '', ''
    formula: Group | None = None
    objects: dict[str, str] = {}
    atoms: list[tuple[str, tuple[str, ...], str]] = []
    numbers: dict[str, float] = {}
    values: list[tuple[str, tuple[str, ...], str, str]] = []
    for sec in sections:
        if not isinstance(sec, Group) or not sec.head().startswith(':'):
            raise PDDLSyntaxError(f'{what}: {where(sec)}: expected a section such as '
                                  f'(:init ...), found "{render(sec)[:40]}"')
        kind = sec.head()
        if kind == Section.DOMAIN:
            if len(sec) != 2 or not isinstance(sec[1], str):
                raise PDDLSyntaxError(f'{what}: {where(sec)}: expected (:domain NAME)')
            domain = str(sec[1])
        elif kind == Section.OBJECTS:
            for obj, typ in typed_list(sec[1:], what):
                if obj in objects and objects[obj] != typ:
                    raise PDDLSyntaxError(f'{what}: {where(obj)}: object {obj} is declared '
                                          f'twice (as {objects[obj]} and {typ})')
                objects[str(obj)] = str(typ)
        elif kind == Section.INIT:
            for item in sec[1:]:
                _init_item(item, atoms, numbers, what, values)
        elif kind == Section.GOAL:
            if len(sec) != 2:
                raise PDDLSyntaxError(f'{what}: {where(sec)}: (:goal ...) must hold one '
                                      f'formula, found {len(sec) - 1}')
            goal = render(sec[1])
            formula = sec[1] if isinstance(sec[1], Group) else None
        elif kind == Section.METRIC:
            metric = render(sec)
        elif kind in (Section.REQUIREMENTS, Section.SITUATION):
            continue
        else:
            raise PDDLSyntaxError(f'{what}: {where(sec)}: section {kind} is not supported in '
                                  'a problem (supported: :domain, :objects, :init, :goal, '
                                  ':metric)')
    return ProblemFile(name, domain, objects, atoms, numbers, goal, metric, formula, values)


def _init_item(item: object, atoms: list, numbers: dict, what: str,
               values: list | None = None) -> None:
    """Read one ``:init`` element: an atom ``(p a b)`` or ``(= (f a) 3)``."""
    if not isinstance(item, Group) or not item or not item.head():
        raise PDDLSyntaxError(f'{what}: {where(item)}: expected an atom such as (p a b) in '
                              f':init, found "{render(item)[:40]}"')
    head = item.head()
    if head == '=':
        if len(item) != 3 or not isinstance(item[1], Group) or not isinstance(item[2], str) \
                or not _NUMBER_RE.match(item[2]):
            raise PDDLSyntaxError(f'{what}: {where(item)}: expected (= (function args) '
                                  f'number), found "{render(item)[:60]}"')
        numbers[render(item[1])] = float(item[2])
        term = item[1]
        if values is not None and term.head() and all(isinstance(a, str) for a in term[1:]):
            values.append((term.head(), tuple(str(a) for a in term[1:]), str(item[2]),
                           where(item)))
        return
    timed = head == 'at' and len(item) > 1 and isinstance(item[1], str) \
        and _NUMBER_RE.match(item[1])
    if head in ('not', 'and', 'or') or timed:
        raise PDDLSyntaxError(f'{what}: {where(item)}: ({head} ...) in :init: the initial '
                              'state lists the atoms that hold (timed or negated literals '
                              'are not supported)')
    args = []
    for a in item[1:]:
        if not isinstance(a, str):
            raise PDDLSyntaxError(f'{what}: {where(a)}: nested "(" inside the atom '
                                  f'{render(item)[:60]}')
        if a.startswith('?'):
            raise PDDLSyntaxError(f'{what}: {where(a)}: variable {a} in the initial atom '
                                  f'{render(item)[:60]}')
        args.append(str(a))
    atoms.append((head, tuple(args), where(item)))


def write_problem(name: str, domain: str, objects: Mapping[str, str],
                  atoms: Iterable[str], goal: str | None = None, costs: bool = False,
                  metric: str | None = None) -> str:
    """Return a problem file: objects grouped by type, one ``:init`` atom a line.

    Without a goal the file has ``(:goal (and))`` (a state to read back; a planner has
    nothing to do). With ``costs``: ``(= (total-cost) 0)`` and the metric (``metric``, or
    minimising the total cost).
    """
    by_type: dict[str, list[str]] = {}
    for obj, typ in sorted(objects.items()):
        by_type.setdefault(typ, []).append(obj)
    lines = [f'(define (problem {name})', f'  (:domain {domain})', '  (:objects']
    lines += [f'    {" ".join(objs)} - {typ}' for typ, objs in sorted(by_type.items())]
    lines.append('  )')
    lines.append('  (:init')
    lines += [f'    {a}' for a in atoms]
    if costs:
        lines.append(f'    (= ({COST}) 0)')
    lines.append('  )')
    lines.append(f'  (:goal {goal or "(and)"})')
    if costs:
        lines.append(f'  {metric or f"(:metric minimize ({COST}))"}')
    lines.append(')')
    return '\n'.join(lines) + '\n'
