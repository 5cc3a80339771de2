# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planner node's messages without ROS: task/goal/cancel requests in, sentences out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..planning.status import Status
from ..schemas import WireError, loads_object

MAX_TEXT = 4000
ALL = None  # a cancel request for every task
SAID_STEPS = 8  # steps of a plan said aloud when asking for a yes or no
YES = frozenset({'yes', 'yeah', 'yep', 'yes please', 'ok', 'okay', 'sure', 'go', 'go ahead',
                 'do it', 'confirm', 'confirmed', 'proceed'})
NO = frozenset({'no', 'nope', 'no thanks', 'no thank you', "don't", 'do not', 'stop',
                'cancel', 'abort'})


class RequestError(ValueError):
    """A request the planner refuses (its message is the reason)."""


def parse_request(raw: str, key: str, max_text: int = MAX_TEXT) -> tuple[str, str | None]:
    """Return (text or goal, task id) of a ``task``/``goal`` message.

    The message is plain text or JSON ``{"task_id", key}``; raise :class:`RequestError`.
    """
    raw = (raw or '').strip()
    text, task_id = raw, None
    if raw.startswith('{'):
        try:
            data = loads_object(raw)
        except WireError as exc:
            raise RequestError(f'malformed JSON: {exc}') from None
        text, task_id = str(data.get(key) or '').strip(), data.get('task_id')
        task_id = str(task_id) if task_id else None
    if not text:
        raise RequestError(f'empty {key}')
    if len(text) > max_text:
        raise RequestError(f'{key} of {len(text)} characters exceeds {max_text}')
    return text, task_id


def parse_cancel(raw: str) -> str | None:
    """Return the task id a ``cancel`` message names, or :data:`ALL`; raise ValueError."""
    raw = (raw or '').strip()
    target: str | None = raw
    if raw.startswith('{'):
        data = loads_object(raw)
        target = ALL if data.get('all') is True else str(data.get('task_id') or '')
    elif raw.lower() in ('all', '*'):
        target = ALL
    if target == '':
        raise RequestError('say which task: a task id, "all", {"task_id": ...} or '
                           '{"all": true}')
    return target


def yes_no(text: str) -> bool | None:
    """Return True for a plain yes, False for a plain no, None for anything else."""
    words = ' '.join(''.join(c if c.isalnum() or c in " '" else ' '
                             for c in (text or '').lower()).split())
    return True if words in YES else False if words in NO else None


def spoken(body: dict[str, Any], say_steps: Callable[[list[str]], list[str]] | None = None
           ) -> str | None:
    """Return what the robot says about a ``plan/v1`` message (None: progress only).

    ``say_steps`` says a plan's steps in sentences (:meth:`~l3mp_ros.world.phrasing.
    Phrasing.steps`) when it asks whether to go ahead; without it they are said as planned.
    """
    status, n = body.get('status'), len(body.get('steps') or [])
    if status in (Status.PLANNING, Status.EXECUTING) or (status == Status.QUEUED
                                                         and not body.get('steps')):
        return None
    what = body.get('utterance') or body.get('goal')
    if status == Status.SOLVED and body.get('reason') == 'confirmed':
        return f'Going ahead: {what}'
    if status == Status.SOLVED:
        return f'Plan for "{what}": {n} steps' + (
            f' (re-planned: {body.get("reason")})' if body.get('revision') else '')
    if status == Status.AWAITING_CONFIRMATION:
        steps = [str(s) for s in body.get('steps') or []][:SAID_STEPS]
        if say_steps is not None:  # sentences: "Move from ... . Pick up ... . And 2 more."
            said = ' '.join(say_steps(steps)) + (
                f' And {n - SAID_STEPS} more.' if n > SAID_STEPS else '')
        else:
            said = '; '.join(steps) + (f'; and {n - SAID_STEPS} more' if n > SAID_STEPS
                                       else '') + '.'
        return (f'For "{what}" I would do {n} step{"s" if n != 1 else ""}: {said} '
                'Shall I go ahead? Say yes or no.')
    if status == Status.DONE:
        return f'Done: {what}'
    if status == Status.PLANNED:  # no executor: nothing was done
        return f'Planned: {what} ({n} step{"s" if n != 1 else ""})'
    if status == Status.QUEUED:
        return f'Queued: {what}'
    if status == Status.CANCELLED:
        return f'Cancelled: {what}'
    errors = body.get('errors') or []
    reason = errors[0] if errors else body.get('reason') if status == Status.FAILED else None
    return f'I cannot do "{what}" ({status})' + (f': {reason}' if reason else '')
