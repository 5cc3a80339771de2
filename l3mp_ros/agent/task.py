# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4 (L3M+P): plan an NL task from the KG.

retrieve (``link`` by default: no LLM call) → the LLM writes the goal as JSON constrained
by a schema built for the context (:mod:`.grounding`: literals over typed context
entities, ``not``, ``forall``/``exists`` over domain types) after a static prompt with
examples derived from the domain → semantic checks (the goal names something the task
mentions; a goal that already holds is flagged once, since a task asks for a change) →
the planner builds the problem from the retrieved subgraph (widening the context when a
needed fact is missing) and plans → if the goal is invalid or no plan exists, re-prompt
with the reason (bounded). Endpoints without structured output may answer a PDDL goal
string, which the planner's tolerant parser reads.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import schemas, stages
from ..config import Config, default
from ..llm.handles import tokenizer
from ..llm.parse import strip_fences
from ..llm.protocol import ChatLLM, LLMError, LLMReply
from ..planning.planner import Planner, PlanResult
from ..planning.status import Status
from ..retrieval.base import Retrieval, Retriever
from ..retrieval.mentions import candidates, possessors, surfaces
from ..stages import stage
from ..text import STOPWORDS, name_words, stem, words
from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph
from ..world.model import WorldModel
from .attempts import Attempts, Chat, Judged, Messages, Trace, Traced, Verdict
from .clauses import named_as_source, split_task
from .examples import system_for
from .goal_checks import left_out, uncovered, unmentioned
from .goal_formula import exists_type
from .goal_grounding import MAX_QUANTIFIED, GoalGrounding
from .goal_read_back import GoalReadBack
from .goal_rewrites import (
    drop_held,
    extend_goal,
    last_condition,
    reconcile_goal,
    settle_contradictions,
    settle_quantified,
    turn_one_way,
)
from .grounding import FULL, WIDEN, grounded_message
from .kinds import ALL, kinds
from .request import Request

if TYPE_CHECKING:
    from ..memory.hooks import Memory


ALREADY_HOLDS = ('the goal already holds in the current state, but the task asks for a '
                 'change: write the state the task wants')
# words by which a part of a task speaks of something another part names
PRONOUNS = frozenset('it them him her his its their they he she one'.split())
# words by which a task speaks of a kind of thing rather than of one thing
QUANTIFIERS = frozenset('all every each any none no nothing everything anything some a an '
                        'both either neither whichever whatever'.split())
_ids = itertools.count(1)
GOAL_TOKENS = 300  # tokens one goal may take
MAX_KINDS = 3  # kinds of one task asked about


def new_task_id() -> str:
    """Return a process-unique task id."""
    return f'task-{int(time.time())}-{next(_ids)}'


@dataclass
class TaskOutcome(Traced):
    """Result of one task: the goal, the plan and what it cost."""

    task_id: str
    text: str | None
    status: Status = Status.ERROR
    goal: str | None = None
    plan: PlanResult | None = None
    errors: list[str] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)  # attempts, usage, history
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    context_size: int = 0

    @property
    def steps(self) -> list[str]:
        """Return the plan's steps, empty without a plan."""
        return list(self.plan.steps) if self.plan else []

    def to_json(self) -> dict[str, Any]:
        """Return the ``l3mp/plan/v1`` body."""
        body = self.plan.to_json() if self.plan else schemas.plan(status=self.status)
        body.update({
            'task_id': self.task_id, 'utterance': self.text,
            'goal': self.goal, 'status': self.status, 'steps': self.steps,
            'errors': self.errors, 'attempts': self.attempts,
            'tokens': {'prompt': self.usage.prompt_tokens,
                       'completion': self.usage.completion_tokens},
            'llm_calls': self.usage.calls, 'stages': self.trace.stages.to_json(),
        })
        timings = dict(body.get('timings') or {})
        timings.update({'retrieval': round(self.retrieval_seconds, 4),
                        'total_task': round(self.seconds, 4)})
        body['timings'] = timings
        return body


def extract_goal(data: Any, text: str) -> str:
    """Return the goal text from a JSON reply or from free text."""
    if isinstance(data, dict):
        for key in ('goal', ':goal', 'Goal'):
            if isinstance(data.get(key), str):
                return data[key]
    return strip_fences(text or '')


def named_types(domain: DomainSchema, text: str, *,
                plural: bool = False) -> frozenset[str]:
    """Return the types a task names by a word of theirs ("every room"), with their subtypes.

    ``plural``: only types named in the plural ("the lights", "Lena's tubes").
    """
    said = set(words(text))
    stems = said | {stem(w) for w in said}
    out: set[str] = set()
    for t in domain.types:
        tw = [w for w in name_words(t) if w not in STOPWORDS and len(w) > 2
              and not w.isdigit()]
        plurals = {w + 's' for w in tw} | {w + 'es' for w in tw} | {
            w[:-1] + 'ies' for w in tw if w.endswith('y')}
        many = bool(plurals & said)
        if many or (not plural and any(w in stems for w in tw)):
            out |= domain.subtypes(t)
    return frozenset(out)


def spans(text: str, parts: list[str]) -> list[tuple[str, range]]:
    """Return each of ``text``'s ``parts`` found in it, in order, with its word positions."""
    low, at, out = ' '.join(text.lower().split()), 0, []
    for part in parts:
        p = ' '.join(part.lower().split())
        k = low.find(p, at)
        if k < 0:
            continue
        first = len(words(low[:k]))
        out.append((' '.join(part.split()), range(first, first + len(words(p)))))
        at = k + len(p)
    return out


def quantifiable(domain: DomainSchema, text: str) -> frozenset[str] | None:
    """Return the types a goal for ``text`` may quantify over (None: any type).

    Only a task that speaks of kinds of things ("every room", "a charged tablet", "the
    lights") gets ``forall``/``exists``: offered to a task about named things, a small
    model reaches for them and writes nonsense. Of the types, those the task names.
    """
    cue = bool(QUANTIFIERS & set(words(text))) or bool(named_types(domain, text, plural=True))
    if not cue:
        return frozenset()
    return named_types(domain, text) or None


@dataclass
class Asking:
    """One task put to the LLM: the state Algorithm 4's loop carries."""

    req: Request
    grounding: GoalGrounding
    mentioned: set[str]  # the entities the task is about (the goal must name one)
    names: dict[str, str]  # how the task wrote the entities it settled on
    recalled: str  # what memory recalls for the task ('' without memory)
    parts: list[str]  # the requests of the task (descriptions left out)
    messages: Messages  # the request
    schema: dict[str, Any]
    asker: GoalReadBack  # yes/no questions about the goal's literals
    out: TaskOutcome  # the goal, plan and status of the latest answer
    flagged: bool = False  # a suspect goal was read back (once per task)
    asked_left_out: bool = False  # what the planned goal leaves out was asked about (once)
    asked_kinds: bool = False  # what must hold of every one of a kind was asked (once)


@dataclass
class TaskSettings:
    """How Algorithm 4 reads tasks (defaults: :class:`~l3mp_ros.config.Config`)."""

    max_attempts: int = default('max_attempts')
    per_slot: int = default('per_slot')
    resolve_mentions: bool = default('resolve_mentions')
    read_back: bool = default('read_back')  # yes/no questions about a suspect goal's literals
    ask_left_out: bool = default('ask_left_out')  # what the task wants of a thing left out
    ask_kinds: bool = default('ask_kinds')  # what must hold of every one of a kind missed
    split_clauses: bool = default('split_clauses')
    prompt_context: str = default('prompt_context')  # what the prompt lists (Grounding.shown)
    answer_handles: bool = default('answer_handles')  # names in goals as short handles

    @classmethod
    def from_config(cls, cfg: Config) -> TaskSettings:
        """Return the settings of ``cfg``'s language section (one name end to end)."""
        given = cfg.section('language')
        return cls(**{f.name: given[f.name] for f in fields(cls) if f.name in given})

    @property
    def attempts(self) -> int:
        """Return how many goals one task may get."""
        return max(1, self.max_attempts)


class TaskPlanner:
    """Run Algorithm 4 against a world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever | None,
                 planner: Planner, settings: TaskSettings | None = None, *,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.llm = llm
        self.retriever = retriever
        self.planner = planner
        self.settings = settings if settings is not None else TaskSettings()
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self._system: str | None = None

    def system(self) -> str:
        """Return the static system prompt (built once from the domain)."""
        if self._system is None:
            self._system = system_for('goal', self.world.domain, self.world.constraints)
        return self._system

    def plan_goal(self, goal: str, *, task_id: str | None = None, text: str | None = None,
                  context: Any = 'auto') -> TaskOutcome:
        """Plan a PDDL goal directly (no LLM)."""
        began = time.perf_counter()
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text, goal=goal,
                          trace=Trace(attempts=1))
        kg = self.world.snapshot()
        out.plan = self.planner.plan(kg, goal, context=context, strict=True)
        out.status = out.plan.status
        out.errors = list(out.plan.errors)
        out.seconds = time.perf_counter() - began
        return out

    # -- Algorithm 4 -------------------------------------------------------------------
    def run(self, text: str, *, task_id: str | None = None,
            retrieval: Retrieval | None = None) -> TaskOutcome:
        """Plan an NL task (Algorithm 4); never raises for LLM, goal or planner failures.

        The outcome's ``trace.stages`` says where the time went (:mod:`l3mp_ros.stages`).
        """
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text)
        self.planner.warm()  # the engines load while the model writes the goal
        with stages.recording(out.trace.stages):
            return self._run(out, retrieval)

    def _run(self, out: TaskOutcome, retrieval: Retrieval | None) -> TaskOutcome:
        began, text = time.perf_counter(), out.text or ''
        req = Request.start(self.world, text)
        if req is None:
            out.errors = ['empty task']
            return self._done(out, began)
        with stage('retrieval'):
            why = req.retrieve(self.retriever, self.llm, retrieval, out.usage)
        if why is not None:
            out.errors = [why]
            return self._done(out, began)
        with stage('context'):
            a = self._asking(req, out)  # mentions → grounding → memory → parts → request
        loop = Attempts(self.llm, out.trace, self.settings.attempts)
        # propose (by parts first), check and plan; re-prompt with why the goal failed
        with stage('propose'):
            got = loop.run(a.messages, partial(self._propose, a), partial(self._judge, a))
        if got.verdict is Verdict.LLM_ERROR:
            out.status, out.errors = Status.ERROR, got.errors
        if self.memory is not None:
            self.memory.task_done(req.text, out.goal, out.status, req.kg)
        return self._done(out, began)

    def _asking(self, req: Request, out: TaskOutcome) -> Asking:
        """Return the state of asking for ``req``'s goal: grounding, memory, parts."""
        r = req.retrieval
        out.retrieval_seconds = r.seconds
        out.context_size = len(r.facts)
        ranked = r.ranked or sorted(r.entities | {a for f in r.facts for a in f.args})
        about: list[str] = []
        types: frozenset[str] | None = None
        names: dict[str, str] = {}
        if self.settings.resolve_mentions:
            mentions = req.resolve()
            names = surfaces(mentions)
            types = quantifiable(self.world.domain, req.text)
            about = list(dict.fromkeys([*candidates(mentions), *possessors(
                req.kg, req.text, kinds=types != frozenset())]))
        grounding = GoalGrounding.build(self.world.domain, req.kg, [*about, *ranked], r.facts,
                                        per_slot=self.settings.per_slot,
                                        constants=frozenset(about) if about else None,
                                        quantified=types)
        mentioned = set(about or r.mentioned)
        recalled = (self.memory.task_context(req.kg, req.text, r.facts, r.entities)
                    if self.memory is not None else '')
        messages = self._request(req.kg, grounding, recalled, req.text)
        schema = grounding.goal_schema()
        parts = (split_task(req.text, req.lexicon) if self.settings.split_clauses
                 else [req.text])  # "Laura's phone is ringing. Please answer it."
        return Asking(req, grounding, mentioned, names, recalled, parts, messages, schema,
                      GoalReadBack(self.llm, self.world.domain, self.settings.read_back), out)

    def _propose(self, a: Asking, messages: Messages, attempt: int) -> LLMReply:
        """Ask for the goal (first by parts, when there are several)."""
        if attempt == 1 and a.parts != [' '.join(a.req.text.split())]:  # or one described
            return self._by_parts(a, a.out.trace)
        return self._chat(a.out.trace, a.schema)(messages)

    def _judge(self, a: Asking, reply: LLMReply) -> Judged[PlanResult]:
        """Check a goal and plan it; a goal that failed is re-prompted with the reason."""
        out = a.out
        goal, errors, notes = self._check(a, reply, out)  # rules, held, mentions
        if errors:
            self._narrow(a, reply, notes)
        self._plan(a, goal, errors, out.attempts, out, notes)  # suspect goals read back once
        verdict, reason = self._verdict(out)
        if not a.asked_kinds and self.settings.ask_kinds and (
                verdict is Verdict.ACCEPTED or out.attempts >= self.settings.attempts):
            a.asked_kinds = True  # on a planned goal, or on the last one the loop gets
            self._kinds(a, reply, out, notes)
            verdict, reason = self._verdict(out)
        if verdict is Verdict.ACCEPTED and not a.asked_left_out and self.settings.ask_left_out \
                and out.goal:
            a.asked_left_out = True
            self._left_out(a, reply, out, notes)
        return Judged(verdict, out.plan, list(out.errors),
                      f'Your goal failed: {reason}\nAnswer again with the corrected JSON goal.',
                      {'goal': out.goal, 'status': out.status, 'errors': list(out.errors),
                       'notes': notes, 'reply': reply.text[:2000]})

    def _narrow(self, a: Asking, reply: LLMReply, notes: list[str]) -> None:
        """After a goal that did not read, put ``?x`` only where the chosen types fit.

        With many types to quantify over ("bring Omar everything put aside for him"), one
        schema branch serves them all and lets ``?x`` stand anywhere; asked again with the
        error, a small model writes the same ill-typed literal. The next answer's
        quantifiers get a branch per type the answer chose, where ``?x`` goes only in
        arguments that type fits.
        """
        q = a.grounding.quantified
        if q is not None and len(q) <= MAX_QUANTIFIED:
            return  # already one branch per type
        data = reply.data.get('goal') if isinstance(reply.data, dict) else None
        chosen = frozenset(
            str(item.get(k)).lower() for item in data or [] if isinstance(item, dict)
            for k in ('forall', 'exists') if isinstance(item.get(k), str)
            and self.world.domain.has_type(str(item[k]).lower()))
        if chosen and len(chosen) <= MAX_QUANTIFIED:
            a.schema = replace(a.grounding, quantified=chosen).goal_schema()
            notes.append(f'asked again with ?x where a {" or ".join(sorted(chosen))} fits')

    def _kinds(self, a: Asking, reply: LLMReply, out: TaskOutcome, notes: list[str]) -> None:
        """Ask what must hold of every one of a kind the task speaks of as a whole.

        "Turn off all the lights, faucets and TVs" answered about three lights: per kind
        the goal does not cover, the model is asked for conditions with ``?x`` for each one
        (constrained to literals where that type fits, or their negation), read as one
        ``forall``. The goal grows by it (replacing what it said of the members), or is
        replaced by it when the two do not plan together (the goal missed the kind, so
        the rest of it is suspect too); kept only when the result plans and does not
        already hold.
        """
        found = uncovered(self.world.domain, a.req.kg, out.goal,
                          kinds(self.world.domain, a.req.kg, a.req.text))
        for kind in found[:MAX_KINDS]:
            schema = a.grounding.kind_schema(kind.type,
                                             self.world.constraints.place_predicates())
            if schema is None:
                continue
            every = ' '.join(w for w in name_words(kind.type) if not w.isdigit())
            said = kind.said if kind.said.split()[0] in ALL else (
                f'{kind.said}: every {every} it means')
            # the request alone, not the answer that missed the kind: shown it, the model
            # copies its predicate ("Lena's tubes" held by Lena, as the one tube was)
            request = a.messages[-1]['content'].removesuffix('\nAnswer:')
            ask = a.messages[:-1] + [{'role': 'user', 'content': (
                f'{request}\nQuestion: the task speaks of {said}. Which condition must hold '
                f'for each of them when the task is done? Write "?x" for each one.\nAnswer:')}]
            try:
                got = self._chat(out.trace, schema)(ask)
            except LLMError as exc:
                notes.append(f'asked about every {kind.type}: {exc}')
                return
            data = got.data.get('goal') if isinstance(got.data, dict) else None
            if isinstance(data, list):
                data, dropped = last_condition(data, self.world.constraints, a.req.text,
                                               a.req.mentions)
                notes += dropped
            more, errors = a.grounding.read_kind(data, kind.type, kind.where)
            if errors or not more:
                notes.append(f'asked about every {kind.type}, the answer did not read: '
                             f'{errors[:1]}')
                continue
            if self.settings.read_back:
                more, flipped = settle_quantified(
                    self.world.domain, a.req.kg, f'(and {more})',
                    lambda f: a.asker.wants(a.req.text, f, a.names, out.trace))
                notes += flipped
            tries = [extend_goal(self.world.domain, a.req.kg, self.world.constraints,
                                 out.goal or '', more), (more, [])]
            for grown, settled in tries:
                if grown is not None and self._adopt(a, grown, out):
                    notes.append(f'asked what must hold of {kind.said} (the goal did not '
                                 f'cover them): {more}' + ''.join(f'; {n}' for n in settled))
                    break
            else:
                notes.append(f'asked what must hold of {kind.said}, the answer {more} does '
                             'not plan: the goal stays')

    def _left_out(self, a: Asking, reply: LLMReply, out: TaskOutcome, notes: list[str]) -> None:
        """Ask what the task wants of each thing it names that a planned goal leaves out.

        "Bring Rachel the juice glass filled with orange juice" answered with the glass in
        Rachel's hand alone: the model is asked, constrained to conditions about the orange
        juice, what must hold of it when the task is done, and the goal grows by that when
        the bigger goal still plans; otherwise the goal stays as it was.
        """
        some = exists_type(self.world.domain, a.req.kg, out.goal)
        for name in left_out(out.goal or '', a.req.kg, a.req.mentions, a.parts)[:2]:
            among, asks = self._beside(a, name)
            if among is not None and not asks:
                continue  # "out of the fridge" only: where something leaves, not a goal
            schema = a.grounding.about_schema(name, among=among, some=some)
            if schema is None:
                continue
            said = a.names.get(name, name.replace('_', ' '))
            where = f' ("{asks[-1]}")' if asks and asks[-1] != ' '.join(a.req.text.split()) \
                else ''
            ask = a.messages + [
                {'role': 'assistant', 'content': reply.text or ''},
                {'role': 'user', 'content': f'The task also names {said}{where}. Which condition '
                                            f'about {said} must hold when the task is done?'}]
            try:
                got = self._chat(out.trace, schema)(ask)
            except LLMError as exc:
                notes.append(f'asked about {name}: {exc}')
                return
            data = got.data if got.data is not None else extract_goal(None, got.text)
            more, errors = a.grounding.read_about(data, some)
            if errors or not more:
                notes.append(f'asked about {name}, the answer did not read: {errors[:1]}')
                continue
            grown, settled = extend_goal(self.world.domain, a.req.kg, self.world.constraints,
                                         out.goal or '', more)
            if grown is not None and self._adopt(a, grown, out):
                notes.append(f'asked what the task wants of {name} (the goal left it out): '
                             f'added {more}' + ''.join(f'; {n}' for n in settled))
            else:
                notes.append(f'asked what the task wants of {name}, the answer {more} does '
                             'not plan with the goal: the goal stays')

    @staticmethod
    def _beside(a: Asking, name: str) -> tuple[frozenset[str] | None, list[str]]:
        """Return what a condition about ``name`` may name besides it, and where it is asked.

        The parts of the task that name ``name``, not as where something is taken from,
        and the things they name: asked what must hold of the freezer in "get Theo's tube
        out of the minus eighty, and lock the freezer afterwards", a small model put the
        tube back in it. A part that speaks of something by a pronoun ("put it back in the
        fridge") may name anything the task names (None), and so may a question about a
        thing no part could be found naming. No part, though parts name it: it is named only
        as where something leaves, and is not asked about.
        """
        told = words(a.req.text)
        among: set[str] | None = {name}
        asks: list[str] = []
        found = False
        for part, at in spans(a.req.text, a.parts):
            here = [m for m in a.req.mentions if m.start in at]
            named = [m for m in here if m.resolved == name]
            found |= bool(named)
            if not any(not named_as_source(told, m.start) for m in named):
                continue  # not named here, or only as where something leaves
            asks.append(part)
            if among is not None and PRONOUNS & set(told[at.start:at.stop]):
                among = None
            if among is not None:
                among |= {c for m in here for c in m.candidates}
        if not found:
            return None, []
        return (frozenset(among) if among is not None else None), asks

    def _check(self, a: Asking, reply: LLMReply,
               out: TaskOutcome) -> tuple[str | None, list[str], list[str]]:
        """Read a goal and settle it against the rules, the state and the task's mentions.

        Return (goal, errors, notes); the goal is also ``out.goal``.
        """
        kg, text, domain = a.req.kg, a.req.text, self.world.domain
        goal, errors = a.grounding.read_goal(
            reply.data if reply.data is not None else extract_goal(None, reply.text))
        notes: list[str] = []
        wants = ((lambda f: a.asker.wants(text, f, a.names, out.trace)) if self.settings.read_back
                 else None)
        if not errors and goal:
            goal, notes = settle_contradictions(domain, kg, goal)
            goal, more, errors = reconcile_goal(domain, kg, self.world.constraints, goal,
                                                wants)
            notes += more
        if not errors and goal and self.settings.resolve_mentions:
            goal, held = drop_held(domain, kg, goal, text, wants)
            notes += held
        if not errors and goal and wants is not None:
            goal, flipped = settle_quantified(domain, kg, goal, wants)
            notes += flipped
        out.goal = goal
        if not errors and goal and a.mentioned:
            errors = unmentioned(goal, kg, a.mentioned)
        return goal, errors, notes

    def _plan(self, a: Asking, goal: str | None, errors: list[str], attempt: int,
              out: TaskOutcome, notes: list[str]) -> None:
        """Plan a checked goal; a goal that holds or that no plan reaches is read back once."""
        if errors or goal is None:
            out.plan, out.status, out.errors = None, Status.INVALID_GOAL, errors
            return
        self._solve(a, goal, out)
        if out.status not in (Status.ALREADY_SATISFIED, Status.UNSOLVABLE) or a.flagged:
            return
        turned, why = turn_one_way(self.world.domain, a.req.kg, goal)
        if turned is not None and self._adopt(a, turned, out):
            notes.extend(why)
            return
        a.flagged = True
        flipped = a.asker.read_back(a.req.text, goal, a.req.kg, a.names, out.trace, notes)
        if flipped is not None:  # asked literal by literal: a change after all
            out.goal = flipped
            self._solve(a, flipped, out)
        if out.status == Status.ALREADY_SATISFIED and attempt < self.settings.attempts and (
                not self.settings.read_back or flipped is not None or notes):
            # what the checks or the read-back made of the answer is nothing to do: asked
            # again (once: the goal is flagged)
            out.status, out.errors = Status.ALREADY_HOLDS, [ALREADY_HOLDS]

    def _adopt(self, a: Asking, goal: str, out: TaskOutcome) -> bool:
        """Plan ``goal`` and keep it when it plans a change; else leave ``out`` as it was."""
        kept = (out.goal, out.plan, out.status, list(out.errors))
        self._solve(a, goal, out)
        if Status(out.status).ok and out.status != Status.ALREADY_SATISFIED:
            out.goal = goal
            return True
        out.goal, out.plan, out.status, out.errors = kept
        return False

    def _solve(self, a: Asking, goal: str, out: TaskOutcome) -> None:
        with stage('plan'):
            out.plan = self.planner.plan(a.req.kg, goal, context=set(a.req.retrieval.facts))
        out.status = out.plan.status
        out.errors = list(out.plan.errors)

    @staticmethod
    def _verdict(out: TaskOutcome) -> tuple[Verdict, str]:
        """Return what the outcome's status means, and what to tell the LLM about it."""
        if out.status == Status.ALREADY_HOLDS:
            return Verdict.ALREADY_HOLDS, ALREADY_HOLDS
        if out.status == Status.INVALID_GOAL:
            return Verdict.INVALID, 'the goal has errors:\n- ' + '\n- '.join(out.errors)
        if out.status == Status.UNSOLVABLE:
            return Verdict.UNSOLVABLE, (
                'no plan reaches that goal from the current state; check that the goal says '
                'what the task asks and uses the right entities and predicates')
        return (Verdict.ACCEPTED if Status(out.status).ok else Verdict.FAILED), ''

    def _request(self, kg: KnowledgeGraph, grounding: GoalGrounding, recalled: str, text: str,
                 whole: str | None = None) -> list[dict[str, str]]:
        """Return the goal request for ``text`` (a part of ``whole``, if given)."""
        listing = FULL if self.settings.prompt_context == WIDEN else self.settings.prompt_context
        entities, facts = grounding.shown(listing, grounding.about())
        return [{'role': 'system', 'content': self.system()},
                {'role': 'user', 'content': recalled + grounded_message(
                    kg, entities, facts, 'Task', text, whole=whole)}]

    def _chat(self, trace: Trace, schema: dict[str, Any]) -> Chat:
        """Return the goal question's proposer (names as handles with ``answer_handles``)."""
        return Chat(self.llm, trace, schema, 'pddl_goal', GOAL_TOKENS,
                    tokenizer(self.llm, self.settings.answer_handles))

    def _by_parts(self, a: Asking, trace: Trace) -> LLMReply:
        """Ask for the goal of each part of a task in turn; return their items as one reply.

        Asked for "pour lemonade into the glass and give it to Lucy" at once, a small model
        writes one of the two; each part is asked with the whole task beside it (for "it").
        A part whose reply is not a goal list makes the whole task be asked at once.
        """
        kg, text, grounding, recalled = a.req.kg, a.req.text, a.grounding, a.recalled
        items: list[Any] = []
        ask = self._chat(trace, a.schema)
        for part in a.parts:
            reply = ask(self._request(kg, grounding, recalled, part, whole=text))
            data = reply.data if isinstance(reply.data, dict) else {}
            got = {str(k).lower(): v for k, v in data.items()}.get('goal')
            if not isinstance(got, list):
                return ask(self._request(kg, grounding, recalled, text))
            items.extend(got)
        merged = {'goal': items}
        return LLMReply(text=json.dumps(merged), data=merged, prompt_tokens=0,
                        completion_tokens=0, latency_s=0.0, cached=False, attempts=0)

    @staticmethod
    def _done(out: TaskOutcome, began: float) -> TaskOutcome:
        out.seconds = time.perf_counter() - began
        return out
