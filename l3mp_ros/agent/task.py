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
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import schemas
from ..llm.parse import strip_fences
from ..llm.prompting import ask_yes_no
from ..llm.protocol import ChatLLM, LLMError, LLMReply, Usage, llm_failure
from ..planning.planner import Planner, PlanResult
from ..planning.problem import GoalError, parse_goal, render_goal
from ..retrieval.base import Retrieval, Retriever
from ..retrieval.link import STOPWORDS, _stem, name_words, words
from ..retrieval.mentions import candidates, possessors, resolve, surfaces
from ..world.complete import forbidding_rule
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from ..world.model import WorldModel
from .clauses import split_report
from .examples import system_for
from .goal_grounding import GoalGrounding
from .grounding import grounded_message
from .wording import say

if TYPE_CHECKING:
    from ..memory.hooks import Memory

MAX_READ_BACK = 4  # literals of a goal that already holds asked about one by one
GOAL_SCHEMA = {
    'type': 'object',
    'properties': {'goal': {'type': 'string'}},
    'required': ['goal'],
    'additionalProperties': False,
}
RETRY_STATUSES = ('invalid_goal', 'unsolvable')  # and a first 'already_satisfied' goal
ALREADY_HOLDS = ('the goal already holds in the current state, but the task asks for a '
                 'change: write the state the task wants')
_NAME_RE = re.compile(r'[^\s()]+')
# words by which a task speaks of a kind of thing rather than of one thing
QUANTIFIERS = frozenset('all every each any none no nothing everything anything some a an '
                        'both either neither whichever whatever'.split())
# a part of a task that describes rather than asks ("..., it is ringing"; "she is thirsty")
DESCRIBES = re.compile(r'^(it|he|she|they|this|that|there)\s+(is|are|was|were|has|have|seems?)\b',
                       re.IGNORECASE)
# words by which a task asks to keep (or restore) something that holds now: "put it back"
KEEPS = re.compile(r'\b(back|again|still|keep|keeps|kept|stay|stays|remain|remains|leave)\b',
                   re.IGNORECASE)
_ids = itertools.count(1)


def new_task_id() -> str:
    """Return a process-unique task id."""
    return f'task-{int(time.time())}-{next(_ids)}'


@dataclass
class TaskOutcome:
    """Result of one task: the goal, the plan and what it cost."""

    task_id: str
    text: str | None
    status: str = 'error'
    goal: str | None = None
    plan: PlanResult | None = None
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    context_size: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

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
            'llm_calls': self.usage.calls,
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


def goal_entities(goal: str, kg: Any) -> set[str]:
    """Return the KG entities a PDDL goal names."""
    return {w for w in _NAME_RE.findall(goal.lower()) if kg.has_entity(w)}


def named_types(domain: DomainSchema, text: str, *,
                plural: bool = False) -> frozenset[str]:
    """Return the types a task names by a word of theirs ("every room"), with their subtypes.

    ``plural``: only types named in the plural ("the lights", "Lena's tubes").
    """
    said = set(words(text))
    stems = said | {_stem(w) for w in said}
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


def conjuncts(domain: DomainSchema, kg: KnowledgeGraph,
              goal: str) -> list[tuple[Any, tuple[Fact, bool] | None]] | None:
    """Return the top-level conjuncts of a goal, each with (fact, positive) or None.

    A ground literal comes with its fact and polarity, anything else (a quantifier) with
    None; an unreadable goal gives None.
    """
    try:
        node = parse_goal(domain, kg, goal).formula
    except GoalError:
        return None
    out: list[tuple[Any, tuple[Fact, bool] | None]] = []
    for n in (list(node[1]) if node[0] == 'and' else [node]):
        neg = n[0] == 'not' and n[1][0] == 'atom'
        atom = n[1] if neg else n
        ground = atom[0] == 'atom' and atom[2] and not any(a.startswith('?') for a in atom[2])
        out.append((n, (Fact(atom[1], tuple(atom[2])), not neg) if ground else None))
    return out


def drop_held(domain: DomainSchema, kg: KnowledgeGraph, goal: str, text: str,
              wants: Callable[[Fact], bool | None] | None = None) -> tuple[str, list[str]]:
    """Settle the ground conjuncts that hold now in a goal that also asks for a change.

    A task often describes where things are ("give the pen on the table in Joshua's room
    to Joshua"); a small model copies that description into the goal, where it contradicts
    the change or makes it much harder to plan: such a positive relation is dropped. A
    negated or one-entity conjunct that holds ("not showing the sports channel" for "show
    the sports channel") is more often the model's wrong polarity: with ``wants`` (does
    the task want this fact true? None: cannot tell) it is asked about and negated when
    the answer contradicts it, else dropped. Everything is kept when the task says to keep
    or restore something ("put it back", "leave it open") or when nothing else in the goal
    is a change (the whole goal then already holds, which is reported as such).
    """
    if KEEPS.search(text or ''):
        return goal, []
    parsed = conjuncts(domain, kg, goal)
    if parsed is None:
        return goal, []
    items = [n for n, _ in parsed]
    lits = [lit for _, lit in parsed]
    held = [lit is not None and (lit[0] in kg) == lit[1] for lit in lits]
    if all(held) or not any(held):
        return goal, []
    kept: list[Any] = []
    dropped: list[str] = []
    notes: list[str] = []
    for n, lit, h in zip(items, lits, held, strict=True):
        if not h or lit is None:
            kept.append(n)
            continue
        fact, positive = lit
        wanted = wants(fact) if wants is not None and not (
            positive and len(fact.args) > 1) else None
        if wanted is None or wanted == positive:
            dropped.append(render_goal(n))
            continue
        flipped = ('atom', fact.predicate, fact.args) if wanted else ('not', n)
        kept.append(flipped)
        notes.append(f'negated {render_goal(n)}: it holds now, and asked whether the task '
                     f'wants it, the model answered {"yes" if wanted else "no"}')
    if dropped:
        notes.append(f'dropped {", ".join(dropped)} from the goal: it holds now and the task '
                     'asks for a change')
    return conjoin(kept), notes


def conjoin(nodes: list[Any]) -> str:
    """Return the PDDL conjunction of goal nodes, each once (a negation may repeat one)."""
    return render_goal(('and', tuple({render_goal(n): n for n in nodes}.values())))


def reconcile_goal(domain: DomainSchema, kg: KnowledgeGraph, constraints: Constraints,
                   goal: str, wants: Callable[[Fact], bool | None] | None = None
                   ) -> tuple[str, list[str], list[str]]:
    """Check a goal's conjuncts against the state-constraint rules; return (goal, notes, errors).

    A goal is the state *after* the task. Two conjuncts that a ``functional`` or
    ``exclusive`` rule forbids together cannot both hold: when one of them holds now (the
    model wrote where the thing is, beside where it must go: "take the rack from Okafor and
    put it on the shelf"), it is dropped with a note; when neither holds, that is an error
    to re-prompt with. Only ground, positive, top-level conjuncts are compared.
    """
    try:
        node = parse_goal(domain, kg, goal).formula
    except GoalError:
        return goal, [], []  # the planner words it
    items = list(node[1]) if node[0] == 'and' else [node]
    atoms = [(i, Fact(n[1], tuple(n[2]))) for i, n in enumerate(items)
             if n[0] == 'atom' and n[2] and not any(a.startswith('?') for a in n[2])]
    drop: set[int] = set()
    notes: list[str] = []
    errors: list[str] = []
    for x, (i, a) in enumerate(atoms):
        for j, b in atoms[x + 1:]:
            if a == b or i in drop or j in drop:
                continue
            rule = forbidding_rule(a, b, kg.entities, constraints, domain)
            if rule is None:
                continue
            if (a in kg) != (b in kg):
                now, new, k = (a, b, i) if a in kg else (b, a, j)
                drop.add(k)
                notes.append(f'dropped {now.text()} from the goal: it holds now and '
                             f'{new.text()} replaces it (rule {rule})')
                continue
            wa, wb = (wants(a), wants(b)) if wants is not None else (None, None)
            if wa is not None and wb is not None and wa != wb:  # asked, one is not wanted
                unwanted, k = (b, j) if wa else (a, i)
                drop.add(k)
                notes.append(f'dropped {unwanted.text()} from the goal: it cannot hold with '
                             f'{(a if wa else b).text()} (rule {rule}) and, asked, the model '
                             'does not read it in the task')
            else:
                errors.append(f'{a.text()} and {b.text()} cannot both hold (rule {rule}); '
                              'the goal is the state after the task: keep only the one the '
                              'task asks for')
    if not drop:
        return goal, notes, errors
    kept = tuple(n for k, n in enumerate(items) if k not in drop)
    return render_goal(('and', kept)), notes, errors


class TaskPlanner:
    """Run Algorithm 4 against a world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever | None,
                 planner: Planner, *, max_attempts: int = 3, max_tokens: int = 300,
                 per_slot: int = 30, memory: Memory | None = None,
                 resolve_mentions: bool = True, read_back: bool = True,
                 split_clauses: bool = True) -> None:
        self.world = world
        self.split_clauses = split_clauses
        self.resolve_mentions = resolve_mentions
        self.read_back = read_back
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.llm = llm
        self.retriever = retriever
        self.planner = planner
        self.max_attempts = max(1, max_attempts)
        self.max_tokens = max_tokens
        self.per_slot = per_slot
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
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text, goal=goal, attempts=1)
        kg = self.world.snapshot()
        out.plan = self.planner.plan(kg, goal, context=context, strict=True)
        out.status = out.plan.status
        out.errors = list(out.plan.errors)
        out.seconds = time.perf_counter() - began
        return out

    def run(self, text: str, *, task_id: str | None = None,
            retrieval: Retrieval | None = None) -> TaskOutcome:
        """Plan an NL task; never raises for LLM, goal or planner failures."""
        began = time.perf_counter()
        out = TaskOutcome(task_id=task_id or new_task_id(), text=text)
        text = (text or '').strip()
        if not text:
            out.errors = ['empty task']
            return self._done(out, began)
        kg = self.world.snapshot()
        try:
            if retrieval is None:
                retrieval = (self.retriever.retrieve(kg, text, self.llm) if self.retriever
                             else Retrieval(facts=set(kg.facts)))
        except LLMError as exc:
            out.errors = [llm_failure(exc, 'retrieval')]
            return self._done(out, began)
        out.retrieval_seconds = retrieval.seconds
        out.usage.prompt_tokens += retrieval.prompt_tokens
        out.usage.completion_tokens += retrieval.completion_tokens
        out.context_size = len(retrieval.facts)
        ranked = retrieval.info.get('ranked') or sorted(
            retrieval.entities | {a for f in retrieval.facts for a in f.args})
        about: list[str] = []
        types: frozenset[str] | None = None
        names: dict[str, str] = {}
        if self.resolve_mentions:
            mentions = resolve(kg, text, steady=self.world.domain.static_predicates())
            names = surfaces(mentions)
            types = quantifiable(self.world.domain, text)
            about = list(dict.fromkeys([*candidates(mentions), *possessors(
                kg, text, kinds=types != frozenset())]))
        grounding = GoalGrounding.build(self.world.domain, kg, [*about, *ranked], retrieval.facts,
                                    per_slot=self.per_slot,
                                    constants=frozenset(about) if about else None,
                                    quantified=types)
        mentioned = set(about or retrieval.info.get('mentioned') or ())
        recalled = (self.memory.task_context(kg, text, retrieval.facts, retrieval.entities)
                    if self.memory is not None else '')
        messages = self._request(kg, grounding, recalled, text)
        schema = grounding.goal_schema()
        lexicon = {w for n in kg.entities for w in name_words(n)}
        parts = [p for p in (split_report(text, lexicon) if self.split_clauses else [text])
                 if not DESCRIBES.match(p)]  # "pick up the phone, it is ringing"
        flagged = False
        for attempt in range(1, self.max_attempts + 1):
            out.attempts = attempt
            try:
                if attempt == 1 and len(parts) > 1:
                    reply = self._by_parts(parts, text, kg, grounding, recalled, schema, out)
                else:
                    reply = self.llm.chat(messages, schema=schema, schema_name='pddl_goal',
                                          max_tokens=self.max_tokens)
                    out.usage.add(reply)
            except LLMError as exc:
                out.status, out.errors = 'error', [llm_failure(exc)]
                break
            goal, errors = grounding.read_goal(
                reply.data if reply.data is not None else extract_goal(None, reply.text))
            notes: list[str] = []
            wants = ((lambda f: self._wants(text, f, names, out)) if self.read_back
                     else None)
            if not errors and goal:
                goal, notes, errors = reconcile_goal(self.world.domain, kg,
                                                     self.world.constraints, goal, wants)
            if not errors and goal and self.resolve_mentions:
                goal, held = drop_held(self.world.domain, kg, goal, text, wants)
                notes += held
            out.goal = goal
            if not errors and goal and mentioned:
                named = goal_entities(goal, kg)
                if named and not named & mentioned:
                    errors = [f'the goal names {", ".join(sorted(named))} but the task is '
                              f'about {", ".join(sorted(mentioned)[:6])}']
            if errors:
                out.plan, out.status, out.errors = None, 'invalid_goal', errors
            else:
                out.plan = self.planner.plan(kg, goal, context=set(retrieval.facts))
                out.status = out.plan.status
                out.errors = list(out.plan.errors)
                if out.status in ('already_satisfied', 'unsolvable') and not flagged:
                    flagged = True  # a goal that holds, or none can reach: read it back once
                    flipped = self._read_back(text, goal, kg, names, out, notes)
                    if flipped is not None:  # asked literal by literal: a change after all
                        out.goal = goal = flipped
                        out.plan = self.planner.plan(kg, goal, context=set(retrieval.facts))
                        out.status = out.plan.status
                        out.errors = list(out.plan.errors)
                    elif (out.status == 'already_satisfied' and not self.read_back
                          and attempt < self.max_attempts):
                        out.status, out.errors = 'already_holds', [ALREADY_HOLDS]
            out.history.append({'attempt': attempt, 'goal': out.goal, 'status': out.status,
                                'errors': list(out.errors), 'notes': notes,
                                'reply': reply.text[:2000]})
            if out.status == 'already_holds':
                reason = ALREADY_HOLDS
            elif out.status not in RETRY_STATUSES:
                break
            else:
                reason = ('the goal has errors:\n- ' + '\n- '.join(out.errors)
                          if out.status == 'invalid_goal' else
                          'no plan reaches that goal from the current state; check that the '
                          'goal says what the task asks and uses the right entities and '
                          'predicates')
            messages = messages + [
                {'role': 'assistant', 'content': reply.text},
                {'role': 'user', 'content': f'Your goal failed: {reason}\n'
                 'Answer again with the corrected JSON goal.'}]
        if self.memory is not None:
            self.memory.task_done(text, out.goal, out.status, kg)
        return self._done(out, began)

    def _request(self, kg: KnowledgeGraph, grounding: GoalGrounding, recalled: str, text: str,
                 whole: str | None = None) -> list[dict[str, str]]:
        """Return the goal request for ``text`` (a part of ``whole``, if given)."""
        return [{'role': 'system', 'content': self.system()},
                {'role': 'user', 'content': recalled + grounded_message(
                    kg, grounding.entities, grounding.facts, 'Task', text, whole=whole)}]

    def _by_parts(self, parts: list[str], text: str, kg: KnowledgeGraph, grounding: GoalGrounding,
                  recalled: str, schema: dict[str, Any], out: TaskOutcome) -> LLMReply:
        """Ask for the goal of each part of a task in turn; return their items as one reply.

        Asked for "pour lemonade into the glass and give it to Lucy" at once, a small model
        writes one of the two; each part is asked with the whole task beside it (for "it").
        A part whose reply is not a goal list makes the whole task be asked at once.
        """
        items: list[Any] = []
        for part in parts:
            reply = self.llm.chat(self._request(kg, grounding, recalled, part, whole=text),
                                  schema=schema, schema_name='pddl_goal',
                                  max_tokens=self.max_tokens)
            out.usage.add(reply)
            data = reply.data if isinstance(reply.data, dict) else {}
            got = {str(k).lower(): v for k, v in data.items()}.get('goal')
            if not isinstance(got, list):
                reply = self.llm.chat(self._request(kg, grounding, recalled, text),
                                      schema=schema, schema_name='pddl_goal',
                                      max_tokens=self.max_tokens)
                out.usage.add(reply)
                return reply
            items.extend(got)
        merged = {'goal': items}
        return LLMReply(text=json.dumps(merged), data=merged, prompt_tokens=0,
                        completion_tokens=0, latency_s=0.0, cached=False, attempts=0)

    def _read_back(self, text: str, goal: str, kg: KnowledgeGraph, names: dict[str, str],
                   out: TaskOutcome, notes: list[str]) -> str | None:
        """Ask of each literal of a suspect goal whether the task wants it.

        A small model often gets the polarity wrong ("answer the phone" → the phone is
        ringing); a task asks for a change, so a goal that holds already is suspect, and so
        is one no plan reaches ("unlock the door" → the door is locked). A
        yes/no question per literal ("once the task is done, is Jerry's phone ringing?")
        is easier for it than writing the goal. Literals the answer contradicts are
        negated; return the new goal, or None when every literal is confirmed (the task
        really asks for what holds: nothing to do) or the goal is not a conjunction of a
        few ground literals.
        """
        parsed = conjuncts(self.world.domain, kg, goal) if self.read_back else None
        lits = [(n, lit) for n, lit in parsed or [] if lit is not None]
        if not lits or len(lits) != len(parsed or []) or len(lits) > MAX_READ_BACK:
            return None
        changed = False
        nodes = []
        for node, (fact, positive) in lits:
            wanted = self._wants(text, fact, names, out)
            if wanted is None:
                return None
            if wanted != positive:
                changed = True
                notes.append(f'negated {render_goal(node)}: asked whether the task wants '
                             f'{fact.text()}, the model answered {"yes" if wanted else "no"}')
                node = ('atom', fact.predicate, fact.args) if wanted else ('not', node)
            nodes.append(node)
        if not changed:
            return None
        return conjoin(nodes)

    def _wants(self, text: str, fact: Fact, names: dict[str, str],
               out: TaskOutcome) -> bool | None:
        """Ask yes/no whether ``fact`` is true once the task is done; None on an LLM error."""
        claim = say(fact, plain=True, domain=self.world.domain, names=names)
        try:
            yes, reply = ask_yes_no(self.llm, 'outcome', f'Request: {" ".join(text.split())}\n'
                                    f'Question: When the robot is done, will this be true: '
                                    f'{claim}?')
        except LLMError:
            return None
        out.usage.add(reply)
        out.history.append({'read_back': claim, 'reply': (reply.text or '')[:200]})
        return yes

    @staticmethod
    def _done(out: TaskOutcome, began: float) -> TaskOutcome:
        out.seconds = time.perf_counter() - began
        return out
