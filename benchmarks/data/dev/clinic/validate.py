# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the vet_clinic evaluation set with the project's own `l3mp` CLI.

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
    [['bella', 'in_kennel', 'dog_kennel_3']],
    [['pharmacy_key', 'held_by', 'hannah']],
    [['rex', 'animal_in', 'yard']],
    [['hughes_umbrella', 'held_by', 'maggie']],
    [['metacam_bottle', 'rests_on', 'ward_shelf']],
    [['tigger', 'in_kennel', 'cat_kennel_2']],
    [['insulin_vial', 'held_by', 'sarah']],
    [['liam', 'person_in', 'store_room']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
