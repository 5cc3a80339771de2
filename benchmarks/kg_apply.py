# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: verify + apply + durable commit per update on a large household KG.

Builds a household-domain KG of ~10,000 entities / ~50,000 facts, stores it in SQLite
(WAL, synchronous=FULL), then applies random valid moves (an item changes place) and
flag flips through ``WorldModel.apply``; reports median/p95 of the verifier alone and of
verify+commit+apply, plus rejected-update timing. Usage:
``python benchmarks/kg_apply.py [--entities 10000] [--updates 2000] [--out DIR]``.
The household domain's rules bound facts per entity (~2.1 here): 10,000 entities give
~21,000 facts; ``--entities 24000`` gives ~51,000.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.store import Store

ROOT = Path(__file__).resolve().parent.parent


def build(entities: int, seed: int) -> KnowledgeGraph:
    """A valid household KG with about ``entities`` entities and 5 facts per entity."""
    rng = random.Random(seed)
    kg = KnowledgeGraph('household')
    rooms = max(10, entities // 250)
    tables = []
    for r in range(rooms):
        room = f'room_{r}'
        kg.add_entity(room, 'room')
        for t in range(8):
            table = f'table_{r}_{t}'
            kg.add_entity(table, 'table')
            kg.add_fact(Fact('room_has', (room, table)))
            tables.append(table)
        light = f'light_{r}'
        kg.add_entity(light, 'light')
        kg.add_fact(Fact('room_has', (room, light)))
    kg.add_entity('the_robot', 'agent')
    kg.add_fact(Fact('agent_in_room', ('the_robot', 'room_0')))
    people = []
    for p in range(max(20, entities // 100)):
        name = f'person_{p}'
        kg.add_entity(name, 'person')
        kg.add_fact(Fact('person_in_room', (name, f'room_{rng.randrange(rooms)}')))
        people.append(name)
    n_items = entities - len(kg.entities)
    for i in range(n_items):
        kind = rng.choice(['pen', 'book', 'cloth', 'phone', 'glass'])
        name = f'{kind}_{i}'
        kg.add_entity(name, kind)
        if rng.random() < 0.1:
            kg.add_fact(Fact('in_person_hand', (name, rng.choice(people))))
        else:
            kg.add_fact(Fact('placed_at_table', (name, rng.choice(tables))))
        if kind == 'cloth':  # flags make the KG denser (~3 facts per entity)
            kg.add_fact(Fact('cloth_is_clean', (name,)))
            kg.add_fact(Fact('cloth_is_dry', (name,)))
        elif kind == 'phone':
            kg.add_fact(Fact('phone_owned_by', (name, rng.choice(people))))
            kg.add_fact(Fact('phone_ringing', (name,)))
        elif kind == 'glass':
            kg.add_fact(Fact('dish_is_clean', (name,)))
            kg.add_fact(Fact('glass_empty', (name,)))
    return kg


def pct(xs: list[float], q: float) -> float:
    """Return the q-quantile in milliseconds."""
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--entities', type=int, default=10_000)
    ap.add_argument('--updates', type=int, default=2000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--out', type=Path)
    args = ap.parse_args()
    domain = DomainSchema.load(ROOT / 'pddl/household.pddl')
    constraints = Constraints.load(ROOT / 'pddl/household.constraints.yaml')
    kg = build(args.entities, args.seed)
    print(f'KG: {len(kg.entities)} entities, {len(kg.facts)} facts')
    rng = random.Random(args.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = Store.create(Path(tmp) / 'kg.db', kg)
        create_s = time.perf_counter() - t0
        world = WorldModel(domain, constraints, store=store)
        tables = sorted(n for n, t in kg.entities.items() if t == 'table')
        items = sorted(n for n, t in kg.entities.items() if t in ('pen', 'book', 'cloth'))
        verify_t, apply_t, reject_t = [], [], []
        for _ in range(args.updates):
            item = rng.choice(items)
            where = [f for f in world.kg.facts_of(item)
                     if f.predicate in ('placed_at_table', 'in_person_hand')]
            new = Fact('placed_at_table', (item, rng.choice(tables)))
            if new in where:
                continue
            update = Update.of(where, [new])
            t0 = time.perf_counter()
            errors = world.verifier.check(world.kg, update)
            verify_t.append(time.perf_counter() - t0)
            assert not errors, errors
            t0 = time.perf_counter()
            res = world.apply(update, source='bench')
            apply_t.append(time.perf_counter() - t0)
            assert res.applied
            bad = Update.of([], [Fact('placed_at_table', (item, rng.choice(tables)))])
            t0 = time.perf_counter()
            res = world.apply(bad, source='bench')
            reject_t.append(time.perf_counter() - t0)
            assert not res.applied
        t0 = time.perf_counter()
        reopened = Store(Path(tmp) / 'kg.db').load_kg()
        reopen_s = time.perf_counter() - t0
        assert reopened.to_json() == world.kg.to_json()
        world.close()
    result = {
        'entities': len(kg.entities), 'facts': len(kg.facts), 'updates': len(apply_t),
        'store_create_s': round(create_s, 3), 'reopen_load_s': round(reopen_s, 3),
        'verify_ms_p50': round(pct(verify_t, 0.5), 3),
        'verify_ms_p95': round(pct(verify_t, 0.95), 3),
        'apply_commit_ms_p50': round(pct(apply_t, 0.5), 3),
        'apply_commit_ms_p95': round(pct(apply_t, 0.95), 3),
        'apply_commit_ms_mean': round(1000 * statistics.mean(apply_t), 3),
        'reject_log_ms_p50': round(pct(reject_t, 0.5), 3),
    }
    for k, v in result.items():
        print(f'{k:>22}: {v}')
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / 'kg_apply.json').write_text(json.dumps(result, indent=2))


if __name__ == '__main__':
    main()
