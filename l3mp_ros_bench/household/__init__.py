# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The text household benchmark: seeded household and event-stream generator, the replay.

The household (:mod:`.household`), goals (:mod:`.goals`), the stream generator
(:mod:`.generator`, built from :mod:`.base`, :mod:`.phrasing`, :mod:`.changes` and
:mod:`.tasks`) and the run (:mod:`.runner` with :mod:`.variants`, :mod:`.oracle`,
:mod:`.checkpoint`, :mod:`.stats`, :mod:`.report`).
"""

from l3mp_ros_bench.household.base import Step
from l3mp_ros_bench.household.generator import StreamGenerator, generate_stream
from l3mp_ros_bench.household.goals import goal_holds, parse_goal
from l3mp_ros_bench.household.household import (
    EntityInfo,
    GeneratorError,
    Household,
    generate_household,
)

__all__ = ['EntityInfo', 'GeneratorError', 'Household', 'Step', 'StreamGenerator',
           'generate_household', 'generate_stream', 'goal_holds', 'parse_goal']
