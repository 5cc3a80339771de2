# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Run ``pddl/ai2thor.pddl`` plan steps as AI2-THOR actions.

:class:`PlanExecutor` takes a controller (``ai2thor.controller.Controller`` or the
:class:`~l3mp_ros.ai2thor.double.ControllerDouble`) and a
:class:`~l3mp_ros.ai2thor.scene_graph.SceneGraphExtractor` whose name registry turns
entity names back into objectIds. Each step, ``(pickup the_robot mug_1 countertop_1
kitchen_1)`` or UP's ``pickup(the_robot, mug_1, countertop_1, kitchen_1)``, becomes:

============================  =====================================================
domain action                 AI2-THOR actions
============================  =====================================================
navigate_to ... ?to ...       ``GetInteractablePoses(objectId=?to)`` then ``TeleportFull``
                              to the pose nearest the agent (falls back to the poses of
                              ?to's receptacle when ?to itself has none, e.g. inside a
                              closed fridge)
pickup / pickup_from /        ``PickupObject(objectId=?o)``
pickup_from_item
put_on / put_in / discard     ``PutObject(objectId=?receptacle)`` (AI2-THOR >= 3: the
                              target receptacle's id; the held object is implicit)
open / close                  ``OpenObject`` / ``CloseObject``
toggle_on / toggle_off        ``ToggleObjectOn`` / ``ToggleObjectOff``
wash / make_bed               ``CleanObject(objectId=?dish / ?bed)``
empty_liquid                  ``EmptyLiquidFromObject(objectId=?o)``
============================  =====================================================

Before an object action whose target is not ``isInteractable`` (a long counter, a mug at
its far end) the executor first approaches the target the same way as ``navigate_to``
(``approach=True``); the robot's anchor (``robot_at``) stays the planned one.
Success is ``event.metadata['lastActionSuccess']``; a controller exception (AI2-THOR raises
``ValueError`` for invalid actions or arguments) is a failed step. Each step result is
``{"step", "action", "success", "error", "thor_actions", "scene_graph"}``;
:func:`feedback` drops the scene graph for an ``execution_feedback`` message.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from l3mp_ros.ai2thor.scene_graph import SceneGraphExtractor

# action name -> (AI2-THOR action, index of the target argument)
OBJECT_ACTIONS: dict[str, tuple[str, int]] = {
    'pickup': ('PickupObject', 1),
    'pickup_from': ('PickupObject', 1),
    'pickup_from_item': ('PickupObject', 1),
    'put_on': ('PutObject', 2),
    'put_in': ('PutObject', 2),
    'discard': ('PutObject', 2),
    'open': ('OpenObject', 1),
    'close': ('CloseObject', 1),
    'toggle_on': ('ToggleObjectOn', 1),
    'toggle_off': ('ToggleObjectOff', 1),
    'wash': ('CleanObject', 1),
    'make_bed': ('CleanObject', 1),
    'empty_liquid': ('EmptyLiquidFromObject', 1),
}
NAVIGATE = 'navigate_to'
NAVIGATE_TARGET = 2
ARITY = {'navigate_to': 5, 'pickup': 4, 'pickup_from': 4, 'pickup_from_item': 4,
         'put_on': 4, 'put_in': 4, 'discard': 4, 'open': 2, 'close': 2, 'toggle_on': 2,
         'toggle_off': 2, 'wash': 5, 'make_bed': 2, 'empty_liquid': 2}


class StepError(ValueError):
    """A plan step that cannot be mapped to AI2-THOR actions."""


def parse_step(step: str) -> tuple[str, list[str]]:
    """Parse ``(name a b)`` or ``name(a, b)`` into ``(name, [a, b])`` (lower case)."""
    text = str(step).strip()
    m = re.fullmatch(r'\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)', text)
    if m:
        return m.group(1).lower(), [a.lower() for a in m.group(2).split()]
    m = re.fullmatch(r'([^\s(),]+)\s*\(([^()]*)\)', text)
    if m:
        args = [a.strip().lower() for a in m.group(2).split(',') if a.strip()]
        return m.group(1).lower(), args
    raise StepError(f'cannot parse plan step {step!r}: expected "(action arg ...)"')


def feedback(result: Mapping[str, Any]) -> dict[str, Any]:
    """Return the ``execution_feedback`` part of a step result (no scene graph)."""
    return {k: result[k] for k in ('step', 'action', 'success', 'error') if k in result}


class PlanExecutor:
    """Execute domain plan steps on an AI2-THOR controller and observe the result."""

    def __init__(self, controller: Any, extractor: SceneGraphExtractor,
                 all_objects: bool = False, approach: bool = True) -> None:
        self.controller = controller
        self.extractor = extractor
        self.all_objects = all_objects
        self.approach = approach

    # -- observation --------------------------------------------------------------
    @property
    def metadata(self) -> Mapping[str, Any]:
        """Return the controller's last event metadata."""
        return self.controller.last_event.metadata

    def observe(self) -> dict[str, Any]:
        """Return the scene graph of the current state."""
        return self.extractor.extract(self.metadata, all_objects=self.all_objects)

    # -- execution ----------------------------------------------------------------
    def execute(self, plan: Iterable[str], stop_on_failure: bool = True) -> list[dict[str, Any]]:
        """Run plan steps in order; stop after the first failure unless told otherwise."""
        results = []
        for i, step in enumerate(plan):
            result = self.execute_step(step, i)
            results.append(result)
            if stop_on_failure and not result['success']:
                break
        return results

    def execute_step(self, step: str, index: int = 0) -> dict[str, Any]:
        """Run one plan step; return its result with the new scene graph."""
        calls: list[dict[str, Any]] = []
        try:
            name, args = parse_step(step)
            self._check(name, args)
            if name == NAVIGATE:
                error = self._navigate(self._object_id(args[NAVIGATE_TARGET]), calls)
            else:
                thor_action, target = OBJECT_ACTIONS[name]
                oid = self._object_id(args[target])
                error = ''
                if self.approach and not self._interactable(oid):
                    error = self._approach(oid, calls)
                if not error:
                    error = self._call(calls, thor_action, objectId=oid)
            action_text = '(' + ' '.join([name, *args]) + ')'
        except StepError as exc:
            error, action_text = str(exc), str(step)
        return {
            'step': index,
            'action': action_text,
            'success': not error,
            'error': error,
            'thor_actions': calls,
            'scene_graph': self.observe(),
        }

    def _check(self, name: str, args: list[str]) -> None:
        if name != NAVIGATE and name not in OBJECT_ACTIONS:
            raise StepError(f'unknown action {name!r}: expected one of '
                            + ', '.join(sorted([NAVIGATE, *OBJECT_ACTIONS])))
        if len(args) != ARITY[name]:
            raise StepError(f'{name} takes {ARITY[name]} arguments, got {len(args)}')

    def _object_id(self, name: str) -> str:
        oid = self.extractor.object_id_of(name)
        if oid is None:
            raise StepError(f'unknown entity {name!r}: no AI2-THOR object has that name')
        return oid

    def _call(self, calls: list[dict[str, Any]], action: str, **kwargs: Any) -> str:
        calls.append({'action': action, **kwargs})
        try:
            event = self.controller.step(action=action, **kwargs)
        except (ValueError, RuntimeError, TimeoutError) as exc:
            return f'{action} failed: {exc}'
        md = event.metadata
        if md.get('lastActionSuccess'):
            return ''
        return f'{action} failed: {md.get("errorMessage") or "no error message"}'

    def _object(self, oid: str) -> Mapping[str, Any] | None:
        return next((o for o in self.metadata.get('objects', []) if o['objectId'] == oid), None)

    def _interactable(self, oid: str) -> bool:
        obj = self._object(oid)
        return bool(obj and (obj.get('isInteractable') or obj.get('isPickedUp')))

    def _poses(self, oid: str, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self._call(calls, 'GetInteractablePoses', objectId=oid, standings=[True]):
            return []
        return list(self.metadata.get('actionReturn') or [])

    def _teleport(self, oid: str, calls: list[dict[str, Any]]) -> str:
        poses = self._poses(oid, calls)
        if not poses:
            obj = self._object(oid) or {}
            for parent in obj.get('parentReceptacles') or []:
                poses = self._poses(parent, calls)
                if poses:
                    break
        if not poses:
            return f'no pose from which {oid} can be reached'
        here = self.metadata['agent']['position']
        pose = min(poses, key=lambda p: math.hypot(p['x'] - here['x'], p['z'] - here['z']))
        return self._call(calls, 'TeleportFull',
                          position={'x': pose['x'], 'y': pose['y'], 'z': pose['z']},
                          rotation={'x': 0.0, 'y': pose['rotation'], 'z': 0.0},
                          horizon=pose['horizon'], standing=pose['standing'])

    def _navigate(self, oid: str, calls: list[dict[str, Any]]) -> str:
        error = self._teleport(oid, calls)
        if not error:
            self.extractor.set_anchor(oid, self.metadata['agent']['position'])
        return error

    def _approach(self, oid: str, calls: list[dict[str, Any]]) -> str:
        anchor = self.extractor.anchor
        error = self._teleport(oid, calls)
        if not error and anchor is not None:
            self.extractor.set_anchor(anchor, self.metadata['agent']['position'])
        return ''  # the action itself reports whether the target was reachable
