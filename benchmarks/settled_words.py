# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: the places a report set's words settle, against its gold changes (no model).

For each part of each report that tells someone went somewhere (:func:`~l3mp_ros.agent.
report.subjects.going`: a verb of going, or taking someone along), the places the words
settle (:func:`~l3mp_ros.agent.core.destinations.settled_places`, over the part and over
the whole report, as the pipeline reads them) are compared with the report's gold change.
A settled place outside the gold would be a wrong write no read-back was asked about, so
the line to watch is ``wrong``::

    python benchmarks/settled_words.py ../shared/eval/lab benchmarks/data/dev/clinic
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from nl_reports import ROOT, load_set

from l3mp_ros import compose
from l3mp_ros.agent.core.destinations import settled_places
from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.report.subjects import going
from l3mp_ros.config import Config
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update


def count(path: Path, verbose: bool = False) -> dict[str, int]:
    """Return the counts of one set: parts of going, settled places, right and wrong."""
    spec = load_set(path)
    cfg = Config(domain=str(ROOT / spec['domain']), constraints=str(ROOT / spec['constraints']),
                 store='')
    domain = compose.load_domain(cfg)
    state = json.loads((ROOT / spec['state']).read_text())
    golds = KnowledgeGraph.from_json(state)
    out = {'parts_going': 0, 'settled': 0, 'right': 0, 'wrong': 0, 'reports': 0}
    for i, rep in enumerate(spec['reports'], 1):
        gold = Update.of([Fact.from_triplet(t) for t in rep['remove']],
                         [Fact.from_triplet(t) for t in rep['add']])
        start = golds.copy()
        if spec.get('chained'):
            golds.apply(Update.of(gold.remove & set(golds.facts), gold.add))
        world = compose.open_world(cfg, domain, kg=start if spec.get('chained')
                                   else KnowledgeGraph.from_json(state))
        req = Request.start(world, rep['text'])
        req.resolve()
        found: set[Fact] = set()
        for part in req.parts(True):
            said = req.mentions_in(part)
            went = going(world, req.kg, part, said)
            if went is None:
                continue
            out['parts_going'] += 1
            found |= settled_places(world, req.kg, req.text, req.mentions,
                                    [went.subject, *went.others], went.places)
        if not found:
            continue
        out['reports'] += 1
        out['settled'] += len(found)
        out['right'] += len(found & gold.add)
        out['wrong'] += len(found - gold.add)
        if verbose:
            for f in sorted(found):
                print(f"{i:3d} {'ok ' if f in gold.add else 'BAD'} {f.text()}  {rep['text'][:70]}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Print one line per set and the total."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sets', nargs='+', type=Path)
    ap.add_argument('-v', '--verbose', action='store_true', help='each settled place')
    args = ap.parse_args(argv)
    total: dict[str, int] = {}
    for path in args.sets:
        got = count(path, args.verbose)
        print(f'{path}: ' + ', '.join(f'{k} {v}' for k, v in got.items()), flush=True)
        for k, v in got.items():
            total[k] = total.get(k, 0) + v
    print('total: ' + ', '.join(f'{k} {v}' for k, v in total.items()))
    return 0


if __name__ == '__main__':
    sys.exit(main())
