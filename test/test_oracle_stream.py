# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""With perfect language the L3M+P pipeline is exact, over every kind of change and task.

The oracle replaces only the LLM (gold query graph, entity selection, diff and goal):
retrieval, mention resolution, the grounding rules, the verifier, the planner and the
plan's execution all run for real, so any step not judged right is a pipeline bug. A
stream of 3 changes once hid the pipeline losing a quarter of its diffs; this one draws
every change kind and task kind of the generator (``cover``) and asserts that it did.
"""

from __future__ import annotations

import pytest

from l3mp_ros_bench.household.changes import CHANGE_WEIGHTS
from l3mp_ros_bench.household.run_config import RunConfig
from l3mp_ros_bench.household.runner import Runner
from l3mp_ros_bench.household.tasks import TASK_WEIGHTS

SEED = 8  # 60 changes + 20 tasks drawn with ``cover`` reach all 30 kinds on this seed


@pytest.mark.parametrize('variant', ['RS_V', 'R+_V'])
def test_oracle_stream_is_exact_over_every_kind(tmp_path, variant):
    cfg = RunConfig(variant=variant, seed=SEED, changes=60, tasks=20, task_every=3,
                    cover=True, oracle=True, engine='lapkt', plan_timeout=60.0,
                    speedup_sample=0)
    runner = Runner(cfg, tmp_path / 'run', None)
    runner.open()
    try:
        runner.run()
    finally:
        runner.close()
    recs = runner.records
    kinds = {(r['kind'], r['subkind']) for r in recs}
    assert {k for c, k in kinds if c == 'change'} == set(CHANGE_WEIGHTS)
    assert {k for c, k in kinds if c == 'task'} == set(TASK_WEIGHTS)
    wrong = [(r['index'], r['subkind'], r['text'], r.get('errors'))
             for r in recs if not r['state_correct']
             or (r['kind'] == 'change' and not r['diff_correct'])
             or (r['kind'] == 'task' and not (r['success'] and r['executed_ok']))]
    assert not wrong, wrong
    s = runner.summary()
    assert (s['state_change_success'], s['diff_success'], s['plan_success']) == (1.0, 1.0, 1.0)
    assert s['reprompts'] == 0  # a right answer is never refused, not even once
