# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Seeded generator of the text household benchmark (paper Section V-A).

The household (:mod:`.household`) is a random home (rooms, furniture, 200+ movable items,
people, the robot) as a :class:`~l3mp_ros.world.kg.KnowledgeGraph` that satisfies
``pddl/household.pddl`` and its constraint rules. :class:`StreamGenerator` draws the events
of a run one by one against the *current* ground truth: state changes made by people (each
with its exact diff, an NL report and a gold query graph) and, every ``task_every`` changes,
a task (NL text, PDDL goal, gold query graph). :func:`generate_stream` is a convenience that
produces a whole stream, applying each change and each task's reference outcome.


Reproducibility: only ``random.Random(seed)`` draws, always from sorted lists; the same
seed (and the same sequence of truths) gives the same steps byte for byte.


Guarantees: every diff verifies (``Verifier.check`` is empty) against the truth it was drawn
on; no task's goal holds already when issued; every task is solvable with the domain's
actions (each task kind is issued only in states where a plan exists by construction, and its
reference outcome is a reachable state that satisfies the goal).
The generator is assembled from its parts: :mod:`.base` (state and lookups),
:mod:`.phrasing`, :mod:`.changes`, :mod:`.tasks`; goals in :mod:`.goals`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from l3mp_ros.world.kg import KnowledgeGraph, Update
from l3mp_ros_bench.household.base import Step
from l3mp_ros_bench.household.changes import CHANGE_WEIGHTS, ChangeBuilders
from l3mp_ros_bench.household.goals import goal_holds, goal_text
from l3mp_ros_bench.household.household import GeneratorError, Household, household_domain
from l3mp_ros_bench.household.tasks import TASK_WEIGHTS, TaskBuilders


class StreamGenerator(ChangeBuilders, TaskBuilders):
    """Draw the events of a run one at a time against the current ground truth.

    ``next_step(truth)`` returns a change every time except after ``task_every`` changes,
    when it returns a task (or pass ``kind``). The runner applies a change's ``diff`` to its
    truth and, for a task, whatever the robot's plan did; the next step is drawn on the truth
    it passes, so changes stay valid however a task was solved. Deterministic for the same
    seed and the same sequence of truths.
    """

    # ------------------------------------------------------------------ public
    def next_step(self, truth: KnowledgeGraph, kind: str | None = None) -> Step:
        """Draw the next step on ``truth`` (not modified); ``kind`` is change or task."""
        if kind is None:
            kind = 'task' if self.changes_since_task >= self.task_every else 'change'
        if kind not in ('change', 'task'):
            raise ValueError(f'kind must be "change" or "task", got {kind!r}')
        if kind == 'change':
            draft = self._draw(truth, CHANGE_WEIGHTS, self._change_builders())
            if draft is None or draft.diff is None:
                raise GeneratorError('no state change possible')  # move_person always is
            errors = self.verifier.check(truth, draft.diff) if self.check else []
            if errors:
                raise GeneratorError(f'invalid {draft.subkind} diff: ' + '; '.join(errors))
            self.changes_since_task += 1
            step = Step(self.index, 'change', draft.subkind, draft.text, diff=draft.diff,
                        query_graph=draft.mentions.graph(),
                        gold_entities=list(draft.mentions.names), actor=draft.actor)
        else:
            draft = self._draw(truth, TASK_WEIGHTS, self._task_builders())
            if draft is None or draft.goal is None:
                raise GeneratorError('no task possible')  # place_item always is
            if goal_holds(truth, draft.goal):
                raise GeneratorError(f'{draft.subkind} goal already holds')
            outcome = truth.diff_to(draft.outcome) if draft.outcome is not None else None
            if self.check and outcome is not None:
                errors = self.verifier.check(truth, outcome)
                if errors:
                    raise GeneratorError(f'invalid {draft.subkind} outcome: '
                                         + '; '.join(errors))
                if not goal_holds(draft.outcome, draft.goal):
                    raise GeneratorError(f'{draft.subkind} outcome misses its goal')
            self.changes_since_task = 0
            step = Step(self.index, 'task', draft.subkind, draft.text,
                        goal=goal_text(draft.goal), query_graph=draft.mentions.graph(),
                        gold_entities=list(draft.mentions.names), outcome=outcome)
        self.index += 1
        return step


# =========================================================================== stream
Solver = Callable[[KnowledgeGraph, Step], Update | None]


def generate_stream(household: Household, seed: int, changes: int, tasks: int,
                    task_every: int = 5, apply_tasks: bool = True,
                    solver: Solver | None = None, cover: bool = False) -> list[Step]:
    """Generate a whole run: ``changes`` state changes with a task after every ``task_every``.

    Each change's diff is applied to a private copy of the household's truth before the next
    step is drawn. With ``apply_tasks`` each task is taken as solved: ``solver(truth, step)``
    gives the diff to apply (e.g. :func:`planner_solver`, which plans and executes), by
    default the task's reference ``outcome``; without ``apply_tasks`` tasks leave the truth
    unchanged. Tasks left over when the changes run out follow at the end.
    """
    gen = StreamGenerator(household, seed, task_every, cover=cover)
    truth = household.kg.copy()
    steps: list[Step] = []
    changes_left, tasks_left, since = changes, tasks, 0
    while changes_left > 0 or tasks_left > 0:
        if tasks_left > 0 and (since >= task_every or changes_left == 0):
            step = gen.next_step(truth, 'task')
            tasks_left -= 1
            since = 0
            if apply_tasks:
                effect = solver(truth, step) if solver is not None else step.outcome
                if effect is not None:
                    truth.apply(effect)
        else:
            step = gen.next_step(truth, 'change')
            changes_left -= 1
            since += 1
            if step.diff is None:
                raise GeneratorError('a change without a diff')
            truth.apply(step.diff)
        steps.append(step)
    return steps


def planner_solver(engine: str = 'fast-downward', timeout: float = 60.0) -> Solver:
    """Return a solver for :func:`generate_stream` that plans with ``l3mp_ros.planning``.

    The plan is found on the whole truth and executed step by step; a task without a plan
    leaves the truth unchanged (``None``). Slow (seconds per task): for checks, not for
    generating benchmark files.
    """
    from l3mp_ros.planning.execute import execute_plan
    from l3mp_ros.planning.planner import Planner

    domain = household_domain()[0]
    planner = Planner(domain, engine=engine, timeout=timeout)

    def solve(truth: KnowledgeGraph, step: Step) -> Update | None:
        result = planner.plan(truth, step.goal or '', context='auto')
        if result.status != 'solved':
            return None
        run = execute_plan(domain, truth, result.steps)
        return run.update if run.ok else None

    return solve


def stream_json(steps: Sequence[Step]) -> str:
    """Return the steps as canonical JSON text (one line per step)."""
    return '\n'.join(json.dumps(s.to_json(), sort_keys=True) for s in steps) + '\n'
