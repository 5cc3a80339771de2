# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Replay a household stream against one agent variant and judge it (paper Section V-A).

For each step drawn with :meth:`StreamGenerator.next_step` on the current ground truth:

- a **change**: the gold diff is applied to the truth; the NL report goes through the
  agent's update pipeline (Algorithm 3, with the variant's retriever and verifier); then the
  agent's KG is compared with the truth. ``diff_correct``: the agent's change of its KG
  equals the truth's change; ``state_correct``: the two KGs hold the same facts (errors are
  never forgiven: a wrong step stays wrong until a later update repairs it).
- a **task**: the agent plans (Algorithm 4); its plan is executed on the truth with the
  domain's semantics (:func:`~l3mp_ros.planning.execute.execute_plan`) and the gold goal is
  checked on the result (any valid plan counts). The truth becomes the result of the
  execution (a failing step keeps the effects of the steps before it, and the task fails).
  The agent's KG is updated by executing its own plan on its own KG, as the robot would
  (``WorldModel.apply(..., source='execution')``), so a plan that is not valid on the truth
  makes beliefs and truth diverge.

Variants (:data:`VARIANTS`) are configuration: retriever × verifier, plus ``S`` (the initial
KG, never updated, planning on the full KG). :class:`OracleLLM` answers every LLM call from
the current step's gold data, so the real pipelines run unchanged with perfect language.

The run is resumable: the agent's KG lives in a SQLite store in the run directory; the
truth, the generator's state and the number of records are in ``checkpoint.json`` (written
atomically after every step); per-step records are appended to ``steps.jsonl``. A run killed
at any point continues where it stopped and produces the same records (timings aside).
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from l3mp_ros.agent.task import TaskPlanner
from l3mp_ros.agent.update import NLUpdater
from l3mp_ros.bench.household.generator import (
    CONSTRAINTS_PATH,
    DOMAIN_PATH,
    Household,
    Step,
    StreamGenerator,
    generate_household,
    goal_holds,
    household_domain,
)
from l3mp_ros.llm.client import LLMError, LLMReply
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import Planner, PlanResult
from l3mp_ros.retrieval import make_retriever
from l3mp_ros.world.kg import KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.store import Store

RUN_SCHEMA = 'l3mp/household_run/v1'
RECORD_SCHEMA = 'l3mp/household_record/v1'


# =========================================================================== variants
@dataclass(frozen=True)
class Variant:
    """One agent configuration of Table I."""

    name: str
    label: str
    retriever: str  # full | select | search | link
    verify: bool
    updates: bool = True  # False: S, the initial KG is never changed
    paper_state: float | None = None  # GPT-4o, Table I, percent
    paper_plan: float | None = None
    description: str = ''


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant('S', 'S', 'full', False, updates=False, paper_plan=67.5,
            description='initial KG, never updated; plans on the full KG'),
    Variant('R-', 'R⁻', 'full', False, paper_state=71.5, paper_plan=72.5,
            description='full KG as context, no verifier'),
    Variant('R-_V', 'R⁻_V', 'full', True, paper_state=71.0, paper_plan=72.5,
            description='full KG as context, verifier'),
    Variant('R+', 'R⁺', 'select', False, paper_state=77.5, paper_plan=80.0,
            description='LLM entity selection + BFS, no verifier'),
    Variant('R+_V', 'R⁺_V', 'select', True, paper_state=92.5, paper_plan=85.0,
            description='LLM entity selection + BFS, verifier'),
    Variant('RS', 'Rˢ', 'search', False, paper_state=96.0, paper_plan=87.5,
            description='search-based retrieval (Algorithms 1-2), no verifier'),
    Variant('RS_V', 'Rˢ_V (L3M+P)', 'search', True, paper_state=98.0, paper_plan=90.0,
            description='search-based retrieval + verifier: L3M+P'),
    Variant('RL_V', 'Rᴸ_V (l3mp_ros default)', 'link', True,
            description='mention linking (no LLM call) + grounded schema + verifier: '
                        "this package's default pipeline, not a paper variant"),
)}
PAPER_VARIANTS = tuple(v for v in VARIANTS if v != 'RL_V')  # Table I's seven


def _variant_key(text: str) -> str:
    key = text.strip().upper().replace('^', '').replace('_', '').replace(' ', '')
    key = key.replace('MINUS', '-').replace('PLUS', '+')
    # R−/R⁺ typed with unicode signs
    return key.replace('\u2212', '-').replace('\u207a', '+').replace('\u207b', '-')


_ALIASES: dict[str, str] = {
    'S': 'S', 'R-': 'R-', 'R-V': 'R-_V', 'RV-': 'R-_V', 'R+': 'R+', 'R+V': 'R+_V',
    'RV+': 'R+_V', 'RS': 'RS', 'RSV': 'RS_V', 'RVS': 'RS_V', 'L3MP': 'RS_V', 'L3M+P': 'RS_V',
    'RLV': 'RL_V', 'RVL': 'RL_V', 'LINK': 'RL_V',
}


def resolve_variant(name: str) -> Variant:
    """Return the variant called ``name`` (``RS_V``, ``RVS``, ``R^S_V``, ``R+``, ``RV-``...)."""
    key = _ALIASES.get(_variant_key(str(name)))
    if key is None:
        raise ValueError(f'unknown variant {name!r}; choose one of {", ".join(VARIANTS)} '
                         '(aliases: RV-, RV+, RVS, L3MP)')
    return VARIANTS[key]


# =========================================================================== LLM wrappers
def _estimate_tokens(text: str) -> int:
    """Return a rough token count (4 characters a token) for the oracle's accounting."""
    return math.ceil(len(text) / 4) if text else 0


class OracleLLM:
    """An LLM stand-in that answers from the current step's gold data, by ``schema_name``.

    ``query_graph`` → the gold query graph; ``kg_update`` → the gold diff; ``pddl_goal`` →
    the gold goal; ``select_entities`` → the gold entities. Token counts are estimates
    (characters / 4) so that context sizes stay comparable between variants. Set
    :attr:`step` before each step.
    """

    def __init__(self) -> None:
        self.step: Step | None = None

    def answer(self, schema_name: str, step: Step) -> Any:
        """Return the gold JSON answer for one request."""
        if schema_name == 'query_graph':
            return {'entities': list(step.query_graph.get('entities') or []),
                    'relations': [list(r) for r in step.query_graph.get('relations') or []]}
        if schema_name == 'select_entities':
            return {'entities': list(step.gold_entities)}
        if schema_name == 'kg_update':
            return (step.diff or Update()).to_json()
        if schema_name == 'pddl_goal':
            return {'goal': step.goal or ''}
        raise LLMError(f'the oracle cannot answer a {schema_name!r} request')

    def chat(self, messages: list[dict[str, Any]], *, schema: dict[str, Any] | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None) -> LLMReply:
        """Answer like :meth:`LLMClient.chat` (raises LLMError for unknown requests)."""
        if self.step is None:
            raise LLMError('the oracle has no current step')
        data = self.answer(schema_name, self.step)
        text = json.dumps(data)
        prompt = '\n'.join(str(m.get('content', '')) for m in messages)
        return LLMReply(text=text, data=data, prompt_tokens=_estimate_tokens(prompt),
                        completion_tokens=_estimate_tokens(text), latency_s=0.0,
                        cached=False, attempts=1, finish_reason='stop')


RETRIEVAL_SCHEMAS = ('query_graph', 'select_entities')
# An outage is not the agent's fault: the step is not recorded and the run stops (resumable).
FATAL_LLM_ERRORS = ('unreachable', 'timeout')


@dataclass
class CallLog:
    """LLM accounting of one step."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0  # HTTP retries inside the client
    cached: int = 0
    errors: int = 0
    seconds: float = 0.0
    retrieval_seconds: float = 0.0  # wall time of the retrieval calls (query graph, selection)
    fatal: str | None = None  # the endpoint was unreachable or timed out: abort, don't judge


class CountingLLM:
    """Wrap an LLM client and account every call of the current step."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.log = CallLog()

    def reset(self) -> CallLog:
        """Start a new step; return the previous step's log."""
        log, self.log = self.log, CallLog()
        return log

    def chat(self, messages: list[dict[str, Any]], *, schema: dict[str, Any] | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None) -> Any:
        """Forward to the wrapped client, counting tokens, retries and wall time."""
        began = time.perf_counter()
        try:
            reply = self.inner.chat(messages, schema=schema, schema_name=schema_name,
                                    max_tokens=max_tokens)
        except LLMError as exc:
            self.log.errors += 1
            if getattr(exc, 'kind', None) in FATAL_LLM_ERRORS:
                self.log.fatal = str(exc)
            raise
        finally:
            spent = time.perf_counter() - began
            self.log.seconds += spent
            if schema_name in RETRIEVAL_SCHEMAS:
                self.log.retrieval_seconds += spent
        self.log.calls += 1
        self.log.prompt_tokens += int(getattr(reply, 'prompt_tokens', 0) or 0)
        self.log.completion_tokens += int(getattr(reply, 'completion_tokens', 0) or 0)
        self.log.retries += max(0, int(getattr(reply, 'attempts', 1) or 1) - 1)
        self.log.cached += int(bool(getattr(reply, 'cached', False)))
        return reply


# =========================================================================== config
@dataclass
class RunConfig:
    """What one run replays: stream size, agent variant, planner."""

    variant: str = 'RS_V'
    seed: int = 0
    changes: int = 200
    tasks: int = 40
    task_every: int = 5
    oracle: bool = False
    # read reports and tasks part by part, ground tasks in their mentions and read goals back
    # with yes/no questions (never for the oracle, which answers whole utterances' gold JSON)
    split_clauses: bool = True
    engine: str = 'lapkt'
    plan_timeout: float = 60.0
    max_attempts: int = 3
    speedup_sample: int = 4  # tasks on which the planner also runs on the whole KG
    speedup_timeout: float = 60.0
    model: str = ''  # for the report only

    def identity(self) -> dict[str, Any]:
        """Return the fields that must match for a run to be resumed."""
        data = asdict(self)
        data['variant'] = resolve_variant(self.variant).name
        return data


def _sample_tasks(tasks: int, sample: int) -> set[int]:
    """Return task ordinals (0-based) spread evenly over the run for the full-KG planner."""
    if sample <= 0 or tasks <= 0:
        return set()
    if sample >= tasks:
        return set(range(tasks))
    return {min(tasks - 1, int((k + 0.5) * tasks / sample)) for k in range(sample)}


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + '.tmp')
    with open(tmp, 'w', encoding='utf-8') as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _gen_state(gen: StreamGenerator) -> dict[str, Any]:
    version, internal, gauss = gen.rng.getstate()
    return {'rng': [version, list(internal), gauss], 'index': gen.index,
            'changes_since_task': gen.changes_since_task, 'uses': dict(gen.uses)}


def _restore_gen(gen: StreamGenerator, state: dict[str, Any]) -> None:
    version, internal, gauss = state['rng']
    gen.rng.setstate((version, tuple(internal), gauss))
    gen.index = int(state['index'])
    gen.changes_since_task = int(state['changes_since_task'])
    gen.uses = {str(k): int(v) for k, v in state['uses'].items()}


def _planner_seconds(plan: PlanResult | None) -> float:
    """Build + search time over the widening attempts (validation excluded)."""
    if plan is None:
        return 0.0
    return sum(float(a.get('build', 0.0)) + float(a.get('plan', 0.0)) for a in plan.attempts)


class RunError(RuntimeError):
    """A run directory that cannot be used (another configuration, corrupt checkpoint)."""


# =========================================================================== runner
class Runner:
    """Replay one stream against one variant, persisting after every step.

    ``llm`` is the language model (an :class:`~l3mp_ros.llm.client.LLMClient` or anything
    with its ``chat`` shape); with ``config.oracle`` it is ignored and an
    :class:`OracleLLM` answers. ``oracle`` may be given to use a custom gold-answering
    object (tests use subclasses that drop updates or write wrong goals).
    """

    def __init__(self, config: RunConfig, run_dir: str | Path, llm: Any = None, *,
                 oracle: OracleLLM | None = None, household: Household | None = None,
                 retriever_params: dict[str, Any] | None = None) -> None:
        self.config = config
        self.variant = resolve_variant(config.variant)
        self.dir = Path(run_dir)
        self.oracle = oracle if oracle is not None else (OracleLLM() if config.oracle else None)
        if self.oracle is None and llm is None:
            raise ValueError('a non-oracle run needs an LLM client')
        self.llm = CountingLLM(self.oracle if self.oracle is not None else llm)
        self._household = household
        self.retriever_params = dict(retriever_params or {})
        self.records: list[dict[str, Any]] = []
        self.domain, self.constraints, _ = household_domain()
        self.setup_seconds = 0.0

    # ------------------------------------------------------------------ paths
    @property
    def checkpoint_path(self) -> Path:
        """``checkpoint.json``: truth, generator state, counters."""
        return self.dir / 'checkpoint.json'

    @property
    def records_path(self) -> Path:
        """``steps.jsonl``: one judged record per step."""
        return self.dir / 'steps.jsonl'

    @property
    def store_path(self) -> Path:
        """``agent.db``: the agent's KG (SQLite store)."""
        return self.dir / 'agent.db'

    @property
    def total_steps(self) -> int:
        """Return the number of steps of the whole run."""
        return self.config.changes + self.config.tasks

    def done(self) -> bool:
        """Tell whether the run directory holds a finished run."""
        return len(self.records) >= self.total_steps

    # ------------------------------------------------------------------ setup / resume
    def _household_for(self) -> Household:
        if self._household is None:
            self._household = generate_household(self.config.seed)
        return self._household

    def open(self, fresh: bool = False) -> None:
        """Create the run directory or resume the one there."""
        began = time.perf_counter()
        self.dir.mkdir(parents=True, exist_ok=True)
        household = self._household_for()
        self.gen = StreamGenerator(household, self.config.seed, self.config.task_every)
        if fresh:
            for p in (self.checkpoint_path, self.records_path):
                p.unlink(missing_ok=True)
            for suffix in ('', '-wal', '-shm'):
                Path(str(self.store_path) + suffix).unlink(missing_ok=True)
        if self.checkpoint_path.exists():
            self._resume()
        else:
            self._start(household)
        self.world = WorldModel(self.domain, self.constraints, store=Store(self.store_path))
        self._reconcile_store()
        self.retriever = make_retriever(self.variant.retriever, **self.retriever_params)
        self.planner = Planner(self.domain, engine=self.config.engine,
                               timeout=self.config.plan_timeout)
        # the oracle answers a whole report with its gold diff: no part-by-part reading and
        # no confirmation (it knows only gold JSON)
        grounded = self.config.split_clauses and self.oracle is None
        self.updater = NLUpdater(self.world, self.llm, self.retriever,
                                 max_attempts=self.config.max_attempts,
                                 verify=self.variant.verify,
                                 split_clauses=grounded, confirm=self.oracle is None)
        self.task_planner = TaskPlanner(self.world, self.llm, self.retriever, self.planner,
                                        max_attempts=self.config.max_attempts,
                                        resolve_mentions=grounded, read_back=grounded,
                                        split_clauses=grounded)
        self.setup_seconds += time.perf_counter() - began

    def _start(self, household: Household) -> None:
        for suffix in ('', '-wal', '-shm'):
            Path(str(self.store_path) + suffix).unlink(missing_ok=True)
        self.records_path.unlink(missing_ok=True)
        Store.create(self.store_path, household.kg, domain_path=str(self._abs(DOMAIN_PATH)),
                     constraints_path=str(self._abs(CONSTRAINTS_PATH)),
                     source='benchmark-init', synchronous='NORMAL').close()
        self.truth = household.kg.copy()
        self.records = []
        self.agent_event_id = 0  # set after the store is opened
        self.prior_seconds = 0.0
        self._fresh_store = True

    @staticmethod
    def _abs(rel: str) -> Path:
        from l3mp_ros.paths import resolve
        return resolve(rel)

    def _resume(self) -> None:
        try:
            ck = json.loads(self.checkpoint_path.read_text(encoding='utf-8'))
        except (OSError, json.JSONDecodeError) as exc:
            raise RunError(f'cannot read {self.checkpoint_path}: {exc}') from None
        if ck.get('schema') != RUN_SCHEMA:
            raise RunError(f'{self.checkpoint_path} is not a household run checkpoint')
        if ck.get('config') != self.config.identity():
            raise RunError(
                f'{self.dir} holds a run with another configuration '
                f'({json.dumps(ck.get("config"), sort_keys=True)}); use another output '
                'directory or start over with --fresh')
        if not self.store_path.exists():
            raise RunError(f'{self.store_path} is missing: cannot resume (use --fresh)')
        self.truth = KnowledgeGraph.from_json(ck['truth'])
        _restore_gen(self.gen, ck['generator'])
        self.agent_event_id = int(ck['agent_event_id'])
        self.prior_seconds = float(ck.get('seconds', 0.0))
        n = int(ck['records'])
        lines: list[str] = []
        if self.records_path.exists():
            lines = [ln for ln in self.records_path.read_text(encoding='utf-8').splitlines()
                     if ln.strip()]
        if len(lines) < n:
            raise RunError(f'{self.records_path} has {len(lines)} records, the checkpoint '
                           f'expects {n}')
        self.records = [json.loads(ln) for ln in lines[:n]]
        if len(lines) > n:  # a step recorded after the last checkpoint: drop it, redo it
            _write_atomic(self.records_path, ''.join(ln + '\n' for ln in lines[:n]))
        self._fresh_store = False

    def _reconcile_store(self) -> None:
        """Undo agent-store events written by a step whose checkpoint never happened."""
        store = self.world.store
        assert store is not None
        if self._fresh_store:
            self.agent_event_id = store.last_event_id()
            self._fresh_store = False
            self._checkpoint()
            return
        later = [e for e in store.history(self.agent_event_id) if e.status == 'applied']
        for event in reversed(later):
            if event.update is not None:
                self.world.apply(event.update.inverse(), source='benchmark-resume-rollback',
                                 utterance=f'undo event {event.id} of an interrupted step',
                                 verify=False)
        self.agent_event_id = store.last_event_id()

    def _checkpoint(self) -> None:
        body = {
            'schema': RUN_SCHEMA, 'config': self.config.identity(),
            'records': len(self.records), 'agent_event_id': self.agent_event_id,
            'generator': _gen_state(self.gen), 'truth': self.truth.to_json(),
            'seconds': self.prior_seconds,
        }
        _write_atomic(self.checkpoint_path, json.dumps(body, separators=(',', ':')))

    def _append_record(self, record: dict[str, Any]) -> None:
        with open(self.records_path, 'a', encoding='utf-8') as fh:
            fh.write(json.dumps(record, sort_keys=True, separators=(',', ':')) + '\n')
            fh.flush()
            os.fsync(fh.fileno())

    def close(self) -> None:
        """Close the agent's store."""
        world = getattr(self, 'world', None)
        if world is not None:
            world.close()

    # ------------------------------------------------------------------ stepping
    def _next_kind(self) -> str:
        changes_done = sum(1 for r in self.records if r['kind'] == 'change')
        tasks_done = len(self.records) - changes_done
        changes_left = self.config.changes - changes_done
        tasks_left = self.config.tasks - tasks_done
        if tasks_left > 0 and (self.gen.changes_since_task >= self.config.task_every
                               or changes_left <= 0):
            return 'task'
        return 'change' if changes_left > 0 else 'task'

    def run(self, progress: Callable[[int], None] | None = None,
            stop_after: int | None = None) -> list[dict[str, Any]]:
        """Run the remaining steps (``stop_after``: at most that many); return all records."""
        count = 0
        while not self.done():
            if stop_after is not None and count >= stop_after:
                break
            began = time.perf_counter()
            kind = self._next_kind()
            step = self.gen.next_step(self.truth, kind)
            record = self._change(step) if kind == 'change' else self._task(step)
            record['timing']['step_seconds'] = time.perf_counter() - began
            self.prior_seconds += record['timing']['step_seconds']
            assert self.world.store is not None
            self.agent_event_id = self.world.store.last_event_id()
            self._append_record(record)
            self.records.append(record)
            self._checkpoint()
            count += 1
            if progress is not None:
                progress(1)
        return self.records

    def _base_record(self, step: Step) -> dict[str, Any]:
        return {'schema': RECORD_SCHEMA, 'index': step.index, 'kind': step.kind,
                'subkind': step.subkind, 'text': step.text, 'timing': {}}

    def _llm_fields(self, record: dict[str, Any], log: CallLog) -> None:
        if log.fatal:
            raise RunError(f'step {record["index"]} not recorded, the LLM failed: {log.fatal}; '
                           'run the same command again to resume')
        record['llm'] = {'calls': log.calls, 'prompt_tokens': log.prompt_tokens,
                         'completion_tokens': log.completion_tokens, 'retries': log.retries,
                         'errors': log.errors, 'cached': log.cached}
        record['timing']['llm_seconds'] = log.seconds
        record['timing']['retrieval_llm_seconds'] = log.retrieval_seconds

    def _change(self, step: Step) -> dict[str, Any]:
        assert step.diff is not None
        rec = self._base_record(step)
        truth_before = self.truth.copy()
        agent_before = self.world.snapshot()
        if self.oracle is not None:
            self.oracle.step = step
        self.llm.reset()
        outcome = None
        if self.variant.updates:
            outcome = self.updater.run(step.text, source='nl')
        log = self.llm.reset()
        self.truth.apply(step.diff)
        gold = truth_before.diff_to(self.truth)
        agent_after = self.world.kg
        agent_diff = agent_before.diff_to(agent_after)
        rec.update({
            'gold_diff': gold.to_json(), 'agent_diff': agent_diff.to_json(),
            'applied': bool(outcome and outcome.applied),
            'diff_correct': agent_diff == gold,
            'state_correct': agent_after.facts == self.truth.facts,
            'state_errors': _state_errors(agent_after, self.truth),
            'reprompts': max(0, (outcome.attempts if outcome else 0) - 1),
            'errors': list(outcome.errors) if outcome else [],
            'context_facts': outcome.context_size if outcome else 0,
        })
        self._llm_fields(rec, log)
        if outcome is not None:
            rec['timing']['retrieval_seconds'] = outcome.retrieval_seconds
            rec['timing']['update_seconds'] = outcome.seconds
        return rec

    def _task(self, step: Step) -> dict[str, Any]:
        rec = self._base_record(step)
        tasks_done = sum(1 for r in self.records if r['kind'] == 'task')
        agent_before = self.world.snapshot()
        if self.oracle is not None:
            self.oracle.step = step
        self.llm.reset()
        outcome = self.task_planner.run(step.text, task_id=f'task-{step.index}')
        log = self.llm.reset()
        plan = outcome.plan
        steps = list(plan.steps) if plan is not None and plan.ok else []
        planned = plan is not None and plan.ok
        executed = None
        if planned:
            executed = execute_plan(self.domain, self.truth, steps)
            self.truth = executed.kg
        reached = goal_holds(self.truth, step.goal or '')
        success = bool(planned and executed is not None and executed.ok and reached)
        own_errors: list[str] = []
        if planned and steps and self.variant.updates:
            own = execute_plan(self.domain, self.world.kg, steps)
            if not own.update.is_empty():
                res = self.world.apply(own.update, source='execution', utterance=step.text,
                                       info={'task': step.index, 'steps': steps})
                own_errors = list(res.errors)
            if not own.ok:
                own_errors.append(f'own plan failed on the own KG: {own.error}')
        rec.update({
            'gold_goal': step.goal, 'agent_goal': outcome.goal, 'status': outcome.status,
            'plan': steps, 'planned': planned,
            'executed_ok': bool(executed.ok) if executed is not None else False,
            'execution_error': executed.error if executed is not None else None,
            'goal_reached': reached, 'success': success,
            'state_correct': self.world.kg.facts == self.truth.facts,
            'state_errors': _state_errors(self.world.kg, self.truth),
            'own_execution_errors': own_errors,
            'reprompts': max(0, outcome.attempts - 1), 'errors': list(outcome.errors),
            'context_facts': outcome.context_size,
            'widening': plan.widening if plan is not None else None,
        })
        self._llm_fields(rec, log)
        timing = rec['timing']
        timing['retrieval_seconds'] = outcome.retrieval_seconds
        timing['planner_seconds'] = _planner_seconds(plan)
        timing['planner_total_seconds'] = float(plan.timings.get('total', 0.0)) if plan else 0.0
        timing['task_seconds'] = outcome.seconds
        if planned and steps and tasks_done in _sample_tasks(self.config.tasks,
                                                             self.config.speedup_sample):
            t0 = time.perf_counter()
            full = self.planner.plan(agent_before, outcome.goal or '', context='full',
                                     timeout=self.config.speedup_timeout)
            timing['full_planner_seconds'] = _planner_seconds(full)
            timing['full_status'] = full.status
            timing['measurement_seconds'] = time.perf_counter() - t0
        return rec

    # ------------------------------------------------------------------ summary
    def summary(self) -> dict[str, Any]:
        """Return the metrics of the records so far (see :func:`summarise`)."""
        return summarise(self.records, self.config, self.variant,
                         wall_seconds=self.prior_seconds + self.setup_seconds)


def _state_errors(agent: KnowledgeGraph, truth: KnowledgeGraph, limit: int = 6) -> dict:
    """Return up to ``limit`` facts only the agent believes and only the truth has."""
    a, t = agent.facts, truth.facts
    if a == t:
        return {}
    return {'extra': sorted(' '.join(f.triplet()) for f in a - t)[:limit],
            'missing': sorted(' '.join(f.triplet()) for f in t - a)[:limit],
            'n_extra': len(a - t), 'n_missing': len(t - a)}


# =========================================================================== metrics
def _frac(values: Iterable[bool]) -> float | None:
    vals = list(values)
    return (sum(1 for v in vals if v) / len(vals)) if vals else None


def _dist(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {'n': 0, 'mean': None, 'median': None, 'max': None, 'total': 0}
    return {'n': len(values), 'mean': statistics.fmean(values),
            'median': statistics.median(values), 'max': max(values), 'total': sum(values)}


def summarise(records: list[dict[str, Any]], config: RunConfig, variant: Variant,
              wall_seconds: float = 0.0) -> dict[str, Any]:
    """Compute the run's metrics from its records.

    ``state_change_success``: fraction of change steps after which the agent's KG equals
    the truth; ``diff_success``: fraction of change steps whose KG change equals the
    truth's; ``plan_success``: fraction of tasks whose plan ran on the truth and reached
    the gold goal. Token counts are per update (change step) and per task, retrieval
    calls included. ``planner_speedup``: mean over the measured successful tasks of
    ``full-KG planner time / (retrieval time without LLM latency + planner time)``.
    """
    changes = [r for r in records if r['kind'] == 'change']
    tasks = [r for r in records if r['kind'] == 'task']
    per_change: dict[str, dict[str, Any]] = {}
    for r in changes:
        d = per_change.setdefault(r['subkind'], {'n': 0, 'state_ok': 0, 'diff_ok': 0})
        d['n'] += 1
        d['state_ok'] += int(r['state_correct'])
        d['diff_ok'] += int(r['diff_correct'])
    per_task: dict[str, dict[str, Any]] = {}
    for r in tasks:
        d = per_task.setdefault(r['subkind'], {'n': 0, 'success': 0})
        d['n'] += 1
        d['success'] += int(r['success'])

    def tokens(rs: list[dict[str, Any]]) -> dict[str, Any]:
        prompt = [r['llm']['prompt_tokens'] for r in rs]
        comp = [r['llm']['completion_tokens'] for r in rs]
        total = [p + c for p, c in zip(prompt, comp, strict=True)]
        return {'prompt_total': sum(prompt), 'completion_total': sum(comp),
                'per_step': _dist([float(t) for t in total]),
                'prompt_mean': statistics.fmean(prompt) if prompt else None,
                'completion_mean': statistics.fmean(comp) if comp else None}

    speedups: list[float] = []
    measured: list[dict[str, Any]] = []
    for r in tasks:
        t = r['timing']
        if 'full_planner_seconds' not in t:
            continue
        rag = max(0.0, t.get('retrieval_seconds', 0.0) - t.get('retrieval_llm_seconds', 0.0))
        ctx = rag + t.get('planner_seconds', 0.0)
        full = t['full_planner_seconds']
        item = {'index': r['index'], 'subkind': r['subkind'], 'success': r['success'],
                'rag_seconds': rag, 'planner_seconds': t.get('planner_seconds', 0.0),
                'full_planner_seconds': full, 'full_status': t.get('full_status'),
                'speedup': (full / ctx) if ctx > 0 else None}
        measured.append(item)
        if r['success'] and item['speedup'] is not None:
            speedups.append(item['speedup'])
    all_llm = [r['llm'] for r in records]
    retrieval = [r['timing'].get('retrieval_seconds', 0.0)
                 - r['timing'].get('retrieval_llm_seconds', 0.0) for r in records
                 if 'retrieval_seconds' in r['timing']]
    return {
        'variant': variant.name, 'label': variant.label, 'description': variant.description,
        'retriever': variant.retriever, 'verify': variant.verify, 'updates': variant.updates,
        'oracle': config.oracle, 'model': 'oracle' if config.oracle else config.model,
        'seed': config.seed, 'engine': config.engine, 'changes': len(changes),
        'tasks': len(tasks), 'planned_changes': config.changes, 'planned_tasks': config.tasks,
        'complete': len(records) >= config.changes + config.tasks,
        'state_change_success': _frac(r['state_correct'] for r in changes),
        'diff_success': _frac(r['diff_correct'] for r in changes),
        'plan_success': _frac(r['success'] for r in tasks),
        'final_state_correct': records[-1]['state_correct'] if records else None,
        'per_kind': {'changes': dict(sorted(per_change.items())),
                     'tasks': dict(sorted(per_task.items()))},
        'tokens': {'update': tokens(changes), 'task': tokens(tasks),
                   'prompt_total': sum(x['prompt_tokens'] for x in all_llm),
                   'completion_total': sum(x['completion_tokens'] for x in all_llm),
                   'estimated': config.oracle},
        'llm_calls': sum(x['calls'] for x in all_llm),
        'llm_retries': sum(x['retries'] for x in all_llm),
        'llm_errors': sum(x['errors'] for x in all_llm),
        'reprompts': sum(r.get('reprompts', 0) for r in records),
        'planner_speedup': statistics.fmean(speedups) if speedups else None,
        'planner_speedup_lower_bound': any(m['full_status'] == 'timeout' and m['success']
                                           for m in measured),
        'timing': {
            'wall_seconds': wall_seconds,
            'measurement_seconds': sum(r['timing'].get('measurement_seconds', 0.0)
                                       for r in tasks),
            'retrieval_seconds': _dist(retrieval),
            'planner_seconds': _dist([r['timing'].get('planner_seconds', 0.0) for r in tasks]),
            'speedup': {'measured': measured, 'mean': (statistics.fmean(speedups)
                                                       if speedups else None),
                        'median': statistics.median(speedups) if speedups else None},
        },
    }


_NAME_RE = re.compile(r'[^a-z0-9+\-_]+')


def variant_dirname(name: str) -> str:
    """Return a directory name for a variant (``R+_V`` → ``R+_V``)."""
    return _NAME_RE.sub('_', resolve_variant(name).name.lower())


__all__ = ['CountingLLM', 'OracleLLM', 'PAPER_VARIANTS', 'RunConfig', 'RunError', 'Runner',
           'VARIANTS',
           'Variant', 'resolve_variant', 'summarise', 'variant_dirname']
