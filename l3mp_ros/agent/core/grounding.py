# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Output constrained by the domain and the retrieved context: the shared base.

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
:meth:`.UpdateGrounding.read_update` and :meth:`.GoalGrounding.read_goal` then check the reply
against the same constraints and explain, in a sentence, anything outside them.
Schema size is bounded: at most ``per_slot`` entities per argument (by retrieval score),
and :attr:`Grounding.notes` says when the cap dropped some.

Updates are grounded by :mod:`.update_grounding`, goals by :mod:`.goal_grounding`; both
extend :class:`Grounding` (typed slots, fact reading and checking).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...world.domain import DomainSchema
from ...world.kg import FALSE, TRUE, Fact, KGError, KnowledgeGraph

VAR = '?x'
MAX_ITEMS = 5
FULL, REFERENTS = 'full', 'referents'  # two of the listings Grounding.shown knows
#: the ``prompt_context`` that reads a report with its referents' facts first and widens
#: to every retrieved fact when that reading is refused or in doubt (:mod:`.update`)
WIDEN = 'widen'


def literal(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the schema of a fixed-length item: one schema per position."""
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
    notes: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, domain: DomainSchema, kg: KnowledgeGraph, entities: Sequence[str],
              facts: Iterable[Fact], **kw: object) -> Grounding:
        """Keep known entities (in the given order, then those of the facts)."""
        facts = sorted(f for f in facts if f in kg)
        names = [e for e in dict.fromkeys([*entities, *(a for f in facts for a in f.args)])
                 if kg.has_entity(e)]
        return cls(domain, kg, names, facts, **kw)

    def shown(self, mode: str, about: frozenset[str] | set[str]) -> tuple[list[str], list[Fact]]:
        """Return the entities and facts a prompt lists (the ``prompt_context`` setting).

        ``full``: the whole context. With ``about`` (the entities the answer may name),
        ``mentioning`` lists the facts naming one of them and ``referents`` those whose
        first argument is one (every fact a ``{"not": ...}`` may name either way), with
        the entities those facts name. The retrieval, the answer schema and every check
        are the same whatever is listed; measured in docs/benchmark.md (issue 42).
        """
        if mode not in (FULL, 'mentioning', REFERENTS):
            raise ValueError(f'no listing {mode!r} (full, mentioning or referents)')
        if mode == FULL or not about:
            return list(self.entities), list(self.facts)
        if mode == REFERENTS:
            facts = [f for f in self.facts if f.args and f.args[0] in about]
        else:
            facts = [f for f in self.facts if any(a in about for a in f.args)]
        named = {a for f in facts for a in f.args} | set(about)
        return [e for e in self.entities if e in named], facts

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

    def fits(self, type_: str, pred: str, index: int) -> bool:
        """Return whether a variable of ``type_`` may stand as argument ``index`` of ``pred``."""
        accepted = self.domain.predicates[pred].params[index][1]
        return self.domain.is_subtype(type_, accepted) or bool(
            self.domain.subtypes(type_) & set(accepted))

    def _fact(self, item: object, where: str) -> Fact:
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
