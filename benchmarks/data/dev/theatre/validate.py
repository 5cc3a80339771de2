# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the theatre_backstage evaluation set with the project's own `l3mp` CLI.

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
    [['yorick_skull', 'rests_on', 'prop_table_sl']],
    [['rapier_marcus', 'held_by', 'owen']],
    [['nell', 'person_in', 'wardrobe_room']],
    [['elena_red_gown', 'worn_by', 'elena'], ['elena_tiara', 'worn_by', 'elena']],
    [['priya_phone', 'rests_on', 'green_room_table']],
    [['grace', 'seated_on', 'sm_chair']],
    [['bar_castle_drop', 'bar_lowered', 'true']],
    [['head_torch_kat', 'rests_on', 'prop_table_sr']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
