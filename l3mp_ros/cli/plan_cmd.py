# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp plan``: plan a PDDL goal against a stored KG (no LLM involved)."""

from __future__ import annotations

import argparse
import sys
import uuid

from ..config import ENGINE_SETTINGS, default
from ..planning.status import Status
from .common import CLIError, add_store, dump, open_existing_store


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``plan`` command."""
    p = sub.add_parser('plan', help='plan a PDDL goal on a stored KG')
    add_store(p)
    p.add_argument('--goal', required=True,
                   help='PDDL goal, e.g. "(and (light_on kitchen_light))" or a (:goal ...) block')
    p.add_argument('--engine', choices=ENGINE_SETTINGS, default=default('engine'),
                   help='portfolio: LAPKT briefly, then Fast Downward; or one engine')
    p.add_argument('--timeout', type=float, default=30.0, help='seconds for the whole call')
    p.add_argument('--context', choices=('auto', 'full'), default='auto',
                   help='plan on the facts around the goal (auto, widened when needed) or on '
                        'the whole KG (full)')
    p.add_argument('--json', action='store_true', help='print an l3mp/plan/v1 document')
    p.add_argument('--task-id', default=None,
                   help='task id of the --json document (default: cli-<random hex>)')
    p.set_defaults(func=cmd_plan)


def cmd_plan(args: argparse.Namespace) -> int:
    """Plan and print the steps (0: plan, 1: no plan, 2: bad input)."""
    from ..planning.planner import Planner

    if args.timeout is None or args.timeout <= 0:
        raise CLIError(f'--timeout must be a positive number of seconds, not {args.timeout}')
    world = open_existing_store(args.store)
    try:
        planner = Planner(world.domain, engine=args.engine, timeout=args.timeout)
        result = planner.plan(world.kg, args.goal, context=args.context, strict=True)
    finally:
        world.close()
    refused = result.status in (Status.INVALID_GOAL, Status.UNSUPPORTED)
    code = 0 if result.ok else 2 if refused else 1
    if args.json:
        task_id = args.task_id or f'cli-{uuid.uuid4().hex[:8]}'
        print(dump(result.to_json(task_id=task_id, utterance=None)))
        return code
    if result.status == Status.INVALID_GOAL:
        print('invalid goal:', file=sys.stderr)
        for e in result.errors:
            print(f'  - {e}', file=sys.stderr)
        return code
    if result.status == Status.ALREADY_SATISFIED:
        print(f'the goal already holds: nothing to do ({result.goal})')
        return code
    for note in result.notes:
        print(f'; note: {note}', file=sys.stderr)
    if result.status == Status.SOLVED:
        if result.schedule:  # a temporal plan: start: (step) [duration], as planners print
            for step, when in zip(result.steps, result.schedule, strict=True):
                print(f'{when["start"]:.3f}: {step} [{when["duration"]:g}]')
            print(f'; makespan {result.makespan:.3f}', file=sys.stderr)
        else:
            for step in result.steps:
                print(step)
        engine = result.solved_by or result.engine
        if result.engine != engine:
            engine += f' ({result.engine}: ' + ', '.join(
                f'{e} {t:.2f} s' for e, t in result.engine_seconds.items()) + ')'
        print(f'; {len(result.steps)} steps, {engine}, context "{result.widening}", '
              f'{result.timings.get("total", 0.0):.2f} s', file=sys.stderr)
        return code
    reason = {'unsolvable': 'no plan exists', 'timeout': 'no plan found in time',
              'error': 'the planner failed', 'unsupported': 'the engine cannot plan this kind '
              'of problem'}.get(result.status, result.status)
    print(f'no plan ({result.status}): {reason}', file=sys.stderr)
    for e in result.errors:
        print(f'  - {e}', file=sys.stderr)
    return code
