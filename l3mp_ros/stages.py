# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Where one request's time goes: seconds per stage and the cost of every LLM call.

A pipeline opens a :class:`Stages` for a request (``with stages.recording(s):``) and
names its steps (``with stage('retrieval'):``); the LLM client reports each call
(:func:`llm_call`) to the recording open in its thread, under the innermost stage. A
stage's seconds include the LLM calls made inside it; nested stages count in their own
name only (exclusive time), so the stages of a request add up to its wall time less
what no stage covered. With no recording open, :func:`stage` and :func:`llm_call` do
nothing: library code can name its stages whoever calls it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ['Call', 'Stages', 'llm_call', 'recording', 'stage']

OUTSIDE = 'other'  # the stage of work done while no named stage is open


@dataclass
class Call:
    """One LLM call: what it asked for, what the server evaluated, what it generated."""

    stage: str
    kind: str  # the answer schema's name ('reply', 'readback', ...)
    seconds: float
    prompt: int  # prompt tokens in all
    cached: int  # prompt tokens taken from the server's prompt cache
    generated: int
    prompt_seconds: float = 0.0  # the server's own timings, 0 when it gives none
    generate_seconds: float = 0.0
    from_reply_cache: bool = False  # replayed from an on-disk reply cache: no server work

    @property
    def evaluated(self) -> int:
        """Return the prompt tokens the server had to evaluate."""
        return max(0, self.prompt - self.cached)


@dataclass
class Stages:
    """Seconds per stage of one request, and its LLM calls in order."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    _open: list[list[Any]] = field(default_factory=list, repr=False)  # [name, began, child s]

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the block as stage ``name`` (time in nested stages counts there)."""
        frame = [name, time.perf_counter(), 0.0]
        self._open.append(frame)
        try:
            yield
        finally:
            self._open.pop()
            spent = time.perf_counter() - frame[1]
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - frame[2]
            if self._open:
                self._open[-1][2] += spent

    @property
    def current(self) -> str:
        """Return the innermost open stage's name."""
        return self._open[-1][0] if self._open else OUTSIDE

    def add(self, call: Call) -> None:
        """Count one LLM call."""
        self.calls.append(call)

    def to_json(self) -> dict[str, Any]:
        """Return stages (seconds) and calls, JSON-ready."""
        return {'seconds': {k: round(v, 4) for k, v in self.seconds.items()},
                'calls': [{**asdict(c), 'seconds': round(c.seconds, 4),
                           'prompt_seconds': round(c.prompt_seconds, 4),
                           'generate_seconds': round(c.generate_seconds, 4),
                           'evaluated': c.evaluated} for c in self.calls]}


_local = threading.local()


@contextlib.contextmanager
def recording(stages: Stages) -> Iterator[Stages]:
    """Make ``stages`` this thread's recording for the block (an outer one is restored)."""
    outer = getattr(_local, 'stages', None)
    _local.stages = stages
    try:
        yield stages
    finally:
        _local.stages = outer


def active() -> Stages | None:
    """Return this thread's open recording, if any."""
    return getattr(_local, 'stages', None)


@contextlib.contextmanager
def stage(name: str) -> Iterator[None]:
    """Time the block as stage ``name`` of this thread's recording (no-op without one)."""
    stages = active()
    if stages is None:
        yield
        return
    with stages.stage(name):
        yield


def llm_call(kind: str, seconds: float, prompt: int, cached: int, generated: int, *,
             prompt_seconds: float = 0.0, generate_seconds: float = 0.0,
             from_reply_cache: bool = False) -> None:
    """Count one LLM call in this thread's recording, under its innermost stage."""
    stages = active()
    if stages is not None:
        stages.add(Call(stages.current, kind, seconds, prompt, cached, generated,
                        prompt_seconds, generate_seconds, from_reply_cache))
