# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What one benchmark run replays (stream size, agent variant, planner): :class:`RunConfig`."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from l3mp_ros_bench.household.variants import resolve_variant


@dataclass
class RunConfig:
    """What one run replays: stream size, agent variant, planner."""

    variant: str = 'RS_V'
    seed: int = 0
    changes: int = 200
    tasks: int = 40
    task_every: int = 5
    cover: bool = False  # draw every change and task kind once before the weights rule
    oracle: bool = False
    # gold answers for the reports only: the world follows the truth and the LLM reads only
    # the tasks (Algorithm 4 measured alone)
    oracle_reports: bool = False
    # read reports and tasks part by part, ground tasks in their mentions and read goals back
    # with yes/no questions (never for the oracle, which answers whole utterances' gold JSON)
    split_clauses: bool = True
    engine: str = 'lapkt'
    plan_timeout: float = 60.0
    max_attempts: int = 3
    speedup_sample: int = 4  # tasks on which the planner also runs on the whole KG
    speedup_timeout: float = 60.0
    model: str = ''  # for the report only
    # who answers the questions a report asks back: 'gold' (truthfully, from the generator's
    # truth: :mod:`l3mp_ros_bench.speaker`) or 'none' (nobody: the report is not applied)
    speaker: str = 'none'

    def identity(self) -> dict[str, Any]:
        """Return the fields that must match for a run to be resumed."""
        data = asdict(self)
        data['variant'] = resolve_variant(self.variant).name
        if data['speaker'] == 'none':
            del data['speaker']  # runs made before the option resume as they were
        for flag in ('cover', 'oracle_reports'):
            if not data[flag]:
                del data[flag]  # runs made before the option resume as they were
        return data
