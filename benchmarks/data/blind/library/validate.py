# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the city_library blind evaluation set with the project's own `l3mp` CLI.

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
    [['road_atlas', 'in_hand', 'fenwick']],
    [['laptop_2', 'in_hand', 'zoe']],
    [['paulo', 'in', 'open_stacks']],
    [['town_charter', 'on', 'archive_table'],
     ['parish_records_box', 'on', 'archive_table']],
    [['encyclopedia_vol_7', 'on', 'hall_trolley']],
    [['ingrid_mug', 'on', 'workroom_desk']],
    [['gus', 'in', 'kids_corner']],
    [['brief_history_of_time', 'on', 'circulation_desk']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
