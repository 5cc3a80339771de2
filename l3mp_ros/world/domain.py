# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""PDDL domain schema read through unified-planning's PDDLReader.

Exposes the type hierarchy, the predicates with their argument types (``either``
kept as a tuple of accepted types) and the actions of any typed STRIPS/ADL domain.

The text is first tidied by :func:`.pddl.normalise_domain` (section order, types declared
twice, empty ``(:functions)``, costs read from numeric functions). Action costs with fixed
values are read together with a ``:metric`` (so ``total-cost`` is no state); durative
actions are compiled to instantaneous ones by unified-planning's ``TimedToSequential``
(see :data:`DURATIVE_NOTE`); a name shared by a predicate and an action (or a type) is
accepted. What was changed is kept in :attr:`DomainSchema.notes`.

What a report's update needs (types, predicates, actions, constants, which predicates
actions change) is kept on disk per domain text (``~/.cache/l3mp_ros/domains``), so a
process that only updates the KG never builds unified-planning's environment (whose
engine factory imports SciPy: about 1.5 s of every ``l3mp update``); the UP problem is
parsed on first use of :attr:`DomainSchema.up_problem` (planning, plan execution).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unified_planning.environment import get_environment
from unified_planning.io import PDDLReader
from unified_planning.model import DurativeAction, Problem

from ..text import learn_spellings
from .pddl import COST, PDDLSyntaxError, normalise_domain

ROOT_TYPE = 'object'
_CACHE: dict[tuple[str, str], DomainSchema] = {}
SUMMARY_VERSION = 5
DURATIVE_NOTE = ('durative actions compiled to instantaneous ones, durations dropped: each '
                 'checks its at-start conditions, applies its at-start effects, then checks '
                 'its over-all and at-end conditions and applies its at-end effects')
CACHE_ENV = 'L3MP_DOMAIN_CACHE'  # a directory, or "off"


class DomainError(ValueError):
    """The PDDL domain cannot be read."""


@dataclass(frozen=True)
class Predicate:
    """A predicate signature: parameter names and accepted types per position."""

    name: str
    params: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def arity(self) -> int:
        """Return the number of arguments."""
        return len(self.params)

    def signature(self) -> str:
        """Return ``(name ?a - t1 ?b - (either t2 t3))``."""
        parts = [self.name]
        for pname, types in self.params:
            tt = types[0] if len(types) == 1 else '(either ' + ' '.join(types) + ')'
            parts.append(f'?{pname} - {tt}')
        return '(' + ' '.join(parts) + ')'


@dataclass(frozen=True)
class ActionSchema:
    """An action's name, parameters (name, accepted types) and the facts it makes true.

    ``adds``: per effect that makes a predicate true, the predicate and, per argument,
    the index of the parameter it is (-1: a constant or other term).
    """

    name: str
    params: tuple[tuple[str, tuple[str, ...]], ...]
    adds: tuple[tuple[str, tuple[int, ...]], ...] = ()


class DomainSchema:
    """A typed PDDL domain: types, predicates, actions and the UP problem holding it."""

    def __init__(self, up_problem: Problem | None, path: Path | None = None,
                 text: str | None = None, *, summary: dict[str, Any] | None = None) -> None:
        self._up_problem = up_problem
        self._timed: Problem | None = None
        self.path = path
        self.text = text
        if text:
            learn_spellings(text)  # "personAt", lower-cased by the reader, is two words
        if summary is None:
            if up_problem is None:
                raise DomainError('a domain schema needs a UP problem or a summary')
            summary = _summarise(up_problem, text or '')
        self.name: str = summary['name']
        self.types: dict[str, str | None] = dict(summary['types'])
        self.predicates: dict[str, Predicate] = {
            n: Predicate(n, tuple((pn, tuple(tt)) for pn, tt in params))
            for n, params in summary['predicates'].items()}
        adds = summary.get('adds') or {}
        self.actions: dict[str, ActionSchema] = {
            n: ActionSchema(n, tuple((pn, tuple(tt)) for pn, tt in params),
                            tuple((p, tuple(ix)) for p, ix in adds.get(n, ())))
            for n, params in summary['actions'].items()}
        self.constants: dict[str, str] = dict(summary['constants'])
        self.notes: tuple[str, ...] = tuple(summary.get('notes', ()))
        self.costs: bool = bool(summary.get('costs', False))
        #: numeric functions (``battery_level ?r - robot``) whose values a KG may hold
        self.functions: dict[str, Predicate] = {
            n: Predicate(n, tuple((pn, tuple(tt)) for pn, tt in params))
            for n, params in summary.get('functions', {}).items()}
        #: functions actions read or change outside action costs (numeric planning)
        self.numeric_state: tuple[str, ...] = tuple(summary.get('numeric_state', ()))
        #: the domain keeps (total-cost) as a function beside numeric state (a :metric)
        self.total_cost: bool = bool(summary.get('total_cost', False))
        self._fluent = frozenset(summary['fluent'])
        made = summary.get('made') or {}
        self._made = {side: frozenset(made.get(side, ())) for side in ('true', 'false')} \
            if made else None
        self._ancestors: dict[str, tuple[str, ...]] = {t: self._chain(t) for t in self.types}

    @property
    def up_problem(self) -> Problem:
        """Return the unified-planning problem of the domain (parsed on first use)."""
        if self._up_problem is None:
            self._up_problem = _parse(self.text or '', self.path)[0]
        return self._up_problem

    @property
    def durative(self) -> bool:
        """Say whether the domain has durative actions (:attr:`up_problem` compiles them)."""
        return DURATIVE_NOTE in self.notes

    @property
    def timed_problem(self) -> Problem:
        """Return the domain with its durative actions as written (a temporal engine's).

        :attr:`up_problem` is the same domain compiled to instantaneous actions; both have
        the same action names, types, predicates and functions.
        """
        if not self.durative:
            return self.up_problem
        if self._timed is None:
            self._timed = _parse(self.text or '', self.path, compile_durative=False)[0]
        return self._timed

    def summary(self) -> dict[str, Any]:
        """Return the JSON-ready schema: what everything but planning needs."""
        return {'name': self.name, 'types': self.types,
                'predicates': {n: [[pn, list(tt)] for pn, tt in p.params]
                               for n, p in self.predicates.items()},
                'actions': {n: [[pn, list(tt)] for pn, tt in a.params]
                            for n, a in self.actions.items()},
                'adds': {n: [[p, list(ix)] for p, ix in a.adds]
                         for n, a in self.actions.items()},
                'constants': self.constants, 'fluent': sorted(self._fluent),
                'made': ({k: sorted(v) for k, v in self._made.items()} if self._made
                         else {}),
                'notes': list(self.notes), 'costs': self.costs,
                'functions': {n: [[pn, list(tt)] for pn, tt in f.params]
                              for n, f in self.functions.items()},
                'numeric_state': list(self.numeric_state), 'total_cost': self.total_cost}

    # -- loading -------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> DomainSchema:
        """Read a domain file; raise :class:`DomainError` with a one-line reason.

        Parsing is slow (seconds for a large domain), so schemas are cached per process
        by file content; treat a schema as read-only (clone ``up_problem`` to change it).
        """
        path = Path(path)
        try:
            text = path.read_text()
        except OSError as exc:
            raise DomainError(f'cannot read domain {path}: {exc.strerror}') from None
        key = (str(path.resolve()), text)
        cached = _CACHE.get(key)
        if cached is None:
            cached = _CACHE[key] = cls._from_disk_cache(text, path) or cls.from_text(
                text, path)
        return cached

    @classmethod
    def _from_disk_cache(cls, text: str, path: Path) -> DomainSchema | None:
        """Return the schema from its cached summary, or None (then it is parsed)."""
        file = _summary_file(text)
        if file is None or unsupported_features(text):
            return None
        try:
            summary = json.loads(file.read_text())
            if summary.get('version') != SUMMARY_VERSION:
                return None
            return cls(None, path, text, summary=summary)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    @classmethod
    def from_text(cls, text: str, path: Path | None = None) -> DomainSchema:
        """Parse domain text; raise :class:`DomainError` with a one-line reason.

        unified-planning 1.3's PDDLReader has no ``either``: each ``(either a b)``
        is replaced by the nearest common supertype of ``a`` and ``b`` before
        parsing, and the alternatives are kept for type checks of predicates.
        """
        problem, notes, costs, numeric = _parse(text, path)
        summary = _summarise(problem, text)
        summary.update(notes=notes, costs=costs, numeric_state=numeric)
        schema = cls(problem, path, text, summary=summary)
        _write_summary(text, schema.summary())
        return schema

    # -- types ---------------------------------------------------------------
    def _chain(self, t: str) -> tuple[str, ...]:
        chain = []
        seen = set()
        while t is not None and t not in seen:
            chain.append(t)
            seen.add(t)
            t = self.types.get(t)
        if ROOT_TYPE not in chain:
            chain.append(ROOT_TYPE)
        return tuple(chain)

    def has_type(self, t: str) -> bool:
        """Return True when ``t`` is a type of this domain."""
        return t in self.types

    def ancestors(self, t: str) -> tuple[str, ...]:
        """Return ``t`` and its supertypes up to ``object``."""
        return self._ancestors.get(t, (t, ROOT_TYPE))

    def is_subtype(self, t: str, ancestor: str | tuple[str, ...]) -> bool:
        """Return True when ``t`` equals or descends from ``ancestor`` (or one of them)."""
        targets = (ancestor,) if isinstance(ancestor, str) else ancestor
        chain = self.ancestors(t)
        return any(a in chain for a in targets)

    def subtypes(self, t: str) -> set[str]:
        """Return ``t`` and every type below it."""
        return {s for s in self.types if t in self.ancestors(s)}

    # -- predicates ----------------------------------------------------------
    def signature(self, pred: str) -> str:
        """Return a predicate's PDDL signature text."""
        return self.predicates[pred].signature()

    def signatures(self) -> list[str]:
        """Return every predicate signature, sorted by name."""
        return [self.predicates[p].signature() for p in sorted(self.predicates)]

    def accepts(self, pred: str, index: int, entity_type: str) -> bool:
        """Return True when an entity of ``entity_type`` fits argument ``index``."""
        return self.is_subtype(entity_type, self.predicates[pred].params[index][1])

    def fluent_predicates(self) -> frozenset[str]:
        """Return predicates that some action changes (the rest are static)."""
        return self._fluent

    def one_way(self, pred: str) -> bool | None:
        """Return the only value actions ever give ``pred`` (None: both, none, unknown).

        False for a phone's ringing that only answering it changes: a goal asking it true
        can only ask for what already holds.
        """
        if self._made is None or pred not in self._fluent:
            return None
        up, down = pred in self._made['true'], pred in self._made['false']
        return up if up != down else None

    def static_predicates(self) -> frozenset[str]:
        """Return predicates no action changes: which room a TV is in, who owns a phone."""
        return frozenset(self.predicates) - self.fluent_predicates()


def _parse(text: str, path: Path | None, compile_durative: bool = True
           ) -> tuple[Problem, list[str], bool, list[str]]:
    """Parse domain text with UP; return (problem, notes, has costs, numeric state).

    Raises :class:`DomainError` with a one-line reason in PDDL terms. unified-planning
    1.3's PDDLReader has no ``either``: each ``(either a b)`` is replaced by the nearest
    common supertype of ``a`` and ``b`` before parsing.
    """
    where = f' {path}' if path else ''
    try:
        tidy = normalise_domain(text, f'PDDL domain{where}')
    except PDDLSyntaxError as exc:
        raise DomainError(f'malformed {exc}') from None
    unsupported = unsupported_features(text)
    if unsupported:
        raise DomainError(f'PDDL domain{where} uses {"; ".join(unsupported)}: not '
                          'supported (l3mp_ros plans STRIPS/ADL domains with types; no '
                          'installed engine plans on these)')
    notes = list(tidy.notes)
    stub = (f'(define (problem {tidy.name}) (:domain {tidy.name}) (:init (= ({COST}) 0)) '
            f'(:goal (and)) (:metric minimize ({COST})))') if tidy.costs else None
    try:
        problem = _read(tidy.text, stub)
    except Exception as exc:  # UP raises several exception kinds on bad PDDL
        msg = ' '.join(str(exc).split())
        shared = re.match(r'Name (\S+) already defined', msg)
        if shared is None:
            raise DomainError(f'malformed PDDL domain{where}: {msg[:300] or type(exc).__name__}'
                              ) from None
        # planners accept a predicate and an action (or a type) of the same name: UP's
        # environment can allow that, and then keeps them apart by kind
        get_environment().error_used_name = False
        warnings.filterwarnings('ignore', message='Name .* already defined')
        try:
            problem = _read(tidy.text, stub)
        except Exception as exc2:  # noqa: BLE001
            msg = ' '.join(str(exc2).split())[:300] or type(exc2).__name__
            raise DomainError(f'malformed PDDL domain{where}: {msg}') from None
        notes.append(f'the name {shared.group(1)} is used by two kinds of element (e.g. a '
                     'predicate and an action)')
    if compile_durative and any(isinstance(a, DurativeAction) for a in problem.actions):
        problem = _sequential(problem, where)
        notes.append(DURATIVE_NOTE)
    problem.name = tidy.name
    return problem, notes, tidy.costs, list(tidy.numeric_state)


def _read(text: str, stub: str | None) -> Problem:
    """Parse a tidied domain (and the cost stub) with UP's reader, ``either`` flattened."""
    if _EITHER_RE.search(text):
        flat = _EITHER_RE.sub('object', text)
        hierarchy = _hierarchy(PDDLReader().parse_problem_string(flat))
        text = _EITHER_RE.sub(lambda m: _common_ancestor(
            m.group(1).lower().split(), hierarchy), text)
    return PDDLReader().parse_problem_string(text, stub)


def _sequential(problem: Problem, where: str) -> Problem:
    """Compile durative actions to instantaneous ones with UP's ``TimedToSequential``."""
    from unified_planning.engines import CompilationKind
    from unified_planning.engines.compilers.timed_to_sequential import TimedToSequential

    try:
        compiled = TimedToSequential().compile(problem, CompilationKind.TIMED_TO_SEQUENTIAL)
    except Exception as exc:  # noqa: BLE001 - UP refuses e.g. intermediate effects
        msg = ' '.join(str(exc).split())[:200]
        raise DomainError(f'PDDL domain{where}: its durative actions cannot be made '
                          f'sequential: {msg}') from None
    return compiled.problem


def _summarise(up_problem: Problem, text: str) -> dict[str, Any]:
    """Return the JSON-ready schema of a parsed domain (see :meth:`DomainSchema.summary`)."""
    types: dict[str, str | None] = {ROOT_TYPE: None}
    for ut in up_problem.user_types:
        name = ut.name.lower()
        father = ut.father.name.lower() if ut.father is not None else ROOT_TYPE
        types[name] = father if name != ROOT_TYPE else None
    either = _predicate_either(text)
    predicates = {}
    functions = {fl.name.lower(): [[p.name, [p.type.name.lower()]] for p in fl.signature]
                 for fl in up_problem.fluents
                 if not fl.type.is_bool_type() and fl.name.lower() != COST}
    for fl in up_problem.fluents:
        if not fl.type.is_bool_type():
            continue
        alts = either.get(fl.name.lower(), {})
        predicates[fl.name.lower()] = [[p.name, list(alts.get(i, (p.type.name.lower(),)))]
                                       for i, p in enumerate(fl.signature)]
    actions = {act.name.lower(): [[p.name, [p.type.name.lower()]] for p in act.parameters]
               for act in up_problem.actions}
    adds = {act.name.lower(): _adds(act) for act in up_problem.actions}
    effects = [eff for act in up_problem.actions for eff in action_effects(act)]
    fluent = sorted({eff.fluent.fluent().name.lower() for eff in effects})
    made = {side: sorted({eff.fluent.fluent().name.lower() for eff in effects
                          if eff.value.is_bool_constant()
                          and eff.value.bool_constant_value() is (side == 'true')})
            for side in ('true', 'false')}
    return {'name': (up_problem.name or '').lower(), 'types': types,
            'predicates': predicates, 'actions': actions, 'adds': adds,
            'constants': {o.name.lower(): o.type.name.lower()
                          for o in up_problem.all_objects},
            'fluent': fluent, 'made': made, 'functions': functions,
            'total_cost': any(fl.name.lower() == COST for fl in up_problem.fluents)}


def _adds(act: Any) -> list[list[Any]]:
    """Return what an action makes true: per effect, the predicate and its parameters' indices."""
    names = [p.name for p in act.parameters]
    out = []
    for eff in action_effects(act):
        if eff.value.is_bool_constant() and eff.value.bool_constant_value():
            args = [str(a) for a in eff.fluent.args]
            out.append([eff.fluent.fluent().name.lower(),
                        [names.index(a) if a in names else -1 for a in args]])
    return out


def action_effects(act: Any) -> list[Any]:
    """Return an action's effects (a durative action keeps them per timing)."""
    effs = getattr(act, 'effects', [])
    if isinstance(effs, dict):
        return [e for timed in effs.values() for e in timed]
    return list(effs)


def _summary_file(text: str) -> Path | None:
    """Return where the summary of this domain text is kept, or None (cache off)."""
    where = os.environ.get(CACHE_ENV, '').strip()
    if where.lower() == 'off':
        return None
    base = Path(where).expanduser() if where else Path(
        os.environ.get('XDG_CACHE_HOME') or Path.home() / '.cache') / 'l3mp_ros' / 'domains'
    digest = hashlib.sha256(text.encode()).hexdigest()
    return base / f'{digest}.v{SUMMARY_VERSION}.json'


def _write_summary(text: str, summary: dict[str, Any]) -> None:
    """Keep a parsed domain's summary (atomically; a cache that cannot be written is skipped)."""
    file = _summary_file(text)
    if file is None:
        return
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix='.tmp')
        with os.fdopen(fd, 'w') as handle:
            json.dump({'version': SUMMARY_VERSION, **summary}, handle)
        os.replace(tmp, file)
    except OSError:
        pass


_FEATURES = (
    (re.compile(r'\(\s*:derived\b'), 'derived predicates (:derived)'),
    (re.compile(r'\(\s*:(?:process|event)\b'), 'processes or events (PDDL+)'),
    (re.compile(r'\(\s*:constraints\b'), 'state-trajectory constraints (:constraints)'),
)


def unsupported_features(text: str) -> list[str]:
    """Return the PDDL features of a domain text that no installed engine plans on.

    Numeric fluents are read (their values are KG facts; a numeric engine plans on them).
    """
    body = re.sub(r';[^\n]*', '', text).lower()
    return [name for pattern, name in _FEATURES if pattern.search(body)]


_EITHER_RE = re.compile(r'\(\s*either\s+([^()]*)\)', re.I)
_PRED_BLOCK_RE = re.compile(r'\(:predicates(.*?)\)\s*(?:\(:|\)\s*$)', re.I | re.S)
_TOKEN_RE = re.compile(r'\(\s*either\s+[^()]*\)|\(|\)|[^\s()]+', re.I)


def _hierarchy(problem: Problem) -> dict[str, str | None]:
    out: dict[str, str | None] = {ROOT_TYPE: None}
    for ut in problem.user_types:
        out[ut.name.lower()] = ut.father.name.lower() if ut.father is not None else ROOT_TYPE
    return out


def _common_ancestor(types: list[str], hierarchy: dict[str, str | None]) -> str:
    def chain(t: str | None) -> list[str]:
        out = []
        while t is not None and t not in out:
            out.append(t)
            t = hierarchy.get(t)
        return out + ([ROOT_TYPE] if ROOT_TYPE not in out else [])

    common = chain(types[0])
    for t in types[1:]:
        c = set(chain(t))
        common = [x for x in common if x in c]
    return common[0] if common else ROOT_TYPE


def _predicate_either(text: str) -> dict[str, dict[int, tuple[str, ...]]]:
    """Map predicate → {argument index: alternatives} for ``either``-typed arguments."""
    block = _PRED_BLOCK_RE.search(text)
    if block is None or 'either' not in block.group(1).lower():
        return {}
    out: dict[str, dict[int, tuple[str, ...]]] = {}
    tokens = _TOKEN_RE.findall(block.group(1))
    i = 0
    while i < len(tokens):
        if tokens[i] != '(':
            i += 1
            continue
        name, i = tokens[i + 1].lower(), i + 2
        pending: list[int] = []
        index = 0
        while i < len(tokens) and tokens[i] != ')':
            tok = tokens[i]
            if tok.startswith('?'):
                pending.append(index)
                index += 1
            elif tok == '-' and i + 1 < len(tokens):
                typ = tokens[i + 1]
                m = _EITHER_RE.fullmatch(typ)
                if m:
                    alts = tuple(t.lower() for t in m.group(1).split())
                    out.setdefault(name, {}).update({k: alts for k in pending})
                pending = []
                i += 1
            i += 1
        i += 1
    return out
