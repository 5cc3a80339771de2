# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Compare lifelong runs side by side (issue 43): one table and one precision plot.

Reads the ``report.json`` of each run directory (``l3mp bench lifelong ... --patrol
off|idle --out DIR``) and prints a markdown table: exact steps, final precision/recall,
the worst perceivable precision after step 50 and its slope, wrong perceivable facts
(appeared, repaired by report / task travel / patrol, pending), steps from a wrong write
to its repair, patrol moves per step and told facts confirmed. ``--png`` plots perceivable
precision over the steps of every run. Usage::

    python benchmarks/lifelong_patrol.py out/noisy_off out/noisy_idle [--png FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _pct(v: float | None) -> str:
    return '–' if v is None else f'{100 * v:.2f} %'


def row(name: str, s: dict) -> str:
    """Return one run's table row."""
    rs = s.get('repair_steps') or {}
    by = s.get('repaired_by') or {}
    slope = s.get('precision_seen_slope_pp_per_100')
    return (f'| {name} | {s["steps"]} | {s["exact_steps"]} | {_pct(s["final_precision"])} / '
            f'{_pct(s["final_recall"])} | {_pct(s.get("precision_seen_min_after_50"))} | '
            f'{"–" if slope is None else f"{slope:+.3f}"} | {s["misread_reports"]} | '
            f'{s.get("wrong_facts_appeared")} | {by.get("report", 0)} / {by.get("task", 0)} / '
            f'{by.get("patrol", 0)} | {s.get("wrong_facts_pending")} | {rs.get("median")} / '
            f'{rs.get("p90")} / {rs.get("max")} | {s.get("moves_per_step", 0):.2f} | '
            f'{s.get("patrol_told_confirmed", 0)} | {s["tasks_succeeded"]}/{s["tasks"]} | '
            f'{s["step_seconds_total"] / 60:.1f} |')


HEAD = ('| run | steps | exact steps | final precision / recall | worst perceivable precision '
        'after step 50 | slope (points per 100 steps) | misread reports | wrong perceivable '
        'facts | repaired by report / task / patrol | pending at the end | steps to repair '
        'median / p90 / max | patrol moves per step | told facts confirmed by patrol | '
        'tasks ok | step time (min) |\n' + '|---' * 15 + '|')


def main() -> None:
    """Print the table (and write the plot)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', help='run directories holding report.json')
    ap.add_argument('--png', help='write perceivable precision over the steps here')
    args = ap.parse_args()
    reports = {Path(d).name: json.loads((Path(d) / 'report.json').read_text())
               for d in args.runs}
    print(HEAD)
    for name, s in reports.items():
        print(row(name, s))
    for name, s in reports.items():
        print(f'\n{name}: repair-time histogram (steps: facts) '
              f'{json.dumps((s.get("repair_steps") or {}).get("histogram"))}')
    if args.png:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4))
        for name, s in reports.items():
            curve = s['curves']
            ax.plot([m['step'] for m in curve], [100 * m['precision_seen'] for m in curve],
                    label=f'{name} ({s.get("patrol", "off")})')
        ax.set_xlabel('step')
        ax.set_ylabel('perceivable precision %')
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.png, dpi=90)


if __name__ == '__main__':
    main()
