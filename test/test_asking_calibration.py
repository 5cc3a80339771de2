# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The asking-back calibration (benchmarks/calibrate_asking.py): its scan and its file."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'benchmarks'))

import calibrate_asking as cal  # noqa: E402

GOLD = {'remove': [['pen', 'on', 'desk']], 'add': [['pen', 'with', 'ann']]}
WRONG = {'remove': [['pen', 'on', 'desk']], 'add': [['pen', 'with', 'bob']]}


def _row(confidence, proposed, gold=GOLD):
    return {'i': 0, 'verdict': 'x', 'confidence': confidence, 'proposed': proposed,
            'gold': gold}


def test_a_reading_is_right_only_when_it_is_the_gold_change():
    assert cal.right(_row(0.9, GOLD)) and not cal.right(_row(0.9, WRONG))
    empty = {'remove': [], 'add': []}
    assert not cal.right(_row(0.9, GOLD, gold=empty))  # a reject case applied: wrong
    assert cal.conf(_row(None, GOLD)) == 1.0


def test_the_scan_stops_at_the_first_step_that_breaks_the_bound():
    rows = [_row(0.99, GOLD), _row(0.95, GOLD), _row(0.95, GOLD), _row(0.9, WRONG),
            _row(0.8, GOLD), _row(0.8, GOLD), _row(0.7, GOLD), _row(0.6, WRONG)]
    points = cal.curve(rows)
    assert [p[0] for p in points] == [0.99, 0.95, 0.9, 0.8, 0.7, 0.6]  # one per value
    assert points[1][3:] == (3, 0) and points[2][3:] == (4, 1)
    got = cal.fit(points, alpha=0.0)
    assert got['ask_below'] == 0.95 and got['accepted'] == 3 and got['wrong'] == 0
    # a looser bound takes everything down to where the risk first exceeds it
    assert cal.fit(points, alpha=0.25)['ask_below'] == 0.6
    # 0.9 breaks 0.2 (1 wrong of 4): the scan stops there, though 1 of 7 at 0.7 is under
    assert cal.fit(points, alpha=0.2)['ask_below'] == 0.95
    # the most confident reading wrong: nothing is applied without asking
    assert cal.fit(cal.curve([_row(0.9, WRONG), _row(0.8, GOLD)]), 0.1)['ask_below'] > 1


def test_clopper_pearson_upper_bounds():
    assert abs(cal.upper(0, 30) - (1 - 0.05 ** (1 / 30))) < 1e-6
    assert cal.upper(0, 0) == 1.0 and cal.upper(3, 3) == 1.0
    assert cal.upper(1, 100) > cal.upper(0, 100) > 0.0


def test_the_script_writes_the_thresholds_and_the_plot(tmp_path):
    run = tmp_path / 'lab'
    run.mkdir()
    rows = [_row(0.9, GOLD), _row(0.5, WRONG), {'kind': 'summary', 'line': 'x'},
            _row(0.4, None)]
    (run / 'reports.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in rows))
    out, png = tmp_path / 'asking.json', tmp_path / 'rc.png'
    done = subprocess.run([sys.executable, str(ROOT / 'benchmarks/calibrate_asking.py'),
                           str(run), '--alpha', '0.01', '--out', str(out), '--plot', str(png)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(out.read_text())
    assert got['ask_below'] == 0.9 and got['readings'] == 2 and got['sets'] == {'lab': 2}
    assert png.read_bytes()[:4] == b'\x89PNG'
