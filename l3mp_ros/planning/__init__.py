# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Planning: UP engines (LAPKT, Fast Downward, pyperplan), ``solve`` and ``validate``.

Importing :mod:`l3mp_ros.planning.engines` (or any name below from this package, which
loads it on first use) registers the ``lapkt`` engine in unified-planning's factory, so
``OneshotPlanner(name='lapkt', params={'search': 'bfws'})`` works afterwards. The engines
(and unified-planning's engine machinery, which pulls in SciPy) are loaded only when a
plan is made or checked: ``l3mp update`` never pays for them.
"""

from __future__ import annotations

from typing import Any

__all__ = ['ENGINES', 'EngineResult', 'plan_strings', 'register_engines', 'solve', 'validate']


def __getattr__(name: str) -> Any:
    if name in __all__:
        from l3mp_ros.planning import engines
        return getattr(engines, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
