# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report kept pending on a question: its answer, or its expiry.

The question itself is asked by Algorithm 3 (:mod:`.update`): which thing a mention means
(:mod:`.clarify`), or whether a reading is right (:mod:`.asking`). This completes the
report when the speaker answers (no LLM call), asks the next question after a "no", or
logs it as not applied when no answer comes.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ...retrieval.link import named_in
from ...retrieval.mention import DETERMINERS
from ...text import name_words, stem, words
from ...world.events import EventStatus
from ...world.kg import KnowledgeGraph, Update
from ...world.model import ApplyResult, WorldModel
from ...world.store import Event
from ...world.support import SAID, SupportKind, classify
from ..core import clarify
from ..core.asking import (
    MAX_ANSWER_WORDS,
    NO,
    OPEN,
    READINGS,
    UNDO_WINDOW,
    Candidate,
    Pending,
    answer_of,
    bare_answer,
    content_of,
    correction,
    question_text,
    recomposed,
    unfit,
)
from ..core.attempts import Trace
from .reading import UpdateOutcome

#: words that place a thing ("with Claire", "on the desk"): a short answer may correct where
PLACING = frozenset('in on at with under inside by near onto into beside behind'.split())
#: an answer to an open question longer than this must name a thing it asked about
MAX_OPEN_ANSWER = 12


class OpenQuestions:
    """The open question of a world model, and how an answer completes its report."""

    def __init__(self, world: WorldModel, timeout: float) -> None:
        self.world = world
        self.timeout = timeout  # seconds a follow-up question waits (``clarify_timeout``)

    def expire(self, now: float | None = None, source: str = 'nl') -> list[int]:
        """Log every question past its time as not applied; return their event ids."""
        done = []
        for qid, data in clarify.expired(self.world, now):
            self.world.reject(
                [f'no answer to "{data.get("question", "")}" in time: the report was not '
                 'applied'], source=source, utterance=data.get('text'),
                info={'clarifies': qid, 'expired': True})
            done.append(qid)
        return done

    def pending(self) -> tuple[int, dict[str, Any]] | None:
        """Return (event id, question) of the open question, if any."""
        self.expire()
        return clarify.open_question(self.world)

    def stray(self, text: str) -> bool:
        """Tell whether ``text`` is an answer with no question open ("yes" to nothing)."""
        return bare_answer(text) and not correction(text) and self.pending() is None

    def answers(self, text: str) -> bool:
        """Tell whether ``text`` answers the open question (no LLM call)."""
        open_ = self.pending()
        if open_ is None:
            return correction(text) and self.withdrawable() is not None
        if open_[1].get('kind') == OPEN:  # "I don't know" ends it; content is read
            return answer_of(text, 1) == NO
        if open_[1].get('kind') == READINGS:
            n = len(open_[1].get('offered') or [])
            return answer_of(text, n) is not None or unfit(text, n) is not None
        return clarify.pick(self.world.snapshot(), open_[1].get('options') or [],
                            text) is not None

    def answer(self, text: str, *, source: str = 'nl') -> UpdateOutcome | None:
        """Complete the open question's report with ``text``; None if it does not answer.

        The stated change is redone with the chosen thing, completed and verified on the
        graph as it is now, then applied (or rejected) with ``info.clarifies``.
        """
        began = time.perf_counter()
        open_ = self.pending()
        if open_ is None:
            return self._unasked(text, source, began)
        qid, data = open_
        if data.get('kind') == OPEN:
            return self._unknown(qid, data, text, source, began)
        if data.get('kind') == READINGS:
            return self._readings(qid, Pending.from_json(data), text, source, began)
        kg = self.world.snapshot()
        chosen = clarify.pick(kg, data.get('options') or [], text)
        if chosen is None:
            return None
        return self._with_chosen(qid, data, kg, chosen, text, source, began)

    def _unknown(self, qid: int, data: dict[str, Any], text: str, source: str,
                 began: float) -> UpdateOutcome | None:
        """End an open question the speaker cannot answer ("I don't know"): nothing written."""
        if answer_of(text, 1) != NO:
            return None
        out = UpdateOutcome(text=str(data.get('text') or ''))
        out.errors = [f'I could not understand what changed from "{out.text}", so nothing '
                      'is written.']
        res = self.world.reject(out.errors, source=source,
                                utterance=f'{out.text} [{text.strip()}]',
                                info={'clarifies': qid, 'answer': text})
        return self._settled(out, res, began)

    def _unasked(self, text: str, source: str, began: float) -> UpdateOutcome | None:
        """Take ``text`` with no question open: a correction withdraws, a bare answer strays."""
        if correction(text):
            return self.withdraw(text, source, began)
        return self._stray(text, source, began) if bare_answer(text) else None

    def _with_chosen(self, qid: int, data: dict[str, Any], kg: KnowledgeGraph, chosen: str,
                     text: str, source: str, began: float) -> UpdateOutcome:
        """Complete a report asked about by which thing a mention means, ``chosen`` picked.

        "None of them" asks about the rest of the report when it still verifies
        (:meth:`_without_guess`); otherwise the change redone with ``chosen``
        (:meth:`_redone`) is applied, or the report is rejected.
        """
        out = UpdateOutcome(text=str(data.get('text') or ''))
        info: dict[str, Any] = {'clarifies': qid, 'answer': text}
        kept = {'source': source, 'utterance': f'{out.text} [{text.strip()}]'}
        if chosen == clarify.CANCEL and clarify.none_of_them(text):
            follow = self._without_guess(data, kg)
            if follow is None and data.get('then'):  # the rest, made whole
                follow = replace(Pending.from_json(data['then']),
                                 expires=time.time() + self.timeout)
            if follow is not None:  # the rest of the report may still be right: asked
                res = self._ask(out, follow, 'not any of those', info, **kept)
                out.event_id = res.event_id
                out.seconds = time.perf_counter() - began
                return out
        net = self._redone(out, data, kg, chosen, info)
        if net is None:
            res = self.world.reject(out.errors, info=info, **kept)
        else:
            res = self.world.apply(net, verify=True, info=info, **kept)
            out.errors = res.errors
        return self._settled(out, res, began)

    def _redone(self, out: UpdateOutcome, data: dict[str, Any], kg: KnowledgeGraph,
                chosen: str, info: dict[str, Any]) -> Update | None:
        """Return the change of the option ``chosen``; None, said on ``out``, if none.

        The change the question showed for that option (each option carries the change it
        would write): "which prep do you mean?", the prep table chosen, writes the reading
        the checks made with it, not the model's first statement redone (which had Jess
        moved, a move the read-back had denied). A question kept from before options
        carried their change has the stated change redone with ``chosen``. None when the
        speaker withdrew the report (:data:`.clarify.CANCEL`) or the change with ``chosen``
        no longer fits the world model.
        """
        if chosen == clarify.CANCEL:
            out.errors = ['the speaker withdrew the report: nothing is applied']
            return None
        said = next((o for o in data.get('options') or [] if o.get('entity') == chosen
                     and ('add' in o or 'remove' in o)), None)
        if said is not None:  # the change the option showed is the one written
            net: Update | None = Update.from_json(said)
            errors = [] if not net.is_empty() else ['nothing would change']
            errors += [f'{f.text()} does not hold' for f in sorted(net.remove) if f not in kg]
            errors += [f'{f.text()} already holds' for f in sorted(net.add) if f in kg]
            if errors:
                net = None
        else:  # a question kept from before options carried their change
            stated = [Update.from_json(u) for u in data.get('stated') or []]
            net, errors = clarify.substituted(kg, stated, str(data.get('chosen')), chosen,
                                              self.world)
        info['chosen'] = chosen
        out.update = net
        out.errors = [f'with {chosen} the report no longer fits the world model: '
                      + '; '.join(errors)] if net is None else []
        return net

    @staticmethod
    def _settled(out: UpdateOutcome, res: ApplyResult, began: float) -> UpdateOutcome:
        """Return ``out`` with the logged event ``res`` and the time since ``began``."""
        out.applied, out.event_id = res.applied, res.event_id
        out.seconds = time.perf_counter() - began
        return out

    def _ask(self, out: UpdateOutcome, follow: Pending, why: str, info: dict[str, Any],
             **kept: object) -> ApplyResult:
        """Put the next question ``follow`` on ``out`` and log the report pending on it."""
        out.question, out.clarify = follow.question, follow.to_json()
        out.errors = [f'{why}; asked: {follow.question}']
        return self.world.reject(out.errors, status=EventStatus.CLARIFY,
                                 info={**info, 'clarify': out.clarify}, **kept)

    def _without_guess(self, data: dict[str, Any], kg: KnowledgeGraph) -> Pending | None:
        """Return a yes/no question about the report without the thing guessed, or None.

        "Ines walked down to the nurses' station to ask for an extra pillow": asked which
        pillow moved, the speaker says "none of them"; Ines's move may still be right. Only
        when the report names the thing in a clause of purpose (:func:`in_purpose`):
        elsewhere ("hung the lead she went out on back up") the reading without it is half
        the report, which a truthful speaker would say yes to. None when nothing is left
        or it does not verify.
        """
        if not in_purpose(str(data.get('text') or ''), str(data.get('chosen'))):
            return None  # "hung the lead she went out on back up": the lead changed
        stated = [Update.from_json(u) for u in data.get('stated') or []]
        rest = recomposed(kg, self.world, clarify.without_guess(stated, str(data.get('chosen'))))
        if rest is None:
            return None
        reading = Candidate(rest, 0.0, f'without {data.get("chosen")}')
        return Pending(str(data.get('text') or ''), [reading], [0], 2,
                       question_text(kg, self.world.domain, [reading], False,
                                     str(data.get('text') or '')),
                       time.time() + self.timeout)

    def _stray(self, text: str, source: str, began: float) -> UpdateOutcome:
        """Log an answer that came with no question open (a second speaker's, a late one)."""
        out = UpdateOutcome(text=text)
        out.errors = [f'There is no open question to answer: "{text.strip()}" changes '
                      'nothing.']
        res = self.world.reject(out.errors, source=source, utterance=text,
                                info={'answer': text})
        out.event_id = res.event_id
        out.seconds = time.perf_counter() - began
        return out

    def correcting(self, text: str) -> tuple[int, Pending] | None:
        """Return the open question about readings that ``text`` answers with a correction.

        The answer carries content after its yes/no ("No, she turned it on."), or is only
        a short sentence placing something the readings are about ("The hat box is with
        Claire."); None otherwise (a bare answer, or a new report: "the red pen is blue",
        "Jerry took the red pen from the table."). An open question ("What changed with
        Fatima?") takes any short answer that is not "I don't know", or one naming a thing
        it asked about. No LLM call.
        """
        open_ = self.pending()
        if open_ is None or open_[1].get('kind') not in (READINGS, OPEN):
            return None
        lead, content = content_of(text)
        if not content:
            return None
        pending = Pending.from_json(open_[1])
        if open_[1].get('kind') == OPEN:  # the answer to "What changed with Fatima?"
            if answer_of(text, 1) == NO:
                return None  # "I don't know", "no idea": it ends the question
            said = words(content)
            named = named_in(self.world.snapshot(), content) & set(open_[1].get('about') or ())
            return (open_[0], pending) if len(said) <= MAX_OPEN_ANSWER or named else None
        if lead is None:
            said = words(content)
            if len(said) > MAX_ANSWER_WORDS or not PLACING & set(said):
                return None
            about = {a for r in pending.readings for f in r.update.add | r.update.remove
                     for a in f.args}
            if not named_in(self.world.snapshot(), content) & about:
                return None
        return open_[0], pending

    def corrected(self, qid: int, pending: Pending, update: Update | None, why: str, text: str,
                  source: str, began: float, trace: Trace) -> UpdateOutcome:
        """Ask about the reading a correction carried ("Then: ... Is that right?").

        Unread (``update`` None), the question stays open as it was and nothing is
        written; with the questions used up, nothing is written and the robot says so.
        """
        out = UpdateOutcome(text=pending.text, trace=trace)
        if update is None:
            out.errors, out.question = [f'I could not read that ({why}): '
                                        f'{pending.question}'], pending.question
            out.clarify, out.event_id = pending.to_json(), qid
            out.seconds = time.perf_counter() - began
            return out
        info: dict[str, Any] = {'clarifies': qid, 'answer': text, 'corrected': True}
        kept = {'source': source, 'utterance': f'{pending.text} [{text.strip()}]'}
        follow = pending.corrected(update, self.world.snapshot(), self.world.domain,
                                   self.timeout)
        res = self._follow(out, follow, 'the answer corrected the reading', info, kept)
        return self._settled(out, res, began)

    def _follow(self, out: UpdateOutcome, follow: Pending | None, why: str,
                info: dict[str, Any], kept: dict[str, str]) -> ApplyResult:
        """Ask the question ``follow``; with none left, say what could not be understood."""
        if follow is not None:
            return self._ask(out, follow, why, info, **kept)
        out.errors = [f'I could not understand what changed from "{out.text}", '
                      'so nothing is written.']
        return self.world.reject(out.errors, info=info, **kept)

    def _readings(self, qid: int, pending: Pending, text: str, source: str,
                  began: float) -> UpdateOutcome | None:
        """Complete a report asked about by its readings: the one chosen, or the next question.

        "yes" (or an option's ordinal) writes that reading, verified on the graph as it is
        now and marked confirmed by the speaker (or, when it leaves another thing out, the
        question about that thing follows); "no" / "none of them" asks about the
        readings not yet offered, or, with none left or the questions used up, says what
        could not be understood and writes nothing.
        """
        got = answer_of(text, len(pending.offered))
        out = UpdateOutcome(text=pending.text)
        if got is None:
            why = unfit(text, len(pending.offered))
            if why is None:
                return None
            # the question stays open as it was: said again, nothing written
            out.errors, out.question = [why], pending.question
            out.clarify, out.event_id = pending.to_json(), qid
            return out
        info: dict[str, Any] = {'clarifies': qid, 'answer': text}
        kept = {'source': source, 'utterance': f'{pending.text} [{text.strip()}]'}
        if got == NO:
            follow = pending.next(self.world.snapshot(), self.world.domain, self.timeout)
            res = self._follow(out, follow, 'not that reading', info, kept)
        elif pending.readings[pending.offered[int(got)]].follow:
            # chosen, but it leaves another thing out: that is asked next (nothing written
            # when the questions are used up)
            follow = pending.then(pending.offered[int(got)], self.world.snapshot(),
                                  self.world.domain, self.timeout)
            res = self._follow(out, follow, 'and the next thing it leaves out', info, kept)
        else:
            k = pending.offered[int(got)]
            reading = pending.readings[k]
            info.update({'chosen_reading': k, 'confidence': reading.confidence,
                         'support': str(SupportKind.CONFIRMED)})
            out.update = reading.update
            res = self.world.apply(reading.update, verify=True, info=info, **kept)
            out.errors = res.errors
        return self._settled(out, res, began)

    def withdrawable(self, now: float | None = None) -> Event | None:
        """Return the event a correction would withdraw now, or None.

        The newest event of the log, if it is a report (told or confirmed) applied less
        than :data:`.asking.UNDO_WINDOW` seconds ago and not itself a withdrawal.
        """
        last = self.world.last_event()
        newest = self.world.events(since_id=last - 1) if last else []
        event = newest[-1] if newest else None
        if event is None or event.status != EventStatus.APPLIED or event.update is None \
                or 'withdraws' in event.info or classify(event.source, event.info) not in SAID:
            return None
        return event if (time.time() if now is None else now) - event.time <= UNDO_WINDOW \
            else None

    def withdraw(self, text: str, source: str, began: float) -> UpdateOutcome | None:
        """Take back the report just written ("undo that"): its inverse, as a new event."""
        event = self.withdrawable()
        if event is None:
            return None
        out = UpdateOutcome(text=event.utterance or '')
        out.update = event.update.inverse()
        res = self.world.apply(out.update, source=source, verify=True,
                               utterance=f'{text.strip()} [takes back event {event.id}]',
                               info={'withdraws': event.id, 'answer': text})
        out.errors = res.errors
        return self._settled(out, res, began)


def in_purpose(text: str, entity: str) -> bool:
    """Tell whether ``text`` names ``entity`` first in a clause of purpose.

    "to ask for an extra pillow": "to" and a word that is no determiner ("to his room" is
    where someone went) within the five words before the first word of the thing's name.
    """
    said = [w.lower() for w in words(text)]
    own = {stem(w) for w in name_words(entity)}
    at = next((k for k, w in enumerate(said) if stem(w) in own), None)
    if at is None:
        return False
    before = said[max(0, at - 5):at]
    return any(w == 'to' and before[k + 1] not in DETERMINERS
               for k, w in enumerate(before[:-1]))
