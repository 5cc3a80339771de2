# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run ament_flake8 over the package, as ros2/examples does.

flake8 forks a pool of workers; a test process whose earlier tests left DDS or server
threads behind can crash a forked worker (seen after the demo's DDS tests), so flake8 runs
in a fresh interpreter of its own.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = ('import sys; from ament_flake8.main import main_with_errors; '
       'rc, errors = main_with_errors(argv=sys.argv[1:]); '
       'print("\\n".join(errors)); sys.exit(rc)')


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8() -> None:
    done = subprocess.run([sys.executable, '-c', RUN, *(str(ROOT / d) for d in (
        'l3mp_ros', 'test', 'benchmarks', 'launch', 'setup.py'))],
        capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f'code style errors / warnings:\n{done.stdout}{done.stderr}'
