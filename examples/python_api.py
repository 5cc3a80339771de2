# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""l3mp_ros as a Python library, without ROS: a report, a task and a question.

Builds the agent from a :class:`~l3mp_ros.config.Config` (the household domain and its
shipped state, in memory), applies a verified report (Algorithm 3), plans a task said in
words (Algorithm 4) and answers a question from the KG::

    python examples/python_api.py                       # the embedded model (slow)
    python examples/python_api.py --llm https://api.openai.com/v1 --model gpt-4o

``test/test_examples.py`` runs it against a scripted loopback LLM.
"""

from __future__ import annotations

import argparse
import sys

from l3mp_ros.compose import build_agent
from l3mp_ros.config import Config
from l3mp_ros.planning.status import Status


def main(argv: list[str] | None = None) -> int:
    """Run the three steps; the exit status is 0 when the report applied and a plan came."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--llm', default='', help='OpenAI-compatible URL ("": embedded model)')
    ap.add_argument('--model', default='local')
    args = ap.parse_args(argv)

    config = Config(store='',  # '': an in-memory KG made from initial_state
                    initial_state='config/household_state.json',
                    llm_url=args.llm, llm_model=args.model, plan_timeout=30.0)
    agent = build_agent(config)  # world model, LLM client, retriever, planner (portfolio)
    try:
        report = agent.update('Jerry took the red pen from the living room table.')
        if report.applied:
            print('applied:', ' '.join(report.update.text().split()))
        else:
            print('not applied:', report.question or '; '.join(report.errors))
        task = agent.task('Give the red pen to Anna.')
        print(f'task: {task.status}, goal {task.goal}')
        for step in task.steps:
            print('  ', step)
        # planning executes nothing: the pen is still where the report put it
        print('answer:', agent.ask('Where is the red pen?').text)
    finally:
        agent.close()
    return 0 if report.applied and task.status == Status.SOLVED else 1


if __name__ == '__main__':
    sys.exit(main())
