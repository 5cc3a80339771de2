# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4 (L3M+P): plan an NL task from the KG.

retrieve (``link`` by default: no LLM call) → the LLM writes the goal as JSON constrained
by a schema built for the context (:mod:`.grounding`: literals over typed context
entities, ``not``, ``forall``/``exists`` over domain types) after a static prompt with
examples derived from the domain → **the goal checks, in the order**
:data:`.pipeline.GOAL_CHECKS` **lists them** (:mod:`.goal_checks`): settled against the
rules, the state and the task's mentions; planned, the planner building the problem from
the retrieved subgraph (widening the context when a needed fact is missing); a goal that
already holds or that no plan reaches read back once, since a task asks for a change;
what a planned goal misses asked about → if the goal is invalid or no plan exists,
re-prompt with the reason (bounded). Endpoints without structured output may answer a
PDDL goal string, which the planner's tolerant parser reads.
"""

from __future__ import annotations

import itertools
import json
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from ... import stages
from ...llm.handles import tokenizer
from ...llm.protocol import ChatLLM, LLMReply
from ...planning.planner import Planner, PlanResult
from ...planning.status import Status
from ...retrieval.base import Retrieval, Retriever
from ...retrieval.mention_lists import candidates, possessors, surfaces
from ...stages import stage
from ...text import STOPWORDS, name_words, stem, words
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph
from ...world.model import WorldModel
from ..core.attempts import Attempts, Chat, Judged, Messages, Trace, Verdict
from ..core.clauses import split_task
from ..core.destinations import proper_things
from ..core.examples import system_for
from ..core.grounding import FULL, WIDEN, grounded_message
from ..core.request import Request
from ..core.rulings import run
from .goal_checks import GoalAnswer
from .grounding import GoalGrounding
from .outcome import Asking, TaskOutcome, TaskSettings, extract_goal
from .pipeline import GOAL_CHECKS
from .read_back import GoalReadBack

if TYPE_CHECKING:
    from ...memory.hooks import Memory

__all__ = ['TaskOutcome', 'TaskPlanner', 'TaskSettings', 'extract_goal', 'new_task_id']

# words by which a task speaks of a kind of thing rather than of one thing
QUANTIFIERS = frozenset('all every each any none no nothing everything anything some a an '
                        'both either neither whichever whatever'.split())
_ids = itertools.count(1)
GOAL_TOKENS = 300  # tokens one goal may take


def new_task_id() -> str:
    """Return a process-unique task id."""
    return f'task-{int(time.time())}-{next(_ids)}'


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
                  context: set[Fact] | str = 'auto') -> TaskOutcome:
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
            names = surfaces(mentions, req.kg.entities, proper_things(self.world, req.kg))
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
                      GoalReadBack(self.llm, self.world.domain, self.settings.read_back), out,
                      partial(self._chat, out.trace))

    def _propose(self, a: Asking, messages: Messages, attempt: int) -> LLMReply:
        """Ask for the goal (first by parts, when there are several)."""
        if attempt == 1 and a.parts != [' '.join(a.req.text.split())]:  # or one described
            return self._by_parts(a)
        return a.chat(a.schema)(messages)

    def _judge(self, a: Asking, reply: LLMReply) -> Judged[PlanResult]:
        """Run the goal checks (:data:`.pipeline.GOAL_CHECKS`) on a goal, applying their rulings.

        A ruling's goal (or planned goal) becomes the outcome's, its errors refuse the goal
        before it is planned, its notes join the attempt's record; a goal that failed is
        re-prompted with the reason.
        """
        g, out = GoalAnswer.read(a, reply, self.world, self.planner, self.settings), a.out
        run(GOAL_CHECKS, g, self.settings, out.trace)
        verdict, reason = g.verdict()
        return Judged(verdict, out.plan, list(out.errors),
                      f'Your goal failed: {reason}\nAnswer again with the corrected JSON goal.',
                      {'goal': out.goal, 'status': out.status, 'errors': list(out.errors),
                       'notes': g.notes, 'reply': reply.text[:2000]})

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

    def _by_parts(self, a: Asking) -> LLMReply:
        """Ask for the goal of each part of a task in turn; return their items as one reply.

        Asked for "pour lemonade into the glass and give it to Lucy" at once, a small model
        writes one of the two; each part is asked with the whole task beside it (for "it").
        A part whose reply is not a goal list makes the whole task be asked at once.
        """
        kg, text, grounding, recalled = a.req.kg, a.req.text, a.grounding, a.recalled
        items: list[Any] = []
        ask = a.chat(a.schema)
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
