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
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from l3mp_ros import compose
from l3mp_ros.config import Config
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import PlanResult
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.store import Store
from l3mp_ros_bench.household.base import Step
from l3mp_ros_bench.household.checkpoint import (
    RunError,
    append_record,
    generator_state,
    restore_generator,
    write_atomic,
)
from l3mp_ros_bench.household.generator import StreamGenerator
from l3mp_ros_bench.household.goals import goal_holds
from l3mp_ros_bench.household.household import (
    CONSTRAINTS_PATH,
    DOMAIN_PATH,
    Household,
    generate_household,
    household_domain,
)
from l3mp_ros_bench.household.oracle import CallLog, CountingLLM, OracleLLM
from l3mp_ros_bench.household.run_config import RunConfig
from l3mp_ros_bench.household.stats import state_errors, summarise
from l3mp_ros_bench.household.variants import (
    resolve_variant,
)
from l3mp_ros_bench.speaker import converse

RUN_SCHEMA = 'l3mp/household_run/v1'
RECORD_SCHEMA = 'l3mp/household_record/v1'


def _sample_tasks(tasks: int, sample: int) -> set[int]:
    """Return task ordinals (0-based) spread evenly over the run for the full-KG planner."""
    if sample <= 0 or tasks <= 0:
        return set()
    if sample >= tasks:
        return set(range(tasks))
    return {min(tasks - 1, int((k + 0.5) * tasks / sample)) for k in range(sample)}


def _planner_seconds(plan: PlanResult | None) -> float:
    """Build + search time over the widening attempts (validation excluded)."""
    if plan is None:
        return 0.0
    return sum(float(a.get('build', 0.0)) + float(a.get('plan', 0.0)) for a in plan.attempts)


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
        self.report_oracle = (OracleLLM() if config.oracle_reports and self.oracle is None
                              else None)
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
        self.gen = StreamGenerator(household, self.config.seed, self.config.task_every,
                                   cover=self.config.cover)
        if fresh:
            for p in (self.checkpoint_path, self.records_path):
                p.unlink(missing_ok=True)
            for suffix in ('', '-wal', '-shm'):
                Path(str(self.store_path) + suffix).unlink(missing_ok=True)
        if self.checkpoint_path.exists():
            self._resume()
        else:
            self._start(household)
        # the oracle answers a whole report with its gold diff: no part-by-part reading and
        # no confirmation, no place check, no states-in-other-words call (only gold JSON)
        grounded = self.config.split_clauses and self.oracle is None
        cfg = Config(domain=DOMAIN_PATH, constraints=CONSTRAINTS_PATH,
                     store=str(self.store_path), initial_state='',
                     retriever=self.variant.retriever, engine=self.config.engine,
                     plan_timeout=self.config.plan_timeout,
                     max_attempts=self.config.max_attempts, verify=self.variant.verify,
                     confirm=self.oracle is None, place_check=self.oracle is None,
                     **({'ask_other_words': False} if self.oracle is not None else {}))
        self.world = compose.open_world(cfg)
        self._reconcile_store()
        agent = compose.build_agent(
            cfg, self.world, self.llm,
            retriever=compose.make_retriever(cfg, **self.retriever_params))
        self.retriever, self.planner = agent.retriever, agent.planner
        self.updater, self.task_planner = agent.updater, agent.tasks
        self.updater.settings.split_clauses = grounded
        if self.report_oracle is not None:  # gold reports: read as the oracle run reads them
            self.updater.llm = self.report_oracle
            us = self.updater.settings
            us.split_clauses = us.confirm = us.place_check = us.ask_other_words = False
        tp = self.task_planner
        s = tp.settings
        s.resolve_mentions = s.read_back = s.split_clauses = grounded
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
        restore_generator(self.gen, ck['generator'])
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
            write_atomic(self.records_path, ''.join(ln + '\n' for ln in lines[:n]))
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
            'generator': generator_state(self.gen), 'truth': self.truth.to_json(),
            'seconds': self.prior_seconds,
        }
        write_atomic(self.checkpoint_path, json.dumps(body, separators=(',', ':')))

    def _append_record(self, record: dict[str, Any]) -> None:
        append_record(self.records_path, record)

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
        if self.report_oracle is not None:
            self.report_oracle.step = step
        self.llm.reset()
        outcome = None
        talk = None
        if self.variant.updates:
            outcome = self.updater.run(step.text, source='nl')
            talk = converse(outcome, self.updater.answer, self._told(truth_before, step))
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
            'state_errors': state_errors(agent_after, self.truth),
            'reprompts': max(0, (outcome.attempts if outcome else 0) - 1),
            'errors': list(outcome.errors) if outcome else [],
            'context_facts': outcome.context_size if outcome else 0,
            'asked': talk.asked if talk else 0,
        })
        if talk and talk.turns:
            rec['talk'] = talk.turns
        self._llm_fields(rec, log)
        if outcome is not None:
            rec['timing']['retrieval_seconds'] = outcome.retrieval_seconds
            rec['timing']['update_seconds'] = outcome.seconds
        return rec

    def _told(self, before: KnowledgeGraph, step: Step) -> set[Fact] | None:
        """Return what holds after ``step`` for the gold speaker (None: nobody answers)."""
        if self.config.speaker != 'gold':
            return None
        after = before.copy()
        after.apply(step.diff)
        return set(after.facts)

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
            'state_errors': state_errors(self.world.kg, self.truth),
            'own_execution_errors': own_errors,
            'reprompts': max(0, outcome.attempts - 1), 'errors': list(outcome.errors),
            # what Algorithm 4's checks did (asked about a kind, negated, dropped ...)
            'notes': [n for h in outcome.history for n in h.get('notes', [])],
            'context_facts': outcome.context_size,
            'widening': plan.widening if plan is not None else None,
            'solved_by': plan.solved_by if plan is not None else None,
        })
        self._llm_fields(rec, log)
        timing = rec['timing']
        timing['retrieval_seconds'] = outcome.retrieval_seconds
        timing['planner_seconds'] = _planner_seconds(plan)
        timing['planner_total_seconds'] = float(plan.timings.get('total', 0.0)) if plan else 0.0
        timing['engine_seconds'] = dict(plan.engine_seconds) if plan is not None else {}
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
