# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Worked examples for the prompts, derived from the loaded domain (never hand-written).

A small model copies its examples closely, so they must speak the loaded domain's
language: its predicates and its types. :func:`update_examples` builds them from the
domain and its constraint rules, with placeholder entities named after types
(``sample_tube_1``): a move along a ``functional`` rule (only the new place is written,
the rule removes the old one), a flag turned on, a flag turned off, and a report that
changes nothing representable. :func:`goal_examples` does the same for goals.

A domain may ship ``<domain>.examples.yaml`` beside its PDDL file to replace them::

    update:
      - facts: [[red_pen, placed_at_table, kitchen_table]]
        entities: {red_pen: pen, gary: person, kitchen_table: table}
        report: Gary took the red pen.
        facts_now: [[in_person_hand, red_pen, gary]]   # the answer (see update.txt)
    goal:
      - facts: [...]
        entities: {...}
        task: ...
        goal: [[in_person_hand, red_pen, gary]]

Examples are deterministic for a domain, so the prompt prefix that holds them stays the
same from call to call (llama.cpp and hosted endpoints cache such prefixes).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from ...text import split_name
from ...world.constraints import Constraints, Rule
from ...world.domain import DomainSchema
from ...world.kg import FALSE, TRUE
from .wording import phrase


@dataclass
class Example:
    """One worked example: context, utterance and the JSON answer."""

    entities: dict[str, str]
    facts: list[list[str]]
    utterance: str
    answer: dict[str, Any]
    label: str = 'Report'
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        """Return the example as prompt text (same layout as a real request)."""
        ents = ', '.join(f'{n} ({t})' for n, t in self.entities.items()) or '(none)'
        facts = '\n'.join('[' + ', '.join(f) + ']' for f in self.facts) or '(none)'
        return (f'Entities: {ents}\nFacts before:\n{facts}\n{self.label}: {self.utterance}\n'
                f'Answer: {json.dumps(self.answer)}')


def _words(name: str) -> str:
    return ' '.join(split_name(name))


def _leaf(domain: DomainSchema, t: str) -> str:
    """Return a concrete type at or below ``t`` (its first leaf, alphabetically)."""
    subs = sorted(s for s in domain.subtypes(t) if s != t
                  and not any(domain.types.get(x) == s for x in domain.types))
    return subs[0] if subs else t


class _Names:
    def __init__(self, domain: DomainSchema) -> None:
        self.domain = domain
        self.count: dict[str, int] = {}
        self.entities: dict[str, str] = {}

    def new(self, accepted: tuple[str, ...]) -> str:
        t = _leaf(self.domain, accepted[0])
        n = self.count.get(t, 0) + 1
        self.count[t] = n
        name = f'{t}_{n}'
        self.entities[name] = t
        return name


class PromptKind(StrEnum):
    """Which static prompt (and examples section of ``<domain>.examples.yaml``)."""

    UPDATE = 'update'  # a report's change (Algorithm 3)
    GOAL = 'goal'  # a task's goal (Algorithm 4)


def _shipped(domain: DomainSchema, kind: str) -> list[Example] | None:
    if domain.path is None:
        return None
    path = Path(domain.path).with_suffix('.examples.yaml')
    if not path.is_file():
        return None
    data = yaml.safe_load(path.read_text()) or {}
    out = []
    update = kind == PromptKind.UPDATE
    for ex in data.get(kind) or []:
        answer = ({'facts': ex.get('facts_now') or []} if update
                  else {'goal': ex.get('goal') or []})
        out.append(Example(dict(ex.get('entities') or {}), list(ex.get('facts') or []),
                           str(ex['report' if update else 'task']), answer,
                           'Report' if update else 'Task'))
    return out or None


def _example_rules(constraints: Constraints) -> list[Rule]:
    """Return the place rules the examples move things by, whichever argument is the thing."""
    return constraints.place_rules(exactly=False)


class _Placing:
    """A place predicate's two ends, whichever argument names the thing."""

    def __init__(self, domain: DomainSchema, constraints: Constraints, name: str) -> None:
        self.name = name
        self.first = constraints.thing_position(name) == 1  # the place is said first
        params = domain.predicates[name].params
        self.things = params[1 if self.first else 0][1]
        self.places = params[0 if self.first else 1][1]

    def fact(self, thing: str, place: str) -> list[str]:
        """Return the fact putting ``thing`` at ``place``, in the predicate's order."""
        return [self.name, *((place, thing) if self.first else (thing, place))]

    def said(self, ph: Callable[..., str], thing: str, place: str, **how: Any) -> str:
        """Return the clause saying the fact, its arguments in the predicate's order."""
        a, b = (place, thing) if self.first else (thing, place)
        return f'{_words(a)} {ph(self.name, **how)} {_words(b)}'


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _move_rule_preds(domain: DomainSchema, constraints: Constraints) -> list[str]:
    """Binary predicates of the largest functional rule keyed on argument 1."""
    rules = sorted(_example_rules(constraints),
                   key=lambda r: (-len(r.predicates), r.name))
    for rule in rules:
        preds = [p for p in rule.predicates
                 if p in domain.predicates and domain.predicates[p].arity == 2]
        if preds:
            return preds
    return []


def _linked_moves(domain: DomainSchema, constraints: Constraints) -> tuple[str, str] | None:
    """Return two binary predicates of different functional rules that chain.

    The second's place takes the first's subject (someone goes somewhere and something
    ends up with them). Subjects other than the actions' usual executor come first.
    """
    first = Counter(a.params[0][1] for a in domain.actions.values() if a.params)
    executor = first.most_common(1)[0][0] if first else None
    rules = _example_rules(constraints)

    def own(rule: Rule) -> tuple[bool, str]:
        subjects = [domain.predicates[p].params[constraints.thing_position(p)][1]
                    for p in rule.predicates if p in domain.predicates]
        return (any(executor and domain.is_subtype(_leaf(domain, s[0]), executor)
                    for s in subjects), rule.name)

    best: tuple[tuple[Any, ...], tuple[str, str]] | None = None
    for ra in rules:
        for rb in rules:
            if ra is rb:
                continue
            for pa in ra.predicates:
                a = domain.predicates.get(pa)
                if a is None or a.arity != 2:
                    continue
                subject = _leaf(domain, a.params[constraints.thing_position(pa)][1][0])
                takes = [pb for pb in rb.predicates if pb in domain.predicates
                         and domain.predicates[pb].arity == 2
                         and domain.is_subtype(subject, domain.predicates[pb].params[
                             constraints.place_position(pb)][1])]
                if takes:
                    rank = (-len(takes), own(ra), pa, takes[0])
                    if best is None or rank < best[0]:
                        best = (rank, (pa, takes[0]))
    return best[1] if best else None


def _unary(domain: DomainSchema) -> list[str]:
    fluent = domain.fluent_predicates()
    unary = [p for p in sorted(domain.predicates) if domain.predicates[p].arity == 1]
    return sorted(unary, key=lambda p: (p not in fluent, p))


def update_examples(domain: DomainSchema, constraints: Constraints) -> list[Example]:
    """Return worked update examples for ``domain`` (shipped ones when present).

    Each example's context holds more facts than the report changes (as real requests
    do), and one report restates a fact that stays as it was: the answers show that only
    what changed is written.
    """
    shipped = _shipped(domain, 'update')
    if shipped:
        return shipped
    ph = partial(phrase, domain=domain)
    out: list[Example] = []
    moves = _move_rule_preds(domain, constraints)
    unary = _unary(domain)
    if moves:
        out.append(_move_example(domain, constraints, ph, moves))
        linked = _linked_moves(domain, constraints)
        if linked:
            out.append(_linked_example(domain, constraints, ph, linked, moves[0]))
        if unary:
            out.append(_move_and_state_example(domain, constraints, ph, moves[0], unary[0]))
    if unary:
        out.append(_state_off_example(domain, constraints, ph, unary, moves))
    out.append(_nothing_example(domain, constraints, moves))
    return out


def _move_example(domain: DomainSchema, c: Constraints, ph: Callable[..., str],
                  moves: list[str]) -> Example:
    """Return a report where one thing moves, another stays: only the move is written."""
    names = _Names(domain)
    p1 = _Placing(domain, c, moves[0])
    p2 = _Placing(domain, c, moves[1]) if len(moves) > 1 else p1
    thing = names.new(p1.things)
    other = names.new(p1.things)
    old = names.new(p1.places)
    new = names.new(p2.places)
    facts = [p1.fact(thing, old), p1.fact(other, old)]
    text = (f'{_cap(p1.said(ph, other, old, still=True))}, '
            f'but {p2.said(ph, thing, new)}.')
    return Example(dict(names.entities), facts, text, {'facts': [p2.fact(thing, new)]})


def _linked_example(domain: DomainSchema, c: Constraints, ph: Callable[..., str],
                    linked: tuple[str, str], move: str) -> Example:
    """Return a report where someone goes somewhere with a thing: both facts written."""
    names = _Names(domain)
    pa, pb = (_Placing(domain, c, x) for x in linked)
    pm = _Placing(domain, c, move)
    who = names.new(pa.things)
    where_old = names.new(pa.places)
    where_new = names.new(pa.places)
    thing = names.new(pb.things)
    spot = names.new(pm.places)
    facts = [pa.fact(who, where_old), pm.fact(thing, spot)]
    text = f'{_cap(pa.said(ph, who, where_new))} and {pb.said(ph, thing, who)}.'
    return Example(dict(names.entities), facts, text, {
        'facts': [pa.fact(who, where_new), pb.fact(thing, who)]})


def _move_and_state_example(domain: DomainSchema, c: Constraints, ph: Callable[..., str],
                            move: str, state: str) -> Example:
    """Return a report with a move and a one-argument state (another such state stays)."""
    names = _Names(domain)
    p1, u = _Placing(domain, c, move), domain.predicates[state]
    thing = names.new(p1.things)
    old = names.new(p1.places)
    new = names.new(p1.places)
    flag = names.new(u.params[0][1])
    flag2 = names.new(u.params[0][1])
    facts = [p1.fact(thing, old), [u.name, flag2]]
    text = (f'Someone moved {_words(thing)} to {_words(new)}, and {_words(flag)} '
            f'{ph(u.name)}.')
    return Example(dict(names.entities), facts, text, {
        'facts': [p1.fact(thing, new), [u.name, flag, TRUE]]})


def _state_off_example(domain: DomainSchema, c: Constraints, ph: Callable[..., str],
                       unary: list[str], moves: list[str]) -> Example:
    """Return a report of a one-argument state that stops holding: written false."""
    names = _Names(domain)
    u = domain.predicates[unary[-1] if len(unary) > 1 else unary[0]]
    flag = names.new(u.params[0][1])
    flag2 = names.new(u.params[0][1])
    facts = [[u.name, flag], [u.name, flag2]]
    if moves:
        p1 = _Placing(domain, c, moves[0])
        thing = names.new(p1.things)
        facts.append(p1.fact(thing, names.new(p1.places)))
    return Example(dict(names.entities), facts,
                   f'{_words(flag).capitalize()} {ph(u.name, removed=True)}.',
                   {'facts': [[u.name, flag, FALSE]]})


def _nothing_example(domain: DomainSchema, c: Constraints, moves: list[str]) -> Example:
    """Return a report that changes nothing the domain can say: no facts."""
    names = _Names(domain)
    facts = []
    if moves:
        p1 = _Placing(domain, c, moves[0])
        thing = names.new(p1.things)
        facts.append(p1.fact(thing, names.new(p1.places)))
    else:
        some = sorted(t for t in domain.types if t != 'object')[:1]
        if some:
            names.new((some[0],))
    return Example(dict(names.entities), facts, 'It is a sunny day and everyone is happy.',
                   {'facts': []})


def goal_examples(domain: DomainSchema, constraints: Constraints) -> list[Example]:
    """Return worked goal examples for ``domain`` (shipped ones when present)."""
    shipped = _shipped(domain, 'goal')
    if shipped:
        return shipped
    ph = partial(phrase, domain=domain)
    out: list[Example] = []
    moves = _move_rule_preds(domain, constraints)
    unary = _unary(domain)
    if moves:
        names = _Names(domain)
        p, first = _Placing(domain, constraints, moves[-1]), _Placing(domain, constraints,
                                                                      moves[0])
        thing = names.new(p.things)
        old = names.new(first.places)
        to = names.new(p.places)
        goal: list[Any] = [p.fact(thing, to)]
        text = f'Make sure {p.said(ph, thing, to, plain=True)}'
        if unary:
            u = domain.predicates[unary[0]]
            flag = names.new(u.params[0][1])
            goal.append({'not': [u.name, flag]})
            text += f', and that {_words(flag)} {ph(u.name, negated=True)}'
        out.append(Example(dict(names.entities),
                           [first.fact(thing, old)], text + '.', {'goal': goal}, 'Task'))
    if unary:
        u = domain.predicates[unary[0]]
        t = _leaf(domain, u.params[0][1][0])
        names = _Names(domain)
        a = names.new((t,))
        out.append(Example(dict(names.entities), [[u.name, a]],
                           f'No {_words(t)} {ph(u.name, plain=True)}.',
                           {'goal': [{'forall': t, 'if': [], 'then': [[u.name, '?x']],
                                      'negate': True}]}, 'Task'))
    return out


def system_for(kind: str, domain: DomainSchema, constraints: Constraints) -> str:
    """Return the static system prompt ``kind`` (``update`` or ``goal``) with examples."""
    from ...llm.prompting import system_prompt
    make = update_examples if kind == PromptKind.UPDATE else goal_examples
    return system_prompt(kind, domain, render(make(domain, constraints)))


def render(examples: list[Example]) -> str:
    """Return the examples as prompt text."""
    return '\n\n'.join(f'Example {i}\n{ex.render()}' for i, ex in enumerate(examples, 1))
