# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Retrieval recall of what a report changes: is every fact the right diff removes in context?

Replays reports with their gold diffs through retrieval and the update pipeline's context
step only (no update is asked for) and reports, per change kind:

- ``removed``: share of the gold diff's removed facts in the context the model is shown
  (``raw``: in the retriever's own facts, before the update pipeline's context step);
- ``touched``: share of the entities the gold diff names that the context offers;
- ``subject``: share of gold facts whose subject is among the entities the report is
  taken to be about (the relevance rule refuses a fact about anything else);
- the same on the *place-qualified* reports alone: a mention fitting several same-named
  things that a place the report names narrowed ("the remote" while in Emily's bedroom);
- context size (facts), median and p95.

Two sources of reports:

- the household benchmark's generator (``--seeds``, ``--changes``), with perfect
  language: the retrievers get the gold query graph (R^S) or the gold entities (R+) from
  :class:`~l3mp_ros_bench.household.oracle.OracleLLM`; ``--sizes N`` pads the household
  with distractor entities (renamed copies of a generated house) up to N entities;
- evaluation sets (``--sets DIR ...``, the layout of ``../shared/eval/lab``): each report
  on the gold state just before it, with the ``link`` retriever (no LLM) and R− (full).

Usage::

    python benchmarks/recall.py --seeds 0 --changes 200 --sizes 0 10000 \\
        --sets ../shared/eval/lab --out out/recall
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from l3mp_ros.agent.core.request import mentions_of  # noqa: E402
from l3mp_ros.agent.report.update import NLUpdater  # noqa: E402
from l3mp_ros.retrieval import make_retriever  # noqa: E402
from l3mp_ros.world.constraints import Constraints  # noqa: E402
from l3mp_ros.world.domain import DomainSchema  # noqa: E402
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update  # noqa: E402
from l3mp_ros.world.model import WorldModel  # noqa: E402
from l3mp_ros_bench.household.generator import generate_stream  # noqa: E402
from l3mp_ros_bench.household.household import (  # noqa: E402
    generate_household,
    household_domain,
)
from l3mp_ros_bench.household.oracle import OracleLLM  # noqa: E402
from l3mp_ros_bench.household.scale import generate as generate_annex  # noqa: E402

HOUSEHOLD_RETRIEVERS = ('search', 'select', 'link')
SET_RETRIEVERS = ('link', 'full')


def pad(kg: KnowledgeGraph, size: int, seed: int) -> KnowledgeGraph:
    """Return ``kg`` with distractor wings added until it has about ``size`` entities.

    Each wing is a generated house whose entity names get a ``wingK_`` prefix: rooms,
    TVs, remotes, tables and items with the household's own words, in other places.
    """
    out = kg.copy()
    k = 0
    while len(out.entities) < size:
        k += 1
        rooms = max(4, min(60, (size - len(out.entities)) // 12))
        wing = generate_annex(rooms=rooms, items=rooms * 6, seed=seed * 1000 + k)
        prefix = f'wing{k}_'
        for name, type_ in wing.entities.items():
            if type_ != 'agent':
                out.add_entity(prefix + name, type_)
        for f in wing.facts:
            if all(wing.entities[a] != 'agent' for a in f.args):
                out.add_fact(Fact(f.predicate, tuple(prefix + a for a in f.args)))
    return out


def measure(updater: NLUpdater, kg: KnowledgeGraph, text: str, diff: Update,
            kind: str, llm: Any = None) -> dict[str, Any]:
    """Return one report's recall figures (see the module docstring)."""
    began = time.perf_counter()
    retrieval = updater.retriever.retrieve(kg, text, llm)
    seconds = time.perf_counter() - began
    ctx = updater.context(kg, retrieval, mentions_of(updater.world, kg, text))
    g = ctx.grounding
    given = set(g.facts)
    offered = set(g.entities)
    gold = diff.remove | diff.add
    touched = {a for f in gold for a in f.args}
    missing = sorted(f.text() for f in diff.remove if f not in given)
    return {
        'kind': kind, 'text': text,
        'removed': len(diff.remove), 'removed_raw': sum(f in retrieval.facts for f in diff.remove),
        'removed_ctx': len(diff.remove) - len(missing),
        'touched': len(touched), 'touched_ctx': len(touched & offered),
        'subjects': len(gold), 'subjects_ok': sum(f.args[0] in ctx.mentioned for f in gold),
        'context': len(given), 'context_raw': len(retrieval.facts),
        'missing': missing, 'not_offered': sorted(touched - offered),
        'not_about': sorted({f.args[0] for f in gold} - ctx.mentioned),
        'seconds': seconds,
        # a mention among same-named things that a place the report names narrowed
        'place_qualified': any(m.by_place for m in ctx.mentions),
    }


def household_rows(seed: int, changes: int, size: int, retrievers: Iterable[str]
                   ) -> dict[str, list[dict[str, Any]]]:
    """Replay one seeded household stream through each retriever."""
    household = generate_household(seed)
    steps = generate_stream(household, seed, changes, changes // 5)
    domain, constraints, _ = household_domain()
    base = household.kg if size <= 0 else pad(household.kg, size, seed)
    out: dict[str, list[dict[str, Any]]] = {}
    for name in retrievers:
        truth = base.copy()
        oracle = OracleLLM()
        updater = NLUpdater(WorldModel(domain, constraints, kg=truth), oracle,
                            make_retriever(name))
        rows = []
        for step in steps:
            if step.kind == 'change' and step.diff is not None:
                oracle.step = step
                rows.append(measure(updater, truth, step.text, step.diff, step.subkind,
                                    oracle))
                truth.apply(step.diff)
            elif step.outcome is not None:
                truth.apply(step.outcome)
        out[name] = rows
    return out


def set_rows(root: Path, retrievers: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Replay an evaluation set's reports, each on the gold state just before it."""
    domain = DomainSchema.load(root / 'domain.pddl')
    constraints = Constraints.load(root / 'domain.constraints.yaml')
    start = KnowledgeGraph.from_json(json.loads((root / 'state.json').read_text()))
    reports = json.loads((root / 'nl_updates.json').read_text())
    reports = reports.get('updates', reports) if isinstance(reports, dict) else reports
    out: dict[str, list[dict[str, Any]]] = {}
    for name in retrievers:
        truth = start.copy()
        updater = NLUpdater(WorldModel(domain, constraints, kg=truth), None,
                            make_retriever(name))
        rows = []
        for i, rep in enumerate(reports, 1):
            diff = Update.from_json({'remove': rep.get('remove') or [],
                                     'add': rep.get('add') or []})
            if rep.get('expect') == 'reject' or diff.is_empty():
                continue
            rows.append(measure(updater, truth, rep['text'], diff, f'report {i}'))
            truth.apply(diff)
        out[name] = rows
    return out


def _share(rows: list[dict[str, Any]], hit: str, total: str) -> float:
    n = sum(r[total] for r in rows)
    return 100.0 * sum(r[hit] for r in rows) / n if n else 100.0


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the recall shares and context sizes of ``rows``."""
    sizes = sorted(r['context'] for r in rows) or [0]
    return {
        'reports': len(rows),
        'removed_raw_pct': round(_share(rows, 'removed_raw', 'removed'), 1),
        'removed_pct': round(_share(rows, 'removed_ctx', 'removed'), 1),
        'touched_pct': round(_share(rows, 'touched_ctx', 'touched'), 1),
        'subject_pct': round(_share(rows, 'subjects_ok', 'subjects'), 1),
        'context_median': statistics.median(sizes),
        'context_p95': sizes[min(len(sizes) - 1, int(0.95 * len(sizes)))],
        'raw_median': statistics.median(sorted(r['context_raw'] for r in rows) or [0]),
        'retrieval_p50_ms': round(1000 * statistics.median(
            [r['seconds'] for r in rows] or [0.0]), 1),
    }


def table(title: str, groups: dict[str, list[dict[str, Any]]]) -> str:
    """Return a markdown table, one line per group."""
    lines = [f'### {title}', '',
             '| group | reports | removed in retrieval % | removed in context % | '
             'touched offered % | subject about % | context median / p95 | retrieval p50 ms |',
             '|---|---|---|---|---|---|---|---|']
    for key, rows in groups.items():
        s = summary(rows)
        lines.append(f"| {key} | {s['reports']} | {s['removed_raw_pct']} | {s['removed_pct']} "
                     f"| {s['touched_pct']} | {s['subject_pct']} | {s['context_median']} / "
                     f"{s['context_p95']} | {s['retrieval_p50_ms']} |")
    return '\n'.join(lines) + '\n'


def by_kind(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Group rows by change kind, with an ``all`` line and the place-qualified line first.

    Place-qualified: a mention fitting several same-named things that a place the report
    names narrowed ("the remote" while in Emily's bedroom).
    """
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r['kind']].append(r)
    placed = [r for r in rows if r.get('place_qualified')]
    return {'all': rows, 'place-qualified': placed, **dict(sorted(groups.items()))}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print markdown tables; write JSON with every miss."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seeds', type=int, nargs='*', default=[0])
    ap.add_argument('--changes', type=int, default=200)
    ap.add_argument('--sizes', type=int, nargs='*', default=[0],
                    help='household sizes in entities (0: as generated, ~430)')
    ap.add_argument('--retrievers', nargs='*', default=list(HOUSEHOLD_RETRIEVERS))
    ap.add_argument('--sets', nargs='*', default=[], help='evaluation set directories')
    ap.add_argument('--out', type=Path, default=None)
    ap.add_argument('--misses', type=int, default=10, help='misses to print per retriever')
    args = ap.parse_args(argv)
    report: dict[str, Any] = {'household': [], 'sets': []}
    text = []
    for size in args.sizes:
        for seed in args.seeds:
            per = household_rows(seed, args.changes, size, args.retrievers)
            for name, rows in per.items():
                label = f'household seed {seed}, {size or "paper"} size, {name}'
                text.append(table(label, by_kind(rows)))
                report['household'].append({'seed': seed, 'size': size, 'retriever': name,
                                            'summary': summary(rows), 'rows': rows})
                misses = [r for r in rows if r['missing'] or r['not_offered']
                          or r['not_about']]
                for r in misses[:args.misses]:
                    text.append(f"- miss ({r['kind']}) {r['text']!r}: not in context "
                                f"{r['missing']}, not offered {r['not_offered']}, "
                                f"not about {r['not_about']}")
                text.append('')
    for d in args.sets:
        root = Path(d)
        for name, rows in set_rows(root, SET_RETRIEVERS).items():
            text.append(table(f'{root.name} set, {name}', {'all': rows}))
            report['sets'].append({'set': root.name, 'retriever': name,
                                   'summary': summary(rows), 'rows': rows})
            for r in [r for r in rows if r['missing'] or r['not_offered']
                      or r['not_about']][:args.misses]:
                text.append(f"- miss ({r['kind']}) {r['text']!r}: not in context "
                            f"{r['missing']}, not offered {r['not_offered']}, "
                            f"not about {r['not_about']}")
            text.append('')
    print('\n'.join(text))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / 'recall.json').write_text(json.dumps(report, indent=1))
        (args.out / 'recall.md').write_text('\n'.join(text))
    return 0


if __name__ == '__main__':
    sys.exit(main())
