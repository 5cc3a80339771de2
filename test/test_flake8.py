# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run ament_flake8 over the package, as ros2/examples does."""

from pathlib import Path

import pytest
from ament_flake8.main import main_with_errors

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8() -> None:
    rc, errors = main_with_errors(argv=[str(ROOT / d) for d in (
        'l3mp_ros', 'test', 'benchmarks', 'launch', 'setup.py')])
    assert rc == 0, f'Found {len(errors)} code style errors / warnings:\n' + '\n'.join(errors)
