# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: Algorithm 4 alone, each NL task on the true state, the plan checked by replay.

Isolates goal writing from update errors (``l3mp bench household`` chains both, so one
wrong update can fail every later task). Two sources of tasks:

- ``--household-seed N --tasks K``: the first K tasks of the generated household stream
  (a task every 5 changes, the gold diffs applied to the truth, the reference outcome
  applied after each task);
- ``--set DIR``: a directory holding ``domain.pddl``, ``domain.constraints.yaml``,
  ``state.json`` and ``nl_tasks.json`` (``[{"text", "goal", "state"?}]``, ``"state":
  "after_updates"`` reading ``state_after_updates.json``).

A task is right when its plan, executed on the state, makes the gold goal true (a goal
that already holds counts when no step is needed). Results go to ``<out>/tasks.jsonl``;
a rerun with the same ``--out`` resumes. Defaults to the embedded model::

    python benchmarks/nl_tasks.py --household-seed 11 --tasks 20 --out out/nl_tasks_11
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from runlog import RunLog, p95

from l3mp_ros import compose
from l3mp_ros.config import Config
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.problem import GoalError, goal_holds
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.model import WorldModel


def household_tasks(seed: int, count: int) -> tuple[DomainSchema, Constraints, list[dict]]:
    """Return the household domain and the first ``count`` tasks of the seeded stream."""
    from l3mp_ros_bench.household.generator import StreamGenerator
    from l3mp_ros_bench.household.household import generate_household, household_domain
    domain, constraints, _ = household_domain()
    house = generate_household(seed)
    gen = StreamGenerator(house, seed, task_every=5)
    truth = house.kg.copy()
    tasks: list[dict[str, Any]] = []
    while len(tasks) < count:
        kind = 'task' if gen.changes_since_task >= 5 else 'change'
        step = gen.next_step(truth, kind)
        if kind == 'change':
            truth.apply(step.diff)
            continue
        tasks.append({'text': step.text, 'goal': step.goal, 'state': truth.to_json()})
        if step.outcome is not None:
            truth.apply(step.outcome)
    return domain, constraints, tasks


def set_tasks(path: Path) -> tuple[DomainSchema, Constraints, list[dict]]:
    """Return the domain and tasks of a set directory (the shared eval layout)."""
    domain = DomainSchema.load(path / 'domain.pddl')
    constraints = Constraints.load(path / 'domain.constraints.yaml')
    states: dict[str, Any] = {}
    tasks = []
    for t in json.loads((path / 'nl_tasks.json').read_text()):
        name = ('state_after_updates.json' if t.get('state') == 'after_updates'
                else 'state.json')
        if name not in states:
            states[name] = json.loads((path / name).read_text())
        tasks.append({'text': t['text'], 'goal': t['goal'], 'state': states[name]})
    return domain, constraints, tasks


def reached(domain: DomainSchema, kg: KnowledgeGraph, steps: list[str], gold: str) -> bool:
    """Return whether executing ``steps`` on ``kg`` makes the gold goal true."""
    run = execute_plan(domain, kg, steps)
    try:
        return run.ok and goal_holds(domain, run.kg, gold)
    except GoalError:
        return False


def summary(rows: list[dict]) -> str:
    """Return the one-line summary of a run."""
    secs = sorted(r['seconds'] for r in rows) or [0.0]
    right = sum(r['right'] for r in rows)
    tokens = statistics.mean(r['prompt_tokens'] + r['completion_tokens'] for r in rows) \
        if rows else 0
    calls = statistics.mean(r['calls'] for r in rows) if rows else 0
    return (f'tasks right {right}/{len(rows)} ({100 * right / max(1, len(rows)):.0f} %); '
            f'p50 {statistics.median(secs):.1f} s, p95 {p95(secs):.1f} s per task; '
            f'{tokens:.0f} tokens, {calls:.1f} LLM calls per task')


def main(argv: list[str] | None = None) -> int:
    """Run the tasks and print per-task verdicts and the summary line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument('--household-seed', type=int)
    src.add_argument('--set', type=Path, help='a directory in the shared eval layout')
    ap.add_argument('--tasks', type=int, default=20, help='household tasks (default 20)')
    ap.add_argument('--llm', default='local', help='OpenAI-compatible URL (default: embedded)')
    ap.add_argument('--model', default='local')
    ap.add_argument('--retriever', default='link', choices=('link', 'full', 'select', 'search'))
    ap.add_argument('--engine', default='lapkt', choices=('lapkt', 'fast-downward', 'pyperplan'))
    ap.add_argument('--plan-timeout', type=float, default=30.0)
    ap.add_argument('--attempts', type=int, default=3)
    ap.add_argument('--plain', action='store_true',
                    help='no mention grounding, read-backs or parts (the previous pipeline)')
    ap.add_argument('--cache', default=None, help='directory of cached LLM replies')
    ap.add_argument('--out', type=Path, default=Path('out/nl_tasks'))
    args = ap.parse_args(argv)
    domain, constraints, tasks = (household_tasks(args.household_seed, args.tasks)
                                  if args.set is None else set_tasks(args.set))
    log = RunLog(args.out, 'tasks')
    cfg = Config(store='', llm_url=args.llm or '', llm_model=args.model,
                 llm_cache=args.cache or '', retriever=args.retriever, engine=args.engine,
                 plan_timeout=args.plan_timeout, max_attempts=args.attempts)
    llm = compose.make_llm(cfg, lazy=False)
    retriever = compose.make_retriever(cfg)
    grounded = not args.plain
    for i, task in enumerate(tasks, 1):
        if i in log.done:
            continue
        kg = KnowledgeGraph.from_json(task['state'])
        world = WorldModel(domain, constraints, kg=kg.copy())
        tp = compose.build_agent(cfg, world, llm, retriever=retriever).tasks
        s = tp.settings
        s.resolve_mentions = s.read_back = s.split_clauses = grounded
        began = time.perf_counter()
        out = tp.run(task['text'])
        ok = out.status in ('solved', 'already_satisfied') and reached(
            domain, kg, out.steps, task['goal'])
        row = {'i': i, 'text': task['text'], 'right': ok, 'status': out.status,
               'goal': out.goal, 'gold': task['goal'], 'steps': out.steps,
               'seconds': round(time.perf_counter() - began, 2), 'attempts': out.attempts,
               'calls': out.usage.calls, 'prompt_tokens': out.usage.prompt_tokens,
               'completion_tokens': out.usage.completion_tokens, 'errors': out.errors[:3],
               'notes': [n for h in out.history for n in h.get('notes', [])]}
        log.add(row)
        print(f"{i:3d} {'right' if ok else 'WRONG':5s} {out.status:17s} {row['seconds']:6.1f}s "
              f"{task['text'][:70]}", flush=True)
    log.finish(summary(log.rows))
    return 0


if __name__ == '__main__':
    sys.exit(main())
