# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: where a report's and a task's seconds go, per stage, through the CLI.

Runs an evaluation set (``../shared/eval/lab`` layout: ``domain.pddl``,
``domain.constraints.yaml``, ``state.json``, ``nl_updates.json``, ``nl_tasks.json``,
``state_after_updates.json``) the way a user does: one ``l3mp update --json`` process per
report, on a store holding the gold state just before it, and one ``l3mp task --json``
per task. Each item's row keeps the process's wall time, the pipeline's own seconds, its
stages (:mod:`l3mp_ros.stages`) and every LLM call's tokens (evaluated, taken from the
server's prompt cache, generated). Prints the per-stage table (p50 / p95 seconds per
item), calls and tokens per item, and a line per call kind. A rerun with the same
``--out`` resumes; ``--report-only`` prints the tables of a run directory::

    python benchmarks/latency.py ../shared/eval/lab --out out/latency_lab
    python benchmarks/latency.py ../shared/eval/lab --out out/latency_lab --report-only

Run it on an otherwise idle machine: it measures time. Each update's row keeps the change
it made, scored against the set's gold diff as ``../shared/eval/evaluate.py`` scores
reports (exact, wrong applied, left unapplied, rejects kept out), so a faster setting
shows what it costs in the same run; tasks are not scored here.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from runlog import RunLog, p95

from l3mp_ros.config import PROMPT_CONTEXTS

ROOT = Path(__file__).resolve().parent.parent


def _l3mp() -> list[str]:
    """Return the ``l3mp`` command of this Python (its environment, its PYTHONPATH)."""
    return [sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; '
            'sys.exit(main())']


def _run(cmd: list[str], timeout: float) -> tuple[int, str, str, float]:
    began = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.perf_counter() - began
    except subprocess.TimeoutExpired:
        return 124, '', f'timed out after {timeout:.0f} s', time.perf_counter() - began


def _json(text: str) -> dict[str, Any]:
    try:
        return json.loads(text[text.index('{'):])
    except ValueError:
        return {}


class Stores:
    """Stores holding a set's gold states, made with ``l3mp kg init`` and copied per item."""

    def __init__(self, set_dir: Path, work: Path) -> None:
        self.set_dir, self.work = set_dir, work
        self._made: dict[str, Path] = {}

    def copy(self, name: str, snapshot: dict[str, Any], dest: Path) -> str:
        """Copy the store of ``snapshot`` (made once per name) to ``dest``; '' or why not."""
        if name not in self._made:
            src = self.work / f'{name}.json'
            src.write_text(json.dumps(snapshot))
            base = self.work / f'{name}.db'
            rc, out, err, _ = _run([*_l3mp(), 'kg', 'init', '--domain',
                                    str(self.set_dir / 'domain.pddl'), '--constraints',
                                    str(self.set_dir / 'domain.constraints.yaml'), '--from',
                                    str(src), '--store', str(base), '--force'], 600)
            if rc != 0:
                return f'kg init exit {rc}: {(err or out).strip()[-300:]}'
            self._made[name] = base
        for suffix in ('', '-wal', '-shm'):
            part = Path(str(self._made[name]) + suffix)
            if part.exists():
                shutil.copyfile(part, str(dest) + suffix)
        return ''


def items(set_dir: Path, parts: list[str]) -> list[tuple[str, int, str, str, dict]]:
    """Return (kind, index, text, store name, gold snapshot) per item, updates first."""
    state = json.loads((set_dir / 'state.json').read_text())
    out: list[tuple[str, int, str, str, dict]] = []
    if 'updates' in parts:
        facts = {tuple(f) for f in state['facts']}
        for i, r in enumerate(json.loads((set_dir / 'nl_updates.json').read_text()), 1):
            snap = dict(state, facts=[list(f) for f in sorted(facts)])
            out.append(('update', i, r['text'], f'before_{i:02d}', snap))
            facts = (facts - {tuple(f) for f in r['remove']}) | {tuple(f) for f in r['add']}
    if 'tasks' in parts:
        after = json.loads((set_dir / 'state_after_updates.json').read_text())
        for i, t in enumerate(json.loads((set_dir / 'nl_tasks.json').read_text()), 1):
            initial = t.get('state', 'after_updates') == 'initial'
            out.append(('task', i, t['text'], 'initial' if initial else 'after',
                        state if initial else after))
    return out


def measure(kind: str, text: str, store: Path, llm: list[str], timeout: float) -> dict:
    """Run one item through the CLI; return its row (without the index)."""
    cmd = [*_l3mp(), kind, '--store', str(store), '--text', text, '--json', *llm]
    rc, out, err, wall = _run(cmd, timeout)
    body = _json(out)
    stages = body.get('stages') or {}
    seconds = (body.get('seconds') if kind == 'update'
               else (body.get('timings') or {}).get('total_task'))
    return {'kind': kind, 'text': text, 'rc': rc, 'wall': round(wall, 3),
            'pipeline': seconds, 'applied': body.get('applied'), 'status': body.get('status'),
            'diff': body.get('diff'),  # the change an update made: accuracy beside the time
            'stages': stages.get('seconds') or {}, 'calls': stages.get('calls') or [],
            'error': None if body else (err or out).strip()[-300:]}


def score(set_dir: Path, rows: list[dict]) -> str:
    """Return the accuracy line of the scored update rows (those that keep a ``diff``)."""
    gold = json.loads((set_dir / 'nl_updates.json').read_text())
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        kind, _, i = str(r.get('i', '')).partition(':')
        if kind != 'update' or 'diff' not in r or not i.isdigit() or int(i) > len(gold):
            continue
        g = gold[int(i) - 1]
        made = (r.get('diff') or {}) if r.get('applied') else {}
        change = ({tuple(f) for f in made.get('remove', [])},
                  {tuple(f) for f in made.get('add', [])})
        apply = g.get('expect', 'apply') == 'apply'
        counts['apply' if apply else 'reject'] += 1
        if apply and change == ({tuple(f) for f in g['remove']}, {tuple(f) for f in g['add']}):
            counts['exact'] += 1
        elif change != (set(), set()):
            counts['wrong'] += 1
        else:
            counts['unapplied' if apply else 'kept_out'] += 1
    if not counts:
        return ''
    return (f'updates scored against the gold diffs: exact {counts["exact"]}/{counts["apply"]}, '
            f'wrong applied {counts["wrong"]}, left unapplied {counts["unapplied"]}, rejects '
            f'kept out {counts["kept_out"]}/{counts["reject"]}')


def _ps(values: list[float]) -> str:
    values = sorted(values) or [0.0]
    return f'{statistics.median(values):6.2f} {p95(values):6.2f}'


def table(rows: list[dict], kind: str) -> list[str]:
    """Return the per-stage table of one kind of item (p50 / p95 seconds per item)."""
    rows = [r for r in rows if r['kind'] == kind and r.get('pipeline') is not None]
    if not rows:
        return []
    names = sorted({s for r in rows for s in r['stages']},
                   key=lambda s: -statistics.median(r['stages'].get(s, 0.0) for r in rows))
    lines = [f'{kind}s: {len(rows)}', f'  {"stage":<12} {"p50 s":>6} {"p95 s":>6}  '
             f'{"LLM s p50":>9}  calls/item']
    for name in names:
        llm = [sum(c['seconds'] for c in r['calls'] if c['stage'] == name) for r in rows]
        calls = statistics.mean(sum(c['stage'] == name for c in r['calls']) for r in rows)
        lines.append(f'  {name:<12} {_ps([r["stages"].get(name, 0.0) for r in rows])}  '
                     f'{statistics.median(llm):9.2f}  {calls:.2f}')
    lines.append(f'  {"pipeline":<12} {_ps([r["pipeline"] for r in rows])}')
    lines.append(f'  {"process":<12} {_ps([r["wall"] - r["pipeline"] for r in rows])}'
                 '  (CLI start, store open, exit)')
    lines.append(f'  {"wall":<12} {_ps([r["wall"] for r in rows])}')
    per = {key: [sum(c[key] for c in r['calls']) for r in rows]
           for key in ('evaluated', 'cached', 'generated')}
    calls = [len(r['calls']) for r in rows]
    lines.append(f'  per item: calls p50 {statistics.median(calls):.1f} mean '
                 f'{statistics.mean(calls):.2f}; prompt tokens evaluated p50 '
                 f'{statistics.median(per["evaluated"]):.0f} p95 '
                 f'{p95(sorted(per["evaluated"])):.0f}; from the prompt cache p50 '
                 f'{statistics.median(per["cached"]):.0f}; generated p50 '
                 f'{statistics.median(per["generated"]):.0f}')
    kinds: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        for c in r['calls']:
            kinds[c['kind']].append(c)
    for name, calls_ in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        lines.append(
            f'  call {name:<14} n={len(calls_):3d}  s p50 '
            f'{statistics.median(c["seconds"] for c in calls_):5.2f}  evaluated p50 '
            f'{statistics.median(c["evaluated"] for c in calls_):5.0f}  cached p50 '
            f'{statistics.median(c["cached"] for c in calls_):5.0f}  generated p50 '
            f'{statistics.median(c["generated"] for c in calls_):4.0f}  server prompt s '
            f'{statistics.median(c["prompt_seconds"] for c in calls_):5.2f} gen s '
            f'{statistics.median(c["generate_seconds"] for c in calls_):5.2f}')
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('set_dir', type=Path)
    ap.add_argument('--out', type=Path, required=True)
    ap.add_argument('--only', default='updates,tasks', help='updates and/or tasks')
    ap.add_argument('--limit', type=int, default=0, help='first N items of each kind')
    ap.add_argument('--llm', default='local')
    ap.add_argument('--model', default=None)
    ap.add_argument('--cache', default=None, help='directory of cached LLM replies')
    ap.add_argument('--timeout', type=float, default=600.0)
    ap.add_argument('--prompt-context', default=None, choices=PROMPT_CONTEXTS,
                    help="what the prompts list (the CLI's --prompt-context; default: its own)")
    ap.add_argument('--no-confirm', action='store_true',
                    help="the CLI's --no-confirm: no yes/no read-back (what it buys)")
    ap.add_argument('--no-place-check', action='store_true',
                    help="the CLI's --no-place-check: no where-questions (what they buy)")
    ap.add_argument('--report-only', action='store_true')
    a = ap.parse_args(argv)
    log = RunLog(a.out, 'latency')
    if not a.report_only:
        if not (a.set_dir / 'nl_updates.json').is_file():
            ap.error(f'{a.set_dir}: not an evaluation set (no nl_updates.json)')
        llm = ['--llm', a.llm] + (['--model', a.model] if a.model else []) + (
            ['--cache', a.cache] if a.cache else []) + (
            ['--prompt-context', a.prompt_context] if a.prompt_context else []) + (
            ['--no-confirm'] if a.no_confirm else []) + (
            ['--no-place-check'] if a.no_place_check else [])
        work = a.out / 'stores'
        work.mkdir(parents=True, exist_ok=True)
        stores = Stores(a.set_dir, work)
        todo = items(a.set_dir, a.only.split(','))
        counted: dict[str, int] = defaultdict(int)
        for kind, i, text, name, snap in todo:
            counted[kind] += 1
            key = f'{kind}:{i}'
            if (a.limit and counted[kind] > a.limit) or key in log.done:
                continue
            store = work / 'item.db'
            why = stores.copy(name, snap, store)
            row = ({'kind': kind, 'text': text, 'error': why} if why
                   else measure(kind, text, store, llm, a.timeout))
            log.add({'i': key, **row})
            print(f'{key:<10} wall {row.get("wall", 0):6.1f} s  calls '
                  f'{len(row.get("calls") or [])}  {text[:60]}', flush=True)
    lines = table(log.rows, 'update') + table(log.rows, 'task')
    if (a.set_dir / 'nl_updates.json').is_file() and (scored := score(a.set_dir, log.rows)):
        lines.append(scored)
    errors = [r for r in log.rows if r.get('error')]
    lines.append(f'items {len(log.rows)}, without a pipeline result {len(errors)}')
    log.finish('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
