# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark planning on the goal's context (L3M+P) against planning on the whole KG.

Generates households of increasing size (``l3mp_ros_bench.household.scale``), picks goals of
several kinds (place an item, hand an item to a person, switch a light on, wash a dish),
and plans each with ``Planner.plan`` twice: ``context='auto'`` (facts within two hops of the
goal's objects, widened only when needed) and ``context='full'`` (the whole KG as ``:init``),
for LAPKT and Fast Downward. Reports the planner (engine) time, the whole call's time, the
problem sizes and the speedup full/auto; also times ``execute_plan`` on the plans found.
Writes ``planning.json`` and ``planning.png`` under ``--out`` and prints a table::

    python benchmarks/planning.py --out results/ --budget 600
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from l3mp_ros.planning.execute import execute_plan  # noqa: E402
from l3mp_ros.planning.planner import Planner  # noqa: E402
from l3mp_ros.world.domain import DomainSchema  # noqa: E402
from l3mp_ros.world.kg import Fact, KnowledgeGraph  # noqa: E402
from l3mp_ros_bench.household.scale import generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((10, 50), (20, 150), (30, 250), (40, 400))
ENGINES = ('lapkt', 'fast-downward')


def where(kg: KnowledgeGraph, item: str) -> Fact | None:
    """Return the fact placing an item (its first placement fact)."""
    for f in kg.facts_of(item):
        if f.args[0] == item and (f.predicate.startswith('placed_at') or 'hand' in f.predicate):
            return f
    return None


def pick_goals(kg: KnowledgeGraph, rng: random.Random) -> dict[str, str]:
    """Choose one goal of each kind that does not hold yet."""
    ents = kg.entities
    robot_room = next(iter(kg.facts_with('agent_in_room'))).args[1]
    tables = sorted(n for n, t in ents.items() if t == 'table' and not n.startswith(robot_room))
    books = sorted(n for n, t in ents.items() if t == 'book'
                   and (w := where(kg, n)) is not None and w.predicate != 'in_person_hand')
    pens = sorted(n for n, t in ents.items() if t == 'pen'
                  and (w := where(kg, n)) is not None and w.predicate != 'in_person_hand')
    people = sorted(n for n, t in ents.items() if t == 'person')
    lights = sorted(n for n, t in ents.items() if t == 'light'
                    and Fact('light_on', (n,)) not in kg)
    dishes = sorted(n for n, t in ents.items() if t == 'kitchenware'
                    and Fact('dish_is_clean', (n,)) not in kg
                    and (w := where(kg, n)) is not None and w.predicate == 'placed_at_kitchensink')
    book = rng.choice(books)
    table = rng.choice([t for t in tables if Fact('placed_at_table', (book, t)) not in kg])
    return {
        'place': f'(placed_at_table {book} {table})',
        'hand': f'(in_person_hand {rng.choice(pens)} {rng.choice(people)})',
        'light': f'(light_on {rng.choice(lights)})',
        'wash': f'(dish_is_clean {rng.choice(dishes)})',
    }


def run(args: argparse.Namespace) -> dict:
    """Run every size × engine × goal × context; stop starting new runs past the budget."""
    domain = DomainSchema.load(ROOT / 'pddl' / 'household.pddl')
    started = time.monotonic()
    rows = []
    exec_rows = []
    for rooms, items in args.sizes:
        kg = generate(rooms, items, seed=args.seed)
        goals = pick_goals(kg, random.Random(args.seed + rooms))
        plans = []
        for engine in args.engines:
            planner = Planner(domain, engine=engine, timeout=args.timeout)
            for kind, goal in goals.items():
                for context in ('auto', 'full'):
                    row = {'rooms': rooms, 'items': items, 'entities': len(kg.entities),
                           'facts': len(kg.facts), 'engine': engine, 'goal_kind': kind,
                           'goal': goal, 'context': context}
                    if time.monotonic() - started > args.budget:
                        row['status'] = 'skipped'
                        rows.append(row)
                        continue
                    res = planner.plan(kg, goal, context=context)
                    row.update(status=res.status, widening=res.widening,
                               plan_s=res.timings.get('plan'), total_s=res.timings.get('total'),
                               build_s=res.timings.get('build'),
                               validate_s=res.timings.get('validate'),
                               objects=res.problem_size.get('objects'),
                               init=res.problem_size.get('init'), steps=len(res.steps))
                    rows.append(row)
                    if res.status == 'solved':
                        plans.append(res.steps)
                    print(f'{rooms:>3} rooms {items:>4} items {engine:<13} {kind:<6} '
                          f'{context:<5} {res.status:<10} plan {row["plan_s"] or 0:7.2f} s '
                          f'total {row["total_s"] or 0:7.2f} s  init {row["init"]}',
                          flush=True)
        if plans:
            t0 = time.perf_counter()
            calls = 0
            while calls < 200:
                for steps in plans:
                    execute_plan(domain, kg, steps)
                    calls += 1
            per = (time.perf_counter() - t0) / calls
            exec_rows.append({'rooms': rooms, 'items': items, 'facts': len(kg.facts),
                              'calls': calls, 'ms_per_call': per * 1000,
                              'mean_steps': statistics.mean(len(p) for p in plans)})
    return {'rows': rows, 'execute': exec_rows, 'summary': summarise(rows),
            'timeout_s': args.timeout, 'budget_s': args.budget,
            'wall_s': time.monotonic() - started}


def summarise(rows: list[dict]) -> list[dict]:
    """Median times per size and engine, and the full/auto speedups."""
    out = []
    keys = sorted({(r['rooms'], r['items'], r['engine']) for r in rows})
    for rooms, items, engine in keys:
        sel = [r for r in rows if (r['rooms'], r['items'], r['engine']) == (rooms, items, engine)]
        pairs = {}
        for r in sel:
            pairs.setdefault(r['goal'], {})[r['context']] = r
        auto_p, full_p, auto_t, full_t, ratios = [], [], [], [], []
        for pair in pairs.values():
            a, f = pair.get('auto'), pair.get('full')
            if not a or not f or a.get('status') != 'solved' or f.get('status') not in (
                    'solved', 'timeout'):
                continue
            full_plan = f['plan_s'] if f['status'] == 'solved' else f['total_s']
            auto_p.append(a['plan_s'])
            full_p.append(full_plan)
            auto_t.append(a['total_s'])
            full_t.append(f['total_s'])
            ratios.append(full_plan / max(a['plan_s'], 1e-9))
        if not auto_p:
            continue
        facts = sel[0]['facts']
        inits = [r['init'] for r in sel if r.get('context') == 'auto' and r.get('init')]
        out.append({
            'rooms': rooms, 'items': items, 'facts': facts, 'engine': engine, 'goals': len(auto_p),
            'auto_init_median': statistics.median(inits) if inits else None,
            'auto_plan_s': statistics.median(auto_p), 'full_plan_s': statistics.median(full_p),
            'auto_total_s': statistics.median(auto_t), 'full_total_s': statistics.median(full_t),
            'speedup_plan': statistics.median(full_p) / max(statistics.median(auto_p), 1e-9),
            'speedup_total': statistics.median(full_t) / max(statistics.median(auto_t), 1e-9),
            'speedup_plan_per_goal_median': statistics.median(ratios),
            'full_timeouts': sum(1 for r in sel if r.get('context') == 'full'
                                 and r.get('status') == 'timeout'),
            'widened': sum(1 for r in sel if r.get('context') == 'auto'
                           and r.get('widening') not in (None, 'context')),
        })
    return out


def table(summary: list[dict]) -> str:
    """Return the summary as a text table."""
    head = (f'{"rooms":>5} {"items":>5} {"facts":>5} {"engine":<13} {"n":>2} {"init":>5} '
            f'{"auto plan":>9} {"full plan":>9} {"x plan":>7} {"auto tot":>8} {"full tot":>8} '
            f'{"x total":>7} {"TO":>2} {"wid":>3}')
    lines = [head, '-' * len(head)]
    for s in summary:
        lines.append(
            f'{s["rooms"]:>5} {s["items"]:>5} {s["facts"]:>5} {s["engine"]:<13} {s["goals"]:>2} '
            f'{s["auto_init_median"] or 0:>5.0f} {s["auto_plan_s"]:>9.2f} '
            f'{s["full_plan_s"]:>9.2f} '
            f'{s["speedup_plan"]:>7.1f} {s["auto_total_s"]:>8.2f} {s["full_total_s"]:>8.2f} '
            f'{s["speedup_total"]:>7.1f} {s["full_timeouts"]:>2} {s["widened"]:>3}')
    return '\n'.join(lines)


def plot(summary: list[dict], path: Path) -> None:
    """Plot median planner time vs KG size, auto vs full, per engine."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for engine, marker in zip(ENGINES, ('o', 's'), strict=True):
        sel = [s for s in summary if s['engine'] == engine]
        if not sel:
            continue
        x = [s['facts'] for s in sel]
        ax1.plot(x, [s['auto_plan_s'] for s in sel], marker=marker, label=f'{engine} auto')
        ax1.plot(x, [s['full_plan_s'] for s in sel], marker=marker, linestyle='--',
                 label=f'{engine} full KG')
        ax2.plot(x, [s['speedup_plan'] for s in sel], marker=marker, label=engine)
    ax1.set_xlabel('facts in the KG')
    ax1.set_ylabel('median planner time (s)')
    ax1.set_yscale('log')
    ax1.legend(fontsize=8)
    ax2.set_xlabel('facts in the KG')
    ax2.set_ylabel('speedup (full / auto context)')
    ax2.axhline(20, color='grey', linestyle=':', label='issue goal 20x')
    ax2.axhline(12.5, color='grey', linestyle='-.', label='paper 12.5x')
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    """Parse arguments, run, write the JSON and the plot, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--out', default='results', help='output directory')
    parser.add_argument('--sizes', nargs='+', default=[f'{r}x{i}' for r, i in SIZES],
                        help='ROOMSxITEMS, e.g. 10x50 40x400')
    parser.add_argument('--engines', nargs='+', default=list(ENGINES), choices=ENGINES)
    parser.add_argument('--timeout', type=float, default=60.0, help='seconds per plan call')
    parser.add_argument('--budget', type=float, default=600.0,
                        help='start no new plan call after this many seconds')
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    args.sizes = [tuple(int(x) for x in s.lower().split('x')) for s in args.sizes]
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    # Fast Downward writes output.sas into the working directory: use a private one.
    os.chdir(tempfile.mkdtemp(prefix='l3mp_bench_'))
    result = run(args)
    (out / 'planning.json').write_text(json.dumps(result, indent=1))
    plot(result['summary'], out / 'planning.png')
    print()
    print(table(result['summary']))
    for e in result['execute']:
        print(f'execute_plan: {e["facts"]} facts, {e["mean_steps"]:.1f} steps/plan: '
              f'{e["ms_per_call"]:.2f} ms per plan')
    print(f'wrote {out / "planning.json"} and {out / "planning.png"}')


if __name__ == '__main__':
    main()
