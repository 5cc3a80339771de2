# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Start-up time of a world model from a store with a long event log.

A store keeps the current state in its own tables (``entities``, ``facts``) beside the
event log, so opening it reads the state, not the history: start-up should not grow with
the number of events. This measures it: a household store gets N changes of the household
generator's stream (repeated with new seeds until N; applied without verification, which
start-up does not depend on), then opening it as a ``WorldModel`` is timed (median of
``--repeat`` opens), with the store size on disk and the first
episodic-memory sync over the whole log (the one cost that does grow with it).

Usage::

    python benchmarks/startup.py --events 10000 100000 [--backend postgresql] --out DIR
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from l3mp_ros.memory.episodic import EpisodicMemory  # noqa: E402
from l3mp_ros.world.model import WorldModel  # noqa: E402
from l3mp_ros.world.stores import create_store, open_store  # noqa: E402
from l3mp_ros_bench.household.generator import generate_stream  # noqa: E402
from l3mp_ros_bench.household.household import generate_household, household_domain  # noqa: E402


def fill(world: WorldModel, h, n: int, seed: int) -> float:
    """Apply ``n`` generated changes; return the seconds it took."""
    began, done, s = time.perf_counter(), 0, seed
    while done < n:
        for step in generate_stream(h, s, min(2000, n - done), 0):
            if step.diff is None or done >= n:
                continue
            if world.apply(step.diff, source='nl', utterance=step.text, verify=False).applied:
                done += 1
        h = generate_household(s)  # the next stretch starts from a fresh household
        world.apply(world.kg.diff_to(h.kg), source='reset', verify=False)
        s += 1
    return time.perf_counter() - began


def measure(n: int, backend: str, tmp: Path, repeat: int, server) -> dict:
    h = generate_household(1)
    domain, constraints, _ = household_domain()
    if backend == 'postgresql':
        location = server.create_database(f'startup_{n}')
        mem_path = tmp / f'startup_{n}-memory.db'
    else:
        location = mem_path = tmp / f'startup_{n}.db'
    store = create_store(location, h.kg, synchronous='OFF') if backend == 'sqlite' \
        else create_store(location, h.kg)
    world = WorldModel(domain, constraints, store=store)
    fill_s = fill(world, h, n, 1)
    events = world.store.last_event_id()
    world.close()
    opens = []
    for _ in range(repeat):
        began = time.perf_counter()
        w = WorldModel(domain, constraints, store=open_store(location))
        opens.append(time.perf_counter() - began)
        facts = len(w.kg)
        w.close()
    mem = EpisodicMemory(mem_path, events=str(location), embedder=False)
    began = time.perf_counter()
    episodes = mem.sync()
    sync_s = time.perf_counter() - began
    mem.close()
    size = (Path(location).stat().st_size + sum(
        p.stat().st_size for p in Path(location).parent.glob(Path(location).name + '-wal'))
        if backend == 'sqlite' else None)
    return {'backend': backend, 'events': events, 'facts': facts,
            'fill_s': round(fill_s, 1), 'open_s_median': round(statistics.median(opens), 4),
            'open_s_min': round(min(opens), 4), 'store_mb': round(size / 1e6, 1)
            if size else None, 'memory_sync_s': round(sync_s, 2), 'episodes': episodes}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--events', type=int, nargs='+', default=[10000, 100000])
    ap.add_argument('--backend', choices=('sqlite', 'postgresql'), default='sqlite')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--out', default='results/startup')
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = None
    if args.backend == 'postgresql':
        from l3mp_ros.testing.postgres import LocalPostgres
        server = LocalPostgres().start()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in args.events:
                rows.append(measure(n, args.backend, Path(tmp), args.repeat, server))
                print(json.dumps(rows[-1]), flush=True)
    finally:
        if server is not None:
            server.stop()
    (out / f'startup_{args.backend}.json').write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == '__main__':
    sys.exit(main())
