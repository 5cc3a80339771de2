# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What a task's goal may say: the JSON schema of a goal, and its reading into PDDL.

``{"goal": [...]}``: items are literals over typed context entities (``[p, s, o]``),
negated literals ``{"not": [p, s, o]}``, and ``forall`` / ``exists`` over a domain type
with ``"?x"`` standing for the bound variable.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...world.kg import FALSE, Fact, KGError
from ..core.grounding import VAR, Grounding, literal

MAX_QUANTIFIED = 8  # types named by a task, each with its own quantifier branch


@dataclass
class GoalGrounding(Grounding):
    """The entities a task's goal may name and the types it may quantify over (Algorithm 4)."""

    # what a goal may name (the entities the task refers to; None: every context entity)
    # and the types it may quantify over (those the task names; None: all)
    constants: frozenset[str] | None = None
    quantified: frozenset[str] | None = None

    def about(self) -> frozenset[str]:
        """Return what a goal may name when it names things, not kinds (else nothing)."""
        if not self.constants or self.quantified is None or self.quantified:
            return frozenset()
        return self.constants

    def changeable(self) -> frozenset[str]:
        """Return the predicates some action changes (all of them if none does)."""
        return self.domain.fluent_predicates() or frozenset(self.domain.predicates)

    def _goal_slot(self, pred: str, index: int, *, variable: bool = False) -> list[str]:
        """Return the entities a goal may write for argument ``index`` (see :attr:`constants`)."""
        fits = self.slot(pred, index, variable=variable)
        if self.constants is None:
            return fits
        return [e for e in fits if e == VAR or e in self.constants]

    def _triplet_schemas(self, *, variable: bool = False, only: frozenset[str] | None = None,
                         var_type: str | None = None, fill: str = VAR,
                         among: frozenset[str] | None = None,
                         some: str | None = None) -> list[dict[str, Any]]:
        """Return one literal branch per predicate.

        With ``var_type``, one branch per argument where a thing of that type fits:
        ``fill`` there (``?x``, or one entity), context entities elsewhere (of ``among``
        only, when given), and ``?x`` where a thing of type ``some`` fits, for which it
        stands: no entity of that type.
        """
        out = []
        for name in sorted(self.domain.predicates):
            if only is not None and name not in only:
                continue
            pred = self.domain.predicates[name]
            if var_type is None:
                slots = [self._goal_slot(name, i, variable=variable) for i in range(pred.arity)]
                if all(slots):
                    out.append(literal([{'const': name}, *({'enum': s} for s in slots)]))
                continue
            ground = [[e for e in self._goal_slot(name, i) if (among is None or e in among)
                       and not (some and self.domain.is_subtype(self.kg.type_of(e), some))]
                      + ([VAR] if some is not None and self.fits(some, name, i) else [])
                      for i in range(pred.arity)]
            for i in range(pred.arity):
                if not self.fits(var_type, name, i):
                    continue
                slots = [[fill] if k == i else ground[k] for k in range(pred.arity)]
                if all(slots):
                    out.append(literal([{'const': name}, *({'enum': s} for s in slots)]))
        return out

    def goal_schema(self) -> dict[str, Any]:
        """Return the JSON schema of a goal in this context.

        What the goal asks for (a literal, a ``not``, a ``forall``'s ``then``) uses only
        predicates some action changes: a static fact ("the fridge is installed in lab
        101") either holds already or can never be made to; conditions (``if``,
        ``where``) may use any predicate.
        """
        fluent = self.changeable()
        lits = self._triplet_schemas(only=fluent)
        types = sorted(t for t in (self.domain.types if self.quantified is None
                                   else self.quantified) if t != 'object')
        alts: list[dict[str, Any]] = []
        if lits:
            alts.append({'anyOf': lits})
            alts.append({'type': 'object', 'properties': {'not': {'anyOf': lits}},
                         'required': ['not'], 'additionalProperties': False})
        # few types (those the task names): one branch per type whose literals put ?x only
        # where that type fits; otherwise one branch for every type
        per_type = len(types) <= MAX_QUANTIFIED
        for group in ([[t] for t in types] if per_type else [types] if types else []):
            of = group[0] if per_type else None
            qlits = self._triplet_schemas(variable=True, var_type=of)
            qthen = self._triplet_schemas(variable=True, only=fluent, var_type=of)
            if not (qlits and qthen):
                continue
            kind = {'const': of} if per_type else {'enum': group}
            qlist = {'type': 'array', 'items': {'anyOf': qlits}, 'maxItems': 3}
            tlist = {'type': 'array', 'items': {'anyOf': qthen}, 'minItems': 1, 'maxItems': 3}
            alts.append({'type': 'object', 'properties': {
                'forall': kind, 'if': qlist, 'then': tlist, 'negate': {'type': 'boolean'}},
                'required': ['forall', 'if', 'then', 'negate'], 'additionalProperties': False})
            alts.append({'type': 'object', 'properties': {
                'exists': kind, 'where': {**qlist, 'minItems': 1}},
                'required': ['exists', 'where'], 'additionalProperties': False})
        goal = {'type': 'array', 'items': {'anyOf': alts} if alts else {}, 'minItems': 1,
                'maxItems': self.max_items}
        return {'type': 'object', 'properties': {'goal': goal}, 'required': ['goal'],
                'additionalProperties': False}

    def about_schema(self, entity: str, among: frozenset[str] | None = None,
                     some: str | None = None) -> dict[str, Any] | None:
        """Return the schema of conditions about ``entity`` alone (None: no predicate fits).

        Each item is a literal of a predicate some action changes, with ``entity`` in a
        place its type fits and context entities elsewhere (of ``among`` only, when
        given). With ``some`` (the type of the goal's ``exists``), ``?x`` stands where a
        thing of that type fits, in place of any such entity: "a scanner" the task asks
        for is that one. No
        ``not``: what a task names and a goal leaves out is a thing to bring, fill or put
        somewhere ("get Ben a charged scanner"); offered a negation, a small model wrote
        "Ben does not carry scanner 1".
        """
        lits = self._triplet_schemas(only=self.changeable(), var_type=self.kg.type_of(entity),
                                     fill=entity, among=among, some=some)
        if not lits:
            return None
        return {'type': 'object', 'properties': {'goal': {
            'type': 'array', 'items': {'anyOf': lits}, 'minItems': 1, 'maxItems': 2}},
            'required': ['goal'], 'additionalProperties': False}

    def kind_schema(self, type_: str, placing: frozenset[str] = frozenset()
                    ) -> dict[str, Any] | None:
        """Return the schema of conditions every thing of ``type_`` must meet (None: none fit).

        Each item is a literal of a predicate some action changes with ``?x`` where a
        ``type_`` fits and entities the task names elsewhere, or its ``not`` ("turn off all
        the lights") unless the predicate is in ``placing`` (where a thing is, of which it
        is always in one: a goal says where the things go; offered "not in the sink", the
        model wrote it for "collect every dish and put it in the kitchen sink").
        """
        changeable = self.changeable()
        lits = self._triplet_schemas(variable=True, only=changeable, var_type=type_)
        if not lits:
            return None
        negatable = self._triplet_schemas(variable=True, only=changeable - placing,
                                          var_type=type_)
        item = {'anyOf': [*lits, *([{'type': 'object', 'properties': {
            'not': {'anyOf': negatable}}, 'required': ['not'],
            'additionalProperties': False}] if negatable else [])]}
        return {'type': 'object', 'properties': {'goal': {
            'type': 'array', 'items': item, 'minItems': 1, 'maxItems': 2}},
            'required': ['goal'], 'additionalProperties': False}

    def read_kind(self, data: object, type_: str, where: tuple[str, int, str] | None = None
                  ) -> tuple[str | None, list[str]]:
        """Read an answer to :meth:`kind_schema` as one ``forall`` over ``type_``.

        ``where`` (predicate, position of ``?x``, other argument) restricts it to the
        things it holds of ("Lena's tubes": those that belong to Lena).
        """
        if isinstance(data, dict):
            data = {str(k).lower(): v for k, v in data.items()}.get('goal')
        if not isinstance(data, list) or not data:
            return None, ['the reply has no "goal" list']
        then: list[Any] = []
        negate: set[bool] = set()
        for item in data:
            neg = isinstance(item, dict) and 'not' in {str(k).lower() for k in item}
            lit = {str(k).lower(): v for k, v in item.items()}['not'] if neg else item
            if not isinstance(lit, list) or VAR not in lit[1:]:
                return None, [f'{item!r}: write "{VAR}" for each one']
            if lit not in then:  # a small model repeats an item
                then.append(lit)
            negate.add(neg)
        if len(negate) > 1:
            return None, ['the conditions mix true and not true']
        cond = []
        if where is not None:
            pred, i, other = where
            cond = [[pred, *([VAR, other] if i == 0 else [other, VAR])]]
        wide = replace(self, constants=None, quantified=None)
        try:
            return wide._goal_item({'forall': type_, 'if': cond, 'then': then,
                                    'negate': negate.pop()}), []
        except KGError as exc:
            return None, [str(exc)]

    def read_about(self, data: object, some: str | None = None) -> tuple[str | None, list[str]]:
        """Read an answer to :meth:`about_schema`.

        Its literals with ``?x`` become one ``exists`` over ``some``; the rest stay as they are.
        """
        if some is None or not isinstance(data, dict):
            return self.read_goal(data)
        items = {str(k).lower(): v for k, v in data.items()}.get('goal')
        if not isinstance(items, list):
            return self.read_goal(data)
        var = [i for i in items if isinstance(i, list) and VAR in i[1:]]
        rest = [i for i in items if i not in var]
        if var:
            rest.append({'exists': some, 'where': var})
        return replace(self, quantified=None).read_goal({'goal': rest})

    def read_goal(self, data: object) -> tuple[str | None, list[str]]:
        """Turn a structured goal into PDDL; errors for anything outside the context.

        A string (an endpoint without structured output) is returned as it is, for the
        planner's tolerant goal parser.
        """
        if isinstance(data, str):
            return data, []
        if isinstance(data, dict):
            data = {str(k).lower(): v for k, v in data.items()}.get('goal')
            if isinstance(data, str):
                return data, []
        if not isinstance(data, list) or not data:
            return None, ['the reply has no "goal" list']
        parts: list[str] = []
        errors: list[str] = []
        for item in data:
            try:
                part = self._goal_item(item)
            except KGError as exc:
                errors.append(str(exc))
                continue
            if part not in parts:  # a small model may repeat an item
                parts.append(part)
        if errors:
            return None, errors
        return '(and ' + ' '.join(parts) + ')', []

    def _lit(self, item: object, *, variable: bool = False) -> Fact:
        fact = self._fact(item, 'goal')
        if fact.predicate in self.domain.predicates and len(item) == len(fact.args) + 2 \
                and str(item[-1]).lower() == FALSE:
            raise KGError(f'{item!r}: write {{"not": [...]}} for a literal that must be false')
        why = self.check_fact(fact, variable=variable)
        if why:
            raise KGError(why)
        if self.constants is not None:
            other = [a for a in fact.args if a != VAR and a not in self.constants]
            if other:
                raise KGError(f'{fact.text()}: the task does not mention {", ".join(other)}')
        return fact

    def _quantified(self, kind: str, type_: object, items: object) -> list[Fact]:
        if not isinstance(type_, str) or not self.domain.has_type(type_.lower()):
            raise KGError(f'{kind} needs a type of the domain, got {type_!r}')
        if self.quantified is not None and type_.lower() not in self.quantified:
            raise KGError(f'{kind} over {type_.lower()}: the task names no {type_.lower()}; '
                          + (f'use one of {", ".join(sorted(self.quantified))}'
                             if self.quantified else 'write literals about what it names'))
        if not isinstance(items, list):
            raise KGError(f'{kind}: expected a list of literals, got {items!r}')
        facts = [self._lit(i, variable=True) for i in items]
        t = type_.lower()
        for f in facts:
            for i, arg in enumerate(f.args):
                if arg == VAR and not self.fits(t, f.predicate, i):
                    raise KGError(f'{f.text()}: ?x is a {t}, which argument {i + 1} of '
                                  f'{f.predicate} does not take')
        return facts

    def _asked(self, fact: Fact) -> Fact:
        if fact.predicate not in self.changeable():
            raise KGError(f'{fact.text()}: no action changes {fact.predicate}, so a goal '
                          'cannot ask for it')
        return fact

    def _goal_item(self, item: object) -> str:
        if isinstance(item, list):
            return self._asked(self._lit(item)).pddl()
        if not isinstance(item, dict):
            raise KGError(f'goal item {item!r} is neither a literal nor an object')
        item = {str(k).lower(): v for k, v in item.items()}
        if 'not' in item:
            return f'(not {self._asked(self._lit(item["not"])).pddl()})'
        if 'forall' in item:
            cond = self._quantified('forall', item['forall'], item.get('if') or [])
            then = [self._asked(f) for f in
                    self._quantified('forall', item['forall'], item.get('then') or [])]
            if not then:
                raise KGError('forall needs at least one literal in "then"')
            t = str(item['forall']).lower()
            body = [f.pddl() for f in then]
            if item.get('negate'):
                body = [f'(not {b})' for b in body]
            conc = body[0] if len(body) == 1 else '(and ' + ' '.join(body) + ')'
            if cond:
                ante = ' '.join(f.pddl() for f in cond)
                ante = ante if len(cond) == 1 else f'(and {ante})'
                conc = f'(imply {ante} {conc})'
            return f'(forall (?x - {t}) {conc})'
        if 'exists' in item:
            where = self._quantified('exists', item['exists'], item.get('where') or [])
            if not where:
                raise KGError('exists needs at least one literal in "where"')
            t = str(item['exists']).lower()
            body = ' '.join(f.pddl() for f in where)
            body = body if len(where) == 1 else f'(and {body})'
            return f'(exists (?x - {t}) {body})'
        raise KGError(f'goal item {item!r} has none of not/forall/exists')
