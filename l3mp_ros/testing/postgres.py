# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A real PostgreSQL server on loopback for tests and benchmarks, from the ``pgserver`` wheel.

``pgserver`` (PyPI, pinned in requirements.txt) ships PostgreSQL's binaries; this module
runs them directly: ``initdb`` into a private directory, then ``postgres`` listening on
127.0.0.1 at a free port (its Unix socket in the same directory), stopped and removed by
:meth:`LocalPostgres.stop`. PostgreSQL refuses to run as root, so under root the server
runs as ``nobody`` from a copy of the binaries inside its directory (the wheel's own
directory may sit below a path only root can enter).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

RUN_AS = 'nobody'  # the account the server uses when this process is root


class PostgresError(RuntimeError):
    """The server could not be set up or started (the reason and its log)."""


def _install_dir() -> Path:
    """Return ``.../pgserver/pginstall`` (found without importing pgserver)."""
    spec = importlib.util.find_spec('pgserver')
    if spec is None or spec.origin is None:
        raise PostgresError('the pgserver package (PostgreSQL binaries) is not installed: '
                            'pip install -r requirements.txt')
    return Path(spec.origin).resolve().parent / 'pginstall'


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return int(s.getsockname()[1])


class LocalPostgres:
    """One PostgreSQL server in a temporary directory, listening on 127.0.0.1."""

    def __init__(self, base: str | Path | None = None, port: int | None = None) -> None:
        self.base = Path(base) if base else Path(tempfile.mkdtemp(prefix='l3mp_pg_'))
        self.port = port or free_port()
        self.data = self.base / 'data'
        self.log = self.base / 'server.log'
        self._as_root = os.geteuid() == 0
        self._user: dict[str, Any] = {'user': RUN_AS} if self._as_root else {}
        self.bin = _install_dir() / 'bin'
        self.running = False

    @property
    def url(self) -> str:
        """Return the URL of the ``postgres`` database (user ``postgres``, trust auth)."""
        return self.database_url('postgres')

    def database_url(self, name: str) -> str:
        """Return the URL of database ``name`` on this server."""
        return f'postgresql://postgres@127.0.0.1:{self.port}/{name}'

    def _run(self, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True,
                              text=True, timeout=timeout, check=False, **self._user)

    def start(self) -> LocalPostgres:
        """Initialise the cluster and start the server; raise :class:`PostgresError`."""
        self.base.mkdir(parents=True, exist_ok=True)
        if self._as_root:  # the binaries find their libraries at ../../../pgserver.libs
            install = _install_dir()
            copy = self.base / 'pkg' / 'pgserver' / 'pginstall'
            if not copy.exists():
                shutil.copytree(install, copy, symlinks=True)
                libs = install.parent.parent / 'pgserver.libs'
                if libs.is_dir():
                    shutil.copytree(libs, self.base / 'pkg' / 'pgserver.libs', symlinks=True)
            self.bin = copy / 'bin'
            shutil.chown(self.base, RUN_AS)
            os.chmod(self.base, 0o755)
        done = self._run('initdb', '-D', str(self.data), '-U', 'postgres', '--auth=trust',
                         '--encoding=UTF8', '--no-instructions')
        if done.returncode != 0:
            raise PostgresError(f'initdb failed: {done.stderr.strip() or done.stdout.strip()}')
        opts = f'-h 127.0.0.1 -p {self.port} -k {self.base} -c fsync=on'
        done = self._run('pg_ctl', '-D', str(self.data), '-l', str(self.log), '-o', opts,
                         '-w', '-t', '60', 'start')
        if done.returncode != 0:
            log = self.log.read_text(errors='replace')[-2000:] if self.log.exists() else ''
            raise PostgresError(f'postgres did not start: {done.stderr.strip()} {log}')
        self.running = True
        return self

    def create_database(self, name: str) -> str:
        """Create database ``name`` (if missing) and return its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            exists = conn.execute('SELECT 1 FROM pg_database WHERE datname = %s',
                                  (name,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def kill_backends(self) -> None:
        """Terminate every client connection (what a network cut or a restart does)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute('SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
                         'WHERE pid <> pg_backend_pid() AND backend_type = %s',
                         ('client backend',))

    def stop(self, remove: bool = True) -> None:
        """Stop the server (fast shutdown) and remove its directory."""
        if self.running:
            self._run('pg_ctl', '-D', str(self.data), '-m', 'fast', '-w', 'stop', timeout=60)
            self.running = False
        if remove:
            for _ in range(3):
                shutil.rmtree(self.base, ignore_errors=True)
                if not self.base.exists():
                    break
                time.sleep(0.2)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
