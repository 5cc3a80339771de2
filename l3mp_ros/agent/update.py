# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3 (L3M+P): NL knowledge-graph updates, grounded, verified and retried.

retrieve (by default the ``link`` retriever: no LLM call) → refuse a report naming
someone no entity carries (:mod:`.clauses`) → resolve the report's mentions to the
entities it refers to (:mod:`l3mp_ros.retrieval.mentions`) → cut the report into the
changes it tells (:func:`.clauses.split_report`) → per part, one prompt whose static part
(role, the domain's predicates, examples derived from the domain) comes first and whose
variable part lists the context's typed entities, its facts and the report → a reply
constrained by a JSON schema built for this context (:mod:`.grounding`: with referents,
only changes among them, i.e. facts that do not hold yet and unary facts flipped;
otherwise ADD items typed per predicate signature; REMOVE items chosen among the retrieved
facts) → the domain's rules finish the update (:mod:`l3mp_ros.world.complete`: removals a
functional or exclusive rule forces, no-op ADDs dropped with a note) → semantic checks
(every stated fact is about something the report mentions, and about something its part
names) → verify → re-prompt with the error sentences (bounded) → facts saying different
things of one thing settled by a numbered choice asked in both orders → a yes/no reading of
each stated fact, entities written as the report wrote them → the parts' updates compose in
order (a part with no change keeps the whole report out) → apply atomically with
provenance, or reject and record why. Nothing unverified is applied (with
``verify=False``, the paper's ablation, only applicability is checked, without retries).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import default
from ..llm.protocol import ChatLLM, LLMError, Usage, llm_failure
from ..retrieval.base import Retrieval, Retriever, facts_about
from ..retrieval.link import named_in
from ..retrieval.mentions import candidates, resolve, surfaces
from ..world.complete import Completion, complete
from ..world.kg import Fact, KnowledgeGraph, Update
from ..world.model import WorldModel
from . import clarify
from .examples import system_for
from .grounding import grounded_message
from .request import Request
from .update_checks import (
    CONFIRM_MIN_YES,
    STATIVE,
    Going,
    PartScope,
    ReadBack,
    changed_before,
    going,
    irrelevant,
    own_content,
    part_scope,
    relevance_errors,
    unknown_names_error,
)
from .update_grounding import UpdateGrounding

if TYPE_CHECKING:
    from ..memory.hooks import Memory

NO_CHANGE = 'the report states no change that the domain can represent'
RESTATED = 'every fact of the answer already holds: no change to apply'


@dataclass
class UpdateOutcome:
    """Result of one NL update."""

    text: str
    applied: bool = False
    update: Update | None = None
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    event_id: int | None = None
    context_size: int = 0
    implied: list[tuple[Fact, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)  # model, endpoint, reply hash
    history: list[dict[str, Any]] = field(default_factory=list)
    #: the report waits for the speaker to say which thing it means (:mod:`.clarify`)
    question: str | None = None
    clarify: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'text': self.text, 'applied': self.applied,
                'diff': self.update.to_json() if self.update else None,
                'implied': [{'fact': list(f.triplet()), 'rule': r} for f, r in self.implied],
                'notes': self.notes, 'errors': self.errors, 'attempts': self.attempts,
                'usage': self.usage.to_dict(), 'seconds': round(self.seconds, 4),
                'retrieval_seconds': round(self.retrieval_seconds, 4),
                'event_id': self.event_id, 'context_size': self.context_size,
                'question': self.question, 'clarify': self.clarify,
                'history': self.history}


@dataclass
class ReportContext:
    """What one report's answer may use: the grounding, and whom the report is about."""

    grounding: UpdateGrounding
    mentioned: set[str]  # the entities the report refers to (the relevance rule's subjects)
    written: dict[str, str]  # how the report wrote the entities it settled on
    mentions: list[Any] = field(default_factory=list)  # the report's resolved mentions


@dataclass
class Reading:
    """One report read part by part: the state Algorithm 3's loop carries."""

    req: Request
    ctx: ReportContext
    system: dict[str, str]  # the static system message
    recalled: str  # what episodic memory recalls for the report ('' without memory)
    parts: list[str]
    work: KnowledgeGraph  # the graph after the parts accepted so far
    done: list[Completion] = field(default_factory=list)
    earlier: set[str] = field(default_factory=set)  # what earlier parts named or changed
    restated: bool = False  # a part repeated what holds
    last: Completion | None = None  # the answer of the part that stopped the loop
    errors: list[str] = field(default_factory=list)

    @property
    def several(self) -> bool:
        """Tell whether the report was cut into parts."""
        return len(self.parts) > 1

    def accept(self, completion: Completion) -> None:
        """Compose one part's change onto the ones before it."""
        self.done.append(completion)
        self.earlier |= {a for f in completion.update.remove | completion.update.add
                         for a in f.args}
        self.work = self.work.copy()
        self.work.apply(completion.update)


@dataclass
class Answer:
    """One part's answer, and how it was asked (to ask once more)."""

    completion: Completion | None
    errors: list[str]
    kind: str  # ok, no_change, restated or error (see NLUpdater._ask)
    ask: list[dict[str, str]]
    scope: PartScope | None
    going: Going | None


class NLUpdater:
    """Run Algorithm 3 against a world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever, *,
                 max_attempts: int = default('max_attempts'), verify: bool = True,
                 max_tokens: int = 200, max_changes: int = default('max_report_facts'),
                 max_stated: int = 5, max_per_part: int = 3,
                 per_slot: int = 30,
                 split_clauses: bool = True, confirm: bool = True,
                 resolve_mentions: bool = True, changes_only: bool = True,
                 ask_back: bool = True, clarify_timeout: float = default('clarify_timeout'),
                 confirm_min_yes: float = CONFIRM_MIN_YES,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.llm = llm
        self.retriever = retriever
        self.max_attempts = max(1, max_attempts)
        self.verify = verify
        self.max_tokens = max_tokens
        self.max_changes = max_changes
        self.max_stated = max_stated
        # one clause seldom states more; a small model pads its answer with repeats up to
        # the schema's limit, each costing generation time
        self.max_per_part = max(1, min(max_per_part, max_stated))
        self.per_slot = per_slot
        self.split_clauses = split_clauses
        self.confirm = confirm
        self.confirm_min_yes = confirm_min_yes  # least P(yes) a read-back "yes" needs
        self.resolve_mentions = resolve_mentions
        self.changes_only = changes_only
        self.ask_back = ask_back  # keep a report pending and ask when its referent is a guess
        self.clarify_timeout = clarify_timeout
        self._system: str | None = None

    def system(self) -> str:
        """Return the static system prompt (built once from the domain)."""
        if self._system is None:
            self._system = system_for('update', self.world.domain, self.world.constraints)
        return self._system

    def changing(self) -> frozenset[str]:
        """Return the predicates a report may change.

        Those some action changes, and those a functional or exclusive rule governs
        (where a person or a thing is: people move things no action of the robot moves).
        Relations nothing changes and no such rule keeps single (who owns what, which
        door joins which room) are not offered when only changes can be written.
        """
        rules = {p for r in self.world.constraints.rules
                 if r.kind in ('functional', 'exclusive') for p in r.predicates}
        return frozenset((self.world.domain.fluent_predicates() | rules)
                         & set(self.world.domain.predicates))

    def subject_predicates(self) -> frozenset[str]:
        """Return the predicates whose facts change about their first argument.

        Those some action changes, and those a functional or exclusive rule keys on the
        first argument (where a person is); not ``room_has``, which a rule keys on the
        furniture it places.
        """
        keyed = {p for r in self.world.constraints.rules
                 if r.kind in ('functional', 'exclusive') and r.key == 0 for p in r.predicates}
        return frozenset((self.world.domain.fluent_predicates() | keyed)
                         & set(self.world.domain.predicates))

    def grounding(self, kg: Any, retrieval: Retrieval,
                  about: Iterable[str] = ()) -> UpdateGrounding:
        """Return the entities and facts this report's answer may use.

        ``about``: the entities the report refers to (:func:`~l3mp_ros.retrieval.mentions.
        referents`); the answer's facts must be about one of them. Without them, the
        retriever's mentions. The retrieved facts are completed with every changeable
        fact about those entities: a retriever that missed where the remote lies would
        otherwise make "Joshua picked up the remote" impossible to write right.
        """
        ranked = retrieval.info.get('ranked') or sorted(retrieval.entities)
        about = list(about)
        mentioned = about or retrieval.info.get('mentioned')
        facts = set(retrieval.facts) | facts_about(kg, mentioned or (),
                                                   self.subject_predicates())
        return UpdateGrounding.build(self.world.domain, kg, [*about, *ranked], facts,
                                     per_slot=self.per_slot, max_items=self.max_stated,
                                     max_changes=self.max_changes,
                                     subjects=frozenset(mentioned) if mentioned else None,
                                     objects=frozenset(about) if about else None,
                                     changes_only=bool(about) and self.changes_only,
                                     changing=self.changing())

    def context(self, kg: Any, text: str, retrieval: Retrieval) -> ReportContext:
        """Return the context of one report: retrieval, mention resolution, grounding."""
        mentions = (resolve(kg, text, steady=self.world.domain.static_predicates(),
                             predicates=self.world.domain.predicates)
                    if self.resolve_mentions else [])
        about = candidates(mentions)
        grounding = self.grounding(kg, retrieval, about)
        mentioned = set(about or retrieval.info.get('mentioned') or ())
        return ReportContext(grounding, mentioned, surfaces(mentions), mentions)

    # -- Algorithm 3 -------------------------------------------------------------------
    def run(self, text: str, *, source: str = 'nl',
            retrieval: Retrieval | None = None) -> UpdateOutcome:
        """Update the KG from one report (Algorithm 3); never raises for LLM or input errors."""
        began = time.perf_counter()
        out = UpdateOutcome(text=text)
        req = Request.start(self.world, text)
        if req is None:
            return self._refuse(out, began, source, None, 'empty report')
        if self.verify and (why := unknown_names_error(req)):  # before any LLM work
            return self._refuse(out, began, source, req.text, why)
        why = req.retrieve(self.retriever, self.llm, retrieval, out.usage)
        if why is not None:
            return self._refuse(out, began, source, None, why)
        r = self._reading(req, out)  # mentions → grounding → memory → parts
        for part in r.parts:  # one answer per part, composed in order
            answer = self._answer(r, part, out)  # propose, verify, re-prompt (bounded)
            if self._changes_nothing(r, part, answer):  # "still ...", or a repeat
                continue
            if not answer.errors and self.confirm and self.verify:
                self._read_back(r, part, answer, out)  # choice, yes/no, asked once more
            r.last, r.errors = answer.completion, answer.errors
            if r.errors or r.last is None:
                break  # a partial update would be wrong: nothing is applied
            r.accept(r.last)
        self._compose(r, out)  # the parts' net change, or why there is none
        if not out.errors and self.ask_back and self.verify:
            self._doubt(r, out)  # a guessed referent: kept pending, the speaker is asked
        return self._finish(out, began, source, req.text)  # apply with provenance, or reject

    def _reading(self, req: Request, out: UpdateOutcome) -> Reading:
        """Return the state of reading ``req``: its context, memory and parts."""
        out.retrieval_seconds = req.retrieval.seconds
        ctx = self.context(req.kg, req.text, req.retrieval)
        out.context_size = len(ctx.grounding.facts)
        recalled = (self.memory.update_context(req.text, req.retrieval.facts)
                    if self.memory is not None else '')
        return Reading(req, ctx, {'role': 'system', 'content': self.system()}, recalled,
                       req.parts(self.split_clauses), req.kg)

    def _answer(self, r: Reading, part: str, out: UpdateOutcome) -> Answer:
        """Ask for one part's change.

        When the answer repeats an earlier part's change although the part names
        something no earlier part changed, it is asked once more with those changes
        barred.
        """
        kg, text, g, mentioned = r.req.kg, r.req.text, r.ctx.grounding, r.ctx.mentioned
        ask = [r.system, {'role': 'user', 'content': r.recalled + grounded_message(
            kg, g.entities, g.facts, 'Report', part if r.several else text,
            whole=text if r.several else None)}]
        scope = part_scope(kg, part, mentioned, r.earlier) if r.several and self.verify else None
        goes = going(self.world, kg, part if r.several else text) if self.verify else None
        r.earlier |= named_in(kg, part)
        a = Answer(*self._ask(ask, g, r.work, mentioned, out, part=scope, going=goes),
                   ask, scope, goes)
        if (r.several and a.kind == 'restated' and a.completion is not None and r.done
                and self.verify and not STATIVE.search(part)
                and changed_before(kg, a.completion.asked) and own_content(kg, part, r.done)):
            done = frozenset(f for c in r.done for f in c.update.add | c.update.remove)
            a.completion, a.errors, a.kind = self._ask(ask, g, r.work, mentioned, out,
                                                       part=scope, exclude=done, going=goes)
            if a.completion is not None:
                a.completion.notes.append(f'the first answer for "{part}" repeated an '
                                          "earlier part's change; asked again without it")
        return a

    @staticmethod
    def _changes_nothing(r: Reading, part: str, a: Answer) -> bool:
        """Tell whether a part is skipped: it says "still", or repeats an earlier change.

        A part of a report with no change that does not say so makes the whole report
        fail (its errors are set).
        """
        if not r.several:
            return False
        if a.kind == 'no_change':
            if STATIVE.search(part):
                return True  # "X is still in the office": nothing to change, as said
            a.errors = [f'no change found for the part "{part}" of the report; '
                        'nothing is applied (a partial update would be wrong)']
            return False
        if a.kind == 'restated' and a.completion is not None and (
                STATIVE.search(part) or (changed_before(r.req.kg, a.completion.asked)
                                         and not own_content(r.req.kg, part, r.done))):
            r.restated = True
            return True
        return False

    def _read_back(self, r: Reading, part: str, a: Answer, out: UpdateOutcome) -> None:
        """Read the answer back (:class:`.update_checks.ReadBack`).

        The read-back most often denies a fact the model added beside the right one
        ("repaired" → also "the room is no longer lit"): the part is asked once more with
        the denied facts barred, and the new answer must pass the same read-back.
        """
        check = ReadBack(self.llm, self.world, self.confirm_min_yes)
        asked = part if r.several else None
        read: dict[str, bool] = {}  # read-back answers, by statement
        assert a.completion is not None
        a.completion, a.errors, denied = check.check(r.req.text, asked, a.completion, r.work,
                                                     out, r.ctx.written, read)
        if not denied:
            return
        again, errors, _ = self._ask(a.ask, r.ctx.grounding, r.work, r.ctx.mentioned, out,
                                     part=a.scope, exclude=frozenset(denied), going=a.going)
        if again is not None and not errors:
            again, errors, _ = check.check(r.req.text, asked, again, r.work, out,
                                           r.ctx.written, read)
        if again is not None and not errors:
            a.completion, a.errors = again, []
            a.completion.notes.extend(f'asked again without {f.text()}: the report does not '
                                      'say it' for f in sorted(denied))

    @staticmethod
    def _compose(r: Reading, out: UpdateOutcome) -> None:
        """Set the outcome: the parts' net change and its notes, or why there is none."""
        out.errors = list(r.errors)
        if r.errors:
            if r.last is not None:
                out.update = r.last.update
                out.implied = list(r.last.implied)
                out.notes = list(r.last.notes) + list(r.ctx.grounding.notes)
            return
        if not r.done:
            out.errors = [RESTATED if r.restated else NO_CHANGE]
            return
        net = r.req.kg.diff_to(r.work)
        out.update = net
        out.implied = [(f, rule) for c in r.done for f, rule in c.implied if f in net.remove]
        out.notes = [n for c in r.done for n in c.notes] + list(r.ctx.grounding.notes)
        if r.several:
            out.notes.append(f'report read in {len(r.parts)} parts: ' + ' | '.join(r.parts))

    def _doubt(self, r: Reading, out: UpdateOutcome) -> None:
        """Keep the report pending and ask which thing it means when that was a guess."""
        stated = [c.stated for c in r.done]
        doubt = clarify.doubt(r.req.kg, r.ctx.mentions, stated, self.world)
        if doubt is None:
            return
        out.question = doubt.question()
        out.clarify = {**doubt.to_json(), 'text': r.req.text,
                       'stated': [u.to_json() for u in stated],
                       'expires': time.time() + self.clarify_timeout}
        out.errors = [f'the report does not say which {doubt.mention} it means; '
                      f'asked: {out.question}']

    # -- asking back (:mod:`.clarify`) ------------------------------------------------
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

    def answers(self, text: str) -> bool:
        """Tell whether ``text`` answers the open question (no LLM call)."""
        open_ = self.pending()
        return open_ is not None and clarify.pick(
            self.world.snapshot(), open_[1].get('options') or [], text) is not None

    def answer(self, text: str, *, source: str = 'nl') -> UpdateOutcome | None:
        """Complete the open question's report with ``text``; None if it does not answer.

        The stated change is redone with the chosen thing, completed and verified on the
        graph as it is now, then applied (or rejected) with ``info.clarifies``.
        """
        began = time.perf_counter()
        open_ = self.pending()
        if open_ is None:
            return None
        qid, data = open_
        kg = self.world.snapshot()
        chosen = clarify.pick(kg, data.get('options') or [], text)
        if chosen is None:
            return None
        report = str(data.get('text') or '')
        out = UpdateOutcome(text=report)
        info: dict[str, Any] = {'clarifies': qid, 'answer': text}
        utterance = f'{report} [{text.strip()}]'
        if chosen == clarify.CANCEL:
            out.errors = ['the speaker withdrew the report: nothing is applied']
            res = self.world.reject(out.errors, source=source, utterance=utterance, info=info)
        else:
            stated = [Update.from_json(u) for u in data.get('stated') or []]
            net, errors = clarify.substituted(kg, stated, str(data.get('chosen')), chosen,
                                              self.world)
            info['chosen'] = chosen
            out.update = net
            out.errors = [f'with {chosen} the report no longer fits the world model: '
                          + '; '.join(errors)] if net is None else []
            if net is None:
                res = self.world.reject(out.errors, source=source, utterance=utterance,
                                        info=info)
            else:
                res = self.world.apply(net, source=source, utterance=utterance,
                                       verify=True, info=info)
                out.errors = res.errors
        out.applied, out.event_id = res.applied, res.event_id
        out.seconds = time.perf_counter() - began
        return out

    def _ask(self, messages: list[dict[str, str]], grounding: UpdateGrounding, kg: Any,
             mentioned: set[str], out: UpdateOutcome, part: PartScope | None = None,
             exclude: frozenset[Fact] = frozenset(), going: Going | None = None
             ) -> tuple[Completion | None, list[str], str]:
        """Ask for one answer, re-prompting with errors; return (completion, errors, kind).

        ``kind`` is ``ok``, ``no_change`` (empty answer), ``restated`` (everything stated
        already holds in ``kg``) or ``error``. With ``part``, stated facts must be about
        what that part names (see :func:`.update_checks.part_scope`). Facts in ``exclude``
        cannot be written.
        """
        excluded: set[Fact] = set(exclude)  # items an earlier answer got wrong
        completion: Completion | None = None
        errors: list[str] = []
        attempts = self.max_attempts if self.verify else 1
        for attempt in range(1, attempts + 1):
            out.attempts += 1
            try:
                reply = self.llm.chat(messages, schema=grounding.update_schema(
                    frozenset(excluded), self.max_per_part if part is not None else None),
                    schema_name='kg_update', max_tokens=self.max_tokens)
            except LLMError as exc:
                return None, [llm_failure(exc)], 'error'
            out.usage.add(reply)
            out.provenance = {
                'model': getattr(getattr(self.llm, 'config', None), 'model', None),
                'endpoint': getattr(self.llm, 'base_url', None),
                'reply_sha256': hashlib.sha256((reply.text or '').encode()).hexdigest()}
            stated, errors = grounding.read_update(
                reply.data if reply.data is not None else reply.text, strict=self.verify)
            completion, kind = None, 'error'
            if not errors:
                completion, errors, kind, off = self._judge(stated, kg, mentioned, part, going)
                excluded |= off
            out.history.append({'attempt': attempt, 'reply': reply.text[:2000],
                                'errors': list(errors)})
            if kind != 'error':
                return (None if kind == 'no_change' else completion), errors, kind
            messages = messages + [
                {'role': 'assistant', 'content': reply.text},
                {'role': 'user', 'content': 'Your answer has errors:\n- ' + '\n- '.join(errors)
                 + '\nAnswer again with the corrected JSON.'}]
        return completion, errors, 'error'

    def _judge(self, stated: Update, kg: Any, mentioned: set[str], part: PartScope | None,
               going: Going | None) -> tuple[Completion | None, list[str], str, set[Fact]]:
        """Complete a read answer by the rules and check it.

        Return (completion, errors, kind, off): ``off`` are the stated facts outside what
        the report or its part is about (barred from the next attempt).
        """
        completion = complete(kg, stated, self.world.constraints, self.world.domain)
        if stated.is_empty():
            return None, [NO_CHANGE], 'no_change', set()
        if completion.update.is_empty():
            # Everything stated already holds: the report restates the graph (or the model
            # could not say the change). A re-prompt pushed a small model into inventing a
            # change, so this ends here, as a rejection.
            return completion, [RESTATED] + list(completion.notes), 'restated', set()
        off = irrelevant(completion.stated, mentioned) if self.verify else set()
        errors = relevance_errors(off)
        if part is not None and not errors:
            off = part.outside(completion.stated)
            kept = Update.of(completion.stated.remove - off, completion.stated.add - off)
            trimmed = complete(kg, kept, self.world.constraints,
                               self.world.domain) if off else None
            if trimmed is not None and not trimmed.update.is_empty():
                # keep what this part says, drop what belongs elsewhere
                completion = trimmed
                completion.notes.extend(f'dropped {f.text()}: not about anything '
                                        f'"{part.text}" names' for f in sorted(off))
            else:
                errors = [f'{f.text()} is not about anything "{part.text}" names; answer '
                          'only what this part says' for f in sorted(off)]
        if not errors and going is not None and going.missing(completion.stated):
            # "Bob came into the mailroom" answered with the mailroom door only: a partial
            # update would be applied as if it were the whole
            errors = [going.error(completion.stated)]
        if not errors and self.verify:
            errors = self.world.verifier.check(kg, completion.update)
        return completion, errors, 'error' if errors else 'ok', off

    def _refuse(self, out: UpdateOutcome, began: float, source: str, utterance: str | None,
                why: str) -> UpdateOutcome:
        out.errors = [why]
        return self._finish(out, began, source, utterance)

    def _finish(self, out: UpdateOutcome, began: float, source: str,
                utterance: str | None) -> UpdateOutcome:
        info: dict[str, Any] = {'attempts': out.attempts, 'usage': out.usage.to_dict()}
        info.update(out.provenance)
        if out.implied or out.notes:
            info['implied'] = [{'fact': list(f.triplet()), 'rule': r} for f, r in out.implied]
            info['notes'] = list(out.notes)
        if out.clarify is not None:
            info['clarify'] = out.clarify
            res = self.world.reject(out.errors, source=source, utterance=utterance or out.text,
                                    update=out.update, info=info, status='clarify')
        elif out.errors or out.update is None:
            res = self.world.reject(out.errors or ['no update produced'], source=source,
                                    utterance=utterance or out.text, update=out.update,
                                    info=info)
        else:
            res = self.world.apply(out.update, source=source, utterance=utterance,
                                   verify=self.verify, info=info)
            out.errors = res.errors
        out.applied = res.applied
        out.event_id = res.event_id
        out.seconds = time.perf_counter() - began
        return out
