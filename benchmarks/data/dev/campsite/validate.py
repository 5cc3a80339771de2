# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the family_campsite evaluation set with the project's own `l3mp` CLI.

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
    [['henderson_tent', 'loaded', 'henderson_cart']],
    [['hut_key', 'hung', 'key_hooks']],
    [['yellow_kayak', 'held', 'nadia_khan']],
    [['site_barrow', 'at', 'top_field']],
    [['football', 'held', 'tayo_okoye']],
    [['henderson_lantern', 'held', 'ollie_henderson']],
    [['okoye_gas_bottle', 'in', 'gas_cage']],
    [['power_bank', 'on', 'willow_table']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
