# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: the first report after a restart, cold and warm, through the CLI.

Three starts of the embedded model, each timed as one ``l3mp update --json`` process on
the same store and report (the store is copied fresh each time):

- ``cold``: no server runs and no saved prompt prefix exists (a fresh install that did
  not run ``l3mp prepare``): the model loads and the whole prompt is evaluated;
- ``cold+prefix``: no server runs, the prefix files exist (after ``l3mp prepare`` or any
  earlier report): the model loads and restores them;
- ``warm``: the resident server is up (back-to-back CLI calls), the next report of the
  set (another text: its own facts are evaluated, not replayed from the cache).

Each row gives wall seconds, the pipeline's stages and the tokens the server evaluated.
The resident server is stopped between cold runs; the prefix files are moved aside for
``cold`` and put back after. Run it on an otherwise idle machine::

    python benchmarks/cold_start.py --set ../shared/eval/lab --report 2 --out out/cold
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from l3mp_ros.llm import resident
from l3mp_ros.llm.local_model import state_dir
from l3mp_ros.llm.prefixes import prefix_files


def stop_resident() -> None:
    """Stop the resident embedded server, if one runs."""
    state = resident._read_state(state_dir(None) / resident.STATE_FILE)
    if state is not None and resident.pid_alive(state.pid):
        state.stop()


def make_store(set_dir: Path, work: Path) -> Path:
    """Return a store of the set's initial state."""
    store = work / 'kg.db'
    subprocess.run([sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; '
                    'sys.exit(main())', 'kg', 'init', '--domain', str(set_dir / 'domain.pddl'),
                    '--constraints', str(set_dir / 'domain.constraints.yaml'), '--from',
                    str(set_dir / 'state.json'), '--store', str(store), '--force'],
                   check=True, capture_output=True)
    return store


def one(store: Path, text: str, work: Path) -> dict:
    """Run one report on a fresh copy of ``store``; return its measurement."""
    copy = work / 'item.db'
    shutil.copyfile(store, copy)
    began = time.perf_counter()
    proc = subprocess.run([sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; '
                           'sys.exit(main())', 'update', '--store', str(copy), '--text', text,
                           '--json'], capture_output=True, text=True)
    wall = time.perf_counter() - began
    try:
        body = json.loads(proc.stdout[proc.stdout.index('{'):])
    except ValueError:
        body = {}
    calls = (body.get('stages') or {}).get('calls') or []
    return {'wall': round(wall, 2), 'pipeline': body.get('seconds'),
            'stages': (body.get('stages') or {}).get('seconds'),
            'evaluated': sum(c['evaluated'] for c in calls),
            'cached': sum(c['cached'] for c in calls), 'calls': len(calls),
            'applied': body.get('applied'), 'rc': proc.returncode}


def main(argv: list[str] | None = None) -> int:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--set', dest='set_dir', type=Path, required=True)
    ap.add_argument('--report', type=int, default=1, help='which report of the set (1-based)')
    ap.add_argument('--out', type=Path, required=True)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    reports = json.loads((a.set_dir / 'nl_updates.json').read_text())
    text, following = reports[a.report - 1]['text'], reports[a.report % len(reports)]['text']
    files = prefix_files()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        store = make_store(a.set_dir, work)
        aside = work / 'slots_aside'
        stop_resident()
        shutil.move(str(files.folder), aside) if files.folder.exists() else aside.mkdir()
        try:
            rows.append(('cold', one(store, text, work)))
            stop_resident()
        finally:
            shutil.rmtree(files.folder, ignore_errors=True)
            shutil.move(str(aside), files.folder)
        # the cold run saved nothing the aside folder lacks: prefixes as before it
        rows.append(('cold+prefix', one(store, text, work)))
        rows.append(('warm', one(store, following, work)))
    lines = [f'report {a.report}: {text}',
             f'{"start":<12} {"wall s":>7} {"pipeline s":>10} {"evaluated":>9} {"cached":>7} '
             f'{"calls":>5}  stages']
    for name, r in rows:
        stages = ', '.join(f'{k} {v:.1f}' for k, v in (r['stages'] or {}).items() if v >= 0.05)
        lines.append(f'{name:<12} {r["wall"]:7.1f} {r["pipeline"] or 0:10.1f} '
                     f'{r["evaluated"]:9d} {r["cached"]:7d} {r["calls"]:5d}  {stages}')
    (a.out / 'cold_start.json').write_text(json.dumps(dict(rows), indent=1))
    (a.out / 'summary.txt').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
