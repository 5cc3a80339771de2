# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp bench lifelong``: a long household stream in which the robot also looks.

The household runner (:class:`~l3mp_ros_bench.household.runner.Runner`: resumable, one
record per step) replays changes told in language and tasks planned and executed on the
truth. Here, after every step the robot also *observes*: a ``scene_graph/v1`` built from
the truth for the room it is in and the rooms its plan went through (what is in the room:
furniture, what lies on it, the people there and what they hold; the perceivable
predicates of ``config/household_perception.yaml``) is merged through the same verified
write as everything else (:func:`~l3mp_ros.world.perceive.scene_graph_update`), and the
event names the reports it overrides. Language comes from the oracle, from a **noisy
oracle** that misreads a seeded share of reports (:class:`NoisyOracle`: a wrong entity of
the same type, a dropped removal, a dropped report), or from a real LLM.

Every ``measure_every`` steps a record carries a measurement: precision and recall of the
KG against the truth (perceivable and not), store size, RSS, episodic-memory query p50.
:func:`summarise` turns the records into ``report.json`` (``steps``, ``exact_steps``,
``final_precision``, ``final_recall``, ``repaired_share``, the curves); :func:`write_report`
adds ``report.md`` and ``lifelong.png``.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from l3mp_ros import schemas
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.perceive import load_perceivable, scene_graph_update
from l3mp_ros_bench.household.base import Step
from l3mp_ros_bench.household.oracle import OracleLLM
from l3mp_ros_bench.household.run_config import RunConfig
from l3mp_ros_bench.household.runner import Runner

PERCEPTION_CONFIG = 'config/household_perception.yaml'
# containment in the household domain: (container, content) and (content, container)
HOLDS = ('room_has', 'shelf_has_level')
INSIDE = ('placed_at_', 'on_shelf_level', 'person_in_room', 'agent_in_room',
          'in_person_hand', 'in_agent_hand')
LANGUAGE_SOURCES = ('nl',)
MISREADINGS = ('wrong_entity', 'drop_removal', 'drop_report')


@dataclass
class LifelongConfig(RunConfig):
    """A household run with observations, noise and periodic measurements."""

    noise: float = 0.0  # share of reports the noisy oracle misreads
    observe: bool = True
    measure_every: int = 100


class NoisyOracle(OracleLLM):
    """The gold oracle, misreading a seeded share of reports the same way on every retry."""

    def __init__(self, noise: float, seed: int, kg: Any) -> None:
        super().__init__()
        self.noise = noise
        self.seed = seed
        self.kg = kg  # () -> the agent's KG (the entities a misreading may pick)
        self.misread: dict[int, str] = {}

    def answer(self, schema_name: str, step: Step) -> Any:
        """Return the gold answer, or for a misread report a wrong one."""
        data = super().answer(schema_name, step)
        if schema_name != 'kg_update' or self.noise <= 0:
            return data
        rng = random.Random(f'{self.seed}:{step.index}')
        if rng.random() >= self.noise:
            return data
        mode = rng.choice(MISREADINGS)
        adds = [list(t) for t in data.get('add') or []]
        if mode == 'wrong_entity':
            kg: KnowledgeGraph = self.kg()
            options = []
            for i, t in enumerate(adds):
                if len(t) == 3 and t[2] != 'true':
                    same = sorted(n for n, ty in kg.entities.items()
                                  if ty == kg.entities.get(t[2]) and n != t[2])
                    options += [(i, n) for n in same]
            if options:
                i, other = rng.choice(options)
                adds[i] = [adds[i][0], adds[i][1], other]
                self.misread[step.index] = mode
                return {'remove': data.get('remove') or [], 'add': adds}
            mode = 'drop_report'
        self.misread[step.index] = mode
        if mode == 'drop_removal':
            return {'remove': [], 'add': adds}
        return {'remove': [], 'add': []}


def visible(truth: KnowledgeGraph, rooms: set[str]) -> set[str]:
    """Return what the robot sees in ``rooms``: the rooms and everything contained in them."""
    inside: dict[str, set[str]] = {}
    for f in truth.facts:
        if len(f.args) != 2:
            continue
        if f.predicate in HOLDS:
            inside.setdefault(f.args[0], set()).add(f.args[1])
        elif f.predicate.startswith(INSIDE):
            inside.setdefault(f.args[1], set()).add(f.args[0])
    seen, todo = set(rooms), list(rooms)
    while todo:
        for x in inside.get(todo.pop(), ()):
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return seen


class LifelongRun(Runner):
    """The household runner plus observations and measurements after each step."""

    def __init__(self, config: LifelongConfig, run_dir: str | Path, llm: Any = None) -> None:
        oracle = (NoisyOracle(config.noise, config.seed, lambda: self.world.kg)
                  if config.oracle else None)
        super().__init__(config, run_dir, llm, oracle=oracle)
        self.cfg = config
        self.perceivable = load_perceivable(PERCEPTION_CONFIG)
        self.memory: Any = None

    def close(self) -> None:
        """Close the episodic memory and the store."""
        if self.memory is not None:
            self.memory.close()
            self.memory = None
        super().close()

    # -- steps --------------------------------------------------------------------------
    def _change(self, step: Step) -> dict[str, Any]:
        before = self.errors()
        rec = super()._change(step)
        if isinstance(self.oracle, NoisyOracle):
            rec['misread'] = self.oracle.misread.pop(step.index, None)
        introduced = {k: sorted(set(v) - set(before[k])) for k, v in self.errors().items()}
        rec['introduced'] = introduced  # wrong facts this report left (before looking)
        return self._after(rec, self._robot_rooms())

    def _task(self, step: Step) -> dict[str, Any]:
        rec = super()._task(step)
        rooms = self._robot_rooms() | {a for s in rec['plan'] for a in s.strip('()').split()[1:]
                                       if self.truth.entities.get(a) == 'room'}
        return self._after(rec, rooms)

    def _after(self, rec: dict[str, Any], rooms: set[str]) -> dict[str, Any]:
        if self.cfg.observe:
            rec['observation'] = self._observe(rooms)
        rec['state_correct'] = self.world.kg.facts == self.truth.facts
        errors = self.errors()
        rec['wrong'] = {k: len(v) for k, v in errors.items()}
        if (rec['index'] + 1) % max(1, self.cfg.measure_every) == 0 or \
                len(self.records) + 1 >= self.total_steps:
            rec['measure'] = self._measure(errors)
        return rec

    def _robot_rooms(self) -> set[str]:
        return {f.args[1] for f in self.truth.facts_with('agent_in_room')}

    def errors(self) -> dict[str, list[str]]:
        """Wrong facts of the agent's KG: extra/missing, perceivable or not."""
        a, t = self.world.kg.facts, self.truth.facts
        out: dict[str, list[str]] = {}
        for kind, facts in (('extra', a - t), ('missing', t - a)):
            for f in facts:
                key = f'{kind}_{"seen" if f.predicate in self.perceivable else "unseen"}'
                out.setdefault(key, []).append(' '.join(f.triplet()))
        return {k: out.get(k, []) for k in ('extra_seen', 'missing_seen', 'extra_unseen',
                                            'missing_unseen')}

    def _observe(self, rooms: set[str]) -> dict[str, Any]:
        """Merge what the robot sees in ``rooms`` (built from the truth)."""
        observed = visible(self.truth, rooms)
        facts = [list(f.triplet()) for f in sorted(self.truth.facts)
                 if f.predicate in self.perceivable and f.args and f.args[0] in observed]
        frame = {'schema': schemas.SCENE_GRAPH_SCHEMA, 'entities': [], 'facts': facts,
                 'observed': sorted(observed), 'source': 'perception'}
        update, new = scene_graph_update(self.world.kg, frame, self.perceivable, self.domain,
                                         self.constraints)
        out: dict[str, Any] = {'rooms': sorted(rooms), 'observed': len(observed),
                               'changed': len(update.add) + len(update.remove)}
        if update.is_empty() and not new:
            return out
        overrides = self.world.overrides(update, LANGUAGE_SOURCES)
        began = time.perf_counter()
        res = self.world.apply(update, source='perception', new_entities=new,
                               info={'overrides': overrides} if overrides else None)
        out.update(applied=res.applied, overrides=overrides, errors=res.errors[:3],
                   apply_seconds=time.perf_counter() - began)
        return out

    def _measure(self, errors: dict[str, list[str]]) -> dict[str, Any]:
        import psutil

        from l3mp_ros.memory.episodic import EpisodicMemory
        a, t = self.world.kg.facts, self.truth.facts
        out: dict[str, Any] = {}
        for part, keep in (('seen', True), ('unseen', False)):
            aa = {f for f in a if (f.predicate in self.perceivable) == keep}
            tt = {f for f in t if (f.predicate in self.perceivable) == keep}
            out[f'precision_{part}'] = len(aa & tt) / len(aa) if aa else 1.0
            out[f'recall_{part}'] = len(aa & tt) / len(tt) if tt else 1.0
        out['precision'] = len(a & t) / len(a) if a else 1.0
        out['recall'] = len(a & t) / len(t) if t else 1.0
        path = self.store_path
        out['store_mb'] = sum(p.stat().st_size for p in path.parent.glob(path.name + '*')
                              if p.is_file()) / 1e6
        out['rss_mb'] = psutil.Process().memory_info().rss / 1e6
        if self.memory is None:
            self.memory = EpisodicMemory(path, embedder=False)
        self.memory.sync()
        names = sorted(self.world.kg.entities)
        rng = random.Random(len(self.records))
        lat = []
        for name in rng.sample(names, min(20, len(names))):
            began = time.perf_counter()
            self.memory.history(name, limit=10)
            lat.append(time.perf_counter() - began)
        out['episodic_query_ms_p50'] = 1000 * statistics.median(lat) if lat else None
        out['reports_marked_contradicted'] = len(self.memory.contradicted())
        return out


# ------------------------------------------------------------------------------ reports
def _p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarise(records: list[dict[str, Any]], config: LifelongConfig,
              final_errors: dict[str, list[str]]) -> dict[str, Any]:
    """Return report.json's body: totals, repair share and the measured curves.

    ``final_errors``: the wrong facts of the agent's KG at the end (``LifelongRun.errors``).
    A misread report counts as repaired when it left wrong perceivable facts and none of
    them is still wrong at the end.
    """
    exact, since, longest = 0, 0, 0
    for r in records:
        exact += bool(r.get('state_correct'))
        since = 0 if r.get('state_correct') else since + 1
        longest = max(longest, since)
    measures = [{'step': r['index'] + 1, **r['measure']} for r in records if 'measure' in r]
    final = measures[-1] if measures else {}
    last_wrong = records[-1].get('wrong', {}) if records else {}
    left = set(final_errors.get('extra_seen', [])) | set(final_errors.get('missing_seen', []))
    errs, repaired = [], []
    for r in records:
        mine = set(r.get('introduced', {}).get('extra_seen', [])) | set(
            r.get('introduced', {}).get('missing_seen', []))
        if r.get('misread') and mine:
            errs.append(r)
            if not mine & left:
                repaired.append(r)
    window = {}
    for r in records:
        w = (r['index'] // max(1, config.measure_every)) * max(1, config.measure_every)
        t = r['timing']
        cur = window.setdefault(w, {'apply': [], 'retrieval': [], 'planner': []})
        if 'update_seconds' in t:
            cur['apply'].append(t['update_seconds'])
        if r.get('observation', {}).get('apply_seconds') is not None:
            cur['apply'].append(r['observation']['apply_seconds'])
        if t.get('retrieval_seconds') is not None:
            cur['retrieval'].append(t['retrieval_seconds'])
        if t.get('planner_seconds') is not None and r['kind'] == 'task':
            cur['planner'].append(t['planner_seconds'])
    latency = [{'step': w + config.measure_every,
                'apply_p50_ms': 1000 * (_p(v['apply'], 0.5) or 0),
                'apply_p95_ms': 1000 * (_p(v['apply'], 0.95) or 0),
                'retrieval_p50_ms': 1000 * (_p(v['retrieval'], 0.5) or 0),
                'planner_s_per_task': (statistics.mean(v['planner']) if v['planner']
                                       else None)} for w, v in sorted(window.items())]
    return {
        'schema': 'l3mp/lifelong_report/v1', 'config': config.identity(),
        'steps': len(records), 'exact_steps': exact, 'longest_inexact_stretch': longest,
        'steps_since_exact': since,
        'final_precision': final.get('precision'), 'final_recall': final.get('recall'),
        'final_wrong': last_wrong,
        'misread_reports': sum(1 for r in records if r.get('misread')),
        'misread_with_perceivable_errors': len(errs),
        'repaired_share': (len(repaired) / len(errs)) if errs else None,
        'never_repaired_unseen': sum(1 for r in records if r.get('misread') and (
            r.get('introduced', {}).get('extra_unseen')
            or r.get('introduced', {}).get('missing_unseen'))),
        'step_seconds_total': sum(r['timing'].get('step_seconds') or 0.0 for r in records),
        'tasks_at_plan_timeout': sum(
            1 for r in records if r['kind'] == 'task' and not r.get('success')
            and (r['timing'].get('planner_seconds') or 0.0) >= 0.99 * config.plan_timeout),
        'tasks': sum(1 for r in records if r['kind'] == 'task'),
        'tasks_succeeded': sum(1 for r in records if r['kind'] == 'task' and r.get('success')),
        'observations_overriding_reports': sum(
            1 for r in records if r.get('observation', {}).get('overrides')),
        'reports_marked_contradicted': final.get('reports_marked_contradicted'),
        'curves': measures, 'latency': latency,
        'final_errors': {k: v[:20] for k, v in final_errors.items()},
    }


def write_report(summary: dict[str, Any], out: Path, command: str) -> list[Path]:
    """Write report.json, report.md and lifelong.png; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / 'report.json', out / 'report.md']
    paths[0].write_text(json.dumps(summary, indent=2))
    s = summary

    def pct(v: float | None) -> str:
        return '–' if v is None else f'{100 * v:.2f} %'
    lines = [f'# Lifelong household run ({s["steps"]} steps)', '', f'`{command}`', '',
             '| steps | exact steps | longest inexact stretch | final precision | final recall '
             '| misread reports | repaired by observation | tasks ok |', '|---' * 8 + '|',
             f'| {s["steps"]} | {s["exact_steps"]} | {s["longest_inexact_stretch"]} | '
             f'{pct(s["final_precision"])} | {pct(s["final_recall"])} | '
             f'{s["misread_reports"]} | {pct(s["repaired_share"])} '
             f'({s["misread_with_perceivable_errors"]} with perceivable errors) | '
             f'{s["tasks_succeeded"]}/{s["tasks"]} |', '',
             f'Step time in all: {s["step_seconds_total"] / 3600:.2f} h. Tasks that failed at '
             f'the planner\'s time limit: {s["tasks_at_plan_timeout"]}.', '',
             f'Wrong facts at the end: {json.dumps(s["final_wrong"])}. Misread reports with '
             f'errors on facts perception never sees: {s["never_repaired_unseen"]}. '
             f'Reports that observations overrode: {s["observations_overriding_reports"]} '
             f'observation(s); reports marked contradicted in episodic memory at the last '
             f'measure: {s.get("reports_marked_contradicted")}.', '',
             '| step | precision seen | recall seen | precision unseen | recall unseen | '
             'store MB | RSS MB | episodic query ms |', '|---' * 8 + '|']
    for m in s['curves']:
        lines.append(f'| {m["step"]} | {pct(m["precision_seen"])} | {pct(m["recall_seen"])} '
                     f'| {pct(m["precision_unseen"])} | {pct(m["recall_unseen"])} | '
                     f'{m["store_mb"]:.1f} | {m["rss_mb"]:.0f} | '
                     f'{m["episodic_query_ms_p50"] or 0:.2f} |')
    paths[1].write_text('\n'.join(lines) + '\n')
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return paths
    curves, lat = s['curves'], s['latency']
    if not curves:
        return paths
    fig, axes = plt.subplots(3, 1, figsize=(8, 10), sharex=True)
    x = [m['step'] for m in curves]
    for key, style in (('precision_seen', '-'), ('recall_seen', '-'),
                       ('precision_unseen', '--'), ('recall_unseen', '--')):
        axes[0].plot(x, [m[key] for m in curves], style, label=key.replace('_', ' '))
    axes[0].set_ylabel('share of facts right')
    axes[0].legend(fontsize=8)
    axes[1].plot(x, [m['store_mb'] for m in curves], label='store MB')
    axes[1].plot(x, [m['rss_mb'] for m in curves], label='RSS MB')
    axes[1].legend(fontsize=8)
    lx = [m['step'] for m in lat]
    axes[2].plot(lx, [m['apply_p50_ms'] for m in lat], label='apply p50 ms')
    axes[2].plot(lx, [m['apply_p95_ms'] for m in lat], label='apply p95 ms')
    axes[2].plot(lx, [m['retrieval_p50_ms'] for m in lat], label='retrieval p50 ms')
    axes[2].plot(x, [m['episodic_query_ms_p50'] or 0 for m in curves],
                 label='episodic query p50 ms')
    axes[2].set_xlabel('step')
    axes[2].legend(fontsize=8)
    fig.tight_layout()
    png = out / 'lifelong.png'
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return [*paths, png]
