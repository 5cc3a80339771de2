# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the plant_nursery blind evaluation set with the project's own `l3mp` CLI.

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
    [['kofi', 'holding', 'chem_key']],
    [['slipper_orchid', 'on_bench', 'palm_bench']],
    [['dorothy', 'at', 'mess_room']],
    [['blue_barrow', 'in_zone', 'polytunnel']],
    [['rosemary_pot', 'on_bench', 'shed_shelf']],
    [['camellia', 'on_bench', 'tunnel_bench_right']],
    [['elsie', 'holding', 'watering_can_small']],
    [['hand_fork', 'in_barrow', 'green_barrow'],
     ['compost_sack_1', 'in_barrow', 'green_barrow'],
     ['compost_sack_2', 'in_barrow', 'green_barrow']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
