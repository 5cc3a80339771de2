# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The kinds of things a task asks about as a whole ("all the dishes", "Lena's tubes").

A phrase names a kind when its head is the plural of a type's last word, the other words of
that type just before it ("the staff areas": ``staff_area``), or of the only argument of a
one-argument predicate ("the dishes": ``dish_is_clean ?k - kitchenware``), or when the head
follows "every" or "each" ("every dish"). It asks about the whole kind only when a word
says so: "all", "every", "each", a definite "the" or an owner ("Lena's tubes") right
before it, or a list it continues ("all the lights, faucets and TVs"); a count ("both
cartons") names so many things, not the kind. A definite plural that a place follows
("the lights in the kitchen") is read as the members at that place, or left alone when
no member is there. An owner keeps the members the graph links to the owner, by the one
predicate that links them. Nothing about any domain.

The goal check :class:`Kinds` (``kinds``) asks the model what must hold of every one of a
kind a planned goal does not cover (:func:`uncovered`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...llm.protocol import LLMError
from ...planning.problem import entities_of_type
from ...text import NUMBER_WORDS, STOPWORDS, WORD_RE, folded, name_words, stem
from ...world.domain import DomainSchema
from ...world.kg import KnowledgeGraph
from ..core.attempts import Verdict
from ..core.rulings import Ruling
from .formula import goal_entities, top_level
from .goal_checks import GoalAnswer, Planned
from .rewrites import extend_goal, last_condition, settle_quantified

MAX_KINDS = 3  # kinds of one task asked about
ALL = frozenset({'all', 'every', 'each'})
EVERY = frozenset({'every', 'each'})
COUNTS = frozenset({'both', 'few', 'several', 'some', 'many', 'most', 'couple', 'pair'}
                   ) | frozenset(NUMBER_WORDS)
# words after a definite plural that place it ("the lights in the kitchen")
PLACING = frozenset({'in', 'on', 'at', 'from', 'inside', 'near', 'of', 'by'})


@dataclass(frozen=True)
class Kind:
    """A kind a task speaks of as a whole, and the things in the graph it covers."""

    type: str
    said: str  # the phrase as written, lower case ("all of lena's tubes")
    members: frozenset[str]
    # a restriction that holds of exactly the members: (predicate, member position, other
    # argument), e.g. ("belongs_to", 0, "lena") for "Lena's tubes"; None: every one
    where: tuple[str, int, str] | None = None


def _type_words(t: str) -> list[str]:
    return [w for w in name_words(t) if not w.isdigit()]


def _head_types(domain: DomainSchema, head: str, before: list[str]) -> tuple[str | None, int]:
    """Return the type ``head`` (a singular) names, and how many words before it help.

    The type's other words just ``before`` the head pick among types sharing a last word
    ("staff areas"); several left give their common supertype. Without a type, the one
    argument type of the one-argument predicates the word belongs to ("dish_is_clean").
    None: no type, or only ``object``.
    """
    best: list[tuple[int, str]] = []
    for t in domain.types:
        tw = _type_words(t)
        if not tw or tw[-1] != head:
            continue
        rest, k = tw[:-1], 0
        while k < len(rest) and len(before) > k and before[-1 - k] == rest[-1 - k]:
            k += 1
        best.append((k, t))
    if best:
        top = max(k for k, _ in best)
        types = {t for k, t in best if k == top}
        common = [a for a in domain.ancestors(next(iter(types)))
                  if all(domain.is_subtype(t, a) for t in types)]
        found = common[0] if common and common[0] != 'object' else None
        return found, top
    by_pred = {domain.predicates[p].params[0][1] for p in domain.predicates
               if domain.predicates[p].arity == 1 and head in name_words(p)}
    if len(by_pred) == 1 and len(next(iter(by_pred))) == 1:
        return next(iter(by_pred))[0], 0
    return None, 0


def _link(kg: KnowledgeGraph, members: set[str], other: str
          ) -> tuple[tuple[str, int, str] | None, set[str]]:
    """Return the one predicate linking ``other`` to some members, and those members."""
    links: Counter[tuple[str, int, int]] = Counter()
    for f in kg.facts:
        if len(f.args) == 2 and other in f.args:
            i = 0 if f.args[0] in members else 1 if f.args[1] in members else None
            if i is not None and f.args[1 - i] == other:
                links[(f.predicate, i, 1 - i)] += 1
    if len(links) != 1:
        return None, set()
    pred, i, j = next(iter(links))
    linked = {f.args[i] for f in kg.facts
              if f.predicate == pred and len(f.args) == 2 and f.args[j] == other}
    return (pred, i, other), linked & members


def _place(kg: KnowledgeGraph, toks: list[str], start: int) -> str | None:
    """Return the entity the words from ``start`` name ("the kitchen sink"), if one."""
    words = [t.split("'")[0] for t in toks[start:start + 5] if t not in STOPWORDS]
    for n in range(min(4, len(words)), 0, -1):
        name = '_'.join(words[:n])
        if name in kg.entities:
            return name
    return None


def _lead(toks: list[str], j: int) -> int:
    """Return where "all of the" / "all the" before word ``j`` starts (else ``j``)."""
    k = j
    while k >= 0 and toks[k] in ('the', 'of'):
        k -= 1
    return k if k >= 0 and k < j and toks[k] in ALL else j


def kinds(domain: DomainSchema, kg: KnowledgeGraph, text: str) -> list[Kind]:
    """Return the kinds ``text`` asks about as a whole, in reading order (see module doc)."""
    toks = WORD_RE.findall(folded(text))
    found: list[tuple[int, Kind]] = []
    for i in range(len(toks)):
        kind = _kind_at(domain, kg, toks, i, found)
        if kind is not None:
            found.append((i, kind))
    types = [k.type for _, k in found]
    return [k for _, k in found  # "the lights in the staff areas": the staff areas
            if not any(u != k.type and domain.is_subtype(u, k.type) for u in types)]


def _kind_at(domain: DomainSchema, kg: KnowledgeGraph, toks: list[str], i: int,
             found: list[tuple[int, Kind]]) -> Kind | None:
    """Return the kind whose head noun is word ``i`` ("lights" of "all the lights"), if one."""
    tok = toks[i]
    if "'" in tok or tok in STOPWORDS:
        return None
    prev = toks[i - 1] if i else ''
    one = tok[:-1] if len(tok) == 3 and tok.endswith('s') else stem(tok)  # "TVs"
    plural = one != tok and tok.endswith('s')
    if not plural and prev not in EVERY:
        return None
    t, used = _head_types(domain, one if plural else tok, toks[:i])
    if t is None:
        return None
    j = _lead(toks, i - 1 - used)  # the word before the phrase
    before = toks[j] if j >= 0 else ''
    owner = before.split("'")[0] if before.endswith(("'s", "s'")) else None
    if owner is not None and owner not in kg.entities:
        return None
    if owner is not None:
        j = _lead(toks, j - 1)
        before = toks[j] if j >= 0 else ''
    listed = bool(found) and (found[-1][0] == j or (
        before in ('and', 'or') and found[-1][0] == j - 1))
    if before in COUNTS or before.isdigit() or not (
            before in ALL or before == 'the' or owner is not None or listed or prev in EVERY):
        return None
    got = _members(domain, kg, t, toks, i, before, owner)
    if got is None or len(got[1]) < 2:
        return None
    said = ' '.join(toks[i - used if listed or j < 0 else j:i + 1])
    return Kind(t, said, frozenset(got[1]), got[0])


def _members(domain: DomainSchema, kg: KnowledgeGraph, t: str, toks: list[str], i: int,
             before: str, owner: str | None
             ) -> tuple[tuple[str, int, str] | None, set[str]] | None:
    """Return (the link that narrows them, the members) of kind ``t`` at word ``i``.

    Narrowed to the owner's ("Anna's books") or to those in the place named after the
    head noun ("the lights in the kitchen"); None when that narrowing finds no link.
    """
    members = set(entities_of_type(domain, kg, t))
    if owner is not None:
        where, members = _link(kg, members, owner)
        return None if where is None else (where, members)
    if before == 'the' and i + 1 < len(toks) and toks[i + 1] in PLACING:
        place = _place(kg, toks, i + 2)
        if place is None:
            return None
        where, there = _link(kg, members, place)
        return None if where is None or not there else (where, there)
    return None, members


def uncovered(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None,
              kinds: list[Kind]) -> list[Kind]:
    """Return the kinds a task asks about as a whole that a goal does not cover.

    A kind is covered by a ``forall`` over its type (or a type above or below it) or by
    naming every member: "turn off all the lights" answered with three of eleven lights
    is not.
    """
    items = top_level(domain, kg, goal, consistent=False) if goal else []
    over = {t for n in items or [] if n[0] == 'forall' for _, t in n[1]}
    named = goal_entities(goal or '', kg)
    return [k for k in kinds
            if not any(domain.is_subtype(t, k.type) or domain.is_subtype(k.type, t)
                       for t in over) and not k.members <= named]


class Kinds:
    """What must hold of every one of a kind the task speaks of as a whole is asked.

    "Turn off all the lights, faucets and TVs" answered about three lights: per kind the
    goal does not cover, the model is asked for conditions with ``?x`` for each one
    (constrained to literals where that type fits, or their negation), read as one
    ``forall``. The goal grows by it (replacing what it said of the members), or is
    replaced by it when the two do not plan together (the goal missed the kind, so the
    rest of it is suspect too); kept only when the result plans and does not already hold.
    Asked on a planned goal, or on the last one the loop gets.
    """

    name, setting = 'kinds', 'ask_kinds'

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether the kinds are still to be asked about, and now is the time."""
        return not g.a.asked_kinds and (g.verdict()[0] is Verdict.ACCEPTED
                                        or g.a.out.attempts >= g.settings.attempts)

    def judge(self, g: GoalAnswer) -> Ruling:
        """Ask about each kind the goal does not cover; grow the goal by what plans."""
        g.a.asked_kinds = True
        domain, kg, text = g.world.domain, g.kg, g.a.req.text
        notes: list[str] = []
        best: Planned | None = None
        for kind in uncovered(domain, kg, g.goal, kinds(domain, kg, text))[:MAX_KINDS]:
            try:
                more = self.ask(g, kind, notes)
            except LLMError as exc:
                notes.append(f'asked about every {kind.type}: {exc}')
                break
            if more is not None:
                best = self.grow(g, kind, more, best, notes) or best
        return Ruling.amend(best, notes) if best is not None else Ruling(notes=notes)

    @staticmethod
    def ask(g: GoalAnswer, kind: Kind, notes: list[str]) -> str | None:
        """Return what must hold of every one of ``kind`` (a ``forall``), or None."""
        a, constraints = g.a, g.world.constraints
        schema = a.grounding.kind_schema(kind.type, constraints.place_predicates())
        if schema is None:
            return None
        every = ' '.join(w for w in name_words(kind.type) if not w.isdigit())
        said = kind.said if kind.said.split()[0] in ALL else (
            f'{kind.said}: every {every} it means')
        # the request alone, not the answer that missed the kind: shown it, the model
        # copies its predicate ("Lena's tubes" held by Lena, as the one tube was)
        request = a.messages[-1]['content'].removesuffix('\nAnswer:')
        got = a.chat(schema)(a.messages[:-1] + [{'role': 'user', 'content': (
            f'{request}\nQuestion: the task speaks of {said}. Which condition must hold '
            f'for each of them when the task is done? Write "?x" for each one.\nAnswer:')}])
        data = got.data.get('goal') if isinstance(got.data, dict) else None
        if isinstance(data, list):
            data, dropped = last_condition(data, constraints, a.req.text, a.req.mentions)
            notes += dropped
        more, errors = a.grounding.read_kind(data, kind.type, kind.where)
        if errors or not more:
            notes.append(f'asked about every {kind.type}, the answer did not read: '
                         f'{errors[:1]}')
            return None
        if g.wants is not None:
            more, flipped = settle_quantified(g.world.domain, g.kg, f'(and {more})', g.wants)
            notes += flipped
        return more

    @staticmethod
    def grow(g: GoalAnswer, kind: Kind, more: str, best: Planned | None,
             notes: list[str]) -> Planned | None:
        """Return the goal grown by ``more`` (or ``more`` alone) planned, or None."""
        goal = best.goal if best is not None else g.goal
        tries = [extend_goal(g.world.domain, g.kg, g.world.constraints, goal or '', more),
                 (more, [])]
        for grown, settled in tries:
            got = g.adopt(grown) if grown is not None else None
            if got is not None:
                notes.append(f'asked what must hold of {kind.said} (the goal did not '
                             f'cover them): {more}' + ''.join(f'; {n}' for n in settled))
                return got
        notes.append(f'asked what must hold of {kind.said}, the answer {more} does '
                     'not plan: the goal stays')
        return None
