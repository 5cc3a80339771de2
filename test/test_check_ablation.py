# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What each check did to a report (``Trace.checks``) and switching one off by name."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from l3mp_ros.agent.report.pipeline import ANSWER_CHECKS, PART_CHECKS, REPORT_CHECKS, check_names
from l3mp_ros.agent.report.update import NLUpdater, UpdateSettings
from l3mp_ros.retrieval.link import LinkRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import NO_OPTION
from l3mp_ros.world.kg import Fact

from .agent_fixtures import client, household_world, read_back_reply

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'benchmarks'))

import ablate_checks  # noqa: E402
import nl_reports  # noqa: E402
from runlog import RunLog  # noqa: E402

REPORT = 'Jerry took the red pen from the living room table.'
HELD = Fact('in_person_hand', ('red_pen', 'jerry'))
EXTRA = Fact('person_in_room', ('jerry', 'jerry_bedroom'))  # the report never says it
ANSWER = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                                ['person_in_room', 'jerry', 'jerry_bedroom']]}}


# the answer; yes to the pen, no to Jerry's move; asked again without it, the same answer
SCRIPT = [ANSWER, read_back_reply(0.9), read_back_reply(0.3, 'no'), ANSWER]


def _run(tmp_path, skip=frozenset()):
    world = household_world(tmp_path)
    fake = FakeOpenAI(SCRIPT, answers=NO_OPTION).start()
    updater = NLUpdater(world, client(fake), LinkRetriever(),
                        UpdateSettings(resolve_mentions=False, skip_checks=frozenset(skip),
                                       settled_places=False))  # the pen read back too
    with fake:
        out = updater.run(REPORT)
        return world, out, len(fake.requests)


def test_the_trace_says_which_checks_ruled_and_what_they_called(tmp_path):
    _, out, requests = _run(tmp_path)
    checks = out.trace.checks
    # the read-back: two yes/no questions and the answer asked again without the denial
    assert checks['read_back'] == {'rulings': 1, 'calls': 3}
    assert checks['ask_back']['calls'] == 0 and checks['ask_back']['rulings'] == 1
    assert requests == out.usage.calls == 1 + sum(c['calls'] for c in checks.values())
    assert 'relevance' not in checks  # it passed: switching it off cannot change anything
    assert set(checks) <= check_names()


def test_a_check_switched_off_by_name_is_not_run(tmp_path):
    world, out, requests = _run(tmp_path, skip={'read_back'})
    # nothing reads the answer back: the unsaid move is written, in one call
    assert requests == 1 and out.applied and HELD in world.kg and EXTRA in world.kg
    assert 'read_back' not in out.trace.checks and 'ask_back' not in out.trace.checks


def test_the_check_names_are_the_pipelines_and_unique():
    names = [c.name for c in (*ANSWER_CHECKS, *PART_CHECKS, *REPORT_CHECKS)]
    assert len(names) == len(set(names)) == len(check_names())
    assert {'read_back', 'place_check', 'part_scope', 'ask_back'} <= check_names()


def test_the_benchmark_refuses_an_unknown_check_name():
    done = subprocess.run([sys.executable, str(ROOT / 'benchmarks/nl_reports.py'),
                           '--skip', 'no_such_check'], capture_output=True, text=True)
    assert done.returncode == 2 and 'unknown check' in done.stderr


def _row(i, checks, verdict='exact'):
    return {'i': i, 'verdict': verdict, 'expect': 'apply', 'asked': 0, 'calls': 2,
            'checks': {c: {'rulings': 1, 'calls': 1} for c in checks}}


def test_rows_are_reused_only_where_the_skipped_check_did_nothing(tmp_path):
    base = tmp_path / 'base'
    base.mkdir()
    rows = [_row(1, ['read_back']), _row(2, ['place_check', 'read_back']), _row(3, [])]
    (base / 'reports.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in rows))
    log = RunLog(tmp_path / 'off', 'reports')
    nl_reports.reuse(log, base, {'place_check'})
    assert log.done == {1, 3}  # report 2 is run again without the place check
    again = RunLog(tmp_path / 'off', 'reports')  # on disk: a rerun resumes after them
    assert again.done == {1, 3}
    old = tmp_path / 'old'
    old.mkdir()
    (old / 'reports.jsonl').write_text(json.dumps({'i': 1, 'verdict': 'exact'}) + '\n')
    with pytest.raises(SystemExit, match='without "checks"'):
        nl_reports.reuse(RunLog(tmp_path / 'x', 'reports'), old, {'read_back'})


def test_the_ablation_table_shows_each_change_beside_the_baseline(tmp_path):
    def write(d, verdicts, calls):
        d.mkdir()
        rows = [{**_row(i, []), 'verdict': v, 'calls': calls} for i, v in enumerate(verdicts)]
        (d / 'reports.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in rows))
        return ablate_checks.measure(d)

    base = write(tmp_path / 'b', ['exact', 'exact', 'wrong'], 4)
    off = write(tmp_path / 'o', ['exact', 'wrong', 'wrong'], 3)
    assert ablate_checks.line(base) == '2/3 | 1 | 0 | 0/0 | 0.00 | 4.00'
    assert ablate_checks.line(off, base) == '1/3 (-1) | 2 (+1) | 0 | 0/0 | 0.00 | 3.00 (-1.00)'
    assert ablate_checks.set_name('../shared/eval/lab') == 'lab'
    assert ablate_checks.set_name('benchmarks/data/ward_reports.json') == 'ward'
