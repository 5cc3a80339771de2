# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A warm LAPKT process: each plan is a fork of it, not a new interpreter.

A cold LAPKT call (:func:`.process.run_killable` on LAPKT's driver) starts Python, imports
``lapkt`` and Tarski, reads LAPKT's planner table (YAML) and parses the PDDL with a cold
ANTLR parser before it grounds and searches: ~0.4 s of a 0.5-0.9 s call here, paid by
every widening of every plan. :class:`WarmLAPKT` starts this file as a script once per
interpreter path; it imports all that, reads the table once and parses a small problem
(ANTLR builds its DFA caches on first use), then forks one child per request. The child
runs LAPKT's own driver (``Planner(process_arguments()).solve()``), so the files it reads
and writes, its output and its exit status are the cold call's.

The bounds are the cold call's too. The child leads a session of its own, is killed by the
kernel when the warm process dies (``PR_SET_PDEATHSIG``) and ends itself a little after its
deadline (``alarm``, ``RLIMIT_CPU``); the warm process kills its group at the deadline, and
ends, killing its child, when its caller closes or loses the pipe (a caller killed with
SIGKILL). One request at a time per warm process: :func:`run` answers None while it starts (in
the background of the calls that run cold meanwhile), when it is busy or when it cannot
start, and the caller runs the cold call instead. ``L3MP_LAPKT_WARM=off``
switches it off.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time

__all__ = ['ENV', 'WarmLAPKT', 'enabled', 'pids', 'read_text', 'run', 'shutdown']

#: environment switch: ``off`` (or ``0``, ``no``, ``false``) runs every LAPKT call cold
ENV = 'L3MP_LAPKT_WARM'
#: seconds the warm process may take to import LAPKT and parse its warm-up problem (calls
#: made meanwhile run cold); also what it may take to say it forked the child
START_TIMEOUT = 60.0
#: seconds a warm process may take beyond a deadline to say its child is gone
_REPLY_GRACE = 5.0
#: starts that may fail before a process stops trying (each failure falls back to cold)
_MAX_FAILURES = 3

_WARM_DOMAIN = """(define (domain warm)
 (:requirements :strips :typing :negative-preconditions :equality)
 (:types place item - object)
 (:predicates (at ?i - item ?p - place) (open ?p - place))
 (:action move
  :parameters (?i - item ?from - place ?to - place)
  :precondition (and (at ?i ?from) (open ?to) (not (= ?from ?to)) (not (at ?i ?to)))
  :effect (and (not (at ?i ?from)) (at ?i ?to))))
"""
_WARM_PROBLEM = """(define (problem warm-problem) (:domain warm)
 (:objects a b - place x - item)
 (:init (at x a) (open b))
 (:goal (and (at x b))))
"""


def enabled() -> bool:
    """Whether LAPKT calls may use a warm process (``L3MP_LAPKT_WARM``, default on)."""
    return os.environ.get(ENV, 'on').strip().lower() not in ('off', '0', 'no', 'false')


class WarmLAPKT:
    """One warm LAPKT process for one interpreter; one request at a time."""

    def __init__(self, python: str) -> None:
        """Remember ``python`` (it must import ``lapkt``); the process starts on first use."""
        self.python = python
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._failures = 0
        self._ready = False
        self._since = 0.0
        self._buf = b''  # what the warm process wrote after its last full line

    @property
    def pid(self) -> int | None:
        """Return the warm process's pid while it runs (else None)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def run(self, args: list[str], cwd: str,
            timeout: float | None) -> tuple[bool, int, str, str] | None:
        """Run LAPKT's driver with ``args`` in ``cwd`` in a fork of the warm process.

        Returns ``(timed_out, returncode, stdout, stderr)`` as :func:`.process.run_killable`
        does, or None when the process is busy, cannot start or failed before the child
        ran (the caller then runs the cold call).
        """
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if not self._started():
                return None
            return self._ask(args, cwd, timeout)
        finally:
            self._lock.release()

    def start(self) -> bool:
        """Start the warm process if none runs (without waiting); whether it is ready."""
        with self._lock:
            return self._started()

    def close(self) -> None:
        """End the warm process (it kills a child it still runs)."""
        with self._lock:
            self._stop()

    # -- internals ---------------------------------------------------------------------

    def _started(self) -> bool:
        """Whether the warm process is ready; starts it (in the background) if needed.

        Never waits for a start: calls made while it imports and warms up run cold.
        """
        if self._proc is not None and self._proc.poll() is None:
            if not self._ready:
                reply = self._reply(time.monotonic())
                if reply:
                    self._ready = reply.get('ready') is True
                    if not self._ready:  # not our warm process talking
                        self._fail()
                elif time.monotonic() - self._since > START_TIMEOUT:
                    self._fail()
            return self._ready
        if self._proc is not None:  # it ended
            self._fail()
        if self._failures >= _MAX_FAILURES:
            return False
        try:
            self._proc = subprocess.Popen(
                [self.python, '-I', os.path.abspath(__file__)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError:
            self._failures += 1
        self._since, self._ready, self._buf = time.monotonic(), False, b''
        return False

    def _fail(self) -> None:
        self._failures += 1
        self._stop()

    def _ask(self, args: list[str], cwd: str,
             timeout: float | None) -> tuple[bool, int, str, str] | None:
        assert self._proc is not None and self._proc.stdin is not None
        # here, not at the top: the warm process runs this file without the package
        from l3mp_ros.planning.process import self_limit

        request = {'args': [str(a) for a in args], 'cwd': cwd, 'timeout': timeout,
                   'limit': self_limit(timeout)}
        try:
            self._proc.stdin.write((json.dumps(request) + '\n').encode())
            self._proc.stdin.flush()
        except OSError:
            self._stop()
            return None
        began = time.monotonic()
        wait = (timeout if timeout is not None else math.inf) + _REPLY_GRACE
        if 'pid' not in self._reply(began + min(wait, START_TIMEOUT)):
            self._stop()
            return None
        done = self._reply(began + wait)
        if 'rc' not in done:  # stuck or gone: ending the warm process ends its child
            self._stop()
            if time.monotonic() < began + wait:
                return None  # it died before the deadline: the caller runs the cold call
            timed_out, rc = True, -int(signal.SIGKILL)
        else:
            timed_out, rc = bool(done.get('timed_out')), int(done['rc'])
        out, err = (read_text(os.path.join(cwd, name)) for name in (OUT, ERR))
        return timed_out, rc, out, err

    def _reply(self, deadline: float) -> dict:
        """Read one JSON line from the warm process before ``deadline`` ({} if none)."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return {}
        fd = proc.stdout.fileno()
        while b'\n' not in self._buf:
            left = deadline - time.monotonic()
            if not select.select([fd], [], [], max(0.0, min(left, 3600.0)))[0]:
                if left <= 0:
                    return {}
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                return {}
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b'\n')
        try:
            reply = json.loads(line)
        except ValueError:
            return {}
        return reply if isinstance(reply, dict) else {}

    def _stop(self) -> None:
        proc, self._proc, self._ready = self._proc, None, False
        if proc is None:
            return
        try:
            # its child leads a session of its own and dies with it (PR_SET_PDEATHSIG)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        proc.wait()


#: files the child's stdout and stderr go to, in the request's directory
OUT, ERR = 'lapkt.stdout', 'lapkt.stderr'

_processes: dict[str, WarmLAPKT] = {}
_processes_lock = threading.Lock()


def _forget() -> None:
    """In a forked copy of this process: the parent's warm processes are not ours to ask."""
    global _processes, _processes_lock
    _processes, _processes_lock = {}, threading.Lock()


os.register_at_fork(after_in_child=_forget)


def run(python: str, args: list[str], cwd: str,
        timeout: float | None) -> tuple[bool, int, str, str] | None:
    """Run LAPKT with ``args`` in ``python``'s warm process (None: run it cold)."""
    if not enabled():
        return None
    with _processes_lock:
        warm = _processes.get(python)
        if warm is None:
            warm = _processes[python] = WarmLAPKT(python)
    return warm.run(args, cwd, timeout)


def pids() -> set[int]:
    """Return the pids of this interpreter's running warm processes (not their forks)."""
    with _processes_lock:
        return {pid for w in _processes.values() if (pid := w.pid) is not None}


@atexit.register
def shutdown() -> None:
    """End every warm process of this interpreter (also at exit)."""
    with _processes_lock:
        warm = list(_processes.values())
        _processes.clear()
    for w in warm:
        w.close()


def read_text(path: str) -> str:
    """Return a file's text as LAPKT wrote it ('' when there is none)."""
    try:
        with open(path, encoding='utf-8', errors='replace') as handle:
            return handle.read()
    except OSError:
        return ''


# -- the warm process (this file run as a script) --------------------------------------

def _serve() -> int:  # pragma: no cover - runs in the warm process (tested end to end)
    import copy
    import tempfile

    import lapkt.pddl.tarski.tarski_util  # noqa: F401 - the front end every plan loads
    from lapkt import parseargs
    from lapkt.load_planner import Planner
    from tarski.io import FstripsReader

    table = parseargs.load_planner_config()
    parseargs.load_planner_config = lambda *a, **k: copy.deepcopy(table)
    with tempfile.TemporaryDirectory() as tmp:  # warm ANTLR's caches
        domain, problem = os.path.join(tmp, 'd.pddl'), os.path.join(tmp, 'p.pddl')
        for path, text in ((domain, _WARM_DOMAIN), (problem, _WARM_PROBLEM)):
            with open(path, 'w', encoding='utf-8') as handle:
                handle.write(text)
        FstripsReader(raise_on_error=True, theories=None).read_problem(domain, problem)
    _say({'ready': True})
    me = os.getpid()
    for line in sys.stdin.buffer:
        try:
            req = json.loads(line)
            args, cwd, timeout = list(req['args']), str(req['cwd']), req.get('timeout')
            limit = int(req.get('limit') or 0)
        except (ValueError, KeyError, TypeError):
            return 2
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(me, args, cwd, limit, Planner, parseargs)
        _say({'pid': pid})
        timed_out, rc = _wait(pid, timeout)
        if rc is None:  # the caller is gone
            return 0
        _say({'rc': rc, 'timed_out': timed_out})
    return 0


def _say(reply: dict) -> None:  # pragma: no cover - warm process
    sys.stdout.write(json.dumps(reply) + '\n')
    sys.stdout.flush()


def _wait(pid: int, timeout: float | None) -> tuple[bool, int | None]:  # pragma: no cover
    """Wait for the child until ``timeout``, killing its group then; None: caller gone."""
    deadline = math.inf if timeout is None else time.monotonic() + max(float(timeout), 0.0)
    try:
        child: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # before Linux 5.3: look every 20 ms
        child = None
    try:
        while True:
            if child is None and (done := os.waitpid(pid, os.WNOHANG))[0]:
                return False, os.waitstatus_to_exitcode(done[1])
            left = deadline - time.monotonic()
            if left <= 0:
                _kill(pid)
                return True, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            watch = [sys.stdin.fileno()] + ([child] if child is not None else [])
            ready = select.select(watch, [], [], min(left, 3600.0 if child else 0.02))[0]
            if child is not None and child in ready:
                return False, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            if ready:  # the caller closed its pipe (or broke the protocol): end the child
                _kill(pid)
                os.waitpid(pid, 0)
                return False, None
    finally:
        if child is not None:
            os.close(child)


def _kill(pid: int) -> None:
    """SIGKILL a child of this process (not yet reaped) and the session it leads.

    The group alone misses a child killed before its ``setsid`` (its group is then ours,
    so ``killpg`` finds no group of its pid), and the warm process would wait for it.
    """
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _child(parent: int, args: list[str], cwd: str, limit: int,
           planner: type, parseargs: object) -> None:  # pragma: no cover - forked child
    """Run LAPKT's driver as the cold call does, bound to the warm process and a deadline.

    ``limit``: whole seconds after which it ends itself, as :func:`.process.guarded`'s
    children do (0: never).
    """
    import ctypes
    import resource
    import traceback

    code = 1
    try:
        os.setsid()
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(137)
        if limit > 0:
            signal.alarm(limit)
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            if hard == resource.RLIM_INFINITY or hard > limit + 1:
                resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
        os.chdir(cwd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, name in ((1, OUT), (2, ERR)):
            out = os.open(os.path.join(cwd, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(out, fd)
            os.close(out)
        sys.argv = ['lapkt', *args]
        try:
            print('PLANNER_EXIT_CODE:', planner(parseargs.process_arguments()).solve(),
                  flush=True)
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if stop.code is not None and not isinstance(stop.code, int):
                print(stop.code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - reported as the cold driver would
            traceback.print_exc()
            code = 1
        import gc

        gc.collect()  # LAPKT's C++ objects close their files
        sys.stdout.flush()
        sys.stderr.flush()
        libc.fflush(None)  # what the C++ side printed through stdio
    finally:
        os._exit(code)


if __name__ == '__main__':
    sys.exit(_serve())
