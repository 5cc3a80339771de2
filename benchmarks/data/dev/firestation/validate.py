# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the fire_station evaluation set with the project's own `l3mp` CLI.

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
    [['trauma_bag', 'stowed_in', 'van_rear_locker']],
    [['gate_key', 'carried_by', 'megan']],
    [['hose_70_b', 'hanging_from', 'tower_hooks']],
    [['sue', 'present_in', 'appliance_bay']],
    [['pump_1_checklist', 'carried_by', 'mr_lowe']],
    [['cylinder_d', 'fitted_to', 'ba_set_3']],
    [['rescue_van', 'vehicle_at', 'appliance_bay']],
    [['megan_tunic', 'on_trolley', 'kit_trolley']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
