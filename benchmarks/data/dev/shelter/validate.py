# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the rescue-shelter evaluation set with the project's own `l3mp` CLI.

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
    [['luna', 'in-carrier', 'dog_crate']],
    [['pepper', 'housed-in', 'kennel_5']],
    [['luna_bowl', 'held-by', 'mrs_hughes']],
    [['nadia', 'person-at', 'small_animal_room']],
    [['van_keys', 'hung-on', 'key_box']],
    [['bruno_ear_drops', 'on', 'prep_counter']],
    [['feed_trolley', 'trolley-at', 'store_room']],
    [['max_blanket', 'hung-on', 'drying_rail']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
