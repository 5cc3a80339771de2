# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Behaviour check: are two runs the same record by record? (a restructure's proof)

Two kinds of run directory:

- ``benchmarks/nl_reports.py`` runs (``reports.jsonl``): each report's verdict, proposal,
  confidence, calls, checks, errors and the talk's answers and options must agree; the
  wording of a question (in ``talk`` and quoted in an error after "asked:") may differ;
- ``l3mp bench household`` runs (``<variant>/steps.jsonl``): every key of every step but
  its ``timing``.

Prints ``N/M identical`` per file and the first differences; exit 1 when any differ::

    python benchmarks/compare_runs.py BEFORE/lab_gold AFTER/lab_gold
    python benchmarks/compare_runs.py BEFORE/oracle7 AFTER/oracle7
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

REPORT_KEYS = ('verdict', 'asked', 'proposed', 'confidence', 'calls', 'applied', 'checks')


def report_row(rec: dict) -> dict:
    """Return what must agree of one ``nl_reports.py`` row."""
    out = {k: rec.get(k) for k in REPORT_KEYS}
    out['errors'] = [str(e).split('; asked: ')[0] for e in rec.get('errors') or []]
    out['talk'] = [{k: v for k, v in t.items() if k != 'question'}
                   for t in rec.get('talk') or []]
    return out


def step_row(rec: dict) -> dict:
    """Return what must agree of one household step."""
    return {k: v for k, v in rec.items() if k != 'timing'}


def compare(a: Path, b: Path, key: str, row) -> list[str]:
    """Compare two JSONL files row by row (keyed by ``key``); return the differences."""
    ra = {r[key]: r for r in map(json.loads, a.read_text().splitlines())}
    rb = {r[key]: r for r in map(json.loads, b.read_text().splitlines())}
    diff = [k for k in ra if k not in rb or row(ra[k]) != row(rb[k])]
    print(f'{b}: {len(ra) - len(diff)}/{len(ra)} identical ({len(rb)} in the second run)')
    for k in diff[:3]:
        x, y = row(ra[k]), row(rb.get(k, {}))
        changed = {f: (x.get(f), y.get(f)) for f in set(x) | set(y) if x.get(f) != y.get(f)}
        print(f'  {key} {k}:', changed)
    return diff


def main(argv: list[str] | None = None) -> int:
    """Compare two runs; exit 1 when a record differs."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('before', type=Path)
    ap.add_argument('after', type=Path)
    args = ap.parse_args(argv)
    if (args.before / 'reports.jsonl').exists():
        differ = compare(args.before / 'reports.jsonl', args.after / 'reports.jsonl', 'i',
                         report_row)
    else:
        differ = []
        for steps in sorted(args.before.glob('*/steps.jsonl')):
            differ += compare(steps, args.after / steps.parent.name / 'steps.jsonl', 'index',
                              step_row)
    return 1 if differ else 0


if __name__ == '__main__':
    raise SystemExit(main())
