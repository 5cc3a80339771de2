# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: does a one-place fact whose own words the report never says tend to be wrong?

A signal that costs no model call (issue 70). For every one-place fact a run's first
readings state (``fact_odds`` of ``benchmarks/nl_reports.py`` records), it tells whether
the report says one of the predicate's own words (:func:`l3mp_ros.agent.report.scope.
state_words`, matched by root) and whether the gold change has the fact; then prints the
four counts per run and in all, the wrong rate of each side, the balanced accuracy of
"unsaid means wrong" (the AUROC of a yes/no score) and, beside it, the AUROC of the answer
call's predicate-slot odds on the same facts::

    python benchmarks/unsaid_states.py SET=RUN ...    # SET: a set directory or reports file
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from nl_reports import load_set
from sklearn.metrics import roc_auc_score

from l3mp_ros.agent.report.scope import state_words
from l3mp_ros.text import same_root, word_root, words
from l3mp_ros.world.domain import DomainSchema

ROOT = Path(__file__).resolve().parents[1]


def facts(set_path: Path, run: Path) -> list[tuple[bool, bool, float]]:
    """Return (said, right, predicate-slot odds) per one-place fact a first reading states."""
    spec = load_set(set_path)
    domain = DomainSchema.load(ROOT / spec['domain'])
    out = []
    for line in (run / 'reports.jsonl').read_text().splitlines():
        r = json.loads(line)
        gold = r.get('gold') or {'remove': [], 'add': []}
        roots = {word_root(w) for w in words(r['text'])}
        for fo in r.get('fact_odds') or []:
            subject, pred = fo['fact'][0], fo['fact'][1]
            p = domain.predicates.get(pred)
            if p is None or p.arity != 1:
                continue
            own = state_words(domain, pred)
            said = any(same_root(a, b) for a in own for b in roots)
            if fo['removed']:
                right = any(g[:2] == [subject, pred] for g in gold['remove'])
            else:
                right = [subject, pred, 'true'] in gold['add']
            out.append((said, right, float(fo['slots'][0][1])))
    return out


def _rate(k: int, of: int) -> str:
    return f'{k}/{of}' if of else '-'


def line(name: str, rows: list[tuple[bool, bool, float]]) -> str:
    """Return one run's counts, wrong rates, balanced accuracy and the slot odds' AUROC."""
    n = {(s, r): sum(1 for x in rows if x[0] == s and x[1] == r)
         for s in (True, False) for r in (True, False)}
    said, unsaid = n[True, True] + n[True, False], n[False, True] + n[False, False]
    right, wrong = n[True, True] + n[False, True], n[True, False] + n[False, False]
    balanced = (n[True, True] / right + n[False, False] / wrong) / 2 if right and wrong else None
    odds = roc_auc_score([x[1] for x in rows], [x[2] for x in rows]) if right and wrong else None
    return (f'{name}: {len(rows)} one-place facts; wrong when said {_rate(n[True, False], said)}, '
            f'when unsaid {_rate(n[False, False], unsaid)}; "unsaid = wrong" balanced accuracy '
            f'{"-" if balanced is None else f"{balanced:.3f}"}; predicate-slot odds AUROC '
            f'{"-" if odds is None else f"{odds:.3f}"}')


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('pairs', nargs='+', help='SET=RUN: a report set and an nl_reports.py --out')
    args = ap.parse_args(argv)
    every: list[tuple[bool, bool, float]] = []
    for pair in args.pairs:
        set_path, run = pair.split('=', 1)
        rows = facts(Path(set_path), Path(run))
        every += rows
        print(line(run, rows))
    print(line('all', every))
    return 0


if __name__ == '__main__':
    sys.exit(main())
