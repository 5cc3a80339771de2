# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""States said in other words: one call asks which states of the named things changed.

"it's taken for the next hour" (lane 1 in use), "used the last of the plasters" (the kit
no longer stocked), "Floor's dry" (the gym no longer wet): a report says a state in words
that are not the predicate's, the reading writes the move beside it and leaves the state
out, and a truthful speaker says yes to the half. :func:`.whole.said_states` and
:func:`~..core.destinations.worded_states` find a state only by its predicate's own words.

Here every one-place state a report may change (:func:`.context.changing`) of each thing
the report names is put to the model as a sentence of its change, the opposite of what
holds now ("Lane 1 is now in use.", "The gym is no longer wet."), all in one yes/no-each
call (``confirm_all.txt``, :func:`~...llm.prompting.ask_yes_no_each`). A state the model
says yes to with P(yes) at least ``min_yes`` (when the endpoint gives odds) and that the
reading leaves out is what the report says beyond the reading: the reading is asked about
with it first (:func:`.report_checks.with_states`), never written without a question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...llm.prompting import ask_yes_no_each
from ...llm.protocol import ChatLLM
from ...retrieval.mention import Mention
from ...retrieval.mention_lists import owners_only
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from ...world.templates import Form
from ..core.attempts import Trace
from .context import changing
from .read_back import report_head

MAX_STATES = 12  # statements in the one call (the things named first come first)
PROMPT = 'confirm_all'  # the read-back's: does the report say it, in any words?
SCHEMA = 'other_words'  # the call's schema name


@dataclass(frozen=True)
class StateChoice:
    """What the one call said: each statement's change, the model's yes and its odds."""

    changes: tuple[tuple[Fact, bool], ...]  # (the fact, True: it ends) per statement
    statements: tuple[str, ...]
    yes: tuple[bool, ...]
    odds: tuple[float | None, ...]

    def said(self, min_yes: float) -> Update:
        """Return the changes said yes to, with P(yes) at least ``min_yes`` when known."""
        chosen = [c for c, y, p in zip(self.changes, self.yes, self.odds, strict=True)
                  if y and (p is None or p >= min_yes)]
        return Update.of([f for f, ends in chosen if ends], [f for f, ends in chosen if not ends])


def candidates(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
               update: Update, of: Sequence[str] | None = None) -> list[tuple[Fact, bool]]:
    """Return the state changes to ask about: (fact, True when it would end), said order.

    Each thing a mention settles (not one named only as an owner), or each thing ``of``,
    each one-place predicate a report may change that fits its type (:func:`fits`) and
    that ``update`` says nothing of for it: the fact ends when it holds, else it begins.
    """
    domain = world.domain
    owners = owners_only(kg, text, list(mentions))
    things = list(dict.fromkeys(m.resolved for m in sorted(mentions, key=lambda m: m.start)
                                if m.resolved and m.resolved in kg.entities
                                and m.resolved not in owners)) if of is None else list(of)
    told = {(f.predicate, f.args[0]) for f in update.add | update.remove if f.args}
    preds = sorted(p for p in changing(world, text)
                   if p in domain.predicates and domain.predicates[p].arity == 1)
    held = holders(kg)
    out: list[tuple[Fact, bool]] = []
    for e in things:
        for p in preds:
            if (p, e) not in told and fits(world, p, kg.entities[e], held.get(p, set())):
                f = Fact(p, (e,))
                out.append((f, f in kg))
    return out[:MAX_STATES]


def holders(kg: KnowledgeGraph) -> dict[str, set[str]]:
    """Return, per one-place predicate, the types of the things it holds of now."""
    held: dict[str, set[str]] = {}
    for f in kg.facts:
        if len(f.args) == 1 and f.args[0] in kg.entities:
            held.setdefault(f.predicate, set()).add(kg.entities[f.args[0]])
    return held


def fits(world: WorldModel, pred: str, kind: str, held: set[str]) -> bool:
    """Tell whether a state of ``pred`` may be said of a thing of type ``kind``.

    The domain must accept it; a predicate declared for any object at all (``isWet ?x -
    object``) only of a type some thing of which it holds of now: a wet room says rooms
    get wet, not that people do.
    """
    domain = world.domain
    if not domain.accepts(pred, 0, kind):
        return False
    declared = domain.predicates[pred].params[0][1]
    if any(domain.types.get(t) is not None for t in declared):
        return True  # typed for some kinds of thing: every thing of them
    return kind in held


def ask(llm: ChatLLM, world: WorldModel, kg: KnowledgeGraph, text: str,
        changes: list[tuple[Fact, bool]], trace: Trace) -> StateChoice | None:
    """Ask in one call which of ``changes`` the report says; None when none can be said.

    Each is said in the domain's sentences (:class:`~...world.phrasing.Phrasing`); the
    call's cost and each statement's answer go to ``trace``. Raises the client's
    ``LLMError``.
    """
    phrasing = Phrasing(world.domain, kg)
    asked: list[tuple[Fact, bool]] = []
    statements: list[str] = []
    for f, ends in changes:
        said = phrasing.say(f, Form.NO_LONGER if ends else Form.CHANGED)
        if said:
            asked.append((f, ends))
            statements.append(said)
    if not statements:
        return None
    yes, odds, reply = ask_yes_no_each(llm, PROMPT, report_head(text, None), statements,
                                       name=SCHEMA)
    trace.usage.add(reply)
    for (f, ends), said, y, p in zip(asked, statements, yes, odds, strict=True):
        trace.history.append({'other_words': said, 'fact': list(f.triplet()), 'ends': ends,
                              'yes': y, 'p_yes': p, 'reply': (reply.text or '')[:200]})
    return StateChoice(tuple(asked), tuple(statements), tuple(yes), tuple(odds))
