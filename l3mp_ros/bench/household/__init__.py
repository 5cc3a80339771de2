# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The text household benchmark: seeded household and event-stream generator."""

from l3mp_ros.bench.household.generator import (
    EntityInfo,
    GeneratorError,
    Household,
    Step,
    StreamGenerator,
    generate_household,
    generate_stream,
    goal_holds,
    parse_goal,
)

__all__ = ['EntityInfo', 'GeneratorError', 'Household', 'Step', 'StreamGenerator',
           'generate_household', 'generate_stream', 'goal_holds', 'parse_goal']
