# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3 (L3M+P): NL knowledge-graph updates, grounded, verified and retried.

retrieve (by default the ``link`` retriever: no LLM call) → resolve the report's mentions
(:mod:`l3mp_ros.retrieval.mentions`) → cut it into the changes it tells
(:func:`.clauses.split_report`) → per part, one prompt (static: role, the domain's
predicates, examples from the domain; then the context's typed entities and facts and the
report) and a reply constrained by a JSON schema built for this context (:mod:`.grounding`)
→ the part's answer checks, re-prompted with their errors (bounded) → the part checks →
the parts' updates compose in order → the report checks → apply atomically with
provenance, or reject and record why. **The checks, in order, are the lists of**
:mod:`.pipeline`. With ``prompt_context: widen`` the prompts first list only the
referents' facts; a reading refused or in doubt is done again on every fact. Nothing
unverified is applied (with ``verify=False``, the paper's ablation, only applicability is
checked, without retries).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ... import stages
from ...llm.handles import tokenizer
from ...llm.protocol import ChatLLM, LLMError, LLMFailure
from ...retrieval.base import Retrieval, Retriever
from ...retrieval.mention_lists import addressed, owners_only
from ...stages import stage
from ...world.complete import Completion
from ...world.events import EventStatus
from ...world.kg import Fact, KnowledgeGraph, Update
from ..core.asking import (
    MAX_CHOICES,
    OPEN,
    READINGS,
    Candidate,
    Pending,
    content_of,
    open_question_text,
    recomposed,
)
from ..core.attempts import Attempts, Judged, Trace, Verdict
from ..core.examples import system_for
from ..core.grounding import FULL, REFERENTS, WIDEN
from ..core.request import Request, mentions_of
from ..core.rulings import run
from .already import already_said
from .context import ReportContext, report_context
from .corrections import read_correction
from .open_questions import OpenQuestions
from .pipeline import ANSWER_CHECKS, PART_CHECKS, REPORT_CHECKS
from .reading import (
    NO_CHANGE,
    RESTATED,
    PartAnswer,
    PartQuestion,
    Reading,
    Report,
    UpdateOutcome,
    covered,
    widened,
)
from .scope import STATIVE, unknown_names_error
from .settings import UpdateSettings
from .whole import asks_refused, said_order, said_states

if TYPE_CHECKING:
    from ...memory.hooks import Memory
    from ...retrieval.mention import Mention
    from ...world.model import WorldModel

__all__ = ['NLUpdater', 'UpdateOutcome', 'UpdateSettings', 'NO_CHANGE', 'RESTATED']

MAX_OPEN_THINGS = 3  # things an open question names


SAID_STATE = 'said state'  # a Candidate's source: a state the report says in words


class NLUpdater:
    """Run Algorithm 3 against a world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever,
                 settings: UpdateSettings | None = None, *,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.llm = llm
        self.retriever = retriever
        self.settings = settings if settings is not None else UpdateSettings()
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.questions = OpenQuestions(world, self.settings.clarify_timeout)  # pending reports
        self._system: str | None = None

    def system(self) -> str:
        """Return the static system prompt (built once from the domain)."""
        if self._system is None:
            self._system = system_for('update', self.world.domain, self.world.constraints)
        return self._system

    def context(self, kg: KnowledgeGraph, retrieval: Retrieval,
                mentions: list[Mention], text: str | None = None) -> ReportContext:
        """Return the context of one report: retrieval, resolved mentions, grounding."""
        return report_context(self.world, self.settings, kg, retrieval, mentions,
                              tokenizer(self.llm, self.settings.answer_handles), text)

    # -- Algorithm 3 -------------------------------------------------------------------
    def run(self, text: str, *, source: str = 'nl',
            retrieval: Retrieval | None = None) -> UpdateOutcome:
        """Update the KG from one report (Algorithm 3); never raises for LLM or input errors.

        The outcome's ``trace.stages`` says where the time went (:mod:`l3mp_ros.stages`).
        """
        out = UpdateOutcome(text=text)
        with stages.recording(out.trace.stages):
            return self._run(out, source, retrieval)

    def _run(self, out: UpdateOutcome, source: str,
             retrieval: Retrieval | None) -> UpdateOutcome:
        began, s, text = time.perf_counter(), self.settings, out.text
        req = Request.start(self.world, text)
        if req is None:
            return self._refuse(out, began, source, None, 'empty report')
        if s.verify and (why := unknown_names_error(req)):  # before any LLM work
            return self._refuse(out, began, source, req.text, why)
        with stage('retrieval'):
            why = req.retrieve(self.retriever, self.llm, retrieval, out.usage)
        if why is not None:
            return self._refuse(out, began, source, None, why)
        first = REFERENTS if s.prompt_context == WIDEN else s.prompt_context
        with stage('context'):
            r = self._reading(req, out, first)  # mentions → grounding → memory → parts
        self._read(r, out)
        if self._widens(r, out):  # refused or in doubt on the referents' facts alone
            out, why = widened(out)
            r = Reading(req, r.ctx, r.system, r.recalled, r.parts, req.kg, listing=FULL,
                        how=self.settings.reading_confidence)
            self._read(r, out)
            out.notes.insert(0, "read again with every retrieved fact: the reading with the "
                             f"referents' facts alone was {why}")
        if out.errors == [NO_CHANGE] and out.clarify is None and s.verify and s.ask_already:
            self._already(r, out)
        if out.errors == [NO_CHANGE] and out.clarify is None and s.verify and s.ask_back \
                and s.ask_left_out:
            self._ask_said(r, out)
        if out.errors == [NO_CHANGE] and out.clarify is None and s.verify and s.ask_back \
                and s.ask_open:
            self._ask_open(r, out)
        elif self._refused_in_silence(out):
            self._ask_open(r, out, why=out.errors[0])
        return self._finish(out, began, source, req.text)  # apply with provenance, or reject

    def _read(self, r: Reading, out: UpdateOutcome) -> None:
        """Read the report part by part into ``out``: its update, or why there is none."""
        s = self.settings
        # on the referents' facts (widen): one answer per part, and the first doubt ends
        # the reading, since it is read again on every fact anyway
        fast = self._narrowed(r)
        loop = Attempts(self.llm, out.trace, 1 if fast else s.attempts)
        for k, part in enumerate(r.parts):  # one answer per part, composed in order
            # an earlier answer read ahead (on the referents' facts a repeat is a doubt that
            # reads the report again: asked as before)
            if k and s.skip_covered and not fast and covered(r, part):
                r.covered(self.world, part)
                continue
            with stage('context'):
                q = PartQuestion.asking(self.world, s, self.llm, ANSWER_CHECKS, r, part, out.trace)
            with stage('propose'):
                got = loop.run(q.messages, q.propose, q.judge)  # propose, verify, re-prompt
            a = PartAnswer(r, part, q, got, loop, fast, self.llm, self.world, s)
            got = self._judge_part(a)
            if got is None and a.confirms_earlier():  # an earlier answer read ahead
                r.confirmed(part)
                continue
            if got is None:  # the part changes nothing, as it says
                r.passed(self.world, part)
                continue
            r.last, r.errors = got.value, got.errors
            if (r.errors or r.last is None) and self._passes_refused(r, part, got, fast):
                continue  # asked about with the other parts' reading, never written unasked
            if r.errors or r.last is None:
                break  # a partial update would be wrong: nothing is applied
            r.accept(r.last, q.actor)
        if r.refused and not r.errors and not (r.done and asks_refused(r)):
            # no part read, or nothing a refused part names is asked about: refused as it was
            r.last, r.errors = r.refused[0][1], list(r.refused[0][2])
        r.compose(out)  # the parts' net change, or why there is none
        self._judge_report(r, out)  # pipeline.REPORT_CHECKS: places, actor, clarify

    def _passes_refused(self, r: Reading, part: str, got: Judged[Completion],
                        fast: bool) -> bool:
        """Tell whether a part the checks refused is passed over, the report read on.

        "The Hughes family have just come in to reception | they're here about Luna": every
        answer of the second part broke a rule; the first may still be right. With
        ``ask_back`` and ``ask_left_out`` a part of several refused after its attempts is
        passed over as one read as no change (its things are asked about with the reading:
        :mod:`.whole`), and the reading is asked about, never written unasked
        (``pass_refused``). Not a failed call, and not on the referents' facts alone.
        """
        s = self.settings
        if not (s.pass_refused and s.verify and s.ask_back and s.ask_left_out and r.several
                and not fast and got.verdict is Verdict.INVALID):
            return False
        r.refused.append((part, r.last, tuple(r.errors)))
        r.last, r.errors = None, []
        r.passed(self.world, part)
        return True

    def _already(self, r: Reading, out: UpdateOutcome) -> None:
        """Tell a report of what already holds from one of no change (:mod:`.already`)."""
        named = [m.resolved for m in r.req.mentions if m.resolved]
        with stage('already'):
            try:
                said = already_said(self.world, self.llm, r.req.kg, r.req.text, named,
                                    out.trace)
            except LLMError:
                return  # the report stays refused as no change
        if said:
            out.already, out.errors = said, [RESTATED]

    def _ask_said(self, r: Reading, out: UpdateOutcome) -> None:
        """Ask about the states a report read as no change says in words, at no call.

        "Set three's passed its test": ``ba_tested`` of set three, said in its own word
        (:func:`.whole.said_states`), is offered as the reading ("Just to check: BA set 3
        is tested. Is that right?"), each such state that verifies in one question.
        """
        kg, world = r.req.kg, self.world
        readings: list[Candidate] = []
        for e, preds in said_states(r, Update.of([], [])).items():
            for pred in sorted(preds):
                fact = Fact(pred, (e,))
                change = Update.of([fact], []) if fact in kg else Update.of([], [fact])
                net = recomposed(kg, world, [change])
                if net is not None and all(net != c.update for c in readings):
                    readings.append(Candidate(net, 0.0, SAID_STATE))
        if not readings:
            return
        pending = Pending.first(r.req.text, readings[:MAX_CHOICES], kg, world.domain,
                                self.settings.clarify_timeout, True)
        out.question, out.clarify = pending.question, pending.to_json()
        out.errors = [f'{NO_CHANGE}; the report says a state in words; asked: '
                      f'{pending.question}']

    def _refused_in_silence(self, out: UpdateOutcome) -> bool:
        """Tell whether a report is about to be refused for a reason, without a word to ask.

        Every answer broke a rule ("Rex has slipped his lead ...": Rex in no place) or a
        check found no way to read it; not a failed model call (asked again, not asked
        about), nor a report read as no change or already so (their own questions).
        """
        s = self.settings
        return bool(out.clarify is None and out.errors
                    and out.errors[0] not in (NO_CHANGE, RESTATED)
                    and not any(isinstance(e, LLMFailure) for e in out.errors)
                    and s.verify and s.ask_back and s.ask_open and s.ask_refused)

    def _ask_open(self, r: Reading, out: UpdateOutcome, why: str = NO_CHANGE) -> None:
        """Ask what changed with the things a report names that no change was read in.

        Not a report that names nothing of the world ("It is pouring with rain.") or only
        the one it speaks to ("Thanks, robot, you're a star."), nor one that says things
        stayed as they were ("Carol is still in the mailroom."). The
        answer ("She woke up.") is read with the report (:mod:`.corrections`). ``why``: the
        reason no change was read (a refused reading keeps its own).
        """
        if STATIVE.search(r.req.text):
            return
        owners = owners_only(r.req.kg, r.req.text, r.req.mentions)
        spoken_to = addressed(r.req.text, r.req.mentions)  # "Thanks, robot, you're a star."
        things = [e for e in said_order(m for m in r.req.mentions if m.describes is None)
                  if e not in owners and e not in spoken_to][:MAX_OPEN_THINGS]
        if not things:
            return
        question = open_question_text(r.req.kg, self.world.domain, things, r.req.text)
        out.question = question
        out.clarify = {'kind': OPEN, 'text': r.req.text, 'question': question, 'readings': [],
                       'offered': [], 'asked': 1, 'options': [], 'about': things,
                       'expires': time.time() + self.settings.clarify_timeout}
        out.errors = [f'{why}; asked: {question}']

    def _already_after(self, out: UpdateOutcome) -> None:
        """After the last "no" of a talk, tell whether the report restated what holds."""
        kg = self.world.snapshot()
        named = [m.resolved for m in mentions_of(self.world, kg, out.text) if m.resolved]
        with stage('already'):
            try:
                said = already_said(self.world, self.llm, kg, out.text, named, out.trace)
            except LLMError:
                return
        if said:
            out.already = said
            out.errors = [RESTATED]  # the log keeps what the talk ended with

    def _judge_part(self, a: PartAnswer) -> Judged[Completion] | None:
        """Return what the part checks (:data:`.pipeline.PART_CHECKS`) leave; None: skip."""
        run(PART_CHECKS, a, self.settings, a.loop.trace)
        return None if a.skipped else a.got

    def _judge_report(self, r: Reading, out: UpdateOutcome) -> None:
        """Run the report checks (:data:`.pipeline.REPORT_CHECKS`) until one refuses or asks."""
        run(REPORT_CHECKS, Report(r, out, self.world, self.llm, self.settings), self.settings,
            out.trace)

    def _narrowed(self, r: Reading) -> bool:
        """Tell whether ``r`` is the first of two readings (``widen``, referents' facts)."""
        return self.settings.prompt_context == WIDEN and r.listing != FULL

    def _widens(self, r: Reading, out: UpdateOutcome) -> bool:
        """Tell whether a reading on the referents' facts is done again on every fact.

        When it was refused or is in doubt (re-prompted, a denied read-back, a settled
        choice, a place amended ...), or a part of it only repeated an earlier part's
        change, unless the full listing is the same, the LLM failed, or the report waits
        on a question to the speaker (the listing cannot answer that).
        """
        if not self._narrowed(r) or out.clarify is not None or \
                not (out.errors or out.trace.doubts or r.restated):
            return False
        if any(isinstance(e, LLMFailure) for e in out.errors):
            return False
        g = r.ctx.grounding
        return g.shown(r.listing, g.about()) != g.shown(FULL, g.about())

    def _reading(self, req: Request, out: UpdateOutcome, listing: str) -> Reading:
        """Return the state of reading ``req``: its context, memory and parts."""
        out.retrieval_seconds = req.retrieval.seconds
        ctx = self.context(req.kg, req.retrieval, req.resolve(), req.text)
        out.context_size = len(ctx.grounding.facts)
        recalled = (self.memory.update_context(req.text, req.retrieval.facts)
                    if self.memory is not None else '')
        return Reading(req, ctx, {'role': 'system', 'content': self.system()}, recalled,
                       req.parts(self.settings.split_clauses), req.kg, listing=listing,
                       how=self.settings.reading_confidence)

    # -- asking back (:mod:`.open_questions`) -----------------------------------------
    def expire(self, now: float | None = None, source: str = 'nl') -> list[int]:
        """Log every question past its time as not applied; return their event ids."""
        return self.questions.expire(now, source)

    def pending(self) -> tuple[int, dict[str, Any]] | None:
        """Return (event id, question) of the open question, if any."""
        return self.questions.pending()

    def answers(self, text: str) -> bool:
        """Tell whether ``text`` answers the open question (no LLM call)."""
        return self.questions.answers(text) or self.questions.correcting(text) is not None

    def answer(self, text: str, *, source: str = 'nl') -> UpdateOutcome | None:
        """Complete the open question's report with ``text``; None if it does not answer.

        A bare answer ("yes", "the second one") costs no LLM call; an answer that carries a
        correction ("No, she turned it on.") is read with the report in one call
        (:mod:`.corrections`) and its reading asked about once more. A "no" that leaves no
        reading to ask about is checked (:mod:`.already`, a yes/no per fact it may restate)
        for a report of what already holds: "It is already there."
        """
        open_ = self.questions.correcting(text)
        if open_ is None:
            asked = self.questions.pending()
            out = self.questions.answer(text, source=source)
            if out is not None and asked is not None and asked[1].get('kind') == READINGS \
                    and not out.applied and out.question is None and self.settings.ask_already:
                self._already_after(out)
            return out
        qid, pending = open_
        began, trace = time.perf_counter(), Trace()
        got = read_correction(self.world, self.llm, self.retriever, self.settings,
                              self.system(), pending.text, pending.question, text, trace)
        if got.update is None and content_of(text)[0] is not None:
            out = self.questions.answer(text, source=source)  # the bare yes or no it begins with
            if out is not None:
                out.notes.append(f'the correction did not read ({got.why}): taken as '
                                 f'"{content_of(text)[0]}"')
            return out
        return self.questions.corrected(qid, pending, got.update, got.why, text, source,
                                        began, trace)

    def _refuse(self, out: UpdateOutcome, began: float, source: str, utterance: str | None,
                why: str) -> UpdateOutcome:
        out.errors = [why]
        return self._finish(out, began, source, utterance)

    def _finish(self, out: UpdateOutcome, began: float, source: str,
                utterance: str | None) -> UpdateOutcome:
        info = out.event_info()
        kept = {'source': source, 'utterance': utterance or out.text, 'update': out.update,
                'info': info}
        with stage('commit'):
            if out.clarify is not None:
                info['clarify'] = out.clarify
                res = self.world.reject(out.errors, status=EventStatus.CLARIFY, **kept)
            elif out.errors or out.update is None:
                res = self.world.reject(out.errors or ['no update produced'], **kept)
            else:
                res = self.world.apply(out.update, source=source, utterance=utterance,
                                       verify=self.settings.verify, info=info)
                out.errors = res.errors
        out.applied, out.event_id = res.applied, res.event_id
        out.seconds = time.perf_counter() - began
        return out
