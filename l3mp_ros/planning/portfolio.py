# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The default engine setting: LAPKT with a short budget and Fast Downward, one deadline.

LAPKT solves the small retrieved problems in well under a second, but its searches can
run for minutes on some problems Fast Downward solves in seconds (the whole-KG laundry of
the household benchmark: no LAPKT search in 150 s, Fast Downward 17 s). ``portfolio``
therefore runs, one after the other inside the caller's deadline:

1. ``lapkt`` for :func:`lapkt_budget` of the time (a quarter, at least 1 s, at most 10 s),
   with the caller's engine parameters;
2. ``fast-downward`` for all the time left.

A problem that UP would have to expand for LAPKT (a quantified or disjunctive goal over
many objects, :func:`.engines.expands_for_lapkt`: "every one of Lena's tubes", which
LAPKT gets as an exponentially larger compiled problem) is given to ``fast-downward``
first, with all the time, since it reads quantifiers and disjunctions itself; ``lapkt``
gets what Fast Downward leaves unanswered (:func:`stages_for`).

A problem with numeric state (numeric fluents in conditions or effects, issue 59) goes to
``enhsp`` alone, with all the time: no classical engine reads numbers.

A stage that answers ends the portfolio: a plan, or a proof that there is none
(``UNSOLVABLE_PROVEN``). A stage that ends early without an answer leaves its time to the
next. If Fast Downward cannot run the problem (an error, a feature it lacks) after LAPKT
ran out of its share, LAPKT gets the rest. The stages run in sequence, not in parallel:
the robot's computer (here two cores) is shared with the nodes and the LLM.
:func:`solve` is :func:`.engines.solve` for every other engine name.
"""

from __future__ import annotations

import time
from typing import Any

import unified_planning as up

from l3mp_ros.config import PORTFOLIO
from l3mp_ros.planning import engines
from l3mp_ros.planning.engines import EngineResult
from l3mp_ros.planning.status import Status

__all__ = ['PORTFOLIO', 'STAGES', 'lapkt_budget', 'solve', 'stages_for']

STAGES = ('lapkt', 'fast-downward')
NUMERIC_STAGES = ('enhsp',)
LAPKT_SHARE, LAPKT_MIN, LAPKT_MAX = 0.25, 1.0, 10.0
_MIN_STAGE = 0.2  # seconds below which a stage is not started
_PROVEN = engines.PlanGenerationResultStatus.UNSOLVABLE_PROVEN.name
_UNSUPPORTED = engines.PlanGenerationResultStatus.UNSUPPORTED_PROBLEM.name


def lapkt_budget(left: float) -> float:
    """Return the seconds LAPKT gets first out of ``left``."""
    return min(left, max(LAPKT_MIN, min(LAPKT_MAX, left * LAPKT_SHARE)))


def stages_for(problem: up.model.Problem) -> tuple[str, ...]:
    """Return the order the portfolio runs its engines in for ``problem``."""
    if engines.is_numeric(problem):
        return NUMERIC_STAGES
    if engines.expands_for_lapkt(problem):
        return 'fast-downward', 'lapkt'
    return STAGES


def solve(problem: up.model.Problem, engine: str, timeout: float,
          params: dict[str, Any] | None = None) -> EngineResult:
    """Plan with ``engine``: the portfolio for :data:`PORTFOLIO`, else that one engine.

    The portfolio's result is the answering stage's (its ``engine``), with every stage's
    engine, status, seconds and budget in ``stages`` and the whole time in ``seconds``.
    Raises ``ValueError`` like :func:`.engines.solve`.
    """
    if engine != PORTFOLIO:
        return engines.solve(problem, engine, timeout, params)
    if not timeout or timeout <= 0:
        raise ValueError(f'timeout must be a positive number of seconds, not {timeout!r}')
    started = time.monotonic()
    deadline = started + timeout
    results: list[EngineResult] = []
    stages: list[dict[str, Any]] = []

    def run(name: str, budget: float) -> EngineResult:
        res = engines.solve(problem, name, budget, params if name == 'lapkt' else None)
        results.append(res)
        stages.append({'engine': name, 'status': res.status, 'up_status': res.up_status,
                       'seconds': round(res.seconds, 3), 'budget': round(budget, 3)})
        return res

    order = stages_for(problem)
    first = run(order[0], lapkt_budget(timeout) if order[0] == 'lapkt' else timeout)
    if len(order) > 1 and not _answered(first) and deadline - time.monotonic() > _MIN_STAGE:
        second = run(order[1], deadline - time.monotonic())
        if (order[0] == 'lapkt' and second.status == Status.ERROR
                and first.status == Status.TIMEOUT and deadline - time.monotonic() > _MIN_STAGE):
            run('lapkt', deadline - time.monotonic())  # Fast Downward cannot: LAPKT goes on
    out = _choose(results)
    out.stages = stages
    out.seconds = time.monotonic() - started
    return out


def _answered(res: EngineResult) -> bool:
    return res.solved or res.up_status == _PROVEN


def _choose(results: list[EngineResult]) -> EngineResult:
    """Return the answer of the portfolio: a plan, else a proof, else the last real try."""
    for res in results:
        if _answered(res):
            return res
    usable = [r for r in results if r.up_status != _UNSUPPORTED]
    if not usable:  # no engine can plan this kind of problem
        logs = '; '.join(r.log for r in results if r.log)
        last = results[-1]
        last.log = logs or last.log
        return last
    for res in reversed(usable):  # a time-out says more than an error after it
        if res.status == Status.TIMEOUT:
            return res
    return usable[-1]
