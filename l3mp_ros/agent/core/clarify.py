# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Ask back instead of guessing: reports whose words leave open which thing is meant.

A mention that stays ambiguous after resolution ("the tray": two trays, nothing in the
report or the graph tells them apart) makes the model pick one. When the change it wrote
would be just as valid for another candidate (the same stated facts with the other tray
in its place complete, verify and change something), the pick was a guess: a wrong guess
is a wrong write that poisons every later plan, so the report is kept pending and the robot
asks "Which tray do you mean: tray 1, the one that is in room 3, or tray 2, the one that is
in room 5?". When the domain settles it (the other tray is not where a removal says, or is
already where an addition puts it), nothing is asked.

A pending question is an event of status ``clarify`` in the world model's log (so every
process sharing the store sees it); its answer is an applied event, its expiry or
cancellation a rejected one, each with ``info.clarifies`` = the question's event id.
:func:`pick` reads an answer ("the one in room 3", "Michael's", "the second", "neither");
:func:`substituted` redoes the stated change with the chosen entity, re-verified against
the graph of the moment. Nothing here knows a domain: names, facts and the rules only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...retrieval.mention import Mention
from ...retrieval.mentions import resolve
from ...text import folded
from ...world.complete import complete
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing, written_names

CANCEL = '<cancel>'
MAX_OPTIONS = 4  # a longer question is not one a person answers; beyond, the first four
MAX_ANSWER_WORDS = 12  # a longer utterance is a new report, not an answer
NEAR_HOPS = 2  # an answer names only things this close to an option ("Jerry's bedroom")
SCAN_EVENTS = 2000  # a pending question is looked for among this many newest events
ORDINALS = {'first': 0, '1st': 0, 'second': 1, '2nd': 1, 'third': 2, '3rd': 2,
            'fourth': 3, '4th': 3, 'last': -1}
# words that say how, not which: never what tells one option from another
_FUNCTION_WORDS = frozenset('the a an one ones that this is are was in on at of to by from '
                            'with into onto for and or it its which who has have'.split())
_CANCEL_WORDS = re.compile(r"\b(neither|none|never ?mind|forget (it|that)|cancel|nothing|"
                           r"no idea|don'?t know)\b", re.I)
#: of those, the ones that say no option is the thing meant (not: take the report back)
_NONE_WORDS = re.compile(r'\b(neither|none|nothing)\b', re.I)


@dataclass(frozen=True)
class Option:
    """One thing the report may mean, and how the question describes it."""

    entity: str
    description: str = ''  # "the one that is in room 3"; empty: the name alone tells
    name: str = ''  # how people say it ("Anna's bedroom tv remote"); empty: its words

    def label(self) -> str:
        """Return how the question names it: "tray 1, the one that is in room 3"."""
        name = self.name or self.entity.replace('_', ' ')
        return f'{name}, {self.description}' if self.description else name

    @classmethod
    def said(cls, said: Phrasing, entity: str, fact: Fact | None = None) -> Option:
        """Return the option named as people say it, told apart by ``fact`` (its place).

        "the living room tv remote, the one that is on the living room table": the fact's
        sentence without its subject; a sentence of another shape (a possessive) keeps
        the whole of it after "the one where".
        """
        name = said.entity(entity)
        if fact is None:
            return cls(entity, '', name)
        sentence = said.say(fact).rstrip('.')
        if sentence.lower().startswith(name.lower() + ' '):
            return cls(entity, f'the one that {sentence[len(name) + 1:]}', name)
        return cls(entity, f'the one where {sentence[:1].lower()}{sentence[1:]}', name)


@dataclass
class Ambiguity:
    """A report whose change fits several candidates of one mention."""

    mention: str  # as the report wrote it: "the tray"
    chosen: str  # the candidate the model wrote
    options: list[Option]

    def question(self) -> str:
        """Return the question put to the speaker."""
        noun = _noun(self.mention)
        labels = [o.label() for o in self.options]
        listed = ', '.join(labels[:-1]) + f', or {labels[-1]}' if len(labels) > 2 \
            else ' or '.join(labels)
        return f'Which {noun} do you mean: {listed}?'

    def to_json(self) -> dict[str, Any]:
        """Return the JSON kept in the ``clarify`` event."""
        return {'mention': self.mention, 'chosen': self.chosen, 'question': self.question(),
                'candidates': [o.entity for o in self.options],
                'options': [{'entity': o.entity, 'description': o.description,
                             'name': o.name} for o in self.options]}


def _noun(mention: str) -> str:
    """Return the words of a mention without its leading determiner or owner.

    A mention ending in "'s" wrote a contraction or another thing's owner ("The key's on
    Ada's wrist"): the thing is "key".
    """
    said = mention.split()
    while said and said[0].lower() in ('the', 'a', 'an', 'this', 'that', 'his', 'her',
                                       'their', 'its', 'my', 'our', 'your'):
        said = said[1:]
    if said:
        said[-1] = re.sub(r"['\u2019]s$", '', said[-1]) or said[-1]
    return ' '.join(said) or mention


def _plain(text: str) -> set[str]:
    """Return the lower-case words of ``text``, possessives cut, each also without -s."""
    said = re.findall(r'[a-z0-9]+', folded(text).replace("'s", ''))
    return set(said) | {w[:-1] for w in said if len(w) > 3 and w.endswith('s')}


def _swap(fact: Fact, old: str, new: str) -> Fact:
    return Fact(fact.predicate, tuple(new if a == old else a for a in fact.args))


def none_of_them(text: str) -> bool:
    """Tell whether an answer says no option is the thing meant ("none of them", "neither")."""
    return bool(_NONE_WORDS.search(text))


def without_guess(stated: Sequence[Update], guess: str) -> list[Update]:
    """Return ``stated`` (one update per part) without the facts about ``guess``."""
    return [Update.of({f for f in part.remove if guess not in f.args},
                      {f for f in part.add if guess not in f.args}) for part in stated]


def substituted(kg: KnowledgeGraph, stated: Sequence[Update], old: str, new: str,
                world: WorldModel) -> tuple[Update | None, list[str]]:
    """Return the net change of ``stated`` (one update per part) with ``new`` for ``old``.

    Each part is swapped, completed by the rules and verified on the graph as the parts
    before it left it. ``None`` with the reasons when the swapped change does not hold
    together: a removal that is not in the graph, an addition that already holds, an
    empty or invalid change.
    """
    work = kg
    for part in stated:
        remove = {_swap(f, old, new) for f in part.remove}
        add = {_swap(f, old, new) for f in part.add}
        touched = {f for f in remove | add if new in f.args}
        absent = [f for f in remove & touched if f not in work]
        present = [f for f in add & touched if f in work]
        if absent or present:
            return None, ([f'{f.text()} does not hold' for f in sorted(absent)]
                          + [f'{f.text()} already holds' for f in sorted(present)])
        done = complete(work, Update.of(remove, add), world.constraints, world.domain)
        if done.update.is_empty():
            return None, ['nothing would change']
        errors = world.verifier.check(work, done.update)
        if errors:
            return None, errors
        work = work.copy()
        work.apply(done.update)
    return kg.diff_to(work), []


def ambiguity(kg: KnowledgeGraph, mentions: Iterable[Mention], stated: Sequence[Update],
              world: WorldModel, text: str = '') -> Ambiguity | None:
    """Return the first mention whose candidates the stated change cannot tell apart.

    ``stated``: the change as the model stated it, one update per part of the report.
    A mention counts when exactly one of its candidates is in the change and at least one
    other candidate, put in its place, gives a change that holds together.
    """
    used = {a for u in stated for f in u.remove | u.add for a in f.args}
    for m in mentions:
        if len(m.candidates) < 2:
            continue
        chosen = [c for c in m.candidates if c in used]
        if len(chosen) != 1:
            continue
        viable = [o for o in m.candidates if o not in used
                  and substituted(kg, stated, chosen[0], o, world)[0] is not None]
        if viable:
            names = [c for c in m.candidates if c == chosen[0] or c in viable][:MAX_OPTIONS]
            if chosen[0] not in names:
                names[-1] = chosen[0]
            return Ambiguity(m.surface or m.text, chosen[0], describe(kg, names, world, text))
    return None


def describe(kg: KnowledgeGraph, names: Sequence[str], world: WorldModel,
             text: str = '') -> list[Option]:
    """Return the options with a fact that tells them apart, when one does.

    The predicates of a functional rule keyed on the thing (where a thing is: on a table,
    in someone's hand) first, then each binary predicate alone: every option must have
    exactly one such fact, and their objects must differ.
    """
    groups = [tuple(r.predicates) for r in world.constraints.place_rules(exactly=False)]
    groups += [(p,) for p in sorted(world.domain.predicates)]
    for group in dict.fromkeys(groups):
        own = []
        for n in names:
            facts = [f for f in kg.facts_of(n)
                     if f.predicate in group and len(f.args) == 2
                     and world.constraints.thing_of(f) == n]
            if len(facts) != 1:
                break
            own.append(facts[0])
        else:
            if len({world.constraints.place_of(f) for f in own}) == len(names):
                said = Phrasing(world.domain, kg, names=written_names(text, kg))
                return [Option.said(said, n, f) for n, f in zip(names, own, strict=True)]
    return [Option.said(Phrasing(world.domain, kg, names=written_names(text, kg)), n)
            for n in names]


def pick(kg: KnowledgeGraph, options: Sequence[dict[str, str]], text: str) -> str | None:
    """Return the entity an answer chooses, :data:`CANCEL`, or None (not an answer).

    An answer is short, names nothing beyond the options and what describes them, and
    points at one option: by its place ("the second"), by words of its name or of its
    description that the other options do not share ("the one in room 3", "Michael's").
    """
    said = _plain(text)
    if not said or len(said) > MAX_ANSWER_WORDS:
        return None
    if _CANCEL_WORDS.search(text):
        return CANCEL
    entities = [o['entity'] for o in options]
    own = [_plain(o['entity'].replace('_', ' ') + ' ' + (o.get('description') or ''))
           for o in options]
    shared = set.intersection(*own) if own else set()
    near = kg.neighbours([e for e in entities if kg.has_entity(e)], depth=NEAR_HOPS)
    # "the one in ...": "one" is a pronoun here, not the number of "shelf level 1"
    named = {n for m in resolve(kg, re.sub(r'\bones?\b', ' ', text, flags=re.I))
             for n in m.candidates}
    if named - near - set(entities):
        return None  # names things far from every option: a new report, not this answer
    hits = [len((o - shared - _FUNCTION_WORDS) & said) for o in own]
    best = max(hits)
    if best > 0 and hits.count(best) == 1:
        return entities[hits.index(best)]
    places = {ORDINALS[w] % len(options) for w in said
              if w in ORDINALS and ORDINALS[w] < len(options)}
    if len(places) == 1:
        return entities[places.pop()]
    return None


# -- the pending question, kept in the event log ------------------------------------------
def unanswered(world: WorldModel) -> list[tuple[int, dict[str, Any]]]:
    """Return (event id, clarify info) of the questions not yet closed, oldest first.

    One query for ``clarify`` events among the newest :data:`SCAN_EVENTS` (nearly always
    none); only when some exist are the events after the oldest read for their answers.
    """
    asked = world.events(since_id=max(0, world.last_event() - SCAN_EVENTS), status='clarify')
    if not asked:
        return []
    closed = {e.info.get('clarifies') for e in world.events(since_id=asked[0].id)}
    return [(e.id, e.info.get('clarify') or {}) for e in asked if e.id not in closed]


def _due(data: dict[str, Any], now: float) -> bool:
    return float(data.get('expires', 0)) <= now


def open_question(world: WorldModel, now: float | None = None
                  ) -> tuple[int, dict[str, Any]] | None:
    """Return (event id, clarify info) of the newest unanswered, unexpired question."""
    now = time.time() if now is None else now
    questions = unanswered(world)
    return questions[-1] if questions and not _due(questions[-1][1], now) else None


def expired(world: WorldModel, now: float | None = None) -> list[tuple[int, dict[str, Any]]]:
    """Return the questions past their time and not yet closed (oldest first)."""
    now = time.time() if now is None else now
    return [(qid, data) for qid, data in unanswered(world) if _due(data, now)]
