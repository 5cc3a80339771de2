# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the bistro evaluation set with the project's own `l3mp` CLI.

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
    [['okafor_steak', 'rests_on', 'table_5']],
    [['wine_key', 'held_by', 'jamie']],
    [['gary_van_keys', 'held_by', 'claire']],
    [['mr_henderson', 'person_in', 'bar']],
    [['okafor_umbrella', 'held_by', 'edith']],
    [['champagne_bottle', 'stored_in', 'walk_in_fridge']],
    [['platebot', 'robot_in', 'dish_pit']],
    [['salmon_fillets', 'rests_on', 'prep_counter']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
