# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Planning: UP engines (LAPKT, Fast Downward, pyperplan), ``solve`` and ``validate``.

Importing this package registers the ``lapkt`` engine in unified-planning's factory, so
``OneshotPlanner(name='lapkt', params={'search': 'bfws'})`` works afterwards.
"""

from l3mp_ros.planning.engines import (
    ENGINES,
    EngineResult,
    plan_strings,
    register_engines,
    solve,
    validate,
)

register_engines()

__all__ = ['ENGINES', 'EngineResult', 'plan_strings', 'register_engines', 'solve', 'validate']
