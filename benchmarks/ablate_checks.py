# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: what each check of Algorithm 3's pipeline buys, one check switched off at a time.

For every report set given (as ``benchmarks/nl_reports.py`` takes them) a baseline run
records, per report, which checks ruled or called the model (``checks``); then, per check,
the set is run again with that check switched off (``--skip``), reusing the baseline's row
of every report the check did nothing on. Every run shares the set's reply cache, so only
the replies a changed path needs are asked for. Prints, and writes to
``<out>/ablation.md``, one line per check and set: exact, wrong writes, unapplied, rejects
kept out, questions and calls per report, against the baseline::

    python benchmarks/ablate_checks.py ../shared/eval/lab benchmarks/data/ward_reports.json \\
        --speaker gold --cache-root CACHES --out out/ablation

``CACHES/<set>`` is each set's reply cache (made when missing); ``--checks`` names the
checks to switch off (default: every check that did something in a baseline, except the
ones the pipeline cannot do without: the rules' completion, the verifier, the restatement
and no-change verdicts and the decision to ask).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: checks the pipeline cannot do without: not ablated unless named
STRUCTURAL = frozenset({'complete', 'verify', 'no_change', 'restated', 'restated_after',
                        'ask_back'})


def set_name(path: str) -> str:
    """Return a set's short name: a directory's name, or a file's stem less ``_reports``."""
    p = Path(path)
    return p.name if p.is_dir() else p.stem.removesuffix('_reports')


def measure(run: Path) -> dict[str, float]:
    """Return one run's numbers from its ``reports.jsonl``."""
    rows = [json.loads(line) for line in (run / 'reports.jsonl').read_text().splitlines()]
    n = max(1, len(rows))
    count = {k: sum(r['verdict'] == k for r in rows)
             for k in ('exact', 'wrong', 'unapplied', 'kept_out')}
    return {**count, 'due': sum(r['expect'] == 'apply' for r in rows),
            'rejects': sum(r['expect'] == 'reject' for r in rows), 'reports': len(rows),
            'questions': sum(r.get('asked', 0) for r in rows) / n,
            'calls': sum(r.get('calls', 0) for r in rows) / n}


def line(m: dict[str, float], base: dict[str, float] | None = None) -> str:
    """Return a table row's cells; with ``base``, each cell's change beside it."""
    def cell(key: str, fmt: str, total: str | None = None) -> str:
        text = format(m[key], fmt) + (f'/{m[total]:.0f}' if total else '')
        if base is not None and round(m[key] - base[key], 2):
            text += f' ({m[key] - base[key]:+{fmt}})'
        return text
    return ' | '.join([cell('exact', '.0f', 'due'), cell('wrong', '.0f'),
                       cell('unapplied', '.0f'), cell('kept_out', '.0f', 'rejects'),
                       cell('questions', '.2f'), cell('calls', '.2f')])


def run(set_path: str, out: Path, cache: Path, args: argparse.Namespace,
        skip: str | None = None, base: Path | None = None) -> None:
    """Run ``nl_reports`` on one set (resumes when ``out`` has rows)."""
    cmd = [sys.executable, str(HERE / 'nl_reports.py'), set_path, '--llm', args.llm,
           '--model', args.model, '--cache', str(cache), '--speaker', args.speaker,
           '--out', str(out)]
    if skip:
        cmd += ['--skip', skip, '--reuse', str(base)]
    with (out.parent / f'{out.name}.log').open('w') as log:
        subprocess.run(cmd, check=True, stdout=log, stderr=subprocess.STDOUT)


def main(argv: list[str] | None = None) -> int:
    """Run the baselines and the ablations; print and write the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sets', nargs='+', help='report sets (as nl_reports.py takes them)')
    ap.add_argument('--checks', default='', help='comma-separated check names (default: '
                    'every non-structural check that did something in a baseline)')
    ap.add_argument('--speaker', choices=('gold', 'none'), default='gold')
    ap.add_argument('--llm', default='local')
    ap.add_argument('--model', default='local')
    ap.add_argument('--cache-root', type=Path, required=True,
                    help='one reply cache per set: <root>/<set>')
    ap.add_argument('--out', type=Path, default=Path('out/ablation'))
    args = ap.parse_args(argv)
    names = {s: set_name(s) for s in args.sets}
    acted: set[str] = set()
    for s, name in names.items():
        base = args.out / name / 'baseline'
        base.parent.mkdir(parents=True, exist_ok=True)
        run(s, base, args.cache_root / name, args)
        for line_ in (base / 'reports.jsonl').read_text().splitlines():
            acted |= set(json.loads(line_).get('checks', {}))
    checks = [c for c in args.checks.split(',') if c] or sorted(acted - STRUCTURAL)
    table = ['| check off | set | exact | wrong | unapplied | rejects kept out | '
             'questions / report | calls / report |', '|---|---|---|---|---|---|---|---|']
    baselines = {name: measure(args.out / name / 'baseline') for name in names.values()}
    for name, m in baselines.items():
        table.append(f'| (none) | {name} | {line(m)} |')
    for check in checks:
        for s, name in names.items():
            out = args.out / name / check
            run(s, out, args.cache_root / name, args, check, args.out / name / 'baseline')
            table.append(f'| {check} | {name} | {line(measure(out), baselines[name])} |')
            print(table[-1], flush=True)
    (args.out / 'ablation.md').write_text('\n'.join(table) + '\n')
    print('\n'.join(table))
    return 0


if __name__ == '__main__':
    sys.exit(main())
