# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Asking the speaker back about a report's readings when the robot is unsure (issue 58).

A *reading* is one whole change a report may mean (:class:`Candidate`): the update the
pipeline composed, or another one its checks found (the answer without the facts the
read-back denied, the places both orders of a where-question gave ...), each with one
confidence. When the robot is unsure, the report is kept pending (an event of status
``clarify``, like the which-thing questions of :mod:`.clarify`) and the speaker is asked:

- one reading: "Just to check: <the change in words> Is that right?" (yes / no);
- two to four: "Which is right? 1. ... 2. ... or none of them?" ("the second one").

After "no" or "none of them" the readings not yet offered are asked about; after at most
:data:`MAX_QUESTIONS` questions, or when none are left, the robot says in one sentence
what it could not understand and writes nothing. Right after a report is written, "undo
that" or "no, that's wrong" (:func:`correction`) withdraws it: a new event, nothing
deleted. The answer is read without an LLM call
(:func:`answer_of`); the chosen reading is verified again on the graph as it is then.

Each option carries the change it would write (``remove``/``add`` fact lists, as
``kg show --json``), so a person, a UI or the evaluator's speaker can judge it.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, replace
from typing import Any

from ...world.complete import Completion, complete
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing, written_names
from .clarify import ORDINALS

MAX_QUESTIONS = 3  # questions about one report; then nothing is written
#: the source of a reading offered beside the one before it, in one question: the answer
#: with what the read-back denied and the answer asked again left out
WITH_DENIED = 'with what the read-back denied'
CORRECTION = "as the speaker's answer corrected it"  # a reading an answer carried
#: a reading that keeps part of the first one (report/smaller.py): offered after a "no"
SMALLER = 'part of what was stated'
#: the source of the empty reading offered when the read-back denied every stated fact and
#: a clause says a thing is in a state: made whole from nothing about that thing alone
#: (:func:`..report.whole.whole_readings`), or not offered
NOTHING_READ = 'nothing the read-back kept'
MAX_CHOICES = 4  # readings offered in one question
NOTHING_ELSE = 'Nothing else.'  # an option that says no more than all the options say
READINGS = 'readings'  # the ``kind`` of a pending question about readings
#: the ``kind`` of an open question about a report read as no change (no options)
OPEN = 'open'

YES, NO = 'yes', 'no'
_YES = re.compile(r"^\W*(yes|yeah|yep|yup|correct|right|exactly|sure|that'?s (right|it|"
                  r"correct))\b", re.I)
_NO = re.compile(r"^\W*(no|nope|nah|wrong|incorrect|not (really|quite|right)|that'?s "
                 r"(wrong|not (it|right)))\b", re.I)
_NONE = re.compile(r"\b(none|neither|no idea|don'?t know|not sure|never ?mind)\b", re.I)
# how an answer points at an option: which-thing questions' words, and digits
_ORDINALS = {**ORDINALS, '1': 0, '2': 1, '3': 2, '4': 3}
MAX_ANSWER_WORDS = 8
#: "undo that", "no, that's wrong": the speaker takes back the report just written
_UNDO = re.compile(r"^\W*(?:no\W+)?(?:undo(?: that| it)?|that'?s (?:wrong|not (?:it|right|"
                   r"what i (?:said|meant)))|take (?:that|it) back|scratch that|"
                   r"withdraw (?:that|it))\W*$", re.I)
UNDO_WINDOW = 300.0  # seconds after a report is written that its speaker may take it back


@dataclass(frozen=True)
class Candidate:
    """One whole change a report may mean, with the robot's confidence in it."""

    update: Update
    confidence: float  # P(this is what happened), from the model's own odds (0..1)
    source: str  # where it comes from: "answer", "without denied", "place check", ...
    #: the thing a reading made whole is about (:mod:`..report.whole`); '' for others
    about: str = ''
    #: what the reading says stays as it was, not written: facts that still hold (add) and
    #: facts that still do not (remove); the speaker judges them with the change
    kept: Update = Update()
    #: the option's own words when it is offered about one thing ('' : the whole change)
    words: str = ''
    #: the reading the options about one thing extend, when none of them is that reading
    #: itself (no option keeps the thing as it was: :func:`..report.whole.guessed`)
    base: Update | None = None
    #: the options of the question asked once this one is chosen: about the next thing
    #: this reading still leaves out (:mod:`..report.whole`); () : chosen, it is written
    follow: tuple[Candidate, ...] = ()

    def option(self) -> Update:
        """Return what the option states: the change and what it keeps as it was."""
        return Update.of(self.update.remove | self.kept.remove, self.update.add | self.kept.add)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON kept in the pending question."""
        out = {**self.update.to_json(), 'confidence': round(self.confidence, 4),
               'source': self.source}
        if self.about:
            out.update(about=self.about, words=self.words, kept=self.kept.to_json())
        if self.base is not None:
            out['base'] = self.base.to_json()
        if self.follow:
            out['follow'] = [c.to_json() for c in self.follow]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidate:
        """Return a reading read back from :meth:`to_json`."""
        kept = Update.from_json(data['kept']) if data.get('kept') else Update()
        return cls(Update.from_json(data), float(data.get('confidence', 0.0)),
                   str(data.get('source', '')), str(data.get('about') or ''), kept,
                   str(data.get('words') or ''),
                   Update.from_json(data['base']) if data.get('base') else None,
                   tuple(cls.from_json(c) for c in data.get('follow') or ()))


def read_odds(history: list[dict[str, Any]]) -> dict[Fact, float]:
    """Return the read-back's P(yes) per fact stated (the lowest when read twice)."""
    odds: dict[Fact, float] = {}
    for h in history:
        if 'confirm' in h and h.get('p_yes') is not None and h.get('fact'):
            f = Fact.from_triplet(h['fact'])
            odds[f] = min(odds.get(f, 1.0), float(h['p_yes']))
    return odds


def confidence(stated: set[Fact], left_out: set[Fact], odds: dict[Fact, float],
               how: str = 'least') -> float:
    """Return how sure the model is of one reading, from its facts' read-back odds.

    Per fact read back, the probability that the model reads in the report what the
    reading says of it: a fact the reading states counts with P(yes), a fact it leaves out
    (one the read-back denied) with 1 - P(yes). ``how``: ``least`` (the least of them) or
    ``product`` (all of them at once, as if independent: a reading of several facts each
    a little unsure is unsure). 1.0 when nothing was read back with odds.
    """
    probs = [odds[f] for f in stated if f in odds]
    probs += [1 - odds[f] for f in left_out if f in odds]
    if how == 'product':
        return math.prod(probs) if probs else 1.0
    return min(probs, default=1.0)


def without(kg: KnowledgeGraph, world: WorldModel, done: list[Completion], denied: set[Fact]
            ) -> Update | None:
    """Return the parts' net change with the ``denied`` stated facts left out, or None.

    Each part's stated change loses those facts and is completed by the rules on the graph
    the parts before it left; None when what is left is empty or does not verify.
    """
    return recomposed(kg, world, [Update.of(c.stated.remove - denied, c.stated.add - denied)
                                  for c in done])


def with_back(kg: KnowledgeGraph, world: WorldModel, done: list[Completion],
              dropped: dict[int, Update]) -> Update | None:
    """Return the parts' net change with facts put back into parts (by index), or None."""
    none = Update.of([], [])
    return recomposed(kg, world, [Update.of(c.stated.remove | dropped.get(k, none).remove,
                                            c.stated.add | dropped.get(k, none).add)
                                  for k, c in enumerate(done)])


def recomposed(kg: KnowledgeGraph, world: WorldModel, stated: list[Update]) -> Update | None:
    """Return the net change of parts stated so, each completed and verified, or None.

    Each part is completed by the rules on the graph the parts before it left; None when a
    part does not verify or nothing changes.
    """
    work = kg
    for change in stated:
        part = complete(work, change, world.constraints, world.domain).update
        if world.verifier.check(work, part):
            return None
        work = work.copy()
        work.apply(part)
    net = kg.diff_to(work)
    return None if net.is_empty() else net


def option_json(update: Update) -> dict[str, Any]:
    """Return one option as the contract gives it: the change's fact lists."""
    return {'remove': [list(f.triplet()) for f in sorted(update.remove)],
            'add': [list(f.triplet()) for f in sorted(update.add)]}


def question_text(kg: KnowledgeGraph, domain: DomainSchema, offered: list[Candidate],
                  first: bool, text: str = '') -> str:
    """Return the question about ``offered`` readings (one: yes/no; several: which).

    Readings made whole about one thing (:mod:`..report.whole`) are asked about that thing:
    "Jerry is now in the kitchen. And the red pen: which is right? 1. ... 2. ... Or none
    of them?" Things the report ``text`` writes as names are said so ("Bella", not "the
    bella": :func:`~...world.phrasing.written_names`).
    """
    phrasing = Phrasing(domain, kg, names=written_names(text, kg))
    about = {c.about for c in offered}
    if len(offered) > 1 and len(about) == 1 and '' not in about \
            and all(c.words for c in offered):
        thing = offered[0].about  # the last option keeps it as it was: the reading itself
        base = offered[0].base
        lead = phrasing.change(offered[-1].update if base is None else base)
        listed = ' '.join(f'{k}. {c.words}' for k, c in enumerate(offered, 1))
        named = phrasing.entity(thing)
        about = (f'{lead} And {_lower_first(named)}' if lead
                 else named[:1].upper() + named[1:])  # nothing else read: the thing alone
        return f'{about}: which is right? {listed} Or none of them?'
    if len(offered) == 1:  # a reading that keeps a thing as it was says so ("still ...")
        lead = 'Just to check' if first else 'Then'
        one = offered[0]
        change = phrasing.change(one.update)
        kept = ''
        if one.about and one.words and not one.kept.is_empty():  # not what the change says
            said = re.split(r'(?<=[.!?])\s+', change)
            kept = ''.join(f' {w}' for w in re.split(r'(?<=[.!?])\s+', one.words)
                           if w and w not in said)
        return f'{lead}: {change}{kept} Is that right?'
    shared = Update.of(set.intersection(*(set(c.update.remove) for c in offered)),
                       set.intersection(*(set(c.update.add) for c in offered)))
    if shared.is_empty():
        listed = ' '.join(f'{k}. {phrasing.change(c.update)}' for k, c in enumerate(offered, 1))
        return f'Which is right? {listed} Or none of them?'
    beyond = [Update.of(c.update.remove - shared.remove, c.update.add - shared.add)
              for c in offered]  # each option by what it says beyond what all of them say
    listed = ' '.join(f'{k}. {phrasing.change(u) or NOTHING_ELSE}'
                      for k, u in enumerate(beyond, 1))
    return f'{phrasing.change(shared)} With that, which is right? {listed} Or none of them?'


def _lower_first(said: str) -> str:
    """Return a thing's words to go inside a sentence ("the red pen", "Anna")."""
    return said[:1].lower() + said[1:] if said.startswith('The ') else said


@dataclass
class Pending:
    """A report waiting on a question about its readings (kept in its ``clarify`` event)."""

    text: str  # the report
    readings: list[Candidate]  # best first
    offered: list[int]  # the readings the current question offers
    asked: int  # questions asked so far, this one included
    question: str
    expires: float

    @classmethod
    def first(cls, text: str, readings: list[Candidate], kg: KnowledgeGraph, domain: DomainSchema,
              timeout: float, together: bool = False) -> Pending:
        """Return the first question about ``readings``: the best one, yes or no.

        A reading with what the read-back denied (:data:`WITH_DENIED`) comes second and is
        offered beside the best one: "Which is right? 1. ... 2. ... Or none of them?".
        With ``together`` the best one is offered beside every other reading that follows
        it (up to :data:`MAX_CHOICES`, up to the first reading made whole about one thing
        or that keeps part of another, :data:`SMALLER`: those come after a "no").
        """
        offered = [0, 1] if len(readings) > 1 and readings[1].source == WITH_DENIED else [0]
        if together:
            offered = [0]
            while len(offered) < MAX_CHOICES and len(offered) < len(readings) \
                    and not readings[len(offered)].about \
                    and not readings[len(offered)].source.startswith(SMALLER):
                offered.append(len(offered))
        if readings and readings[0].about:  # the options about the thing it left out
            offered = group_of(readings, 0)
        return cls(text, readings, offered, 1,
                   question_text(kg, domain, [readings[k] for k in offered], True, text),
                   time.time() + timeout)

    def next(self, kg: KnowledgeGraph, domain: DomainSchema, timeout: float) -> Pending | None:
        """Return the question after a "no", or None when nothing is left to ask.

        The readings after those offered so far: the next thing's options, or the next
        :data:`MAX_CHOICES` readings (the parts of a reading, :data:`SMALLER`, never in one
        question with the readings the checks made). An option that states what one
        already offered stated (denied, or twice in one question) is not offered again; a
        question left with none is skipped.
        """
        if self.asked >= MAX_QUESTIONS:
            return None
        readings = list(self.readings)
        seen = {readings[j].option() for j in range(max(self.offered) + 1)}
        start = max(self.offered) + 1
        while start < len(readings):
            if readings[start].about:  # the next reading's options about its thing
                group = group_of(readings, start)
            else:  # the rest at once: yes/no for one, else a choice; the parts of a
                # reading (SMALLER) only after the readings the checks made
                smaller = readings[start].source.startswith(SMALLER)
                group = list(range(start, min(start + MAX_CHOICES, len(readings))))
                cut = next((j for j, k in enumerate(group)
                            if readings[k].source.startswith(SMALLER) != smaller), len(group))
                group = group[:cut]
            start = group[-1] + 1
            offered = []
            for k in group:
                if readings[k].option() not in seen:
                    seen.add(readings[k].option())
                    offered.append(k)
            if not offered:
                continue
            last = readings[group[-1]]
            if last.about and group[-1] not in offered:  # the reading the options extend
                for k in offered:
                    if readings[k].base is None:
                        readings[k] = replace(readings[k], base=last.update)
            return Pending(self.text, readings, offered, self.asked + 1,
                           question_text(kg, domain, [readings[k] for k in offered], False,
                                         self.text),
                           time.time() + timeout)
        return None

    def then(self, k: int, kg: KnowledgeGraph, domain: DomainSchema,
             timeout: float) -> Pending | None:
        """Return the question that follows choosing reading ``k``; None when used up.

        Reading ``k`` still leaves a thing out (:attr:`Candidate.follow`): its options are
        asked next, the readings of this question done with.
        """
        follow = list(self.readings[k].follow)
        if not follow or self.asked >= MAX_QUESTIONS:
            return None
        offered = group_of(follow, 0)
        return Pending(self.text, follow, offered, self.asked + 1,
                       question_text(kg, domain, [follow[j] for j in offered], False, self.text),
                       time.time() + timeout)

    def corrected(self, update: Update, kg: KnowledgeGraph, domain: DomainSchema,
                  timeout: float) -> Pending | None:
        """Return the question about a correction's reading ("Then: ..."); None when used up.

        The reading the speaker's answer carried is offered alone, once; the readings
        before it stay (a "no" to it asks about those not yet offered).
        """
        if self.asked >= MAX_QUESTIONS:
            return None
        readings = [*self.readings, Candidate(update, 0.0, CORRECTION)]
        k = len(readings) - 1
        return Pending(self.text, readings, [k], self.asked + 1,
                       question_text(kg, domain, [readings[k]], False, self.text),
                       time.time() + timeout)

    def options(self) -> list[dict[str, Any]]:
        """Return the contract's options of the current question."""
        return [option_json(self.readings[k].option()) for k in self.offered]

    def to_json(self) -> dict[str, Any]:
        """Return the JSON kept in the ``clarify`` event (``info.clarify``)."""
        return {'kind': READINGS, 'text': self.text, 'question': self.question,
                'readings': [r.to_json() for r in self.readings], 'offered': self.offered,
                'asked': self.asked, 'expires': self.expires, 'options': self.options()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        """Return the pending question read back from :meth:`to_json`."""
        return cls(str(data.get('text') or ''),
                   [Candidate.from_json(r) for r in data.get('readings') or []],
                   [int(k) for k in data.get('offered') or []], int(data.get('asked', 1)),
                   str(data.get('question') or ''), float(data.get('expires', 0)))


def open_question_text(kg: KnowledgeGraph, domain: DomainSchema, things: list[str],
                       text: str = '') -> str:
    """Return the question about a report no change was read in: "What changed with Fatima?"."""
    phrasing = Phrasing(domain, kg, names=written_names(text, kg))
    said = [_lower_first(phrasing.entity(t)) for t in things]
    named = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
    return f'I could not tell what changed. What changed with {named}?'


def group_of(readings: list[Candidate], k: int) -> list[int]:
    """Return the readings made whole from the same one as reading ``k`` (offered together)."""
    out = [k]
    while len(out) < MAX_CHOICES and k + len(out) < len(readings) \
            and readings[k + len(out)].about == readings[k].about \
            and readings[k + len(out)].source == readings[k].source:
        out.append(k + len(out))
    return out


def unfit(text: str, n: int) -> str | None:
    """Return what to say to an answer that points past the options ("the fifth one").

    None when ``text`` is no such answer (then it may be a new report).
    """
    said = re.findall(r"[a-z0-9']+", text.lower())
    if not said or len(said) > MAX_ANSWER_WORDS or answer_of(text, n) is not None:
        return None
    if any(w in _ORDINALS or w in ('fifth', 'sixth', '5th', '6th', '5', '6') for w in said):
        return ('That is not one of the options: say "yes" or "no".' if n == 1 else
                f'That is not one of the options: say which one (1 to {n}) or "none of them".')
    return None


_LEAD = re.compile(r'^\W*(?:(yes|yeah|yep|correct|right|sure)|(no|nope|nah|not quite|wrong))'
                   r'\b[\s,;:.!-]*(?:(?:and|but|actually|in fact|though|so)\b[\s,]*)?', re.I)
_FILLER = re.compile(r"^\W*(?:that'?s (?:right|it|correct|wrong|not (?:it|right))|it is|it was|"
                     r"thanks?(?: you)?|please|of course|exactly|i think so|sorry)\W*$", re.I)


def content_of(text: str) -> tuple[str | None, str]:
    """Split an answer into its yes/no and the content after it: the correction it carries.

    "No, she turned it on." → (no, "she turned it on"); "Yes, and Joana went in too." →
    (yes, "Joana went in too"); "The hat box is with Claire." → (None, the whole); "yes",
    "no, that's wrong", "the second one" → content ''. No LLM.
    """
    m = _LEAD.match(text)
    lead = (YES if m.group(1) else NO) if m else None
    rest = text[m.end():] if m else text
    rest = ' '.join(rest.split()).strip(' ,;:-')
    if not rest or _FILLER.match(rest) or len(re.findall(r"[a-z0-9']+", rest.lower())) < 2:
        return lead, ''
    if lead is None and answer_of(text, MAX_CHOICES) is not None:
        return None, ''
    return lead, rest.rstrip('.!') + '.'


def bare_answer(text: str) -> bool:
    """Tell whether ``text`` is only an answer ("yes", "the second one", "none of them")."""
    return answer_of(text, 1) is not None or answer_of(text, MAX_CHOICES) is not None


def correction(text: str) -> bool:
    """Tell whether ``text`` takes back what was just written ("undo that")."""
    return bool(_UNDO.match(text.strip()))


def answer_of(text: str, n: int) -> str | int | None:
    """Read an answer to a question with ``n`` options: YES, NO, an option index, or None.

    "yes" / "no" answer a question with one option; "the second one" picks an option of
    several (also of one: "the first"); "none of them" is NO. Anything longer than a short
    answer, or that says none of these, is not an answer (None): it may be a new report.
    """
    said = re.findall(r"[a-z0-9']+", text.lower())
    if not said or len(said) > MAX_ANSWER_WORDS:
        return None
    if _NONE.search(text):
        return NO
    picks = {_ORDINALS[w] % n for w in said if w in _ORDINALS and _ORDINALS[w] < n}
    if len(picks) == 1:
        return picks.pop()
    if _YES.search(text):
        return 0 if n == 1 else None
    if _NO.search(text):
        return NO
    return None
