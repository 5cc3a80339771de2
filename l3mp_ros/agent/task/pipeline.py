# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4's checks, declared in one place: the list its loop runs, in order.

Each entry's class is named for the check's run-time name (``name``: its timing stage and
its key in ``checks`` of ``l3mp task --json``), has the field of
:class:`~.outcome.TaskSettings` that switches it, ``applies`` and ``judge`` returning a
:class:`~..core.rulings.Ruling` on one goal answer (:class:`~.goal_checks.GoalAnswer`); the
list is run by the one loop :func:`~..core.rulings.run` (applied by
:meth:`.task.TaskPlanner._judge`). The checks plan the goal on the way, and a goal that
fails is re-prompted with why. The goal checks are in :mod:`.goal_checks`; the two that
ask about what a planned goal misses are :mod:`.kinds` and :mod:`.left_out`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .goal_checks import (
    Contradictions,
    GoalCheck,
    Held,
    Mentioned,
    Narrow,
    OneWay,
    Plan,
    Quantified,
    Reconcile,
    Suspect,
)
from .kinds import Kinds
from .left_out import LeftOut

#: one goal answer, in order
GOAL_CHECKS: Sequence[GoalCheck] = (
    Contradictions(),  # an atom asked both true and false: the change is kept
    Reconcile(),  # conjuncts a rule forbids together: one dropped, or the goal refused
    Held(),  # conjuncts that hold now beside a change: dropped, or asked and negated
    Quantified(),  # a forall the wrong way round: one member asked about (read_back)
    Mentioned(),  # a goal naming things names one the task is about
    Narrow(),  # a refused goal: the next answer's ?x only where its types fit
    Plan(),  # planned on the retrieved subgraph; a refused goal is an invalid goal
    OneWay(),  # holds or unplannable: literals against the only way they go turn
    Suspect(),  # holds or unplannable: read back literal by literal, once per task
    Kinds(),  # every one of a kind the task speaks of, asked when the goal misses it
    LeftOut(),  # a thing the task names that the planned goal leaves out, asked about
)
