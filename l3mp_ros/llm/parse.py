# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Tolerant extraction of JSON from LLM replies.

Models wrap JSON in Markdown code fences, put prose around it, or stop half-way.
:func:`extract_json` returns the first JSON object or array it can decode, or ``None``.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r'```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n?(.*?)```', re.DOTALL)
_DECODER = json.JSONDecoder()


def strip_fences(text: str) -> str:
    """Return the body of the first fenced code block in ``text``, or ``text`` stripped.

    An unterminated opening fence (a reply cut off by ``max_tokens``) is dropped too.
    """
    if not text:
        return ''
    match = _FENCE.search(text)
    if match:
        return match.group(2).strip()
    stripped = text.strip()
    if stripped.startswith('```'):
        first_newline = stripped.find('\n')
        return stripped[first_newline + 1:].strip() if first_newline >= 0 else ''
    return stripped


def _first_json(text: str) -> Any | None:
    """Decode the first JSON object or array starting anywhere in ``text``."""
    for index, char in enumerate(text):
        if char not in '{[':
            continue
        try:
            value, _ = _DECODER.raw_decode(text, index)
        except json.JSONDecodeError:
            continue
        return value
    return None


def extract_json(text: str | None) -> Any | None:
    """Parse ``text`` into JSON tolerantly; ``None`` when nothing decodes.

    Tries, in order: the whole text, the first fenced block, the first JSON object or
    array inside the fenced block, and the first JSON object or array anywhere in the
    text. Bare scalars (``42``, ``"x"``) count only when they are the whole reply.
    """
    if text is None:
        return None
    stripped = text.strip()
    if not stripped:
        return None
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        pass
    body = strip_fences(stripped)
    if body != stripped:
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            pass
        value = _first_json(body)
        if value is not None:
            return value
    return _first_json(stripped)
