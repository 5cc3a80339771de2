# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4: a task read into a PDDL goal and planned.

Its loop (:mod:`.task`), its list of checks (:mod:`.pipeline`), the checks and the goal
rewrites.
"""
