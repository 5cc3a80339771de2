# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The warm LAPKT process: the cold call's plans and bounds, at a fork's cost.

Real processes throughout: the warm process imports the real ``lapkt``, forks real LAPKT
runs, and is killed with SIGKILL, as is its caller.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from l3mp_ros.planning import lapkt_engine, lapkt_warm
from l3mp_ros.planning.process import run_killable

from .test_planning_engines import DOMAIN as HOUSE
from .test_planning_engines import SOLVABLE as TIDY
from .test_planning_engines import parse

ROOT = Path(__file__).resolve().parents[1]
WAIT = 60.0  # seconds a test waits for a start or for a process to go

pytestmark = pytest.mark.skipif(not sys.platform.startswith('linux'),
                                reason='pidfd and PR_SET_PDEATHSIG are Linux only')

DOMAIN = """(define (domain shuffle)
 (:requirements :strips :typing)
 (:types item place)
 (:predicates (at ?i - item ?p - place) (sealed ?p - place))
 (:action move
  :parameters (?i - item ?from - place ?to - place)
  :precondition (and (at ?i ?from))
  :effect (and (not (at ?i ?from)) (at ?i ?to))))
"""
ITEMS = [f'i{k}' for k in range(9)]
PLACES = [f'p{k}' for k in range(5)]


def _problem(goal: str) -> str:
    init = ' '.join(f'(at {i} p0)' for i in ITEMS)
    return (f'(define (problem p) (:domain shuffle) (:objects {" ".join(ITEMS)} - item '
            f'{" ".join(PLACES)} - place) (:init {init}) (:goal {goal}))\n')


SOLVABLE = _problem('(and (at i0 p1) (at i1 p2) (at i2 p1))')
NOT_RELAXED = _problem('(and (at i0 p1) (sealed p1))')  # no action seals: not even relaxed
# each step alone is reachable, the whole never (one place per item): searches for long
ENDLESS = _problem('(and (at i0 p1) (at i0 p2) '
                   + ' '.join(f'(at {i} p3)' for i in ITEMS[1:]) + ')')


def _files(where: Path, problem: str) -> list[str]:
    """Write the domain and ``problem`` into ``where``; return LAPKT's arguments."""
    where.mkdir(parents=True, exist_ok=True)
    (where / 'domain.pddl').write_text(DOMAIN)
    (where / 'problem.pddl').write_text(problem)
    return lapkt_engine.LAPKTPlanner()._lapkt_args(
        str(where / 'domain.pddl'), str(where / 'problem.pddl'), str(where / 'plan.txt'))


def _wait_for(predicate, seconds: float = WAIT) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def warm():
    process = lapkt_warm.WarmLAPKT(sys.executable)
    assert not process.start(), 'a warm process is not ready the moment it starts'
    assert _wait_for(process.start), 'the warm process did not get ready'
    yield process
    pid = process.pid
    process.close()
    assert pid is None or not _alive(pid)


def _cold(args: list[str], where: Path) -> tuple[bool, int, str, str]:
    planner = lapkt_engine.LAPKTPlanner()
    cmd = planner._get_cmd(args[2], args[4], args[6])
    return run_killable(cmd, str(where), 30.0)


@pytest.mark.parametrize('problem', [SOLVABLE, NOT_RELAXED], ids=['solvable', 'unsolvable'])
def test_a_warm_run_is_the_cold_run(warm, tmp_path, problem):
    """The same plan file, exit status and verdict lines as LAPKT's own driver."""
    cold_args, warm_args = _files(tmp_path / 'cold', problem), _files(tmp_path / 'warm', problem)
    cold = _cold(cold_args, tmp_path / 'cold')
    got = warm.run(warm_args, str(tmp_path / 'warm'), 30.0)
    assert got is not None, 'a ready warm process ran nothing'
    assert got[:2] == cold[:2]
    plans = [(tmp_path / d / 'plan.txt') for d in ('cold', 'warm')]
    assert [p.is_file() for p in plans] == [problem == SOLVABLE] * 2
    if problem == SOLVABLE:
        assert plans[0].read_text() == plans[1].read_text()
        assert plans[1].read_text().count('(move') == 3
        assert 'PLANNER_EXIT_CODE: SUCCESS' in got[2] and 'Plan found with cost: 3' in got[2]
    else:
        assert got[1] == 1
        assert 'ReachabilityLPUnsolvable' in got[3] and 'ReachabilityLPUnsolvable' in cold[3]
    logs = [(tmp_path / d / 'lapkt.log') for d in ('cold', 'warm')]
    assert [p.is_file() for p in logs] == [problem == SOLVABLE] * 2
    if problem == SOLVABLE:
        assert logs[1].read_text().startswith('PDDL problem description')


def test_the_engine_plans_through_the_warm_process(tmp_path, monkeypatch):
    """LAPKTPlanner uses the warm process once it is ready, with the cold call's plan."""
    from l3mp_ros.planning import solve

    used = []

    def counted(*args, **kwargs):
        got = real(*args, **kwargs)
        used.append(got is not None)
        return got

    real = lapkt_warm.run
    monkeypatch.setattr(lapkt_warm, 'run', counted)
    monkeypatch.setenv(lapkt_warm.ENV, 'off')
    cold = solve(parse(HOUSE, TIDY), 'lapkt', timeout=30)
    monkeypatch.setenv(lapkt_warm.ENV, 'on')
    try:
        assert _wait_for(lambda: (solve(parse(HOUSE, TIDY), 'lapkt', timeout=30), used[-1])[1])
        warm = solve(parse(HOUSE, TIDY), 'lapkt', timeout=30)
    finally:
        lapkt_warm.shutdown()
    assert used[0] is False and used[-1] is True
    assert warm.status == cold.status == 'solved'
    assert warm.plan == cold.plan


def test_the_warm_child_is_killed_at_its_deadline_and_the_process_serves_on(warm, tmp_path):
    args = _files(tmp_path / 'endless', ENDLESS)
    started = time.monotonic()
    timed_out, rc, _, _ = warm.run(args, str(tmp_path / 'endless'), 1.0)
    assert timed_out and rc == -signal.SIGKILL
    assert time.monotonic() - started < 4.0
    assert warm.pid is not None and psutil.Process(warm.pid).children() == []
    again = warm.run(_files(tmp_path / 'next', SOLVABLE), str(tmp_path / 'next'), 30.0)
    assert again is not None and again[:2] == (False, 0)


def test_a_busy_warm_process_sends_the_next_call_cold(warm, tmp_path):
    """One request at a time: a call made meanwhile is answered None (run it cold) at once."""
    args = _files(tmp_path / 'endless', ENDLESS)
    first = threading.Thread(target=warm.run, args=(args, str(tmp_path / 'endless'), 3.0))
    first.start()
    try:
        assert _wait_for(lambda: psutil.Process(warm.pid).children() != [], 10.0)
        started = time.monotonic()
        assert warm.run(_files(tmp_path / 'b', SOLVABLE), str(tmp_path / 'b'), 30.0) is None
        assert time.monotonic() - started < 0.5
    finally:
        first.join()


def test_a_killed_warm_process_sends_calls_cold_and_is_started_again(warm, tmp_path):
    old = warm.pid
    os.kill(old, signal.SIGKILL)
    assert _wait_for(lambda: not _alive(old), 10.0)
    args = _files(tmp_path / 'a', SOLVABLE)
    assert warm.run(args, str(tmp_path / 'a'), 30.0) is None  # found dead: cold, restarts
    assert _wait_for(warm.start)
    assert warm.pid not in (None, old)
    assert warm.run(args, str(tmp_path / 'a'), 30.0)[:2] == (False, 0)


def test_an_interpreter_without_lapkt_never_holds_a_call(tmp_path):
    """A warm process that cannot start: every call is answered None at once, then no retry."""
    python = shutil.which('python3', path='/usr/bin:/bin')
    if python is None or subprocess.run([python, '-I', '-c', 'import lapkt'],
                                        capture_output=True).returncode == 0:
        pytest.skip('needs an interpreter without lapkt')
    process = lapkt_warm.WarmLAPKT(python)
    args = _files(tmp_path / 'a', SOLVABLE)
    for _ in range(lapkt_warm._MAX_FAILURES + 2):
        started = time.monotonic()
        assert process.run(args, str(tmp_path / 'a'), 30.0) is None
        assert time.monotonic() - started < 0.5
        _wait_for(lambda: process.pid is None, 10.0)
    assert process._failures == lapkt_warm._MAX_FAILURES and process.pid is None


def test_a_warm_child_dies_with_its_caller(tmp_path):
    """The caller is killed with SIGKILL mid-plan: the warm process and its child go too."""
    args = _files(tmp_path / 'endless', ENDLESS)
    code = textwrap.dedent(f"""
        import sys, time
        from l3mp_ros.planning.lapkt_warm import WarmLAPKT
        warm = WarmLAPKT(sys.executable)
        while not warm.start():
            time.sleep(0.05)
        open({str(tmp_path / 'warm')!r}, 'w').write(str(warm.pid))
        warm.run({args!r}, {str(tmp_path / 'endless')!r}, 600.0)
    """)
    env = {**os.environ, 'PYTHONPATH': str(ROOT)}
    caller = subprocess.Popen([sys.executable, '-c', code], env=env, cwd=str(tmp_path))
    try:
        assert _wait_for(lambda: (tmp_path / 'warm').is_file()
                         and (tmp_path / 'warm').read_text().strip())
        warm_pid = int((tmp_path / 'warm').read_text())
        assert _wait_for(lambda: psutil.Process(warm_pid).children() != [], 10.0)
        child = psutil.Process(warm_pid).children()[0].pid
        caller.kill()
        caller.wait()
        assert _wait_for(lambda: not _alive(warm_pid) and not _alive(child), 10.0), \
            'the warm process or its LAPKT child outlived their caller'
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()


def test_switched_off_every_call_runs_cold(monkeypatch, tmp_path):
    monkeypatch.setenv(lapkt_warm.ENV, 'off')
    assert not lapkt_warm.enabled()
    assert lapkt_warm.run(sys.executable, _files(tmp_path, SOLVABLE), str(tmp_path), 30) is None
    assert lapkt_warm.pids() == set()


def test_a_forked_copy_does_not_ask_its_parents_warm_process(tmp_path):
    """After os.fork the child starts its own; the parent's pipe stays the parent's."""
    args = _files(tmp_path / 'a', SOLVABLE)
    try:
        assert _wait_for(lambda: lapkt_warm.run(sys.executable, args, str(tmp_path / 'a'),
                                                30.0) is not None)
        parents = lapkt_warm.pids()
        assert len(parents) == 1
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the forked copy reports through its exit status
            os._exit(0 if lapkt_warm.pids() == set() and not lapkt_warm._processes else 3)
        assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
        assert lapkt_warm.pids() == parents
        assert lapkt_warm.run(sys.executable, args, str(tmp_path / 'a'), 30.0)[:2] == (False, 0)
    finally:
        lapkt_warm.shutdown()


def test_a_child_killed_before_it_leads_its_session_dies_too():
    """The warm process's kill reaches a fork that has not yet called setsid.

    A caller killed right after the fork (the race the caller test hit under load) left
    the warm process waiting for a child its group kill had missed.
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - a fork that never leads a session
        time.sleep(60)
        os._exit(0)
    try:
        lapkt_warm._kill(pid)
        started = time.monotonic()
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        assert code == -signal.SIGKILL and time.monotonic() - started < 5.0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
