# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Locate the package's shared files (PDDL, config, prompts, schemas).

In a colcon/ament install they live in ``share/l3mp_ros``; in a source checkout
(pip editable or plain ``PYTHONPATH``) in the repository root.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

PACKAGE = 'l3mp_ros'
_SOURCE_ROOT = Path(__file__).resolve().parent.parent


@cache
def share_dir() -> Path:
    """Return the directory holding ``pddl/`` and ``config/``."""
    if (_SOURCE_ROOT / 'pddl').is_dir() and (_SOURCE_ROOT / 'package.xml').is_file():
        return _SOURCE_ROOT
    try:
        from ament_index_python.packages import get_package_share_directory
        return Path(get_package_share_directory(PACKAGE))
    except Exception:  # not installed through ament: fall back to the source layout
        return _SOURCE_ROOT


def resolve(path: str | Path) -> Path:
    """Return ``path`` if it exists, else the same relative path under :func:`share_dir`."""
    p = Path(path).expanduser()
    if p.exists() or p.is_absolute():
        return p
    candidate = share_dir() / p
    return candidate if candidate.exists() else p


def package_file(*parts: str) -> Path:
    """Return a data file shipped inside the Python package (prompts, schemas)."""
    return Path(__file__).resolve().parent.joinpath(*parts)
