# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""How the embedded LLM server runs: the ``L3MP_LOCAL_*`` settings and their defaults.

- ``L3MP_LOCAL_KEEP_ALIVE``: seconds a resident server waits for a request before it exits
  (default 300, like Ollama's keep-alive; 0 gives each process its own server).
- ``L3MP_LOCAL_SPECULATIVE``: llama.cpp's draft-free speculative decoding (default none).
- ``L3MP_LOCAL_REPACK``: llama.cpp's repacked CPU weight layout (default on).
- ``L3MP_LOCAL_SPIN``: OpenMP spins before a waiting thread sleeps (``GOMP_SPINCOUNT``,
  :data:`DEFAULT_SPIN`): threads that busy-wait without bound collapse throughput when the
  other core is busy, threads that sleep at once make every generated token wait for
  wake-ups.

Each is read strictly: a value that does not parse is a :class:`LocalModelError` naming
the variable.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from l3mp_ros.llm.local_model import LocalModelError

T = TypeVar('T')
KEEP_ALIVE_ENV = 'L3MP_LOCAL_KEEP_ALIVE'
DEFAULT_KEEP_ALIVE = 300.0
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
