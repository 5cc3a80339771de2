# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: the SQLite and PostgreSQL stores side by side, in one run.

1. **Latency**: ``WorldModel.apply`` (lock, catch up, verify, durable commit) of random
   valid moves on a household KG of ``--entities`` entities (kg_apply.py's KG), p50/p95
   per backend, and their ratio.
2. **Throughput** with 1, 2 and 4 writer processes on one store, each applying
   ``--per-writer`` moves of items (overlapping: every writer moves any item, from its
   current view; a stale move is verified against the caught-up state and refused, which
   counts as a write too): updates/s per backend and the ratio to one writer.

The PostgreSQL server is a real one on 127.0.0.1 (``l3mp_ros.testing.postgres``: the
pgserver wheel's binaries, fsync on), the SQLite store a WAL file with synchronous=FULL.
Usage: ``python benchmarks/store_backends.py [--entities 10000] [--updates 500]
[--per-writer 200] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from kg_apply import build, pct

from l3mp_ros.compose import open_store_world
from l3mp_ros.testing.postgres import LocalPostgres
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.stores import create_store

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / 'pddl/household.pddl'
CONSTRAINTS = ROOT / 'pddl/household.constraints.yaml'

WRITER = textwrap.dedent("""
    import json, random, sys, time
    from l3mp_ros.world.kg import Fact, Update
    from l3mp_ros.compose import open_store_world
    location, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    world = open_store_world(location, sys.argv[4], sys.argv[5], writer=f'w{seed}')
    rng = random.Random(seed)
    items = sorted(e for e, t in world.kg.entities.items() if t in ('pen', 'book'))[:400]
    tables = sorted(e for e, t in world.kg.entities.items() if t == 'table')
    print('ready', flush=True)
    sys.stdin.readline()  # start together
    began, applied = time.perf_counter(), 0
    for _ in range(n):
        item = rng.choice(items)
        cur = next((f for f in world.kg.facts_of(item) if f.predicate == 'placed_at_table'
                    and f.args[0] == item), None)
        if cur is None:
            cur = Fact('placed_at_table', (item, rng.choice(tables)))  # a guess: refused
        dest = rng.choice([t for t in tables[:40] if t != cur.args[1]])
        res = world.apply(Update.of([cur], [Fact('placed_at_table', (item, dest))]),
                          source='bench')
        applied += res.applied
    print(json.dumps({'seconds': time.perf_counter() - began, 'writes': n,
                      'applied': applied}), flush=True)
    world.close()
""")


def moves(kg: KnowledgeGraph, rng: random.Random, n: int) -> list[Update]:
    """Return ``n`` valid moves applied in sequence (an item from one table to another)."""
    kg = kg.copy()
    tables = sorted(e for e, t in kg.entities.items() if t == 'table')
    placed = sorted(f for f in kg.facts if f.predicate == 'placed_at_table')
    where = {f.args[0]: f.args[1] for f in placed}
    items = sorted(where)
    out = []
    for _ in range(n):
        item = rng.choice(items)
        dest = rng.choice([t for t in tables if t != where[item]])
        out.append(Update.of([Fact('placed_at_table', (item, where[item]))],
                             [Fact('placed_at_table', (item, dest))]))
        where[item] = dest
    return out


def latency(location: str, kg: KnowledgeGraph, updates: list[Update]) -> dict:
    """Return p50/p95 (ms) of apply+commit on a fresh store at ``location``."""
    create_store(location, kg, domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS),
                 overwrite=True).close()
    world = open_store_world(location)
    times = []
    for upd in updates:
        t0 = time.perf_counter()
        res = world.apply(upd, source='bench')
        times.append(time.perf_counter() - t0)
        assert res.applied, res.errors
    world.close()
    return {'p50_ms': pct(times, 0.5), 'p95_ms': pct(times, 0.95), 'n': len(times)}


def throughput(location: str, kg: KnowledgeGraph, writers: int, per_writer: int) -> dict:
    """Return updates/s of ``writers`` processes writing one fresh store together."""
    create_store(location, kg, domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS),
                 overwrite=True).close()
    env = os.environ.copy()
    env['PYTHONPATH'] = str(ROOT) + os.pathsep + env.get('PYTHONPATH', '')
    procs = [subprocess.Popen([sys.executable, '-c', WRITER, location, str(seed),
                               str(per_writer), str(DOMAIN), str(CONSTRAINTS)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
             for seed in range(1, writers + 1)]
    for p in procs:
        assert p.stdout.readline().strip() == 'ready'
    began = time.perf_counter()
    for p in procs:
        p.stdin.write('go\n')
        p.stdin.flush()
    results = [json.loads(p.stdout.readline()) for p in procs]
    wall = time.perf_counter() - began
    for p in procs:
        p.wait(timeout=60)
    writes = sum(r['writes'] for r in results)
    return {'writers': writers, 'writes': writes, 'applied': sum(r['applied'] for r in results),
            'seconds': round(wall, 2), 'per_s': round(writes / wall, 1)}


def main() -> None:
    """Run both measurements on both backends and print tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--entities', type=int, default=10_000)
    ap.add_argument('--updates', type=int, default=500)
    ap.add_argument('--per-writer', type=int, default=200)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--out', type=Path)
    args = ap.parse_args()
    DomainSchema.load(DOMAIN)
    Constraints.load(CONSTRAINTS)
    kg = build(args.entities, args.seed)
    print(f'KG: {len(kg.entities)} entities, {len(kg.facts)} facts')
    updates = moves(kg, random.Random(args.seed + 1), args.updates)
    report: dict = {'entities': len(kg.entities), 'facts': len(kg.facts)}
    with tempfile.TemporaryDirectory() as tmp, LocalPostgres() as pg:
        where = {'sqlite': str(Path(tmp) / 'kg.db'), 'postgresql': pg.create_database('bench')}
        report['latency'] = {name: latency(loc, kg, updates) for name, loc in where.items()}
        report['throughput'] = {name: [throughput(loc, kg, w, args.per_writer)
                                       for w in (1, 2, 4)] for name, loc in where.items()}
    lat = report['latency']
    print(f'\napply + commit, {args.updates} updates on {len(kg.entities)} entities:')
    print(f'{"backend":<12}{"p50 ms":>9}{"p95 ms":>9}')
    for name, row in lat.items():
        print(f'{name:<12}{row["p50_ms"]:>9.2f}{row["p95_ms"]:>9.2f}')
    print(f'postgresql/sqlite p50: {lat["postgresql"]["p50_ms"] / lat["sqlite"]["p50_ms"]:.2f}')
    print(f'\nthroughput, {args.per_writer} writes per writer (overlapping items):')
    print(f'{"backend":<12}{"writers":>8}{"writes/s":>10}{"vs 1":>7}{"applied":>9}')
    for name, rows in report['throughput'].items():
        for row in rows:
            ratio = row['per_s'] / rows[0]['per_s']
            print(f'{name:<12}{row["writers"]:>8}{row["per_s"]:>10.1f}{ratio:>7.2f}'
                  f'{row["applied"]:>9}')
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / 'store_backends.json').write_text(json.dumps(report, indent=2))
        print(f'wrote {args.out / "store_backends.json"}')


if __name__ == '__main__':
    main()
