# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the marina_boatyard evaluation set with the project's own `l3mp` CLI.

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
    [['ian_outboard', 'held-by', 'ian']],
    [['gate_key', 'hung-on', 'key_board']],
    [['bluebell', 'moored-at', 'berth_b3']],
    [['loan_outboard', 'mounted-on', 'puffin']],
    [['mrs_van_dijk', 'person-at', 'clubhouse']],
    [['yellow_can', 'stowed-in', 'fuel_store']],
    [['spare_radio', 'held-by', 'moira']],
    [['harbour_rib', 'moored-at', 'fuel_berth']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
