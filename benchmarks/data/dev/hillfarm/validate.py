# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the hill_farm evaluation set with the project's own `l3mp` CLI.

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
    [['quad_trailer', 'parked_at', 'farmyard']],
    [['gareth_morgan', 'carrying', 'barn_key']],
    [['pen_1', 'pen_holds', 'ewe_27'], ['pen_1', 'pen_holds', 'lamb_27a'],
     ['pen_1', 'pen_holds', 'lamb_27b']],
    [['meg', 'loose_in', 'barn']],
    [['pen_6', 'pen_holds', 'orphan_lamb']],
    [['key_hooks', 'hook_holds', 'quad_key']],
    [['shed_shelf', 'supports', 'foot_spray']],
    [['link_box', 'parked_at', 'machinery_yard']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
