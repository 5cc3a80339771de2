# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""One planner call in a child interpreter, which the parent kills at its deadline.

``python -m l3mp_ros.planning.worker ENGINE PARAMS_JSON DOMAIN PROBLEM TIMEOUT`` reads the
PDDL files, compiles the problem for the engine as :func:`.engines.solve` would, plans,
and prints ``{"status": UP status name, "plan": ["(action arg ...)", ...] | null}`` as
its last line (a temporal plan adds ``"schedule": [[start, duration], ...]``, one pair per
step, in the order of ``plan``). :func:`.engines.solve` runs it through
:func:`.process.run_killable` (the one way this package bounds a planner it cannot
interrupt).
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str] | None = None) -> int:
    """Plan once and print the reply line; the exit status is 0 when a reply was printed."""
    from unified_planning.environment import get_environment
    from unified_planning.io import PDDLReader
    from unified_planning.plans import TimeTriggeredPlan

    from .engines import _compile_for, register_engines

    name, params, domain, problem, timeout = (argv or sys.argv[1:])[:5]
    env = get_environment()
    env.credits_stream = None
    register_engines(env)
    prob = PDDLReader(env).parse_problem(domain, problem)
    target, back_maps = _compile_for(env.factory.engine(name), prob, name)
    with env.factory.OneshotPlanner(name=name, params=json.loads(params)) as planner:
        # lapkt runs its planner in a session of its own: bound it too (pyperplan has none)
        res = planner.solve(target, **({'timeout': float(timeout)} if name == 'lapkt' else {}))
    plan = res.plan
    steps = None
    reply: dict = {'status': res.status.name}
    if plan is not None:
        for back in reversed(back_maps):
            plan = plan.replace_action_instances(back)
        if isinstance(plan, TimeTriggeredPlan):
            timed = sorted(plan.timed_actions, key=lambda t: (t[0], str(t[1])))
            actions = [a for _, a, _ in timed]
            reply['schedule'] = [[str(float(s)), str(float(d or 0))] for s, _, d in timed]
        else:
            actions = list(plan.actions)
        steps = ['(' + ' '.join([a.action.name] + [str(p) for p in a.actual_parameters]) + ')'
                 for a in actions]
    reply['plan'] = steps
    sys.stdout.write('\n' + json.dumps(reply) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
