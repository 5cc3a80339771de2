# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""State questions: a report's change read as answers to small multiple-choice questions.

A 1.5B model is far better at choosing among a few options than at composing a diff. For
each entity the report refers to (mention resolution), small questions ask what is true of
it after the report, every option a plain sentence built from the domain (no domain words
in the code), the state before the report always the first option, marked "as before":

- **where** it is, one question per exactly-one ``functional`` rule that keeps its place
  ("Where is the yard key after the report?": on the manager desk (as before), carried by
  Omar, carried by Nadia, ...), the objects being the report's referents of the right type;
- **whether** each one-argument state that may change holds ("Is the office door locked
  after the report?": yes (as before) / no).

The answer is one option number, constrained by a JSON schema (llama.cpp turns it into a
grammar). The chosen facts are completed by the domain's rules (:mod:`l3mp_ros.world.
complete`: the old place goes when a new one comes); a question asks where a thing is
*after* the whole report, so a narrative's last place is its answer. An answer outside the
options is refused, never guessed.

Every question shares the static system prompt and then the report, so a server's prompt
cache reads each report once and each question adds only its own lines.

As the proposer of a whole change they lose to the free diff (docs/decisions.md, issue
45); they are kept as its **place check** (:func:`check_places`): a where-question the model
answers the same way in both option orders, against the free diff, keeps the report out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from ...llm.prompting import ask_choice, both_orders, prompt_text
from ...llm.protocol import ChatLLM, LLMReply
from ...world.constraints import RuleKind
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from ..core.attempts import Trace

MAX_OPTIONS = 12  # options of one question, the state before included


@dataclass
class Question:
    """One question about one entity: the options, the state before first."""

    entity: str
    text: str  # "Where is the yard key after the report?"
    options: list[str]  # sentences; options[0] is the state before the report
    facts: list[frozenset[Fact]]  # per option, the facts that hold when it is chosen
    slot: frozenset[Fact]  # every fact this question can settle (to remove the others)
    odds: list[float] | None = None  # the model's probability per option, once asked

    def update(self, k: int) -> Update:
        """Return the change option ``k`` makes (none for the state before)."""
        before, chosen = self.facts[0], self.facts[k]
        return Update.of(before - chosen, chosen - before)

    def ordered(self, order: list[int]) -> Question:
        """Return the question with its options listed in ``order`` (itself when unchanged)."""
        if order == list(range(len(self.options))):
            return self
        return Question(self.entity, self.text, [self.options[i] for i in order],
                        [self.facts[i] for i in order], self.slot)


def changeable(world: WorldModel) -> frozenset[str]:
    """Return the predicates a state question offers.

    Those some action changes, and those an exactly-one or exclusive rule governs (where
    a person is: people move without the robot's actions). Not the relations a rule only
    keeps at most single and nothing changes (which door a key fits, a home shelf).
    """
    rules = {p for r in world.constraints.rules
             if r.kind == RuleKind.EXCLUSIVE or (r.kind == RuleKind.FUNCTIONAL and r.exactly)
             for p in r.predicates}
    return frozenset((world.domain.fluent_predicates() | rules) & set(world.domain.predicates))


def fits(world: WorldModel, kg: KnowledgeGraph, entity: str, pred: str, index: int) -> bool:
    """Tell whether ``entity`` may stand as argument ``index`` of ``pred``."""
    p = world.domain.predicates[pred]
    kind = kg.entities.get(entity)
    return kind is not None and index < p.arity and world.domain.is_subtype(
        kind, p.params[index][1])


def place_groups(world: WorldModel, kg: KnowledgeGraph, entity: str,
                 preds: frozenset[str]) -> list[tuple[str, ...]]:
    """Return the binary predicates of each exactly-one rule that keeps ``entity``'s place."""
    groups = world.constraints.place_groups(world.domain, kg.entities.get(entity))
    return [kept for g in groups if (kept := tuple(p for p in g if p in preds))]


def as_said(phrasing: Phrasing, entity: str, written: dict[str, str] | None) -> str:
    """Return how a question names ``entity``: its name, and the report's words if other."""
    said = phrasing.entity(entity)
    if (written or {}).get(entity) and written[entity].lower() != said.lower():
        said = f'{said} ("{written[entity]}")'
    return said


def _before(text: str) -> str:
    return text.rstrip('.') + ' (as before).'


def where_question(world: WorldModel, kg: KnowledgeGraph, phrasing: Phrasing, entity: str,
                   said: str, group: tuple[str, ...], objects: Sequence[str]) -> Question | None:
    """Return "where is ``entity`` after the report?" over one exactly-one group."""
    c = world.constraints
    held = sorted(f for f in kg.facts_of(entity) if f.predicate in group
                  and len(f.args) == 2 and c.thing_of(f) == entity)
    new = [c.located(p, entity, o) for p in group for o in objects
           if o != entity and fits(world, kg, o, p, c.place_position(p))
           and c.located(p, entity, o) not in kg]
    if not new:
        return None
    new = new[:MAX_OPTIONS - 1]
    first = _before(phrasing.sentences(held)) if held else 'Not said (as before).'
    slot = frozenset(held) | frozenset(new)
    return Question(entity, f'Where is {said} after the report?',
                    [first, *(phrasing.sentence(f) for f in new)],
                    [frozenset(held), *(frozenset({f}) for f in new)], slot)


def ask(llm: ChatLLM, system: str, report: str, q: Question, trace: Trace) -> int:
    """Ask one state question; return the 0-based option chosen, -1 for none of them.

    Raises the client's ``LLMError``.
    """
    k, reply = ask_choice(llm, 'state', f'Report: {report}\n{q.text}\n', q.options,
                          system=system, odds=True)
    trace.usage.add(reply)
    odds = option_odds(reply, [str(i) for i in range(1, len(q.options) + 1)])
    trace.history.append({'state': q.text, 'options': q.options,
                          'reply': (reply.text or '')[:200], 'odds': odds})
    q.odds = odds
    return k


def option_odds(reply: LLMReply, numbers: Sequence[str]) -> list[float] | None:
    """Return the model's probability of each option number (normalised), or None.

    Read at the first generated token that is an option number (the grammar forces the
    JSON around it).
    """
    for token, top in getattr(reply, 'top_logprobs', None) or []:
        if token.strip().strip('"') not in numbers:
            continue
        p = {n: 0.0 for n in numbers}
        for cand, lp in top:
            c = cand.strip().strip('"')
            if c in p:
                p[c] += math.exp(lp)
        total = sum(p.values())
        return [round(p[n] / total, 4) for n in numbers] if total > 0 else None
    return None


@dataclass
class PlaceFindings:
    """What the place check asked and where the model's answers went against the update."""

    asked: int = 0
    errors: list[str] = field(default_factory=list)
    #: (entity, what the update says, what both orders of the question said)
    against: list[tuple[str, str, str]] = field(default_factory=list)
    #: things the update moved that both orders kept "as before" (a doubt, not an error)
    stayed: list[str] = field(default_factory=list)
    #: per answer against the update: (the update's option facts, both orders' facts, the
    #: facts before the report, whether the thing can move at all); see :func:`amend`
    moves: list[tuple[frozenset[Fact], frozenset[Fact], frozenset[Fact], bool]] = field(
        default_factory=list)

    def against_update(self, q: Question, chosen: int, k: int, stay: bool, said: str,
                       moves: bool) -> None:
        """Record option ``k``, which both orders chose against the update's ``chosen``."""
        if k == 0 and not stay:
            self.stayed.append(q.entity)
            return
        self.against.append((q.entity, q.options[chosen], q.options[k]))
        self.moves.append((q.facts[chosen], q.facts[k], q.facts[0], moves))
        self.errors.append(
            f'asked where {said} is after the report, the model answered "'
            f'{q.options[k].removesuffix(" (as before).").rstrip(".")}" in both orders '
            f'of the options; the update says "{q.options[chosen].rstrip(".")}"; nothing '
            'is applied')


def _place_question(world: WorldModel, kg: KnowledgeGraph, phrasing: Phrasing, entity: str,
                    said: str, group: tuple[str, ...], objects: Sequence[str],
                    update: Update) -> tuple[Question, int] | None:
    """Return the where-question over ``group`` and the option ``update`` chose, or None.

    The update's own new place is always an option; None when the update leaves the
    thing without a place of the group or gives it two.
    """
    new = [f for f in update.add if f.predicate in group and len(f.args) == 2
           and world.constraints.thing_of(f) == entity]
    if len(new) > 1:
        return None
    q = where_question(world, kg, phrasing, entity, said, group, objects)
    if q is None:
        if not new:
            return None  # nowhere else to be among the report's referents
        q = where_question(world, kg, phrasing, entity, said, group,
                           [world.constraints.place_of(new[0])])
        if q is None:
            return None
    if not new:
        held = q.facts[0]
        return (q, 0) if held and not (held & update.remove) else None
    if frozenset(new) not in q.facts:
        if len(q.options) >= MAX_OPTIONS:
            return None
        q.options.append(phrasing.sentence(new[0]))
        q.facts.append(frozenset(new))
        q.slot = q.slot | frozenset(new)
    return q, q.facts.index(frozenset(new))


def picker(llm: ChatLLM, text: str, q: Question, trace: Trace) -> Callable[[list[int]], int]:
    """Return the asking of ``q`` in a given option order (for :func:`both_orders`)."""
    system, report = prompt_text('state'), ' '.join(text.split())
    return lambda order: ask(llm, system, report, q.ordered(order), trace)


def where_after(llm: ChatLLM, world: WorldModel, kg: KnowledgeGraph, text: str, entity: str,
                group: tuple[str, ...], objects: Sequence[str], trace: Trace, *,
                written: dict[str, str] | None = None,
                templates: bool = False) -> frozenset[Fact] | None:
    """Ask where ``entity`` is after the report over ``group``, in both option orders.

    The options are its place before the report ("as before") and ``objects`` of the right
    type; returns the facts of the option both orders chose, None when they differ, the
    answer is outside the options, or there is nothing to ask. Raises ``LLMError``.
    """
    phrasing = Phrasing(world.domain, kg, legacy=not templates)  # setting prompt_phrasing
    q = where_question(world, kg, phrasing, entity, as_said(phrasing, entity, written), group,
                       objects)
    return agreed_facts(llm, text, q, trace) if q is not None else None


def agreed_facts(llm: ChatLLM, text: str, q: Question, trace: Trace,
                 wanted: Callable[[frozenset[Fact]], bool] | None = None
                 ) -> frozenset[Fact] | None:
    """Return the facts of the option of ``q`` both option orders choose, else None.

    ``wanted`` rules out a first pick before the reverse order is asked (saving that call).
    Raises ``LLMError``.
    """
    k, agreed = both_orders(picker(llm, text, q, trace), len(q.options),
                            None if wanted is None else lambda k: wanted(q.facts[k]))
    return q.facts[k] if agreed else None


def check_places(llm: ChatLLM, world: WorldModel, kg: KnowledgeGraph, text: str,
                 update: Update, entities: Sequence[str], trace: Trace, *,
                 written: dict[str, str] | None = None, stay: bool = False,
                 templates: bool = False,
                 settled: Collection[Fact] = frozenset()) -> PlaceFindings:
    """Ask where each of ``entities`` is after the report; keep out what goes against ``update``.

    One where-question per exactly-one place group of each referent, its options the
    report's referents of the right type with the update's own choice among them. An answer
    that agrees with the update ends the question (one call); one that does not is asked
    again with the options in reverse order, and only a new place both orders give counts
    against the update (a thing or person it left out, or stopped half-way). "As before"
    against a move counts only with ``stay``: the model says it for most moves it misses,
    right or not (measured: docs/decisions.md, issue 45); otherwise the thing is listed in
    ``stayed``, a doubt about an update that is still applied; a moved thing with no third
    option is not asked at all, nor a thing that cannot move (:func:`movable`) the update
    leaves in place (the model names where something was put on it: two false alarms of
    two, lab and retail). An answer outside the options is no evidence. A new place the
    report's words settle (``settled``: "handed the scanner to Ben") is not asked about.
    Raises the client's ``LLMError``.
    """
    out = PlaceFindings()
    phrasing = Phrasing(world.domain, kg, legacy=not templates)  # setting prompt_phrasing
    preds = changeable(world)
    for entity in entities:
        said = as_said(phrasing, entity, written)
        for group in place_groups(world, kg, entity, preds):
            new = {f for f in update.add if len(f.args) == 2 and f.predicate in group
                   and world.constraints.thing_of(f) == entity}
            if new and new <= set(settled):
                continue  # "handed the scanner to Ben": the words say where it is
            got = _place_question(world, kg, phrasing, entity, said, group, entities, update)
            if got is None:
                continue
            q, chosen = got
            if chosen and len(q.options) == 2 and not stay:
                continue  # only "as before" could go against the move: no evidence
            if not chosen and not movable(world, kg, phrasing, entity, group):
                continue  # a fixture left in place: a new place would be what was put on it
            k, agreed = both_orders(picker(llm, text, q, trace), len(q.options),
                                    lambda k, chosen=chosen: k != chosen)
            out.asked += 1 if agreed is None else 2
            if agreed:
                out.against_update(q, chosen, k, stay, said,
                                   movable(world, kg, phrasing, entity, group))
    return out


def movable(world: WorldModel, kg: KnowledgeGraph, phrasing: Phrasing, entity: str,
            group: tuple[str, ...]) -> bool:
    """Tell whether ``entity`` is a thing that moves: a person, or moved by some action.

    People are said by their names (:class:`~l3mp_ros.world.phrasing.Phrasing`); things
    some action of the domain puts elsewhere have a fluent place. A fixture (a bench, a
    packing table) has neither: a where-question about it that names a new place is the
    model confusing it with what was put on it.
    """
    return (kg.entities.get(entity) in phrasing.proper
            or bool(set(group) & world.domain.fluent_predicates()))


def amend(update: Update, check: PlaceFindings) -> Update | None:
    """Return ``update`` with each place both orders of a where-question gave, or None.

    The free diff most often leaves out someone who went along, or stops a thing half-way
    through a narrative; a new place the model chose in both option orders is the thing's
    place after the report (right 18 of 21 times when measured). None when any answer
    against the update is about something that cannot move (then the update stays out).
    """
    if not check.moves or not all(m[3] for m in check.moves):
        return None
    union = frozenset[Fact]().union
    return update.take_in(union(*(new for _, new, _, _ in check.moves)),
                          union(*(before for _, _, before, _ in check.moves)),
                          old=union(*(chosen - before for chosen, _, before, _ in check.moves)),
                          gone=union(*(before - new for _, new, before, _ in check.moves)))
