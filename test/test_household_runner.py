# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The household benchmark runner: judged correctness, LLM accounting, resumable runs, CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from l3mp_ros.config import Config
from l3mp_ros.llm.client import LLMClient, LLMConfig
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import DEFAULT_ANSWERS
from l3mp_ros.world.kg import Update  # noqa: F401 (used by the oracle helpers)
from l3mp_ros_bench.household.base import Step
from l3mp_ros_bench.household.checkpoint import RunError
from l3mp_ros_bench.household.generator import generate_stream
from l3mp_ros_bench.household.household import generate_household
from l3mp_ros_bench.household.oracle import OracleLLM
from l3mp_ros_bench.household.run_config import RunConfig
from l3mp_ros_bench.household.runner import Runner
from l3mp_ros_bench.household.variants import PAPER_VARIANTS, VARIANTS, resolve_variant

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
ENGINE = 'fast-downward'


@pytest.fixture(scope='module')
def house():
    return generate_household(SEED)


def config(variant: str, changes: int, tasks: int, **kw: Any) -> RunConfig:
    kw.setdefault('oracle', True)
    return RunConfig(variant=variant, seed=SEED, changes=changes, tasks=tasks, task_every=3,
                     engine=ENGINE, plan_timeout=60.0, speedup_sample=0, **kw)


def run(cfg: RunConfig, run_dir: Path, house, llm: Any = None,
        oracle: OracleLLM | None = None) -> Runner:
    runner = Runner(cfg, run_dir, llm, oracle=oracle, household=house)
    runner.open()
    try:
        runner.run()
    finally:
        runner.close()
    return runner


def strip_timing(data: Any) -> Any:
    """Drop wall-clock fields (they differ between runs) recursively."""
    if isinstance(data, dict):
        return {k: strip_timing(v) for k, v in data.items()
                if k not in ('timing', 'planner_speedup', 'command')}
    if isinstance(data, list):
        return [strip_timing(v) for v in data]
    return data


class DropUpdates(OracleLLM):
    """An agent that understands nothing it is told: every update comes back empty."""

    def answer(self, schema_name: str, step: Step) -> Any:
        if schema_name == 'kg_update':
            return {'remove': [], 'add': []}
        return super().answer(schema_name, step)


class WrongGoals(OracleLLM):
    """An agent that misunderstands every task: it just walks to another room."""

    runner: Runner | None = None

    def answer(self, schema_name: str, step: Step) -> Any:
        if schema_name == 'pddl_goal':
            kg = self.runner.world.kg
            here = next(f.args[1] for f in kg.facts_with('agent_in_room'))
            rooms = sorted(n for n, t in kg.entities.items() if t == 'room' and n != here)
            return {'goal': f'(and (agent_in_room the_robot {rooms[0]}))'}
        return super().answer(schema_name, step)


# --------------------------------------------------------------------------- variants
def test_variants_and_aliases():
    assert list(PAPER_VARIANTS) == ['S', 'R-', 'R-_V', 'R+', 'R+_V', 'RS', 'RS_V']
    assert VARIANTS['RL_V'].retriever == 'link' and resolve_variant('rlv').name == 'RL_V'
    for alias, name in (('RVS', 'RS_V'), ('R^S_V', 'RS_V'), ('rs_v', 'RS_V'), ('RV-', 'R-_V'),
                        ('R-V', 'R-_V'), ('RV+', 'R+_V'), ('R+', 'R+'), ('L3MP', 'RS_V'),
                        ('s', 'S'), ('R^S', 'RS')):
        assert resolve_variant(alias).name == name
    assert resolve_variant('RS_V').retriever == 'search' and resolve_variant('RS_V').verify
    assert resolve_variant('R-').retriever == 'full' and not resolve_variant('R-').verify
    assert not resolve_variant('S').updates
    with pytest.raises(ValueError, match='unknown variant'):
        resolve_variant('RX')


# --------------------------------------------------------------------------- judging
@pytest.mark.parametrize('variant', ['R+_V', 'RS_V'])
def test_oracle_agent_scores_full_marks(tmp_path, house, variant):
    changes, tasks = (6, 2) if variant == 'R+_V' else (3, 1)  # RS_V loads MiniLM: keep short
    cfg = config(variant, changes, tasks)
    if variant == 'R+_V':  # also plan the second task on the whole KG (paper Fig. 4)
        cfg.speedup_sample, cfg.speedup_timeout = 1, 5.0
    runner = run(cfg, tmp_path / 'run', house)
    recs = runner.records
    assert [r['kind'] for r in recs] == (['change'] * 3 + ['task']) * tasks
    assert all(r['state_correct'] for r in recs)
    assert all(r['diff_correct'] for r in recs if r['kind'] == 'change')
    assert all(r['success'] and r['executed_ok'] for r in recs if r['kind'] == 'task')
    s = runner.summary()
    assert (s['state_change_success'], s['diff_success'], s['plan_success']) == (1.0, 1.0, 1.0)
    assert s['changes'] == changes and s['tasks'] == tasks and s['complete']
    calls_per_step = 2  # retrieval (query graph / entity selection) + update or goal
    assert s['llm_calls'] == calls_per_step * (changes + tasks) and s['reprompts'] == 0
    assert s['tokens']['update']['prompt_total'] > 0 and s['tokens']['estimated']
    measured = s['timing']['speedup']['measured']
    assert len(measured) == (1 if variant == 'R+_V' else 0)
    for m in measured:
        assert m['full_planner_seconds'] > 0 and m['full_status'] in ('solved', 'timeout')


def test_dropping_agent_scores_what_S_scores(tmp_path, house):
    """Changes only: both keep the initial KG, so a step's state is right iff the truth is
    back to the initial facts; no diff is ever right (every gold diff changes something)."""
    n = 10
    drop = run(config('R+_V', n, 0), tmp_path / 'drop', house, oracle=DropUpdates())
    s_run = run(config('S', n, 0), tmp_path / 's', house)
    truth = house.kg.copy()
    expected = []
    for step in generate_stream(house, SEED, changes=n, tasks=0, task_every=3):
        truth.apply(step.diff)
        expected.append(truth.facts == house.kg.facts)
    assert [r['state_correct'] for r in drop.records] == expected
    assert [r['state_correct'] for r in s_run.records] == expected
    assert not any(r['diff_correct'] or r['applied'] for r in drop.records)
    assert all(r['reprompts'] == 0 for r in drop.records)  # an empty answer is final
    assert drop.summary()['state_change_success'] == sum(expected) / n
    assert s_run.summary()['llm_calls'] == 0  # S never reads a report


def test_wrong_goals_fail_their_tasks_but_beliefs_follow_the_plans(tmp_path, house):
    oracle = WrongGoals()
    runner = Runner(config('R+_V', 6, 2), tmp_path / 'run', oracle=oracle, household=house)
    oracle.runner = runner
    runner.open()
    try:
        runner.run()
    finally:
        runner.close()
    tasks = [r for r in runner.records if r['kind'] == 'task']
    assert len(tasks) == 2
    assert all(r['planned'] and r['plan'] and r['executed_ok'] for r in tasks)
    assert not any(r['success'] or r['goal_reached'] for r in tasks)
    # whatever the robot did, it did on the truth and on its own KG alike
    assert all(r['state_correct'] for r in runner.records)
    s = runner.summary()
    assert s['plan_success'] == 0.0 and s['state_change_success'] == 1.0


# --------------------------------------------------------------------------- real client
def _utterance(request: dict[str, Any]) -> str:
    user = [m['content'] for m in request['messages'] if m['role'] == 'user'][0]
    return re.split(r'^(?:Report|Task|Request): ', user, flags=re.M)[-1].splitlines()[0].strip()


def _schema_name(request: dict[str, Any]) -> str:
    return request['response_format']['json_schema']['name']


def scripted_run(tmp_path: Path, house, variant: str, wrong_every: int):
    """Run through LLMClient → HTTP → FakeOpenAI whose responder answers from the gold steps;
    every ``wrong_every``-th step's first update answer is half of a move (its removals
    only: the item would be nowhere)."""
    steps: dict[str, Step] = {}
    oracle = OracleLLM()
    wrong: list[int] = []

    def responder(request: dict[str, Any]) -> dict[str, Any]:
        step = steps[_utterance(request)]
        name = _schema_name(request)
        data = oracle.answer(name, step)
        retry = any('Your answer has errors' in str(m['content']) for m in request['messages'])
        if (name == 'kg_update' and not retry and wrong_every
                and (step.index + 1) % wrong_every == 0 and data['add'] and data['remove']):
            wrong.append(step.index)
            data = {'remove': data['remove'], 'add': []}
        return {'content': json.dumps(data)}

    cfg = config(variant, 6, 2, oracle=False, model='fake-model')
    cfg.split_clauses = False  # the responder answers whole reports, like the oracle
    # the read-back says yes, the place check gets no option: the gold answers the rest
    runner, requests = _recording_run(cfg, tmp_path / variant, house, responder,
                                      DEFAULT_ANSWERS, steps)
    checks = sum(_schema_name(r) in ('confirm', 'state') for r in requests)
    return runner, (len(requests), checks), wrong


def _recording_run(cfg: RunConfig, run_dir: Path, house, responder: Any,
                   answers: dict[str, Any], steps: dict[str, Step]
                   ) -> tuple[Runner, list[dict[str, Any]]]:
    """Run ``cfg`` through the real client against a fake whose ``responder`` answers
    from the gold steps (``steps`` fills as the generator draws them); return the runner
    and the requests."""
    with FakeOpenAI(responder=responder, answers=answers) as fake:
        llm = LLMClient(LLMConfig(base_url=fake.base_url, model='fake-model', max_retries=0))
        runner = Runner(cfg, run_dir, llm, household=house)
        runner.open()
        original = runner.gen.next_step

        def recording(truth, kind=None):
            step = original(truth, kind)
            steps[step.text] = step
            return step

        runner.gen.next_step = recording
        try:
            runner.run()
        finally:
            runner.close()
            llm.close()
        return runner, list(fake.requests)


def test_scripted_llm_through_the_real_client(tmp_path, house):
    runner, requests, wrong = scripted_run(tmp_path, house, 'R+_V', wrong_every=0)
    s = runner.summary()
    assert s['state_change_success'] == 1.0 and s['plan_success'] == 1.0
    total, checks = requests
    # retrieval + update per change, retrieval + goal per task; then one yes/no per stated
    # fact and the place check's where-questions
    assert s['llm_calls'] == total and total - checks == 16 and checks >= 6
    assert s['tokens']['prompt_total'] > 0 and not s['tokens']['estimated']
    assert not wrong
    # the states-in-other-words call is the shipped default's (off), not the runner's
    assert runner.updater.settings.ask_other_words is Config().ask_other_words is False
    tasks = [r for r in runner.records if r['kind'] == 'task']  # what the checks did, kept
    assert tasks and all(isinstance(r['notes'], list) for r in tasks)


def test_scripted_wrong_answers_verifier_repairs_them(tmp_path, house):
    """With the verifier the half-update is caught and re-prompted; without it, it sticks."""
    verified, _, wrong = scripted_run(tmp_path, house, 'R+_V', wrong_every=2)
    assert wrong
    sv = verified.summary()
    assert sv['state_change_success'] == 1.0 and sv['reprompts'] == len(wrong)
    plain, _, wrong2 = scripted_run(tmp_path, house, 'R+', wrong_every=2)
    assert wrong2
    changes = [r for r in plain.records if r['kind'] == 'change']
    bad = [r['index'] for r in changes if not r['diff_correct']]
    assert set(wrong2) <= set(bad) and bad[0] == wrong2[0]
    assert not plain.records[bad[0]]['state_correct']
    assert all(r['state_correct'] for r in plain.records[:bad[0]])
    assert plain.summary()['state_change_success'] < 1.0


def test_oracle_reports_puts_only_the_tasks_to_the_llm(tmp_path, house):
    """``oracle_reports``: the reports are read from the gold, the LLM gets only the tasks."""
    steps: dict[str, Step] = {}
    oracle = OracleLLM()
    seen: list[str] = []

    def responder(request: dict[str, Any]) -> dict[str, Any]:
        said = _utterance(request)  # a task is asked part by part: the part's whole step
        step = next(st for text, st in steps.items() if said in text)
        seen.append(step.kind)
        return {'content': json.dumps(oracle.answer(_schema_name(request), step))}

    cfg = config('RL_V', 6, 2, oracle=False, oracle_reports=True, model='fake-model')
    assert cfg.identity()['oracle_reports'] and 'oracle_reports' not in config(
        'RL_V', 6, 2).identity()  # runs made before the option still resume
    # the goal's read-back ("will the trousers be dry?") says yes: the gold keeps them
    yes = {**DEFAULT_ANSWERS, 'outcome': {'content': {'answer': 'yes'}}}
    runner, _ = _recording_run(cfg, tmp_path / 'tasks_only', house, responder, yes, steps)
    assert seen and set(seen) == {'task'}  # no report reached the LLM
    changes = [r for r in runner.records if r['kind'] == 'change']
    assert len(changes) == 6 and all(r['diff_correct'] and r['llm']['calls'] == 0
                                     for r in changes)
    s = runner.summary()
    assert s['state_change_success'] == 1.0 and s['plan_success'] == 1.0


# --------------------------------------------------------------------------- resuming
def test_resume_rolls_back_a_step_that_never_checkpointed(tmp_path, house):
    """Crash between the agent-store commit and the checkpoint: the step is undone, redone."""
    whole = run(config('R+_V', 6, 1), tmp_path / 'whole', house)
    run_dir = tmp_path / 'crash'
    first = Runner(config('R+_V', 6, 1), run_dir, household=house)
    first.open()
    first.run(stop_after=2)
    saved = {p: (run_dir / p).read_bytes() for p in ('checkpoint.json', 'steps.jsonl')}
    first.run(stop_after=1)  # commits to agent.db ...
    first.close()
    for p, data in saved.items():  # ... but "crashes" before its checkpoint
        (run_dir / p).write_bytes(data)
    again = Runner(config('R+_V', 6, 1), run_dir, household=house)
    again.open()
    assert len(again.records) == 2
    assert again.world.kg.facts == again.truth.facts
    again.run()
    again.close()
    assert strip_timing(again.records) == strip_timing(whole.records)
    with pytest.raises(RunError, match='another configuration'):
        Runner(config('R+_V', 7, 1), run_dir, household=house).open()


def _cli(args: list[str], **kw: Any) -> subprocess.Popen:
    env = dict(os.environ)
    code = 'import sys; from l3mp_ros.cli import main; sys.exit(main())'
    return subprocess.Popen([sys.executable, '-c', code, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


BENCH = ['bench', 'household', '--variant', 'RV+', '--seed', str(SEED), '--changes', '8',
         '--tasks', '2', '--task-every', '4', '--oracle', '--engine', ENGINE,
         '--speedup-sample', '0', '--no-progress']


def test_cli_sigkill_and_resume_matches_an_uninterrupted_run(tmp_path):
    whole = _cli([*BENCH, '--out', str(tmp_path / 'whole')])
    killed = tmp_path / 'killed'
    child = _cli([*BENCH, '--out', str(killed)])
    records = killed / 'r+_v' / 'steps.jsonl'
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if records.exists() and len(records.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert not (killed / 'report.json').exists(), 'the run finished before it was killed'
    resumed = _cli([*BENCH, '--out', str(killed)])
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err.decode()
    assert whole.wait(timeout=300) == 0, whole.stderr.read().decode()
    a = json.loads((tmp_path / 'whole' / 'report.json').read_text())
    b = json.loads((killed / 'report.json').read_text())
    assert strip_timing(a) == strip_timing(b)
    v = b['variants'][0]
    for key in ('variant', 'state_change_success', 'plan_success', 'changes', 'tasks',
                'tokens', 'planner_speedup', 'llm_calls', 'llm_retries', 'per_kind'):
        assert key in v
    assert v['variant'] == 'R+_V' and v['changes'] == 8 and v['tasks'] == 2
    assert v['state_change_success'] == 1.0 and v['plan_success'] == 1.0
    for name in ('report.md', 'tokens.png'):
        assert (killed / name).stat().st_size > 0
    assert not (killed / 'speedup.png').exists()  # nothing measured: no empty plot
    md = (killed / 'report.md').read_text()
    assert 'R⁺_V' in md and 'est. tokens/update' in md and 'characters / 4' in md
    lines = (killed / 'r+_v' / 'steps.jsonl').read_text().splitlines()
    whole_lines = (tmp_path / 'whole' / 'r+_v' / 'steps.jsonl').read_text().splitlines()
    assert strip_timing([json.loads(x) for x in lines]) == strip_timing(
        [json.loads(x) for x in whole_lines])
    shutil.rmtree(tmp_path / 'whole')


def test_cli_bad_input_exits_2(tmp_path):
    proc = _cli(['bench', 'household', '--variant', 'RX', '--oracle', '--out', str(tmp_path)])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b'unknown variant' in err and b'Traceback' not in err
    missing = tmp_path / 'nothing_here'
    proc = _cli([*BENCH, '--report-only', '--out', str(missing)])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b'no run of' in err and b'Traceback' not in err
    assert not missing.exists()  # nothing created


def test_speedup_is_opt_in():
    from l3mp_ros.cli import build_parser
    args = build_parser().parse_args(['bench', 'household', '--oracle', '--out', 'x'])
    assert args.speedup_sample == 0


def test_unreachable_llm_stops_the_run_without_judging(tmp_path, house):
    with FakeOpenAI() as fake:
        url = fake.base_url
    llm = LLMClient(LLMConfig(base_url=url, model='gone', max_retries=0, timeout=5))
    runner = Runner(config('R+_V', 3, 0, oracle=False), tmp_path / 'run', llm, household=house)
    runner.open()
    try:
        with pytest.raises(RunError, match='not recorded'):
            runner.run()
        assert runner.records == []
        assert json.loads(runner.checkpoint_path.read_text())['records'] == 0
    finally:
        runner.close()
        llm.close()


@pytest.mark.parametrize('speaker', ['gold', 'none'])
def test_a_speaker_answers_the_questions_a_report_asks(tmp_path, house, speaker):
    """Issue 58: the read-back denies every stated fact, so each report asks whether its
    reading is right; the gold speaker says yes from the truth, nobody leaves it out. A
    report whose words settle all it states ("Megan turned on the light": switched on in
    words) is not read back, so it is written without a question."""
    steps: dict[str, Step] = {}
    oracle = OracleLLM()

    def responder(request: dict[str, Any]) -> dict[str, Any]:
        return {'content': json.dumps(oracle.answer(_schema_name(request),
                                                    steps[_utterance(request)]))}

    cfg = config('RL_V', 4, 1, oracle=False, model='fake-model', speaker=speaker)
    cfg.split_clauses = False  # the responder answers whole reports, like the oracle
    assert ('speaker' in cfg.identity()) == (speaker == 'gold')  # old runs still resume
    denied = {**DEFAULT_ANSWERS, 'confirm': {'content': {'answer': 'no'}}}
    runner, _ = _recording_run(cfg, tmp_path / speaker, house, responder, denied, steps)
    changes = [r for r in runner.records if r['kind'] == 'change']
    s = runner.summary()
    worded = [r for r in changes if re.search(r'\b(?:turned|switched)\b', r['text'])
              and len(r['gold_diff']['add']) + len(r['gold_diff']['remove']) == 1]
    asking = [r for r in changes if r not in worded]
    assert asking and all(r['applied'] and r['diff_correct'] and not r['asked'] for r in worded)
    if speaker == 'gold':
        assert all(r['asked'] >= 1 and r['diff_correct'] for r in asking), changes
        assert s['questions'] >= len(asking) and s['changes_asked'] == len(asking)
        assert s['state_change_success'] == 1.0
    else:
        assert all(r['asked'] == 0 and not r['applied'] for r in asking)
        assert s['questions'] == 0 and s['state_change_success'] < 1.0
