# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run a planner process that can be stopped: its own session, killed as a group at the deadline.

Used for the child interpreter that compiles and solves problems whose compilation may
blow up (:func:`l3mp_ros.planning.engines.solve`).
"""

from __future__ import annotations

import os
import signal
import subprocess

_KILL_GRACE = 2.0


def run_killable(
    cmd: list[str], cwd: str, timeout: float | None, env: dict[str, str] | None = None,
) -> tuple[bool, int, str, str]:
    """Run ``cmd`` in its own session; at the deadline kill the whole process group.

    Returns ``(timed_out, returncode, stdout, stderr)``; the child is always reaped.
    """
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
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
