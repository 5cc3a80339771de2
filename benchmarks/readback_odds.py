# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: does the read-back's P(yes) tell right statements from wrong ones?

Reads the per-report LLM histories of ``benchmarks/nl_reports.py`` runs
(``<out>/reports.jsonl``): every yes/no read-back logs the stated fact, its direction and
P(yes) / (P(yes) + P(no)) at the answering token (``llm.prompting.yes_probability``). A
statement is right when the gold diff has it (an added fact in ``add``, a removed one in
``remove``). Prints both distributions and, per candidate bar, how many right and wrong
"yes" answers it would turn into "no" — the calibration behind the ``confirm_min_yes`` setting::

    python benchmarks/readback_odds.py out/office_cal/reports.jsonl out/ward_cal/reports.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

BARS = (0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def _norm(triplet: list) -> tuple[str, ...]:
    return tuple(str(x).lower() for x in triplet)


def read_backs(path: Path) -> list[dict]:
    """Return one row per read-back of a run: right, said yes, P(yes), statement."""
    rows = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if 'history' not in rec or 'gold' not in rec:
            continue
        remove = {_norm(t) for t in rec['gold']['remove']}
        add = {_norm(t) for t in rec['gold']['add']}
        for step in rec['history']:
            if 'confirm' not in step or step.get('p_yes') is None:
                continue
            fact = _norm(step['fact'])
            rows.append({'report': rec['i'], 'statement': step['confirm'],
                         'right': fact in (remove if step['removed'] else add),
                         'yes': '"yes"' in step['reply'], 'p_yes': step['p_yes']})
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the P(yes) distributions and what each bar would block."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', type=Path, help='reports.jsonl of nl_reports.py runs')
    args = ap.parse_args(argv)
    rows = [r for path in args.runs for r in read_backs(path)]
    yes = [r for r in rows if r['yes']]
    print(f'{len(rows)} read-backs, {len(yes)} answered yes')
    for right in (True, False):
        odds = sorted(round(r['p_yes'], 2) for r in yes if r['right'] == right)
        print(f'{"right" if right else "wrong"} yes ({len(odds)}): {odds}')
    for bar in BARS:
        blocked = [r for r in yes if r['p_yes'] < bar]
        print(f'bar {bar:.2f}: blocks {sum(r["right"] for r in blocked)} right and '
              f'{sum(not r["right"] for r in blocked)} wrong; '
              f'{sum(not r["right"] for r in yes if r["p_yes"] >= bar)} wrong still pass')
    return 0


if __name__ == '__main__':
    sys.exit(main())
