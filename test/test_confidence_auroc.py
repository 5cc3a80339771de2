# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The separation benchmark (benchmarks/confidence_auroc.py): which score, which reports."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'benchmarks'))

import confidence_auroc as ca  # noqa: E402

GOLD = {'remove': [['pen', 'on', 'desk']], 'add': [['pen', 'with', 'ann']]}
WRONG = {'remove': [], 'add': [['pen', 'with', 'bob']]}


def _run(tmp_path, rows):
    path = tmp_path / 'reports.jsonl'
    path.write_text(''.join(json.dumps({'expect': 'apply', 'gold': GOLD, **r}) + '\n'
                            for r in rows))
    return path


def test_each_score_is_read_from_its_own_field(tmp_path):
    path = _run(tmp_path, [
        {'proposed': GOLD, 'confidence': 0.4, 'slot_odds': 0.9},
        {'proposed': WRONG, 'confidence': 0.8, 'slot_odds': 0.2},
        {'proposed': GOLD, 'confidence': 0.7, 'slot_odds': None},
        {'proposed': None, 'confidence': 0.9, 'slot_odds': 0.9},  # nothing read: left out
        {'proposed': GOLD, 'confidence': 0.9, 'slot_odds': 0.9, 'expect': 'reject'}])
    assert ca.readings(path) == ([(True, 0.4), (False, 0.8), (True, 0.7)], 0)
    assert ca.readings(path, 'slot_odds') == ([(True, 0.9), (False, 0.2)], 1)
    assert ca.readings(path, 'confidence', 'slot_odds') == ([(True, 0.4), (False, 0.8)], 1)
    assert ca.auroc(ca.readings(path, 'slot_odds')[0]).startswith('1.000')
    assert ca.auroc(ca.readings(path, 'confidence', 'slot_odds')[0]).startswith('0.000')
    assert ca.auroc([(True, 0.5)]).startswith('n/a')
