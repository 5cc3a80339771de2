# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: which gold changes can the answer call state at all?

Algorithm 3's answer is constrained by a JSON schema (:meth:`.context.UpdateGrounding.
update_schema`): only the predicates a report may change (:func:`.context.changing`) and,
with ``changes_only``, only the things the report names as subjects and objects. A gold
fact outside it can only come from a later check (a where-question, a whole reading) or
not at all. For each report of each set (every fact of the state in the context, so the
retriever is not what is measured), each fact the gold change adds, and each one-place
fact it ends, is checked against the report's schema and, when refused, classed:

- ``predicate``: the predicate is not offered to any report of the domain;
- ``thing``: an argument is no thing the report names (an implied place: "came out of the
  office", a thing said in other words: "his coffee");
- ``other``: offered and named, refused all the same (a state that already holds).

Sets are ``benchmarks/nl_reports.py`` sets (a reports file or a set directory)::

    python benchmarks/expressible.py benchmarks/data/dev/* ../shared/eval/lab --out out/expr
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import jsonschema
from nl_reports import load_set

from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.report.context import changing, report_context
from l3mp_ros.agent.report.settings import UpdateSettings
from l3mp_ros.retrieval.base import Retrieval
from l3mp_ros.retrieval.mention_lists import candidates
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel

ROOT = Path(__file__).resolve().parents[1]


def items(gold: Update) -> list[tuple[Fact, list[str]]]:
    """Return each gold fact the answer must state, with its answer item."""
    out = [(f, [f.predicate, *f.args] if len(f.args) > 1 else [f.predicate, f.args[0], 'true'])
           for f in sorted(gold.add)]
    return out + [(f, [f.predicate, f.args[0], 'false']) for f in sorted(gold.remove)
                  if len(f.args) == 1]


def refused(path: Path) -> tuple[int, list[dict]]:
    """Return (reports with a change, one row per report with a fact its schema refuses)."""
    spec = load_set(path)
    domain = DomainSchema.load(ROOT / spec['domain'])
    constraints = Constraints.load(ROOT / spec['constraints'])
    state = json.loads((ROOT / spec['state']).read_text())
    kg = KnowledgeGraph.from_json(state)
    offered = changing(WorldModel(domain, constraints, kg=kg.copy()))
    due, rows = 0, []
    for i, rep in enumerate(spec['reports'], 1):
        gold = Update.of([Fact.from_triplet(t) for t in rep['remove']],
                         [Fact.from_triplet(t) for t in rep['add']])
        before = kg if spec.get('chained') else KnowledgeGraph.from_json(state)
        if not gold.is_empty():
            due += 1
            world = WorldModel(domain, constraints, kg=before.copy())
            req = Request.start(world, rep['text'])
            req.retrieval = Retrieval(facts=set(req.kg.facts))
            mentions = req.resolve()
            ctx = report_context(world, UpdateSettings(), req.kg, req.retrieval, mentions,
                                 text=rep['text'])
            schema = ctx.grounding.update_schema()
            named = set(candidates(mentions)) | set(ctx.grounding.subjects or ())
            out = []
            for fact, item in items(gold):
                try:
                    jsonschema.validate({'facts': [item]}, schema)
                except jsonschema.ValidationError:
                    kind = ('predicate' if fact.predicate not in offered else
                            'thing' if not set(fact.args) <= named else 'other')
                    out.append({'fact': list(fact.triplet()), 'why': kind})
            if out:
                rows.append({'i': i, 'text': rep['text'], 'refused': out})
        if spec.get('chained'):
            kg.apply(Update.of(gold.remove & set(kg.facts), gold.add))
    return due, rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sets', nargs='+', type=Path)
    ap.add_argument('--out', type=Path, default=None, help='write one JSON file per set')
    args = ap.parse_args(argv)
    total: Counter[str] = Counter()
    for path in args.sets:
        due, rows = refused(path)
        why = Counter(r['why'] for row in rows for r in row['refused'])
        total.update(why)
        total['reports'] += due
        total['refused'] += len(rows)
        print(f'{path.name}: {len(rows)}/{due} reports need a fact their schema refuses; '
              f'facts: {dict(sorted(why.items()))}')
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f'{path.stem}.json').write_text(json.dumps(rows, indent=1) + '\n')
    print(f"all: {total['refused']}/{total['reports']} reports; facts: predicate "
          f"{total['predicate']}, thing {total['thing']}, other {total['other']}")
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
