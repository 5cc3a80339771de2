# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3 (L3M+P): NL knowledge-graph updates, verified and retried.

retrieve → prompt (entities, retrieved facts, predicate signatures, report) → parse
REMOVE/ADD → verify → re-prompt with the error sentences (bounded) → apply atomically
with provenance, or reject and record why. Nothing unverified is applied (with
``verify=False``, the paper's ablation, only applicability is checked, without retries).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..llm.client import LLMError, Usage
from ..retrieval.base import Retrieval, Retriever
from ..world.kg import KGError, Update
from ..world.model import WorldModel
from .prompting import llm_failure, system_prompt, user_message

TRIPLET = {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 4}
UPDATE_SCHEMA = {
    'type': 'object',
    'properties': {'remove': {'type': 'array', 'items': TRIPLET},
                   'add': {'type': 'array', 'items': TRIPLET}},
    'required': ['remove', 'add'],
    'additionalProperties': False,
}


@dataclass
class UpdateOutcome:
    """Result of one NL update."""

    text: str
    applied: bool = False
    update: Update | None = None
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    event_id: int | None = None
    context_size: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'text': self.text, 'applied': self.applied,
                'diff': self.update.to_json() if self.update else None,
                'errors': self.errors, 'attempts': self.attempts,
                'usage': self.usage.to_dict(), 'seconds': round(self.seconds, 4),
                'retrieval_seconds': round(self.retrieval_seconds, 4),
                'event_id': self.event_id, 'context_size': self.context_size,
                'history': self.history}


def parse_reply(data: Any) -> Update:
    """Turn the LLM's JSON into an :class:`Update`; raise KGError with a sentence."""
    if isinstance(data, dict):
        lowered = {str(k).lower(): v for k, v in data.items()}
        if 'remove' in lowered or 'add' in lowered:
            return Update.from_json({'remove': lowered.get('remove') or [],
                                     'add': lowered.get('add') or []})
    if isinstance(data, str):
        return Update.parse(data)
    raise KGError('the reply is not a JSON object {"remove": [...], "add": [...]}')


class NLUpdater:
    """Run Algorithm 3 against a world model."""

    def __init__(self, world: WorldModel, llm: Any, retriever: Retriever, *,
                 max_attempts: int = 3, verify: bool = True, max_tokens: int = 400,
                 memory: Any = None) -> None:
        self.world = world
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.llm = llm
        self.retriever = retriever
        self.max_attempts = max(1, max_attempts)
        self.verify = verify
        self.max_tokens = max_tokens

    def run(self, text: str, *, source: str = 'nl',
            retrieval: Retrieval | None = None) -> UpdateOutcome:
        """Update the KG from one report; never raises for LLM or input errors."""
        began = time.perf_counter()
        out = UpdateOutcome(text=text)
        text = (text or '').strip()
        if not text:
            out.errors = ['empty report']
            return self._finish(out, began, source, None)
        kg = self.world.snapshot()
        try:
            if retrieval is None:
                retrieval = self.retriever.retrieve(kg, text, self.llm)
        except LLMError as exc:
            out.errors = [llm_failure(exc, 'retrieval')]
            return self._finish(out, began, source, None)
        out.retrieval_seconds = retrieval.seconds
        out.usage.prompt_tokens += retrieval.prompt_tokens
        out.usage.completion_tokens += retrieval.completion_tokens
        out.usage.calls += 1 if (retrieval.prompt_tokens or retrieval.llm_seconds) else 0
        out.context_size = len(retrieval.facts)
        messages = [
            {'role': 'system', 'content': system_prompt('update', self.world.domain)},
            {'role': 'user', 'content': (
                self.memory.update_context(text, retrieval.facts) if self.memory is not None
                else '') + user_message(kg, retrieval.facts, 'Report', text,
                                        retrieval.entities)},
        ]
        update: Update | None = None
        errors: list[str] = []
        attempts = self.max_attempts if self.verify else 1
        for attempt in range(1, attempts + 1):
            out.attempts = attempt
            try:
                reply = self.llm.chat(messages, schema=UPDATE_SCHEMA, schema_name='kg_update',
                                      max_tokens=self.max_tokens)
            except LLMError as exc:
                errors = [llm_failure(exc)]
                break
            out.usage.add(reply)
            try:
                update = parse_reply(reply.data if reply.data is not None else reply.text)
                errors = []
            except KGError as exc:
                update, errors = None, [f'could not read the update: {exc}']
            if update is not None and self.verify:
                errors = self.world.verifier.check(self.world.kg, update)
                if not errors and update.is_empty():
                    errors = ['the update is empty, but the report describes a change']
            out.history.append({'attempt': attempt, 'reply': reply.text[:2000],
                                'errors': list(errors)})
            if not errors:
                break
            messages = messages + [
                {'role': 'assistant', 'content': reply.text},
                {'role': 'user', 'content': 'Your update has errors:\n- ' + '\n- '.join(errors)
                 + '\nReply with the corrected JSON update.'}]
        out.update = update
        out.errors = errors
        return self._finish(out, began, source, text)

    def _finish(self, out: UpdateOutcome, began: float, source: str,
                utterance: str | None) -> UpdateOutcome:
        info = {'attempts': out.attempts, 'usage': out.usage.to_dict()}
        if out.errors or out.update is None:
            res = self.world.reject(out.errors or ['no update produced'], source=source,
                                    utterance=utterance or out.text, update=out.update,
                                    info=info)
        else:
            res = self.world.apply(out.update, source=source, utterance=utterance,
                                   verify=self.verify, info=info)
            out.errors = res.errors
        out.applied = res.applied
        out.event_id = res.event_id
        out.seconds = time.perf_counter() - began
        return out
