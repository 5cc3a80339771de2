# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the leisure-centre evaluation set with the project's own `l3mp` CLI.

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
    [['drinks_crate', 'onSurface', 'store_shelves']],
    [['tobi_goggles', 'heldBy', 'mrs_okoye']],
    [['pool_test_clipboard', 'onSurface', 'lifeguard_chair']],
    [['radio_3', 'heldBy', 'kwame']],
    [['cleaning_trolley', 'trolleyAt', 'gym']],
    [['yellow_kickboards', 'onTrolley', 'float_trolley']],
    [['pool_first_aid_kit', 'onSurface', 'first_aid_couch']],
    [['swim_register', 'heldBy', 'priya']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
