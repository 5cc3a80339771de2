# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp bench``: benchmarks; ``l3mp bench household`` replays the text household.

``bench`` is a parser with sub-verbs so that other benchmarks (e.g. ``bench ai2thor``)
can be added next to ``household`` (see :func:`add_household`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from l3mp_ros.cli.common import CLIError, add_llm_options, llm_settings
from l3mp_ros.config import ENGINE_SETTINGS, Config


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``bench`` command with its sub-verbs; return the ``bench`` parser."""
    from .ai2thor import cli as bench_ai2thor
    p = sub.add_parser('bench', help='run benchmarks (household, lifelong, ai2thor)')
    verbs = p.add_subparsers(dest='bench', required=True, metavar='BENCHMARK')
    p.set_defaults(bench_verbs=verbs)
    add_household(verbs)
    add_lifelong(verbs)
    bench_ai2thor.register(verbs)
    return p


def add_household(verbs: argparse._SubParsersAction) -> None:
    """Add ``bench household``."""
    p = verbs.add_parser('household', help='replay the text household stream (paper V-A)',
                         description='Replay a seeded household stream against agent '
                                     'variants and judge state changes and plans.')
    p.add_argument('--variant', action='append', default=None,
                   help='S, R-, R-_V, R+, R+_V, RS, RS_V (aliases RV-, RV+, RVS, L3MP); '
                        'repeatable; "all" for the paper\'s seven; RL_V: this package\'s default '
                        'pipeline (default RS_V)')
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--changes', type=int, default=200)
    p.add_argument('--tasks', type=int, default=40)
    p.add_argument('--task-every', type=int, default=5, help='changes between tasks')
    p.add_argument('--cover', action='store_true',
                   help='draw every change kind and task kind once before the weights rule '
                        '(short streams that still exercise everything)')
    p.add_argument('--oracle', action='store_true',
                   help='replace the LLM by the gold answers of the generator')
    p.add_argument('--oracle-reports', action='store_true',
                   help='gold answers for the reports only: the LLM reads the tasks alone, '
                        'on a world that follows the truth (measures Algorithm 4 alone)')
    p.add_argument('--speaker', choices=('gold', 'none'), default='none',
                   help='gold: the questions a report asks back are answered truthfully '
                        'from the truth (questions per report are reported)')
    add_llm_options(p, api_key=True, timeout=300.0)  # the embedded model is slow
    p.add_argument('--engine', choices=ENGINE_SETTINGS, default=Config().engine)
    p.add_argument('--plan-timeout', type=float, default=60.0,
                   help='seconds per planner call')
    p.add_argument('--max-attempts', type=int, default=3,
                   help='LLM attempts per update / task (re-prompts with the errors)')
    p.add_argument('--speedup-sample', type=int, default=0,
                   help='tasks (spread over the run) on which the planner also runs on the '
                        'whole KG to measure the speedup, e.g. 4 (0: none, the default: a '
                        'whole-KG run can take most of the wall time)')
    p.add_argument('--speedup-timeout', type=float, default=60.0,
                   help='seconds for each whole-KG planner run')
    _run_dir_options(p, 'runs')
    p.set_defaults(func=cmd_household)


def _run_dir_options(p: argparse.ArgumentParser, runs: str) -> None:
    """Declare what every resumable benchmark takes: --fresh, --report-only, --out."""
    p.add_argument('--fresh', action='store_true',
                   help=f'discard the {runs} in --out instead of resuming')
    p.add_argument('--report-only', action='store_true',
                   help=f'run no steps: report what the {runs} in --out hold so far')
    p.add_argument('--no-progress', action='store_true', help='no progress bar')
    p.add_argument('--out', required=True, help='output directory (records, reports, plots)')


def _language(args: argparse.Namespace, api_key: str | None = None) -> tuple[object, Any]:
    """Return (LLM client, its settings); with --report-only a stand-in never called."""
    from l3mp_ros.compose import llm_config, make_llm

    settings = Config(**llm_settings(args))
    if args.report_only:
        from l3mp_ros_bench.household.oracle import OracleLLM

        return OracleLLM(), llm_config(settings, api_key=api_key)  # no step runs
    return make_llm(settings, lazy=False, api_key=api_key), llm_config(settings, api_key=api_key)


def add_lifelong(verbs: argparse._SubParsersAction) -> None:
    """Add ``bench lifelong`` (a long stream in which the robot also looks)."""
    p = verbs.add_parser('lifelong', help='a long household stream with observations',
                         description='Replay N household steps (reports, tasks) and let the '
                         'robot observe the rooms it is in and passes through; measure the '
                         'KG against the truth over time. Resumable.')
    p.add_argument('--steps', type=int, default=10000)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--task-every', type=int, default=5, help='changes between tasks')
    p.add_argument('--oracle', action='store_true', help='gold language (no LLM)')
    p.add_argument('--noise', type=float, default=0.0,
                   help='share of reports the oracle misreads (with --oracle)')
    p.add_argument('--no-observe', action='store_true', help='the robot never looks')
    p.add_argument('--measure-every', type=int, default=100)
    p.add_argument('--speaker', choices=('gold', 'none'), default='none',
                   help='gold: the questions a report asks back are answered from the truth')
    p.add_argument('--patrol', choices=('off', 'idle'), default='off',
                   help='idle: between steps, look at the place whose facts are most '
                        'worth checking: told, or unseen for long (default off)')
    p.add_argument('--idle-moves', type=int, default=None,
                   help='moves the robot may spend on patrol after each step (default 3 '
                        'with --patrol idle)')
    p.add_argument('--stale-min', type=float, default=None,
                   help='expected stale wrong facts that make a place with nothing told '
                        'worth a patrol visit (default 0.02, the policy default)')
    add_llm_options(p)
    p.add_argument('--engine', choices=ENGINE_SETTINGS, default=Config().engine)
    p.add_argument('--plan-timeout', type=float, default=60.0)
    p.add_argument('--variant', default='RS_V', help='agent variant (default RS_V)')
    _run_dir_options(p, 'run')
    p.set_defaults(func=cmd_lifelong)


def cmd_lifelong(args: argparse.Namespace) -> int:
    """Run (or resume) the lifelong benchmark; write report.json/md and the plot."""
    if args.steps < 1 or args.task_every < 1 or args.measure_every < 1:
        raise CLIError('--steps, --task-every and --measure-every must be >= 1')
    if not 0.0 <= args.noise <= 1.0:
        raise CLIError('--noise is a share between 0 and 1')
    idle_moves = args.idle_moves if args.idle_moves is not None else (
        3 if args.patrol == 'idle' else 0)
    if idle_moves < 0 or (args.patrol == 'idle' and idle_moves < 1):
        raise CLIError('--idle-moves must be >= 1 with --patrol idle (and never negative)')
    if args.patrol == 'idle' and args.no_observe:
        raise CLIError('--patrol idle needs observations (drop --no-observe)')
    if args.noise and not args.oracle:
        raise CLIError('--noise needs --oracle (it misreads the gold answers)')
    from l3mp_ros_bench.household.checkpoint import RunError
    from l3mp_ros_bench.lifelong import LifelongConfig, LifelongRun, summarise, write_report

    llm: object = None
    model = 'oracle' + (f' (noise {args.noise:g})' if args.noise else '')
    if args.report_only and args.fresh:
        raise CLIError('--report-only reports an existing run: it cannot start over (--fresh)')
    if not args.oracle:
        llm, cfg = _language(args)
        model = cfg.model
    tasks = args.steps // (args.task_every + 1)
    config = LifelongConfig(variant=args.variant, seed=args.seed, changes=args.steps - tasks,
                            tasks=tasks, task_every=args.task_every, oracle=args.oracle,
                            engine=args.engine, plan_timeout=args.plan_timeout,
                            speedup_sample=0, model=model, noise=args.noise,
                            observe=not args.no_observe, measure_every=args.measure_every,
                            patrol=args.patrol, idle_moves=idle_moves,
                            stale_min=args.stale_min, speaker=args.speaker)
    out = Path(args.out)
    if args.report_only and not (out / 'checkpoint.json').is_file():
        raise CLIError(f'--report-only: {out} holds no lifelong run; nothing to report')
    run = LifelongRun(config, out, llm)
    try:
        try:
            run.open(fresh=args.fresh)
            if not args.report_only:
                _run_with_progress(run, 'lifelong', quiet=args.no_progress)
        except RunError as exc:
            raise CLIError(str(exc)) from None
        summary = summarise(run.records, config, run.errors())
    finally:
        run.close()
        close = getattr(llm, 'close', None)
        if callable(close):
            close()
    summary['wall_seconds'] = run.prior_seconds + run.setup_seconds
    for path in write_report(summary, out, 'l3mp ' + ' '.join(sys.argv[1:])):
        print(path)
    print(f'lifelong: {summary["exact_steps"]}/{summary["steps"]} steps exact, final '
          f'precision {_pct(summary["final_precision"])}, recall '
          f'{_pct(summary["final_recall"])}, repaired {_pct(summary["repaired_share"])}',
          file=sys.stderr)
    return 0


def _variants(given: list[str] | None) -> list[str]:
    from l3mp_ros_bench.household.variants import PAPER_VARIANTS, resolve_variant

    names: list[str] = []
    for item in given or ['RS_V']:
        for part in item.split(','):
            part = part.strip()
            if not part:
                continue
            if part.lower() == 'all':
                names.extend(PAPER_VARIANTS)
                continue
            try:
                names.append(resolve_variant(part).name)
            except ValueError as exc:
                raise CLIError(str(exc)) from None
    return list(dict.fromkeys(names))


def _check(args: argparse.Namespace) -> None:
    if args.changes < 0 or args.tasks < 0 or args.changes + args.tasks == 0:
        raise CLIError('--changes and --tasks must be >= 0 and not both 0')
    if args.task_every < 1:
        raise CLIError('--task-every must be >= 1')
    if args.max_attempts < 1:
        raise CLIError('--max-attempts must be >= 1')
    for name in ('plan_timeout', 'speedup_timeout', 'llm_timeout'):
        if getattr(args, name) <= 0:
            raise CLIError(f'--{name.replace("_", "-")} must be a positive number of seconds')


def cmd_household(args: argparse.Namespace) -> int:
    """Run the household benchmark for each variant; write the reports (0 when done)."""
    _check(args)
    variants = _variants(args.variant)
    from l3mp_ros_bench.household.checkpoint import RunError
    from l3mp_ros_bench.household.report import write_reports
    from l3mp_ros_bench.household.run_config import RunConfig
    from l3mp_ros_bench.household.runner import Runner
    from l3mp_ros_bench.household.variants import variant_dirname

    out = Path(args.out)
    if args.report_only:
        absent = [n for n in variants if not (out / variant_dirname(n)).is_dir()]
        if absent:
            raise CLIError(f'--report-only: {out} holds no run of {", ".join(absent)}; '
                           'nothing to report')
    llm: object = None
    model = 'oracle'
    if not args.oracle:
        llm, cfg = _language(args, api_key=args.api_key)
        model = cfg.model if not cfg.is_local else 'qwen2.5-coder-1.5b-instruct-q4_k_m (local)'
    summaries = []
    records = {}
    written: list[Path] = []
    meta = {'seed': args.seed, 'changes': args.changes, 'tasks': args.tasks,
            'task_every': args.task_every, 'cover': args.cover, 'oracle': args.oracle,
            'oracle_reports': args.oracle_reports, 'speaker': args.speaker,
            'model': model,
            'engine': args.engine, 'command': 'l3mp ' + ' '.join(sys.argv[1:])}
    try:
        for name in variants:
            config = RunConfig(variant=name, seed=args.seed, changes=args.changes,
                               tasks=args.tasks, task_every=args.task_every,
                               cover=args.cover, oracle=args.oracle,
                               oracle_reports=args.oracle_reports, engine=args.engine,
                               plan_timeout=args.plan_timeout, max_attempts=args.max_attempts,
                               speedup_sample=args.speedup_sample,
                               speedup_timeout=args.speedup_timeout, model=model,
                               speaker=args.speaker)
            runner = Runner(config, out / variant_dirname(name), llm)
            try:
                try:
                    runner.open(fresh=args.fresh)
                except RunError as exc:
                    raise CLIError(str(exc)) from None
                try:
                    if not args.report_only:
                        _run_with_progress(runner, name, quiet=args.no_progress)
                except RunError as exc:
                    raise CLIError(str(exc)) from None
                summary = runner.summary()
            finally:
                runner.close()
            summaries.append(summary)
            records[summary['variant']] = runner.records
            print(f'{name}: state changes {_pct(summary["state_change_success"])}, plans '
                  f'{_pct(summary["plan_success"])} ({summary["changes"]} changes, '
                  f'{summary["tasks"]} tasks, {summary["timing"]["wall_seconds"]:.0f} s)',
                  file=sys.stderr)
            written = write_reports(summaries, records, meta, out)
    finally:
        close = getattr(llm, 'close', None)
        if callable(close):
            close()
    for path in written:
        print(path)
    return 0


def _pct(value: float | None) -> str:
    return '-' if value is None else f'{100 * value:.1f} %'


def _run_with_progress(runner: object, name: str, quiet: bool) -> None:
    from tqdm import tqdm

    total = runner.total_steps  # type: ignore[attr-defined]
    done = len(runner.records)  # type: ignore[attr-defined]
    with tqdm(total=total, initial=done, desc=name, unit='step', file=sys.stderr,
              disable=quiet, dynamic_ncols=True) as bar:
        runner.run(progress=bar.update)  # type: ignore[attr-defined]
