# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Saved prompt prefixes of the embedded LLM: llama.cpp slot files that outlive the server.

After a call whose long system prompt has no file yet, the client saves the server's slot
(llama.cpp slot save) to ``slots/<model>-<build>-<prompt hash>.bin`` in the cache directory;
a new server restores every file of its model and build before it answers, so even the
first report after a restart does not evaluate the prefix again. A file of another model or
build is never used (its name does not match); a damaged one fails to restore and is
deleted, to be saved anew. Saving and restoring are requests to the running server's
``/slots`` endpoint.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from l3mp_ros.llm.local_model import default_model_path, model_tag, state_dir
from l3mp_ros.llm.local_settings import DEFAULT_REPACK, repack_enabled

SLOTS_DIR = 'slots'
#: a system prompt shorter than this is cheaper to evaluate than to keep in a file
MIN_PREFIX_CHARS = 1500
MAX_PREFIX_FILES = 12  # files kept in all (oldest deleted first)


def build_tag() -> str:
    """Return the llama.cpp build's tag (the xllamacpp version), '' when unknown."""
    import importlib.metadata

    try:
        return importlib.metadata.version('xllamacpp')
    except importlib.metadata.PackageNotFoundError:
        return ''


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
    return PrefixFiles(state_dir(cache_dir) / SLOTS_DIR, model,
                       repack=repack_enabled() if repack is None else repack)
