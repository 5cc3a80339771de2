# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The LLM client's on-disk reply cache: one JSON file per request, for reproducible runs.

A request's key (:func:`cache_key`) is the sha256 over the parts that determine its reply
(model, messages, schema, token limit and, when asked, logprobs); its entry
``<key>.json`` keeps the reply's text, token counts, latency, finish reason and top
logprobs beside the request itself. An entry that is missing or unreadable is a miss; one
that cannot be written only costs a repeated call. Benchmarks replay a run through its
cache (``--cache DIR``): the same replies, no endpoint.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from l3mp_ros.llm.parse import extract_json
from l3mp_ros.llm.protocol import LLMReply

CACHE_VERSION = 1


def cache_key(model: str, messages: list[dict[str, Any]], schema: dict[str, Any] | None,
              max_tokens: int, **extra: Any) -> str:
    """sha256 over the request parts that determine a reply."""
    blob = json.dumps({'v': CACHE_VERSION, 'model': model, 'messages': messages,
                       'schema': schema, 'max_tokens': max_tokens, **extra},
                      sort_keys=True, ensure_ascii=False, separators=(',', ':'))
    return hashlib.sha256(blob.encode()).hexdigest()


class ReplyCache:
    """The cached replies in one folder (created on the first write)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder).expanduser()

    def read(self, key: str) -> LLMReply | None:
        """Return the cached reply of ``key`` (``cached`` True), None on a miss."""
        path = self.folder / f'{key}.json'
        try:
            record = json.loads(path.read_text(encoding='utf-8'))
            text = str(record['text'])
            return LLMReply(text=text, data=extract_json(text),
                            prompt_tokens=int(record['prompt_tokens']),
                            completion_tokens=int(record['completion_tokens']),
                            latency_s=float(record.get('latency_s', 0.0)), cached=True,
                            attempts=0, finish_reason=record.get('finish_reason'),
                            top_logprobs=_stored_logprobs(record.get('top_logprobs')))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or unreadable entry: a miss

    def write(self, key: str, reply: LLMReply, model: str, base_url: str,
              messages: list[dict[str, Any]], schema: dict[str, Any] | None,
              limit: int) -> None:
        """Keep ``reply`` as the entry of ``key`` (written whole or not at all)."""
        record = {
            'version': CACHE_VERSION, 'model': model, 'base_url': base_url,
            'text': reply.text, 'prompt_tokens': reply.prompt_tokens,
            'completion_tokens': reply.completion_tokens, 'latency_s': reply.latency_s,
            'finish_reason': reply.finish_reason, 'created': time.time(),
            'top_logprobs': reply.top_logprobs,
            'request': {'messages': messages, 'schema': schema, 'max_tokens': limit},
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=key, suffix='.tmp', dir=self.folder)
            with os.fdopen(fd, 'w', encoding='utf-8') as handle:
                json.dump(record, handle, ensure_ascii=False, indent=1)
            os.replace(tmp, self.folder / f'{key}.json')
        except OSError:
            pass  # a cache that cannot be written only costs a repeated call


def _stored_logprobs(value: Any) -> list[tuple[str, list[tuple[str, float]]]] | None:
    """Return cached ``top_logprobs`` (JSON lists) as tuples, or None."""
    if not value:
        return None
    return [(str(tok), [(str(c), float(lp)) for c, lp in top]) for tok, top in value]
