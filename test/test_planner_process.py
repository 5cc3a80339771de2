# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A planner child never outlives its caller or its deadline (issue 44, item 8).

Real processes: a caller runs a child through ``run_killable`` (as LAPKT's driver and the
planning worker are run) and is killed with SIGKILL; the child must be gone long before its
own deadline. A child whose caller never kills it ends itself after its deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from l3mp_ros.planning.process import SELF_DEADLINE_GRACE, guarded

ROOT = Path(__file__).resolve().parents[1]
CHILD_DEADLINE = 120.0  # seconds the caller gives its child (far beyond the waits below)
WAIT = 30.0  # seconds the test waits for a process to go (the deadline is not reached)

pytestmark = pytest.mark.skipif(not sys.platform.startswith('linux'),
                                reason='PR_SET_PDEATHSIG is Linux only')


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as gone)."""
    try:
        state = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ('Z', 'X')


def _wait_for(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _caller(tmp: Path, depth: int) -> subprocess.Popen:
    """Start a caller whose child (``depth`` 2: and grandchild) writes its pid and sleeps.

    Depth 2 is the planning worker's shape: the worker runs LAPKT through ``run_killable``.
    """
    sleeper = (f'import os, time\nopen({str(tmp / "pid")!r}, "w").write(str(os.getpid()))\n'
               'time.sleep(600)\n')
    inner = [sys.executable, '-c', sleeper]
    if depth == 2:
        middle = textwrap.dedent(f"""
            import os
            from l3mp_ros.planning.process import run_killable
            open({str(tmp / "middle")!r}, "w").write(str(os.getpid()))
            run_killable({inner!r}, {str(tmp)!r}, {CHILD_DEADLINE})
        """)
        inner = [sys.executable, '-c', middle]
    code = textwrap.dedent(f"""
        from l3mp_ros.planning.process import run_killable
        run_killable({inner!r}, {str(tmp)!r}, {CHILD_DEADLINE})
    """)
    env = {**os.environ, 'PYTHONPATH': str(ROOT)}
    return subprocess.Popen([sys.executable, '-c', code], env=env, cwd=str(tmp))


@pytest.mark.parametrize('depth', [1, 2])
def test_planner_child_dies_with_its_caller(tmp_path: Path, depth: int) -> None:
    caller = _caller(tmp_path, depth)
    try:
        assert _wait_for(lambda: (tmp_path / 'pid').is_file()
                         and (tmp_path / 'pid').read_text().strip(), WAIT)
        child = int((tmp_path / 'pid').read_text())
        middle = int((tmp_path / 'middle').read_text()) if depth == 2 else None
        assert _alive(child)
        caller.kill()  # SIGKILL: the caller gets no chance to clean up
        caller.wait()
        assert _wait_for(lambda: not _alive(child), WAIT), \
            f'child {child} still runs after its caller was killed'
        if middle is not None:
            assert not _alive(middle)
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()
        pid_file = tmp_path / 'pid'
        if pid_file.is_file() and pid_file.read_text().strip():
            try:  # never leave a sleeper behind, whatever the outcome
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_planner_child_ends_itself_after_its_deadline() -> None:
    """Nobody kills the child: it ends itself (SIGALRM) after its deadline and the grace."""
    busy = [sys.executable, '-c', 'while True:\n    pass']
    proc = subprocess.run(guarded(busy, 0.5), timeout=WAIT + SELF_DEADLINE_GRACE)
    assert proc.returncode in (-signal.SIGALRM, -signal.SIGXCPU, -signal.SIGKILL)


def test_an_unguarded_deadline_is_none() -> None:
    """No deadline: the guard only ties the child to its caller (the command runs as is)."""
    out = subprocess.run(guarded([sys.executable, '-c', 'print("ran")'], None),
                         capture_output=True, text=True, timeout=WAIT)
    assert out.returncode == 0 and out.stdout.strip() == 'ran'
