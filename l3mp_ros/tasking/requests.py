# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planner node's messages without ROS: task/goal/cancel requests in, sentences out."""

from __future__ import annotations

from typing import Any

from ..planning.status import Status
from ..schemas import WireError, loads_object

MAX_TEXT = 4000
ALL = None  # a cancel request for every task


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


def spoken(body: dict[str, Any]) -> str | None:
    """Return what the robot says about a ``plan/v1`` message (None: progress only)."""
    status, n = body.get('status'), len(body.get('steps') or [])
    if status in (Status.PLANNING, Status.EXECUTING) or (status == Status.QUEUED
                                                         and not body.get('steps')):
        return None
    what = body.get('utterance') or body.get('goal')
    if status == Status.SOLVED:
        return f'Plan for "{what}": {n} steps' + (
            f' (re-planned: {body.get("reason")})' if body.get('revision') else '')
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
