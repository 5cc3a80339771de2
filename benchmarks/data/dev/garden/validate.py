# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the community_garden evaluation set with the project's own `l3mp` CLI.

Usage: python validate.py [--l3mp PATH] [--work DIR] [--jobs N] [--write-after]; the
checks are those of ``benchmarks/data/check_set.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # benchmarks/data: the shared checker

from check_set import main  # noqa: E402

# For questions.json, item by item: the fact(s) after the updates that carry the answer.
EVIDENCE = [
    [['raj_courgettes', 'planted_in', 'plot_3_bed']],
    [['trowel_bev', 'held_by', 'bev']],
    [['kofi', 'person_in', 'main_path']],
    [['watering_can_green', 'broken', 'true']],
    [['maureen_phone', 'rests_on', 'clubhouse_table']],
    [['standpipe_tap', 'tap_on', 'true']],
    [['tray_chillies', 'rests_on', 'greenhouse_bench_left']],
    [['carrot_seeds', 'held_by', 'raj']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
