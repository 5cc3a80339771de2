# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the music_school evaluation set with the project's own `l3mp` CLI.

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
    [['bass_amp', 'at', 'stage']],
    [['maya_folder', 'heldBy', 'mrs_khan']],
    [['red_guitar', 'heldBy', 'marcus']],
    [['oscar_reid', 'at', 'car_park']],
    [['school_cello', 'at', 'practice_room_3']],
    [['hall_key', 'heldBy', 'reg']],
    [['trumpet_case', 'at', 'stage']],
    [['running_order', 'heldBy', 'ben_fisher']],
]


if __name__ == '__main__':
    sys.exit(main(HERE, EVIDENCE))
