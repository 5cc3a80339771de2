# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp bench ai2thor``: the embodied experiments (paper Table II) on the controller double.

``register(bench_sub)`` takes the sub-parsers object of the ``bench`` verb (created by
``bench_cmd``). Writes ``ai2thor_<task>_<mode>.json`` (summary and per-instance records)
and ``table.md`` / ``table.json`` (every summary in ``--out``) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from l3mp_ros.cli.common import CLIError

TASKS = ('pick_place', 'wash_dishes', 'clean_bed', 'discard_broken', 'keep_cold')
MODES = ('l3mp', 'visual_only')


def register(bench_sub: argparse._SubParsersAction) -> None:
    """Add ``ai2thor`` to the ``bench`` sub-commands."""
    p = bench_sub.add_parser('ai2thor', help='embodied experiments (Table II) on the AI2-THOR '
                             'controller double')
    p.add_argument('--task', required=True, action='append', choices=(*TASKS, 'all'),
                   help='task type (repeatable; "all" for the five)')
    p.add_argument('--mode', action='append', choices=(*MODES, 'both'),
                   help='l3mp (verbal reports) or visual_only (repeatable; default both)')
    p.add_argument('--instances', type=int, default=20, help='instances per task (20)')
    p.add_argument('--llm', default='oracle',
                   help='oracle (gold goals and diffs; default), local (embedded model) or '
                        'an OpenAI-compatible URL')
    p.add_argument('--engine', choices=('fast-downward', 'lapkt', 'pyperplan', 'portfolio'),
                   default='fast-downward')
    p.add_argument('--max-replans', type=int, default=6)
    p.add_argument('--max-steps', type=int, default=80)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--out', required=True, help='output directory')
    p.add_argument('--quiet', action='store_true', help='no per-instance progress lines')
    p.set_defaults(func=cmd_ai2thor)


def _expand(values: list[str] | None, every: tuple[str, ...], word: str) -> list[str]:
    out: list[str] = []
    for v in values or [word]:
        for x in (every if v == word else (v,)):
            if x not in out:
                out.append(x)
    return out


def cmd_ai2thor(args: argparse.Namespace) -> int:
    """Run the experiments and write the report."""
    from l3mp_ros_bench.ai2thor.harness import Settings, run_experiment, table_markdown

    if args.instances < 1:
        raise CLIError('--instances must be at least 1')
    if args.max_replans < 0 or args.max_steps < 1:
        raise CLIError('--max-replans must be >= 0 and --max-steps >= 1')
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = Settings(engine=args.engine, max_replans=args.max_replans,
                        max_steps=args.max_steps)

    def progress(rec: dict[str, Any]) -> None:
        if not args.quiet:
            print(f'{rec["task"]} {rec["mode"]} #{rec["index"]}: '
                  f'{"success" if rec["success"] else "failure"} ({rec["status"]}, '
                  f'{rec["steps_executed"]} steps, changes '
                  f'{",".join(c["kind"] for c in rec["changes"]) or "-"})', file=sys.stderr)

    for task in _expand(args.task, TASKS, 'all'):
        for mode in _expand(args.mode, MODES, 'both'):
            summary = run_experiment(task, args.instances, mode, seed=args.seed,
                                     llm=args.llm, settings=settings, progress=progress)
            (out / f'ai2thor_{task}_{mode}.json').write_text(json.dumps(summary, indent=1))
            print(f'{task} {mode}: {summary["success_rate"]:g}% '
                  f'({summary["successes"]}/{summary["instances"]}), paper '
                  f'{summary["paper_success_rate"]}%, {summary["seconds"]:.0f} s')
    summaries = []
    for path in sorted(out.glob('ai2thor_*_*.json')):
        data = json.loads(path.read_text())
        data.pop('records', None)
        summaries.append(data)
    (out / 'table.json').write_text(json.dumps(summaries, indent=1))
    (out / 'table.md').write_text(table_markdown(summaries))
    print(table_markdown(summaries))
    return 0
