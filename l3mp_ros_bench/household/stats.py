# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Metrics of a benchmark run, computed from its records (paper Table I's columns)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros_bench.household.run_config import RunConfig
from l3mp_ros_bench.household.variants import Variant


def state_errors(agent: KnowledgeGraph, truth: KnowledgeGraph, limit: int = 6) -> dict:
    """Return up to ``limit`` facts only the agent believes and only the truth has."""
    a, t = agent.facts, truth.facts
    if a == t:
        return {}
    return {'extra': sorted(' '.join(f.triplet()) for f in a - t)[:limit],
            'missing': sorted(' '.join(f.triplet()) for f in t - a)[:limit],
            'n_extra': len(a - t), 'n_missing': len(t - a)}


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
        # asking back (``--speaker gold``): questions answered, per change, and on how many
        'questions': sum(r.get('asked', 0) for r in changes),
        'questions_per_change': (sum(r.get('asked', 0) for r in changes) / len(changes)
                                 if changes else None),
        'changes_asked': sum(bool(r.get('asked')) for r in changes),
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
