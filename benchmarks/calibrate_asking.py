# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Calibrate when the robot asks back: the confidence below which a reading is asked about.

Reads runs of ``benchmarks/nl_reports.py`` (``reports.jsonl``, any number of sets; run
with ``--speaker none`` so that each row keeps the reading the pipeline proposed and its
confidence) and fits one threshold for every domain by **selective risk control**:
readings are accepted from the most confident down, and the threshold is the lowest
confidence at which the share of wrong readings among those accepted stays at most
``--alpha`` at every step above it (a fixed-sequence scan: it stops at the first step
that breaks the bound). A wrong reading is one the speaker would have to correct: an
applied change that is not the gold diff, or a change proposed for a report that must be
rejected. The one-sided Clopper–Pearson upper bound of that risk is reported beside it
(with a few hundred reports it cannot certify 1 %: the bound is said, not hidden).

Writes the thresholds (``--out``, shipped as ``l3mp_ros/data/asking.json``; read by
``Config.ask_below``) and a risk–coverage plot (``--plot``)::

    python benchmarks/calibrate_asking.py out/nl_lab out/nl_retail out/nl_office \\
        out/nl_ward --out l3mp_ros/data/asking.json --plot docs/img/risk_coverage.png
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def rows_of(run: Path) -> list[dict]:
    """Return the rows of one run whose reading reached the decision (with the set's name).

    Those with a confidence: a reading the checks refused never reaches it, and a
    which-thing question is asked whatever the confidence.
    """
    out = []
    for line in (run / 'reports.jsonl').read_text().splitlines():
        row = json.loads(line)
        if row.get('kind', 'report') != 'report' or 'verdict' not in row:
            continue
        if row.get('proposed') is None or row.get('confidence') is None:
            continue  # refused by a check, or a which-thing question: no reading to weigh
        row['set'] = run.name
        out.append(row)
    return out


def _facts(update: dict | None) -> tuple[frozenset, frozenset]:
    update = update or {}
    return (frozenset(tuple(f) for f in update.get('remove') or []),
            frozenset(tuple(f) for f in update.get('add') or []))


def right(row: dict) -> bool:
    """Tell whether the proposed reading is the gold change (a reject case: never)."""
    gold = _facts(row['gold'])
    return any(gold) and _facts(row['proposed']) == gold


def upper(wrong: int, n: int, delta: float = 0.05) -> float:
    """Return the one-sided Clopper–Pearson upper bound of a risk of ``wrong`` in ``n``.

    The p at which seeing at most ``wrong`` wrong in ``n`` has probability ``delta``.
    """
    if n == 0 or wrong >= n:
        return 1.0

    def at_most(p: float) -> float:
        return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(wrong + 1))

    lo, hi = wrong / n, 1.0
    for _ in range(60):  # at_most falls as p grows: bisect for at_most(p) = delta
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if at_most(mid) > delta else (lo, mid)
    return hi


def curve(rows: list[dict]) -> list[tuple[float, float, float, int, int]]:
    """Return (threshold, coverage, risk, accepted, wrong) from the most confident down."""
    ranked = sorted(rows, key=lambda r: -conf(r))
    out, wrong = [], 0
    for k, r in enumerate(ranked, 1):
        wrong += not right(r)
        if k == len(ranked) or conf(ranked[k]) < conf(r):  # one step per distinct value
            out.append((conf(r), k / len(ranked), wrong / k, k, wrong))
    return out


def conf(row: dict) -> float:
    """Return a row's confidence (1.0 when nothing was read back with odds)."""
    c = row.get('confidence')
    return 1.0 if c is None else float(c)


def fit(points: list[tuple[float, float, float, int, int]], alpha: float) -> dict:
    """Return the lowest threshold whose accepted risk and every one above stay <= alpha."""
    chosen = None
    for t, cov, risk, n, wrong in points:
        if risk > alpha:
            break
        chosen = (t, cov, risk, n, wrong)
    if chosen is None:  # even the most confident reading is wrong too often: always ask
        return {'ask_below': 1.01, 'coverage': 0.0, 'risk': None, 'risk_upper_95': None,
                'accepted': 0, 'wrong': 0}
    t, cov, risk, n, wrong = chosen
    return {'ask_below': round(t, 4), 'coverage': round(cov, 4), 'risk': round(risk, 4),
            'risk_upper_95': round(upper(wrong, n), 4), 'accepted': n, 'wrong': wrong}


def held_out(per_set: dict[str, list[dict]], alpha: float) -> dict[str, dict]:
    """Fit on all sets but one and apply to that one: how the threshold carries over.

    Per left-out set: the threshold the others give, and on the left-out set the share
    of its readings applied without asking and the wrong ones among them.
    """
    out = {}
    for name, rows in per_set.items():
        others = [r for n, rs in per_set.items() if n != name for r in rs]
        if not rows or not others:
            continue
        t = fit(curve(others), alpha)['ask_below']
        applied = [r for r in rows if conf(r) >= t]
        wrong = sum(not right(r) for r in applied)
        out[name] = {'ask_below': t, 'coverage': round(len(applied) / len(rows), 4),
                     'applied': len(applied), 'wrong': wrong, 'readings': len(rows)}
    return out


def plot(per_set: dict[str, list], pooled: list, threshold: float, path: Path) -> None:
    """Draw the risk–coverage curves (per set and pooled) with the fitted threshold."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, pts in sorted(per_set.items()):
        ax.plot([p[1] for p in pts], [p[2] for p in pts], marker='.', lw=1, label=name)
    ax.plot([p[1] for p in pooled], [p[2] for p in pooled], color='black', lw=2,
            label='all sets')
    at = [p for p in pooled if p[0] >= threshold]
    if at:
        ax.axvline(at[-1][1], color='grey', ls='--', lw=1,
                   label=f'apply at confidence >= {threshold:.2f}')
    ax.set_xlabel('coverage (share of readings applied without asking)')
    ax.set_ylabel('risk (wrong among those applied)')
    ax.set_title('Read-back confidence: risk-coverage on the public report sets')
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    """Fit the threshold on the runs given and write it (and the plot)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', type=Path, help='nl_reports.py --out directories')
    ap.add_argument('--alpha', type=float, default=0.01,
                    help='wrong readings tolerated among those applied without asking')
    ap.add_argument('--out', type=Path, default=None, help='where to write the thresholds')
    ap.add_argument('--plot', type=Path, default=None, help='risk-coverage PNG')
    args = ap.parse_args(argv)
    per_set = {run.name: rows_of(run) for run in args.runs}
    pooled = [r for rows in per_set.values() for r in rows]
    if not pooled:
        print('no proposed readings in these runs', file=sys.stderr)
        return 2
    points = curve(pooled)
    got = fit(points, args.alpha)
    result = {'schema': 'l3mp/asking_calibration/v1',
              'method': 'selective risk control, fixed-sequence scan from the most '
                        'confident reading down (empirical risk; Clopper-Pearson 95 % '
                        'upper bound reported)',
              'alpha': args.alpha, **got, 'readings': len(pooled),
              'sets': {name: len(rows) for name, rows in per_set.items()},
              'held_out': held_out(per_set, args.alpha),
              'command': 'python benchmarks/calibrate_asking.py ' + ' '.join(
                  str(r) for r in args.runs) + f' --alpha {args.alpha}'}
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + '\n')
    if args.plot:
        plot({n: curve(rows) for n, rows in per_set.items() if rows}, points,
             got['ask_below'], args.plot)
    return 0


if __name__ == '__main__':
    sys.exit(main())
