# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What became of a plan or a task: one enum from the engine to the task's lifecycle.

The members are strings (:class:`enum.StrEnum`), so ``plan.v1`` and ``event`` bodies carry
the same words as before. An engine says ``solved``, ``unsolvable``, ``timeout`` or
``error`` (its own finer status stays UP's :class:`PlanGenerationResultStatus`, by name);
the planner adds the rest of the planning outcomes; Algorithm 4 one between attempts; the
task lifecycle (:mod:`l3mp_ros.tasking`) the states a task goes through; an executor's
``execution_feedback`` what became of one step (``started``, ``succeeded``, ``failed``).
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A plan's or a task's status, as written on the wire."""

    # the planner (``Planner.plan``; an engine uses the first four)
    SOLVED = 'solved'
    UNSOLVABLE = 'unsolvable'
    TIMEOUT = 'timeout'
    ERROR = 'error'
    ALREADY_SATISFIED = 'already_satisfied'
    INVALID_GOAL = 'invalid_goal'
    UNSUPPORTED = 'unsupported'  # the engine cannot plan this kind of problem
    # Algorithm 4: the goal holds, but the task asks for a change (re-prompted)
    ALREADY_HOLDS = 'already_holds'
    # a task's lifecycle
    QUEUED = 'queued'
    PLANNING = 'planning'
    EXECUTING = 'executing'
    AWAITING_CONFIRMATION = 'awaiting_confirmation'  # confirm_plan: said, not yet run
    DONE = 'done'
    PLANNED = 'planned'  # no executor: published, not executed
    FAILED = 'failed'
    CANCELLED = 'cancelled'
    # one step's execution feedback (with FAILED)
    STARTED = 'started'
    SUCCEEDED = 'succeeded'

    @property
    def ok(self) -> bool:
        """Tell whether there is a plan to run (empty when already satisfied)."""
        return self in (Status.SOLVED, Status.ALREADY_SATISFIED)
