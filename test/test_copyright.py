# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Every Python file carries the copyright and SPDX license header."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADER = ('# Copyright 2026 The l3mp_ros Authors', '# SPDX-License-Identifier: Apache-2.0')


def _python_files() -> list[Path]:
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard',
                          '*.py'], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / f for f in out.stdout.split() if (ROOT / f).is_file()]


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright() -> None:
    files = _python_files()
    assert files
    missing = [str(f.relative_to(ROOT)) for f in files
               if tuple(f.read_text().splitlines()[:2]) != HEADER]
    assert not missing, 'files without the license header:\n' + '\n'.join(missing)


@pytest.mark.linter
def test_no_rclpy_outside_nodes() -> None:
    bad = [str(f.relative_to(ROOT)) for f in (ROOT / 'l3mp_ros').rglob('*.py')
           if 'nodes' not in f.relative_to(ROOT).parts
           and ('import rclpy' in f.read_text() or 'from rclpy' in f.read_text())]
    assert not bad, 'library modules importing rclpy: ' + ', '.join(bad)
