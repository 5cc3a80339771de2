# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planning engines load in the background of a task's LLM call."""

from __future__ import annotations

import subprocess
import sys

from l3mp_ros.agent.task.task import TaskPlanner
from l3mp_ros.planning.planner import Planner
from l3mp_ros.testing import FakeOpenAI

from .agent_fixtures import client, household_world
from .test_agent_task import GOOD, TASK

FRESH = """
import sys
import l3mp_ros.planning as planning
assert not any(m in sys.modules for m in planning.WARM_MODULES), 'loaded before warm()'
thread = planning.warm()
assert planning.warm() is thread  # once per process
planning.wait_warm()
assert not thread.is_alive()
missing = [m for m in planning.WARM_MODULES if m not in sys.modules]
assert not missing, missing
import unified_planning.environment as env
assert env.GLOBAL_ENVIRONMENT is None  # imports only: the first plan makes the environment
print('ok')
"""


def test_warm_imports_the_engines_once_and_makes_no_environment():
    out = subprocess.run([sys.executable, '-c', FRESH], capture_output=True, text=True,
                         timeout=180)
    assert out.stdout.strip() == 'ok', out.stderr[-2000:]


def test_a_task_warms_the_planner_before_it_asks_the_model(tmp_path, monkeypatch):
    world = household_world(tmp_path)
    order: list[str] = []
    monkeypatch.setattr(Planner, 'warm', staticmethod(lambda: order.append('warm')))

    def answer(request: dict) -> dict:
        order.append('llm')
        return {'content': GOOD}

    with FakeOpenAI([answer]) as fake:
        out = TaskPlanner(world, client(fake), None,
                          Planner(world.domain, engine='fast-downward', timeout=30)).run(TASK)
    assert out.status == 'solved', out.errors
    assert order[:2] == ['warm', 'llm']
