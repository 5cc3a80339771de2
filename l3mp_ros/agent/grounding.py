# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Output constrained by the domain and the retrieved context (JSON schemas per request).

For each request the schema says exactly what the LLM may write:

- an update ``{"facts": [...]}`` states what is true *now*: each item a triplet of one of
  the domain's predicates, each argument an enum of the context entities whose type fits
  that argument (one ``anyOf`` branch per predicate; a unary fact ends in ``"true"`` or
  ``"false"``), or ``{"not": f}`` with ``f`` one of the retrieved binary facts (an enum),
  so removing a fact that is not there cannot be written. Old values that a new fact
  replaces are removed by the domain's rules (:mod:`l3mp_ros.world.complete`);
- a goal ``{"goal": [...]}``: items are literals over typed context entities (``[s, p, o]``),
  negated literals ``{"not": [s, p, o]}``, and ``forall`` / ``exists`` over a domain type
  with ``"?x"`` standing for the bound variable.

llama.cpp (json_schema → grammar), vLLM/SGLang guided decoding and OpenAI structured
outputs enforce such schemas while decoding. Endpoints that refuse them get plain text;
:meth:`Grounding.read_update` and :meth:`Grounding.read_goal` then check the reply
against the same constraints and explain, in a sentence, anything outside them.
Schema size is bounded: at most ``per_slot`` entities per argument (by retrieval score),
and :attr:`Grounding.notes` says when the cap dropped some.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..world.domain import DomainSchema
from ..world.kg import FALSE, TRUE, Fact, KGError, KnowledgeGraph, Update

VAR = '?x'
MAX_ITEMS = 5
MAX_QUANTIFIED = 8  # types named by a task, each with its own quantifier branch


def _literal(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {'type': 'array', 'prefixItems': items,
            'minItems': len(items), 'maxItems': len(items)}


def fact_item(fact: Fact) -> list[str]:
    """Return the answer form of a fact: ``[predicate, arg, ...]`` (the PDDL order)."""
    return [fact.predicate, *fact.args]


def format_items(facts: Iterable[Fact]) -> str:
    """Return facts one per line as ``[predicate, arg, ...]``."""
    return '\n'.join('[' + ', '.join(fact_item(f)) + ']' for f in sorted(facts)) or '(none)'


def grounded_message(kg: KnowledgeGraph, entities: Iterable[str], facts: Iterable[Fact],
                     label: str, text: str, whole: str | None = None) -> str:
    """Return the variable part of a grounded request: typed entities, facts, utterance.

    The utterance is data, not instructions: it is quoted on one line after its label.
    ``whole`` is the full utterance when ``text`` is one part of it (context for "he").
    """
    ents = ', '.join(f'{n} ({kg.entities[n]})' for n in entities if kg.has_entity(n))
    one_line = ' '.join(str(text).split())
    said = f'Whole {label.lower()}: {" ".join(str(whole).split())}\n' if whole else ''
    return (f'Entities: {ents or "(none)"}\nFacts before:\n{format_items(facts)}\n'
            f'{said}{label}: {one_line}\nAnswer:')


def item_fact(item: Sequence[str], domain: DomainSchema) -> Fact:
    """Read ``[predicate, arg, ...]`` or a paper triplet ``[subject, predicate, object]``.

    A unary fact may end in ``"true"``; a triplet is recognised by its second word.
    """
    words = [str(x).strip().lower() for x in item]
    if words[0] not in domain.predicates and len(words) >= 2 and words[1] in domain.predicates:
        return Fact.from_triplet(words)
    pred = domain.predicates.get(words[0])
    args = words[1:]
    if pred is not None and len(args) == pred.arity + 1 and args[-1] in (TRUE, FALSE):
        args = args[:-1]
    return Fact(words[0], tuple(args))


@dataclass
class Grounding:
    """The entities and facts one request may use, typed against the domain."""

    domain: DomainSchema
    kg: KnowledgeGraph
    entities: list[str]
    facts: list[Fact]
    per_slot: int = 30
    max_items: int = MAX_ITEMS  # items one answer may state (schema maxItems)
    max_changes: int = 8  # facts one update may change
    notes: list[str] = field(default_factory=list)
    subjects: frozenset[str] | None = None  # who an update may be about (first argument)
    # with ``changes_only``, what the other arguments of an update's facts may be: the
    # entities the report refers to; facts that hold already cannot be written then
    objects: frozenset[str] | None = None
    changes_only: bool = False
    changing: frozenset[str] | None = None  # predicates a report may change (None: all)
    # what a goal may name (the entities the task refers to; None: every context entity)
    # and the types it may quantify over (those the task names; None: all)
    constants: frozenset[str] | None = None
    quantified: frozenset[str] | None = None

    @classmethod
    def build(cls, domain: DomainSchema, kg: KnowledgeGraph, entities: Sequence[str],
              facts: Iterable[Fact], **kw: Any) -> Grounding:
        """Keep known entities (in the given order, then those of the facts)."""
        facts = sorted(f for f in facts if f in kg)
        names = [e for e in dict.fromkeys([*entities, *(a for f in facts for a in f.args)])
                 if kg.has_entity(e)]
        return cls(domain, kg, names, facts, **kw)

    # -- slots -----------------------------------------------------------------------
    def slot(self, pred: str, index: int, *, variable: bool = False) -> list[str]:
        """Return the context entities that fit argument ``index`` of ``pred`` (capped)."""
        accepted = self.domain.predicates[pred].params[index][1]
        fits = [e for e in self.entities
                if self.domain.is_subtype(self.kg.entities[e], accepted)]
        if len(fits) > self.per_slot:
            note = (f'only the {self.per_slot} best-matching of {len(fits)} entities fit for '
                    f'argument {index + 1} of {pred}')
            if note not in self.notes:
                self.notes.append(note)
            fits = fits[:self.per_slot]
        return fits + [VAR] if variable else fits

    def _update_slots(self, pred: str,
                      objects: frozenset[str] | None = None) -> list[list[str]]:
        """Return the entities per argument of ``pred`` an update may use.

        The first argument is limited to :attr:`subjects`, the others to ``objects``.
        """
        slots = [self.slot(pred, i) for i in range(self.domain.predicates[pred].arity)]
        if self.subjects is not None and slots:
            slots[0] = [e for e in slots[0] if e in self.subjects]
        if objects is not None:
            slots[1:] = [[e for e in sl if e in objects] for sl in slots[1:]]
        return slots

    def changeable(self) -> frozenset[str]:
        """Return the predicates some action changes (all of them if none does)."""
        return self.domain.fluent_predicates() or frozenset(self.domain.predicates)

    def _goal_slot(self, pred: str, index: int, *, variable: bool = False) -> list[str]:
        """Return the entities a goal may write for argument ``index`` (see :attr:`constants`)."""
        fits = self.slot(pred, index, variable=variable)
        if self.constants is None:
            return fits
        return [e for e in fits if e == VAR or e in self.constants]

    def fits(self, type_: str, pred: str, index: int) -> bool:
        """Return whether a variable of ``type_`` may stand as argument ``index`` of ``pred``."""
        accepted = self.domain.predicates[pred].params[index][1]
        return self.domain.is_subtype(type_, accepted) or bool(
            self.domain.subtypes(type_) & set(accepted))

    def _triplet_schemas(self, *, variable: bool = False, only: frozenset[str] | None = None,
                         var_type: str | None = None) -> list[dict[str, Any]]:
        """Return one literal branch per predicate.

        With ``var_type``, one branch per argument where a variable of that type fits:
        ``?x`` there, context entities elsewhere.
        """
        out = []
        for name in sorted(self.domain.predicates):
            if only is not None and name not in only:
                continue
            pred = self.domain.predicates[name]
            if var_type is None:
                slots = [self._goal_slot(name, i, variable=variable) for i in range(pred.arity)]
                if all(slots):
                    out.append(_literal([{'const': name}, *({'enum': s} for s in slots)]))
                continue
            ground = [self._goal_slot(name, i) for i in range(pred.arity)]
            for i in range(pred.arity):
                if not self.fits(var_type, name, i):
                    continue
                slots = [[VAR] if k == i else ground[k] for k in range(pred.arity)]
                if all(slots):
                    out.append(_literal([{'const': name}, *({'enum': s} for s in slots)]))
        return out

    # -- updates -----------------------------------------------------------------------
    def _fact_schemas(self, exclude: frozenset[Fact] = frozenset()) -> list[dict[str, Any]]:
        """Return one branch per predicate (unary ones end in ``"true"``/``"false"``).

        Facts in ``exclude`` (items a previous answer got wrong) cannot be written: a
        binary predicate's excluded subjects get their own branch without those objects,
        an excluded unary fact's entity is left out of that predicate.
        """
        if self.changes_only:
            return self._change_schemas(exclude)
        out: list[dict[str, Any]] = []
        for name in sorted(self.domain.predicates):
            pred = self.domain.predicates[name]
            slots = self._update_slots(name)
            if any(not s for s in slots):
                continue
            head: dict[str, Any] = {'const': name}
            if pred.arity == 1:
                free = [e for e in slots[0] if Fact(name, (e,)) not in exclude]
                if free:
                    out.append(_literal([head, {'enum': free}, {'enum': [TRUE, FALSE]}]))
                continue
            if pred.arity != 2:
                out.append(_literal([head, *({'enum': s} for s in slots)]))
                continue
            taken: dict[str, set[str]] = {}
            for f in exclude:
                if f.predicate == name and len(f.args) == 2 and f.args[0] in slots[0]:
                    taken.setdefault(f.args[0], set()).add(f.args[1])
            free = [e for e in slots[0] if e not in taken]
            if free:
                out.append(_literal([head, {'enum': free}, {'enum': slots[1]}]))
            for subject in sorted(taken):
                rest = [o for o in slots[1] if o not in taken[subject]]
                if rest:
                    out.append(_literal([head, {'const': subject}, {'enum': rest}]))
        return out

    def _change_schemas(self, exclude: frozenset[Fact]) -> list[dict[str, Any]]:
        """Return branches that can only state a change, among the report's referents.

        A unary fact only flips (``"false"`` where it holds, ``"true"`` where it does
        not); a binary fact's object is a referent for which it does not hold yet. Only
        the predicates in :attr:`changing` are offered.
        """
        out: list[dict[str, Any]] = []
        for name in sorted(self.changing or self.domain.predicates):
            pred = self.domain.predicates[name]
            slots = self._update_slots(name, objects=self.objects)
            if any(not sl for sl in slots):
                continue
            head: dict[str, Any] = {'const': name}
            if pred.arity == 1:
                for value, holds in ((TRUE, False), (FALSE, True)):
                    ents = [e for e in slots[0] if (Fact(name, (e,)) in self.kg) == holds
                            and Fact(name, (e,)) not in exclude]
                    if ents:
                        out.append(_literal([head, {'enum': ents}, {'const': value}]))
                continue
            if pred.arity != 2:
                out.append(_literal([head, *({'enum': sl} for sl in slots)]))
                continue
            for subject in slots[0]:
                free = [o for o in slots[1] if o != subject
                        and Fact(name, (subject, o)) not in self.kg
                        and Fact(name, (subject, o)) not in exclude]
                if free:
                    out.append(_literal([head, {'const': subject}, {'enum': free}]))
        return out

    def update_schema(self, exclude: frozenset[Fact] = frozenset(),
                      max_items: int | None = None) -> dict[str, Any]:
        """Return the JSON schema of an update in this context.

        ``{"facts": [...]}``: each item states a fact as it is *now*: a binary fact that
        became true, a unary one with object ``"true"`` or ``"false"``, or
        ``{"not": fact}`` for a listed binary fact that stopped holding. Facts in
        ``exclude`` cannot be written (see :meth:`_fact_schemas`). ``max_items`` overrides
        :attr:`max_items` (fewer for one clause of a report).
        """
        items = self._fact_schemas(exclude)
        binary = [fact_item(f) for f in self.facts if len(f.args) >= 2 and f not in exclude
                  and (self.subjects is None or f.args[0] in self.subjects)]
        if binary:
            items.append({'type': 'object', 'properties': {'not': {'enum': binary}},
                          'required': ['not'], 'additionalProperties': False})
        limit = self.max_items if max_items is None else max_items
        facts = ({'type': 'array', 'items': {'anyOf': items}, 'maxItems': limit}
                 if items else {'type': 'array', 'maxItems': 0})
        return {'type': 'object', 'properties': {'facts': facts}, 'required': ['facts'],
                'additionalProperties': False}

    def _fact(self, item: Any, where: str) -> Fact:
        if not isinstance(item, (list, tuple)) or not item or not all(
                isinstance(x, (str, bool)) for x in item):
            raise KGError(f'{where} item {item!r} is not a [predicate, argument, ...] list')
        return item_fact([TRUE if x is True else str(x) for x in item], self.domain)

    def check_fact(self, fact: Fact, *, variable: bool = False,
                   strict: bool = True) -> str | None:
        """Return why ``fact`` is outside this context's constraints, or None.

        Not ``strict`` (the paper's no-verifier ablation): only unknown predicates and
        entities count, not the context or the argument types.
        """
        pred = self.domain.predicates.get(fact.predicate)
        if pred is None:
            return (f'{fact.text()}: "{fact.predicate}" is not a predicate of the '
                    f'{self.domain.name} domain')
        if pred.arity != len(fact.args):
            return f'{fact.text()}: {pred.signature()} takes {pred.arity} argument(s)'
        for i, arg in enumerate(fact.args):
            if variable and arg == VAR:
                continue
            if not strict:
                if not self.kg.has_entity(arg):
                    return f'{fact.text()}: {arg} is no entity of the graph'
                continue
            if arg not in self.entities:
                known = self.kg.has_entity(arg)
                return (f'{fact.text()}: {arg} is not among the entities given for this '
                        + ('request' if known else 'request (no such entity)'))
            if arg not in self.slot(fact.predicate, i):
                return (f'{fact.text()}: {arg} is a {self.kg.entities[arg]}, but argument '
                        f'{i + 1} of {pred.signature()} must be a '
                        f'{" or ".join(pred.params[i][1])}')
        return None

    def _stated(self, item: Any, add: list[Fact], remove: list[Fact], errors: list[str],
                negated: bool = False, strict: bool = True) -> None:
        if isinstance(item, dict):
            low = {str(k).lower(): v for k, v in item.items()}
            if 'not' not in low:
                errors.append(f'item {item!r} is neither a fact nor {{"not": fact}}')
                return
            self._stated(low['not'], add, remove, errors, negated=True, strict=strict)
            return
        false = (isinstance(item, (list, tuple)) and len(item) == 3
                 and (item[2] is False or str(item[2]).lower() == FALSE))
        if false:
            item = [item[0], item[1], TRUE]
        elif isinstance(item, (list, tuple)) and len(item) == 3 and item[2] is True:
            item = [item[0], item[1], TRUE]
        try:
            fact = self._fact(item, 'the')
        except KGError as exc:
            errors.append(str(exc))
            return
        if negated or false:
            if fact not in self.kg:
                if fact not in self.facts and len(fact.args) >= 2:
                    errors.append(f'cannot remove {fact.text()}: it is not one of the facts '
                                  'given')
                    return
                why = self.check_fact(fact)
                if why:
                    errors.append(why)
                return  # already false: nothing to remove
            if fact not in self.facts and len(fact.args) >= 2:
                errors.append(f'cannot remove {fact.text()}: it is not one of the facts given')
                return
            remove.append(fact)
            return
        why = self.check_fact(fact, strict=strict)
        if why:
            errors.append(why)
            return
        add.append(fact)

    def read_update(self, data: Any, *, strict: bool = True) -> tuple[Update, list[str]]:
        """Turn a reply into an :class:`Update`; errors for anything outside the context.

        ``strict=False`` checks only that predicates and entities exist. Accepts this
        module's ``{"facts": [...]}``, the paper's ``{"remove": [...], "add": [...]}``
        lists, and the paper's text form ``REMOVE: ... ADD: ...``.
        """
        if isinstance(data, str):
            try:
                return Update.parse(data), []
            except KGError as exc:
                return Update(), [f'could not read the update: {exc}']
        if not isinstance(data, dict):
            return Update(), ['the reply is not a JSON object {"facts": [...]}']
        lowered = {str(k).lower(): v for k, v in data.items()}
        errors: list[str] = []
        add: list[Fact] = []
        remove: list[Fact] = []
        for key in ('facts', 'add', 'remove'):
            items = lowered.get(key) or []
            if not isinstance(items, list):
                errors.append(f'"{key}" must be a list of [subject, predicate, object]')
                continue
            for item in items:
                if key == 'remove' and not isinstance(item, dict):
                    item = {'not': item}
                self._stated(item, add, remove, errors, strict=strict)
        if 'facts' not in lowered and 'add' not in lowered and 'remove' not in lowered:
            errors.append('the reply has no "facts" list')
        update = Update.of(remove, add)
        changes = len(update.add) + len(update.remove)
        if changes > self.max_changes:
            errors.append(f'the update changes {changes} facts; one report may change at '
                          f'most {self.max_changes}')
        return update, errors

    # -- goals ---------------------------------------------------------------------------
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

    def read_goal(self, data: Any) -> tuple[str | None, list[str]]:
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

    def _lit(self, item: Any, *, variable: bool = False) -> Fact:
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

    def _quantified(self, kind: str, type_: Any, items: Any) -> list[Fact]:
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

    def _goal_item(self, item: Any) -> str:
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
