# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark the lifelong memory on the household generator's streams.

1. ``qa``: episodic QA accuracy on generated "where was X before P took it?" questions,
   deterministic path (fact history, no LLM), over a stream applied to a real store.
2. ``experience``: tokens per task and goal success with and without experience memory
   over N tasks (learning curve PNG). The LLM is *simulated* (the embedded model needs
   ~30 s per call): when the prompt holds a complete instantiated worked example, the
   simulated writer copies it; otherwise it writes the gold goal with probability
   ``--p-cold`` per attempt (3 attempts). Measured for real: retrieval, instantiation
   (whether the copied goal equals the gold goal), prompt tokens (words, as FakeOpenAI
   counts). Success = the final goal equals the gold goal as a literal set.
3. ``ann``: recall@1 of the HNSW index vs brute force on ``--ann-n`` vectors.

Usage::

    python benchmarks/memory.py --out results/memory
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from l3mp_ros.llm.prompting import system_prompt, user_message  # noqa: E402
from l3mp_ros.memory.episodic import EpisodicMemory  # noqa: E402
from l3mp_ros.memory.experience import ExperienceMemory  # noqa: E402
from l3mp_ros.memory.index import VectorIndex  # noqa: E402
from l3mp_ros.memory.qa import PastAnswerer  # noqa: E402
from l3mp_ros.world.model import WorldModel  # noqa: E402
from l3mp_ros.world.store import Store  # noqa: E402
from l3mp_ros.world.stores import create_store  # noqa: E402
from l3mp_ros_bench.household.generator import generate_stream  # noqa: E402
from l3mp_ros_bench.household.goals import parse_goal  # noqa: E402
from l3mp_ros_bench.household.household import generate_household, household_domain  # noqa: E402


def bench_qa(seed: int, changes: int, tmp: Path, backend: str = 'sqlite') -> dict:
    h = generate_household(seed)
    steps = generate_stream(h, seed, changes, 0)
    domain, constraints, _ = household_domain()
    server = None
    if backend == 'postgresql':  # a real server on loopback; memory reads its event log
        from l3mp_ros.testing.postgres import LocalPostgres
        server = LocalPostgres().start()
        location = server.create_database(f'qa{seed}')
        store = create_store(location, h.kg)
        mem_path = tmp / f'qa{seed}-memory.db'
    else:
        store = Store.create(tmp / f'qa{seed}.db', h.kg, synchronous='OFF')
        location = mem_path = store.path
    world = WorldModel(domain, constraints, store=store)
    began = time.perf_counter()
    for s in steps:
        world.apply(s.diff, source='nl', utterance=s.text, verify=False)
    apply_s = time.perf_counter() - began
    mem = EpisodicMemory(mem_path, events=str(location), embedder=False)
    began = time.perf_counter()
    mem.sync()
    sync_s = time.perf_counter() - began
    gold: dict[tuple[str, str], list] = {}
    for s in steps:
        if s.subkind != 'pick_up' or not s.actor:
            continue
        item = next(f.args[0] for f in s.diff.add if f.predicate == 'in_person_hand')
        was = sorted(f for f in s.diff.remove if f.args and f.args[0] == item
                     and len(f.args) >= 2)
        gold[(item, s.actor)] = was  # the latest time P took X wins
    qa = PastAnswerer(mem, domain=domain)
    ok, lat = 0, []
    for (item, actor), was in sorted(gold.items()):
        q = (f'Where was {h.info[item].display} before {h.info[actor].display} took it?')
        t = time.perf_counter()
        ans = qa.answer(world.kg, q)
        lat.append(time.perf_counter() - t)
        ok += sorted(ans.facts) == was
    mem.close()
    world.close()
    if server is not None:
        server.stop()
    return {'backend': backend, 'changes': changes, 'episodes': len(steps), 'questions': len(gold),
            'accuracy': ok / max(len(gold), 1), 'apply_s': round(apply_s, 2),
            'sync_s': round(sync_s, 3),
            'answer_ms_p50': round(1000 * float(np.median(lat)), 2) if lat else None}


def _words(text: str) -> int:
    return len(text.split())


def bench_experience(seed: int, tasks: int, p_cold: float, tmp: Path) -> dict:
    h = generate_household(seed)
    steps = generate_stream(h, seed, tasks * 3, tasks, task_every=3)
    domain = household_domain()[0]
    sys_prompt = system_prompt('goal', domain)
    results = {}
    for use in (False, True):
        rng = random.Random(seed)
        store = Store.create(tmp / f'exp{seed}{use}.db', h.kg, synchronous='OFF')
        exp = ExperienceMemory(store.path) if use else None
        truth = h.kg.copy()
        rows = []
        for s in steps:
            if s.kind == 'change':
                truth.apply(s.diff)
                continue
            facts = truth.subgraph_facts(s.gold_entities, 1)
            base = sys_prompt + '\n' + user_message(truth, facts, 'Task', s.text,
                                                    s.gold_entities)
            block, copied, copied_ok = '', None, False
            if exp is not None:
                found = exp.instantiate(s.text, truth, s.gold_entities,
                                        is_subtype=domain.is_subtype)
                block = ''.join(['Worked examples from similar tasks that succeeded:\n',
                                 '\n\n'.join(i.describe() for i in found), '\n']) if found \
                    else ''
                full = [i for i in found if i.complete]
                if full:
                    copied = full[0].goal
            gold = set(parse_goal(s.goal))
            tokens, success, attempts = 0, False, 0
            for attempt in range(3):
                attempts += 1
                tokens += _words(block + base) + 15 + attempt * 40  # + retry turns
                if attempt == 0 and copied is not None:
                    try:
                        copied_ok = set(parse_goal(copied)) == gold
                    except Exception:  # noqa: BLE001
                        copied_ok = False
                    if copied_ok:
                        success = True
                        break
                    continue
                if rng.random() < p_cold:
                    success = True
                    break
            if success and exp is not None:
                exp.record(s.text, s.goal, truth)
            if s.outcome is not None:
                truth.apply(s.outcome)
            rows.append({'task': s.subkind, 'tokens': tokens, 'success': success,
                         'attempts': attempts, 'copied': copied is not None,
                         'copied_ok': copied_ok})
        if exp is not None:
            results['strategies'] = len(exp)
            exp.close()
        store.close()
        results['with' if use else 'without'] = rows
    return results


def bench_ann(n: int, queries: int, dim: int = 384, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(200, dim)).astype(np.float32)
    data = (centers[rng.integers(0, 200, n)] + 0.6 * rng.normal(size=(n, dim))).astype(
        np.float32)
    brute = VectorIndex(dim, threshold=None)
    brute.add(list(range(n)), data)
    ann = VectorIndex(dim, threshold=0)
    ann.add(list(range(n)), data)
    t = time.perf_counter()
    ann.search(data[0], 1)
    build = time.perf_counter() - t
    qs = data[rng.integers(0, n, queries)] + 0.3 * rng.normal(size=(queries, dim)).astype(
        np.float32)
    hits, tb, ta = 0, [], []
    for q in qs:
        t = time.perf_counter()
        b = brute.search(q, 1)[0][0]
        tb.append(time.perf_counter() - t)
        t = time.perf_counter()
        a = ann.search(q, 1)[0][0]
        ta.append(time.perf_counter() - t)
        hits += a == b
    return {'n': n, 'dim': dim, 'queries': queries, 'recall_at_1': hits / queries,
            'build_s': round(build, 2), 'brute_ms_p50': round(1000 * float(np.median(tb)), 3),
            'hnsw_ms_p50': round(1000 * float(np.median(ta)), 3)}


def plot(res: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for key, label in (('without', 'no experience memory'), ('with', 'experience memory')):
        rows = res[key]
        x = np.arange(1, len(rows) + 1)
        succ = np.cumsum([r['success'] for r in rows]) / x
        tok = np.cumsum([r['tokens'] for r in rows]) / x
        axes[0].plot(x, succ, label=label)
        axes[1].plot(x, tok, label=label)
    axes[0].set(xlabel='tasks', ylabel='cumulative success rate', ylim=(0, 1.05))
    axes[1].set(xlabel='tasks', ylabel='mean prompt tokens / task')
    axes[0].legend()
    fig.suptitle('Experience memory (simulated goal writer)')
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default='results/memory')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--changes', type=int, default=1000)
    ap.add_argument('--tasks', type=int, default=60)
    ap.add_argument('--p-cold', type=float, default=0.6)
    ap.add_argument('--ann-n', type=int, default=20000)
    ap.add_argument('--ann-queries', type=int, default=500)
    ap.add_argument('--only', nargs='*', default=['qa', 'experience', 'ann'])
    ap.add_argument('--backend', choices=('sqlite', 'postgresql'), default='sqlite',
                    help='store of the qa stream (postgresql: a local server is started)')
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        if 'qa' in args.only:
            report['qa'] = bench_qa(args.seed, args.changes, Path(tmp), args.backend)
            print(json.dumps(report['qa']))
        if 'experience' in args.only:
            res = bench_experience(args.seed, args.tasks, args.p_cold, Path(tmp))
            plot(res, out / 'experience_curve.png')
            summary = {}
            for key in ('without', 'with'):
                rows = res[key]
                half = rows[len(rows) // 2:]
                summary[key] = {
                    'tasks': len(rows),
                    'success': sum(r['success'] for r in rows) / len(rows),
                    'success_2nd_half': sum(r['success'] for r in half) / len(half),
                    'tokens_per_task': sum(r['tokens'] for r in rows) / len(rows),
                    'tokens_2nd_half': sum(r['tokens'] for r in half) / len(half),
                    'attempts_per_task': sum(r['attempts'] for r in rows) / len(rows),
                    'copied': sum(r['copied'] for r in rows),
                    'copied_correct': sum(r['copied_ok'] for r in rows)}
            summary['strategies'] = res.get('strategies')
            report['experience'] = summary
            print(json.dumps(summary))
    if 'ann' in args.only:
        report['ann'] = bench_ann(args.ann_n, args.ann_queries)
        print(json.dumps(report['ann']))
    (out / 'memory.json').write_text(json.dumps(report, indent=2))


if __name__ == '__main__':
    main()
