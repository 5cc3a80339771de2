# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""benchmarks/latency.py scores the changes its update rows keep against the gold diffs."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOVE = {'remove': [['mia', 'present_in', 'lab_101']], 'add': [['mia', 'present_in', 'office']]}
LIT = {'remove': [], 'add': [['lab_101', 'room_lit', 'true']]}


def _report(set_dir: Path, rows: list[dict]) -> str:
    run = set_dir.parent / 'run'
    run.mkdir(exist_ok=True)
    (run / 'latency.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in rows))
    out = subprocess.run([sys.executable, str(ROOT / 'benchmarks' / 'latency.py'),
                          str(set_dir), '--out', str(run), '--report-only'],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, 'PYTHONPATH': str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def _row(i: int, applied: bool, diff: dict | None, **kw) -> dict:
    return {'i': f'update:{i}', 'kind': 'update', 'text': '', 'rc': 0 if applied else 1,
            'wall': 3.0, 'pipeline': 2.0, 'applied': applied, 'stages': {}, 'calls': [],
            'diff': diff, **kw}


def test_each_verdict_is_counted_as_evaluate_counts_it(tmp_path):
    set_dir = tmp_path / 'set'
    set_dir.mkdir()
    gold = [dict(text='Mia went to the office.', **MOVE),
            dict(text='The lab light is on.', **LIT),
            dict(text='Mia went to the office again.', **MOVE),
            {'text': 'It is sunny.', 'remove': [], 'add': [], 'expect': 'reject'},
            {'text': 'Nothing to see.', 'remove': [], 'add': [], 'expect': 'reject'}]
    (set_dir / 'nl_updates.json').write_text(json.dumps(gold))
    rows = [_row(1, True, MOVE),                       # exact
            _row(2, True, MOVE),                       # another change: wrong
            _row(3, False, MOVE),                      # refused: its diff was not applied
            _row(4, False, None),                      # a reject kept out
            _row(5, True, LIT)]                        # a reject written: wrong
    out = _report(set_dir, rows)
    assert ('updates scored against the gold diffs: exact 1/3, wrong applied 2, left '
            'unapplied 1, rejects kept out 1/2') in out, out


def test_rows_without_a_diff_are_not_scored(tmp_path):
    set_dir = tmp_path / 'set'
    set_dir.mkdir()
    (set_dir / 'nl_updates.json').write_text(json.dumps([dict(text='Mia left.', **MOVE)]))
    row = _row(1, True, None)
    del row['diff']  # a run of an older latency.py
    out = _report(set_dir, [row])
    assert 'updates: 1' in out and 'scored against the gold diffs' not in out, out
