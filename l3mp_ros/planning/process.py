# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run a planner process that can be stopped, and that stops itself.

The parent bounds a planner child twice: :func:`run_killable` starts it in its own session
and kills the whole group at the deadline; and every child starts through :func:`guarded`,
a few lines of Python that bind it to its caller before ``exec``-ing the planner:

* ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (Linux): the kernel kills the child when the thread
  that started it dies (a caller killed by ``timeout``, ``kill -9`` or a crash), so no
  planner is left running in its own session after its caller is gone;
* ``alarm`` (kept across ``exec``) and ``RLIMIT_CPU``: the child ends itself a little after
  its own deadline even if the parent never gets to kill it (a stopped parent).

Used for the child interpreter that compiles and solves problems whose compilation may
blow up (:func:`l3mp_ros.planning.engines.solve`), for LAPKT's driver, and for Fast
Downward's driver (through UP's runner).
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys

_KILL_GRACE = 2.0
#: seconds a guarded child may outlive the deadline it was given before it ends itself
SELF_DEADLINE_GRACE = 5.0

# Runs in the child before the planner (stdlib only, -I -S: no site, no PYTHONPATH).
# argv: parent pid, seconds (0: none), '--', the command.
_GUARD = (
    'import os, signal, sys\n'
    'parent, limit, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[4:]\n'
    'try:\n'
    '    import ctypes\n'
    '    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)\n'
    'except (OSError, AttributeError):\n'
    '    pass\n'
    'if os.getppid() != parent:\n'
    '    os._exit(137)\n'
    'if limit > 0:\n'
    '    import resource\n'
    '    signal.alarm(limit)\n'
    '    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n'
    '    if hard == resource.RLIM_INFINITY or hard > limit + 1:\n'
    '        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))\n'
    'os.execvp(cmd[0], cmd)\n'
)


def guarded(cmd: list[str], timeout: float | None) -> list[str]:
    """Return ``cmd`` behind the guard: it dies with its caller, and after ``timeout``.

    The child ends itself (``SIGALRM``) :data:`SELF_DEADLINE_GRACE` seconds after
    ``timeout`` and is killed by the kernel when the calling thread exits; ``None``: no
    deadline of its own. Call it in the thread that starts the process.
    """
    return [sys.executable, '-I', '-S', '-c', _GUARD, str(os.getpid()),
            str(self_limit(timeout)), '--', *cmd]


def self_limit(timeout: float | None) -> int:
    """Return the whole seconds after which a child ends itself (0: ``timeout`` is None)."""
    return 0 if timeout is None else max(1, math.ceil(timeout + SELF_DEADLINE_GRACE))


def run_killable(
    cmd: list[str], cwd: str, timeout: float | None, env: dict[str, str] | None = None,
) -> tuple[bool, int, str, str]:
    """Run ``cmd`` in its own session; at the deadline kill the whole process group.

    The child is :func:`guarded`: it also ends itself when this process dies or a little
    after ``timeout``. Returns ``(timed_out, returncode, stdout, stderr)``; the child is
    always reaped.
    """
    proc = subprocess.Popen(
        guarded(cmd, timeout), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        try:
            out, err = proc.communicate(timeout=_KILL_GRACE)
        except subprocess.TimeoutExpired:  # a grandchild holds the pipes open
            proc.kill()
            out, err = b'', b''
            proc.wait()
    except BaseException:
        kill_group(proc)
        proc.wait()
        raise
    return timed_out, proc.returncode, _text(out), _text(err)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group led by ``proc`` (started with ``start_new_session``).

    Call it before ``proc`` is reaped, so its pid (the group id) cannot have been reused.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _text(data: bytes | None) -> str:
    return (data or b'').decode('utf-8', errors='replace')
