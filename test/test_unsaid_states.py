# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The unsaid-state benchmark (benchmarks/unsaid_states.py) on hand-made records."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'benchmarks'))

import unsaid_states as us  # noqa: E402

SET = ROOT / 'benchmarks' / 'data' / 'dev' / 'firestation'


def _odds(fact, removed, p):
    return {'fact': fact, 'removed': removed, 'slots': [[fact[1], p, 0.0, []]]}


def test_a_state_is_said_by_its_own_words_and_judged_against_the_gold(tmp_path):
    gold = {'remove': [], 'add': [['tariq_tunic', 'dirty', 'true']]}
    rows = [  # said ("dirty"), right / not said, wrong / removed, not said, right
        {'text': "Tariq's tunic is dirty after the drill.", 'gold': gold,
         'fact_odds': [_odds(['tariq_tunic', 'dirty', 'true'], False, 0.9),
                       _odds(['sue_radio', 'charged', 'true'], False, 0.95)]},
        {'text': 'Someone switched the yard floodlight off.',
         'gold': {'remove': [['yard_floodlight', 'turned_on', 'true']], 'add': []},
         'fact_odds': [_odds(['yard_floodlight', 'turned_on', 'true'], True, 0.6)]},
        {'text': 'Sue went to the yard.', 'gold': {'remove': [], 'add': []},
         'fact_odds': [_odds(['sue', 'present_in', 'yard'], False, 0.99)]},  # two places
    ]
    (tmp_path / 'reports.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in rows))
    got = us.facts(SET, tmp_path)
    assert got == [(True, True, 0.9), (False, False, 0.95), (False, True, 0.6)]
    said = us.line('run', got)
    assert 'wrong when said 0/1, when unsaid 1/2' in said
    assert 'balanced accuracy 0.750' in said
    assert 'slot odds AUROC 0.000' in said  # the wrong one was the surest
