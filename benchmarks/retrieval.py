# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark search-based retrieval (R^S) on generated households of 1k–50k entities.

Generates apartment blocks (owners, rooms, furniture, coloured items, placement facts),
samples items that are unambiguous given colour + kind + room, and grounds gold query
graphs ("red pen" in "Jerry Smith's bedroom", optionally via "table") with
``SearchRetriever.retrieve_with_query``: no LLM. Reports the one-time entity embedding,
per-query latency (p50/p95 of the whole call: query embedding with a cold cache, the
similarity matrix product, Algorithm 2 and context assembly; also without the embedding),
entity recall and target accuracy. Usage::

    python benchmarks/retrieval.py --sizes 1000 10000 50000 --queries 200 --out results/
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from l3mp_ros.retrieval.embed import EntityIndex, get_embedder  # noqa: E402
from l3mp_ros.retrieval.query_graph import QueryGraph  # noqa: E402
from l3mp_ros.retrieval.search import SearchRetriever  # noqa: E402
from l3mp_ros.world.kg import Fact, KnowledgeGraph  # noqa: E402

FIRST = ['jerry', 'tom', 'anna', 'maria', 'li', 'omar', 'sofia', 'ken', 'eva', 'raj',
         'lucy', 'pablo', 'nina', 'ivan', 'mia', 'sam', 'yara', 'hugo', 'zoe', 'ali']
LAST = ['smith', 'garcia', 'chen', 'muller', 'rossi', 'kim', 'novak', 'silva', 'khan',
        'jones', 'berg', 'dubois', 'sato', 'costa', 'ward']
ROOMS = {
    'kitchen': ['counter', 'table', 'cabinet', 'shelf'],
    'living_room': ['sofa', 'coffee_table', 'bookshelf', 'tv_stand'],
    'bedroom': ['bed', 'nightstand', 'dresser', 'desk'],
    'bathroom': ['sink', 'cabinet', 'shelf', 'bathtub'],
    'office': ['desk', 'bookshelf', 'cabinet', 'chair'],
    'hallway': ['shoe_rack', 'bench', 'shelf', 'coat_stand'],
}
COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'white', 'orange', 'purple', 'pink',
           'brown', 'grey', 'silver']
KINDS = ['pen', 'cup', 'mug', 'book', 'plate', 'bowl', 'spoon', 'fork', 'knife', 'bottle',
         'towel', 'pillow', 'lamp', 'phone', 'remote', 'candle', 'vase', 'box', 'basket',
         'notebook', 'scissors', 'stapler', 'glove', 'hat', 'scarf', 'sock', 'shoe', 'toy',
         'ball', 'clock']
PER_APARTMENT = 250


def generate(n_entities: int, seed: int) -> tuple[KnowledgeGraph, dict[str, Any]]:
    """Return a household KG of about ``n_entities`` entities and its placement index."""
    rng = random.Random(seed)
    kg = KnowledgeGraph('household')
    kg.add_entity('robot', 'robot')
    owners = [f'{f}_{s}' for s in LAST for f in FIRST]
    rng.shuffle(owners)
    n_apts = max(1, round(n_entities / PER_APARTMENT))
    counters: dict[str, int] = {}
    place: dict[str, dict[str, str | None]] = {}

    def fresh(base: str) -> str:
        counters[base] = counters.get(base, 0) + 1
        return f'{base}_{counters[base]}'

    furniture: list[tuple[str, str, str]] = []  # (furniture, kind, room)
    rooms: list[tuple[str, str]] = []  # (room, owner)
    for a in range(n_apts):
        owner = owners[a % len(owners)] + ('' if a < len(owners) else f'_{a // len(owners)}')
        kg.add_entity(owner, 'person')
        hall = f'{owner}_hallway'
        for room, kinds in ROOMS.items():
            rname = f'{owner}_{room}'
            kg.add_entity(rname, 'room')
            rooms.append((rname, owner))
            if room != 'hallway':
                kg.add_fact(Fact('connected', (rname, hall)))
                kg.add_fact(Fact('connected', (hall, rname)))
            for kind in kinds:
                fname = fresh(kind)
                kg.add_entity(fname, 'furniture')
                kg.add_fact(Fact('furniture_in', (fname, rname)))
                furniture.append((fname, kind, rname))
        kg.add_fact(Fact('person_in', (owner, f'{owner}_{rng.choice(list(ROOMS))}')))
    kg.add_fact(Fact('robot_in', ('robot', rooms[0][0])))
    n_items = max(0, n_entities - len(kg.entities))
    per_apt = 6 * 4
    for k in range(n_items):
        fname, fkind, rname = furniture[(k % n_apts) * per_apt + rng.randrange(per_apt)]
        colour, kind = rng.choice(COLOURS), rng.choice(KINDS)
        name = fresh(f'{colour}_{kind}')
        kg.add_entity(name, 'item')
        if rng.random() < 0.7:
            kg.add_fact(Fact('item_on', (name, fname)))
            place[name] = {'colour': colour, 'kind': kind, 'room': rname,
                           'furniture': fname, 'furniture_kind': fkind}
        else:
            kg.add_fact(Fact('item_in', (name, rname)))
            place[name] = {'colour': colour, 'kind': kind, 'room': rname,
                           'furniture': None, 'furniture_kind': None}
    return kg, {'items': place, 'rooms': dict(rooms)}


def room_phrase(room: str, owner: str) -> str:
    """Return "Jerry Smith's bedroom" for ``jerry_smith_bedroom``."""
    kind = room[len(owner) + 1:].replace('_', ' ')
    who = ' '.join(w.capitalize() for w in owner.split('_'))
    return f"{who}'s {kind}"


def gold_queries(kg: KnowledgeGraph, meta: dict[str, Any], count: int,
                 seed: int) -> list[dict[str, Any]]:
    """Sample items unambiguous by colour + kind within their room; build gold queries."""
    rng = random.Random(seed + 1)
    seen: dict[tuple[str, str, str], int] = {}
    for info in meta['items'].values():
        key = (info['colour'], info['kind'], info['room'])
        seen[key] = seen.get(key, 0) + 1
    names = sorted(n for n, i in meta['items'].items()
                   if seen[(i['colour'], i['kind'], i['room'])] == 1)
    out = []
    for name in rng.sample(names, min(count, len(names))):
        info = meta['items'][name]
        room = info['room']
        rp = room_phrase(room, meta['rooms'][room])
        what = f"{info['colour']} {info['kind']}"
        if info['furniture'] and rng.random() < 0.5:
            q = QueryGraph([what, info['furniture_kind'].replace('_', ' '), rp],
                           [(0, 'on', 1), (1, 'in', 2)])
            gold = {0: name, 1: info['furniture'], 2: room}
            facts = {Fact('item_on', (name, info['furniture'])),
                     Fact('furniture_in', (info['furniture'], room))}
        else:
            q = QueryGraph([what, rp], [(0, 'in', 1)])
            gold = {0: name, 1: room}
            facts = ({Fact('item_on', (name, info['furniture'])),
                      Fact('furniture_in', (info['furniture'], room))} if info['furniture']
                     else {Fact('item_in', (name, room))})
        out.append({'query': q, 'gold': gold, 'gold_facts': facts})
    return out


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile."""
    return float(np.percentile(values, p)) if values else float('nan')


def run_config(kg: KnowledgeGraph, retriever: SearchRetriever, queries: list[dict[str, Any]],
               cold: bool) -> dict[str, Any]:
    """Time and score one retriever configuration over the gold queries."""
    embedder = get_embedder()
    times, encs, sims, matches, rest = [], [], [], [], []
    recalls, targets, fact_recall, expanded = [], [], [], []
    for item in queries:
        if cold:
            embedder.clear_cache()
        out = retriever.retrieve_with_query(kg, item['query'])
        times.append(out.seconds * 1000)
        encs.append(out.info['encode_seconds'] * 1000)
        sims.append(out.info['similarity_seconds'] * 1000)
        rest.append(times[-1] - encs[-1])
        matches.append(out.info['match_seconds'] * 1000)
        expanded.append(out.info['stats']['expanded'])
        mapping = dict(enumerate(out.info['mapping'].values()))
        gold = item['gold']
        recalls.append(sum(mapping.get(q) == e for q, e in gold.items()) / len(gold))
        targets.append(mapping.get(0) == gold[0])
        fact_recall.append(len(item['gold_facts'] & out.facts) / len(item['gold_facts']))
    return {
        'queries': len(queries),
        'p50_ms': pct(times, 50), 'p95_ms': pct(times, 95), 'mean_ms': statistics.fmean(times),
        'encode_p50_ms': pct(encs, 50), 'encode_p95_ms': pct(encs, 95),
        'no_encode_p50_ms': pct(rest, 50), 'no_encode_p95_ms': pct(rest, 95),
        'similarity_p50_ms': pct(sims, 50), 'match_p50_ms': pct(matches, 50),
        'match_p95_ms': pct(matches, 95), 'expanded_p50': pct(expanded, 50),
        'expanded_max': max(expanded),
        'entity_recall': statistics.fmean(recalls), 'target_accuracy': statistics.fmean(targets),
        'fact_recall': statistics.fmean(fact_recall),
    }


CONFIGS: dict[str, dict[str, Any]] = {
    'paper-order': {'order': 'similarity'},
    'constrained': {'order': 'constrained'},
    'paper-order-unguided': {'order': 'similarity', 'guided': False},
}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write ``retrieval.json`` into ``--out``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sizes', type=int, nargs='+', default=[1000, 10000, 50000])
    ap.add_argument('--queries', type=int, default=200)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--configs', nargs='+', default=list(CONFIGS), choices=list(CONFIGS))
    ap.add_argument('--keep-numbers', action='store_true',
                    help='embed instance numbers (red pen 57) instead of stripping them')
    ap.add_argument('--warm', action='store_true', help='keep the query-embedding cache')
    ap.add_argument('--threads', type=int, default=1, help='torch threads (0: default)')
    ap.add_argument('--out', type=Path, default=Path('benchmarks/out'))
    args = ap.parse_args(argv)
    if args.threads:
        os.environ['L3MP_EMBED_THREADS'] = str(args.threads)
    embedder = get_embedder()
    embedder.encode(['warm up'])
    results: list[dict[str, Any]] = []
    for size in args.sizes:
        kg, meta = generate(size, args.seed)
        queries = gold_queries(kg, meta, args.queries, args.seed)
        base = SearchRetriever(embedder, index=EntityIndex(
            embedder, strip_numbers=not args.keep_numbers))
        start = time.perf_counter()
        base.index.sync(kg)
        embed_s = time.perf_counter() - start
        row_base = {'entities': len(kg.entities), 'facts': len(kg), 'embed_seconds': embed_s,
                    'embed_per_s': len(kg.entities) / embed_s}
        print(f'{len(kg.entities)} entities, {len(kg)} facts: embedded in {embed_s:.1f} s '
              f'({row_base["embed_per_s"]:.0f}/s)', flush=True)
        for name in args.configs:
            retriever = SearchRetriever(embedder, index=base.index, **CONFIGS[name])
            retriever.retrieve_with_query(kg, queries[0]['query'])  # warm code paths
            res = run_config(kg, retriever, queries, cold=not args.warm)
            results.append({'config': name, **row_base, **res})
    header = (f'{"config":<22}{"entities":>9}{"embed s":>9}{"p50 ms":>8}{"p95 ms":>8}'
              f'{"enc p50":>8}{"-enc p50":>9}{"-enc p95":>9}{"matmul":>8}{"match":>7}'
              f'{"exp p50":>8}{"recall":>8}{"target":>8}{"facts":>7}')
    print(header)
    print('-' * len(header))
    for r in results:
        print(f'{r["config"]:<22}{r["entities"]:>9}{r["embed_seconds"]:>9.1f}{r["p50_ms"]:>8.1f}'
              f'{r["p95_ms"]:>8.1f}{r["encode_p50_ms"]:>8.1f}{r["no_encode_p50_ms"]:>9.1f}'
              f'{r["no_encode_p95_ms"]:>9.1f}{r["similarity_p50_ms"]:>8.2f}'
              f'{r["match_p50_ms"]:>7.2f}'
              f'{r["expanded_p50"]:>8.0f}{r["entity_recall"]:>8.3f}'
              f'{r["target_accuracy"]:>8.3f}{r["fact_recall"]:>7.3f}')
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / 'retrieval.json'
    path.write_text(json.dumps({'seed': args.seed, 'cold_queries': not args.warm,
                                'threads': args.threads,
                                'strip_numbers': not args.keep_numbers,
                                'load_average': os.getloadavg(),
                                'results': results}, indent=1))
    print(f'load average {os.getloadavg()}')
    print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
