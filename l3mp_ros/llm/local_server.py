# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The embedded offline LLM: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by llama.cpp.

This module is the server's process: :class:`LocalServer` runs llama.cpp's
OpenAI-compatible server (the ``xllamacpp`` wheel) in a *child process* on 127.0.0.1: a
crash there cannot take the caller down, and ``stop()`` ends it cleanly. The child gets 2
threads and ``OMP_WAIT_POLICY=passive`` with a short spin (``GOMP_SPINCOUNT``,
:data:`~l3mp_ros.llm.local_settings.DEFAULT_SPIN`). Owned by its caller, the child exits
when its stdin closes; resident (``idle`` > 0, :mod:`l3mp_ros.llm.resident`), it runs in
its own session and exits after ``idle`` seconds without a request. The child restores the
saved prompt prefixes (:mod:`l3mp_ros.llm.prefixes`) before it reports its address.

The model file is :mod:`l3mp_ros.llm.local_model`; the settings are
:mod:`l3mp_ros.llm.local_settings`.

Run ``python -m l3mp_ros.llm.local_server`` to assemble the model and serve it in the
foreground (prints the base URL; Ctrl-C stops it).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from l3mp_ros.llm.local_model import INSTALL_HINT, LocalModelError, ensure_model, state_dir
from l3mp_ros.llm.local_settings import (
    DEFAULT_REPACK,
    DEFAULT_SPECULATIVE,
    DEFAULT_SPIN,
    SPECULATIVE,
)
from l3mp_ros.llm.prefixes import SLOTS_DIR, PrefixFiles
from l3mp_ros.llm.protocol import LLMError

_READY_PREFIX = 'L3MP_LOCAL_SERVER_READY '


# -- the server ------------------------------------------------------------------------------
def xllamacpp_available() -> bool:
    """Tell whether the ``xllamacpp`` wheel is importable (without importing it)."""
    import importlib.util

    return importlib.util.find_spec('xllamacpp') is not None


def _package_root() -> str:
    """Return the directory holding the ``l3mp_ros`` package (for the child's path)."""
    return str(Path(__file__).resolve().parents[2])


class LocalServer:
    """llama.cpp's OpenAI-compatible server for a GGUF model, in a child process.

    Use as a context manager or call :meth:`start` / :meth:`stop`. :attr:`base_url`
    is ``http://127.0.0.1:<port>/v1``.
    """

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *,
                 threads: int = 2, ctx_size: int = 16384, port: int = 0,
                 startup_timeout: float = 180.0,
                 cache_dir: str | os.PathLike[str] | None = None,
                 log_path: str | os.PathLike[str] | None = None, idle: float = 0.0,
                 speculative: str = DEFAULT_SPECULATIVE, prefixes: bool = True,
                 repack: bool = DEFAULT_REPACK, spin: int = DEFAULT_SPIN) -> None:
        if speculative not in SPECULATIVE:
            raise LocalModelError(f'speculative decoding {speculative!r}: expected one of '
                                  f'{", ".join(SPECULATIVE)}')
        self.speculative = speculative
        self.repack = repack  # llama.cpp's repacked CPU weight layout (DEFAULT_REPACK)
        if spin < 0:
            raise LocalModelError(f'spin {spin}: expected 0 or more spins')
        self.spin = spin  # OpenMP spins before a waiting thread sleeps (DEFAULT_SPIN)
        self.prefixes = prefixes  # save and restore static prompt prefixes (PrefixFiles)
        self.model_path = Path(model_path) if model_path is not None else None
        self.idle = idle  # > 0: detached, exits after this many seconds without requests
        self.threads = threads
        self.ctx_size = ctx_size
        self.port = port
        self.startup_timeout = startup_timeout
        self.cache_dir = cache_dir
        self.log_path = Path(log_path) if log_path is not None else None
        self._own_log = False
        self.startup_s: float | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._log: IO[str] | None = None
        self._address: str | None = None

    @property
    def running(self) -> bool:
        """Tell whether the child process is alive."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def base_url(self) -> str:
        """Return the OpenAI base URL of the running server."""
        if self._address is None:
            raise LocalModelError('embedded LLM server is not running; call start()')
        return self._address + '/v1'

    def start(self) -> LocalServer:
        """Assemble the model if needed, start the child and wait until it answers."""
        if self.running:
            return self
        if not xllamacpp_available():
            raise LocalModelError(f'embedded LLM: the xllamacpp package is missing; '
                                  f'{INSTALL_HINT}')
        if self.model_path is None:
            self.model_path = ensure_model(self.cache_dir)
        if self.log_path is None:
            fd, name = tempfile.mkstemp(prefix='l3mp-llama-server-', suffix='.log')
            os.close(fd)
            self.log_path = Path(name)
            self._own_log = True
        env = dict(os.environ)
        env['OMP_WAIT_POLICY'] = 'passive'
        env['GOMP_SPINCOUNT'] = str(self.spin)  # bounds the spin; passive alone sets 0
        env['PYTHONPATH'] = os.pathsep.join(
            p for p in (_package_root(), env.get('PYTHONPATH', '')) if p)
        command = [sys.executable, '-m', 'l3mp_ros.llm.local_server', '--child',
                   '--model', str(self.model_path), '--threads', str(self.threads),
                   '--ctx-size', str(self.ctx_size), '--port', str(self.port),
                   '--idle', str(self.idle), '--speculative', self.speculative,
                   '--repack', 'on' if self.repack else 'off']
        if self.prefixes:
            command += ['--slots', str(state_dir(self.cache_dir) / SLOTS_DIR)]
        self._log = self.log_path.open('a')
        began = time.monotonic()
        # Owned: stdin stays a pipe and the child exits when it closes (caller gone or
        # stop()). Resident (idle > 0): its own session, it outlives the caller.
        self._proc = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=self._log, text=True,
            stdin=subprocess.DEVNULL if self.idle > 0 else subprocess.PIPE,
            start_new_session=self.idle > 0)
        try:
            self._address = self._wait_ready(began)
        except BaseException:
            self.stop()
            raise
        self.startup_s = time.monotonic() - began
        return self

    def _wait_ready(self, began: float) -> str:
        """Read the child's address line, then poll ``/health`` until it answers 200."""
        assert self._proc is not None and self._proc.stdout is not None
        lines: list[str] = []
        reader = threading.Thread(target=_read_lines, args=(self._proc.stdout, lines),
                                  daemon=True)
        reader.start()
        address: str | None = None
        while time.monotonic() - began < self.startup_timeout:
            if self._proc.poll() is not None:
                raise LocalModelError(
                    f'embedded LLM server exited with code {self._proc.returncode} during '
                    f'startup; log {self.log_path}:\n{self._log_tail()}')
            if address is None:
                for line in list(lines):
                    if line.startswith(_READY_PREFIX):
                        address = line[len(_READY_PREFIX):].strip().rstrip('/')
            if address is not None and health_ok(address):
                return address
            time.sleep(0.2)
        raise LocalModelError(
            f'embedded LLM server did not answer within {self.startup_timeout:.0f} s; '
            f'log {self.log_path}:\n{self._log_tail()}')

    def _log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors='replace') if self.log_path else ''
        except OSError:
            return ''
        return '\n'.join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the child (close its stdin, then SIGTERM, then SIGKILL).

        A log file the server created itself is deleted after a clean run; after a
        failed start it is kept (its path is in the error message).
        """
        proc, self._proc = self._proc, None
        clean = proc is not None and self._address is not None
        self._address = None
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=2.0)
            except (OSError, subprocess.TimeoutExpired):
                proc.terminate()
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=timeout)
            if proc.stdout is not None:
                proc.stdout.close()
        if self._log is not None:
            self._log.close()
            self._log = None
        if clean and self._own_log and self.log_path is not None:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None
            self._own_log = False

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _read_lines(stream: IO[str], sink: list[str]) -> None:
    for line in stream:
        sink.append(line)


def health_ok(address: str) -> bool:
    """Tell whether the server at ``address`` answers ``/health`` (or ``/v1/models``)."""
    for path in ('/health', '/v1/models'):
        try:
            with urllib.request.urlopen(address + path, timeout=2.0) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError, ValueError):
            continue
    return False


# -- child process entry point ---------------------------------------------------------------
def _last_task(address: str) -> tuple[int, bool] | None:
    """Return (latest task id, busy) from llama.cpp's ``/slots``, None when unreadable."""
    try:
        with urllib.request.urlopen(address + '/slots', timeout=5.0) as response:
            slots = json.loads(response.read())
        return (max(int(s.get('id_task', -1)) for s in slots),
                any(s.get('is_processing') for s in slots))
    except (urllib.error.URLError, OSError, ValueError, TypeError):
        return None


def _idle_wait(address: str, idle: float, poll: float = 2.0) -> None:
    """Return once no request has arrived for ``idle`` seconds."""
    last, seen = time.monotonic(), None
    while time.monotonic() - last < idle:
        time.sleep(min(poll, idle))
        now = _last_task(address)
        if now is not None and (now != seen or now[1]):
            if seen is not None:
                last = time.monotonic()
            seen = now


def _serve_child(model: str, threads: int, ctx_size: int, port: int,
                 idle: float = 0.0, speculative: str = DEFAULT_SPECULATIVE,
                 slots: str | None = None, repack: bool = DEFAULT_REPACK) -> int:
    """Run inside the child: start xllamacpp's server, report its address, then wait.

    With ``slots`` (a folder), saved prompt prefixes are restored before the address is
    reported (:class:`PrefixFiles`). Owned (``idle`` 0): until stdin reaches EOF.
    Resident: until idle for ``idle`` s.
    """
    os.environ.setdefault('OMP_WAIT_POLICY', 'passive')
    import xllamacpp  # after the environment is set

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_ctx = ctx_size
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.no_extra_bufts = not repack  # ggml's own CPU kernels (DEFAULT_REPACK)
    params.hostnames = ['127.0.0.1']
    params.port = port
    if speculative != 'none':  # drafts from n-grams already in the context: no second model
        kind = 'COMMON_SPECULATIVE_TYPE_' + speculative.upper().replace('-', '_')
        params.speculative.types = [getattr(xllamacpp.common_speculative_type, kind)]
    if slots:
        Path(slots).mkdir(parents=True, exist_ok=True)
        params.slot_save_path = slots.rstrip('/') + '/'  # llama.cpp joins it to names
    server = xllamacpp.Server(params)
    address = str(server.listening_address)
    if slots:
        began = time.monotonic()
        restored = PrefixFiles(slots, model, repack=repack).restore(address.rstrip('/'))
        print(f'l3mp: restored {len(restored)} saved prompt prefix(es) in '
              f'{time.monotonic() - began:.2f} s', file=sys.stderr, flush=True)
    print(_READY_PREFIX + address, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    try:
        if idle > 0:
            _idle_wait(address.rstrip('/'), idle)
        else:
            sys.stdin.read()  # returns at EOF: the parent closed the pipe or died
    except KeyboardInterrupt:
        pass
    # Skip native destructors: the server threads may still hold the model.
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    """Command line: assemble the model and serve it in the foreground."""
    parser = argparse.ArgumentParser(prog='python -m l3mp_ros.llm.local_server',
                                     description=__doc__.splitlines()[0])
    parser.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    parser.add_argument('--model', help='GGUF file (default: assemble the embedded model)')
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--ctx-size', type=int, default=16384)
    parser.add_argument('--port', type=int, default=0)
    parser.add_argument('--cache-dir', default=None)
    parser.add_argument('--idle', type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument('--slots', default=None, help=argparse.SUPPRESS)
    parser.add_argument('--speculative', choices=SPECULATIVE, default=DEFAULT_SPECULATIVE,
                        help='speculative decoding from n-grams of the context')
    parser.add_argument('--repack', choices=('on', 'off'),
                        default='on' if DEFAULT_REPACK else 'off',
                        help="llama.cpp's repacked CPU weight layout")
    parser.add_argument('--spin', type=int, default=DEFAULT_SPIN,
                        help='OpenMP spins before a waiting thread sleeps')
    args = parser.parse_args(argv)
    if args.child:
        return _serve_child(args.model, args.threads, args.ctx_size, args.port, args.idle,
                            args.speculative, args.slots, args.repack == 'on')
    try:
        with LocalServer(args.model, threads=args.threads, ctx_size=args.ctx_size,
                         port=args.port, cache_dir=args.cache_dir,
                         speculative=args.speculative,
                         repack=args.repack == 'on', spin=args.spin) as server:
            print(json.dumps({'base_url': server.base_url, 'log': str(server.log_path),
                              'startup_s': round(server.startup_s or 0.0, 2)}), flush=True)
            while server.running:
                time.sleep(1.0)
    except LLMError as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main())
