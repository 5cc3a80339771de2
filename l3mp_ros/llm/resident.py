# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The resident embedded LLM server: one per user and model, shared by every process.

:func:`shared_server`: by default one *resident* server per user and model, shared by
every process (``l3mp`` CLI calls, nodes, benchmarks) and found through a state file in the
cache directory (``server.json``, created under an ``flock``). It exits by itself after
``L3MP_LOCAL_KEEP_ALIVE`` seconds without a request (default 300, like Ollama's keep-alive),
so back-to-back CLI calls skip the model load and reuse llama.cpp's prompt cache for the
static prompt prefix. ``L3MP_LOCAL_KEEP_ALIVE=0`` gives each process its own server
(:class:`~l3mp_ros.llm.local_server.LocalServer`), stopped at exit.
"""

from __future__ import annotations

import atexit
import dataclasses
import fcntl
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

from l3mp_ros.llm.local_model import ensure_model, state_dir
from l3mp_ros.llm.local_server import LocalServer, health_ok
from l3mp_ros.llm.local_settings import (
    DEFAULT_SPECULATIVE,
    keep_alive_seconds,
    repack_enabled,
    speculative_mode,
    spin_count,
)

STATE_FILE = 'server.json'
_shared: Any = None
_shared_lock = threading.Lock()


def pid_alive(pid: int) -> bool:
    """Tell whether a process with this id exists (ours or another user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclasses.dataclass
class ResidentServer:
    """A resident server started by some process of this user, found by its state file."""

    address: str
    pid: int
    model: str
    threads: int
    ctx_size: int
    log: str | None = None
    speculative: str = DEFAULT_SPECULATIVE
    prefixes: bool = False  # restores and saves prompt prefixes (PrefixFiles)
    repack: bool = True  # a state file without it is from a build that always repacked
    spin: int = 0  # ... and whose threads slept at once

    @property
    def base_url(self) -> str:
        """Return the OpenAI base URL."""
        return self.address + '/v1'

    @property
    def running(self) -> bool:
        """Tell whether the server process is alive and answers."""
        return pid_alive(self.pid) and health_ok(self.address)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the resident server now (it otherwise exits when idle)."""
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while pid_alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.1)


def _read_state(path: Path) -> ResidentServer | None:
    try:
        data = json.loads(path.read_text())
        return ResidentServer(str(data['address']), int(data['pid']), str(data['model']),
                              int(data['threads']), int(data['ctx_size']), data.get('log'),
                              str(data.get('speculative', DEFAULT_SPECULATIVE)),
                              bool(data.get('prefixes', False)),
                              bool(data.get('repack', True)), int(data.get('spin', 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def resident_server(model_path: str | os.PathLike[str] | None = None, *, threads: int = 2,
                    ctx_size: int = 16384, idle: float | None = None,
                    cache_dir: str | os.PathLike[str] | None = None,
                    speculative: str | None = None,
                    repack: bool | None = None, spin: int | None = None) -> ResidentServer:
    """Return the resident server for this model, starting it if none answers.

    An exclusive ``flock`` on ``server.lock`` makes concurrent callers start one server;
    a server with other settings (model, threads, context, decoding, weight layout) is
    replaced.
    """
    idle = keep_alive_seconds() if idle is None else idle
    speculative = speculative_mode() if speculative is None else speculative
    repack = repack_enabled() if repack is None else repack
    spin = spin_count() if spin is None else spin
    folder = state_dir(cache_dir)
    model = str(Path(model_path) if model_path is not None else ensure_model(cache_dir))
    with open(folder / 'server.lock', 'a+') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = _read_state(folder / STATE_FILE)
        if state is not None and state.running:
            if (state.model, state.threads, state.ctx_size, state.speculative,
                    state.prefixes, state.repack, state.spin) == (
                        model, threads, ctx_size, speculative, True, repack, spin):
                return state
            state.stop()
        log = folder / 'server.log'
        if log.is_file() and log.stat().st_size > 20_000_000:
            log.unlink()
        server = LocalServer(model, threads=threads, ctx_size=ctx_size, idle=idle,
                             cache_dir=cache_dir, log_path=log,
                             speculative=speculative, repack=repack, spin=spin).start()
        assert server._proc is not None and server._address is not None
        state = ResidentServer(server._address, server._proc.pid, model, threads, ctx_size,
                               str(server.log_path), speculative, server.prefixes, repack,
                               spin)
        tmp = folder / (STATE_FILE + '.tmp')
        tmp.write_text(json.dumps(dataclasses.asdict(state)))
        os.replace(tmp, folder / STATE_FILE)
        return state


def shared_server(**kwargs: Any) -> Any:
    """Return the shared embedded server: resident (default) or owned by this process.

    With ``L3MP_LOCAL_KEEP_ALIVE=0`` the server is this process's and stops at exit.
    """
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.running:
            idle = keep_alive_seconds()
            if idle > 0:
                _shared = resident_server(idle=idle, **kwargs)
            else:
                kwargs.setdefault('speculative', speculative_mode())
                kwargs.setdefault('repack', repack_enabled())
                kwargs.setdefault('spin', spin_count())
                server = LocalServer(**kwargs).start()
                atexit.register(server.stop)
                _shared = server
        return _shared
