# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: does the robot's confidence tell right readings from wrong ones? (AUROC)

Reads ``benchmarks/nl_reports.py`` runs (``<out>/reports.jsonl``, any speaker). Two levels:

- **readings**: each report's first reading (``proposed``: the model's update before any
  question) is right when it equals the gold change; its score is the report's
  ``confidence`` (the read-back's least odds, :func:`l3mp_ros.agent.core.asking.
  confidence`) or, with ``--score slot_odds``, the answer call's own slot odds
  (:mod:`l3mp_ros.agent.core.slot_odds`). Reports without the score are counted apart;
  ``--paired`` keeps only the reports that have both.
- **statements**: every yes/no read-back statement is right when the gold change has it;
  its score is P(yes) (as ``readback_odds.py`` reads them). Beside it, every stated fact
  of a first reading with slot odds (``fact_odds``), scored by its slot odds.

Prints per run the AUROC (0.5: no separation; 1.0: every right one above every wrong one,
scikit-learn's ``roc_auc_score``) with the counts, and the score ranges of right and wrong::

    python benchmarks/confidence_auroc.py out/lab_gold out/retail_gold ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from statistics import mean

from readback_odds import read_backs
from sklearn.metrics import roc_auc_score


def _diff(d: dict | None) -> tuple[frozenset, frozenset]:
    d = d or {'remove': [], 'add': []}
    return (frozenset(tuple(map(str, t)) for t in d.get('remove') or []),
            frozenset(tuple(map(str, t)) for t in d.get('add') or []))


def readings(path: Path, score: str = 'confidence',
             paired: str | None = None) -> tuple[list[tuple[bool, float]], int]:
    """Return (right, score) per report with that score, and how many had none.

    ``score``: a record's field (``confidence``: the read-back's; ``slot_odds``: the answer
    call's own). With ``paired``, only the reports that also have that field count.
    """
    out, none = [], 0
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec.get('proposed') is None or rec.get('expect') == 'reject':
            continue
        if rec.get(score) is None or (paired and rec.get(paired) is None):
            none += 1
            continue
        out.append((_diff(rec['proposed']) == _diff(rec.get('gold')), float(rec[score])))
    return out, none


def slot_statements(path: Path) -> list[dict]:
    """Return one row per stated fact of a first reading with slot odds.

    Right when the gold change has it (as a read-back statement is); ``p``: the fact's
    slot odds; ``outside``: the most mass its slots put outside the schema.
    """
    rows = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        gold = rec.get('gold') or {'remove': [], 'add': []}
        remove, add = (({tuple(str(x).lower() for x in t) for t in gold[k]})
                       for k in ('remove', 'add'))
        for f in rec.get('fact_odds') or []:
            fact = tuple(str(x).lower() for x in f['fact'])
            rows.append({'report': rec['i'], 'fact': fact, 'removed': f['removed'],
                         'right': fact in (remove if f['removed'] else add),
                         'p': float(f['p']), 'outside': max(
                             (s[2] for s in f['slots']), default=0.0)})
    return rows


def auroc(pairs: list[tuple[bool, float]]) -> str:
    """Return the AUROC of right over wrong, with counts and ranges (or why there is none)."""
    right = [s for r, s in pairs if r]
    wrong = [s for r, s in pairs if not r]
    if not right or not wrong:
        return f'n/a ({len(right)} right, {len(wrong)} wrong)'
    score = roc_auc_score([r for r, _ in pairs], [s for _, s in pairs])
    return (f'{score:.3f} ({len(right)} right {min(right):.2f}-{max(right):.2f} mean '
            f'{mean(right):.2f}, {len(wrong)} wrong {min(wrong):.2f}-{max(wrong):.2f} mean '
            f'{mean(wrong):.2f})')


def main(argv: list[str] | None = None) -> int:
    """Print the AUROC of each run's readings and statements."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', type=Path, help='nl_reports.py --out directories')
    ap.add_argument('--score', default='confidence', choices=('confidence', 'slot_odds'),
                    help="the readings' score: the read-back's confidence or the answer "
                    "call's slot odds")
    ap.add_argument('--paired', action='store_true',
                    help='count only the reports that have both scores (a fair comparison)')
    args = ap.parse_args(argv)
    other = 'slot_odds' if args.score == 'confidence' else 'confidence'
    pooled_r: list[tuple[bool, float]] = []
    pooled_s: list[tuple[bool, float]] = []
    pooled_o: list[tuple[bool, float]] = []
    for run in args.runs:
        file = run / 'reports.jsonl' if run.is_dir() else run
        reads, none = readings(file, args.score, other if args.paired else None)
        stated = [(bool(r['right']), float(r['p_yes'])) for r in read_backs(file)]
        slots = slot_statements(file)
        said = [(r['right'], r['p']) for r in slots]
        pooled_r += reads
        pooled_s += stated
        pooled_o += said
        print(f'{run}: readings {auroc(reads)}, {none} without a {args.score}; '
              f'statements {auroc(stated)}'
              + (f"; stated facts' slot odds {auroc(said)}" if said else ''))
    if len(args.runs) > 1:
        print(f'all: readings {auroc(pooled_r)}; statements {auroc(pooled_s)}'
              + (f"; stated facts' slot odds {auroc(pooled_o)}" if pooled_o else ''))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
