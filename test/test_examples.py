# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The documented Python example runs as shown, against a scripted loopback LLM."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from l3mp_ros.testing import FakeOpenAI

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / 'examples' / 'python_api.py'
REPORT = {'remove': [['red_pen', 'placed_at_table', 'living_room_table']],
          'add': [['red_pen', 'in_person_hand', 'jerry']]}
GOAL = {'goal': '(and (in_person_hand red_pen anna))'}


def test_python_api_example_runs_without_ros():
    with FakeOpenAI([{'content': REPORT}], responder=lambda _: {'content': GOAL}) as fake:
        env = {**os.environ, 'PYTHONPATH': str(ROOT), 'L3MP_LOCAL_KEEP_ALIVE': '0'}
        out = subprocess.run([sys.executable, str(EXAMPLE), '--llm', fake.base_url,
                              '--model', 'fake'], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=600)
        asked = [r['messages'][-1]['content'] for r in fake.requests]
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == ('applied: REMOVE: (red_pen, placed_at_table, living_room_table) '
                        'ADD: (red_pen, in_person_hand, jerry)'), out.stdout
    assert lines[1] == 'task: solved, goal (and (in_person_hand red_pen anna))'
    assert lines[-2].strip().startswith('(hand_to_person')
    # the answer from facts, with where the holder is and that it was told, not seen
    assert lines[-1].startswith("answer: The red pen is in Jerry's hand. Jerry is in the "
                                'living room. I was told at '), out.stdout
    assert lines[-1].endswith("that the red pen is in Jerry's hand; I have not seen it "
                              'since.'), out.stdout
    assert any('Jerry took the red pen' in a for a in asked)
    assert 'rclpy' not in out.stderr
