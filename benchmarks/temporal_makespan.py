# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Makespan of durative domains planned natively against the compiled plan (issue 59).

For each problem (``DIR/<name>/domain.pddl`` beside its problem files, or ``--pair
DOMAIN PROBLEM``): the problem goes into a KG (``kg_from_problem``), then

- ``native``: :class:`~l3mp_ros.planning.planner.Planner` with the default ``portfolio``
  (Aries, then TAMER): the plan's makespan (when its last step ends; UP's time-triggered
  validator accepted it) and the engine; none when the portfolio fell back to compilation;
- ``compiled``: the same goal planned on the domain compiled by UP's ``TimedToSequential``
  (``engine='fast-downward'``, validated on the compiled domain); a robot runs its steps
  one after another, so its makespan is the sum of the steps' durations (a duration that
  is a number, or a function of the action's arguments read from the KG's numbers).

Prints a Markdown table. Run: ``python benchmarks/temporal_makespan.py --pair
test/data/fleet_durative.pddl test/data/fleet_durative_p1.pddl``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

from l3mp_ros.planning.execute import parse_step
from l3mp_ros.planning.planner import Planner
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.problem_file import kg_from_problem


def step_duration(domain: DomainSchema, kg: KnowledgeGraph, step: str) -> float | None:
    """Return a durative step's duration (None when it is not a number or a known value)."""
    name, args = parse_step(step)
    action = domain.timed_problem.action(name)
    bound = action.duration.lower
    if bound.is_int_constant() or bound.is_real_constant():
        return float(bound.constant_value())
    if bound.is_fluent_exp():
        env = {p.name: a for p, a in zip(action.parameters, args, strict=True)}
        terms = [env.get(str(x), str(x)).lower() for x in bound.args]
        return kg.value_of(bound.fluent().name, terms)
    return None


def measure(domain_file: Path, problem_file: Path, timeout: float) -> dict:
    """Plan one problem natively and compiled; return the row."""
    domain = DomainSchema.load(domain_file)
    imported = kg_from_problem(domain, problem_file.read_text())
    row: dict = {'domain': domain.name, 'problem': problem_file.name}
    for label, engine in (('native', 'portfolio'), ('compiled', 'fast-downward')):
        t0 = time.monotonic()
        res = Planner(domain, engine=engine, timeout=timeout).plan(imported.kg, imported.goal)
        row[f'{label}_seconds'] = round(time.monotonic() - t0, 2)
        row[f'{label}_status'] = f'{res.status}, {res.solved_by}'
        row[f'{label}_steps'] = len(res.steps)
        if res.status != 'solved':
            row[label] = None
        elif label == 'native':
            row[label] = res.makespan
        else:
            durations = [step_duration(domain, imported.kg, s) for s in res.steps]
            row[label] = None if None in durations else sum(durations)
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure the problems given and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('dir', nargs='?', help='DIR/<name>/domain.pddl and problem files')
    parser.add_argument('--pair', nargs=2, action='append', default=[],
                        metavar=('DOMAIN', 'PROBLEM'))
    parser.add_argument('--timeout', type=float, default=60.0)
    args = parser.parse_args(argv)
    pairs = [(Path(d), Path(p)) for d, p in args.pair]
    if args.dir:
        for domain in sorted(Path(args.dir).glob('*/domain.pddl')):
            pairs += [(domain, p) for p in sorted(domain.parent.glob('*.pddl'))
                      if p.name != 'domain.pddl']
    warnings.filterwarnings('ignore')
    print('| domain | problem | native makespan (engine) | compiled makespan (sequential) '
          '| steps native / compiled | seconds native / compiled |')
    print('|---|---|---|---|---|---|')
    for domain, problem in pairs:
        try:
            r = measure(domain, problem, args.timeout)
        except ValueError as exc:  # a domain or problem the package refuses
            print(f'| {domain.parent.name} | {problem.name} | refused: {exc} | | | |')
            continue
        print(f'| {r["domain"]} | {r["problem"]} | {r["native"]} ({r["native_status"]}) | '
              f'{r["compiled"]} ({r["compiled_status"]}) | {r["native_steps"]} / '
              f'{r["compiled_steps"]} | {r["native_seconds"]} / {r["compiled_seconds"]} |',
              flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
