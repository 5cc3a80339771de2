# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run ament_pep257 over the library (summary on the first docstring line allowed)."""

from pathlib import Path

import pytest
from ament_pep257.main import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257() -> None:
    rc = main(argv=[str(ROOT / 'l3mp_ros'), '--add-ignore', 'D213'])
    assert rc == 0, 'Found code style errors / warnings'
