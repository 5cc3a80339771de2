# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Fit one decision over the signals a reading carries: is it right, or should the robot ask?

Reads ``benchmarks/nl_reports.py`` runs (``reports.jsonl``, one directory per set) and
fits a logistic regression (scikit-learn) of "the first reading is the gold change" on
signals that cost no extra call beyond what the run made:

- ``slot``: the answer call's own slot odds (:mod:`l3mp_ros.agent.core.slot_odds`), the
  least of the reading's facts' and stops;
- ``outside``: the most probability mass a slot of the reading put outside the schema;
- ``readback``: the read-back's least P(yes) (``confidence``), when there was one;
- ``again``: more than one answer was asked for (a re-prompt);
- ``facts``: how many facts the reading states;
- ``unaccounted``, ``parts_left``: things the report names that no fact names, parts
  that changed nothing.

The features are :data:`l3mp_ros.agent.core.decision.FEATURES` (the robot reads them the
same way).

Each feature set is scored **leave one set out**: fitted on the other sets, its AUROC
(right vs wrong readings) on the set left out, beside each single signal's, and the share
of readings written unasked at the risk bound (``--alpha``) on those left-out scores. The
pooled fit of ``--features`` is written with ``--out`` (JSON, read by
:class:`~l3mp_ros.agent.core.decision.ReadingDecision`; its ``ask_below`` is set on the
left-out scores); ``--plot`` draws each fit's risk–coverage curve::

    python benchmarks/fit_decision.py out/lab out/retail out/office out/ward \\
        --out /tmp/decision.json --plot /tmp/risk_coverage.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from calibrate_asking import upper

from l3mp_ros.agent.core.decision import FEATURES, features

SETS = {
    'readback': ('readback', 'read'),
    'slot': ('slot', 'outside'),
    'readback+again': ('readback', 'read', 'again'),
    'readback+left-out': ('readback', 'read', 'unaccounted', 'parts_left'),
    'slot+readback': ('slot', 'outside', 'readback', 'read'),
    'all': tuple(FEATURES),
}


def _facts(update: dict | None) -> tuple[frozenset, frozenset]:
    update = update or {}
    return (frozenset(tuple(map(str, f)) for f in update.get('remove') or []),
            frozenset(tuple(map(str, f)) for f in update.get('add') or []))


def rows_of(run: Path) -> list[dict]:
    """Return the rows of one run with a first reading scored by its slot odds."""
    out = []
    for line in (run / 'reports.jsonl').read_text().splitlines():
        row = json.loads(line)
        if row.get('proposed') is None or row.get('slot_odds') is None:
            continue
        row['right'] = any(_facts(row['gold'])) and _facts(row['proposed']) == _facts(
            row['gold'])
        row['set'] = run.name
        out.append(row)
    return out


def matrix(rows: list[dict], names: tuple[str, ...]) -> list[list[float]]:
    """Return each row's features, in ``names`` order."""
    return [features(r, names) for r in rows]


def threshold(labels: list[bool], scores: list[float], alpha: float) -> dict:
    """Return the lowest score from which, accepting down, the risk stays <= ``alpha``.

    Selective risk control by a fixed-sequence scan (as ``calibrate_asking.py``): from
    the highest score down, stop at the first step whose empirical risk exceeds alpha.
    """
    ranked = sorted(zip(scores, labels, strict=True), key=lambda x: -x[0])
    chosen, wrong = None, 0
    for k, (score, ok) in enumerate(ranked, 1):
        wrong += not ok
        if k < len(ranked) and ranked[k][0] == score:
            continue  # one step per distinct score
        if wrong / k > alpha:
            break
        chosen = (score, k, wrong)
    if chosen is None:
        return {'ask_below': 1.01, 'coverage': 0.0, 'accepted': 0, 'wrong': 0}
    score, k, wrong = chosen
    return {'ask_below': round(score, 4), 'coverage': round(k / len(ranked), 4),
            'accepted': k, 'wrong': wrong, 'risk_upper_95': round(upper(wrong, k), 4)}


def loso(per_set: dict[str, list[dict]], names: tuple[str, ...]) -> dict[str, float]:
    """Return, per set, its left-out predictions: P(right) from a fit on the others."""
    from sklearn.linear_model import LogisticRegression

    out: dict[str, list[float]] = {}
    for name, rows in per_set.items():
        train = [r for n, rs in per_set.items() if n != name for r in rs]
        labels = [r['right'] for r in train]
        if len(set(labels)) < 2:
            continue
        model = LogisticRegression(C=1.0, max_iter=1000).fit(matrix(train, names), labels)
        out[name] = list(model.predict_proba(matrix(rows, names))[:, 1])
    return out


def auroc(labels: list[bool], scores: list[float]) -> str:
    """Return the AUROC as text ('n/a' without both classes)."""
    from sklearn.metrics import roc_auc_score

    if len(set(labels)) < 2:
        return 'n/a'
    return f'{roc_auc_score(labels, scores):.3f}'


def risk_coverage(labels: list[bool], scores: list[float]) -> list[tuple[float, float]]:
    """Return (coverage, risk) accepting readings from the highest score down."""
    ranked = sorted(zip(scores, labels, strict=True), key=lambda x: -x[0])
    out, wrong = [], 0
    for k, (_, ok) in enumerate(ranked, 1):
        wrong += not ok
        out.append((k / len(ranked), wrong / k))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print each signal's and each fit's left-out AUROC; write the pooled fit."""
    from sklearn.linear_model import LogisticRegression

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', type=Path, help='nl_reports.py --out directories')
    ap.add_argument('--out', type=Path, help='write the pooled fit (JSON) here')
    ap.add_argument('--plot', type=Path, help='draw the risk-coverage curves here')
    ap.add_argument('--features', default='readback+left-out', choices=tuple(SETS),
                    help='the feature set written with --out')
    ap.add_argument('--alpha', type=float, default=0.01,
                    help='the wrong readings allowed among those written unasked')
    args = ap.parse_args(argv)
    per_set = {run.name: rows_of(run) for run in args.runs}
    rows = [r for rs in per_set.values() for r in rs]
    labels = [r['right'] for r in rows]
    print(f'{len(rows)} readings with slot odds, {sum(labels)} right, '
          f'{len(rows) - sum(labels)} wrong')
    for name in ('slot', 'readback', 'outside', 'again', 'unaccounted', 'parts_left'):
        sign = 1.0 if name in ('slot', 'readback') else -1.0
        per = {s: auroc([r['right'] for r in rs], [sign * FEATURES[name](r) for r in rs])
               for s, rs in per_set.items()}
        print(f'  {name:>14} alone: all {auroc(labels, [sign * FEATURES[name](r) for r in rows])}'
              f' | ' + ', '.join(f'{s} {a}' for s, a in per.items()))
    curves = {}
    for label, names in SETS.items():
        held = loso(per_set, names)
        got = [(r['right'], p) for s, ps in held.items()
               for r, p in zip(per_set[s], ps, strict=True)]
        per = {s: auroc([r['right'] for r in per_set[s]], ps) for s, ps in held.items()}
        bar = threshold([g for g, _ in got], [p for _, p in got], args.alpha)
        print(f'  {label:>18} left out: all {auroc([g for g, _ in got], [p for _, p in got])}'
              f' | ' + ', '.join(f'{s} {a}' for s, a in per.items())
              + f" | written unasked at risk <= {args.alpha}: {bar['coverage']:.0%}")
        curves[label] = risk_coverage([g for g, _ in got], [p for _, p in got])
    if args.out:
        names = SETS[args.features]
        held = loso(per_set, names)  # the bar is set on left-out predictions
        bar = threshold([r['right'] for s, ps in held.items() for r in per_set[s]],
                        [p for ps in held.values() for p in ps], args.alpha)
        model = LogisticRegression(C=1.0, max_iter=1000).fit(matrix(rows, names), labels)
        args.out.write_text(json.dumps({
            'schema': 'l3mp/reading_decision/v1', 'features': list(names),
            'coef': [round(float(c), 4) for c in model.coef_[0]],
            'intercept': round(float(model.intercept_[0]), 4), 'alpha': args.alpha, **bar,
            'readings': len(rows), 'sets': {s: len(rs) for s, rs in per_set.items()},
            'command': 'python benchmarks/fit_decision.py ' + ' '.join(
                sys.argv[1:] if argv is None else argv)}, indent=1) + '\n')
    if args.plot:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for label, pts in curves.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.5, label=label)
        ax.set_xlabel('coverage (readings written without a question)')
        ax.set_ylabel('risk (wrong among them)')
        ax.set_title('Risk–coverage, each set left out of its own fit')
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
    return 0


if __name__ == '__main__':
    sys.exit(main())
