# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The AI2-THOR bridge without ROS: controller factory, plan tracking (parameters: config).

``ai2thor_bridge_node`` (``l3mp_ros/nodes/``) is a thin wrapper around these:

* :func:`build_controller`: ``controller: double`` → :class:`ControllerDouble` (the default
  two-room house, or a random state with ``double_seed >= 0``); ``controller: real`` →
  ``ai2thor.controller.Controller`` (imported lazily) on an iTHOR ``scene`` or a ProcTHOR
  ``house_json``, failing with a :class:`BridgeError` sentence when no display/GPU or no
  ``ai2thor`` package is available.
* :class:`PlanTracker`: which step of which plan to execute next. A ``plan/v1`` message
  with status ``solved`` and a new ``(task_id, revision)`` replaces the current plan (a
  re-plan preempts the running one between steps); ``done``/``failed``/``cancelled`` of the
  current task stops it; the planner's progress echoes (same revision, ``next_step`` + 1)
  acknowledge a step (:meth:`PlanTracker.wait_ack`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from l3mp_ros import paths
from l3mp_ros.ai2thor.double import ControllerDouble
from l3mp_ros.config import default
from l3mp_ros.planning.status import Status


class ControllerKind(StrEnum):
    """The ``controller`` setting: the simulator, or its double."""

    REAL = 'real'  # ai2thor.controller.Controller
    DOUBLE = 'double'  # ControllerDouble: no simulator, no display


class Offer(StrEnum):
    """What :meth:`PlanTracker.offer` made of a ``plan/v1`` message."""

    NEW = 'new'  # a plan to execute (it replaces the current one)
    STOP = 'stop'  # the current task ended: stop executing it
    IGNORED = 'ignored'  # nothing to do (another task's status, or our own progress echoed)


class BridgeError(RuntimeError):
    """A bridge that cannot start: the reason in one sentence."""


def resolve_config(value: str) -> Path:
    """Resolve a package-relative config path (``ai2thor_types.yaml`` → ``config/...``)."""
    path = paths.resolve(value)
    if not path.exists() and not Path(value).is_absolute():
        alt = paths.resolve(str(Path('config') / value))
        if alt.exists():
            return alt
    if not path.exists():
        raise BridgeError(f'no such file: {value}')
    return path


def load_house(path: str) -> dict[str, Any]:
    """Read a ProcTHOR house JSON (a dict with ``rooms``)."""
    try:
        data = json.loads(Path(path).expanduser().read_text())
    except OSError as exc:
        raise BridgeError(f'cannot read house_json {path}: {exc.strerror}') from None
    except json.JSONDecodeError as exc:
        raise BridgeError(f'malformed JSON in house_json {path}: {exc}') from None
    if not isinstance(data, dict) or not isinstance(data.get('rooms'), list):
        raise BridgeError(f'house_json {path} is not a ProcTHOR house (no "rooms" list)')
    return data


def build_controller(params: Mapping[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    """Return ``(controller, house)`` built from the bridge parameters."""
    kind = str(params.get('controller') or default('controller'))
    vis = float(params.get('visibility_distance', default('visibility_distance')))
    grid = float(params.get('grid_size', default('grid_size')))
    if kind == ControllerKind.DOUBLE:
        seed = int(params.get('double_seed', default('double_seed')))
        sim = ControllerDouble(visibility_distance=vis, grid_size=grid, visibility='distance',
                               seed=seed if seed >= 0 else None, randomize=seed >= 0)
        return sim, sim.house
    if kind != ControllerKind.REAL:
        raise BridgeError(f'controller must be "real" or "double", not "{kind}"')
    house = load_house(str(params['house_json'])) if params.get('house_json') else None
    platform = str(params.get('platform') or '')
    if not platform and sys.platform.startswith('linux') and not os.environ.get('DISPLAY'):
        raise BridgeError('controller "real" needs an X display ($DISPLAY unset) or '
                          'platform:=CloudRendering with a Vulkan-capable GPU; use '
                          'controller:=double to run without the simulator')
    try:
        from ai2thor.controller import Controller
    except ImportError as exc:
        raise BridgeError(f'controller "real" needs the ai2thor package: {exc}') from None
    kwargs: dict[str, Any] = {'visibilityDistance': vis, 'gridSize': grid}
    if house is not None:
        kwargs['scene'] = house
    elif params.get('scene'):
        kwargs['scene'] = str(params['scene'])
    if platform:
        import ai2thor.platform as platforms

        if not hasattr(platforms, platform):
            raise BridgeError(f'unknown ai2thor platform "{platform}"')
        kwargs['platform'] = getattr(platforms, platform)
    try:
        return Controller(**kwargs), house
    except Exception as exc:  # download, Unity start-up, display: one sentence
        msg = ' '.join(str(exc).split())[:300]
        raise BridgeError(f'cannot start AI2-THOR ({type(exc).__name__}): {msg}') from None


def step_text(step: Any) -> str:
    """Return a plan step as ``(name arg ...)`` (plan/v1 allows strings or objects)."""
    if isinstance(step, Mapping):
        return '(' + ' '.join([str(step.get('action', '')), *map(str, step.get('args') or [])]) \
            + ')'
    return str(step)


@dataclass
class Job:
    """The plan being executed."""

    task_id: str
    revision: int
    steps: list[str]
    next: int = 0
    halted: bool = False  # a step failed: wait for a re-plan


class PlanTracker:
    """Thread-safe choice of the next step (see the module docstring)."""

    def __init__(self) -> None:
        self.job: Job | None = None
        self.generation = 0
        self.acked = 0  # the planner's next_step for the current plan (its progress echo)
        self._cond = threading.Condition()

    def offer(self, body: Mapping[str, Any]) -> Offer:
        """Take a ``plan/v1`` body; return ``new``, ``stop`` or ``ignored``."""
        with self._cond:
            tid = str(body.get('task_id') or '')
            rev = int(body.get('revision') or 0)
            status = body.get('status')
            job = self.job
            if status in (Status.SOLVED, Status.EXECUTING) and body.get('steps'):
                if job is not None and (job.task_id, job.revision) == (tid, rev):
                    self.acked = max(self.acked, int(body.get('next_step') or 0))
                    self._cond.notify_all()
                    return Offer.IGNORED  # the planner echoing our own progress
                steps = [step_text(s) for s in body['steps']]
                self.job = Job(tid, rev, steps, int(body.get('next_step') or 0))
                self.acked = self.job.next
                self.generation += 1
                self._cond.notify_all()
                return Offer.NEW
            if status in (Status.DONE, Status.FAILED, Status.CANCELLED) and job is not None \
                    and job.task_id == tid:
                self.job = None
                self.generation += 1
                self._cond.notify_all()
                return Offer.STOP
            return Offer.IGNORED

    def busy(self) -> bool:
        """Return True while a plan has steps left to run."""
        with self._cond:
            job = self.job
            return job is not None and not job.halted and job.next < len(job.steps)

    def wait(self, timeout: float) -> tuple[int, Job, int, str] | None:
        """Return ``(generation, job, index, step)`` of the next step, or None."""
        with self._cond:
            if not self.busy():
                self._cond.wait(timeout)
            job = self.job
            if job is None or job.halted or job.next >= len(job.steps):
                return None
            return self.generation, job, job.next, job.steps[job.next]

    def finished(self, generation: int, success: bool) -> None:
        """Record a step's result (ignored when a new plan came meanwhile)."""
        with self._cond:
            if generation != self.generation or self.job is None:
                return
            if success:
                self.job.next += 1
            else:
                self.job.halted = True

    def wait_ack(self, generation: int, step: int, timeout: float) -> bool:
        """Wait until the planner took step ``step`` as done (or the plan changed)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: generation != self.generation or self.acked > step, timeout)

    def wake(self) -> None:
        """Wake a waiting worker (shutdown)."""
        with self._cond:
            self._cond.notify_all()
