# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Every check of the four pipelines has tests of its own, and is found by its name.

The tests of a check family mark the checks they exercise (:func:`.check_fixtures.covers`);
each declared check needs at least two (one it passes, one it does not), in its family's
test module. A check's class is its run-time name in CamelCase (``part_scope``:
``PartScope``), and no two checks share a class or a name.
"""

from l3mp_ros.agent.report.pipeline import ANSWER_CHECKS, PART_CHECKS, REPORT_CHECKS
from l3mp_ros.agent.task.pipeline import GOAL_CHECKS

from . import test_answer_checks, test_goal_checks, test_part_checks, test_report_checks
from .check_fixtures import COVERED

FAMILIES = [(ANSWER_CHECKS, test_answer_checks), (PART_CHECKS, test_part_checks),
            (REPORT_CHECKS, test_report_checks), (GOAL_CHECKS, test_goal_checks)]
CHECKS = [c for checks, _ in FAMILIES for c in checks]


def camel(name: str) -> str:
    return ''.join(w.capitalize() for w in name.split('_'))


def test_every_declared_check_is_tested_alone_in_its_familys_module():
    assert set(COVERED) == {type(c).__name__ for c in CHECKS}
    for checks, module in FAMILIES:
        for check in checks:
            tests = COVERED[type(check).__name__]
            assert len(tests) >= 2, (check.name, tests)  # a pass and a non-pass at least
            assert all(callable(getattr(module, t, None)) for t in tests), (check.name, tests)


def test_each_check_class_is_named_for_its_run_time_name():
    assert [camel(c.name) for c in CHECKS] == [type(c).__name__ for c in CHECKS]
    assert camel('part_scope') == 'PartScope' and camel('restated_after') == 'RestatedAfter'
    assert len({type(c) for c in CHECKS}) == len({type(c).__name__ for c in CHECKS}) == len(
        CHECKS)
    assert len({c.name for c in CHECKS}) == len(CHECKS)
