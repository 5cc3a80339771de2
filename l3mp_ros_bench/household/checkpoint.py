# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Durable run state of a benchmark run: atomic files, appended records, generator state.

A run directory holds ``checkpoint.json`` (written with :func:`write_atomic` after every
step), ``steps.jsonl`` (records appended and fsynced) and the agent's store; a run
killed at any point resumes from them (:class:`~l3mp_ros_bench.household.runner.Runner`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from l3mp_ros_bench.household.generator import StreamGenerator


class RunError(RuntimeError):
    """A run directory that cannot be used (another configuration, corrupt checkpoint)."""


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` durably (write beside, fsync, rename, fsync the dir)."""
    tmp = path.with_name(path.name + '.tmp')
    with open(tmp, 'w', encoding='utf-8') as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Append one JSON record line to ``path`` and fsync it."""
    with open(path, 'a', encoding='utf-8') as fh:
        fh.write(json.dumps(record, sort_keys=True, separators=(',', ':')) + '\n')
        fh.flush()
        os.fsync(fh.fileno())


def generator_state(gen: StreamGenerator) -> dict[str, Any]:
    """Return the generator's random state and counters (JSON-ready)."""
    version, internal, gauss = gen.rng.getstate()
    return {'rng': [version, list(internal), gauss], 'index': gen.index,
            'changes_since_task': gen.changes_since_task, 'uses': dict(gen.uses),
            'drawn': sorted(gen.drawn)}


def restore_generator(gen: StreamGenerator, state: dict[str, Any]) -> None:
    """Put a generator back into a state saved by :func:`generator_state`."""
    version, internal, gauss = state['rng']
    gen.rng.setstate((version, tuple(internal), gauss))
    gen.index = int(state['index'])
    gen.changes_since_task = int(state['changes_since_task'])
    gen.uses = {str(k): int(v) for k, v in state['uses'].items()}
    gen.drawn = set(state.get('drawn') or ())
