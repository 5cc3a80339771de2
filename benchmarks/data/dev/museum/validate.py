# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the local_museum evaluation set with the project's own `l3mp` CLI.

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
    [['fire_bucket', 'sits_on', 'town_plinth']],
    [['okafor_clipboard', 'carried_by', 'frank']],
    [['noahs_ark', 'sits_on', 'upper_plinth_2']],
    [['priya', 'present_in', 'corridor']],
    [['toy_case_key', 'carried_by', 'eleanor']],
    [['condition_report', 'packed_in', 'tissue_box']],
    [['flatbed_trolley', 'trolley_at', 'loading_bay']],
    [['return_crate', 'sits_on', 'bay_pallet']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
