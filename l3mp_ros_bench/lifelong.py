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

With ``patrol='idle'`` the robot also spends up to ``idle_moves`` moves after each step
looking at the place whose perceivable facts are most worth checking (told and
unconfirmed, or unseen for long)
(:class:`~l3mp_ros.tasking.patrol.PatrolPolicy`): the visit is planned by the agent's
planner, executed on the truth step by step (its effects written to the agent's KG as
``execution``), and every room it enters observed. Each wrong perceivable fact is followed
from the step it appeared to the step it was set right, and by what (``report``, ``task``
travel or ``patrol``).

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
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.tasking.patrol import PatrolPolicy, load_patrol_spec, unconfirmed_at
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.perceive import load_perceivable, perceived, scene_graph_update
from l3mp_ros.world.support import replay
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
    patrol: str = 'off'  # off | idle: look to confirm facts between steps
    idle_moves: int = 0  # moves the robot may spend on patrol after each step
    stale_min: float | None = None  # PatrolPolicy's stale_min (None: its default)

    def identity(self) -> dict[str, Any]:
        """Return the fields a resumed run must match (runs without patrol as before)."""
        data = super().identity()
        if self.patrol == 'off' and not self.idle_moves:
            data.pop('patrol', None)
            data.pop('idle_moves', None)
        if self.stale_min is None:
            data.pop('stale_min', None)  # runs made before the setting resume unchanged
        return data


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
        self.patrol: PatrolPolicy | None = None
        if config.patrol == 'idle':
            spec = load_patrol_spec(PERCEPTION_CONFIG)
            assert spec is not None
            self.patrol = PatrolPolicy(self.domain, self.perceivable, spec,
                                       **({} if config.stale_min is None
                                          else {'stale_min': config.stale_min}))
        self.wrong_since: dict[str, int] = {}  # wrong perceivable fact -> step it appeared

    def open(self, fresh: bool = False) -> None:
        """Open or resume the run; rebuild which wrong facts wait for repair."""
        super().open(fresh)
        # steps are as far apart as the machine makes them: a report contradicting any
        # sighting since the fact was written is doubtful, so runs repeat exactly
        self.world.recent_seen = float('inf')
        # and every look confirms what it sees (when each fact was last seen is exact)
        self.world.refresh_seen = 0.0
        if self.records and self.world.store is not None:
            # resumed: what looks found wrong so far is in the log, not in the support table
            learnt = replay(self.world.kg.facts, self.world.store.history())
            for name in ('refuted', 'upheld', 'stale_refuted', 'stale_exposure'):
                setattr(self.world.support, name, getattr(learnt, name))
        self.wrong_since = {}
        for r in self.records:
            for k in r.get('appeared', []):
                self.wrong_since[k] = r['index']
            for rp in r.get('repairs', []):
                self.wrong_since.pop(rp['fact'], None)

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
        self._track(rec, 'report')
        return self._after(rec, self._robot_rooms(), 'report')

    def _task(self, step: Step) -> dict[str, Any]:
        rec = super()._task(step)
        rooms = self._robot_rooms() | {a for s in rec['plan'] for a in s.strip('()').split()[1:]
                                       if self.truth.entities.get(a) == 'room'}
        self._track(rec, 'task')
        return self._after(rec, rooms, 'task')

    # -- wrong facts, followed one by one --------------------------------------------
    def _wrong_now(self) -> set[str]:
        e = self.errors()
        return {f'extra {x}' for x in e['extra_seen']} | {f'missing {x}' for x in
                                                          e['missing_seen']}

    def _track(self, rec: dict[str, Any], by: str) -> None:
        """Note the wrong perceivable facts that appeared or were repaired just now."""
        now = self._wrong_now()
        for k in sorted(now - set(self.wrong_since)):
            self.wrong_since[k] = rec['index']
            rec.setdefault('appeared', []).append(k)
        for k in sorted(set(self.wrong_since) - now):
            since = self.wrong_since.pop(k)
            rec.setdefault('repairs', []).append({'fact': k, 'steps': rec['index'] - since,
                                                  'by': by})

    # -- patrol ------------------------------------------------------------------------
    def _patrol(self, rec: dict[str, Any]) -> None:
        """Spend up to ``idle_moves`` moves looking at the places most worth checking."""
        assert self.patrol is not None
        moves, visits = 0, []
        while moves < self.cfg.idle_moves:
            last = self.world.last_event()
            visit = self.patrol.choose(self.world.kg, self.world.support, last)
            if visit is None:
                break
            began = time.perf_counter()
            steps = self.patrol.route(self.world.kg, visit)
            done = {'place': visit.place, 'told': len(visit.facts)}
            if steps is None:
                plan = self.planner.plan(self.world.kg, visit.goal,
                                         timeout=min(10.0, self.cfg.plan_timeout))
                steps = list(plan.steps) if plan.ok else []
                done['planned'] = True
                if not steps:
                    self.patrol.skip(visit.place, f'no plan ({plan.status})', last)
                    done['skipped'] = f'no plan ({plan.status})'
                    visits.append(done)
                    continue
                self.patrol.remember(self.world.kg, visit, steps)
            done['plan_seconds'] = round(time.perf_counter() - began, 3)
            visits.append(done)
            for step in steps[:self.cfg.idle_moves - moves]:
                ex = execute_plan(self.domain, self.truth, [step])
                if not ex.ok:
                    done['failed'] = ex.error
                    break
                self.truth = ex.kg
                own = execute_plan(self.domain, self.world.kg, [step])
                if own.ok and not own.update.is_empty():
                    self.world.apply(own.update, source='execution', utterance=step,
                                     info={'patrol': visit.place})
                moves += 1
                obs = self._observe(self._robot_rooms())
                done['confirmed'] = done.get('confirmed', 0) + obs.get('told_confirmed', 0)
                done['overrides'] = done.get('overrides', 0) + len(obs.get('overrides', []))
            if 'failed' in done:
                self.patrol.skip(visit.place, f'the visit failed: {done["failed"]}', last)
                break
            if visit.place not in self._robot_rooms():
                break  # the idle budget ran out on the way: go on after the next step
            done['reached'] = True
            if unconfirmed_at(self.patrol, self.world.kg, self.world.support, visit.place):
                self.patrol.skip(visit.place, 'visited: what I was told there cannot be seen '
                                 'from the room', self.world.last_event())
        rec['patrol'] = {'moves': moves, 'visits': visits}
        self._track(rec, 'patrol')

    def _after(self, rec: dict[str, Any], rooms: set[str], by: str) -> dict[str, Any]:
        if self.cfg.observe:
            rec['observation'] = self._observe(rooms)
            self._track(rec, by)
        if self.patrol is not None and self.cfg.observe:
            self._patrol(rec)
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
        confirms = self.world.to_confirm(perceived(frame, self.perceivable) - update.add)
        told = [f for f in confirms if (s := self.world.support.get(f)) is not None
                and s.kind == 'told' and not s.confirmed]
        if update.is_empty() and not new and not confirms:
            return out
        overrides = self.world.overrides(update, LANGUAGE_SOURCES)
        info: dict[str, Any] = {'observed': len(observed)}
        if overrides:
            info['overrides'] = overrides
        if confirms:
            info['confirmed'] = [list(f.triplet()) for f in confirms]
        out['told_confirmed'] = len(told)
        began = time.perf_counter()
        res = self.world.apply(update, source='perception', new_entities=new, info=info)
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


def _num(v: float | None) -> str:
    return '–' if v is None else f'{v:+.3f}'


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
        **_patrol_summary(records, measures, config),
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
        # asking back (``--speaker gold``): questions answered and reports that asked
        'questions': sum(r.get('asked', 0) for r in records),
        'reports_asked': sum(bool(r.get('asked')) for r in records),
        'tasks_succeeded': sum(1 for r in records if r['kind'] == 'task' and r.get('success')),
        'observations_overriding_reports': sum(
            1 for r in records if r.get('observation', {}).get('overrides')),
        'reports_marked_contradicted': final.get('reports_marked_contradicted'),
        'curves': measures, 'latency': latency,
        'final_errors': {k: v[:20] for k, v in final_errors.items()},
    }


def slope(measures: list[dict[str, Any]], key: str = 'precision_seen',
          after: int = 0) -> float | None:
    """Return the least-squares slope of ``key`` over the measures, in points per 100 steps."""
    pts = [(m['step'], m[key]) for m in measures if m['step'] > after and key in m]
    if len(pts) < 2:
        return None
    mx = statistics.mean(x for x, _ in pts)
    my = statistics.mean(y for _, y in pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return 100 * 100 * sum((x - mx) * (y - my) for x, y in pts) / den if den else None


def _patrol_summary(records: list[dict[str, Any]], measures: list[dict[str, Any]],
                    config: LifelongConfig) -> dict[str, Any]:
    """Return the patrol's cost and what it found, and per-fact repair times."""
    repairs = [rp for r in records for rp in r.get('repairs', [])]
    appeared = sum(len(r.get('appeared', [])) for r in records)
    by: dict[str, int] = {}
    for rp in repairs:
        by[rp['by']] = by.get(rp['by'], 0) + 1
    times = sorted(rp['steps'] for rp in repairs)
    visits = [v for r in records for v in (r.get('patrol') or {}).get('visits', [])]
    moves = sum((r.get('patrol') or {}).get('moves', 0) for r in records)
    after = [m for m in measures if m['step'] > 50]
    return {
        'patrol': config.patrol, 'idle_moves': config.idle_moves,
        'patrol_moves': moves, 'moves_per_step': moves / len(records) if records else 0.0,
        'patrol_visits': len(visits),
        'patrol_visits_reached': sum(1 for v in visits if v.get('reached')),
        'patrol_skipped': sum(1 for v in visits if v.get('skipped') or v.get('failed')),
        'patrol_told_confirmed': sum(v.get('confirmed', 0) for v in visits),
        'patrol_plan_seconds': sum(v.get('plan_seconds', 0.0) for v in visits),
        'wrong_facts_appeared': appeared, 'wrong_facts_repaired': len(repairs),
        'wrong_facts_pending': appeared - len(repairs),
        'repaired_by': by,
        'repair_steps': {'median': _p(times, 0.5), 'p90': _p(times, 0.9),
                         'max': times[-1] if times else None,
                         'histogram': _histogram(times)},
        'precision_seen_slope_pp_per_100': slope(measures),
        'precision_seen_min_after_50': min((m['precision_seen'] for m in after), default=None),
    }


def _histogram(times: list[int]) -> dict[str, int]:
    edges = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500)
    out: dict[str, int] = {}
    for lo, hi in zip(edges, edges[1:] + (None,), strict=True):
        n = sum(1 for t in times if t >= lo and (hi is None or t < hi))
        out[f'{lo}-{hi - 1}' if hi is not None and hi - 1 != lo else
            (str(lo) if hi is not None else f'{lo}+')] = n
    return out


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
             f'Patrol: {s.get("patrol", "off")} (idle moves {s.get("idle_moves", 0)}): '
             f'{s.get("patrol_moves", 0)} moves ({s.get("moves_per_step", 0):.2f} per step), '
             f'{s.get("patrol_visits", 0)} visits, {s.get("patrol_told_confirmed", 0)} told '
             f'facts confirmed. Wrong perceivable facts: {s.get("wrong_facts_appeared")} '
             f'appeared, repaired by {json.dumps(s.get("repaired_by"))}, '
             f'{s.get("wrong_facts_pending")} pending; steps from wrong write to repair: '
             f'median {s.get("repair_steps", {}).get("median")}, p90 '
             f'{s.get("repair_steps", {}).get("p90")}, max '
             f'{s.get("repair_steps", {}).get("max")}. Perceivable precision slope: '
             f'{_num(s.get("precision_seen_slope_pp_per_100"))} points per 100 steps. Asked '
             f'back: {s.get("questions", 0)} questions on {s.get("reports_asked", 0)} reports.',
             '',
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
