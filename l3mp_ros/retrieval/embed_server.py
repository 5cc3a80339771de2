# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A resident sentence-embedding server for short-lived processes (the ``l3mp`` CLI).

Loading all-MiniLM-L6-v2 (torch, transformers, sentence-transformers) costs about 5 s and
embedding a KG's entity names again about 2 s per 100 entities: every ``l3mp update`` paid
both before its first LLM call. Like the embedded LLM (:mod:`l3mp_ros.llm.resident`),
the model now lives in one *resident* child process per user, found through a state file
in the cache directory (``embed_server.json``, created under an ``flock``), answering
``POST /encode`` on 127.0.0.1 and keeping every string it embedded (so a KG's names are
embedded once per server lifetime). It exits after ``L3MP_EMBED_KEEP_ALIVE`` seconds
without a request (default 300; ``0``: no server, every process loads its own model).

:class:`RemoteEmbedder` is the client; after :func:`use_resident` the process-wide encoder
(:func:`~l3mp_ros.retrieval.embed.get_embedder`) is a :class:`ResidentEmbedder` using it:
long-running nodes keep their own model. Any failure to reach or start the server falls
back to loading the model in-process, so retrieval never fails because of it.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

from ..llm.resident import pid_alive
from . import embed
from .embed import Embedder

KEEP_ALIVE_ENV = 'L3MP_EMBED_KEEP_ALIVE'
DEFAULT_KEEP_ALIVE = 300.0
STATE_FILE = 'embed_server.json'
_READY = 'L3MP_EMBED_SERVER_READY '
MAX_KEPT = 200_000  # strings the server keeps embedded (about 300 MB at 384 floats)
MAX_TEXTS = 20_000  # strings one request may carry


def keep_alive() -> float:
    """Return ``L3MP_EMBED_KEEP_ALIVE`` seconds (0: no resident server)."""
    raw = os.environ.get(KEEP_ALIVE_ENV, '').strip()
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_KEEP_ALIVE
    except ValueError:
        return DEFAULT_KEEP_ALIVE


def _cache_dir() -> Path:
    path = Path(os.environ.get('L3MP_CACHE_DIR', '~/.cache/l3mp_ros')).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def use_resident(on: bool = True) -> None:
    """Make the process-wide encoder the resident server's (short-lived processes: the CLI).

    Without a keep-alive (``L3MP_EMBED_KEEP_ALIVE=0``) the model loads in-process as before.
    """
    embed.set_factory(ResidentEmbedder if on and keep_alive() > 0 else None)


class ResidentEmbedder:
    """The resident server's embeddings, the model in this process if it fails."""

    takes_cache = True  # encode(texts, cache=...) like Embedder

    def __init__(self) -> None:
        self._remote: RemoteEmbedder | None = None
        self._local: Embedder | None = None
        self.dim = 0

    def encode(self, texts: Sequence[str], *, cache: bool = True) -> np.ndarray:
        """Embed ``texts`` as :meth:`Embedder.encode` does."""
        for _ in range(2 if self._local is None else 0):
            try:
                if self._remote is None:
                    self._remote = resident()
                vecs = self._remote.encode(texts)
                self.dim = self._remote.dim
                return vecs
            except OSError:  # gone (idle exit) or cannot start: a new one, then our own
                self._remote = None
        if self._local is None:
            self._local = Embedder()
        self.dim = self._local.dim
        return self._local.encode(texts, cache=cache)


class RemoteEmbedder:
    """Embeddings from the resident server (same contract as ``Embedder.encode``)."""

    def __init__(self, address: str, timeout: float = 120.0) -> None:
        self.address = address.rstrip('/')
        self.timeout = timeout
        self.dim = 0

    def encode(self, texts: Sequence[str], *, cache: bool = True) -> np.ndarray:
        """Return ``(len(texts), dim)`` float32 unit rows; raises ``OSError`` when down."""
        texts = [str(t) for t in texts]
        out: list[np.ndarray] = []
        for start in range(0, max(len(texts), 1), MAX_TEXTS):
            chunk = texts[start:start + MAX_TEXTS]
            body = json.dumps({'texts': chunk}).encode()
            req = urllib.request.Request(self.address + '/encode', data=body,
                                         headers={'Content-Type': 'application/json'})
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                reply = json.loads(resp.read())
            self.dim = int(reply['dim'])
            vecs = np.frombuffer(base64.b64decode(reply['vectors']), dtype=np.float32)
            out.append(vecs.reshape(len(chunk), self.dim))
        return np.concatenate(out) if out else np.zeros((0, self.dim), dtype=np.float32)


def _healthy(address: str) -> bool:
    try:
        with urllib.request.urlopen(address + '/health', timeout=2.0) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def resident(idle: float | None = None, startup_timeout: float = 120.0) -> RemoteEmbedder:
    """Return a client of the resident server, starting one when none answers."""
    idle = keep_alive() if idle is None else idle
    folder = _cache_dir()
    with open(folder / 'embed_server.lock', 'a+') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            state = json.loads((folder / STATE_FILE).read_text())
            if pid_alive(int(state['pid'])) and _healthy(state['address']):
                return RemoteEmbedder(state['address'])
        log = open(folder / 'embed_server.log', 'a')  # noqa: SIM115 - the child keeps it
        env = dict(os.environ, OMP_WAIT_POLICY='passive')
        root = str(Path(__file__).resolve().parents[2])
        env['PYTHONPATH'] = os.pathsep.join(p for p in (root, env.get('PYTHONPATH', '')) if p)
        proc = subprocess.Popen(
            [sys.executable, '-m', 'l3mp_ros.retrieval.embed_server', '--idle', str(idle)],
            stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, text=True, env=env,
            start_new_session=True)
        log.close()
        address = _wait_ready(proc, startup_timeout)
        tmp = folder / (STATE_FILE + '.tmp')
        tmp.write_text(json.dumps({'address': address, 'pid': proc.pid}))
        os.replace(tmp, folder / STATE_FILE)
        return RemoteEmbedder(address)


def _wait_ready(proc: subprocess.Popen[str], timeout: float) -> str:
    assert proc.stdout is not None
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    line = box[0] if box else ''
    if not line.startswith(_READY):
        proc.kill()
        raise OSError(f'embedding server did not start (exit {proc.poll()}); see '
                      f'{_cache_dir() / "embed_server.log"}')
    return line[len(_READY):].strip()


# -- the server ---------------------------------------------------------------------------
class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:  # quiet: one line per request is noise
        pass

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.server.touch()
        self._send(200 if self.path == '/health' else 404, {'ok': self.path == '/health'})

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.server.touch()
        try:
            size = int(self.headers.get('Content-Length') or 0)
            texts = json.loads(self.rfile.read(size))['texts']
            if not isinstance(texts, list) or len(texts) > MAX_TEXTS:
                raise ValueError(f'texts must be a list of at most {MAX_TEXTS} strings')
            vecs = self.server.encode([str(t) for t in texts])
        except (ValueError, KeyError, TypeError) as exc:
            self._send(400, {'error': str(exc)})
            return
        self._send(200, {'dim': int(vecs.shape[1]),
                         'vectors': base64.b64encode(vecs.tobytes()).decode()})


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, embedder: Any) -> None:
        super().__init__(('127.0.0.1', 0), _Handler)
        self.embedder = embedder
        self.kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self.lock = threading.Lock()
        self.last = time.monotonic()

    def touch(self) -> None:
        self.last = time.monotonic()

    def encode(self, texts: list[str]) -> np.ndarray:
        with self.lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self.kept))
            if missing:
                for text, vec in zip(missing, self.embedder.encode(missing, cache=False),
                                     strict=True):
                    self.kept[text] = vec
            out = np.zeros((len(texts), self.embedder.dim), dtype=np.float32)
            for row, text in enumerate(texts):
                out[row] = self.kept[text]
                self.kept.move_to_end(text)
            while len(self.kept) > MAX_KEPT:
                self.kept.popitem(last=False)
            return out


def serve(idle: float) -> int:
    """Load the model, print the address, serve until idle for ``idle`` seconds."""
    server = _Server(Embedder())
    host, port = server.server_address[:2]
    print(f'{_READY}http://{host}:{port}', flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    while time.monotonic() - server.last < idle:
        time.sleep(min(2.0, idle))
    server.shutdown()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m l3mp_ros.retrieval.embed_server --idle S``: serve (the resident child)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--idle', type=float, default=DEFAULT_KEEP_ALIVE)
    return serve(ap.parse_args(argv).idle)


if __name__ == '__main__':
    sys.exit(main())
