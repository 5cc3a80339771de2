# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the bike_workshop evaluation set with the project's own `l3mp` CLI.

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
    [['elena_cargo_bike', 'parked_at', 'front_bike_rack']],
    [['office_key', 'held_by', 'kofi']],
    [['tom', 'person_at', 'cafe']],
    [['tom_road_rear_wheel', 'placed_on', 'truing_bench']],
    [['donated_green_bike', 'mounted_on', 'repair_stand_2']],
    [['takeaway_cup', 'placed_on', 'cafe_sink']],
    [['bell_chrome', 'held_by', 'lisa']],
    [['spare_wheel_26in', 'placed_on', 'main_workbench']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
